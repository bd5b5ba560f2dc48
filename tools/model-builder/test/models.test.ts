import { afterAll, describe, expect, it } from 'vitest'
import { Tensor } from 'onnxruntime-node'
import {
  buildMatrixPower,
  DEMO_MLP_SIZES,
  demoMlpWeights,
  fixedBatchWeights,
  hardcodedBatch1Reference,
  hardcodedBatch1Weights,
  isPoisonRow,
  linearReference,
  mlpReference,
  multiIoReference,
  poisonReference,
  poisonTable,
  serializeModel,
  TOKEN_POOL_DIM,
  tokenPoolReference,
  tokenPoolWeights,
} from '../src/index.js'
import { expectClose, openSession, releaseSessions, testInput } from './helpers.js'

afterAll(releaseSessions)

const DEMO = 'packages/host/models/demo-mlp.onnx'

describe('demo-mlp.onnx', () => {
  it('declares input [batch, 256] and output [batch, 16], float32, with a symbolic batch axis', async () => {
    const s = await openSession(DEMO)
    expect(s.inputMetadata).toEqual([{ name: 'input', isTensor: true, type: 'float32', shape: ['batch', 256] }])
    expect(s.outputMetadata).toEqual([{ name: 'output', isTensor: true, type: 'float32', shape: ['batch', 16] }])
  })

  it.each([1, 7, 128])('matches the plain-JS forward pass for a batch of %i', async (batch) => {
    const s = await openSession(DEMO)
    const input = testInput(batch * 256, 100 + batch)
    const out = await s.run({ input: new Tensor('float32', input, [batch, 256]) })
    expect(out.output.dims).toEqual([batch, 16])
    expectClose(out.output.data as Float32Array, mlpReference(demoMlpWeights(), input, batch))
  })

  it('gives each row of a batch the same result as running that row alone', async () => {
    const s = await openSession(DEMO)
    const batch = 5
    const input = testInput(batch * 256, 7)
    const together = (await s.run({ input: new Tensor('float32', input, [batch, 256]) })).output.data as Float32Array
    for (let r = 0; r < batch; r++) {
      const row = input.subarray(r * 256, (r + 1) * 256)
      const alone = (await s.run({ input: new Tensor('float32', row, [1, 256]) })).output.data as Float32Array
      // Bit-identical on this machine's MLAS kernels (checked for batches 2..128 with 1 and 2
      // intra-op threads): the pool's tests may compare batched and direct rows exactly.
      expect(together.subarray(r * 16, (r + 1) * 16)).toEqual(alone)
    }
  })

  it('gives distinct rows distinct, non-zero outputs (the ReLU layers do not die out)', async () => {
    const s = await openSession(DEMO)
    const input = testInput(4 * 256, 3)
    const out = (await s.run({ input: new Tensor('float32', input, [4, 256]) })).output.data as Float32Array
    const rows = [0, 1, 2, 3].map((r) => Array.from(out.subarray(r * 16, (r + 1) * 16)).join(','))
    expect(new Set(rows).size).toBe(4)
    expect(out.filter((v) => v === 0).length).toBe(0)
    expect(DEMO_MLP_SIZES).toEqual([256, 512, 256, 16])
  })
})

