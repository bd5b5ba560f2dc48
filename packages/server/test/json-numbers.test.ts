// The request body parser that reads arrays of numbers into Float64Arrays
// (src/http/json-numbers.ts), checked against JSON.parse on generated and hand-written
// bodies: it must give exactly what JSON.parse gives (every number bit for bit), or give up
// so that the standard path answers as it always has. Then the decoder on top of it: every
// request, valid or not, decodes exactly as the same request parsed by JSON.parse.
import { describe, expect, it } from 'vitest'
import { parseJson } from '../src/http/body.js'
import { decodeInferRequest, parseJsonBody } from '../src/http/decode-body.js'
import { decodeInferFields } from '../src/protocol/decode.js'
import { NOT_PARSED, parseJsonNumbers } from '../src/http/json-numbers.js'
import type { PoolMetadata, RowTensor } from '@inferpool/host'
import { prng as rng } from '../../host/test/fixtures/models.js'

/**
 * Fails unless `fast` is `json` as this parser promises: a non-empty array of numbers as
 * a Float64Array with every element `Object.is` equal, other arrays as plain arrays,
 * objects as plain objects with the same keys in the same order.
 */
function expectSame(fast: unknown, json: unknown, path = '$'): void {
  if (Array.isArray(json)) {
    if (json.length > 0 && json.every((v) => typeof v === 'number')) {
      expect(fast, path).toBeInstanceOf(Float64Array)
      const numbers = fast as Float64Array
      expect(numbers.length, path).toBe(json.length)
      for (let i = 0; i < json.length; i++) {
        if (!Object.is(numbers[i], json[i])) expect.fail(`${path}[${i}]: ${numbers[i]} (fast) !== ${String(json[i])} (JSON.parse)`)
      }
      return
    }
    expect(Array.isArray(fast), path).toBe(true)
    const items = fast as unknown[]
    expect(items.length, path).toBe(json.length)
    json.forEach((v, i) => expectSame(items[i], v, `${path}[${i}]`))
    return
  }
  if (typeof json === 'object' && json !== null) {
    expect(typeof fast === 'object' && fast !== null && Object.getPrototypeOf(fast) === Object.prototype, path).toBe(true)
    expect(Object.keys(fast as object), path).toEqual(Object.keys(json))
    for (const [key, v] of Object.entries(json)) expectSame((fast as Record<string, unknown>)[key], v, `${path}.${key}`)
    return
  }
  if (!Object.is(fast, json)) expect.fail(`${path}: ${String(fast)} (fast) !== ${String(json)} (JSON.parse)`)
}

/** What the standard path gives: the value, or the error it throws. */
function standard(body: Buffer): { value: unknown } | { error: Error } {
  try {
    return { value: parseJson(body) }
  } catch (error) {
    return { error: error as Error }
  }
}

/** The fast parser agrees with the standard path: same value, or it gives up. Returns whether it parsed. */
function expectAgrees(body: Buffer): boolean {
  const fast = parseJsonNumbers(body)
  const std = standard(body)
  if (fast === NOT_PARSED) return false
  if ('error' in std) expect.fail(`parsed a body JSON.parse refuses (${std.error.message}): ${body.toString('latin1').slice(0, 200)}`)
  expectSame(fast, std.value)
  return true
}

const SPACES = [' ', '\t', '\n', '\r']

