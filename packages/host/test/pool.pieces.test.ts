// Unit tests of a batch as pieces (pack.ts `pieceBatch`, internal, imported from src): what
// process mode writes straight into a replica's transfer file is, byte for byte, the batch
// thread mode packs — for plain rows, a block's rows, a fixed batch's filler rows, padding,
// strings and unaligned element sizes — and a row's bytes come from the caller's own array.
import { describe, expect, it } from 'vitest'
import { admitBlock, blockShapeOf } from '../src/pool/block.js'
import type { BlockShape } from '../src/pool/block.js'
import { buildModelShape } from '../src/pool/model-shape.js'
import type { ModelShape } from '../src/pool/model-shape.js'
import { resolvePoolOptions } from '../src/pool/options.js'
import { packBatch, pieceBatch } from '../src/pool/pack.js'
import type { PackedRow } from '../src/pool/pack.js'
import { validateRow } from '../src/pool/validate-input.js'
import type { WorkerDescription } from '@inferpool/worker'

/** Each input's dims and bytes, by name. */
type InputBytes = Record<string, { dims: readonly number[]; bytes: number[] }>

/** The pieces of each input joined, as the transfer file holds them. */
function joined(rows: readonly PackedRow[], shape: ModelShape, batchRows?: number): InputBytes {
  const out: InputBytes = {}
  for (const input of pieceBatch(rows, shape, batchRows).inputs) {
    const bytes: number[] = []
    for (const piece of input.pieces) bytes.push(...new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength))
    expect(bytes.length).toBe(input.byteLength)
    out[input.name] = { dims: input.dims, bytes }
  }
  return out
}

/** The packed batch of thread mode, in the same form. */
function packed(rows: readonly PackedRow[], shape: ModelShape, batchRows?: number): InputBytes {
  const out: InputBytes = {}
  const { batch } = packBatch(rows, shape, batchRows)
  for (const name in batch.inputs)
    out[name] = { dims: batch.inputs[name].dims, bytes: Array.from(new Uint8Array(batch.inputs[name].buffer)) }
  return out
}

function shapeOf(description: WorkerDescription, options: Record<string, unknown> = {}): ModelShape {
  return buildModelShape(description, resolvePoolOptions({ model: 'm.onnx', ...options }, 2))
}

describe('a batch as pieces', () => {
  it("holds the packed batch's bytes for rows of two inputs with 3- and 12-byte rows, and each row's piece is the caller's own array", () => {
    const shape = shapeOf({
      inputs: [
        { name: 'flags', type: 'uint8', dims: ['batch', 3] },
        { name: 'a', type: 'float32', dims: ['batch', 3] },
      ],
      outputs: [{ name: 'y', type: 'float32', dims: ['batch'] }],
    })
    const first = { flags: Uint8Array.from([1, 2, 3]), a: Float32Array.from([0.5, -1, 2]) }
    const rows = [validateRow(first, shape), validateRow({ flags: Uint8Array.from([4, 5, 6]), a: Float32Array.from([3, 4, 5]) }, shape)]
    expect(joined(rows, shape)).toEqual(packed(rows, shape))
    const pieces = pieceBatch(rows, shape)
    expect(pieces.rows).toBe(2)
    expect(pieces.inputs[0].pieces[0]).toBe(first.flags)
    expect(pieces.inputs[1].pieces[0]).toBe(first.a)
  })

  it("holds the packed batch's bytes for a block's rows (one piece per run of a block) mixed with single rows", () => {
    const shape = shapeOf({
      inputs: [{ name: 'x', type: 'int32', dims: ['batch', 2] }],
      outputs: [{ name: 'y', type: 'int32', dims: ['batch'] }],
    })
    const blocks = blockShapeOf(shape) as BlockShape
    const block = admitBlock({ x: { data: Int32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), dims: [4, 2] } }, blocks)
    const single = validateRow({ x: Int32Array.from([9, 10]) }, shape)
    // Rows 1-2 of the block, a single row, then rows 0 and 3 (not a run: two pieces).
    const rows: PackedRow[] = [block[1], block[2], single, block[0], block[3]]
    expect(joined(rows, shape)).toEqual(packed(rows, shape))
    expect(pieceBatch(rows, shape).inputs[0].pieces.map((p) => Array.from(p as Int32Array))).toEqual([
      [3, 4, 5, 6],
      [9, 10],
      [1, 2],
      [7, 8],
    ])
  })

  it("holds the packed batch's bytes for a fixed batch's zero filler rows and for padding (int64)", () => {
    const shape = shapeOf(
      { inputs: [{ name: 'ids', type: 'int64', dims: [4, 'seq'] }], outputs: [{ name: 'y', type: 'float32', dims: [4] }] },
      { padding: { ids: { value: 7 } } },
    )
    const rows = [
      validateRow({ ids: { data: BigInt64Array.from([1n, 2n]), dims: [2] } }, shape),
      validateRow({ ids: { data: BigInt64Array.from([3n]), dims: [1] } }, shape),
    ]
    expect(joined(rows, shape, 4)).toEqual(packed(rows, shape, 4))
    const unpadded = shapeOf({
      inputs: [{ name: 'x', type: 'float16', dims: [4, 2] }],
      outputs: [{ name: 'y', type: 'float32', dims: [4] }],
    })
    const half = [validateRow({ x: Uint16Array.from([0x3c00, 0xbc00]) }, unpadded)]
    const filled = joined(half, unpadded, 4)
    expect(filled).toEqual(packed(half, unpadded, 4))
    expect(filled.x).toEqual({ dims: [4, 2], bytes: [0x00, 0x3c, 0x00, 0xbc, ...new Array<number>(12).fill(0)] })
  })

  it("holds the packed batch's bytes for a string input", () => {
    const shape = shapeOf({
      inputs: [{ name: 's', type: 'string', dims: ['batch', 2] }],
      outputs: [{ name: 'y', type: 'float32', dims: ['batch'] }],
    })
    const rows = [validateRow({ s: ['a', 'ünï'] }, shape), validateRow({ s: ['', 'xyz'] }, shape)]
    expect(joined(rows, shape)).toEqual(packed(rows, shape))
  })
})
