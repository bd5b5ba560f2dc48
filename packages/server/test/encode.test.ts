import { describe, expect, it } from 'vitest'
import { encodeInferResponse } from '../src/http/encode-body.js'
import { outputRuns } from '../src/protocol/encode.js'
import { OutputShapeMismatchError } from '../src/protocol/errors.js'
import type { RowOutput, TensorData } from '@inferpool/host'

/** Rows whose `out` is `views[r]`, each with dims [length]. */
const rowsOf = (views: TensorData[], dims?: number[]): RowOutput[] =>
  views.map((data) => ({ out: { type: Array.isArray(data) ? 'string' : 'float32', data, dims: dims ?? [data.length] } }))

/** Where a run sits: [byteOffset, length], and whether it is over `buffer`. */
const placeOf = (run: TensorData, buffer: ArrayBufferLike): [number, number, boolean] => {
  const view = run as Float32Array
  return [view.byteOffset, view.length, view.buffer === buffer]
}

describe('outputRuns', () => {
  it('merges the rows of one batch, back to back in its buffer, into one view of it', () => {
    const batch = new Float32Array(12).map((_, i) => i)
    const rows = rowsOf(
      [0, 1, 2].map((r) => batch.subarray(r * 4, r * 4 + 4)),
      [4],
    )
    const runs = outputRuns(rows, 'out')
    expect(runs).toHaveLength(1)
    expect(placeOf(runs[0], batch.buffer)).toEqual([0, 12, true])
    expect(Array.from(runs[0] as Float32Array)).toEqual(Array.from(batch))
  })

  it('starts a new run at another buffer, at a gap, and at rows out of order', () => {
    const a = new Float32Array(8).map((_, i) => i)
    const b = new Float32Array(4).map((_, i) => 100 + i)
    const rows = rowsOf(
      [
        a.subarray(0, 2),
        a.subarray(2, 4),
        b.subarray(0, 2), // another batch's buffer
        a.subarray(6, 8), // a gap after a[4..6)
        a.subarray(4, 6), // before the previous row
      ],
      [2],
    )
    const runs = outputRuns(rows, 'out')
    expect(runs.map((run) => placeOf(run, (run as Float32Array).buffer === a.buffer ? a.buffer : b.buffer))).toEqual([
      [0, 4, true],
      [0, 2, true],
      [24, 2, true],
      [16, 2, true],
    ])
    expect(runs.flatMap((run) => Array.from(run as Float32Array))).toEqual([0, 1, 2, 3, 100, 101, 6, 7, 4, 5])
  })

  it('keeps a row that is a single view as that very view, and strings row by row', () => {
    const one = new Float32Array([1, 2, 3])
    expect(outputRuns(rowsOf([one]), 'out')[0]).toBe(one)
    const strings = [
      ['a', 'b'],
      ['c', 'd'],
    ]
    expect(outputRuns(rowsOf(strings, [2]), 'out')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
  })

  it('does not merge views of different element types over one buffer', () => {
    const buffer = new ArrayBuffer(16)
    const rows: RowOutput[] = [
      { out: { type: 'float32', data: new Float32Array(buffer, 0, 2), dims: [2] } },
      { out: { type: 'float32', data: new Int32Array(buffer, 8, 2), dims: [2] } },
    ]
    expect(outputRuns(rows, 'out')).toHaveLength(2)
  })

  it('throws OutputShapeMismatchError for a row whose dims differ from the first', () => {
    const batch = new Float32Array(6)
    const rows: RowOutput[] = [
      { out: { type: 'float32', data: batch.subarray(0, 3), dims: [3] } },
      { out: { type: 'float32', data: batch.subarray(3, 6), dims: [1, 3] } },
    ]
    expect(() => outputRuns(rows, 'out')).toThrow(OutputShapeMismatchError)
  })
})

describe('encodeInferResponse over merged runs', () => {
  const batch = new Float32Array(8).map((_, i) => i / 2)
  const other = new Float32Array([7, 8])
  // Rows 0-2 ran together; row 3 came from another batch.
  const results = rowsOf([batch.subarray(0, 2), batch.subarray(2, 4), batch.subarray(4, 6), other], [2])

  it('writes the same JSON data as row by row', () => {
    const response = encodeInferResponse('m', '1', 'id-1', [{ name: 'out', binary: false }], results)
    expect(response.kind).toBe('json')
    const pieces = (response as { pieces: readonly string[] }).pieces
    // The data of the rows that ran together, and of the other row, are pieces of their own.
    expect(pieces).toContain('0,0.5,1,1.5,2,2.5')
    expect(pieces).toContain('7,8')
    expect(JSON.parse(pieces.join(''))).toEqual({
      model_name: 'm',
      model_version: '1',
      id: 'id-1',
      outputs: [{ name: 'out', datatype: 'FP32', shape: [4, 2], data: [0, 0.5, 1, 1.5, 2, 2.5, 7, 8] }],
    })
  })

  it('writes binary data after its header, the bytes of every row in order (a small body as one chunk)', () => {
    const response = encodeInferResponse('m', '1', undefined, [{ name: 'out', binary: true }], results)
    expect(response.kind).toBe('binary')
    const body = (response as { body: { chunks: Buffer[]; headerLength: number; totalLength: number } }).body
    // 32 bytes of data: framed as one buffer (binary.ts ONE_CHUNK_MAX_BYTES).
    expect(body.chunks).toHaveLength(1)
    const joined = Buffer.concat(body.chunks)
    expect(joined.length).toBe(body.totalLength)
    const header = JSON.parse(joined.subarray(0, body.headerLength).toString('utf8')) as { outputs: Array<{ parameters: object }> }
    expect(header.outputs[0].parameters).toEqual({ binary_data_size: 32 })
    const tensor = joined.subarray(body.headerLength)
    expect(Array.from(new Float32Array(tensor.buffer.slice(tensor.byteOffset, tensor.byteOffset + tensor.length)))).toEqual([
      0, 0.5, 1, 1.5, 2, 2.5, 7, 8,
    ])
  })

  it('joins several outputs, JSON and binary, into one valid header', () => {
    const two: RowOutput[] = results.map((row, r) => ({ ...row, ids: { type: 'int32', data: new Int32Array([r, -r]), dims: [2] } }))
    const json = encodeInferResponse(
      'm',
      '1',
      'x"y',
      [
        { name: 'out', binary: false },
        { name: 'ids', binary: false },
      ],
      two,
    )
    expect(JSON.parse((json as { pieces: readonly string[] }).pieces.join(''))).toEqual({
      model_name: 'm',
      model_version: '1',
      id: 'x"y',
      outputs: [
        { name: 'out', datatype: 'FP32', shape: [4, 2], data: [0, 0.5, 1, 1.5, 2, 2.5, 7, 8] },
        { name: 'ids', datatype: 'INT32', shape: [4, 2], data: [0, 0, 1, -1, 2, -2, 3, -3] },
      ],
    })
    const mixed = encodeInferResponse(
      'm',
      '1',
      undefined,
      [
        { name: 'out', binary: true },
        { name: 'ids', binary: false },
      ],
      two,
    )
    const body = (mixed as { body: { chunks: Buffer[]; headerLength: number } }).body
    expect(JSON.parse(body.chunks[0].subarray(0, body.headerLength).toString('utf8'))).toEqual({
      model_name: 'm',
      model_version: '1',
      outputs: [
        { name: 'out', datatype: 'FP32', shape: [4, 2], parameters: { binary_data_size: 32 } },
        { name: 'ids', datatype: 'INT32', shape: [4, 2], data: [0, 0, 1, -1, 2, -2, 3, -3] },
      ],
    })
  })
})
