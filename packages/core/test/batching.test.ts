import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DynamicBatcher, ItemTooLargeError } from '../src/index.js'
import { batcherFixture, flush, gate, groups, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('batch formation by count', () => {
  it('groups a synchronous burst into batches of maxBatchSize, in submission order', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 3 })
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => batcher.submit(i)))
    expect(results).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(groups(calls)).toEqual([[1, 2, 3], [4, 5, 6], [7]])
  })

  it('matches results to items by index', async () => {
    const [batcher] = batcherFixture<number, string>({ maxBatchSize: 4 }, (items) => items.map((i) => `r${i}`))
    expect(await Promise.all([3, 1, 2].map((i) => batcher.submit(i)))).toEqual(['r3', 'r1', 'r2'])
  })

  it('forms a batch only when a slot is free: items arriving meanwhile join the next batch', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const first = batcher.submit(1)
    await flush()
    const rest = [2, 3, 4].map((i) => batcher.submit(i))
    await flush()
    expect(groups(calls)).toEqual([[1]])
    expect(batcher.stats.queued).toBe(3)
    g.pending[0].resolve([1])
    await flush()
    expect(groups(calls)).toEqual([[1], [2, 3, 4]])
    g.pending[1].resolve([2, 3, 4])
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4])
  })

  it('runs at most maxConcurrentBatches batches at once', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2, maxConcurrentBatches: 2 }, g.process)
    const all = [1, 2, 3, 4, 5, 6].map((i) => batcher.submit(i))
    await flush()
    expect(groups(calls)).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(batcher.stats).toMatchObject({ inFlight: 2, inFlightItems: 4, queued: 2 })
    g.pending[1].resolve([3, 4])
    await flush()
    expect(groups(calls)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ])
    g.pending[0].resolve([1, 2])
    g.pending[2].resolve([5, 6])
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('passes a context with a monotonic batchId, the summed cost, splitDepth 0 and no key', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2 })
    await Promise.all([1, 2, 3].map((i) => batcher.submit(i)))
    expect(calls.map((c) => [c.context.batchId, c.context.cost, c.context.splitDepth, c.context.key])).toEqual([
      [1, 2, 0, undefined],
      [2, 1, 0, undefined],
    ])
    expect(calls[0].context.signal.aborted).toBe(false)
  })
})

describe('priority', () => {
  it('takes higher priority first and keeps first-in-first-out within a priority', async () => {
    const g = gate<string>()
    const [batcher, calls] = batcherFixture<string>({ maxBatchSize: 2 }, g.process)
    const blocker = batcher.submit('blocker')
    await flush()
    const submitted = (
      [
        ['a', 0],
        ['b', 5],
        ['c', 0],
        ['d', 5],
        ['e', -1],
        ['f', 10],
      ] as const
    ).map(([item, priority]) => batcher.submit(item, { priority }))
    g.pending[0].resolve(['blocker'])
    for (let i = 1; i <= 3; i++) {
      await flush()
      g.pending[i].resolve(g.pending[i].items)
    }
    await Promise.all([blocker, ...submitted])
    expect(groups(calls)).toEqual([['blocker'], ['f', 'b'], ['d', 'a'], ['c', 'e']])
  })
})

describe('minBatchSize and maxWaitMs', () => {
  it('holds a small batch until its oldest item has waited maxWaitMs, then sends what it has', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, minBatchSize: 3, maxWaitMs: 50 })
    const a = batcher.submit(1)
    await vi.advanceTimersByTimeAsync(20)
    const b = batcher.submit(2)
    await vi.advanceTimersByTimeAsync(29)
    expect(calls).toEqual([])
    // 50 ms after the first item, not after the second.
    await vi.advanceTimersByTimeAsync(1)
    expect(groups(calls)).toEqual([[1, 2]])
    expect(await Promise.all([a, b])).toEqual([1, 2])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('sends the batch at once when it reaches minBatchSize, and clears the wait timer', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, minBatchSize: 3, maxWaitMs: 1000 })
    const a = batcher.submit(1)
    const b = batcher.submit(2)
    await flush()
    expect(calls).toEqual([])
    expect(vi.getTimerCount()).toBe(1)
    const c = batcher.submit(3)
    await flush()
    expect(groups(calls)).toEqual([[1, 2, 3]])
    expect(await Promise.all([a, b, c])).toEqual([1, 2, 3])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('sends a batch that cannot grow (full by cost) at once, even below minBatchSize', async () => {
    const [batcher, calls] = batcherFixture({
      maxBatchSize: 10,
      minBatchSize: 5,
      maxWaitMs: 100,
      maxBatchCost: 10,
      cost: (x: number) => x,
    })
    const six = batcher.submit(6)
    const five = batcher.submit(5)
    await flush()
    expect(groups(calls)).toEqual([[6]])
    await vi.advanceTimersByTimeAsync(99)
    expect(groups(calls)).toEqual([[6]])
    await vi.advanceTimersByTimeAsync(1)
    expect(groups(calls)).toEqual([[6], [5]])
    expect(await Promise.all([six, five])).toEqual([6, 5])
  })

  it('never waits when maxWaitMs is 0, whatever minBatchSize says', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, minBatchSize: 4, maxWaitMs: 0 })
    const one = batcher.submit(1)
    await flush()
    expect(groups(calls)).toEqual([[1]])
    expect(await one).toBe(1)
  })
})

