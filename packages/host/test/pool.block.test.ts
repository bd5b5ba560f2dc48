/**
 * `pool.inferBlock`: a request of many rows as one tensor per input, on real worker
 * threads with real onnxruntime sessions (the demo MLP, the poison model).
 */
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InferenceError, InvalidInputError, createPool } from '@inferpool/host'
import type { BlockInput, Pool, RowInput, RowOutput } from '@inferpool/host'
import { models, prng } from './fixtures/models.js'
import { BatchOutputs, BlockRowResult, joinBlockResults } from '../src/pool/block.js'
import type { BlockShape } from '../src/pool/block.js'
import type { OutputSpec } from '../src/pool/model-shape.js'

const WIDTH = 256
const OUT = 16

/** `rows` rows of the demo model's input, one after the other. */
function rowsData(seed: number, rows: number, width = WIDTH, scale = 1): Float32Array {
  const rand = prng(seed)
  return Float32Array.from({ length: rows * width }, () => (rand() * 2 - 1) * scale)
}

const pools: Array<Pool<RowInput, RowOutput>> = []
const sessions: InferenceSession[] = []
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()))
  await Promise.all(sessions.map((session) => session.release()))
})

async function pool(options: Parameters<typeof createPool>[0]): Promise<Pool<RowInput, RowOutput>> {
  const created = await createPool(options)
  pools.push(created)
  return created
}

describe('inferBlock on the demo MLP', () => {
  let direct: InferenceSession
  beforeAll(async () => {
    direct = await InferenceSession.create(models.demoMlp, { intraOpNumThreads: 1 })
    sessions.push(direct)
  })

  /** What onnxruntime computes for each row alone, rows one after the other. */
  async function expected(data: Float32Array, rows: number): Promise<number[]> {
    const out: number[] = []
    for (let r = 0; r < rows; r++) {
      const result = await direct.run({ input: new Tensor('float32', data.subarray(r * WIDTH, (r + 1) * WIDTH), [1, WIDTH]) })
      out.push(...(result.output.data as Float32Array))
    }
    return out
  }

  it('answers one tensor per output, rows first, equal to onnxruntime row by row, also when split between batches', async () => {
    const small = await pool({ model: models.demoMlp, replicas: 2, batching: { maxBatchSize: 8 } })
    const sizes: number[] = []
    small.observe({ onDispatch: ({ size }) => sizes.push(size) })
    const data = rowsData(1, 20)
    const answer = await (small.inferBlock as NonNullable<typeof small.inferBlock>)({ input: { data, dims: [20, WIDTH] } })
    expect(Object.keys(answer)).toEqual(['output'])
    expect(answer.output.type).toBe('float32')
    expect(answer.output.dims).toEqual([20, OUT])
    expect(answer.output.data).toBeInstanceOf(Float32Array)
    expect(Array.from(answer.output.data as Float32Array)).toEqual(await expected(data, 20))
    // 20 rows in batches of at most 8: the block was split, and put back together in order.
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(20)
    expect(Math.max(...sizes)).toBe(8)
  })

  it('shares a batch with single rows, and answers each with its own rows; the block as a view of the batch output', async () => {
    const one = await pool({ model: models.demoMlp, replicas: 1, batching: { maxBatchSize: 64 } })
    const sizes: number[] = []
    one.observe({ onDispatch: ({ size }) => sizes.push(size) })
    const before = rowsData(2, 1)
    const block = rowsData(3, 10)
    const after = rowsData(4, 1)
    // Submitted in one tick: one batch of 12 rows, the block's rows 1..10 of it.
    const [first, middle, last] = await Promise.all([
      one.infer({ input: before }),
      (one.inferBlock as NonNullable<typeof one.inferBlock>)({ input: { data: block, dims: [10, WIDTH] } }),
      one.infer({ input: after }),
    ])
    expect(sizes).toEqual([12])
    expect(Array.from(first.output.data as Float32Array)).toEqual(await expected(before, 1))
    expect(Array.from(last.output.data as Float32Array)).toEqual(await expected(after, 1))
    const out = middle.output.data as Float32Array
    expect(Array.from(out)).toEqual(await expected(block, 10))
    // Not a copy: rows 1..10 of the batch's 12-row output buffer.
    expect([out.byteOffset, out.byteLength, out.buffer.byteLength]).toEqual([1 * OUT * 4, 10 * OUT * 4, 12 * OUT * 4])
  })

  it.each<[string, BlockInput, RegExp]>([
    [
      'a Float64Array',
      { input: { data: new Float64Array(2 * WIDTH) as never, dims: [2, WIDTH] } },
      /must be a Float32Array \(float32\), got Float64Array/,
    ],
    [
      'dims that are not the model row dims',
      { input: { data: new Float32Array(2 * 128), dims: [2, 128] } },
      /has dims \[128\], expected float32 \[256\] without the batch dimension/,
    ],
    [
      'too few elements for its dims',
      { input: { data: new Float32Array(WIDTH), dims: [2, WIDTH] } },
      /has 256 elements, but dims \[2, 256\] need 512/,
    ],
    [
      'an unknown input',
      { input: { data: new Float32Array(WIDTH), dims: [1, WIDTH] }, extra: { data: new Float32Array(1), dims: [1, 1] } },
      /Unknown input "extra"/,
    ],
    ['dims without a row count', { input: { data: new Float32Array(WIDTH), dims: [] } }, /dims starting with the row count, got dims \[\]/],
    ['no input at all', {}, /at least one input tensor/],
  ])('refuses %s with InvalidInputError, queueing nothing', async (_, inputs, message) => {
    const demo = await pool({ model: models.demoMlp, replicas: 1 })
    const outcome = await (demo.inferBlock as NonNullable<typeof demo.inferBlock>)(inputs).then(
      () => 'resolved',
      (error: unknown) => error,
    )
    expect(outcome).toBeInstanceOf(InvalidInputError)
    expect((outcome as InvalidInputError).message).toMatch(message)
    expect(demo.stats.submitted).toBe(0)
  })
})

