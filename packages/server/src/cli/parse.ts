/**
 * Parsers of flag values: each refuses anything that is not exactly the kind of value
 * the flag takes, with a message that names what was expected (commander prefixes the
 * flag and echoes the value).
 */
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import bytes from 'bytes-iec'
import { InvalidArgumentError } from 'commander'
import { MAX_TIMER_MS } from '@inferpool/core/internal'
import { echo } from '../protocol/errors.js'
import { isModelName, MODEL_NAME_RULE } from '../protocol/model-names.js'

const INTEGER = /^\d+$/
const NUMBER = /^\d+(\.\d+)?$/

export function integerAtLeast(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value)
    if (!INTEGER.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER ? `Expected an integer >= ${min}.` : `Expected an integer in [${min}, ${max}].`,
      )
    }
    return n
  }
}

/** `--nats <url>`, repeatable (a cluster's servers); a comma-separated list counts as several. */
export function natsFlag(value: string, previous: string[] | undefined): string[] {
  const urls = value.split(',').map((u) => u.trim())
  if (urls.some((u) => u.length === 0 || /\s/.test(u))) throw new InvalidArgumentError('Expected a NATS server URL (nats://host:port).')
  return [...(previous ?? []), ...urls]
}

/**
 * Milliseconds that a timer waits: an integer >= `min`, and at most what Node's timers
 * take (2^31 - 1 ms; a longer delay fires after 1 ms, with a TimeoutOverflowWarning).
 */
export function timerMs(min: number): (value: string) => number {
  return integerAtLeast(min, MAX_TIMER_MS)
}

/** Seconds between two runs of a timer: an integer >= 1, at most what Node's timers take. */
export const timerSeconds = integerAtLeast(1, Math.floor(MAX_TIMER_MS / 1000))

export function port(value: string): number {
  const n = Number(value)
  if (!INTEGER.test(value.trim()) || n > 65535) throw new InvalidArgumentError('Expected a port number in [0, 65535].')
  return n
}

/** Milliseconds: a non-negative decimal number (`> 0` when `positive`), at most `max`. */
export function milliseconds(positive: boolean, max = Number.MAX_VALUE): (value: string) => number {
  return (value) => {
    const n = Number(value)
    if (!NUMBER.test(value.trim()) || !Number.isFinite(n) || (positive && n === 0) || n > max) {
      const bound = max === Number.MAX_VALUE ? '' : ` and <= ${max}`
      throw new InvalidArgumentError(`Expected a number of milliseconds ${positive ? '> 0' : '>= 0'}${bound}.`)
    }
    return n
  }
}

export interface ModelFlag {
  readonly name: string
  readonly path: string
}

/** `--model-repository <dir>`, repeatable: accumulates into a list of absolute paths. */
export function repositoryFlag(value: string, previous: string[] | undefined): string[] {
  const path = resolve(value)
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new InvalidArgumentError(`No directory at ${path}.`)
  const list = previous ?? []
  if (list.includes(path)) throw new InvalidArgumentError(`Repository ${path} is given twice.`)
  return [...list, path]
}

/** `--load-model <name>|*`, repeatable. */
export function loadModelFlag(value: string, previous: string[] | undefined): string[] {
  if (value !== '*' && !isModelName(value)) {
    throw new InvalidArgumentError(`Expected a model name (${MODEL_NAME_RULE}) or '*', got '${echo(value)}'.`)
  }
  return [...(previous ?? []), value]
}

/** `--model name=path.onnx`, repeatable: accumulates into a list. */
export function modelFlag(value: string, previous: ModelFlag[] | undefined): ModelFlag[] {
  const eq = value.indexOf('=')
  if (eq <= 0 || eq === value.length - 1) throw new InvalidArgumentError('Expected name=path.onnx.')
  const name = value.slice(0, eq)
  const path = resolve(value.slice(eq + 1))
  if (!isModelName(name)) {
    throw new InvalidArgumentError(`Model name '${echo(name)}' must be ${MODEL_NAME_RULE}.`)
  }
  const list = previous ?? []
  if (list.some((m) => m.name === name)) throw new InvalidArgumentError(`Model name '${name}' is given twice.`)
  if (!existsSync(path) || !statSync(path).isFile()) throw new InvalidArgumentError(`No model file at ${path}.`)
  return [...list, { name, path }]
}

/**
 * A size in bytes (`--model-memory-budget`): a number with a unit, `400MiB`, `1.5GiB`
 * (binary, 1024-based: `KiB`, `MiB`, `GiB`, `TiB`) or `500MB`, `2GB` (decimal), or a
 * plain number of bytes; at least 1 MiB, a whole number of bytes once converted.
 */
export function sizeFlag(value: string): number {
  const n = bytes.parse(value.trim())
  if (n === null || !Number.isFinite(n) || n < MIN_SIZE || n > Number.MAX_SAFE_INTEGER) {
    throw new InvalidArgumentError('Expected a size of at least 1MiB, as 400MiB, 1.5GiB, 500MB or a number of bytes.')
  }
  return Math.floor(n)
}

const MIN_SIZE = 1024 * 1024
