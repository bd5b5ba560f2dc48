import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { createPool, InferenceError } from '@inferpool/host'
import type { Pool, RowInput, RowOutput } from '@inferpool/host'
import { models, prng, recordingLogger } from './fixtures/models.js'

const sessions: InferenceSession[] = []
const pools: Pool[] = []
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
  await Promise.all(sessions.map((s) => s.release()))
})

async function session(path: string): Promise<InferenceSession> {
  const s = await InferenceSession.create(path, { intraOpNumThreads: 1 })
  sessions.push(s)
  return s
}

function floats(seed: number, n: number, scale = 1): Float32Array {
  const rand = prng(seed)
  return Float32Array.from({ length: n }, () => (rand() * 2 - 1) * scale)
}

describe('models with a fixed batch dimension', () => {
  it.each([
    ['light_squeezenet (real third-party model)', models.squeezenet, 'data_0', 'softmaxout_1'],
    ['light_resnet50 (a "/" in its names)', models.resnet50, 'gpu_0/data_0', 'gpu_0/softmax_1'],
  ])('serves %s one row per batch, results equal to direct onnxruntime', async (_name, path, input, output) => {
    const direct = await session(path)
    const pool = await createPool({ model: path, replicas: 1, batching: { maxBatchSize: 32 } })
    pools.push(pool)
    expect(pool.metadata).toMatchObject({
      maxBatchSize: 1,
      fixedBatchSize: 1,
      maxBatchSizeReason: "the model's batch dimension is fixed to 1",
    })
    const rows = [1, 2, 3, 4].map((seed) => floats(seed, 3 * 224 * 224))
    const results = await Promise.all(rows.map((data) => pool.infer({ [input]: data })))
    for (let i = 0; i < rows.length; i++) {
      const expected = await direct.run({ [input]: new Tensor('float32', rows[i], [1, 3, 224, 224]) })
      expect(results[i][output].dims).toEqual(expected[output].dims.slice(1))
      expect(Array.from(results[i][output].data as Float32Array)).toEqual(Array.from(expected[output].data as Float32Array))
    }
    expect(pool.stats.batchSize.p99).toBe(1)
    expect(pool.stats.failed).toBe(0)
  })

  it('caps maxBatchSize of the generated fixed-batch model and serves it', async () => {
    const direct = await session(models.fixedBatch)
    const pool = await createPool({ model: models.fixedBatch, replicas: 1 })
    pools.push(pool)
    expect(pool.metadata.maxBatchSize).toBe(1)
    const rows = Array.from({ length: 10 }, (_, i) => floats(100 + i, 8))
    const results = await Promise.all(rows.map((x) => pool.infer({ x })))
    for (let i = 0; i < rows.length; i++) {
      const expected = await direct.run({ x: new Tensor('float32', rows[i], [1, 8]) })
      expect(Array.from(results[i].y.data as Float32Array)).toEqual(Array.from(expected.y.data as Float32Array))
    }
  })
})

describe('a row that makes the model fail', () => {
  it('fails only the poisoned rows with ERR_INFERENCE; the rest of their batches succeed', async () => {
    const direct = await session(models.poison)
    const pool = await createPool({ model: models.poison, replicas: 1, batching: { maxBatchSize: 32 } })
    pools.push(pool)
    const rows = Array.from({ length: 40 }, (_, i) => floats(200 + i, 4, 5))
    const poisoned = new Set([5, 17, 33])
    rows[5][0] = 10
    rows[17][0] = 1e6
    rows[33][0] = -11
    const outcomes = await Promise.allSettled(rows.map((x) => pool.infer({ x })))
    for (let i = 0; i < rows.length; i++) {
      const outcome = outcomes[i]
      if (poisoned.has(i)) {
        expect(outcome.status).toBe('rejected')
        const reason = (outcome as PromiseRejectedResult).reason as InferenceError
        expect(reason).toBeInstanceOf(InferenceError)
        expect(reason.code).toBe('ERR_INFERENCE')
        expect(reason.message).toMatch(/^ONNX Runtime failed to run the batch: /)
        continue
      }
      expect(outcome.status).toBe('fulfilled')
      const expected = await direct.run({ x: new Tensor('float32', rows[i], [1, 4]) })
      expect(Array.from((outcome as PromiseFulfilledResult<RowOutput>).value.y.data as Float32Array)).toEqual(
        Array.from(expected.y.data as Float32Array),
      )
    }
    const stats = pool.stats
    expect(stats.failed).toBe(3)
    expect(stats.completed).toBe(37)
    expect(stats.splits).toBeGreaterThan(0)
    // A poisoned row is not mistaken for a model that only runs batch 1.
    expect(pool.metadata.maxBatchSize).toBe(32)
  })
})

