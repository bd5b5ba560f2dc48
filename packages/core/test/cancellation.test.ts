import { getEventListeners } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DynamicBatcher, TimeoutError } from '../src/index.js'
import { batcherFixture, flush, gate, groups, track, watchUnhandled } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('while queued', () => {
  it('removes an item aborted by its signal; it rejects with the reason and is never processed', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const blocker = track(batcher.submit(0))
    await flush()
    const controller = new AbortController()
    const reason = new Error('client went away')
    const aborted = track(batcher.submit(1, { signal: controller.signal }))
    const kept = track(batcher.submit(2))
    await flush()
    controller.abort(reason)
    await flush()
    expect(aborted).toEqual({ status: 'rejected', reason })
    expect(batcher.stats).toMatchObject({ queued: 1, cancelled: 1, timedOut: 0 })
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    g.pending[0].resolve([0])
    await flush()
    g.pending[1].resolve([2])
    await flush()
    expect(groups(calls)).toEqual([[0], [2]])
    expect([blocker.value, kept.value]).toEqual([0, 2])
  })

  it("rejects with the signal's default AbortError when aborted without a reason", async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({}, g.process)
    track(batcher.submit(0))
    await flush()
    const controller = new AbortController()
    const aborted = track(batcher.submit(1, { signal: controller.signal }))
    controller.abort()
    await flush()
    expect(aborted.status).toBe('rejected')
    expect((aborted.reason as DOMException).name).toBe('AbortError')
  })

  it('removes an item whose timeoutMs passes; it rejects with TimeoutError and is never processed', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 10 }, g.process)
    track(batcher.submit(0))
    await flush()
    const late = track(batcher.submit(1, { timeoutMs: 50 }))
    await vi.advanceTimersByTimeAsync(49)
    expect(late.status).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    expect(late.status).toBe('rejected')
    expect(late.reason).toBeInstanceOf(TimeoutError)
    expect(late.reason).toMatchObject({
      code: 'ERR_TIMEOUT',
      message: 'Request timed out after 50 ms',
      details: { timeoutMs: 50 },
    })
    expect(batcher.stats).toMatchObject({ queued: 0, cancelled: 1, timedOut: 1 })
    g.pending[0].resolve([0])
    await flush()
    expect(groups(calls)).toEqual([[0]])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects at once, without queuing, an item whose signal is already aborted', async () => {
    const [batcher, calls] = batcherFixture()
    const reason = new Error('too late')
    await expect(batcher.submit(1, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    await flush()
    expect(calls).toEqual([])
    expect(batcher.stats).toMatchObject({ submitted: 1, cancelled: 1, queued: 0 })
  })
})

