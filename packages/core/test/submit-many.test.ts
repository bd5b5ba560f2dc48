import { getEventListeners } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QueueFullError, RequestTooLargeError, TimeoutError } from '../src/index.js'
import { batcherFixture, flush, gate, groups, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('submitMany: admission is all or nothing', () => {
  it('resolves with one result per item, in order, batched with other requests', async () => {
    const [batcher, calls] = batcherFixture<number, number>({ maxBatchSize: 4 }, (items) => items.map((i) => i * 10))
    const first = track(batcher.submitMany([1, 2, 3]))
    const single = track(batcher.submit(4))
    const second = track(batcher.submitMany([5, 6]))
    await flush()
    expect(groups(calls)).toEqual([
      [1, 2, 3, 4],
      [5, 6],
    ])
    expect(first).toEqual({ status: 'fulfilled', value: [10, 20, 30] })
    expect(single).toEqual({ status: 'fulfilled', value: 40 })
    expect(second).toEqual({ status: 'fulfilled', value: [50, 60] })
    expect(batcher.stats).toMatchObject({ submitted: 6, completed: 6, queued: 0 })
  })

  it('counts a request refused by a signal aborted already as submitted and cancelled, item by item, beside the items that ran', async () => {
    const [batcher, calls] = batcherFixture<number, number>({ maxBatchSize: 8 })
    const reason = new Error('gone')
    const ran = [track(batcher.submit(1)), track(batcher.submit(2))]
    const refused = track(batcher.submitMany([3, 4, 5], { signal: AbortSignal.abort(reason) }))
    ran.push(track(batcher.submit(6, { timeoutMs: 100 })), track(batcher.submit(7, { signal: AbortSignal.abort(reason) })))
    await flush()
    expect(groups(calls)).toEqual([[1, 2, 6]])
    expect([refused.reason, ran.map((r) => r.value ?? r.reason)]).toEqual([reason, [1, 2, 6, reason]])
    expect(batcher.stats).toMatchObject({ submitted: 7, completed: 3, cancelled: 4, queued: 0 })
  })

  it("refuses the whole request when the queue has no room for all of it ('reject'), queuing none of it", async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 4, whenFull: 'reject' }, g.process)
    track(batcher.submit(0))
    await flush()
    track(batcher.submitMany([1, 2, 3]))
    const refused = await batcher.submitMany([4, 5]).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(QueueFullError)
    expect(batcher.stats).toMatchObject({ submitted: 4, rejected: 2, queued: 3 })
    // One row still fits.
    const fits = track(batcher.submitMany([6]))
    expect(batcher.stats.queued).toBe(4)
    for (let i = 0; i < 5; i++) {
      g.pending[i]?.resolve(g.pending[i].items)
      await flush()
    }
    expect(groups(calls)).toEqual([[0], [1], [2], [3], [6]])
    expect(fits).toEqual({ status: 'fulfilled', value: [6] })
  })

  it('refuses a request larger than the whole queue with RequestTooLargeError, even when it could wait', async () => {
    const [batcher, calls] = batcherFixture({ maxQueueSize: 3, whenFull: 'wait' })
    const error = await batcher.submitMany([1, 2, 3, 4]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RequestTooLargeError)
    expect(error).toMatchObject({
      code: 'ERR_REQUEST_TOO_LARGE',
      message: 'Request of 4 items exceeds the whole queue (maxQueueSize: 3)',
      details: { items: 4, maxQueueSize: 3 },
    })
    await flush()
    expect(calls).toEqual([])
    expect(batcher.stats).toMatchObject({ submitted: 0, rejected: 4, queued: 0, waitingForRoom: 0 })
  })

  it("waits until there is room for every item ('wait'), and goes in whole, ahead of later callers", async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2, maxQueueSize: 3, whenFull: 'wait' }, g.process)
    track(batcher.submitMany([0, 1]))
    await flush()
    track(batcher.submitMany([2, 3]))
    const waiting = track(batcher.submitMany([4, 5, 6]))
    const later = track(batcher.submit(7))
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 4 })
    g.pending[0].resolve(g.pending[0].items)
    await flush()
    // [2, 3] started: the queue is empty, so the three rows go in together.
    expect(batcher.stats).toMatchObject({ queued: 3, waitingForRoom: 1 })
    for (let i = 1; i < 4; i++) {
      g.pending[i].resolve(g.pending[i].items)
      await flush()
    }
    expect(groups(calls)).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
    ])
    expect(waiting).toEqual({ status: 'fulfilled', value: [4, 5, 6] })
    expect(later).toEqual({ status: 'fulfilled', value: 7 })
  })
})

