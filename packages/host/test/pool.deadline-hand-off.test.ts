/**
 * Nothing late is run, after formation too (`formation: 'deadline'`, pool/hand-off.ts):
 * a batch carries its rows' deadlines to the replica, which leaves out the rows whose
 * answer would come too late right before it runs the batch; a re-send leaves them out
 * on the host. On real replicas (worker threads and replica processes). The latency model
 * is injected, and a replica is kept busy until the test lets it go (a file it waits
 * for), so what happens is decided by the order of events, never by timing.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DeadlineExceededError, LatencyModel, TimeoutError } from '@inferpool/core'
import { createPool } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { models, workers } from './fixtures/models.js'
import { scratchDir } from './process-helpers.js'

interface Item {
  value: number
  blockUntil?: string
  ran?: true
  crash?: 'once'
}

const quiet = { warn() {}, info() {} }
const pools: Array<Pool<unknown, unknown>> = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.destroy()))
})

const scratch = scratchDir('inferpool-hand-off-')

/**
 * A latency model that believes every batch of up to 8 rows takes `ms` (not calibrated
 * by how long the tests' batches really take: they are held up on purpose).
 */
function believing(ms: number): LatencyModel {
  const model = new LatencyModel({ warmupRuns: 0, calibrationWindow: 0 })
  for (let n = 1; n <= 8; n++) model.record(n, ms)
  return model
}

/** Resolves with the reason `promise` rejects with (fails the test if it resolves). */
async function reasonOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`)
    },
    (reason: unknown) => reason,
  )
}

describe.each([['thread'], ['process']] as const)("the replica's last check of the deadlines (isolation: %s)", (isolation) => {
  it('leaves out of its batch the row whose deadline passed while the batch waited for the replica, and runs the others', async () => {
    const pool = await createPool<Item, unknown>({
      model: models.demoMlp,
      worker: workers.late,
      isolation,
      replicas: 1,
      // A second batch in flight is sent to the replica while the first one holds it.
      concurrency: 2,
      logger: quiet,
      batching: { formation: 'deadline', maxBatchSize: 8, latencyModel: believing(1) },
    })
    pools.push(pool as Pool<unknown, unknown>)
    const gate = join(scratch(), `gate-${isolation}`)
    const sent: number[] = []
    let firstSent!: () => void
    const first = new Promise<void>((resolve) => (firstSent = resolve))
    pool.observe({
      onBatchSent: ({ rows }) => {
        sent.push(rows)
        if (sent.length === 1) firstSent()
      },
    })
    // The first batch holds the replica until the gate opens.
    const holding = pool.infer({ value: 1, blockUntil: gate })
    await first
    // The second batch (two rows, one with a deadline) is formed and sent at once: the
    // model believes 1 ms, 50 ms are left. It waits behind the first.
    const late = pool.infer({ value: 2 }, { timeoutMs: 50 })
    const patient = pool.infer({ value: 3 })
    // Its deadline passes while it waits (the caller is told so by the batcher's timer).
    expect(await reasonOf(late)).toBeInstanceOf(TimeoutError)
    writeFileSync(gate, '')
    expect(await holding).toBe(2)
    expect(await patient).toBe(6)
    // Sent as one batch of two rows; only the patient row ran.
    expect(sent).toEqual([1, 2])
    expect(await pool.infer({ value: 4, ran: true })).toEqual([1, 3, 4])
  })
})

describe('a batch sent again after its replica crashed', () => {
  /**
   * A pool on the crash worker (the first 'once' row ends its replica) with a model that
   * believes 1 ms, until the first send: then every run in the window of a batch of
   * `slowSize` rows is measured at 30 s (a row is left out only when even the fastest run
   * measured misses its deadline). Returns the pool and the row counts of its sends.
   */
  async function crashingPool(slowSize: number) {
    const model = believing(1)
    const pool = await createPool<Item, unknown>({
      model: models.demoMlp,
      worker: workers.crash,
      workerOptions: { onceCounter: new Int32Array(new SharedArrayBuffer(4)) },
      replicas: 1,
      logger: quiet,
      batching: { formation: 'deadline', maxBatchSize: 8, latencyModel: model },
    })
    pools.push(pool as Pool<unknown, unknown>)
    const sends: number[] = []
    pool.observe({
      onBatchSent: ({ rows }) => {
        sends.push(rows)
        if (sends.length === 1) for (let i = 0; i < 10; i++) model.record(slowSize, 30_000)
      },
    })
    return { pool, sends }
  }

  it('is not sent: it fails with DeadlineExceededError, the row that can no longer make its deadline by the model of then', async () => {
    // While the first send runs (and crashes its replica), a run is measured at 30 s:
    // by the time the batch is sent again, its row can no longer make its 20 s.
    const { pool, sends } = await crashingPool(1)
    const error = await reasonOf(pool.infer({ value: 1, crash: 'once' }, { timeoutMs: 20_000 }))
    expect(error).toBeInstanceOf(DeadlineExceededError)
    expect(error).toMatchObject({ code: 'ERR_DEADLINE_EXCEEDED', details: { batchSize: 1 } })
    // Sent once (the crash), and not again.
    expect(sends).toHaveLength(1)
    expect(pool.stats.completed).toBe(0)
  })

  it('is sent without the row that can no longer make its deadline, whose error gives the figures of the whole batch', async () => {
    // While the first send crashes its replica, a batch of two is measured at 30 s.
    const { pool, sends } = await crashingPool(2)
    const late = reasonOf(pool.infer({ value: 1, crash: 'once' }, { timeoutMs: 20_000 }))
    const patient = pool.infer({ value: 2 })
    expect(await patient).toBe(4)
    const error = await late
    expect(error).toBeInstanceOf(DeadlineExceededError)
    // The floor of the batch of two: its fastest run, 30 s (no hand-off measured yet).
    expect(error).toMatchObject({ code: 'ERR_DEADLINE_EXCEEDED', details: { batchSize: 2, estimatedMs: 30_000 } })
    // Sent twice: the crash, then again (without the late row: only the hand-off's plan
    // gives these figures, and the patient row got its answer).
    expect(sends).toHaveLength(2)
  })
})