describe('cost budget', () => {
  interface Job {
    id: string
    tokens: number
  }
  const job = (id: string, tokens: number): Job => ({ id, tokens })

  it('stops a batch at the first item that does not fit and keeps it at the head (no skipping ahead)', async () => {
    const g = gate<Job>()
    const [batcher, calls] = batcherFixture<Job>({ maxBatchSize: 10, maxBatchCost: 10, cost: (j) => j.tokens }, g.process)
    const blocker = batcher.submit(job('blocker', 1))
    await flush()
    const jobs = [job('a', 4), job('b', 5), job('c', 3), job('d', 2), job('e', 1)].map((j) => batcher.submit(j))
    g.pending[0].resolve(g.pending[0].items)
    await flush()
    // c (3) does not fit 4 + 5 = 9; e (1) would, but must not overtake c.
    expect(g.pending[1].items.map((j) => j.id)).toEqual(['a', 'b'])
    expect(g.pending[1].context.cost).toBe(9)
    g.pending[1].resolve(g.pending[1].items)
    await flush()
    expect(g.pending[2].items.map((j) => j.id)).toEqual(['c', 'd', 'e'])
    expect(g.pending[2].context.cost).toBe(6)
    g.pending[2].resolve(g.pending[2].items)
    await Promise.all([blocker, ...jobs])
    expect(calls.length).toBe(3)
  })

  it('rejects an item costlier than maxBatchCost at submit with ItemTooLargeError, never queuing it', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchCost: 10, cost: (x: number) => x })
    const error = await batcher.submit(11).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ItemTooLargeError)
    expect(error).toMatchObject({
      code: 'ERR_ITEM_TOO_LARGE',
      message: 'Item cost 11 exceeds maxBatchCost 10',
      details: { cost: 11, maxBatchCost: 10 },
    })
    await flush()
    expect(calls).toEqual([])
    expect(batcher.stats).toMatchObject({ rejected: 1, submitted: 0, queued: 0 })
    // Exactly the budget is fine.
    expect(await batcher.submit(10)).toBe(10)
  })

  it("defaults an item's cost to its estimateCost(), else estimateTokens(), else 1; a per-submit cost wins", async () => {
    const [batcher, calls] = batcherFixture<unknown>({ maxBatchSize: 10 })
    await Promise.all([
      batcher.submit({ estimateCost: () => 3 }),
      batcher.submit({ estimateTokens: () => 4 }),
      batcher.submit({ estimateCost: () => 2, estimateTokens: () => 100 }),
      batcher.submit('plain'),
      batcher.submit({ estimateCost: () => 1000 }, { cost: 7 }),
    ])
    expect(calls[0].context.cost).toBe(3 + 4 + 2 + 1 + 7)
  })

  it('applies the per-submit cost to the budget check', async () => {
    const [batcher] = batcherFixture({ maxBatchCost: 5 })
    await expect(batcher.submit(1, { cost: 6 })).rejects.toThrow(ItemTooLargeError)
  })
})

