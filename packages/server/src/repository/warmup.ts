/**
 * `model_warmup` (Triton's `ModelWarmup`): the samples a new version runs before it
 * takes requests, so its first request meets a session that has run at the sizes it
 * will see. Each sample names every model input with its `data_type`, its `dims`
 * (without the batch dimension) and where its data comes from: zeros, random values, or
 * the raw row-major bytes of a file in the model's `warmup/` directory (a `TYPE_STRING`
 * element there is a 4-byte little-endian length and its bytes). A sample is one request
 * of `batch_size` rows, each the same data, run `count` times (0 is once).
 *
 * Checked in two steps, each failure an `UnsupportedModelConfigError` naming the field:
 * what the config alone can tell when it is read (`warmupSamplesOf`), and against the
 * model's inputs and the data files when the version loads (`warmupRows`). Without
 * `model_warmup` a version warms with one zero-filled row.
 */
import { randomFillSync } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, normalize, sep } from 'node:path'
import type { Pool, RowInput, TensorInfo, TensorType, TypedArray } from '@inferpool/host'
import { splitBytesElements } from '@inferpool/worker'
import { datatypeInfo, halfBits, tritonDataType } from '../protocol/datatypes.js'
import type { NumericType } from '../protocol/datatypes.js'
import { UnsupportedModelConfigError } from './errors.js'

/** The directory of a model holding its warmup data files (as in Triton). */
export const WARMUP_DIRECTORY = 'warmup'

/** Where one input's warmup data comes from. */
export type WarmupData = { readonly kind: 'zero' } | { readonly kind: 'random' } | { readonly kind: 'file'; readonly file: string }

export interface WarmupInput {
  /** Triton's `DataType` name (`TYPE_FP32`). */
  readonly dataType: string
  /** The shape of one row (no batch dimension), every dim >= 1. */
  readonly dims: readonly number[]
  readonly data: WarmupData
}

/** One `model_warmup` entry, checked against the config alone. */
export interface WarmupSample {
  /** Its path in the config (`model_warmup[0]`), for errors. */
  readonly field: string
  readonly name: string
  /** Rows of the sample's request, >= 1. */
  readonly batchSize: number
  /** Runs of the sample, >= 1 (Triton's 0 is once). */
  readonly count: number
  readonly inputs: ReadonlyMap<string, WarmupInput>
}

type Obj = Record<string, unknown>
type Fail = (field: string, reason: string) => never

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null ? (value as Obj) : {}
}

/**
 * The samples of `model_warmup` (`list`, as parsed), checked against what the config
 * alone says: `maxBatchSize` is its `max_batch_size` (0: no batching, so one row per
 * sample; `undefined`: not set, taken from the model file).
 */
export function warmupSamplesOf(list: readonly unknown[], maxBatchSize: number | undefined, fail: Fail): WarmupSample[] {
  return list.map((entry, i) => {
    const sample = obj(entry)
    const field = `model_warmup[${i}]`
    const batchSize = Number(sample.batch_size ?? 0)
    if (batchSize < 1) fail(`${field}.batch_size`, `must be >= 1, got ${batchSize}`)
    if (maxBatchSize === 0 && batchSize !== 1)
      fail(`${field}.batch_size`, `must be 1 for a model with max_batch_size 0 (no batching), got ${batchSize}`)
    if (maxBatchSize !== undefined && maxBatchSize > 0 && batchSize > maxBatchSize)
      fail(`${field}.batch_size`, `must be <= max_batch_size ${maxBatchSize}, got ${batchSize}`)
    const specs = Object.entries(obj(sample.inputs))
    if (specs.length === 0) fail(`${field}.inputs`, 'must name the inputs of the model')
    const inputs = new Map<string, WarmupInput>()
    for (const [name, value] of specs) inputs.set(name, warmupInputOf(`${field}.inputs["${name}"]`, obj(value), fail))
    const count = Number(sample.count ?? 0)
    return { field, name: String(sample.name ?? ''), batchSize, count: Math.max(1, count), inputs }
  })
}

function warmupInputOf(field: string, input: Obj, fail: Fail): WarmupInput {
  const dataType = String(input.data_type ?? 'TYPE_INVALID')
  if (dataType === 'TYPE_INVALID') fail(`${field}.data_type`, 'must be set to the data type of the input')
  const dims = ((input.dims as number[] | undefined) ?? []).map(Number)
  for (const dim of dims) {
    if (!Number.isSafeInteger(dim) || dim < 1) fail(`${field}.dims`, `must be sizes >= 1 (a warmup tensor has a fixed shape), got ${dim}`)
  }
  const set = ['zero_data', 'random_data', 'input_data_file'].filter((key) => input[key] !== undefined)
  if (set.length !== 1) {
    fail(field, `must set one of zero_data, random_data or input_data_file, ${set.length === 0 ? 'got none' : `got ${set.join(' and ')}`}`)
  }
  if (set[0] === 'zero_data') return { dataType, dims, data: { kind: 'zero' } }
  if (set[0] === 'random_data') return { dataType, dims, data: { kind: 'random' } }
  const file = String(input.input_data_file)
  // A file of the model's warmup/ directory: never a path that leaves it.
  const normal = normalize(file)
  if (file === '' || isAbsolute(file) || normal === '..' || normal.startsWith(`..${sep}`)) {
    fail(`${field}.input_data_file`, `must name a file in the model's ${WARMUP_DIRECTORY}/ directory, got '${file}'`)
  }
  return { dataType, dims, data: { kind: 'file', file: normal } }
}

