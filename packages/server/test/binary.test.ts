// Unit tests of the binary tensor data codec (internal, imported from src): hand-built
// bodies byte by byte, round trips, and every malformed framing with its exact message.
import { describe, expect, it } from 'vitest'
import { BinaryTail, binaryBody, headerLengthOf, ONE_CHUNK_MAX_BYTES } from '../src/http/binary.js'
import { bytesOf, readBytesElements, typedArrayOver, writeBytesElements } from '../src/protocol/tensor-bytes.js'
import { halfBits, halfValue } from '../src/protocol/datatypes.js'
import { decodeInferRequest } from '../src/http/decode-body.js'
import { encodeInferResponse } from '../src/http/encode-body.js'
import type { PoolMetadata, RowInput, RowTensor } from '@inferpool/host'

function metadata(inputs: PoolMetadata['inputs'], outputs: PoolMetadata['outputs'] = []): PoolMetadata {
  return { inputs, outputs, maxBatchSize: 8, fixedBatchSize: null, replicas: 1, concurrency: 1, executionProvider: 'cpu', model: 'm' }
}

/** A request body of the extension: the JSON header, then the given tensors' bytes. */
function body(header: unknown, ...tensors: ArrayBufferView[]): { body: Buffer; headerLength: number } {
  const head = Buffer.from(JSON.stringify(header))
  return {
    body: Buffer.concat([head, ...tensors.map((t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength))]),
    headerLength: head.length,
  }
}

const limits = { maxRows: 64 }
/** A row's tensor, its data typed as numbers for reading (every tensor here is of a number type). */
const tensorOf = (row: RowInput, name: string): { data: Float32Array; dims: readonly number[] } =>
  row[name] as RowTensor as { data: Float32Array; dims: readonly number[] }

describe('Inference-Header-Content-Length', () => {
  it('is absent for a plain JSON body and a length within the body otherwise', () => {
    expect(headerLengthOf(undefined, 10)).toBeUndefined()
    expect(headerLengthOf('0', 10)).toBe(0)
    expect(headerLengthOf('10', 10)).toBe(10)
    expect(headerLengthOf(' 7 ', 10)).toBe(7)
  })

  it('past the body is refused, saying both lengths', () => {
    expect(() => headerLengthOf('11', 10)).toThrow(
      'Malformed binary tensor data: Inference-Header-Content-Length is 11 but the body has only 10 bytes',
    )
  })

  it.each([['-1'], ['1.5'], ['abc'], [''], ['1e3'], ['12345678901234567']])('%s is not a length', (value) => {
    expect(() => headerLengthOf(value, 10)).toThrow(`Inference-Header-Content-Length must be one non-negative integer, got '${value}'`)
  })

  it('given twice is refused', () => {
    expect(() => headerLengthOf(['1', '2'], 10)).toThrow('must be one non-negative integer')
  })
})

describe('the bytes after the JSON header', () => {
  it('are handed out in order, as views of the body', () => {
    const bytes = Buffer.from([1, 2, 3, 4, 5, 6])
    const tail = new BinaryTail(bytes)
    const a = tail.take('a', 2)
    const b = tail.take('b', 4)
    tail.finish()
    expect([...a]).toEqual([1, 2])
    expect([...b]).toEqual([3, 4, 5, 6])
    expect(a.buffer).toBe(bytes.buffer)
  })

  it('refuse a size past what is left', () => {
    const tail = new BinaryTail(Buffer.alloc(6))
    tail.take('a', 4)
    expect(() => tail.take('b', 3)).toThrow(`"b" declares binary_data_size 3 but only 2 of the 6 bytes after the JSON header are left`)
  })

  it('refuse trailing bytes', () => {
    const tail = new BinaryTail(Buffer.alloc(6))
    tail.take('a', 4)
    expect(() => tail.finish()).toThrow(
      '2 trailing byte(s) after the binary tensor data: the binary_data_size values add up to 4 but 6 bytes follow the JSON header',
    )
  })

  it.each([[-1], [1.5], ['4'], [null], [Number.MAX_SAFE_INTEGER + 1]])('refuse a binary_data_size of %s', (size) => {
    expect(() => new BinaryTail(Buffer.alloc(4)).take('a', size)).toThrow(`"a": parameters.binary_data_size must be a non-negative integer`)
  })
})