/** A number token of one of many forms; all valid JSON. */
function numberToken(next: () => number): string {
  const digits = (n: number, first = false): string => {
    let s = ''
    for (let i = 0; i < n; i++) s += String(first && i === 0 ? 1 + Math.floor(next() * 9) : Math.floor(next() * 10))
    return s
  }
  const sign = next() < 0.5 ? '-' : ''
  const integer = (): string => (next() < 0.2 ? '0' : digits(1 + Math.floor(next() * 20), true))
  const exponent = (): string => `${next() < 0.5 ? 'e' : 'E'}${['', '+', '-'][Math.floor(next() * 3)]}${digits(1 + Math.floor(next() * 3))}`
  switch (Math.floor(next() * 9)) {
    case 0:
      return `${sign}${integer()}`
    case 1:
      return `${sign}${integer()}.${digits(1 + Math.floor(next() * 25))}`
    case 2:
      return `${sign}${integer()}${exponent()}`
    case 3:
      return `${sign}${integer()}.${digits(1 + Math.floor(next() * 20))}${exponent()}`
    case 4:
      // What Python's repr or JSON.stringify writes for a float32 widened to double: up to 17 digits.
      return JSON.stringify(Math.fround((next() - 0.5) * 10 ** Math.floor(next() * 20 - 10)))
    case 5:
      // The bench's numbers: 4 decimals.
      return String(Math.round((next() * 4 - 2) * 1e4) / 1e4)
    case 6:
      return JSON.stringify((next() - 0.5) * 10 ** Math.floor(next() * 600 - 300))
    case 7:
      return `${sign}0${next() < 0.5 ? '' : `.${'0'.repeat(1 + Math.floor(next() * 3))}`}${next() < 0.5 ? '' : exponent()}`
    default:
      return `${sign}${digits(Math.floor(next() * 5))}${digits(1, true)}${'0'.repeat(Math.floor(next() * 25))}`.replace(
        /^(-?)0+(?=\d)/,
        '$1',
      )
  }
}

/** Numbers at the edges of the exact fast path and of the double range. */
const EDGE_NUMBERS = [
  '0',
  '-0',
  '-0.0',
  '0e999',
  '-0E-999',
  '0.000',
  '1',
  '-1',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '18446744073709551615',
  '123456789012345678901234567890',
  '900719925474099.1',
  '9007199254740991e22',
  '9007199254740991e-22',
  '9007199254740991e23',
  '9007199254740991e-23',
  '1e22',
  '1e23',
  '1e-22',
  '1e-23',
  '123456789012345e-22',
  '0.1',
  '0.2',
  '0.3',
  '-1.2345',
  '3.4028234663852886e38',
  '3.4028235677973366e38',
  '1e39',
  '1e308',
  '1.7976931348623157e308',
  '1.7976931348623158e308',
  '1.8e308',
  '1e400',
  '-1e400',
  '5e-324',
  '2.4703282292062328e-324',
  '2.4703282292062327e-324',
  '1e-400',
  '-1e-400',
  '2.2250738585072011e-308',
  '2.2250738585072012e-308',
  '1.00000000000000011102230246251565404236316680908203125',
  '1.00000000000000011102230246251565404236316680908203124',
  '1.00000000000000011102230246251565404236316680908203126',
  '1e0000000000000000000000000000001',
  '1e-0000000000000000000000000000001',
  '1e99999999999999999999',
  '1e-99999999999999999999',
  '0.0000000000000000000000000000000000000000001',
  '-0.12345678901234567',
  '1.5E+3',
  '2.5e-3',
]

