// Unit tests of the packing module (internal, imported from src): layouts that the
// generated models do not reach — padding along an inner axis, a fixed batch > 1,
// and outputs whose row count disagrees with the batch.
import { describe, expect, it } from 'vitest'
import { BatchSizeMismatchError } from '@inferpool/core'
import type { WorkerDescription } from '@inferpool/worker'
import { buildModelShape } from '../src/pool/model-shape.js'
import { resolvePoolOptions } from '../src/pool/options.js'
import { packBatch, unpackOutputs } from '../src/pool/pack.js'
import { validateRow } from '../src/pool/validate-input.js'

const description: WorkerDescription = {
  inputs: [{ name: 'x', type: 'float32', dims: ['batch', 2, 'len'] }],
  outputs: [
    { name: 'y', type: 'float32', dims: ['batch', 2, 'len'] },
    { name: 'z', type: 'int32', dims: ['batch'] },
  ],
}

describe('packing rows into one buffer per input', () => {
  const shape = buildModelShape(description, resolvePoolOptions({ model: 'm.onnx', padding: { x: { axis: 1, value: -1 } } }, 2))

  it('pads along an inner axis with the padding value and cuts each row back on the way out', () => {
    const a = validateRow({ x: { data: Float32Array.from([1, 2, 3, 4]), dims: [2, 2] } }, shape)
    const b = validateRow({ x: { data: Float32Array.from([5, 6, 7, 8, 9, 10]), dims: [2, 3] } }, shape)
    expect(a.key).toBe(b.key)
    const { batch, transfer } = packBatch([a, b], shape)
    expect(batch.inputs.x.dims).toEqual([2, 2, 3])
    expect(Array.from(new Float32Array(batch.inputs.x.buffer))).toEqual([1, 2, -1, 3, 4, -1, 5, 6, 7, 8, 9, 10])
    expect(transfer).toEqual([batch.inputs.x.buffer])

    // The model echoes x into y; z is one int per row.
    const y = { type: 'float32' as const, dims: [2, 2, 3], buffer: batch.inputs.x.buffer.slice(0) }
    const z = { type: 'int32' as const, dims: [2], buffer: Int32Array.from([7, 9]).buffer }
    const [ra, rb] = unpackOutputs({ y, z }, [a, b], shape)
    expect(ra.y.dims).toEqual([2, 2])
    expect(Array.from(ra.y.data as Float32Array)).toEqual([1, 2, 3, 4])
    expect(rb.y.dims).toEqual([2, 3])
    expect(Array.from(rb.y.data as Float32Array)).toEqual([5, 6, 7, 8, 9, 10])
    expect(ra.z).toEqual({ type: 'int32', dims: [], data: Int32Array.from([7]) })
    expect(Array.from(rb.z.data as Int32Array)).toEqual([9])
  })

  it('fills a fixed batch with zero rows and drops their outputs', () => {
    const fixed = buildModelShape(
      { inputs: [{ name: 'x', type: 'float32', dims: [4, 2] }], outputs: [{ name: 'y', type: 'float32', dims: [4, 1] }] },
      resolvePoolOptions({ model: 'm.onnx' }, 2),
    )
    expect(fixed.fixedBatchSize).toBe(4)
    const row = validateRow({ x: Float32Array.from([1, 2]) }, fixed)
    const { batch } = packBatch([row], fixed, 4)
    expect(batch.inputs.x.dims).toEqual([4, 2])
    expect(Array.from(new Float32Array(batch.inputs.x.buffer))).toEqual([1, 2, 0, 0, 0, 0, 0, 0])
    const outputs = unpackOutputs({ y: { type: 'float32', dims: [4, 1], buffer: Float32Array.from([3, 0, 0, 0]).buffer } }, [row], fixed, 4)
    expect(outputs).toHaveLength(1)
    expect(Array.from(outputs[0].y.data as Float32Array)).toEqual([3])
  })

  it('refuses outputs whose first dim differs from the rows sent (BatchSizeMismatchError)', () => {
    const a = validateRow({ x: { data: new Float32Array(4), dims: [2, 2] } }, shape)
    const b = validateRow({ x: { data: new Float32Array(4), dims: [2, 2] } }, shape)
    const y = { type: 'float32' as const, dims: [1, 2, 2], buffer: new Float32Array(4).buffer }
    const z = { type: 'int32' as const, dims: [2], buffer: new Int32Array(2).buffer }
    expect(() => unpackOutputs({ y, z }, [a, b], shape)).toThrow(BatchSizeMismatchError)
    expect(() => unpackOutputs({ y, z }, [a, b], shape)).toThrow('Expected 2 rows in output "y" for a batch of 2 items, got 1')
  })
})
