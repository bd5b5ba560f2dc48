import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { batcherFixture, flush, gate } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('why a batch formed (BatchContext.reason)', () => {
  it('is full when items were left behind, idle when a free slot took what was queued', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2 })
    await Promise.all([1, 2, 3].map((i) => batcher.submit(i)))
    expect(calls.map((c) => [c.items, c.context.reason])).toEqual([
      [[1, 2], 'full'],
      [[3], 'idle'],
    ])
  })

  it('is min when minBatchSize was reached, timer when maxWaitMs passed first', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 4, minBatchSize: 2, maxWaitMs: 50 })
    const both = Promise.all([batcher.submit(1), batcher.submit(2)])
    await flush()
    await both
    const alone = batcher.submit(3)
    await flush()
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(50)
    await alone
    expect(calls.map((c) => [c.items, c.context.reason])).toEqual([
      [[1, 2], 'min'],
      [[3], 'timer'],
    ])
  })

  it('is drain when a closing batcher sends what is left, split for a half re-run', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 4, minBatchSize: 4, maxWaitMs: Infinity, isolateFailures: true }, g.process)
    const rows = [1, 2].map((i) => batcher.submit(i).catch((e: unknown) => e))
    await flush()
    const closed = batcher.close()
    await flush()
    g.pending[0].reject(new Error('whole batch failed'))
    await flush()
    // The halves run one after the other (one slot).
    g.pending[1].resolve(g.pending[1].items)
    await flush()
    g.pending[2].resolve(g.pending[2].items)
    expect(await Promise.all(rows)).toEqual([1, 2])
    await closed
    expect(calls.map((c) => [c.items, c.context.reason])).toEqual([
      [[1, 2], 'drain'],
      [[1], 'split'],
      [[2], 'split'],
    ])
  })
})