describe('parseJsonNumbers against JSON.parse', () => {
  it('reads every edge number exactly as JSON.parse does, alone, in an object and in an array', () => {
    for (const token of EDGE_NUMBERS) {
      for (const text of [token, `{"x":${token}}`, `[${token}]`, `[1,${token},2]`, `["a",${token}]`]) {
        expect(expectAgrees(Buffer.from(text)), text).toBe(true)
      }
    }
    expect(expectAgrees(Buffer.from(`[${EDGE_NUMBERS.join(',')}]`))).toBe(true)
  })

  it('reads 2,000 generated arrays of numbers of every form with random whitespace exactly as JSON.parse does', () => {
    const next = rng(1)
    for (let n = 0; n < 2000; n++) {
      const count = 1 + Math.floor(next() * 40)
      const space = (): string => (next() < 0.7 ? '' : SPACES[Math.floor(next() * 4)].repeat(1 + Math.floor(next() * 3)))
      const tokens = Array.from({ length: count }, () => `${space()}${numberToken(next)}${space()}`)
      const text = `${space()}[${tokens.join(',')}]${space()}`
      // At most 40 numbers: never enough slow ones to make it give up.
      expect(expectAgrees(Buffer.from(text)), text).toBe(true)
    }
  })

  it('reads generated request-like documents (objects, strings, escapes, unicode, nested and mixed arrays) exactly as JSON.parse does', () => {
    const next = rng(2)
    const strings = [
      '',
      'x',
      'input',
      'é',
      '日本語',
      '😀',
      'a"b',
      'back\\slash',
      'line\nbreak',
      'tab\t',
      '\u0000',
      '\u001f',
      '\u2028',
      '/',
      'ключ',
    ]
    const keys = ['inputs', 'name', 'shape', 'data', 'id', 'constructor', 'toString', 'hasOwnProperty', '1', '10', '2', '', 'é', 'a b']
    const value = (depth: number): unknown => {
      const r = next()
      if (depth > 4 || r < 0.3) {
        const s = next()
        if (s < 0.4) return Number(numberToken(next))
        if (s < 0.7) return strings[Math.floor(next() * strings.length)]
        return [true, false, null][Math.floor(next() * 3)]
      }
      if (r < 0.5) return Array.from({ length: Math.floor(next() * 6) }, () => Number(numberToken(next)))
      if (r < 0.75) return Array.from({ length: Math.floor(next() * 5) }, () => value(depth + 1))
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 5) }, () => [keys[Math.floor(next() * keys.length)], value(depth + 1)]),
      )
    }
    for (let n = 0; n < 1000; n++) {
      const doc = value(0)
      // JSON.stringify escapes only what it must; the escaped forms below are written by hand.
      const text = JSON.stringify(doc, null, next() < 0.5 ? undefined : SPACES[Math.floor(next() * 4)])
      if (text === undefined) continue
      expect(expectAgrees(Buffer.from(text)), text).toBe(true)
    }
  })

  it('reads escapes (delegated to JSON.parse) and raw unicode in keys and strings exactly as JSON.parse does', () => {
    const texts = [
      String.raw`["\n\t\r\b\f\/\\\"", "\u00e9\u65e5\ud83d\ude00", "\ud800", "\udc00x"]`,
      String.raw`{"\u0069nputs": 1, "a\"b": [2, "\\"], "é": "日本", "😀": "\u0000"}`,
      '{"k":"é日本😀","é":["ключ",1]}',
      // A repeated key keeps its first place and takes its last value, as in JSON.parse.
      '{"a":1,"b":2,"a":[3,4]}',
      '{"2":1,"1":2,"b":3,"0":4}',
      '{"constructor":{"prototype":1},"toString":[1]}',
      '[[[1,2],[3,4]],[[5,6],[7,-0]]]',
      '[[], {}, [[]], [{}], ""]',
      '[1, "a", null, true, false, [2], {"x": 3}, 4.5]',
      '[1, 2, [3, [4, [5]]], 6]',
    ]
    for (const text of texts) expect(expectAgrees(Buffer.from(text)), text).toBe(true)
  })

  it('keeps every array of one body intact, also when a later array outgrows the scratch buffer', () => {
    const big = Array.from({ length: 300_000 }, (_, i) => (i % 7) - 3.25)
    const text = JSON.stringify({ shape: [3, 100_000], first: [1, 2, 3], data: big, last: [-0, 0.5] })
    expect(expectAgrees(Buffer.from(text))).toBe(true)
    // And the next body, parsed into a fresh scratch buffer.
    expect(expectAgrees(Buffer.from('[7,8,9]'))).toBe(true)
  })

  it.each([
    ['', 'empty'],
    [' ', 'only whitespace'],
    ['{', 'an unclosed object'],
    ['[1,]', 'a trailing comma'],
    ['[,1]', 'a leading comma'],
    ['[1,,2]', 'a double comma'],
    ['[1 2]', 'a missing comma'],
    ['{"a":1,}', 'a trailing comma in an object'],
    ['{"a" 1}', 'a missing colon'],
    ['{a:1}', 'an unquoted key'],
    ["{'a':1}", 'single quotes'],
    ['{"a":1}}', 'an extra brace'],
    ['[1]x', 'trailing garbage'],
    ['[1] [2]', 'two values'],
    ['[01]', 'a leading zero'],
    ['[-01]', 'a negative leading zero'],
    ['[00]', 'two zeros'],
    ['[-]', 'a lone minus'],
    ['[1.]', 'a dot without digits'],
    ['[.5]', 'a leading dot'],
    ['[1.e5]', 'a dot before the exponent'],
    ['[1e]', 'an exponent without digits'],
    ['[1e+]', 'a signed exponent without digits'],
    ['[+1]', 'a plus sign'],
    ['[NaN]', 'NaN'],
    ['[Infinity]', 'Infinity'],
    ['[-Infinity]', '-Infinity'],
    ['[0x10]', 'hexadecimal'],
    ['[1_000]', 'a digit separator'],
    ['["a\tb"]', 'a raw tab in a string'],
    ['["a\nb"]', 'a raw newline in a string'],
    [String.raw`["\x41"]`, 'an unknown escape'],
    [String.raw`["\u12"]`, 'a short unicode escape'],
    ['["unterminated', 'an unterminated string'],
    [String.raw`["ends in a backslash\"]`, 'an escaped closing quote'],
    ['tru', 'a cut literal'],
    ['[true false]', 'literals without a comma'],
    ['[True]', 'a capitalised literal'],
    ['[nul]', 'a cut null'],
    ['\u00a0[1]', 'a no-break space'],
    ['\v[1]', 'a vertical tab'],
    ['\f[1]', 'a form feed'],
    ['[1]\u2028', 'a line separator after the value'],
    ['//c\n[1]', 'a comment'],
  ])('gives up on %j (%s), and the request gets the standard MalformedJsonError', (text) => {
    const body = Buffer.from(text)
    expect(parseJsonNumbers(body)).toBe(NOT_PARSED)
    const expected = standard(body)
    expect('error' in expected).toBe(true)
    expect(() => decodeInferRequest(body, undefined, model, limits)).toThrow(
      expect.objectContaining({ code: 'ERR_MALFORMED_JSON', message: (expected as { error: Error }).error.message }),
    )
  })

  it.each([
    [[0x5b, 0x22, 0xff, 0x22, 0x5d], 'a byte that is never UTF-8'],
    [[0x5b, 0x22, 0x80, 0x22, 0x5d], 'a lone continuation byte'],
    [[0x5b, 0x22, 0xc0, 0xaf, 0x22, 0x5d], 'an overlong encoding'],
    [[0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d], 'an encoded surrogate'],
    [[0x5b, 0x22, 0xf4, 0x90, 0x80, 0x80, 0x22, 0x5d], 'a code point past U+10FFFF'],
    [[0x5b, 0x22, 0xe6, 0x97, 0x22, 0x5d], 'a cut sequence'],
    [[0x5b, 0x31, 0x5d, 0xf5], 'an F5 byte after the value'],
  ])('gives up on invalid UTF-8 (%j, %s), and the request gets the standard MalformedJsonError', (bytes) => {
    const body = Buffer.from(bytes)
    expect(parseJsonNumbers(body)).toBe(NOT_PARSED)
    expect(() => decodeInferRequest(body, undefined, model, limits)).toThrow(
      expect.objectContaining({ code: 'ERR_MALFORMED_JSON', message: 'Request body is not valid JSON: the body is not UTF-8' }),
    )
  })

  it('gives up on what it leaves to JSON.parse though it is valid: a byte order mark, a __proto__ key, deep nesting, many full-precision numbers', () => {
    const bodies = [
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[1,2]')]),
      Buffer.from('{"a":1,"__proto__":{"polluted":true}}'),
      Buffer.from(String.raw`{"\u005f_proto__":[1]}`),
      Buffer.from(`${'['.repeat(100)}1${']'.repeat(100)}`),
      Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, i) => Math.fround(Math.PI * (i + 1))))),
    ]
    for (const body of bodies) {
      expect(parseJsonNumbers(body)).toBe(NOT_PARSED)
      expect('value' in standard(body)).toBe(true)
    }
    // The standard path made "__proto__" an own property, the prototype untouched.
    const parsed = standard(bodies[1]) as { value: object }
    expect(Object.getPrototypeOf(parsed.value)).toBe(Object.prototype)
    expect(Object.keys(parsed.value)).toEqual(['a', '__proto__'])
  })

  it('still parses a body with a few full-precision numbers among others (converted by Number)', () => {
    const numbers = [1.5, ...Array.from({ length: 60 }, (_, i) => Math.fround(Math.PI * (i + 1))), -2]
    expect(expectAgrees(Buffer.from(JSON.stringify({ data: numbers })))).toBe(true)
  })
})

