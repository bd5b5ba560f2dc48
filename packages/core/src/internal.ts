/**
 * `@inferpool/core/internal`: the option validators of every inferpool package — the
 * batcher's options here, the pool's and the server's in @inferpool/host. Not part of
 * the public API (no semver promise); one set, so every option fails the same way:
 *
 *   ``Expected `name` to be <what>, got `<value>` (<type>)``
 *
 * - a `TypeError` when the value is of the wrong type (`'5'` for a number);
 * - a `RangeError` when it is of the right type but out of range — `1.5` where an
 *   integer is expected is a RangeError (a number, of the wrong kind), as in dataloader
 *   and p-queue.
 *
 * Also the quantile the batcher's latency model and the pool's hand-off both read.
 */

export { quantile } from './quantile.js'

/** Largest delay `setTimeout` honours; longer ones fire after 1 ms. Bounds every option that becomes a timer. */
export const MAX_TIMER_MS = 2_147_483_647

/** `` `5` (number) ``, `` `"5"` (string) ``, `` `[1,2]` (array) `` — the bad value, echoed for messages. */
export function describeValue(value: unknown): string {
  let shown: string
  if (typeof value === 'string') shown = JSON.stringify(value)
  else if (typeof value === 'bigint') shown = `${value}n`
  else if (typeof value === 'function') shown = `[Function${value.name ? ` ${value.name}` : ''}]`
  else if (Array.isArray(value) || (value !== null && typeof value === 'object' && isPlain(value))) shown = json(value)
  else if (value !== null && typeof value === 'object')
    shown = `[${(value as { constructor?: { name?: string } }).constructor?.name ?? 'Object'}]`
  else shown = String(value)
  return `\`${shown}\` (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** JSON, cut to a readable length; `[Array]`/`[Object]` when it cannot be serialized. */
function json(value: object): string {
  let text: string | undefined
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
  } catch {
    text = undefined
  }
  if (text === undefined) return Array.isArray(value) ? '[Array]' : '[Object]'
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/** Throws ``Expected `name` to be <expected>, got <value>`` as a TypeError or RangeError. */
export function invalidOption(kind: 'type' | 'range', name: string, expected: string, value: unknown): never {
  const message = `Expected \`${name}\` to be ${expected}, got ${describeValue(value)}`
  throw kind === 'type' ? new TypeError(message) : new RangeError(message)
}

/** An integer >= `min` (or `Infinity` with `allowInfinity`; at most `max`). */
export function integerOption(name: string, value: unknown, min: number, allowInfinity = false, max = Infinity): number {
  const expected = max < Infinity ? `an integer in [${min}, ${max}]` : `an integer >= ${min}${allowInfinity ? ' or Infinity' : ''}`
  if (typeof value !== 'number') invalidOption('type', name, expected, value)
  if (value === Infinity && allowInfinity) return value
  if (!Number.isInteger(value) || value < min || value > max) invalidOption('range', name, expected, value)
  return value
}

/** A number >= `min` (or > `min` when `exclusive`), finite unless `allowInfinity`, at most `max`. */
export function numberOption(
  name: string,
  value: unknown,
  min: number,
  { allowInfinity = false, exclusive = false, max = Infinity } = {},
): number {
  const bound = `${exclusive ? '>' : '>='} ${min}`
  const expected = allowInfinity
    ? `a number ${bound} (Infinity allowed)`
    : `a finite number ${bound}${max < Infinity ? ` and <= ${max}` : ''}`
  if (typeof value !== 'number') invalidOption('type', name, expected, value)
  if (Number.isNaN(value) || (exclusive ? value <= min : value < min)) invalidOption('range', name, expected, value)
  if (!allowInfinity && (!Number.isFinite(value) || value > max)) invalidOption('range', name, expected, value)
  return value
}

/** Any finite number. */
export function finiteOption(name: string, value: unknown): number {
  if (typeof value !== 'number') invalidOption('type', name, 'a finite number', value)
  if (!Number.isFinite(value)) invalidOption('range', name, 'a finite number', value)
  return value
}

/** A function, or `undefined` when not given. */
export function functionOption<F>(name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'function') invalidOption('type', name, 'a function', value)
  return value as F
}

/** A boolean, or `fallback` when not given. */
export function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean') invalidOption('type', name, 'a boolean', value)
  return value
}

/** One of `allowed` (strings), or `fallback` when not given. A string not listed is a RangeError. */
export function oneOfOption<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    invalidOption(typeof value === 'string' ? 'range' : 'type', name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value)
  }
  return value as T
}

/** A non-empty string, or `undefined` when not given. */
export function stringOption(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.length === 0) invalidOption('type', name, 'a non-empty string', value)
  return value
}