describe('a model that declares a dynamic batch but only runs batch 1', () => {
  it('lowers maxBatchSize to 1, says why, and every row succeeds', async () => {
    const direct = await session(models.hardcodedBatch1)
    const logger = recordingLogger()
    const pool = await createPool({ model: models.hardcodedBatch1, replicas: 1, batching: { maxBatchSize: 8 }, logger })
    pools.push(pool)
    expect(pool.metadata.maxBatchSize).toBe(8)
    const lowered: Array<{ from: number; to: number }> = []
    const sizes: number[] = []
    // Failed batches formed from fresh rows (not split halves): the probe lowers only on
    // the second of them (REQUIRED_EVIDENCE), so one transient failure cannot.
    let failedFresh = 0
    let failedFreshAtLowering = -1
    pool.observe({
      onMaxBatchSizeLowered: ({ from, to }) => {
        lowered.push({ from, to })
        failedFreshAtLowering = failedFresh
      },
      onDispatch: ({ size }) => sizes.push(size),
      onSettle: ({ size, splitDepth, ok }) => {
        if (splitDepth === 0 && size > 1 && !ok) failedFresh++
      },
    })

    const rows = Array.from({ length: 20 }, (_, i) => floats(300 + i, 8))
    const results = await Promise.all(rows.map((x) => pool.infer({ x })))
    for (let i = 0; i < rows.length; i++) {
      const expected = await direct.run({ x: new Tensor('float32', rows[i], [1, 8]) })
      expect(Array.from(results[i].y.data as Float32Array)).toEqual(Array.from(expected.y.data as Float32Array))
    }
    expect(lowered).toEqual([{ from: 8, to: 1 }])
    expect(failedFreshAtLowering).toBe(2)
    expect(pool.metadata.maxBatchSize).toBe(1)
    expect(pool.metadata.maxBatchSizeReason).toMatch(/^batches of more than one row failed while each of their rows succeeded alone/)
    expect(pool.stats.maxBatchSize).toBe(1)
    expect(logger.warnings).toHaveLength(1)
    expect(logger.warnings[0]).toMatch(/^inferpool: lowering maxBatchSize of .*hardcoded-batch1\.onnx from 8 to 1: /)

    // From now on, batches of one: no more failures to split.
    sizes.length = 0
    const splits = pool.stats.splits
    await Promise.all(rows.map((x) => pool.infer({ x })))
    expect(sizes.every((n) => n === 1)).toBe(true)
    expect(pool.stats.splits).toBe(splits)
    expect(pool.stats.failed).toBe(0)
  })
})

