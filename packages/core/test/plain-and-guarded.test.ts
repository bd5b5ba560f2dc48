import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BatcherClosedError, TimeoutError } from '../src/index.js'
import { batcherFixture, flush, gate, groups, track } from './helpers.js'

// An item submitted with no signal, no timeout, alone, into a queue with room, is kept
// as a plain record; one with a signal or a timeout, one of a request, or one waiting
// for room, as an entry with a state (see queue.ts). These tests mix the two.

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('plain and guarded items together', () => {
  it('batches them in submission order within a priority, and priority first across them', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10 })
    const controller = new AbortController()
    const results = [
      batcher.submit(1),
      batcher.submit(2, { signal: controller.signal }),
      batcher.submit(3, { priority: 1 }),
      batcher.submit(4, { timeoutMs: 1000 }),
      batcher.submitMany([5, 6], { priority: 1 }),
      batcher.submit(7),
    ]
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, [5, 6], 7])
    expect(groups(calls)).toEqual([[3, 5, 6, 1, 2, 4, 7]])
    expect(batcher.stats).toMatchObject({ submitted: 7, completed: 7, failed: 0, queued: 0, inFlightItems: 0 })
  })

  it('cancels a guarded item between plain items of its priority: only it leaves, the rest keep their order', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const blocker = track(batcher.submit(0))
    await flush()
    const controller = new AbortController()
    const before = track(batcher.submit(1))
    const aborted = track(batcher.submit(2, { signal: controller.signal }))
    const timedOut = track(batcher.submit(3, { timeoutMs: 10 }))
    const after = track(batcher.submit(4))
    await flush()
    controller.abort(new Error('gone'))
    await vi.advanceTimersByTimeAsync(10)
    expect([aborted.status, timedOut.status, (timedOut.reason as Error).constructor]).toEqual(['rejected', 'rejected', TimeoutError])
    expect(batcher.stats).toMatchObject({ queued: 2, cancelled: 2, timedOut: 1 })
    g.pending[0].resolve([0])
    await flush()
    g.pending[1].resolve([1, 4])
    await flush()
    expect(groups(calls)).toEqual([[0], [1, 4]])
    expect([blocker.value, before.value, after.value]).toEqual([0, 1, 4])
  })

  it('drops the result of a guarded item cancelled while running, and still answers the plain items of its batch', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const controller = new AbortController()
    const plain = track(batcher.submit(1))
    const guarded = track(batcher.submit(2, { signal: controller.signal }))
    await flush()
    controller.abort(new Error('gone'))
    await flush()
    expect(g.pending[0].context.signal.aborted).toBe(false)
    g.pending[0].resolve([10, 20])
    await flush()
    expect([plain.value, guarded.status]).toEqual([10, 'rejected'])
    expect(batcher.stats).toMatchObject({ completed: 1, cancelled: 1, inFlightItems: 0 })
  })

  it('fails each item of a batch of plain items only on its own Error result, and counts the others completed', async () => {
    const boom = new Error('row 2')
    const [batcher] = batcherFixture({ maxBatchSize: 10 }, (items) => items.map((i) => (i === 2 || i === 5 ? boom : i * 10)))
    const results = [1, 2, 3, 4, 5].map((i) => track(batcher.submit(i)))
    await flush()
    expect(results.map((r) => r.value ?? r.reason)).toEqual([10, boom, 30, 40, boom])
    expect(batcher.stats).toMatchObject({ completed: 3, failed: 2, inFlightItems: 0, batches: 1 })
  })

  it('fails each item of a batch on its own Error result, plain or guarded', async () => {
    const boom = new Error('row 2')
    const [batcher] = batcherFixture({ maxBatchSize: 10 }, (items) => items.map((i) => (i === 2 || i === 3 ? boom : i)))
    const results = [1, 2, 3, 4].map((i) => track(i % 2 === 0 ? batcher.submit(i) : batcher.submit(i, { timeoutMs: 100 })))
    await flush()
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
    expect(batcher.stats).toMatchObject({ completed: 2, failed: 2, inFlightItems: 0 })
  })

  it('splits a failing batch of plain and guarded items down to the failing one (isolateFailures)', async () => {
    const bad = new Error('bad row')
    const [batcher, calls] = batcherFixture({ maxBatchSize: 4, isolateFailures: true }, (items) => {
      if (items.includes(3)) throw bad
      return items
    })
    const results = [1, 2, 3, 4].map((i) => track(i === 2 ? batcher.submit(i, { timeoutMs: 100 }) : batcher.submit(i)))
    await flush()
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect(results[2].reason).toBe(bad)
    expect(groups(calls)).toEqual([[1, 2, 3, 4], [1, 2], [3, 4], [3], [4]])
    expect(batcher.stats).toMatchObject({ completed: 3, failed: 1, splits: 4, inFlightItems: 0 })
  })

  it('admits callers waiting for room in order, guarded or not, behind the queued plain items', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2, maxQueueSize: 2, whenFull: 'wait' }, g.process)
    const results = [track(batcher.submit(0)), track(batcher.submit(1))]
    await flush()
    // The running batch holds 0 and 1; 2 and 3 fill the queue; the rest wait for room.
    results.push(track(batcher.submit(2)), track(batcher.submit(3)))
    results.push(track(batcher.submit(4, { timeoutMs: 1000 })), track(batcher.submit(5)))
    await flush()
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 2 })
    g.pending[0].resolve([0, 1])
    await flush()
    g.pending[1].resolve([2, 3])
    await flush()
    g.pending[2].resolve([4, 5])
    await flush()
    expect(groups(calls)).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ])
    expect(results.map((r) => r.value)).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('rejects queued and waiting items of both kinds on close({ drain: false }), and answers the running ones', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 2, maxQueueSize: 2, whenFull: 'wait' }, g.process)
    const running = [track(batcher.submit(0)), track(batcher.submit(1, { timeoutMs: 1000 }))]
    await flush()
    const queued = [track(batcher.submit(2)), track(batcher.submit(3, { timeoutMs: 1000 }))]
    const waiting = [track(batcher.submit(4)), track(batcher.submit(5, { timeoutMs: 1000 }))]
    await flush()
    const closed = track(batcher.close({ drain: false }))
    await flush()
    for (const r of [...queued, ...waiting]) expect(r.reason).toBeInstanceOf(BatcherClosedError)
    expect(running.map((r) => r.status)).toEqual(['pending', 'pending'])
    g.pending[0].resolve([0, 1])
    await flush()
    expect([running.map((r) => r.value), closed.status]).toEqual([[0, 1], 'fulfilled'])
    expect(batcher.stats).toMatchObject({ completed: 2, failed: 4, queued: 0, waitingForRoom: 0, inFlightItems: 0 })
  })

  it('rejects running, queued and waiting items of both kinds on destroy(), and drops results that come later', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 2, maxQueueSize: 2, whenFull: 'wait' }, g.process)
    const items = [0, 1, 2, 3, 4, 5].map((i) => track(i % 2 === 0 ? batcher.submit(i) : batcher.submit(i, { timeoutMs: 1000 })))
    await flush()
    const error = new Error('shut down')
    const destroyed = track(batcher.destroy(error))
    await flush()
    expect(items.map((r) => r.reason)).toEqual([error, error, error, error, error, error])
    expect(g.pending[0].context.signal.aborted).toBe(true)
    g.pending[0].resolve([0, 1])
    await flush()
    expect(destroyed.status).toBe('fulfilled')
    expect(batcher.stats).toMatchObject({ completed: 0, failed: 6, inFlightItems: 0 })
  })
})
