/**
 * A JSON parser for request bodies that reads arrays of numbers straight from the bytes
 * into a `Float64Array`. A 64-row FP32 request is some 16,000 numbers: `TextDecoder` +
 * `JSON.parse` spend most of the host thread's time making a string of the body and a
 * boxed number per element, which the decoder then copies once more into its tensor.
 *
 * `parseJsonNumbers(body)` returns what `JSON.parse(new TextDecoder('utf-8', { fatal:
 * true }).decode(body))` would, except that a non-empty array holding only numbers is a
 * `Float64Array` of exactly the doubles `JSON.parse` gives (bit for bit, `-0` too), valid
 * until the next call. It
 * never reports errors: on anything it does not fully handle it returns `NOT_PARSED`, and
 * the caller runs the standard path (body.ts `parseJson`), whose result and error messages
 * are then those of every other JSON body. It gives up on:
 * - bytes that are not UTF-8 (`isUtf8`: the strict check `TextDecoder`'s fatal mode makes),
 *   and a byte order mark (which `TextDecoder` strips: the standard path handles it);
 * - any syntax error, including leading zeros, trailing commas, control characters in a
 *   string, other whitespace than JSON's four, anything after the value;
 * - a `__proto__` key (JSON.parse makes it an own property; assignment here would set the
 *   prototype), and nesting deeper than `MAX_DEPTH` (the recursion here is bounded; V8's
 *   JSON.parse is not recursive).
 *
 * Numbers: a decimal mantissa below 2^53 with a power of ten up to 22 is converted exactly
 * as Clinger's fast path does: both are exact doubles, and one IEEE multiplication or
 * division rounds their true product or quotient correctly, which is what JSON.parse
 * returns. Any other number (17 significant digits, large exponents) goes through
 * `Number(token)`, which V8 rounds correctly too (docs/runtime-facts.md#v8-on-the-hot-path)
 * — up to `SLOW_NUMBERS_MAX` of them: a body written at full precision is left to
 * JSON.parse, which reads it as fast.
 *
 * Allocation is bounded by the body, never by what it claims: numbers go into one reused
 * scratch buffer (at most one element per two bytes of body), and each array of numbers
 * handed out is a view of it, which the next call overwrites.
 */
import { isUtf8 } from 'node:buffer'

/** What `parseJsonNumbers` returns when the standard path must parse the body. */
export const NOT_PARSED: unique symbol = Symbol('not parsed')

/** Deeper nesting is left to JSON.parse (no request is more than a few levels deep). */
const MAX_DEPTH = 64

/** Exact doubles: 10^22 = 2^22 · 5^22, and 5^22 < 2^53. */
const POWERS_OF_TEN = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/** Every integer up to here is an exact double, so a mantissa below it was accumulated exactly. */
const EXACT_MANTISSA = 2 ** 53

/** A scratch array larger than this (in elements, 1 MiB) is not kept between bodies. */
const SCRATCH_KEPT = 1 << 17

/**
 * More numbers than this that need `Number()` and the body is left to JSON.parse: a body of
 * full-precision numbers (17 digits) costs as much through `Number()` as through JSON.parse,
 * so reading on would only add this parser's own work.
 */
const SLOW_NUMBERS_MAX = 64

/** Thrown inside the parser, caught at its top: the body is left to the standard path. */
const GIVE_UP = new Error('not parsed')

const SPACE = 0x20
const TAB = 0x09
const LF = 0x0a
const CR = 0x0d
const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const MINUS = 0x2d
const PLUS = 0x2b
const DOT = 0x2e
const ZERO = 0x30
const NINE = 0x39
const LOWER_E = 0x65
const UPPER_E = 0x45
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/**
 * Where every number of one body goes: the arrays handed out are views of it, one after
 * the other (`used` elements so far). Reusing one buffer matters: writing 128 KiB of fresh
 * memory per request measured some 80 µs more per 64-row body (page faults).
 */
let scratch: Float64Array = new Float64Array(1024)
let used = 0
/** Numbers of this body converted by `Number()`. */
let slowNumbers = 0

const EMPTY = Buffer.alloc(0)

/** The body's bytes and the read position: one parse at a time (the host thread is single). */
let bytes: Buffer = EMPTY
let pos = 0

/**
 * Parses a JSON body, with arrays of numbers as `Float64Array`s; `NOT_PARSED` when it gives
 * up. The `Float64Array`s view one scratch buffer that the next call overwrites: read them
 * (and copy what is kept) before parsing another body.
 */