describe('submitMany: the items of a request settle together', () => {
  it('cancels the other items at once when one fails: queued ones are never run', async () => {
    const g = gate<string>()
    const [batcher, calls] = batcherFixture<string>({ maxBatchSize: 2 }, g.process)
    const request = track(batcher.submitMany(['bad', 'a', 'b', 'c']))
    const other = track(batcher.submit('other'))
    await flush()
    expect(batcher.stats.queued).toBe(3)
    const failure = new Error('row failed')
    g.pending[0].resolve([failure, 'a'])
    await flush()
    expect(request).toEqual({ status: 'rejected', reason: failure })
    // 'a' ran beside 'bad': its result is dropped. 'b' and 'c' left the queue with the
    // failure; 'other' (another caller) runs next.
    expect(groups(calls)).toEqual([['bad', 'a'], ['other']])
    expect(batcher.stats).toMatchObject({ failed: 1, completed: 0, cancelled: 3, queued: 0 })
    g.pending[1].resolve(['other'])
    await flush()
    expect(other).toEqual({ status: 'fulfilled', value: 'other' })
  })

  it('drops the result of a running sibling when another item of the request fails first', async () => {
    const g = gate<string>()
    const [batcher, calls] = batcherFixture<string>({ maxBatchSize: 1, maxConcurrentBatches: 2 }, g.process)
    const request = track(batcher.submitMany(['x', 'y', 'z']))
    await flush()
    expect(groups(calls)).toEqual([['x'], ['y']])
    const failure = new Error('x failed')
    g.pending[0].resolve([failure])
    await flush()
    expect(request).toEqual({ status: 'rejected', reason: failure })
    // 'y' is still running: its batch is told nobody waits for it; 'z' never starts.
    expect(g.pending[1].context.aborted).toBe(true)
    g.pending[1].resolve(['y'])
    await flush()
    expect(groups(calls)).toEqual([['x'], ['y']])
    expect(batcher.stats).toMatchObject({ failed: 1, cancelled: 2, completed: 0, queued: 0, inFlightItems: 0 })
  })

  it('times the whole request out together, with one timer', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2 }, g.process)
    const request = track(batcher.submitMany([1, 2, 3, 4, 5], { timeoutMs: 100 }))
    await flush()
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(100)
    await flush()
    expect(request.status).toBe('rejected')
    expect(request.reason).toBeInstanceOf(TimeoutError)
    expect(batcher.stats).toMatchObject({ cancelled: 5, timedOut: 5, queued: 0, inFlightItems: 0 })
    g.pending[0].resolve([1, 2])
    await flush()
    expect(groups(calls)).toEqual([[1, 2]])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('adds one abort listener per request, whatever its size, and removes it when the request settles', async () => {
    const [batcher] = batcherFixture({ maxBatchSize: 128 })
    const controller = new AbortController()
    const rows = Array.from({ length: 1000 }, (_, i) => i)
    const request = batcher.submitMany(rows, { signal: controller.signal })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    await expect(request).resolves.toEqual(rows)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('removes every queued item of an aborted request, and lets waiting callers in', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 3, whenFull: 'wait' }, g.process)
    track(batcher.submit(0))
    await flush()
    const controller = new AbortController()
    const reason = new Error('client left')
    const request = track(batcher.submitMany([1, 2, 3], { signal: controller.signal }))
    const waiting = track(batcher.submit(4))
    expect(batcher.stats).toMatchObject({ queued: 3, waitingForRoom: 1 })
    controller.abort(reason)
    await flush()
    expect(request).toEqual({ status: 'rejected', reason })
    expect(batcher.stats).toMatchObject({ queued: 1, waitingForRoom: 0, cancelled: 3 })
    g.pending[0].resolve([0])
    await flush()
    g.pending[1].resolve([4])
    await flush()
    expect(groups(calls)).toEqual([[0], [4]])
    expect(waiting).toEqual({ status: 'fulfilled', value: 4 })
  })
})

describe('submitMany: closing', () => {
  it('rejects queued and waiting requests whole on close({ drain: false }), keeping every counter exact', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 2, whenFull: 'wait' }, g.process)
    const running = track(batcher.submit(0))
    await flush()
    const queued = track(batcher.submitMany([1, 2]))
    const waiting = track(batcher.submitMany([3, 4]))
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 2 })
    const closed = batcher.close({ drain: false })
    await flush()
    expect(queued.status).toBe('rejected')
    expect(waiting.status).toBe('rejected')
    expect(batcher.stats).toMatchObject({ queued: 0, waitingForRoom: 0, failed: 2, cancelled: 2, submitted: 5 })
    g.pending[0].resolve([0])
    await closed
    expect(running).toEqual({ status: 'fulfilled', value: 0 })
    expect(batcher.stats).toMatchObject({ completed: 1, inFlightItems: 0 })
  })
})

describe('admission', () => {
  it('reports queue room and the drain rate without computing percentiles', async () => {
    let now = 0
    const [batcher] = batcherFixture({ maxBatchSize: 10, maxQueueSize: 50, now: () => now })
    expect(batcher.admission).toEqual({
      queued: 0,
      waitingForRoom: 0,
      maxQueueSize: 50,
      whenFull: 'reject',
      drainRate: 0,
      closing: false,
    })
    now = 100
    await batcher.submitMany(Array.from({ length: 30 }, (_, i) => i))
    now = 1000
    // 30 items dispatched in the previous second, none in the current one yet.
    expect(batcher.admission.drainRate).toBe(30)
    now = 1500
    expect(batcher.admission.drainRate).toBe(15)
    now = 5000
    expect(batcher.admission.drainRate).toBe(0)
  })
})