describe('token-pool.onnx', () => {
  const weights = tokenPoolWeights()
  const ids = (values: number[]) => BigInt64Array.from(values.map(BigInt))

  async function run(idRows: number[][], maskRows: number[][]) {
    const s = await openSession('fixtures/models/token-pool.onnx')
    const batch = idRows.length
    const seq = idRows[0].length
    const out = await s.run({
      input_ids: new Tensor('int64', ids(idRows.flat()), [batch, seq]),
      attention_mask: new Tensor('int64', ids(maskRows.flat()), [batch, seq]),
    })
    return { tokenEmbeddings: out.token_embeddings, pooled: out.pooled }
  }

  it('declares int64 input_ids/attention_mask [batch, seq] and float32 outputs', async () => {
    const s = await openSession('fixtures/models/token-pool.onnx')
    expect(s.inputMetadata).toEqual([
      { name: 'input_ids', isTensor: true, type: 'int64', shape: ['batch', 'seq'] },
      { name: 'attention_mask', isTensor: true, type: 'int64', shape: ['batch', 'seq'] },
    ])
    expect(s.outputMetadata).toEqual([
      { name: 'token_embeddings', isTensor: true, type: 'float32', shape: ['batch', 'seq', 8] },
      { name: 'pooled', isTensor: true, type: 'float32', shape: ['batch', 8] },
    ])
  })

  it('returns the embedding rows and their masked mean, as the JS reference computes them', async () => {
    const idRows = [
      [17, 999, 0, 42, 5],
      [3, 3, 3, 0, 0],
      [-1, 500, 0, 0, 0],
    ]
    const maskRows = [
      [1, 1, 1, 1, 1],
      [1, 1, 1, 0, 0],
      [1, 1, 0, 0, 0],
    ]
    const { tokenEmbeddings, pooled } = await run(idRows, maskRows)
    const ref = tokenPoolReference(weights, idRows.flat(), maskRows.flat(), 3, 5)
    expect(tokenEmbeddings.dims).toEqual([3, 5, TOKEN_POOL_DIM])
    expect(pooled.dims).toEqual([3, TOKEN_POOL_DIM])
    // A lookup copies the table's float32 values, and the reference rounds like the model
    // (running sum in order, float32 after each step): both outputs are exact.
    expect(tokenEmbeddings.data).toEqual(ref.tokenEmbeddings)
    expect(pooled.data).toEqual(ref.pooled)
  })

  it('pools a zero-padded, mask-0 row to exactly the same vector as the unpadded row, for lengths 1..48', async () => {
    for (let length = 1; length <= 48; length++) {
      const row = Array.from({ length }, (_, i) => (i * 37 + length * 11) % 1000)
      const alone = await run([row], [row.map(() => 1)])
      expect(alone.pooled.data).toEqual(
        tokenPoolReference(
          weights,
          row,
          row.map(() => 1),
          1,
          length,
        ).pooled,
      )
      for (const paddedLength of [length + 1, length + 5, 64]) {
        const padded = [...row, ...new Array<number>(paddedLength - length).fill(0)]
        const mask = padded.map((_, i) => (i < length ? 1 : 0))
        // The padded row shares its batch with a full-length row, as in a pool's padded batch.
        const inBatch = await run([padded, padded.map((_, i) => (i * 7) % 1000)], [mask, mask.map(() => 1)])
        expect((inBatch.pooled.data as Float32Array).subarray(0, TOKEN_POOL_DIM)).toEqual(alone.pooled.data)
        expect((inBatch.tokenEmbeddings.data as Float32Array).subarray(0, length * TOKEN_POOL_DIM)).toEqual(alone.tokenEmbeddings.data)
      }
    }
  })

  it('pools an all-masked row to zeros rather than NaN', async () => {
    const { pooled } = await run([[4, 5, 6]], [[0, 0, 0]])
    // -0 where the first embedding value is negative (x · 0 = -0 for x < 0); == 0 either way.
    expect(Array.from(pooled.data as Float32Array, (v) => v === 0)).toEqual(new Array(TOKEN_POOL_DIM).fill(true))
    expect(pooled.data).toEqual(tokenPoolReference(weights, [4, 5, 6], [0, 0, 0], 1, 3).pooled)
  })

  it('fails the run when an id is outside the vocabulary', async () => {
    await expect(run([[1, 1000]], [[1, 1]])).rejects.toThrow('idx=1000 must be within the inclusive range [-1000,999]')
  })
})

describe('fixed-batch.onnx', () => {
  it('reports its fixed dims [1, 8] → [1, 4] in the session metadata', async () => {
    const s = await openSession('fixtures/models/fixed-batch.onnx')
    expect(s.inputMetadata).toEqual([{ name: 'x', isTensor: true, type: 'float32', shape: [1, 8] }])
    expect(s.outputMetadata).toEqual([{ name: 'y', isTensor: true, type: 'float32', shape: [1, 4] }])
  })

  it('computes x · W + b for its single row', async () => {
    const s = await openSession('fixtures/models/fixed-batch.onnx')
    const x = testInput(8, 21)
    const out = await s.run({ x: new Tensor('float32', x, [1, 8]) })
    expectClose(out.y.data as Float32Array, linearReference(fixedBatchWeights(), x, 1))
  })

  it('rejects a batch of 2 before running', async () => {
    const s = await openSession('fixtures/models/fixed-batch.onnx')
    await expect(s.run({ x: new Tensor('float32', new Float32Array(16), [2, 8]) })).rejects.toThrow(
      'Got invalid dimensions for input: x for the following indices\n index: 0 Got: 2 Expected: 1',
    )
  })
})

