// Unit tests of handing each row its outputs (internal, imported from src): per-row
// views into the batch's output buffers, computed from per-batch facts per output.
import { describe, expect, it } from 'vitest'
import { buildModelShape } from '../src/pool/model-shape.js'
import { resolvePoolOptions } from '../src/pool/options.js'
import { unpackOutputs } from '../src/pool/pack.js'
import { validateRow } from '../src/pool/validate-input.js'

const shape = buildModelShape(
  {
    inputs: [{ name: 'x', type: 'float32', dims: ['batch', 2] }],
    outputs: [
      { name: 'scores', type: 'float32', dims: ['batch', 3] },
      { name: 'label', type: 'int64', dims: ['batch'] },
    ],
  },
  resolvePoolOptions({ model: 'm.onnx' }, 2),
)

describe('unpacking a batch into rows', () => {
  const rows = [0, 1, 2].map(() => validateRow({ x: new Float32Array(2) }, shape))
  const scores = Float32Array.from([0, 1, 2, 10, 11, 12, 20, 21, 22])
  const label = BigInt64Array.from([5n, 6n, 7n])
  const outputs = {
    scores: { type: 'float32' as const, dims: [3, 3], buffer: scores.buffer },
    label: { type: 'int64' as const, dims: [3], buffer: label.buffer },
  }

  it('gives each row a view of every output at its own offset, without copying', () => {
    const out = unpackOutputs(outputs, rows, shape)
    expect(out).toHaveLength(3)
    expect(out.map((r) => Array.from(r.scores.data as Float32Array))).toEqual([
      [0, 1, 2],
      [10, 11, 12],
      [20, 21, 22],
    ])
    expect(out.map((r) => Array.from(r.label.data as BigInt64Array))).toEqual([[5n], [6n], [7n]])
    expect((out[1].scores.data as Float32Array).buffer).toBe(scores.buffer)
    expect((out[1].scores.data as Float32Array).byteOffset).toBe(12)
    expect((out[2].label.data as BigInt64Array).byteOffset).toBe(16)
    expect(out[0]).toEqual({
      scores: { type: 'float32', dims: [3], data: Float32Array.from([0, 1, 2]) },
      label: { type: 'int64', dims: [], data: BigInt64Array.from([5n]) },
    })
  })

  it("gives each row its own dims array, so one caller changing it does not change another's", () => {
    const out = unpackOutputs(outputs, rows, shape)
    expect(out[0].scores.dims).not.toBe(out[1].scores.dims)
    out[0].scores.dims.push(99)
    expect(out[1].scores.dims).toEqual([3])
    expect(outputs.scores.dims).toEqual([3, 3])
  })
})
