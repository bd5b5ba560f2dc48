/**
 * Triton's priority levels and per-level queue policies on createPool: the batcher's
 * options each request gets, and real pools (the demo model) answering levels in order
 * and bounding each level's queue.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { createPool, resolvePoolOptions } from '@inferpool/host'
import type { Pool, PoolOptions } from '@inferpool/host'
import { models, prng } from './fixtures/models.js'

const pools: Pool[] = []
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()))
})

const quiet = { info() {}, warn() {} }
const levels = (extra: Partial<PoolOptions> = {}) =>
  resolvePoolOptions({
    model: 'm.onnx',
    priorityLevels: 3,
    defaultPriorityLevel: 2,
    queuePolicy: { defaultTimeoutMicroseconds: 50_000 },
    priorityQueuePolicy: { 1: { timeoutAction: 'delay', defaultTimeoutMicroseconds: 10_000, allowTimeoutOverride: true } },
    ...extra,
  }).queuePolicies!

describe("Triton's priority levels (priorityLevels, defaultPriorityLevel, priorityQueuePolicy)", () => {
  it('puts a request on its level, the default one when it names none, 0, or a level past the last', () => {
    const p = levels()
    expect([{}, { priorityLevel: 0 }, { priorityLevel: 1 }, { priorityLevel: 3 }, { priorityLevel: 4 }].map((o) => p.levelOf(o))).toEqual([
      2, 2, 1, 3, 2,
    ])
    expect(() => p.levelOf({ priorityLevel: 1.5 })).toThrow('Expected `priorityLevel` to be an integer >= 0, got `1.5` (number)')
  })

  it("maps levels onto priorities, with each level's own policy or the default one", () => {
    const p = levels()
    // Level 1: its own policy, DELAY to just behind level 1 (ahead of level 2 at -4).
    expect(p.submitOptions({}, 1)).toEqual({ priority: -2, timeoutMs: 10, delayedPriority: -3 })
    // Levels 2 and 3 follow the default policy: REJECT, 50 ms, no override.
    expect(p.submitOptions({ timeoutMs: 1 }, 2)).toEqual({ priority: -4, timeoutMs: 50 })
    expect(p.submitOptions({}, 3)).toEqual({ priority: -6, timeoutMs: 50 })
  })

  it("lets a request shorten its level's timeout when allowed, never lengthen it", () => {
    const p = levels()
    expect(p.submitOptions({ timeoutMs: 4 }, 1)).toMatchObject({ timeoutMs: 4 })
    expect(p.submitOptions({ timeoutMs: 400 }, 1)).toMatchObject({ timeoutMs: 10 })
    // With no default timeout, an allowed override is the request's own.
    const open = resolvePoolOptions({ model: 'm.onnx', queuePolicy: { allowTimeoutOverride: true, timeoutAction: 'delay' } }).queuePolicies!
    expect(open.submitOptions({ timeoutMs: 400, priority: 3 }, 0)).toEqual({ priority: 3, timeoutMs: 400, delayedPriority: 2.5 })
    expect(open.submitOptions({}, 0)).toEqual({ priority: 0 })
  })

  it('refuses a numeric priority on a pool with levels, and levels that do not fit', () => {
    expect(() => levels().submitOptions({ priority: 5 }, 2)).toThrow(
      'Expected `priority` to be unset with `priorityLevels` (give `priorityLevel`), got `5` (number)',
    )
    const cases: Array<[Partial<PoolOptions>, string]> = [
      [{ defaultPriorityLevel: undefined }, 'Expected `defaultPriorityLevel` to be an integer in [1, 3], got `undefined` (undefined)'],
      [{ defaultPriorityLevel: 4 }, 'Expected `defaultPriorityLevel` to be an integer in [1, 3], got `4` (number)'],
      [
        { priorityQueuePolicy: { 4: {} } },
        'Expected `priorityQueuePolicy` to be levels in [1, 3] (priorityLevels) as keys, got `"4"` (string)',
      ],
      [
        { priorityQueuePolicy: { 2: { maxQueueSize: -1 } } },
        'Expected `priorityQueuePolicy[2].maxQueueSize` to be an integer >= 0, got `-1` (number)',
      ],
      [{ priorityLevels: -1 }, 'Expected `priorityLevels` to be an integer >= 0, got `-1` (number)'],
    ]
    for (const [extra, message] of cases) expect(() => levels(extra)).toThrow(message)
    expect(() => resolvePoolOptions({ model: 'm.onnx', defaultPriorityLevel: 1 })).toThrow(
      'Expected `defaultPriorityLevel` to be unset (or 0) without `priorityLevels`, got `1` (number)',
    )
  })
})

describe('a pool with priority levels', () => {
  const row = (seed: number) => {
    const rand = prng(seed)
    return { input: { data: Float32Array.from({ length: 256 }, () => rand() * 2 - 1), dims: [256] } }
  }

  async function levelPool(extra: Partial<PoolOptions>): Promise<Pool> {
    const pool = await createPool({
      model: models.demoMlp,
      replicas: 1,
      logger: quiet,
      batching: { maxBatchSize: 1 },
      priorityLevels: 3,
      defaultPriorityLevel: 2,
      ...extra,
    })
    pools.push(pool)
    return pool
  }

  it('answers the rows queued together level by level, first come first served within a level', async () => {
    const pool = await levelPool({})
    const order: string[] = []
    const send = (label: string, priorityLevel?: number) =>
      pool.infer(row(order.length + 1), priorityLevel === undefined ? {} : { priorityLevel }).then(() => order.push(label))
    // Queued in one turn, before the first batch forms (batches of one row): they go by level.
    await Promise.all([send('3a', 3), send('3b', 3), send('default', undefined), send('1a', 1), send('3c', 3), send('1b', 1)])
    expect(order).toEqual(['1a', '1b', 'default', '3a', '3b', '3c'])
  })

  it("refuses a request that would pass its level's maxQueueSize, whatever the other levels hold", async () => {
    const pool = await levelPool({ priorityQueuePolicy: { 3: { maxQueueSize: 2 } } })
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: { code?: string }) => e.code,
      )
    const outcomes = await Promise.all([
      codeOf(pool.infer(row(1), { priorityLevel: 3 })),
      codeOf(pool.inferMany([row(2), row(3)], { priorityLevel: 3 })),
      codeOf(pool.infer(row(4), { priorityLevel: 3 })),
      codeOf(pool.infer(row(5), { priorityLevel: 1 })),
    ])
    expect(outcomes).toEqual(['answered', 'ERR_QUEUE_FULL', 'answered', 'answered'])
    // Once answered, the level's rows no longer count.
    expect(await codeOf(pool.inferMany([row(6), row(7)], { priorityLevel: 3 }))).toBe('answered')
  })
})