describe('typed arrays over raw little-endian bytes', () => {
  it('are views when aligned and one aligned copy when not', () => {
    const backing = Buffer.alloc(13)
    backing.writeFloatLE(1.5, 4)
    backing.writeFloatLE(-2, 8)
    const aligned = typedArrayOver(backing.subarray(4, 12), Float32Array, 2) as Float32Array
    expect(Array.from(aligned)).toEqual([1.5, -2])
    expect(aligned.buffer).toBe(backing.buffer)

    backing.writeFloatLE(3.25, 1)
    const misaligned = typedArrayOver(backing.subarray(1, 5), Float32Array, 1) as Float32Array
    expect(Array.from(misaligned)).toEqual([3.25])
    expect(misaligned.buffer).not.toBe(backing.buffer)
    expect(misaligned.byteOffset % 4).toBe(0)
  })

  it('read INT64 little-endian, byte by byte', () => {
    const bytes = Buffer.from([0x01, 0x02, 0, 0, 0, 0, 0, 0x80])
    expect(Array.from(typedArrayOver(bytes, BigInt64Array, 1) as BigInt64Array)).toEqual([-0x7fffffffffff_fdffn])
  })

  it('round-trip through bytesOf without a copy', () => {
    const data = new Int32Array([1, -1, 0x01020304])
    const bytes = bytesOf(data)
    expect([...bytes]).toEqual([1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 4, 3, 2, 1])
    expect(bytes.buffer).toBe(data.buffer)
  })
})

describe('BYTES elements (4-byte little-endian length, then the bytes)', () => {
  it('are written and read back', () => {
    const wire = writeBytesElements([Buffer.from('ab'), Buffer.alloc(0), Buffer.from('xyz')])
    expect([...wire]).toEqual([2, 0, 0, 0, 0x61, 0x62, 0, 0, 0, 0, 3, 0, 0, 0, 0x78, 0x79, 0x7a])
    expect(readBytesElements(wire, 3, 't').map((b) => b.toString())).toEqual(['ab', '', 'xyz'])
  })

  it('refuse a truncated length, a length past the end, and a count other than the shape', () => {
    expect(() => readBytesElements(Buffer.from([2, 0, 0]), 1, 't')).toThrow(`"t": BYTES element 0 has a truncated 4-byte length`)
    expect(() => readBytesElements(Buffer.from([5, 0, 0, 0, 1]), 1, 't')).toThrow(
      `"t": BYTES element 0 declares 5 bytes but only 1 are left`,
    )
    expect(() => readBytesElements(Buffer.from([0, 0, 0, 0]), 2, 't')).toThrow(`"t": its shape holds 2 BYTES element(s), the binary data 1`)
    expect(() => readBytesElements(Buffer.from([0, 0, 0, 0, 9]), 1, 't')).toThrow(`"t": 1 byte(s) left after its 1 BYTES element(s)`)
  })
})

describe('FP16 conversion', () => {
  it('rounds to nearest, ties to even, and refuses what overflows', () => {
    expect(halfBits(1)).toBe(0x3c00)
    expect(halfBits(-2)).toBe(0xc000)
    expect(halfBits(65504)).toBe(0x7bff)
    expect(halfBits(65519.99)).toBe(0x7bff)
    expect(halfBits(65520)).toBeUndefined()
    expect(halfBits(2 ** -24)).toBe(0x0001)
    expect(halfBits(2 ** -25)).toBe(0x0000) // a tie: to even (zero)
    expect(halfBits(3 * 2 ** -25)).toBe(0x0002) // a tie: to even (2)
    expect(halfBits(1 + 2 ** -11)).toBe(0x3c00) // a tie between 1 and 1 + 2^-10: to even
    expect(halfBits(-0)).toBe(0x8000)
    for (const bits of [0x0001, 0x03ff, 0x0400, 0x3555, 0x7bff, 0xfbff]) expect(halfBits(halfValue(bits))).toBe(bits)
    expect(halfValue(0x7c00)).toBe(Infinity)
    expect(halfValue(0x7e00)).toBeNaN()
  })
})

