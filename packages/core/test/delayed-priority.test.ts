import { getEventListeners } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DynamicBatcher } from '../src/index.js'
import { flush, gate, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** One slot, batches of `maxBatchSize`, held by a first batch of `0` until released. */
async function busyFixture(maxBatchSize: number) {
  const g = gate<number>()
  const batcher = new DynamicBatcher<number, number>(g.process, { maxBatchSize })
  void batcher.submit(0)
  await flush()
  const batches = () => g.pending.map((p) => p.items)
  const release = async (i: number) => {
    g.pending[i].resolve(g.pending[i].items)
    await flush()
  }
  return { batcher, batches, release }
}

describe("delayedPriority (Triton's timeout action DELAY)", () => {
  it('moves a queued item past its timeout behind the items still in time, and still answers it', async () => {
    const { batcher, batches, release } = await busyFixture(1)
    const late = track(batcher.submit(1, { timeoutMs: 10, delayedPriority: -1 }))
    const inTime = track(batcher.submit(2))
    vi.advanceTimersByTime(10)
    await flush()
    expect(late.status).toBe('pending')
    await release(0)
    expect(batches()).toEqual([[0], [2]])
    await release(1)
    expect(batches()).toEqual([[0], [2], [1]])
    await release(2)
    expect([late.value, inTime.value]).toEqual([1, 2])
    expect(batcher.stats).toMatchObject({ timedOut: 0, cancelled: 0, completed: 3 })
  })

  it('keeps a delayed item ahead of lower priorities, and in submission order among the delayed', async () => {
    const { batcher, batches, release } = await busyFixture(8)
    void batcher.submit(1, { timeoutMs: 10, delayedPriority: -1 })
    void batcher.submit(2, { timeoutMs: 10, delayedPriority: -1 })
    void batcher.submit(3, { priority: -2 })
    void batcher.submit(4)
    vi.advanceTimersByTime(10)
    await release(0)
    expect(batches()).toEqual([[0], [4, 1, 2, 3]])
  })

  it('lets an item that is already running past its timeout finish', async () => {
    const { batcher, batches, release } = await busyFixture(1)
    await release(0)
    const running = track(batcher.submit(1, { timeoutMs: 10, delayedPriority: -1 }))
    await flush()
    expect(batches()).toEqual([[0], [1]])
    vi.advanceTimersByTime(50)
    await release(1)
    expect(running).toEqual({ status: 'fulfilled', value: 1 })
  })

  it('still aborts a delayed item by its signal, with no listener left behind', async () => {
    const { batcher, batches, release } = await busyFixture(1)
    const controller = new AbortController()
    const delayed = track(batcher.submit(1, { timeoutMs: 10, delayedPriority: -1, signal: controller.signal }))
    vi.advanceTimersByTime(10)
    await flush()
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    controller.abort(new Error('gone'))
    await flush()
    expect(delayed.reason).toEqual(new Error('gone'))
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
    await release(0)
    expect(batches()).toEqual([[0]])
    expect(batcher.stats.queued).toBe(0)
  })

  it('moves the queued items of a submitMany request together, and answers them in order', async () => {
    const { batcher, batches, release } = await busyFixture(2)
    const many = track(batcher.submitMany([1, 2], { timeoutMs: 10, delayedPriority: -1 }))
    void batcher.submit(3)
    vi.advanceTimersByTime(10)
    await release(0)
    expect(batches()).toEqual([[0], [3, 1]])
    await release(1)
    expect(batches()).toEqual([[0], [3, 1], [2]])
    await release(2)
    expect(many).toEqual({ status: 'fulfilled', value: [1, 2] })
  })

  it('moves an item waiting for room, which then joins the queue at its new priority', async () => {
    const g = gate<number>()
    const batcher = new DynamicBatcher<number, number>(g.process, { maxBatchSize: 1, maxQueueSize: 2, whenFull: 'wait' })
    void batcher.submit(0)
    await flush()
    void batcher.submit(1)
    void batcher.submit(4)
    const waiting = track(batcher.submit(2, { timeoutMs: 10, delayedPriority: -1 }))
    void batcher.submit(3)
    vi.advanceTimersByTime(10)
    await flush()
    expect(batcher.stats.waitingForRoom).toBe(2)
    for (let i = 0; i < 5; i++) {
      g.pending[i].resolve(g.pending[i].items)
      await flush()
    }
    // 2 entered the queue before 3 (first come, first in), but at priority -1.
    expect(g.pending.map((p) => p.items)).toEqual([[0], [1], [4], [3], [2]])
    expect(waiting).toEqual({ status: 'fulfilled', value: 2 })
  })

  it('validates delayedPriority, echoing the bad value', async () => {
    const batcher = new DynamicBatcher<number, number>((items) => items)
    await expect(batcher.submit(1, { timeoutMs: 10, delayedPriority: Number.NaN })).rejects.toThrow(
      'Expected `delayedPriority` to be a finite number, got `NaN` (number)',
    )
    await expect(batcher.submitMany([1], { delayedPriority: 'low' as unknown as number })).rejects.toThrow(
      'Expected `delayedPriority` to be a finite number, got `"low"` (string)',
    )
  })
})