/** The data files `samples` read, relative to the model directory (so a change to one reloads the model in poll mode). */
export function warmupFiles(directory: string, samples: readonly WarmupSample[]): string[] {
  const files = new Set<string>()
  for (const sample of samples) {
    for (const input of sample.inputs.values())
      if (input.data.kind === 'file') files.add(join(directory, WARMUP_DIRECTORY, input.data.file))
  }
  return [...files]
}

/**
 * The rows of `sample` for a model whose inputs are `inputs` (the pool's metadata) and
 * whose directory is `directory`: `batchSize` rows sharing one set of tensors.
 */
export function warmupRows(model: string, directory: string, sample: WarmupSample, inputs: readonly TensorInfo[]): RowInput[] {
  const fail: Fail = (field, reason) => {
    throw new UnsupportedModelConfigError(model, field, reason)
  }
  const known = new Set(inputs.map((input) => input.name))
  for (const name of sample.inputs.keys()) {
    if (!known.has(name)) fail(`${sample.field}.inputs["${name}"]`, `names no input of the model (its inputs: ${[...known].join(', ')})`)
  }
  const row: RowInput = {}
  for (const input of inputs) {
    const field = `${sample.field}.inputs["${input.name}"]`
    const spec = sample.inputs.get(input.name)
    if (spec === undefined) fail(`${sample.field}.inputs`, `has no entry for the model's input '${input.name}'`)
    const { dataType, dims, data } = spec as WarmupInput
    const expected = tritonDataType(input.type)
    if (dataType !== expected) fail(`${field}.data_type`, `is ${dataType}, but the model's input '${input.name}' is ${expected}`)
    const declared = input.dims.slice(1)
    const fits = declared.length === dims.length && declared.every((d, k) => typeof d !== 'number' || d <= 0 || d === dims[k])
    if (!fits)
      fail(`${field}.dims`, `is [${dims.join(', ')}], but the model's input '${input.name}' takes rows of [${declared.join(', ')}]`)
    const size = dims.reduce((a, b) => a * b, 1)
    const values =
      data.kind === 'file'
        ? fromFile(join(directory, WARMUP_DIRECTORY, data.file), input.type, size, `${field}.input_data_file`, fail)
        : generated(input.type, size, data.kind === 'random')
    row[input.name] = { data: values, dims: [...dims] }
  }
  return Array.from({ length: sample.batchSize }, () => row)
}

/** `size` zeros, or random values (`random`; strings stay empty, as Triton falls back to zeros). */
function generated(type: TensorType, size: number, random: boolean): TypedArray | string[] {
  if (type === 'string') return new Array<string>(size).fill('')
  const data = new (datatypeInfo(type as NumericType).create)(size)
  if (!random) return data
  if (type === 'float32' || type === 'float64') for (let i = 0; i < size; i++) data[i] = Math.random()
  else if (type === 'float16') for (let i = 0; i < size; i++) data[i] = halfBits(Math.random()) as number
  else if (type === 'bool') for (let i = 0; i < size; i++) data[i] = Math.random() < 0.5 ? 0 : 1
  else randomFillSync(data)
  return data
}

/** The `size` elements of one row of `type` held in `file`, whose length must be exactly theirs. */
function fromFile(file: string, type: TensorType, size: number, field: string, fail: Fail): TypedArray | string[] {
  if (!existsSync(file) || !statSync(file).isFile()) fail(field, `names ${file}, which does not exist`)
  const bytes = readFileSync(file)
  if (type === 'string') {
    // The one BYTES codec; views into a Buffer are Buffers.
    const elements = splitBytesElements(bytes, size)
    if (!Array.isArray(elements)) {
      fail(field, `${file} must hold ${size} length-prefixed strings (4-byte little-endian length, then the bytes) and nothing else`)
    }
    return (elements as Buffer[]).map((element) => element.toString('utf8'))
  }
  const create = datatypeInfo(type as NumericType).create
  const expected = size * create.BYTES_PER_ELEMENT
  if (bytes.length !== expected) fail(field, `${file} holds ${bytes.length} bytes; one row of ${type} [${size} elements] takes ${expected}`)
  // A copy into a fresh buffer: aligned for the typed array, and the pool may transfer it.
  const buffer = new ArrayBuffer(expected)
  new Uint8Array(buffer).set(bytes)
  return new create(buffer, 0, size)
}

