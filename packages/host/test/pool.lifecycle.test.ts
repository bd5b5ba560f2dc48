import { spawn } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { BatcherClosedError, TimeoutError } from '@inferpool/core'
import { createPool } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { models, workers } from './fixtures/models.js'

interface GateItem {
  value: number
  hold?: true
}

interface Gate {
  pool: Pool<GateItem, number>
  open(): void
  processed(): number[]
}

const pools: Pool<unknown, unknown>[] = []
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

/** One replica whose running batch stays open until `open()`: later requests stay queued. */
async function gatedPool(): Promise<Gate> {
  const gate = new Int32Array(new SharedArrayBuffer(4))
  const log = new Int32Array(new SharedArrayBuffer(4 * 256))
  const pool = await createPool<GateItem, number>({
    model: models.demoMlp,
    worker: workers.gate,
    workerOptions: { gate, log },
    replicas: 1,
    batching: { maxBatchSize: 8 },
  })
  pools.push(pool as Pool<unknown, unknown>)
  return {
    pool,
    open() {
      Atomics.store(gate, 0, 1)
      Atomics.notify(gate, 0)
    },
    processed: () => Array.from(log.subarray(1, 1 + log[0])),
  }
}

/** Resolves once the pool has `n` batches running (observed, not slept for). */
function running(pool: Pool<GateItem, number>, n: number): Promise<void> {
  return new Promise((resolve) => {
    if (pool.stats.inFlight >= n) return resolve()
    const stop = pool.observe({
      onDispatch: () => {
        if (pool.stats.inFlight >= n) {
          stop()
          resolve()
        }
      },
    })
  })
}

describe('cancellation while queued', () => {
  it('an aborted queued request rejects with the abort reason and is never processed', async () => {
    const { pool, open, processed } = await gatedPool()
    const held = pool.infer({ value: 1, hold: true })
    await running(pool, 1)
    const controller = new AbortController()
    const aborted = pool.infer({ value: 2 }, { signal: controller.signal })
    const kept = pool.infer({ value: 3 })
    const reason = new Error('caller went away')
    controller.abort(reason)
    await expect(aborted).rejects.toBe(reason)
    open()
    expect(await held).toBe(2)
    expect(await kept).toBe(6)
    expect(processed()).toEqual([1, 3])
    expect(pool.stats.cancelled).toBe(1)
    // Cancelling in the host never kills a worker (no AbortSignal reaches piscina).
    expect(pool.stats.restarts).toBe(0)
  })

  it('a queued request whose timeout passes rejects with ERR_TIMEOUT and is never processed', async () => {
    const { pool, open, processed } = await gatedPool()
    const held = pool.infer({ value: 1, hold: true })
    await running(pool, 1)
    const timedOut = pool.infer({ value: 2 }, { timeoutMs: 20 })
    const error = await timedOut.then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toMatchObject({ code: 'ERR_TIMEOUT', message: 'Request timed out after 20 ms' })
    open()
    expect(await held).toBe(2)
    expect(processed()).toEqual([1])
    expect(pool.stats.timedOut).toBe(1)
    expect(pool.stats.restarts).toBe(0)
  })

  it("applies the pool's default timeoutMs to requests that set none", async () => {
    const gate = new Int32Array(new SharedArrayBuffer(4))
    const log = new Int32Array(new SharedArrayBuffer(64))
    const pool = await createPool<GateItem, number>({
      model: models.demoMlp,
      worker: workers.gate,
      workerOptions: { gate, log },
      replicas: 1,
      timeoutMs: 15,
    })
    pools.push(pool as Pool<unknown, unknown>)
    const held = pool.infer({ value: 1, hold: true }, { timeoutMs: 60_000 })
    await running(pool, 1)
    await expect(pool.infer({ value: 2 })).rejects.toMatchObject({ code: 'ERR_TIMEOUT', message: 'Request timed out after 15 ms' })
    Atomics.store(gate, 0, 1)
    Atomics.notify(gate, 0)
    expect(await held).toBe(2)
  })
})