describe('decoding a request body', () => {
  const uint32AndBool = metadata([
    { name: 'input0', type: 'uint32', dims: ['batch', 2] },
    { name: 'input1', type: 'bool', dims: ['batch', 3] },
  ])

  it('takes binary inputs in header order, rows as views into the body', () => {
    const { body: b, headerLength } = body(
      {
        inputs: [
          { name: 'input0', shape: [2, 2], datatype: 'UINT32', parameters: { binary_data_size: 16 } },
          { name: 'input1', shape: [2, 3], datatype: 'BOOL', data: [true, false, true, 0, 1, 0] },
        ],
      },
      new Uint32Array([1, 2, 3, 0xffffffff]),
    )
    const request = decodeInferRequest(b, headerLength, uint32AndBool, limits)
    expect(request.rows).toHaveLength(2)
    expect(Array.from(tensorOf(request.rows[1], 'input0').data)).toEqual([3, 0xffffffff])
    expect(tensorOf(request.rows[1], 'input0').dims).toEqual([2])
    expect(Array.from(tensorOf(request.rows[0], 'input1').data)).toEqual([1, 0, 1])
  })

  it('copies only a tensor whose bytes are misaligned', () => {
    // A header of odd length puts the UINT32 tensor at an odd offset of the body.
    const header = {
      inputs: [
        { name: 'input0', shape: [1, 2], datatype: 'UINT32', parameters: { binary_data_size: 8 } },
        { name: 'input1', shape: [1, 3], datatype: 'BOOL', parameters: { binary_data_size: 3 } },
      ],
    }
    let text = JSON.stringify(header)
    if (text.length % 2 === 0) text += ' '
    const b = Buffer.concat([Buffer.from(text), Buffer.from(new Uint32Array([7, 8]).buffer), Buffer.from([1, 0, 1])])
    const request = decodeInferRequest(b, text.length, uint32AndBool, limits)
    const input0 = tensorOf(request.rows[0], 'input0').data
    expect(Array.from(input0)).toEqual([7, 8])
    expect(input0.buffer).not.toBe(b.buffer)
    const input1 = tensorOf(request.rows[0], 'input1').data
    expect(input1.buffer).toBe(b.buffer)
  })

  it('refuses a binary size other than shape × datatype size', () => {
    const { body: b, headerLength } = body(
      {
        inputs: [
          { name: 'input0', shape: [1, 2], datatype: 'UINT32', parameters: { binary_data_size: 4 } },
          { name: 'input1', shape: [1, 3], datatype: 'BOOL', data: [1, 0, 1] },
        ],
      },
      new Uint32Array([1]),
    )
    expect(() => decodeInferRequest(b, headerLength, uint32AndBool, limits)).toThrow(
      `Malformed binary tensor data: "input0": shape [1, 2] of UINT32 needs 8 bytes, binary_data_size is 4`,
    )
  })

  it('refuses a BOOL byte other than 0 and 1', () => {
    const { body: b, headerLength } = body(
      {
        inputs: [
          { name: 'input0', shape: [1, 2], datatype: 'UINT32', data: [1, 2] },
          { name: 'input1', shape: [1, 3], datatype: 'BOOL', parameters: { binary_data_size: 3 } },
        ],
      },
      new Uint8Array([1, 2, 0]),
    )
    expect(() => decodeInferRequest(b, headerLength, uint32AndBool, limits)).toThrow(
      `Input "input1": BOOL element 1 is byte 2; a BOOL is one byte, 0 or 1`,
    )
  })

  it('refuses trailing bytes after the declared tensors', () => {
    const { body: b, headerLength } = body(
      {
        inputs: [
          { name: 'input0', shape: [1, 2], datatype: 'UINT32', parameters: { binary_data_size: 8 } },
          { name: 'input1', shape: [1, 3], datatype: 'BOOL', data: [1, 0, 1] },
        ],
      },
      new Uint32Array([1, 2, 3]),
    )
    expect(() => decodeInferRequest(b, headerLength, uint32AndBool, limits)).toThrow('4 trailing byte(s) after the binary tensor data')
  })

  it('refuses a JSON header that is not JSON, naming the header', () => {
    const b = Buffer.from('{"inputs": [xx')
    expect(() => decodeInferRequest(b, b.length, uint32AndBool, limits)).toThrow('Request body is not valid JSON')
  })

  it('refuses an FP32 value that overflows to Infinity, naming the input and the element', () => {
    const m = metadata([{ name: 'x', type: 'float32', dims: ['batch', 2] }])
    const b = Buffer.from(JSON.stringify({ inputs: [{ name: 'x', shape: [1, 2], datatype: 'FP32', data: [1, 1e39] }] }))
    expect(() => decodeInferRequest(b, undefined, m, limits)).toThrow(
      `Input "x": element 1 is number 1e+39, expected a number within FP32 range (|x| <= 3.4028234663852886e38)`,
    )
  })

  it('refuses an out-of-range integer, naming the input', () => {
    const m = metadata([{ name: 'i', type: 'int8', dims: ['batch', 1] }])
    const b = Buffer.from(JSON.stringify({ inputs: [{ name: 'i', shape: [1, 1], datatype: 'INT8', data: [128] }] }))
    expect(() => decodeInferRequest(b, undefined, m, limits)).toThrow(
      `Input "i": element 0 is number 128, expected an integer in [-128, 127]`,
    )
  })

  describe('the raw form (Inference-Header-Content-Length: 0)', () => {
    it('reads the whole body as one row of the only input, and asks for every output as binary', () => {
      const m = metadata([{ name: 'x', type: 'float32', dims: ['batch', 'n'] }], [{ name: 'y', type: 'float32', dims: ['batch'] }])
      const request = decodeInferRequest(Buffer.from(new Float32Array([1, 2, 3]).buffer), 0, m, limits)
      expect(request.rows).toHaveLength(1)
      expect(tensorOf(request.rows[0], 'x').dims).toEqual([3])
      expect(Array.from(tensorOf(request.rows[0], 'x').data)).toEqual([1, 2, 3])
      expect(request.outputs).toEqual([{ name: 'y', binary: true }])
    })

    it('refuses a model with several inputs, two dynamic axes, or a size that is not whole rows', () => {
      expect(() => decodeInferRequest(Buffer.alloc(8), 0, uint32AndBool, limits)).toThrow(
        'needs a model with exactly one input; this model has 2',
      )
      const twoDynamic = metadata([{ name: 'x', type: 'float32', dims: ['batch', 'a', 'b'] }])
      expect(() => decodeInferRequest(Buffer.alloc(8), 0, twoDynamic, limits)).toThrow('it has 2 dynamic axes (at most 1)')
      const fixed = metadata([{ name: 'x', type: 'float32', dims: ['batch', 4] }])
      expect(() => decodeInferRequest(Buffer.alloc(12), 0, fixed, limits)).toThrow(
        `Malformed binary tensor data: input "x" [4] of FP32 needs exactly 16 bytes, the body has 12`,
      )
      const dynamic = metadata([{ name: 'x', type: 'float32', dims: ['batch', 'n', 2] }])
      expect(() => decodeInferRequest(Buffer.alloc(12), 0, dynamic, limits)).toThrow(
        'needs a positive multiple of 8 bytes, the body has 12',
      )
      expect(() => decodeInferRequest(Buffer.alloc(0), 0, dynamic, limits)).toThrow('the body has 0')
    })
  })
})