describe('while running', () => {
  it('rejects an aborted item at once and drops its result; the rest of the batch gets results', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const controller = new AbortController()
    const reason = new Error('stop')
    const one = track(batcher.submit(1, { signal: controller.signal }))
    const two = track(batcher.submit(2))
    await flush()
    expect(batcher.stats.inFlightItems).toBe(2)
    controller.abort(reason)
    await flush()
    expect(one).toEqual({ status: 'rejected', reason })
    expect(two.status).toBe('pending')
    expect(batcher.stats).toMatchObject({ inFlight: 1, inFlightItems: 1, cancelled: 1 })
    expect(g.pending[0].context.signal.aborted).toBe(false)
    g.pending[0].resolve([10, 20])
    await flush()
    expect(one).toEqual({ status: 'rejected', reason })
    expect(two).toEqual({ status: 'fulfilled', value: 20 })
    expect(batcher.stats).toMatchObject({ completed: 1, cancelled: 1, failed: 0, inFlightItems: 0 })
  })

  it('times an item out while its batch runs', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({}, g.process)
    const one = track(batcher.submit(1, { timeoutMs: 100 }))
    await flush()
    await vi.advanceTimersByTimeAsync(100)
    expect(one.reason).toBeInstanceOf(TimeoutError)
    g.pending[0].resolve([1])
    await flush()
    expect(one.reason).toBeInstanceOf(TimeoutError)
    expect(batcher.stats).toMatchObject({ completed: 0, cancelled: 1, timedOut: 1 })
  })

  it("aborts the batch's context.signal once every item of the batch has gone", async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const a = new AbortController()
    const b = new AbortController()
    track(batcher.submit(1, { signal: a.signal }))
    track(batcher.submit(2, { signal: b.signal }))
    await flush()
    const signal = g.pending[0].context.signal
    a.abort(new Error('a'))
    expect(signal.aborted).toBe(false)
    const last = new Error('b')
    b.abort(last)
    expect(signal.aborted).toBe(true)
    expect(signal.reason).toBe(last)
  })

  it('reports the same through context.aborted, and a signal first read afterwards is already aborted', async () => {
    const g = gate<number>()
    const [batcher] = batcherFixture({ maxBatchSize: 10 }, g.process)
    const a = new AbortController()
    track(batcher.submit(1, { signal: a.signal }))
    await flush()
    const context = g.pending[0].context
    expect(context.aborted).toBe(false)
    const reason = new Error('a')
    a.abort(reason)
    expect(context.aborted).toBe(true)
    expect(context.signal.aborted).toBe(true)
    expect(context.signal.reason).toBe(reason)
  })

  it('never reports an unhandled rejection when a processor rejects after all its items were aborted', async () => {
    vi.useRealTimers()
    const unhandled = watchUnhandled()
    try {
      const g = gate<number>()
      const [batcher] = batcherFixture({}, g.process)
      const controller = new AbortController()
      const one = track(batcher.submit(1, { signal: controller.signal }))
      await flush()
      controller.abort(new Error('gone'))
      g.pending[0].reject(new Error('processor failed late'))
      // Two full event-loop turns: unhandled rejections are reported after microtasks drain.
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
      expect(one.status).toBe('rejected')
      expect(unhandled.reasons).toEqual([])
      expect(batcher.stats).toMatchObject({ cancelled: 1, failed: 0, inFlight: 0 })
    } finally {
      unhandled.stop()
    }
  })
})

describe('clean-up', () => {
  it('removes the abort listener and clears the timeout once an item settles with a result', async () => {
    const [batcher] = batcherFixture()
    const controller = new AbortController()
    expect(await batcher.submit(1, { signal: controller.signal, timeoutMs: 1000 })).toBe(1)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('removes the abort listener and clears the timeout once an item fails', async () => {
    const [batcher] = batcherFixture({}, () => {
      throw new Error('x')
    })
    const controller = new AbortController()
    await expect(batcher.submit(1, { signal: controller.signal, timeoutMs: 1000 })).rejects.toThrow('x')
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('settles every item exactly once under a mix of results, errors, aborts and timeouts', async () => {
    const g = gate<number, number | Error>()
    const batcher = new DynamicBatcher<number, number | Error>(g.process, {
      maxBatchSize: 4,
      maxConcurrentBatches: 2,
      isolateFailures: true,
      now: () => performance.now(),
    })
    const controllers: AbortController[] = []
    const settledCount = new Array<number>(40).fill(0)
    const all = Array.from({ length: 40 }, (_, i) => {
      const controller = new AbortController()
      controllers.push(controller)
      const p = batcher.submit(i, { signal: controller.signal, timeoutMs: i % 5 === 0 ? 15 : undefined })
      p.then(
        () => settledCount[i]++,
        () => settledCount[i]++,
      )
      return p
    })
    let round = 0
    while (batcher.stats.inFlight > 0 || batcher.stats.queued > 0) {
      await flush()
      for (const controller of controllers.filter((_, i) => i % 7 === round % 7)) controller.abort(new Error('abort'))
      await vi.advanceTimersByTimeAsync(5)
      const s = batcher.stats
      expect(s.completed + s.failed + s.cancelled + s.queued + s.inFlightItems + s.waitingForRoom).toBe(s.submitted)
      const batch = g.pending.shift()
      if (batch === undefined) continue
      if (round % 3 === 0) batch.reject(new Error('whole batch'))
      else batch.resolve(batch.items.map((i) => (i % 4 === 0 ? new Error(`item ${i}`) : i)))
      round++
    }
    await Promise.allSettled(all)
    expect(settledCount).toEqual(new Array(40).fill(1))
    const s = batcher.stats
    expect(s.completed + s.failed + s.cancelled).toBe(40)
    expect(s).toMatchObject({ submitted: 40, queued: 0, inFlight: 0, inFlightItems: 0 })
    expect(vi.getTimerCount()).toBe(0)
    for (const controller of controllers) expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})
