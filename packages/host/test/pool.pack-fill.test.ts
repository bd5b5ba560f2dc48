// Unit tests of packing (internal, imported from src): what a batch's buffer holds
// besides the rows' data — padding gaps with the default value 0, a fixed batch's
// filler rows, 64-bit element types — asserted over the whole buffer, and that each
// batch gets its own transferable buffer of exactly its size.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { buildModelShape } from '../src/pool/model-shape.js'
import { resolvePoolOptions } from '../src/pool/options.js'
import { packBatch } from '../src/pool/pack.js'
import { validateRow } from '../src/pool/validate-input.js'

describe('every byte of a packed batch is written', () => {
  // Packing allocates without zero-filling; fresh memory is often zero anyway, so hand it
  // garbage here: a byte the packer forgets shows up as 0xaa instead of passing as 0.
  beforeEach(() => {
    vi.spyOn(Buffer, 'allocUnsafeSlow').mockImplementation((size: number) => Buffer.alloc(size, 0xaa))
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('fills padding gaps with the default value 0', () => {
    const shape = buildModelShape(
      {
        inputs: [{ name: 'ids', type: 'int64', dims: ['batch', 'seq'] }],
        outputs: [{ name: 'y', type: 'float32', dims: ['batch', 'seq'] }],
      },
      resolvePoolOptions({ model: 'm.onnx', padding: { ids: {} } }, 2),
    )
    const rows = [
      validateRow({ ids: { data: BigInt64Array.from([1n]), dims: [1] } }, shape),
      validateRow({ ids: { data: BigInt64Array.from([2n, 3n, 4n]), dims: [3] } }, shape),
      validateRow({ ids: { data: BigInt64Array.from([5n, 6n]), dims: [2] } }, shape),
    ]
    const { batch, transfer } = packBatch(rows, shape)
    expect(batch.inputs.ids.dims).toEqual([3, 3])
    expect(Array.from(new BigInt64Array(batch.inputs.ids.buffer))).toEqual([1n, 0n, 0n, 2n, 3n, 4n, 5n, 6n, 0n])
    expect(transfer[0].byteLength).toBe(9 * 8)
  })

  it("zeroes a fixed batch's filler rows of a 64-bit input and fills its padding with the padding value", () => {
    const shape = buildModelShape(
      { inputs: [{ name: 'ids', type: 'int64', dims: [4, 'seq'] }], outputs: [{ name: 'y', type: 'float32', dims: [4] }] },
      resolvePoolOptions({ model: 'm.onnx', padding: { ids: { value: 7 } } }, 2),
    )
    const rows = [
      validateRow({ ids: { data: BigInt64Array.from([1n, 2n]), dims: [2] } }, shape),
      validateRow({ ids: { data: BigInt64Array.from([3n]), dims: [1] } }, shape),
    ]
    const { batch } = packBatch(rows, shape, 4)
    expect(batch.inputs.ids.dims).toEqual([4, 2])
    expect(Array.from(new BigInt64Array(batch.inputs.ids.buffer))).toEqual([1n, 2n, 3n, 7n, 0n, 0n, 0n, 0n])
  })

  it('gives every batch its own transferable buffer of exactly its size, not a piece of a shared one', () => {
    const shape = buildModelShape(
      { inputs: [{ name: 'x', type: 'uint8', dims: ['batch', 3] }], outputs: [{ name: 'y', type: 'float32', dims: ['batch'] }] },
      resolvePoolOptions({ model: 'm.onnx' }, 2),
    )
    const row = validateRow({ x: Uint8Array.from([1, 2, 3]) }, shape)
    const a = packBatch([row], shape)
    const b = packBatch([row, row], shape)
    expect(a.transfer[0]).not.toBe(b.transfer[0])
    expect(a.transfer[0].byteLength).toBe(3)
    expect(Array.from(new Uint8Array(b.transfer[0]))).toEqual([1, 2, 3, 1, 2, 3])
    const { port1, port2 } = new MessageChannel()
    port1.postMessage(b.batch, b.transfer)
    expect(b.transfer[0].byteLength).toBe(0)
    port1.close()
    port2.close()
  })
})