describe('close', () => {
  it('drains everything queued under load: every request resolves, then new ones are refused', async () => {
    const pool = await createPool({ model: models.demoMlp, replicas: 2, batching: { maxBatchSize: 16 } })
    const pending = Array.from({ length: 500 }, (_, i) => pool.infer({ input: new Float32Array(256).fill(i / 500) }))
    const closing = pool.close()
    const again = pool.close()
    const results = await Promise.allSettled(pending)
    await closing
    await again
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(500)
    expect(pool.stats.completed).toBe(500)
    const refused = await pool.infer({ input: new Float32Array(256) }).then(
      () => null,
      (err: unknown) => err,
    )
    expect(refused).toBeInstanceOf(BatcherClosedError)
    expect(refused).toMatchObject({ code: 'ERR_BATCHER_CLOSED' })
  })

  it('close({ drain: false }) rejects what is queued and lets the running batch finish', async () => {
    const { pool, open, processed } = await gatedPool()
    const held = pool.infer({ value: 1, hold: true })
    await running(pool, 1)
    const queued = [2, 3, 4].map((value) => pool.infer({ value }))
    const closing = pool.close({ drain: false })
    for (const request of queued) await expect(request).rejects.toBeInstanceOf(BatcherClosedError)
    open()
    expect(await held).toBe(2)
    await closing
    expect(processed()).toEqual([1])
  })

  it('is what `await using` calls', async () => {
    const pool = await createPool({ model: models.demoMlp, replicas: 1 })
    const pending = pool.infer({ input: new Float32Array(256) })
    await pool[Symbol.asyncDispose]()
    expect((await pending).output.dims).toEqual([16])
    await expect(pool.infer({ input: new Float32Array(256) })).rejects.toMatchObject({ code: 'ERR_BATCHER_CLOSED' })
  })

  it('leaves nothing behind: a process that closed its pool exits on its own', async () => {
    const child = spawn(process.execPath, [workers.exitNaturally, models.demoMlp], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(0)
    expect(stdout).toBe('served 50\n')
  })
})

describe('escalation (close, then a harder close or destroy)', () => {
  it('close({ drain: false }) after a draining close() rejects what is queued at once; the running batch finishes', async () => {
    const { pool, open, processed } = await gatedPool()
    const held = pool.infer({ value: 1, hold: true })
    await running(pool, 1)
    const queued = [2, 3, 4].map((value) => pool.infer({ value }))
    const draining = pool.close()
    expect({ closed: pool.closed, destroyed: pool.destroyed }).toEqual({ closed: true, destroyed: false })
    const hard = pool.close({ drain: false })
    for (const request of queued) await expect(request).rejects.toMatchObject({ code: 'ERR_BATCHER_CLOSED' })
    open()
    expect(await held).toBe(2)
    await Promise.all([draining, hard])
    expect(processed()).toEqual([1])
    // A milder request after a harder one changes nothing and gets the same promise.
    expect(pool.close()).toBe(pool.close({ drain: false }))
  })

  it('destroy(err) after close() fails queued and running requests with err at once, and ends although the run never returns', async () => {
    const { pool, processed } = await gatedPool()
    const held = pool.infer({ value: 1, hold: true })
    await running(pool, 1)
    const queued = pool.infer({ value: 2 })
    const draining = pool.close()
    const reason = new Error('shutting down now')
    const destroyed = pool.destroy(reason)
    expect({ closed: pool.closed, destroyed: pool.destroyed }).toEqual({ closed: true, destroyed: true })
    await expect(held).rejects.toBe(reason)
    await expect(queued).rejects.toBe(reason)
    // The gate is never opened: the thread blocked in its run is terminated (plain JS).
    await destroyed
    await draining
    expect(processed()).toEqual([])
    await expect(pool.infer({ value: 3 })).rejects.toMatchObject({ code: 'ERR_BATCHER_CLOSED' })
  })

  it('destroy() without an error fails what is running with ERR_BATCHER_CLOSED; a later close() waits for the same end', async () => {
    const { pool } = await gatedPool()
    const held = pool.infer({ value: 1, hold: true })
    await running(pool, 1)
    const destroyed = pool.destroy()
    expect(pool.close()).toBe(destroyed)
    await expect(held).rejects.toMatchObject({ code: 'ERR_BATCHER_CLOSED', message: 'Pool was destroyed' })
    await destroyed
    expect(pool.stats.inFlight).toBe(0)
  })

  it('rejects a close() whose drain is not a boolean, naming the option', async () => {
    const pool = await createPool({ model: models.demoMlp, replicas: 1 })
    pools.push(pool as Pool<unknown, unknown>)
    await expect(pool.close({ drain: 'no' as unknown as boolean })).rejects.toThrow(
      new TypeError('Expected `drain` to be a boolean, got `"no"` (string)'),
    )
    expect(pool.closed).toBe(false)
  })
})