describe('inferBlock with replicas in child processes', () => {
  it("answers what onnxruntime computes row by row (the outputs cross a process's pipe, not a thread's port)", async () => {
    const direct = await InferenceSession.create(models.demoMlp, { intraOpNumThreads: 1 })
    sessions.push(direct)
    const processes = await pool({ model: models.demoMlp, replicas: 1, isolation: 'process', batching: { maxBatchSize: 8 } })
    const data = rowsData(5, 12)
    const answer = await (processes.inferBlock as NonNullable<typeof processes.inferBlock>)({ input: { data, dims: [12, WIDTH] } })
    const expected: number[] = []
    for (let r = 0; r < 12; r++) {
      const result = await direct.run({ input: new Tensor('float32', data.subarray(r * WIDTH, (r + 1) * WIDTH), [1, WIDTH]) })
      expected.push(...(result.output.data as Float32Array))
    }
    expect(answer.output.dims).toEqual([12, OUT])
    expect(Array.from(answer.output.data as Float32Array)).toEqual(expected)
  })
})

describe('inferBlock with a poisoned row', () => {
  it("fails the whole block with the row's error, and a block beside it in the same batches succeeds", async () => {
    const direct = await InferenceSession.create(models.poison, { intraOpNumThreads: 1 })
    sessions.push(direct)
    const poisoned = await pool({ model: models.poison, replicas: 1, batching: { maxBatchSize: 32 } })
    const inferBlock = poisoned.inferBlock as NonNullable<typeof poisoned.inferBlock>
    const bad = rowsData(10, 12, 4, 5)
    bad[7 * 4] = 1e6
    const good = rowsData(11, 12, 4, 5)
    const [badOutcome, goodOutcome] = await Promise.allSettled([
      inferBlock({ x: { data: bad, dims: [12, 4] } }),
      inferBlock({ x: { data: good, dims: [12, 4] } }),
    ])
    expect(badOutcome.status).toBe('rejected')
    const reason = (badOutcome as PromiseRejectedResult).reason as InferenceError
    expect(reason).toBeInstanceOf(InferenceError)
    expect(reason.code).toBe('ERR_INFERENCE')
    expect(goodOutcome.status).toBe('fulfilled')
    const answer = (goodOutcome as PromiseFulfilledResult<Awaited<ReturnType<typeof inferBlock>>>).value
    const expected: number[] = []
    for (let r = 0; r < 12; r++) {
      const result = await direct.run({ x: new Tensor('float32', good.subarray(r * 4, (r + 1) * 4), [1, 4]) })
      expected.push(...(result.y.data as Float32Array))
    }
    expect(answer.y.dims[0]).toBe(12)
    expect(Array.from(answer.y.data as Float32Array)).toEqual(expected)
  })
})

