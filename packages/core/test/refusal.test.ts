import { describe, expect, it } from 'vitest'
import { BatcherClosedError, ItemTooLargeError, QueueFullError, RequestTooLargeError } from '../src/index.js'
import { refusal } from '../src/refusal.js'
import { batcherFixture, flush, track } from './helpers.js'

const options = { maxBatchCost: 10, maxQueueSize: 4, whenFull: 'reject' as 'wait' | 'reject' }

describe('refusal', () => {
  it('lets a request in when nothing stands against it', () => {
    expect(refusal(1, 10, false, false, options)).toBeUndefined()
    expect(refusal(4, 10, false, false, options)).toBeUndefined()
  })

  it('refuses everything once closing, an empty request too', () => {
    expect(refusal(1, 99, true, true, options)).toEqual(new BatcherClosedError())
    expect(refusal(0, 0, false, true, options)).toEqual(new BatcherClosedError())
  })

  it('lets an empty request in even when full (it resolves to [])', () => {
    expect(refusal(0, 0, true, false, options)).toBeUndefined()
  })

  it('refuses an item over the budget before anything about room', () => {
    const error = refusal(9, 11, true, false, options)
    expect(error).toBeInstanceOf(ItemTooLargeError)
    expect(error).toMatchObject({ code: 'ERR_ITEM_TOO_LARGE', details: { cost: 11, maxBatchCost: 10 } })
  })

  it('refuses a request larger than the whole queue, even when it could wait', () => {
    const error = refusal(5, 1, true, false, { ...options, whenFull: 'wait' })
    expect(error).toBeInstanceOf(RequestTooLargeError)
    expect(error).toMatchObject({ code: 'ERR_REQUEST_TOO_LARGE', details: { items: 5, maxQueueSize: 4 } })
  })

  it("refuses a request that would have to wait only with whenFull: 'reject'", () => {
    expect(refusal(2, 1, true, false, options)).toEqual(new QueueFullError(4))
    expect(refusal(2, 1, true, false, { ...options, whenFull: 'wait' })).toBeUndefined()
  })
})

describe('refusal at the door of submit and submitMany', () => {
  it('refuses both alike and counts every refused item as rejected', async () => {
    const [batcher, calls] = batcherFixture(
      { maxBatchSize: 1, maxBatchCost: 10, maxQueueSize: 4, whenFull: 'reject' },
      () => new Promise(() => {}),
    )
    await expect(batcher.submit(1, { cost: 11 })).rejects.toEqual(new ItemTooLargeError(11, 10))
    await expect(batcher.submitMany([1, 2, 3], { cost: 11 })).rejects.toEqual(new ItemTooLargeError(11, 10))
    await expect(batcher.submitMany([1, 2, 3, 4, 5])).rejects.toEqual(new RequestTooLargeError(5, 4))
    // 1 runs (the processor never returns), 2..5 fill the queue.
    const first = track(batcher.submitMany([1, 2]))
    await flush()
    const second = track(batcher.submitMany([3, 4, 5]))
    await expect(batcher.submit(6)).rejects.toEqual(new QueueFullError(4))
    await expect(batcher.submitMany([6, 7])).rejects.toEqual(new QueueFullError(4))
    expect(batcher.stats).toMatchObject({ submitted: 5, rejected: 1 + 3 + 5 + 1 + 2, queued: 4 })
    void batcher.close({ drain: false })
    await expect(batcher.submit(8)).rejects.toEqual(new BatcherClosedError())
    await expect(batcher.submitMany([8, 9])).rejects.toEqual(new BatcherClosedError())
    expect(batcher.stats.rejected).toBe(12 + 1 + 2)
    await flush()
    expect(calls.map((c) => c.items)).toEqual([[1]])
    expect([first.status, second.status]).toEqual(['rejected', 'rejected'])
    expect([first.reason, second.reason]).toEqual([
      new BatcherClosedError('Batcher was closed before this item was processed'),
      new BatcherClosedError('Batcher was closed before this item was processed'),
    ])
  })
})