export function parseJsonNumbers(body: Buffer): unknown {
  if (!isUtf8(body)) return NOT_PARSED
  bytes = body
  pos = 0
  try {
    const value = readValue(0)
    skipSpace()
    return pos === body.length ? value : NOT_PARSED
  } catch {
    // GIVE_UP, or anything unforeseen: the standard path decides what the body is.
    return NOT_PARSED
  } finally {
    bytes = EMPTY
    used = 0
    slowNumbers = 0
    if (scratch.length > SCRATCH_KEPT) scratch = new Float64Array(1024)
  }
}

function skipSpace(): void {
  let c = bytes[pos]
  while (c === SPACE || c === LF || c === CR || c === TAB) c = bytes[++pos]
}

function readValue(depth: number): unknown {
  skipSpace()
  const c = bytes[pos]
  if (c === QUOTE) return readString()
  if (c === OPEN_BRACKET) return readArray(depth + 1)
  if (c === OPEN_BRACE) return readObject(depth + 1)
  if (c === MINUS || (c >= ZERO && c <= NINE)) return readNumber()
  if (c === 0x74) return readWord('true', true)
  if (c === 0x66) return readWord('false', false)
  if (c === 0x6e) return readWord('null', null)
  throw GIVE_UP
}

function readWord<T>(word: string, value: T): T {
  for (let k = 0; k < word.length; k++) if (bytes[pos + k] !== word.charCodeAt(k)) throw GIVE_UP
  pos += word.length
  return value
}

/**
 * Short ASCII strings already made, by a hash of their bytes: a request's keys (`inputs`,
 * `name`, `shape`, `datatype`, `data`), its input names and datatypes are the same from one
 * body to the next, and taking them from here costs a loop over their bytes instead of a
 * string made in C++ (`toString`) for each. A fixed table: a slot holds the last string
 * that hashed to it, so what the cache holds is bounded whatever the bodies send.
 */
const INTERNED_SLOTS = 256
const INTERNED_MAX_LENGTH = 32
const interned: (string | undefined)[] = new Array<string | undefined>(INTERNED_SLOTS).fill(undefined)

/** The string in `slot` when it is exactly the ASCII bytes `start` to `end`; else undefined. */
function internedAt(slot: number, start: number, end: number): string | undefined {
  const known = interned[slot]
  if (known === undefined || known.length !== end - start) return undefined
  for (let k = 0; k < known.length; k++) if (known.charCodeAt(k) !== bytes[start + k]) return undefined
  return known
}

/**
 * A string from its opening quote. The body is valid UTF-8, so the bytes between two
 * ASCII quotes decode on their own; escapes are left to JSON.parse of the token.
 */
function readString(): string {
  const start = pos
  let escaped = false
  let ascii = true
  let hash = 0
  let i = pos + 1
  for (;;) {
    const c = bytes[i]
    if (c === QUOTE) break
    if (c === BACKSLASH) {
      escaped = true
      i += 2
      continue
    }
    // Also the end of the body (undefined).
    if (!(c >= SPACE)) throw GIVE_UP
    if (c >= 0x80) ascii = false
    hash = (Math.imul(hash, 31) + c) | 0
    i++
  }
  pos = i + 1
  if (escaped) {
    try {
      return JSON.parse(bytes.toString('utf8', start, i + 1)) as string
    } catch {
      throw GIVE_UP
    }
  }
  if (!ascii || i - start - 1 > INTERNED_MAX_LENGTH) return bytes.toString('utf8', start + 1, i)
  const slot = hash & (INTERNED_SLOTS - 1)
  const known = internedAt(slot, start + 1, i)
  if (known !== undefined) return known
  const made = bytes.toString('latin1', start + 1, i)
  interned[slot] = made
  return made
}

function readObject(depth: number): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw GIVE_UP
  pos++
  const object: Record<string, unknown> = {}
  skipSpace()
  if (bytes[pos] === CLOSE_BRACE) {
    pos++
    return object
  }
  for (;;) {
    skipSpace()
    if (bytes[pos] !== QUOTE) throw GIVE_UP
    const key = readString()
    if (key === '__proto__') throw GIVE_UP
    skipSpace()
    if (bytes[pos] !== COLON) throw GIVE_UP
    pos++
    // A repeated key overwrites the value in its first place, as JSON.parse does.
    object[key] = readValue(depth)
    skipSpace()
    const c = bytes[pos++]
    if (c === CLOSE_BRACE) return object
    if (c !== COMMA) throw GIVE_UP
  }
}

/**
 * An array from its opening bracket. While its elements are numbers they are gathered in
 * `scratch`; at the first other element they move to a plain array and parsing goes on
 * generically (nested arrays may then reuse `scratch`).
 */
