import { describe, expect, it } from 'vitest'
import { DynamicBatcher } from '../src/index.js'
import type { DynamicBatcherOptions } from '../src/index.js'
import { flush } from './helpers.js'

const echo = (items: unknown[]) => items

function constructing(options: unknown): () => void {
  return () => new DynamicBatcher(echo, options as DynamicBatcherOptions<unknown>)
}

describe('constructor misuse', () => {
  it('requires processBatch to be a function', () => {
    expect(() => new DynamicBatcher(42 as never)).toThrow(new TypeError('Expected `processBatch` to be a function, got `42` (number)'))
    expect(() => new DynamicBatcher(undefined as never)).toThrow(
      new TypeError('Expected `processBatch` to be a function, got `undefined` (undefined)'),
    )
  })

  it('requires options to be an object', () => {
    expect(constructing('fast')).toThrow(new TypeError('Expected `options` to be an object, got `"fast"` (string)'))
    expect(constructing(null)).toThrow(new TypeError('Expected `options` to be an object, got `null` (null)'))
  })

  const cases: Array<[string, unknown, typeof TypeError | typeof RangeError, string]> = [
    ['maxBatchSize', 0, RangeError, 'Expected `maxBatchSize` to be an integer >= 1, got `0` (number)'],
    ['maxBatchSize', 1.5, RangeError, 'Expected `maxBatchSize` to be an integer >= 1, got `1.5` (number)'],
    ['maxBatchSize', Number.NaN, RangeError, 'Expected `maxBatchSize` to be an integer >= 1, got `NaN` (number)'],
    ['maxBatchSize', Infinity, RangeError, 'Expected `maxBatchSize` to be an integer >= 1, got `Infinity` (number)'],
    ['maxBatchSize', '8', TypeError, 'Expected `maxBatchSize` to be an integer >= 1, got `"8"` (string)'],
    ['minBatchSize', 0, RangeError, 'Expected `minBatchSize` to be an integer >= 1, got `0` (number)'],
    ['minBatchSize', 64, RangeError, 'Expected `minBatchSize` to be <= `maxBatchSize` (32), got `64` (number)'],
    ['maxWaitMs', -1, RangeError, 'Expected `maxWaitMs` to be a number >= 0 (Infinity allowed), got `-1` (number)'],
    ['maxWaitMs', Number.NaN, RangeError, 'Expected `maxWaitMs` to be a number >= 0 (Infinity allowed), got `NaN` (number)'],
    ['maxWaitMs', null, TypeError, 'Expected `maxWaitMs` to be a number >= 0 (Infinity allowed), got `null` (null)'],
    ['maxBatchCost', 0, RangeError, 'Expected `maxBatchCost` to be a number > 0 (Infinity allowed), got `0` (number)'],
    ['maxBatchCost', '10', TypeError, 'Expected `maxBatchCost` to be a number > 0 (Infinity allowed), got `"10"` (string)'],
    ['cost', 5, TypeError, 'Expected `cost` to be a function, got `5` (number)'],
    ['maxQueueSize', 0, RangeError, 'Expected `maxQueueSize` to be an integer >= 1 or Infinity, got `0` (number)'],
    ['maxQueueSize', -Infinity, RangeError, 'Expected `maxQueueSize` to be an integer >= 1 or Infinity, got `-Infinity` (number)'],
    ['whenFull', 'drop', TypeError, "Expected `whenFull` to be 'wait' or 'reject', got `\"drop\"` (string)"],
    ['maxConcurrentBatches', 0, RangeError, 'Expected `maxConcurrentBatches` to be an integer >= 1, got `0` (number)'],
    ['maxConcurrentBatches', true, TypeError, 'Expected `maxConcurrentBatches` to be an integer >= 1, got `true` (boolean)'],
    ['batchKey', 'shape', TypeError, 'Expected `batchKey` to be a function, got `"shape"` (string)'],
    ['isolateFailures', 'yes', TypeError, 'Expected `isolateFailures` to be a boolean, got `"yes"` (string)'],
    ['now', 1, TypeError, 'Expected `now` to be a function, got `1` (number)'],
    ['statsWindow', 0, RangeError, 'Expected `statsWindow` to be an integer >= 1, got `0` (number)'],
    ['statsWindow', [10], TypeError, 'Expected `statsWindow` to be an integer >= 1, got `[10]` (array)'],
  ]
  it.each(cases)('rejects %s = %s', (name, value, Kind, message) => {
    expect(constructing({ [name]: value })).toThrow(new Kind(message))
    let thrown: unknown
    try {
      constructing({ [name]: value })()
    } catch (error) {
      thrown = error
    }
    expect((thrown as Error).constructor).toBe(Kind)
  })

  it('accepts Infinity where a bound is optional', () => {
    expect(() => new DynamicBatcher(echo, { maxWaitMs: Infinity, maxBatchCost: Infinity, maxQueueSize: Infinity })).not.toThrow()
  })
})