describe('variable-length token inputs', () => {
  const tokens = (length: number, seed: number) => {
    const rand = prng(seed)
    return {
      input_ids: { data: BigInt64Array.from({ length }, () => BigInt(Math.floor(rand() * 1000))), dims: [length] },
      attention_mask: { data: new BigInt64Array(length).fill(1n), dims: [length] },
    }
  }
  let direct: InferenceSession
  beforeAll(async () => {
    direct = await session(models.tokenPool)
  })

  async function expected(row: ReturnType<typeof tokens>) {
    const n = row.input_ids.dims[0]
    return direct.run({
      input_ids: new Tensor('int64', row.input_ids.data, [1, n]),
      attention_mask: new Tensor('int64', row.attention_mask.data, [1, n]),
    })
  }

  it('never batches rows of different lengths together without padding', async () => {
    const pool = await createPool({ model: models.tokenPool, replicas: 1, batching: { maxBatchSize: 16 } })
    pools.push(pool)
    const batches: Array<readonly number[]> = []
    pool.observe({ onBatchSent: ({ dims }) => batches.push(dims.input_ids) })
    const rows = Array.from({ length: 24 }, (_, i) => tokens(3 + (i % 3) * 2, 400 + i))
    const results = await Promise.all(rows.map((row) => pool.infer(row as RowInput)))
    for (let i = 0; i < rows.length; i++) {
      const want = await expected(rows[i])
      expect(results[i].token_embeddings.dims).toEqual([rows[i].input_ids.dims[0], 8])
      expect(Array.from(results[i].token_embeddings.data as Float32Array)).toEqual(Array.from(want.token_embeddings.data as Float32Array))
      expect(Array.from(results[i].pooled.data as Float32Array)).toEqual(Array.from(want.pooled.data as Float32Array))
    }
    // Every batch carried one length; all rows were served.
    expect(batches.reduce((sum, dims) => sum + dims[0], 0)).toBe(24)
    expect(new Set(batches.map((dims) => dims[1]))).toEqual(new Set([3, 5, 7]))
  })

  it('pads rows to the longest in the batch when padding is configured, and returns each row unpadded', async () => {
    const pool = await createPool({
      model: models.tokenPool,
      replicas: 1,
      batching: { maxBatchSize: 16 },
      padding: { input_ids: { value: 0 }, attention_mask: { value: 0 } },
    })
    pools.push(pool)
    const batches: Array<readonly number[]> = []
    pool.observe({ onBatchSent: ({ dims }) => batches.push(dims.input_ids) })
    const rows = Array.from({ length: 24 }, (_, i) => tokens(1 + (i % 6), 500 + i))
    const results = await Promise.all(rows.map((row) => pool.infer(row as RowInput)))
    for (let i = 0; i < rows.length; i++) {
      const want = await expected(rows[i])
      const n = rows[i].input_ids.dims[0]
      expect(results[i].token_embeddings.dims).toEqual([n, 8])
      expect(results[i].pooled.dims).toEqual([8])
      expect(Array.from(results[i].token_embeddings.data as Float32Array)).toEqual(Array.from(want.token_embeddings.data as Float32Array))
      expect(Array.from(results[i].pooled.data as Float32Array)).toEqual(Array.from(want.pooled.data as Float32Array))
    }
    // Rows of different lengths did share batches (padded to the longest of each).
    expect(batches.some((dims) => dims[0] > 1)).toBe(true)
    expect(batches.reduce((sum, dims) => sum + dims[0], 0)).toBe(24)
  })
})

describe('several inputs and outputs of other element types', () => {
  it('moves int32 inputs and float64 outputs row by row', async () => {
    const direct = await session(models.multiIo)
    const pool = await createPool({ model: models.multiIo, replicas: 1 })
    pools.push(pool)
    const rows = Array.from({ length: 12 }, (_, i) => ({ a: floats(600 + i, 3), b: Int32Array.from([i, i * 7]) }))
    const results = await Promise.all(rows.map((row) => pool.infer(row)))
    for (let i = 0; i < rows.length; i++) {
      const want = await direct.run({ a: new Tensor('float32', rows[i].a, [1, 3]), b: new Tensor('int32', rows[i].b, [1, 2]) })
      for (const name of ['a_scaled', 'b_sum']) {
        expect(results[i][name].type).toBe(want[name].type)
        expect(results[i][name].dims).toEqual(want[name].dims.slice(1))
        expect(Array.from(results[i][name].data as Float32Array)).toEqual(Array.from(want[name].data as Float32Array))
      }
    }
  })
})