const model: PoolMetadata = {
  inputs: [
    { name: 'f', type: 'float32', dims: ['batch', 2, 2] },
    { name: 'i', type: 'int32', dims: ['batch', 2] },
  ],
  outputs: [{ name: 'y', type: 'float32', dims: ['batch', 1] }],
  maxBatchSize: 8,
  fixedBatchSize: null,
  replicas: 1,
  concurrency: 1,
  executionProvider: 'cpu',
  model: 'm',
}
const limits = { maxRows: 64 }

const typed: PoolMetadata = {
  ...model,
  inputs: [
    { name: 'h', type: 'float16', dims: ['batch', 2] },
    { name: 'd', type: 'float64', dims: ['batch', 2] },
    { name: 'l', type: 'int64', dims: ['batch', 2] },
    { name: 'u', type: 'uint8', dims: ['batch', 2] },
    { name: 'b', type: 'bool', dims: ['batch', 2] },
    { name: 's', type: 'string', dims: ['batch', 2] },
  ],
}

/** The decoder's outcome: its rows and outputs, or its error's class, code and message. */
function outcome(run: () => unknown): unknown {
  try {
    return { ok: run() }
  } catch (error) {
    const e = error as Error & { code?: string; details?: unknown }
    return { error: e.constructor.name, code: e.code, message: e.message, details: e.details }
  }
}

