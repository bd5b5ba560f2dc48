import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BatchSizeMismatchError, InferpoolError } from '../src/index.js'
import { batcherFixture, flush, gate, groups, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('whole-batch failures', () => {
  it('fails every item of the batch with the error a processor throws synchronously', async () => {
    const boom = new Error('boom')
    const [batcher] = batcherFixture({ maxBatchSize: 3 }, () => {
      throw boom
    })
    const outcomes = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)))
    expect(outcomes).toEqual([
      { status: 'rejected', reason: boom },
      { status: 'rejected', reason: boom },
      { status: 'rejected', reason: boom },
    ])
    expect(batcher.stats).toMatchObject({ failed: 3, completed: 0, batches: 1, splits: 0 })
  })

  it('fails every item of the batch with the reason a processor rejects with', async () => {
    const boom = new Error('async boom')
    const [batcher] = batcherFixture({ maxBatchSize: 2 }, () => Promise.reject(boom))
    const outcomes = await Promise.allSettled([1, 2].map((i) => batcher.submit(i)))
    expect(outcomes.map((o) => o.status === 'rejected' && o.reason)).toEqual([boom, boom])
  })

  it('fails every item with BatchSizeMismatchError naming both lengths when the result array is the wrong length', async () => {
    const [batcher] = batcherFixture({ maxBatchSize: 3 }, () => [1])
    const outcomes = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)))
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected')
      const reason = (outcome as PromiseRejectedResult).reason
      expect(reason).toBeInstanceOf(BatchSizeMismatchError)
      expect(reason).toBeInstanceOf(InferpoolError)
      expect(reason).toMatchObject({
        code: 'ERR_BATCH_SIZE_MISMATCH',
        message: 'Expected 3 results for a batch of 3 items, got 1',
        details: { expected: 3, actual: 1 },
      })
    }
    expect(batcher.stats.failed).toBe(3)
  })

  it('does not split a batch whose result array has the wrong length, even with isolateFailures', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2, isolateFailures: true }, () => [])
    const outcomes = await Promise.allSettled([1, 2].map((i) => batcher.submit(i)))
    expect(outcomes.map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(['ERR_BATCH_SIZE_MISMATCH', 'ERR_BATCH_SIZE_MISMATCH'])
    expect(groups(calls)).toEqual([[1, 2]])
  })

  it('fails every item with a TypeError when the processor resolves to something other than an array', async () => {
    const [batcher] = batcherFixture({ maxBatchSize: 2 }, () => undefined as unknown as number[])
    const outcomes = await Promise.allSettled([1, 2].map((i) => batcher.submit(i)))
    for (const outcome of outcomes) {
      const reason = (outcome as PromiseRejectedResult).reason
      expect(reason).toBeInstanceOf(TypeError)
      expect(reason.message).toBe('Expected `processBatch` to return an array of 2 results, got `undefined` (undefined)')
    }
  })
})

describe('per-item errors', () => {
  it('fails only the item whose slot holds an Error; the others get their results', async () => {
    const bad = new RangeError('row 2 is malformed')
    const [batcher] = batcherFixture<number, number | Error>({ maxBatchSize: 3 }, (items) => items.map((i) => (i === 2 ? bad : i * 10)))
    const outcomes = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)))
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: bad },
      { status: 'fulfilled', value: 30 },
    ])
    expect(batcher.stats).toMatchObject({ completed: 2, failed: 1 })
  })
})

describe('isolateFailures', () => {
  const poison = new Set([3, 6])
  const failOnPoison = (items: number[]) => {
    if (items.some((i) => poison.has(i))) throw new Error(`bad batch [${items.join(',')}]`)
    return items
  }

  it('splits a failed batch in halves recursively, so only items that fail alone get the error', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 8, isolateFailures: true }, failOnPoison)
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5, 6, 7, 8].map((i) => batcher.submit(i)))
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      1,
      2,
      'bad batch [3]',
      4,
      5,
      'bad batch [6]',
      7,
      8,
    ])
    expect(groups(calls)).toEqual([
      [1, 2, 3, 4, 5, 6, 7, 8],
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
      [3],
      [4],
      [5],
      [6],
    ])
    expect(calls.map((c) => c.context.splitDepth)).toEqual([0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3])
    expect(calls.map((c) => c.context.batchId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    expect(batcher.stats).toMatchObject({ batches: 11, splits: 10, completed: 6, failed: 2 })
  })

  it('gives a single-item batch the error without re-running it', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 8, isolateFailures: true }, failOnPoison)
    await expect(batcher.submit(3)).rejects.toThrow('bad batch [3]')
    expect(groups(calls)).toEqual([[3]])
    expect(batcher.stats).toMatchObject({ batches: 1, splits: 0, failed: 1 })
  })

  it('runs the halves of a failed batch before any new batch', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2, isolateFailures: true }, g.process)
    const all = [1, 2, 3, 4].map((i) => track(batcher.submit(i)))
    await flush()
    expect(groups(calls)).toEqual([[1, 2]])
    g.pending[0].reject(new Error('crash'))
    await flush()
    expect(groups(calls)).toEqual([[1, 2], [1]])
    g.pending[1].resolve([1])
    await flush()
    expect(groups(calls)).toEqual([[1, 2], [1], [2]])
    g.pending[2].resolve([2])
    await flush()
    expect(groups(calls)).toEqual([[1, 2], [1], [2], [3, 4]])
    g.pending[3].resolve([3, 4])
    await flush()
    expect(all.map((t) => t.value)).toEqual([1, 2, 3, 4])
  })

  it('re-runs only the items still live when the batch failed', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 3, isolateFailures: true }, g.process)
    const controller = new AbortController()
    const one = track(batcher.submit(1))
    const two = track(batcher.submit(2, { signal: controller.signal }))
    const three = track(batcher.submit(3))
    await flush()
    controller.abort(new Error('caller left'))
    g.pending[0].reject(new Error('crash'))
    await flush()
    expect(groups(calls)).toEqual([[1, 2, 3], [1]])
    g.pending[1].resolve([1])
    await flush()
    expect(groups(calls)).toEqual([[1, 2, 3], [1], [3]])
    g.pending[2].resolve([3])
    await flush()
    expect([one.value, (two.reason as Error).message, three.value]).toEqual([1, 'caller left', 3])
  })

  it('keeps the batch key on the re-runs', async () => {
    const [batcher, calls] = batcherFixture<number>({ maxBatchSize: 4, isolateFailures: true, batchKey: () => 'k' }, failOnPoison)
    await Promise.allSettled([1, 3].map((i) => batcher.submit(i)))
    expect(calls.map((c) => [c.context.key, c.items])).toEqual([
      ['k', [1, 3]],
      ['k', [1]],
      ['k', [3]],
    ])
  })
})
