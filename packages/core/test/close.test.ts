import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BatcherClosedError } from '../src/index.js'
import { batcherFixture, flush, gate, groups, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('close()', () => {
  it('stops accepting: submit rejects with BatcherClosedError', async () => {
    const [batcher, calls] = batcherFixture()
    await batcher.close()
    const error = await batcher.submit(1).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BatcherClosedError)
    expect(error).toMatchObject({ code: 'ERR_BATCHER_CLOSED', message: 'Batcher is closed' })
    expect(batcher.stats).toMatchObject({ rejected: 1, submitted: 0 })
    expect(calls).toEqual([])
  })

  it('drains by default: runs everything queued, then resolves', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2 }, g.process)
    const items = [1, 2, 3, 4, 5].map((i) => track(batcher.submit(i)))
    await flush()
    const closed = track(batcher.close())
    const late = track(batcher.submit(6))
    for (let i = 0; i < 3; i++) {
      await flush()
      expect(closed.status).toBe('pending')
      g.pending[i].resolve(g.pending[i].items)
    }
    await flush()
    expect(closed.status).toBe('fulfilled')
    expect(groups(calls)).toEqual([[1, 2], [3, 4], [5]])
    expect(items.map((t) => t.value)).toEqual([1, 2, 3, 4, 5])
    expect(late.reason).toBeInstanceOf(BatcherClosedError)
  })

  it('sends a batch waiting for minBatchSize at once when draining, and leaves no timer', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, minBatchSize: 5, maxWaitMs: 10_000 })
    const one = track(batcher.submit(1))
    await flush()
    expect(vi.getTimerCount()).toBe(1)
    await batcher.close()
    expect(groups(calls)).toEqual([[1]])
    expect(one.value).toBe(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('drains callers waiting for room too', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 1, whenFull: 'wait' }, g.process)
    const all = [0, 1, 2].map((i) => track(batcher.submit(i)))
    await flush()
    expect(batcher.stats).toMatchObject({ queued: 1, waitingForRoom: 1 })
    const closed = track(batcher.close())
    for (let i = 0; i < 3; i++) {
      await flush()
      g.pending[i].resolve(g.pending[i].items)
    }
    await flush()
    expect(closed.status).toBe('fulfilled')
    expect(groups(calls)).toEqual([[0], [1], [2]])
    expect(all.map((t) => t.value)).toEqual([0, 1, 2])
  })

  it('with drain: false rejects what is queued or waiting, lets running batches finish, then resolves', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 2, maxQueueSize: 2, whenFull: 'wait' }, g.process)
    const running = [1, 2].map((i) => track(batcher.submit(i)))
    await flush()
    const queued = [3, 4, 5].map((i) => track(batcher.submit(i)))
    expect(batcher.stats).toMatchObject({ queued: 2, waitingForRoom: 1 })
    const closed = track(batcher.close({ drain: false }))
    await flush()
    for (const t of queued) {
      expect(t.reason).toBeInstanceOf(BatcherClosedError)
      expect((t.reason as Error).message).toBe('Batcher was closed before this item was processed')
    }
    expect(closed.status).toBe('pending')
    g.pending[0].resolve([10, 20])
    await flush()
    expect(closed.status).toBe('fulfilled')
    expect(running.map((t) => t.value)).toEqual([10, 20])
    expect(groups(calls)).toEqual([[1, 2]])
    expect(batcher.stats).toMatchObject({ completed: 2, failed: 3, queued: 0, waitingForRoom: 0 })
  })

  it('returns the first close promise to a second close(), which waits on the first', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({}, g.process)
    track(batcher.submit(1))
    await flush()
    const first = batcher.close()
    const second = batcher.close()
    expect(second).toBe(first)
    const t = track(second)
    await flush()
    expect(t.status).toBe('pending')
    g.pending[0].resolve([1])
    await flush()
    expect(t.status).toBe('fulfilled')
  })

  it('turns a draining close into a hard one when called again with drain: false', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1 }, g.process)
    const one = track(batcher.submit(1))
    const two = track(batcher.submit(2))
    await flush()
    const first = batcher.close()
    const second = batcher.close({ drain: false })
    expect(second).toBe(first)
    await flush()
    expect(two.reason).toBeInstanceOf(BatcherClosedError)
    g.pending[0].resolve([1])
    await first
    expect(one.value).toBe(1)
    expect(groups(calls)).toEqual([[1]])
  })

  it('resolves at once when nothing is queued or running', async () => {
    const [batcher] = batcherFixture()
    const closed = track(batcher.close())
    await flush()
    expect(closed.status).toBe('fulfilled')
  })

  it('[Symbol.asyncDispose] drains like close()', async () => {
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10, minBatchSize: 5, maxWaitMs: 10_000 })
    const one = track(batcher.submit(1))
    await batcher[Symbol.asyncDispose]()
    expect(groups(calls)).toEqual([[1]])
    expect(one.value).toBe(1)
    await expect(batcher.submit(2)).rejects.toBeInstanceOf(BatcherClosedError)
  })
})

describe('destroy()', () => {
  it('rejects queued, waiting and running items at once, aborts running batches, and resolves once they settle', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 2, maxQueueSize: 1, whenFull: 'wait' }, g.process)
    const running = [1, 2].map((i) => track(batcher.submit(i)))
    await flush()
    const queued = track(batcher.submit(3))
    const waiting = track(batcher.submit(4))
    const reason = new Error('shutting down')
    const destroyed = track(batcher.destroy(reason))
    await flush()
    for (const t of [...running, queued, waiting]) expect(t).toEqual({ status: 'rejected', reason })
    expect(g.pending[0].context.signal.aborted).toBe(true)
    expect(g.pending[0].context.signal.reason).toBe(reason)
    expect(destroyed.status).toBe('pending')
    g.pending[0].resolve([1, 2]) // arrives too late: dropped
    await flush()
    expect(destroyed.status).toBe('fulfilled')
    expect(batcher.stats).toMatchObject({ failed: 4, completed: 0, inFlight: 0, inFlightItems: 0, queued: 0 })
    await expect(batcher.submit(5)).rejects.toBeInstanceOf(BatcherClosedError)
  })

  it('rejects with BatcherClosedError "Batcher was destroyed" by default, including items awaiting a re-run', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 4, isolateFailures: true }, g.process)
    const items = [1, 2, 3, 4].map((i) => track(batcher.submit(i)))
    await flush()
    g.pending[0].reject(new Error('crash'))
    await flush()
    expect(groups(calls)).toEqual([
      [1, 2, 3, 4],
      [1, 2],
    ])
    const destroyed = batcher.destroy()
    await flush()
    for (const t of items) {
      expect(t.reason).toBeInstanceOf(BatcherClosedError)
      expect((t.reason as Error).message).toBe('Batcher was destroyed')
    }
    g.pending[1].reject(new Error('late crash'))
    await destroyed
    expect(groups(calls)).toEqual([
      [1, 2, 3, 4],
      [1, 2],
    ])
  })
})