describe('encoding a response', () => {
  const out = (data: Float32Array | Uint16Array, type: 'float32' | 'float16' = 'float32') => ({ y: { type, data, dims: [data.length] } })

  it("writes binary outputs after the JSON header, rows back to back, and says each one's size", () => {
    const response = encodeInferResponse(
      'm',
      '1',
      'req-1',
      [{ name: 'y', binary: true }],
      [out(new Float32Array([1, 2])), out(new Float32Array([3, 4]))],
    )
    expect(response.kind).toBe('binary')
    if (response.kind !== 'binary') return
    const whole = Buffer.concat(response.body.chunks)
    expect(whole.length).toBe(response.body.totalLength)
    const header = JSON.parse(whole.subarray(0, response.body.headerLength).toString())
    expect(header).toEqual({
      model_name: 'm',
      model_version: '1',
      id: 'req-1',
      outputs: [{ name: 'y', datatype: 'FP32', shape: [2, 2], parameters: { binary_data_size: 16 } }],
    })
    const tail = whole.subarray(response.body.headerLength)
    expect([0, 4, 8, 12].map((o) => tail.readFloatLE(o))).toEqual([1, 2, 3, 4])
  })

  it('carries NaN and Infinity exactly as binary, and refuses them as JSON with a clear error', () => {
    const values = new Float32Array([NaN, Infinity])
    const binary = encodeInferResponse('m', '1', undefined, [{ name: 'y', binary: true }], [out(values)])
    if (binary.kind !== 'binary') throw new Error('expected binary')
    const tail = Buffer.concat(binary.body.chunks).subarray(binary.body.headerLength)
    expect(tail.readFloatLE(0)).toBeNaN()
    expect(tail.readFloatLE(4)).toBe(Infinity)
    expect(() => encodeInferResponse('m', '1', undefined, [{ name: 'y', binary: false }], [out(values)])).toThrow(
      `Output "y" holds NaN or Infinity, which JSON cannot represent; ask for it as binary tensor data`,
    )
  })

  it('writes FP16 outputs as their values in JSON', () => {
    const response = encodeInferResponse(
      'm',
      '1',
      undefined,
      [{ name: 'y', binary: false }],
      [out(new Uint16Array([0x3c00, 0xc000, 0x3555]), 'float16')],
    )
    expect(response.kind === 'json' && JSON.parse(response.pieces.join('')).outputs[0]).toEqual({
      name: 'y',
      datatype: 'FP16',
      shape: [1, 3],
      data: [1, -2, halfValue(0x3555)],
    })
  })

  it('frames a small body as one buffer, counting the header in UTF-8 bytes', () => {
    const framed = binaryBody('{"m":"é"}', [Buffer.from([1, 2]), Buffer.from([3])])
    expect(framed.headerLength).toBe(10)
    expect(framed.totalLength).toBe(13)
    expect(framed.chunks).toHaveLength(1)
    expect([...framed.chunks[0].subarray(10)]).toEqual([1, 2, 3])
    expect(framed.chunks[0].subarray(0, 10).toString('utf8')).toBe('{"m":"é"}')
  })

  it('frames a body larger than ONE_CHUNK_MAX_BYTES without copying its tensors', () => {
    const tensor = Buffer.alloc(ONE_CHUNK_MAX_BYTES, 7)
    const framed = binaryBody('{}', [tensor])
    expect(framed.chunks).toHaveLength(2)
    expect(framed.chunks[1]).toBe(tensor)
    expect(framed.totalLength).toBe(ONE_CHUNK_MAX_BYTES + 2)
  })

  it('frames a body: header first, then each chunk, lengths added up', () => {
    const framed = binaryBody('{}', [Buffer.from([1, 2]), Buffer.from([3])])
    expect(framed.headerLength).toBe(2)
    expect(framed.totalLength).toBe(5)
    expect([...Buffer.concat(framed.chunks)]).toEqual([0x7b, 0x7d, 1, 2, 3])
  })
})