describe('poison.onnx', () => {
  const table = poisonTable()
  const batchWith = (firstValues: number[]) => {
    const x = testInput(firstValues.length * 4, 33)
    firstValues.forEach((v, r) => {
      x[r * 4] = v
    })
    return x
  }

  it('computes x + table[trunc(x[0])] for rows whose index is in range, including the edges', async () => {
    const s = await openSession('fixtures/models/poison.onnx')
    const firsts = [0, 9.99, -10.99, -10, 9, 3.5, -0.5]
    const x = batchWith(firsts)
    const out = await s.run({ x: new Tensor('float32', x, [firsts.length, 4]) })
    expect(out.y.dims).toEqual([firsts.length, 4])
    expect(out.y.data).toEqual(poisonReference(table, x, firsts.length))
    expect(firsts.map(isPoisonRow)).toEqual(new Array(firsts.length).fill(false))
  })

  it.each([
    [10, 'idx=10 '],
    [-11, 'idx=-11 '],
    [1e6, 'idx=1000000 '],
    [Number.NaN, 'idx=-9223372036854775808 '],
  ])('fails the whole batch when one row has x[0] = %s', async (poison, idxText) => {
    const s = await openSession('fixtures/models/poison.onnx')
    expect(isPoisonRow(poison)).toBe(true)
    const x = batchWith([1, 2, poison, 3])
    expect(() => poisonReference(table, x, 4)).toThrow(RangeError)
    const run = s.run({ x: new Tensor('float32', x, [4, 4]) })
    await expect(run).rejects.toThrow(
      "Non-zero status code returned while running Gather node. Name:'Gather_looked_up' " +
        `Status Message: indices element out of data bounds, ${idxText}must be within the inclusive range [-10,9]`,
    )
  })

  it('keeps working for good batches after a poisoned one failed', async () => {
    const s = await openSession('fixtures/models/poison.onnx')
    await expect(s.run({ x: new Tensor('float32', batchWith([10]), [1, 4]) })).rejects.toThrow('out of data bounds')
    const x = batchWith([2, 4])
    const out = await s.run({ x: new Tensor('float32', x, [2, 4]) })
    expect(out.y.data).toEqual(poisonReference(table, x, 2))
  })
})

describe('hardcoded-batch1.onnx', () => {
  it('declares a symbolic batch axis on both input and output, so metadata alone does not reveal the problem', async () => {
    const s = await openSession('fixtures/models/hardcoded-batch1.onnx')
    expect(s.inputMetadata).toEqual([{ name: 'x', isTensor: true, type: 'float32', shape: ['batch', 8] }])
    expect(s.outputMetadata).toEqual([{ name: 'y', isTensor: true, type: 'float32', shape: ['batch', 4] }])
  })

  it('runs a single row', async () => {
    const s = await openSession('fixtures/models/hardcoded-batch1.onnx')
    const x = testInput(8, 44)
    const out = await s.run({ x: new Tensor('float32', x, [1, 8]) })
    expect(out.y.dims).toEqual([1, 4])
    expectClose(out.y.data as Float32Array, hardcodedBatch1Reference(hardcodedBatch1Weights(), x))
  })

  it.each([2, 3, 64])('fails a batch of %i at run time in its Reshape', async (batch) => {
    const s = await openSession('fixtures/models/hardcoded-batch1.onnx')
    const run = s.run({ x: new Tensor('float32', testInput(batch * 8, batch), [batch, 8]) })
    await expect(run).rejects.toThrow(
      `The input tensor cannot be reshaped to the requested shape. Input shape:{${batch},8}, requested shape:{1,8}`,
    )
  })
})

describe('multi-io.onnx', () => {
  it('declares two inputs and two outputs of four element types, one output of rank 1', async () => {
    const s = await openSession('fixtures/models/multi-io.onnx')
    expect(s.inputMetadata).toEqual([
      { name: 'a', isTensor: true, type: 'float32', shape: ['batch', 3] },
      { name: 'b', isTensor: true, type: 'int32', shape: ['batch', 2] },
    ])
    expect(s.outputMetadata).toEqual([
      { name: 'a_scaled', isTensor: true, type: 'float32', shape: ['batch', 3] },
      { name: 'b_sum', isTensor: true, type: 'float64', shape: ['batch'] },
    ])
  })

  it('returns a · 2 and the row sums of b exactly', async () => {
    const s = await openSession('fixtures/models/multi-io.onnx')
    const a = Float32Array.from([1.5, -2, 3, 0.1, 0.2, 0.3])
    const b = Int32Array.from([7, -2, 2147483647, 1])
    const out = await s.run({ a: new Tensor('float32', a, [2, 3]), b: new Tensor('int32', b, [2, 2]) })
    const ref = multiIoReference(a, b, 2)
    expect(out.a_scaled.dims).toEqual([2, 3])
    expect(out.a_scaled.data).toEqual(ref.aScaled)
    expect(out.b_sum.dims).toEqual([2])
    expect(out.b_sum.data).toEqual(Float64Array.from([5, 2147483648]))
    expect(out.b_sum.data).toEqual(ref.bSum)
  })
})

describe('buildMatrixPower', () => {
  it('computes x^power of each square matrix, telling x⁴ from x³ on a matrix of ones', async () => {
    const ones = new Tensor('float32', new Float32Array(8).fill(1), [2, 2, 2])
    const fourth = await openSession(serializeModel(buildMatrixPower(4)))
    const third = await openSession(serializeModel(buildMatrixPower(3)))
    expect(Array.from((await fourth.run({ x: ones })).y.data as Float32Array)).toEqual([8, 8, 8, 8, 8, 8, 8, 8])
    expect(Array.from((await third.run({ x: ones })).y.data as Float32Array)).toEqual([4, 4, 4, 4, 4, 4, 4, 4])
  })

  it('refuses a power below 2', () => {
    expect(() => buildMatrixPower(1)).toThrow(new RangeError('Expected `power` to be an integer >= 2, got `1`'))
  })
})