describe('inferBlock on a model of two inputs', () => {
  it('refuses inputs whose row counts differ, naming the input, and answers a block whose rows agree', async () => {
    const two = await pool({ model: models.multiIo, replicas: 1 })
    const inferBlock = two.inferBlock as NonNullable<typeof two.inferBlock>
    const outcome = await inferBlock({
      a: { data: new Float32Array(2 * 3), dims: [2, 3] },
      b: { data: new Int32Array(3 * 2), dims: [3, 2] },
    }).then(
      () => 'resolved',
      (error: unknown) => error,
    )
    expect(outcome).toBeInstanceOf(InvalidInputError)
    expect((outcome as Error).message).toBe(
      'Every input must have the same number of rows (the first of its dims): "b" has 3, the first input 2',
    )
    const a = rowsData(6, 2, 3)
    const b = Int32Array.from([1, 2, 3, 4])
    const answer = await inferBlock({ a: { data: a, dims: [2, 3] }, b: { data: b, dims: [2, 2] } })
    const rows = await two.inferMany([
      { a: a.subarray(0, 3), b: b.subarray(0, 2) },
      { a: a.subarray(3, 6), b: b.subarray(2, 4) },
    ])
    for (const name of Object.keys(rows[0])) {
      expect(answer[name].dims).toEqual([2, ...rows[0][name].dims])
      expect(Array.from(answer[name].data as Float32Array)).toEqual([
        ...(rows[0][name].data as Float32Array),
        ...(rows[1][name].data as Float32Array),
      ])
    }
  })
})

describe('inferBlock edge cases', () => {
  it('refuses a null tensor for the second input with InvalidInputError naming it', async () => {
    const two = await pool({ model: models.multiIo, replicas: 1 })
    const outcome = await (two.inferBlock as NonNullable<typeof two.inferBlock>)({
      a: { data: new Float32Array(3), dims: [1, 3] },
      b: null as never,
    }).then(
      () => 'resolved',
      (error: unknown) => error,
    )
    expect(outcome).toBeInstanceOf(InvalidInputError)
    expect((outcome as Error).message).toMatch(/^Input "b" must be a Int32Array/)
  })

  it('answers a block of zero rows with empty outputs of dims [0, ...row dims]', async () => {
    const demo = await pool({ model: models.demoMlp, replicas: 1 })
    const answer = await (demo.inferBlock as NonNullable<typeof demo.inferBlock>)({
      input: { data: new Float32Array(0), dims: [0, WIDTH] },
    })
    expect(answer.output.dims).toEqual([0, OUT])
    expect(answer.output.data).toEqual(new Float32Array(0))
  })
})

describe('joinBlockResults', () => {
  const spec = {
    name: 'y',
    type: 'float32',
    ctor: Float32Array,
    rowDims: [{ fixed: 2 }],
    unpad: [],
    declaredDims: ['b', 2],
  } as unknown as OutputSpec
  const shape = { inputs: [], outputs: [spec], model: {} } as unknown as BlockShape
  const batch = (values: number[], rowDims: number[]) =>
    new BatchOutputs([Float32Array.from(values)], [rowDims], [rowDims.reduce((a, b) => a * b, 1)])

  it('returns a view of the batch output when the rows ran together in order, and a copy when they did not', () => {
    const one = batch([0, 1, 2, 3, 4, 5], [2])
    const together = joinBlockResults([new BlockRowResult(one, 1), new BlockRowResult(one, 2)], shape)
    expect(together.y.dims).toEqual([2, 2])
    expect((together.y.data as Float32Array).buffer).toBe(one.data[0].buffer)
    expect(Array.from(together.y.data as Float32Array)).toEqual([2, 3, 4, 5])
    const other = batch([6, 7], [2])
    const apart = joinBlockResults([new BlockRowResult(one, 0), new BlockRowResult(other, 0)], shape)
    expect((apart.y.data as Float32Array).buffer).not.toBe(one.data[0].buffer)
    expect(Array.from(apart.y.data as Float32Array)).toEqual([0, 1, 6, 7])
  })

  it('throws InferenceError when two batches answered different row dims, rather than mixing them', () => {
    const a = batch([1, 2], [2])
    const b = batch([3, 4, 5], [3])
    let thrown: unknown
    try {
      joinBlockResults([new BlockRowResult(a, 0), new BlockRowResult(b, 0)], shape)
    } catch (error) {
      thrown = error
    }
    // The source's InferenceError (this file's import is the built package's).
    expect([(thrown as { code?: string }).code, (thrown as Error).message]).toEqual([
      'ERR_INFERENCE',
      'Output "y" came back with row dims [3] from one batch and [2] from another',
    ])
  })
})

describe('pools without inferBlock', () => {
  it('is undefined where the model has a dynamic row axis, and where rows are priced by a cost rule', async () => {
    const tokens = await pool({ model: models.tokenPool, replicas: 1 })
    expect(tokens.inferBlock).toBe(undefined)
    const priced = await pool({ model: models.demoMlp, replicas: 1, cost: () => 1 })
    expect(priced.inferBlock).toBe(undefined)
  })
})