const f = (data: unknown, shape: unknown = [1, 2, 2]): object => ({ name: 'f', shape, datatype: 'FP32', data })
const i32 = (data: unknown, shape: unknown = [1, 2]): object => ({ name: 'i', shape, datatype: 'INT32', data })

describe('the short strings the number reader keeps between bodies', () => {
  it('gives each string its own text when two hash to the same slot, body after body', () => {
    // "Aa" and "BB" have the same 31-multiplier hash, so they share a slot of the table.
    const bodies = ['{"Aa":"BB","BB":"Aa"}', '{"BB":"Aa","Aa":"BB"}', '{"Aa":"Aa"}', '{"BB":"BB"}']
    for (const body of bodies) expect(parseJsonNumbers(Buffer.from(body))).toEqual(JSON.parse(body))
  })

  it('reads strings of the same length and hash slot byte for byte, not by their first bytes', () => {
    const bodies = ['{"name":"input_0"}', '{"name":"input_1"}', '{"name":"input_0"}', '{"name":"inpuT_0"}']
    for (const body of bodies) expect(parseJsonNumbers(Buffer.from(body))).toEqual(JSON.parse(body))
  })

  it('reads non-ASCII, escaped and long strings as JSON.parse does, also after their ASCII look-alikes', () => {
    const long = 'x'.repeat(40)
    const bodies = [
      '{"name":"café"}',
      '{"name":"cafe"}',
      '{"name":"café"}',
      '{"name":"a\\u0041b"}',
      '{"name":"aAb"}',
      `{"name":"${long}"}`,
      `{"name":"${long}y"}`,
    ]
    for (const body of bodies) expect(parseJsonNumbers(Buffer.from(body))).toEqual(JSON.parse(body))
  })
})

describe('choosing the JSON parser', () => {
  const request = { inputs: [f([1, 2.5, -0.5, 4]), i32([1, -2])] }

  it('parses a small body with the number reader (data as Float64Arrays)', () => {
    const body = Buffer.from(JSON.stringify(request))
    expect(body.length).toBeLessThan(200)
    const value = parseJsonBody(body) as { inputs: Array<{ data: unknown }> }
    expect(value.inputs[0].data).toEqual(Float64Array.of(1, 2.5, -0.5, 4))
    expect(value.inputs[1].data).toEqual(Float64Array.of(1, -2))
  })

  it('gives what the number reader leaves (a byte order mark) to JSON.parse, with its errors', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(request))])
    expect(parseJsonBody(bom)).toEqual(JSON.parse(bom.subarray(3).toString('utf8')))
    const broken = Buffer.from('{"inputs": [1, 2,]}')
    expect(() => parseJsonBody(broken)).toThrow(expect.objectContaining({ code: 'ERR_MALFORMED_JSON' }))
  })
})