describe('submit misuse', () => {
  const batcher = new DynamicBatcher(echo, { maxBatchCost: 100 })

  const cases: Array<[string, unknown, typeof TypeError | typeof RangeError, string]> = [
    ['options', 'fast', TypeError, 'Expected `options` to be an object, got `"fast"` (string)'],
    ['options', null, TypeError, 'Expected `options` to be an object, got `null` (null)'],
    ['signal', { signal: {} }, TypeError, 'Expected `signal` to be an AbortSignal, got `{}` (object)'],
    ['timeoutMs', { timeoutMs: -1 }, RangeError, 'Expected `timeoutMs` to be a finite number >= 0 and <= 2147483647, got `-1` (number)'],
    [
      'timeoutMs',
      { timeoutMs: 2 ** 31 },
      RangeError,
      'Expected `timeoutMs` to be a finite number >= 0 and <= 2147483647, got `2147483648` (number)',
    ],
    ['timeoutMs', { timeoutMs: '5' }, TypeError, 'Expected `timeoutMs` to be a finite number >= 0 and <= 2147483647, got `"5"` (string)'],
    ['priority', { priority: Number.NaN }, RangeError, 'Expected `priority` to be a finite number, got `NaN` (number)'],
    ['priority', { priority: '1' }, TypeError, 'Expected `priority` to be a finite number, got `"1"` (string)'],
    ['cost', { cost: -1 }, RangeError, 'Expected `cost` to be a finite number >= 0, got `-1` (number)'],
    ['cost', { cost: Infinity }, RangeError, 'Expected `cost` to be a finite number >= 0, got `Infinity` (number)'],
  ]
  it.each(cases)('rejects a bad %s with the exact error', async (_name, options, Kind, message) => {
    const error = await batcher.submit(1, options as never).catch((e: unknown) => e)
    expect(error).toEqual(new Kind(message))
    expect((error as Error).constructor).toBe(Kind)
  })

  it('rejects a cost function result that is not a finite number >= 0', async () => {
    const b = new DynamicBatcher(echo, { cost: () => Number.NaN })
    await expect(b.submit(1)).rejects.toEqual(new RangeError('Expected `cost(item)` to be a finite number >= 0, got `NaN` (number)'))
  })

  it("rejects an item's own estimator returning a non-number", async () => {
    const b = new DynamicBatcher(echo)
    await expect(b.submit({ estimateCost: () => 'big' })).rejects.toEqual(
      new TypeError('Expected `item.estimateCost()` to be a finite number >= 0, got `"big"` (string)'),
    )
    await expect(b.submit({ estimateTokens: () => -3 })).rejects.toEqual(
      new RangeError('Expected `item.estimateTokens()` to be a finite number >= 0, got `-3` (number)'),
    )
  })

  it('rejects with the error a cost or batchKey function throws, and never queues the item', async () => {
    const costBug = new Error('cost bug')
    const keyBug = new Error('key bug')
    const calls: unknown[][] = []
    const b = new DynamicBatcher(
      (items: number[]) => {
        calls.push(items)
        return items
      },
      {
        cost: (i: number) => {
          if (i === 1) throw costBug
          return 1
        },
        batchKey: (i: number) => {
          if (i === 2) throw keyBug
          return 0
        },
      },
    )
    await expect(b.submit(1)).rejects.toBe(costBug)
    await expect(b.submit(2)).rejects.toBe(keyBug)
    await flush()
    expect(calls).toEqual([])
    expect(b.stats).toMatchObject({ submitted: 0, queued: 0, rejected: 0 })
  })

  it('never counts a misused call as submitted', async () => {
    const b = new DynamicBatcher(echo)
    await b.submit(1, { priority: Number.NaN }).catch(() => undefined)
    expect(b.stats).toMatchObject({ submitted: 0, rejected: 0, queued: 0 })
  })
})

describe('other methods', () => {
  it('setMaxBatchSize and setMaxWaitMs validate like the options and leave the value unchanged', () => {
    const b = new DynamicBatcher(echo, { maxBatchSize: 8, maxWaitMs: 5 })
    expect(() => b.setMaxBatchSize(0)).toThrow(new RangeError('Expected `maxBatchSize` to be an integer >= 1, got `0` (number)'))
    expect(() => b.setMaxWaitMs(-2)).toThrow(
      new RangeError('Expected `maxWaitMs` to be a number >= 0 (Infinity allowed), got `-2` (number)'),
    )
    expect(b.stats).toMatchObject({ maxBatchSize: 8, maxWaitMs: 5 })
  })

  it('close rejects bad options', async () => {
    const b = new DynamicBatcher(echo)
    await expect(b.close('now' as never)).rejects.toEqual(new TypeError('Expected `options` to be an object, got `"now"` (string)'))
    await expect(b.close({ drain: 'no' as never })).rejects.toEqual(new TypeError('Expected `drain` to be a boolean, got `"no"` (string)'))
    // A bad call does not close the batcher.
    expect(await b.submit(1)).toBe(1)
  })

  it('observe requires an object', () => {
    const b = new DynamicBatcher(echo)
    expect(() => b.observe(null as never)).toThrow(new TypeError('Expected `observer` to be an object, got `null` (null)'))
  })
})
