import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { BatchSizeMismatchError } from '@inferpool/core'
import { createPool, InferenceError, RemoteWorkerError, WorkerCrashedError } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { models, workers } from './fixtures/models.js'

interface Item {
  value: number
  crash?: 'exit' | 'uncaught' | 'once' | 'oom'
  fail?: true
  itemError?: true
  short?: true
}

const pools: Array<Pool<Item, number>> = []
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

async function crashPool(extra: Record<string, unknown> = {}): Promise<Pool<Item, number>> {
  const pool = await createPool<Item, number>({
    model: models.demoMlp,
    worker: workers.crash,
    replicas: 2,
    batching: { maxBatchSize: 8 },
    ...extra,
  })
  pools.push(pool)
  return pool
}

function settleAll(pool: Pool<Item, number>, items: Item[]) {
  return Promise.allSettled(items.map((item) => pool.infer(item)))
}

describe('worker crash mid-batch', () => {
  let restartEvents: Array<{ replica: number; reason: string }> = []
  afterEach(() => {
    restartEvents = []
  })

  it.each([
    ['process.exit in the worker', 'exit', /worker thread exited with code 3|worker exited with code: 3/],
    ['an uncaught error in the worker', 'uncaught', /uncaught in worker/],
  ] as const)('isolates a row that crashes the worker (%s): only it fails, with ERR_WORKER_CRASHED', async (_name, crash, reason) => {
    const pool = await crashPool()
    pool.observe({ onWorkerRestart: (event) => restartEvents.push(event) })
    const items: Item[] = Array.from({ length: 8 }, (_, value) => (value === 5 ? { value, crash } : { value }))
    const outcomes = await settleAll(pool, items)
    outcomes.forEach((outcome, i) => {
      if (i === 5) {
        expect(outcome.status).toBe('rejected')
        const error = (outcome as PromiseRejectedResult).reason as WorkerCrashedError
        expect(error).toBeInstanceOf(WorkerCrashedError)
        expect(error.code).toBe('ERR_WORKER_CRASHED')
        expect(error.message).toMatch(/^The replica died twice running this row \(/)
        expect(error.message).toMatch(reason)
      } else {
        expect(outcome).toEqual({ status: 'fulfilled', value: i * 2 })
      }
    })
    const stats = pool.stats
    expect(stats.crashed).toBe(1)
    expect(stats.failed).toBe(1)
    expect(stats.completed).toBe(7)
    // Every attempt that held the bad row crashed a worker: at least the first run and its re-run.
    expect(stats.restarts).toBeGreaterThanOrEqual(2)
    expect(stats.replicas.reduce((sum, r) => sum + r.restarts, 0)).toBe(stats.restarts)
    expect(restartEvents.length).toBe(stats.restarts)
    expect(restartEvents.every((e) => reason.test(e.reason))).toBe(true)
    // The replicas were replaced: the pool still serves on both.
    const after = await Promise.all(Array.from({ length: 16 }, (_, value) => pool.infer({ value })))
    expect(after).toEqual(Array.from({ length: 16 }, (_, value) => value * 2))
    expect(pool.stats.replicas).toHaveLength(2)
  })

  it('re-runs a batch once when its worker crashes, so a one-off crash fails nothing', async () => {
    const pool = await crashPool({ workerOptions: { onceCounter: new Int32Array(new SharedArrayBuffer(4)) } })
    const items: Item[] = Array.from({ length: 6 }, (_, value) => (value === 2 ? { value, crash: 'once' } : { value }))
    const outcomes = await settleAll(pool, items)
    expect(outcomes).toEqual(items.map((item) => ({ status: 'fulfilled', value: item.value * 2 })))
    expect(pool.stats.restarts).toBe(1)
    expect(pool.stats.crashed).toBe(0)
    expect(pool.stats.splits).toBe(0)
  })

  it('treats a resourceLimits kill like a crash: the row fails alone, the replica comes back', async () => {
    const pool = await crashPool({ replicas: 1, resourceLimits: { maxOldGenerationSizeMb: 48 } })
    const outcomes = await settleAll(pool, [{ value: 1 }, { value: 2, crash: 'oom' }, { value: 3 }])
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 2 })
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: 6 })
    expect(outcomes[1].status).toBe('rejected')
    const error = (outcomes[1] as PromiseRejectedResult).reason as WorkerCrashedError
    expect(error.code).toBe('ERR_WORKER_CRASHED')
    expect(error.message).toMatch(/out of memory|ERR_WORKER_OUT_OF_MEMORY/i)
    expect(pool.stats.restarts).toBeGreaterThanOrEqual(2)
    expect(await pool.infer({ value: 21 })).toBe(42)
  })
})

describe('user worker results', () => {
  it('fails one item with the error in its place, rebuilt with its own code', async () => {
    const pool = await crashPool()
    const outcomes = await settleAll(pool, [{ value: 1 }, { value: 2, itemError: true }, { value: 3 }])
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 2 })
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: 6 })
    const error = (outcomes[1] as PromiseRejectedResult).reason as RemoteWorkerError
    expect(error).toBeInstanceOf(RemoteWorkerError)
    expect(error).toMatchObject({ code: 'ERR_CUSTOM_ITEM', message: 'item 2 refused', details: { value: 2 } })
  })

  it("isolates an item that makes the worker's run throw: only it fails, with ERR_INFERENCE", async () => {
    const pool = await crashPool()
    const outcomes = await settleAll(pool, [{ value: 1 }, { value: 2 }, { value: 3, fail: true }, { value: 4 }])
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<number>).value)).toEqual([2, 4, 8])
    const error = (outcomes[2] as PromiseRejectedResult).reason as InferenceError
    expect(error).toBeInstanceOf(InferenceError)
    expect(error).toMatchObject({ code: 'ERR_INFERENCE', message: 'batch failed on item 3' })
  })

  it('fails a batch whose result array has the wrong length with ERR_BATCH_SIZE_MISMATCH, isolating the cause', async () => {
    const pool = await crashPool({ replicas: 1 })
    const outcomes = await settleAll(pool, [{ value: 1 }, { value: 2, short: true }, { value: 3 }])
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 2 })
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: 6 })
    const error = (outcomes[1] as PromiseRejectedResult).reason as BatchSizeMismatchError
    expect(error).toBeInstanceOf(BatchSizeMismatchError)
    expect(error).toMatchObject({ code: 'ERR_BATCH_SIZE_MISMATCH', message: 'Expected 1 results for a batch of 1 items, got 0' })
  })
})