describe('decoding a JSON request through the fast parser', () => {
  it.each([
    ['flat data', { inputs: [f([1, 2.5, -0, 4]), i32([1, -2])] }, model],
    [
      'nested data',
      {
        id: 'n',
        inputs: [
          f([
            [
              [1, 2],
              [3, 4],
            ],
          ]),
          i32([[5, 6]]),
        ],
      },
      model,
    ],
    ['two rows', { inputs: [f([1, 2, 3, 4, 5, 6, 7, 8], [2, 2, 2]), i32([1, 2, 3, 4], [2, 2])] }, model],
    ['asked outputs', { inputs: [f([1, 2, 3, 4]), i32([1, 2])], outputs: [{ name: 'y', parameters: { binary_data: true } }] }, model],
    ['1e39 in FP32', { inputs: [f([1, 1e39, 3, 4]), i32([1, 2])] }, model],
    ['FP32 values that round (-0, ties, just under the overflow)', { inputs: [f([-0, 0.1, 16777217, 3.4028235e38]), i32([1, 2])] }, model],
    ['an FP32 value just over the overflow', { inputs: [f([1, 2, 3, -3.4028236e38]), i32([1, 2])] }, model],
    ['an out-of-range INT32', { inputs: [f([1, 2, 3, 4]), i32([1, 2 ** 31])] }, model],
    ['a non-integer INT32', { inputs: [f([1, 2, 3, 4]), i32([1, 2.5])] }, model],
    ['a string in FP32', { inputs: [f([1, '2', 3, 4]), i32([1, 2])] }, model],
    ['null in FP32', { inputs: [f([1, null, 3, 4]), i32([1, 2])] }, model],
    ['too few elements', { inputs: [f([1, 2, 3]), i32([1, 2])] }, model],
    ['too many elements', { inputs: [f([1, 2, 3, 4, 5]), i32([1, 2])] }, model],
    ['nested data too short', { inputs: [f([[[1, 2], [3]]]), i32([1, 2])] }, model],
    [
      'nested data of numbers where arrays belong',
      {
        inputs: [
          f([
            [1, 2],
            [3, 4],
          ]),
          i32([1, 2]),
        ],
      },
      model,
    ],
    ['nested data mixing arrays and numbers', { inputs: [f([[[1, 2], 3]]), i32([1, 2])] }, model],
    ['a fractional dim', { inputs: [f([1, 2, 3, 4], [1, 2.5, 2]), i32([1, 2])] }, model],
    ['a negative dim', { inputs: [f([1, 2, 3, 4], [1, -2, -2]), i32([1, 2])] }, model],
    ['too many dims', { inputs: [f([1], Array(33).fill(1)), i32([1, 2])] }, model],
    ['an empty shape', { inputs: [f([1], []), i32([1, 2])] }, model],
    ['shape as numbers in an object', { inputs: [f([1, 2, 3, 4], { 0: 1 }), i32([1, 2])] }, model],
    ['rows that differ', { inputs: [f([1, 2, 3, 4]), i32([1, 2, 3, 4], [2, 2])] }, model],
    ['too many rows', { inputs: [f(Array(65 * 4).fill(0), [65, 2, 2]), i32(Array(130).fill(0), [65, 2])] }, model],
    ['data as a number', { inputs: [f(1), i32([1, 2])] }, model],
    ['empty data', { inputs: [f([]), i32([1, 2])] }, model],
    ['a body that is an array of numbers', [1, 2, 3], model],
    ['a body that is a number', 7, model],
    ['inputs of numbers', { inputs: [1, 2] }, model],
    ['inputs of arrays of numbers', { inputs: [[1, 2]] }, model],
    ['empty inputs', { inputs: [] }, model],
    ['outputs of numbers', { inputs: [f([1, 2, 3, 4]), i32([1, 2])], outputs: [1] }, model],
    ['outputs of arrays of numbers', { inputs: [f([1, 2, 3, 4]), i32([1, 2])], outputs: [[1]] }, model],
    ['an id of numbers', { id: [1, 2], inputs: [f([1, 2, 3, 4]), i32([1, 2])] }, model],
    ['parameters of numbers', { parameters: [1], inputs: [f([1, 2, 3, 4]), i32([1, 2])] }, model],
    ['input parameters of numbers', { inputs: [{ ...f([1, 2, 3, 4]), parameters: [5] }, i32([1, 2])] }, model],
    ['binary_data_output of numbers', { parameters: { binary_data_output: [1] }, inputs: [f([1, 2, 3, 4]), i32([1, 2])] }, model],
    ['a long name', { inputs: [{ ...f([1, 2, 3, 4]), name: 'n'.repeat(100) }] }, model],
    [
      'every other datatype, valid',
      {
        inputs: [
          { name: 'h', shape: [1, 2], datatype: 'FP16', data: [1.5, -65504] },
          { name: 'd', shape: [1, 2], datatype: 'FP64', data: [0.1, -1e300] },
          { name: 'l', shape: [1, 2], datatype: 'INT64', data: [9007199254740991, -3] },
          { name: 'u', shape: [1, 2], datatype: 'UINT8', data: [0, 255] },
          { name: 'b', shape: [1, 2], datatype: 'BOOL', data: [1, 0] },
          { name: 's', shape: [1, 2], datatype: 'BYTES', data: ['a', 'é'] },
        ],
      },
      typed,
    ],
    ['FP16 out of range', { inputs: [{ name: 'h', shape: [1, 2], datatype: 'FP16', data: [1, 65520] }] }, typed],
    ['INT64 past 2^53', { inputs: [{ name: 'l', shape: [1, 2], datatype: 'INT64', data: [1, 2 ** 53 + 2] }] }, typed],
    ['UINT8 negative', { inputs: [{ name: 'u', shape: [1, 2], datatype: 'UINT8', data: [1, -1] }] }, typed],
    ['BOOL as 2', { inputs: [{ name: 'b', shape: [1, 2], datatype: 'BOOL', data: [1, 2] }] }, typed],
    ['BOOL as -0', { inputs: [{ name: 'b', shape: [1, 2], datatype: 'BOOL', data: [-0, 1] }] }, typed],
    ['BYTES as numbers', { inputs: [{ name: 's', shape: [1, 2], datatype: 'BYTES', data: [1, 2] }] }, typed],
  ])('decodes a request with %s exactly as one parsed by JSON.parse', (_, request, metadata) => {
    // Padded to go through the fast parser (a number array or more in it).
    const body = Buffer.from(JSON.stringify(request))
    expect(parseJsonNumbers(body)).not.toBe(NOT_PARSED)
    const fast = outcome(() => decodeInferRequest(body, undefined, metadata, limits))
    const standardPath = outcome(() => decodeInferFields(JSON.parse(body.toString('utf8')), undefined, metadata, limits))
    expect(fast).toEqual(standardPath)
  })

  it('reads 1e39 in FP32 data as a 400 naming the input and the element', () => {
    const body = Buffer.from(JSON.stringify({ inputs: [f([1, 1e39, 3, 4]), i32([1, 2])] }))
    expect(() => decodeInferRequest(body, undefined, model, limits)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_INPUT',
        message: 'Input "f": element 1 is number 1e+39, expected a number within FP32 range (|x| <= 3.4028234663852886e38)',
      }),
    )
  })

  it("keeps a decoded request's rows intact when the next body is parsed (the parser reuses its buffer)", () => {
    const doubles: PoolMetadata = { ...model, inputs: [{ name: 'd', type: 'float64', dims: ['batch', 2] }] }
    const request = (a: number, b: number): Buffer =>
      Buffer.from(JSON.stringify({ inputs: [{ name: 'd', shape: [1, 2], datatype: 'FP64', data: [a, b] }] }))
    const first = decodeInferRequest(request(0.5, -1.25), undefined, doubles, limits)
    const second = decodeInferRequest(request(7, 8), undefined, doubles, limits)
    expect((first.rows[0].d as RowTensor).data).toEqual(Float64Array.of(0.5, -1.25))
    expect((first.rows[0].d as RowTensor).dims).toEqual([2])
    expect((second.rows[0].d as RowTensor).data).toEqual(Float64Array.of(7, 8))
  })

  it('gives rows whose dims are plain arrays and whose data is the exact float32 of each number', () => {
    const body = Buffer.from(
      '{"inputs":[{"name":"f","shape":[1,2,2],"datatype":"FP32","data":[0.1,-0,1e-46,3.4028235e38]},' +
        '{"name":"i","shape":[1,2],"datatype":"INT32","data":[-2147483648,2147483647]}]}',
    )
    const { rows } = decodeInferRequest(body, undefined, model, limits)
    expect(rows).toHaveLength(1)
    const [x, i] = [rows[0].f as RowTensor, rows[0].i as RowTensor]
    expect(Array.isArray(x.dims)).toBe(true)
    expect(x.dims).toEqual([2, 2])
    expect(x.data).toEqual(Float32Array.of(0.1, -0, 1e-46, 3.4028235e38))
    expect(Object.is((x.data as Float32Array)[1], -0)).toBe(true)
    expect(i.data).toEqual(Int32Array.of(-2147483648, 2147483647))
  })
})