describe('batchKey', () => {
  interface Row {
    id: string
    shape: string
  }
  const row = (id: string, shape: string): Row => ({ id, shape })

  it('never mixes keys in a batch; the head item picks the key and order is kept within a key', async () => {
    const g = gate<Row>()
    const [batcher, calls] = batcherFixture<Row>({ maxBatchSize: 10, batchKey: (r) => r.shape }, g.process)
    const blocker = batcher.submit(row('x', 'X'))
    await flush()
    const rows = [row('a1', 'A'), row('b1', 'B'), row('a2', 'A'), row('b2', 'B'), row('a3', 'A')].map((r) => batcher.submit(r))
    g.pending[0].resolve(g.pending[0].items)
    await flush()
    g.pending[1].resolve(g.pending[1].items)
    await flush()
    g.pending[2].resolve(g.pending[2].items)
    await Promise.all([blocker, ...rows])
    expect(calls.map((c) => [c.context.key, c.items.map((r) => r.id)])).toEqual([
      ['X', ['x']],
      ['A', ['a1', 'a2', 'a3']],
      ['B', ['b1', 'b2']],
    ])
  })

  it('picks the key of the highest-priority item first', async () => {
    const g = gate<Row>()
    const [batcher, calls] = batcherFixture<Row>({ maxBatchSize: 10, batchKey: (r) => r.shape }, g.process)
    const blocker = batcher.submit(row('x', 'X'))
    await flush()
    const rows = [
      batcher.submit(row('a1', 'A')),
      batcher.submit(row('b1', 'B'), { priority: 1 }),
      batcher.submit(row('a2', 'A'), { priority: 2 }),
    ]
    for (let i = 0; i < 3; i++) {
      g.pending[i].resolve(g.pending[i].items)
      await flush()
    }
    await Promise.all([blocker, ...rows])
    expect(calls.map((c) => c.items.map((r) => r.id))).toEqual([['x'], ['a2', 'a1'], ['b1']])
  })

  it('does not let a key waiting for minBatchSize hold back a ready batch of another key', async () => {
    const [batcher, calls] = batcherFixture<Row>({
      maxBatchSize: 10,
      minBatchSize: 2,
      maxWaitMs: 100,
      batchKey: (r) => r.shape,
    })
    const a = batcher.submit(row('a1', 'A'))
    await flush()
    const bs = [batcher.submit(row('b1', 'B')), batcher.submit(row('b2', 'B'))]
    await flush()
    expect(calls.map((c) => c.items.map((r) => r.id))).toEqual([['b1', 'b2']])
    await vi.advanceTimersByTimeAsync(100)
    expect(calls.map((c) => c.items.map((r) => r.id))).toEqual([['b1', 'b2'], ['a1']])
    await Promise.all([a, ...bs])
  })
})

describe('run-time changes', () => {
  it('setMaxBatchSize applies to batches formed from then on', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const all = [1, 2, 3, 4, 5, 6].map((i) => batcher.submit(i))
    await flush()
    batcher.setMaxBatchSize(2)
    expect(batcher.stats.maxBatchSize).toBe(2)
    g.pending[0].resolve(g.pending[0].items)
    await flush()
    expect(groups(calls)).toEqual([[1, 2, 3, 4, 5, 6]])
    const more = [7, 8, 9].map((i) => batcher.submit(i))
    await flush()
    expect(groups(calls)).toEqual([
      [1, 2, 3, 4, 5, 6],
      [7, 8],
    ])
    batcher.setMaxBatchSize(1)
    g.pending[1].resolve(g.pending[1].items)
    await flush()
    expect(groups(calls)).toEqual([[1, 2, 3, 4, 5, 6], [7, 8], [9]])
    g.pending[2].resolve(g.pending[2].items)
    expect(await Promise.all([...all, ...more])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('setMaxWaitMs re-times the items already waiting', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, minBatchSize: 3, maxWaitMs: 1000 })
    const one = batcher.submit(1)
    await vi.advanceTimersByTimeAsync(10)
    batcher.setMaxWaitMs(20)
    expect(batcher.stats.maxWaitMs).toBe(20)
    await vi.advanceTimersByTimeAsync(9)
    expect(calls).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(groups(calls)).toEqual([[1]])
    expect(await one).toBe(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('setMaxWaitMs(0) sends a waiting batch at once', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, minBatchSize: 3, maxWaitMs: 1000 })
    const one = batcher.submit(1)
    await flush()
    batcher.setMaxWaitMs(0)
    await flush()
    expect(groups(calls)).toEqual([[1]])
    expect(await one).toBe(1)
  })

  it('treats minBatchSize above a lowered maxBatchSize as maxBatchSize', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 8, minBatchSize: 4, maxWaitMs: 1000 })
    batcher.setMaxBatchSize(2)
    const all = [1, 2, 3].map((i) => batcher.submit(i))
    await flush()
    expect(groups(calls)).toEqual([[1, 2]])
    await vi.advanceTimersByTimeAsync(1000)
    expect(groups(calls)).toEqual([[1, 2], [3]])
    await Promise.all(all)
  })
})

describe('synchronous processors', () => {
  it('accepts a processor that returns an array synchronously and one that resolves later', async () => {
    const sync = new DynamicBatcher((items: number[]) => items.map((i) => i + 1))
    const later = new DynamicBatcher(async (items: number[]) => items.map((i) => i + 2))
    expect(await Promise.all([sync.submit(1), later.submit(1)])).toEqual([2, 3])
  })

  it('keeps forming batches when a processor submits more items from inside processBatch', async () => {
    const seen: number[][] = []
    const follow: Array<ReturnType<typeof track<number>>> = []
    const batcher: DynamicBatcher<number, number> = new DynamicBatcher<number, number>((items) => {
      seen.push([...items])
      if (items[0] === 1) follow.push(track(batcher.submit(99)))
      return items
    })
    expect(await batcher.submit(1)).toBe(1)
    await flush()
    expect(seen).toEqual([[1], [99]])
    expect(follow[0]).toEqual({ status: 'fulfilled', value: 99 })
  })
})