function readArray(depth: number): unknown[] | Float64Array {
  if (depth > MAX_DEPTH) throw GIVE_UP
  pos++
  skipSpace()
  const c = bytes[pos]
  if (c === CLOSE_BRACKET) {
    pos++
    return []
  }
  let end = used
  if (c === MINUS || (c >= ZERO && c <= NINE)) {
    end = readNumbers(bytes, pos, false)
    if (bytes[pos - 1] === CLOSE_BRACKET) {
      const numbers = scratch.subarray(used, end)
      used = end
      return numbers
    }
  }
  // `pos` is at an element that is not a number (after the numbers read and a comma);
  // those numbers stay in `scratch` only until the next array.
  const items: unknown[] = Array.from(scratch.subarray(used, end))
  for (;;) {
    items.push(readValue(depth))
    skipSpace()
    const next = bytes[pos++]
    if (next === CLOSE_BRACKET) return items
    if (next !== COMMA) throw GIVE_UP
  }
}

function readNumber(): number {
  readNumbers(bytes, pos, true)
  return scratch[used]
}

/**
 * Reads numbers into `scratch` from index `used`, starting at the number token at `i`:
 * one (`one`), or as many as follow each other in an array. Then `pos` is just after the
 * array's closing bracket, or (`one`) after the number, or at the first element that is
 * not a number. Returns the index after the last number read (`used` may have moved, to 0
 * of a larger `scratch`).
 *
 * The hot loop of a request: one function on locals, since V8 does not inline a
 * function this size and module variables are slower to read and write.
 *
 * A number token is `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
 */
function readNumbers(b: Buffer, i: number, one: boolean): number {
  let out = scratch
  let count = used
  let c = b[i]
  for (;;) {
    const start = i
    const negative = c === MINUS
    if (negative) c = b[++i]
    let mantissa = 0
    if (c === ZERO) {
      c = b[++i]
      // A leading zero: not JSON.
      if (c >= ZERO && c <= NINE) throw GIVE_UP
    } else if (c >= ZERO && c <= NINE) {
      do {
        mantissa = mantissa * 10 + (c - ZERO)
        c = b[++i]
      } while (c >= ZERO && c <= NINE)
    } else {
      throw GIVE_UP
    }
    let scale = 0
    if (c === DOT) {
      c = b[++i]
      if (!(c >= ZERO && c <= NINE)) throw GIVE_UP
      do {
        mantissa = mantissa * 10 + (c - ZERO)
        scale--
        c = b[++i]
      } while (c >= ZERO && c <= NINE)
    }
    if (c === LOWER_E || c === UPPER_E) {
      c = b[++i]
      const exponentNegative = c === MINUS
      if (c === MINUS || c === PLUS) c = b[++i]
      if (!(c >= ZERO && c <= NINE)) throw GIVE_UP
      let exponent = 0
      do {
        // Past 1e9 the value is out of the fast path's range anyway; stop growing.
        if (exponent < 1e9) exponent = exponent * 10 + (c - ZERO)
        c = b[++i]
      } while (c >= ZERO && c <= NINE)
      scale += exponentNegative ? -exponent : exponent
    }
    // The mantissa's digits were accumulated exactly iff it ended below 2^53 (rounding is
    // monotone, so an inexact one ends at or above it).
    let value: number
    if (mantissa === 0) value = 0
    else if (mantissa < EXACT_MANTISSA && scale >= -22 && scale <= 22) {
      value = scale < 0 ? mantissa / POWERS_OF_TEN[-scale] : mantissa * POWERS_OF_TEN[scale]
    } else {
      if (++slowNumbers > SLOW_NUMBERS_MAX) throw GIVE_UP
      value = Math.abs(Number(b.toString('latin1', start, i)))
    }
    if (count === out.length) {
      count -= used
      out = grow(count)
    }
    out[count++] = negative ? -value : value
    if (one) {
      pos = i
      return count
    }
    while (c === SPACE || c === LF || c === CR || c === TAB) c = b[++i]
    i++
    if (c === CLOSE_BRACKET) {
      pos = i
      return count
    }
    if (c !== COMMA) throw GIVE_UP
    c = b[i]
    while (c === SPACE || c === LF || c === CR || c === TAB) c = b[++i]
    if (!(c === MINUS || (c >= ZERO && c <= NINE))) {
      pos = i
      return count
    }
  }
}

/**
 * A larger scratch buffer, with the `count` numbers of the array being read moved to its
 * start. Arrays already handed out keep viewing the old buffer.
 */
function grow(count: number): Float64Array {
  const larger = new Float64Array(scratch.length * 2)
  larger.set(scratch.subarray(used, used + count))
  scratch = larger
  used = 0
  return larger
}
