import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QueueFullError, TimeoutError } from '../src/index.js'
import { batcherFixture, flush, gate, groups, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe("whenFull: 'reject'", () => {
  it('rejects at once with QueueFullError when maxQueueSize items are queued', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 2, whenFull: 'reject' }, g.process)
    track(batcher.submit(0))
    await flush()
    track(batcher.submit(1))
    track(batcher.submit(2))
    const error = await batcher.submit(3).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(QueueFullError)
    expect(error).toMatchObject({
      code: 'ERR_QUEUE_FULL',
      message: 'Queue is full (maxQueueSize: 2)',
      details: { maxQueueSize: 2 },
    })
    expect(batcher.stats).toMatchObject({ submitted: 3, rejected: 1, queued: 2, inFlightItems: 1 })
    // Running items do not count against the queue: room again once one batch starts.
    g.pending[0].resolve([0])
    await flush()
    expect(groups(calls)).toEqual([[0], [1]])
    expect(track(batcher.submit(4)).status).toBe('pending')
    expect(batcher.stats.queued).toBe(2)
  })
})

describe("whenFull: 'wait'", () => {
  it('makes submit wait for room, admits waiters in order, and never queues more than maxQueueSize', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 2, whenFull: 'wait' }, g.process)
    const all = [track(batcher.submit(0))]
    await flush()
    for (const i of [1, 2, 3, 4]) all.push(track(batcher.submit(i)))
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 2 })
    for (let i = 0; i < 5; i++) {
      await flush()
      expect(batcher.stats.queued).toBeLessThanOrEqual(2)
      g.pending[i].resolve(g.pending[i].items)
    }
    await flush()
    expect(groups(calls)).toEqual([[0], [1], [2], [3], [4]])
    expect(all.map((t) => t.value)).toEqual([0, 1, 2, 3, 4])
    expect(batcher.stats).toMatchObject({ queued: 0, waitingForRoom: 0, completed: 5, rejected: 0 })
  })

  it('lets a caller waiting for room abort; it rejects with the reason and is never processed', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 1, whenFull: 'wait' }, g.process)
    track(batcher.submit(0))
    await flush()
    track(batcher.submit(1))
    const controller = new AbortController()
    const reason = new Error('gave up waiting')
    const waiting = track(batcher.submit(2, { signal: controller.signal }))
    const after = track(batcher.submit(3))
    expect(batcher.stats.waitingForRoom).toBe(2)
    controller.abort(reason)
    await flush()
    expect(waiting).toEqual({ status: 'rejected', reason })
    expect(batcher.stats).toMatchObject({ waitingForRoom: 1, cancelled: 1 })
    for (let i = 0; i < 3; i++) {
      g.pending[i].resolve(g.pending[i].items)
      await flush()
    }
    expect(groups(calls)).toEqual([[0], [1], [3]])
    expect(after.value).toBe(3)
  })

  it('times out a caller waiting for room', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 1, whenFull: 'wait' }, g.process)
    track(batcher.submit(0))
    await flush()
    track(batcher.submit(1))
    const waiting = track(batcher.submit(2, { timeoutMs: 30 }))
    await vi.advanceTimersByTimeAsync(30)
    expect(waiting.reason).toBeInstanceOf(TimeoutError)
    expect(batcher.stats).toMatchObject({ waitingForRoom: 0, timedOut: 1 })
  })

  it('admits a waiter when a queued item is cancelled', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 5, maxQueueSize: 1, whenFull: 'wait' }, g.process)
    track(batcher.submit(0))
    await flush()
    const controller = new AbortController()
    track(batcher.submit(1, { signal: controller.signal }))
    const waiter = track(batcher.submit(2))
    expect(batcher.stats).toMatchObject({ queued: 1, waitingForRoom: 1 })
    controller.abort()
    expect(batcher.stats).toMatchObject({ queued: 1, waitingForRoom: 0 })
    g.pending[0].resolve([0])
    await flush()
    g.pending[1].resolve([2])
    await flush()
    expect(groups(calls)).toEqual([[0], [2]])
    expect(waiter.value).toBe(2)
  })
})

describe('memory', () => {
  it('keeps the waiting list bounded when parked callers keep giving up', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 1, whenFull: 'wait' }, g.process)
    track(batcher.submit(0))
    await flush()
    track(batcher.submit(1))
    for (let i = 0; i < 5000; i++) {
      const controller = new AbortController()
      track(batcher.submit(2, { signal: controller.signal }))
      controller.abort()
    }
    expect(batcher.stats).toMatchObject({ waitingForRoom: 0, cancelled: 5000, queued: 1 })
    const waiters = (batcher as unknown as { waiters: { length: number } }).waiters
    expect(waiters.length).toBeLessThanOrEqual(65)
  })

  it('makes a single submit wait behind a request waiting for room, although the queue has room for it', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, maxQueueSize: 3, whenFull: 'wait' }, g.process)
    const all = [track(batcher.submit(0))]
    await flush()
    all.push(track(batcher.submit(1)), track(batcher.submit(2)))
    // Two of three slots taken: the request of two waits, and so does the single item behind it.
    const request = track(batcher.submitMany([3, 4]))
    all.push(track(batcher.submit(5)))
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 3 })
    g.pending[0].resolve([0])
    await flush()
    expect(batcher.stats).toMatchObject({ queued: 3, waitingForRoom: 0 })
    g.pending[1].resolve([1, 2])
    await flush()
    g.pending[2].resolve([3, 4, 5])
    await flush()
    expect(groups(calls)).toEqual([[0], [1, 2], [3, 4, 5]])
    expect([all.map((t) => t.value), request.value]).toEqual([
      [0, 1, 2, 5],
      [3, 4],
    ])
  })

  it('queues a submit at once again when the callers that waited for room have gone, and makes the next wait when full', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, maxQueueSize: 3, whenFull: 'wait' }, g.process)
    track(batcher.submit(0))
    await flush()
    track(batcher.submit(1))
    track(batcher.submit(2))
    const controller = new AbortController()
    const request = track(batcher.submitMany([3, 4], { signal: controller.signal }))
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 2 })
    controller.abort(new Error('gone'))
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 0 })
    const next = track(batcher.submit(5))
    expect(batcher.stats).toMatchObject({ queued: 3, waitingForRoom: 0 })
    const last = track(batcher.submit(6))
    expect(batcher.stats).toMatchObject({ queued: 3, waitingForRoom: 1 })
    g.pending[0].resolve([0])
    await flush()
    g.pending[1].resolve([1, 2, 5])
    await flush()
    g.pending[2].resolve([6])
    await flush()
    expect(groups(calls)).toEqual([[0], [1, 2, 5], [6]])
    expect([(request.reason as Error).message, next.value, last.value]).toEqual(['gone', 5, 6])
  })
})