/** One zero-filled row for `inputs` (dynamic dims as 1): the warmup of a model without `model_warmup`. */
function zeroRow(inputs: readonly TensorInfo[]): RowInput {
  const row: RowInput = {}
  for (const input of inputs) {
    const dims = input.dims.slice(1).map((d) => (typeof d === 'number' && d > 0 ? d : 1))
    row[input.name] = {
      data: generated(
        input.type,
        dims.reduce((a, b) => a * b, 1),
        false,
      ),
      dims,
    }
  }
  return row
}

/** Bytes one element of `type` takes in a warm-up row (a string: its 4-byte length at least). */
function elementBytes(type: TensorType): number {
  return type === 'string' ? 4 : datatypeInfo(type as NumericType).create.BYTES_PER_ELEMENT
}

/**
 * Refuses a sample larger than a request could be, before any of it is built: more rows
 * than `maxRows`, or more bytes than `maxBytes` (the server's body limit) for its rows
 * together. A data file counts at its size.
 */
function checkWarmupSize(
  model: string,
  directory: string,
  sample: WarmupSample,
  inputs: readonly TensorInfo[],
  maxRows: number | undefined,
  maxBytes: number,
): void {
  const fail: Fail = (field, reason) => {
    throw new UnsupportedModelConfigError(model, field, reason)
  }
  if (maxRows !== undefined && sample.batchSize > maxRows)
    fail(`${sample.field}.batch_size`, `must be <= the model's max batch size ${maxRows}, got ${sample.batchSize}`)
  let rowBytes = 0
  for (const input of inputs) {
    const spec = sample.inputs.get(input.name)
    if (spec === undefined) continue
    const elements = spec.dims.reduce((a, b) => a * b, 1)
    const file =
      spec.data.kind === 'file' ? statSync(join(directory, WARMUP_DIRECTORY, spec.data.file), { throwIfNoEntry: false }) : undefined
    rowBytes += Math.max(elements * elementBytes(input.type), file?.size ?? 0)
  }
  const bytes = rowBytes * sample.batchSize
  if (!Number.isSafeInteger(bytes) || bytes > maxBytes) {
    fail(
      sample.field,
      `takes ${Number.isSafeInteger(bytes) ? bytes : 'more than 2^53'} bytes (${sample.batchSize} rows of ${rowBytes}); ` +
        `a warm-up request may take at most ${maxBytes} (the server's body limit)`,
    )
  }
}

/** What bounds a warm-up, and what ends it early. */
export interface WarmupLimits {
  /** Most bytes of one sample's rows together (the server's body limit). */
  readonly maxBytes: number
  /** Ends the warm-up: its requests reject with the signal's reason. */
  readonly signal?: AbortSignal
  /**
   * The config's smallest batch (its largest `preferred_batch_size`): the default warm-up
   * sends that many zero-filled rows, since one row alone would wait the whole
   * `max_queue_delay_microseconds` for the rest (Triton's warm-up skips the scheduler).
   * @default 1
   */
  readonly minBatchSize?: number
}

/**
 * Warms `pool`, a new version of `model` (in `directory`): each sample's rows, `count`
 * times one after the other, the samples in their order; without samples, one
 * zero-filled row (`minBatchSize` of them with preferred batch sizes). Every sample's size
 * is checked before any is built. Rejects with the first failure, so the load fails and
 * the old version keeps serving.
 */
export async function warmUp(
  model: string,
  directory: string,
  samples: readonly WarmupSample[],
  pool: Pool,
  limits: WarmupLimits,
): Promise<void> {
  const inputs = pool.metadata.inputs
  // No request timeout: the pool's default is the server's per-request `--timeout-ms`, and
  // a cold session's first run (a process replica's especially) can take longer than a
  // request may wait; a timed-out warm-up would fail the load itself. The load's own
  // signal (shutdown, unload) still bounds it.
  const options = { signal: limits.signal, timeoutMs: Infinity }
  if (samples.length === 0) {
    const rows = Math.max(1, Math.min(limits.minBatchSize ?? 1, pool.metadata.maxBatchSize))
    await (rows === 1
      ? pool.infer(zeroRow(inputs), options)
      : pool.inferMany(
          Array.from({ length: rows }, () => zeroRow(inputs)),
          options,
        ))
    return
  }
  // Rows up to the pool's max batch size (the config's `max_batch_size`, else the model's);
  // a model with a fixed batch dim runs a sample's rows one batch after another, so the
  // bytes alone bound it.
  const { fixedBatchSize, maxBatchSize } = pool.metadata
  const maxRows = fixedBatchSize === null ? maxBatchSize : undefined
  for (const sample of samples) checkWarmupSize(model, directory, sample, inputs, maxRows, limits.maxBytes)
  for (const sample of samples) {
    for (let run = 0; run < sample.count; run++) {
      limits.signal?.throwIfAborted()
      await pool.inferMany(warmupRows(model, directory, sample, inputs), options)
    }
  }
}
