import { spawn } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { BatchTimeoutError, createPool, InvalidInputError, ModelLoadError, resolvePoolOptions, WorkerCrashedError } from '@inferpool/host'
import type { Pool, PoolObserver } from '@inferpool/host'
import { models, recordingLogger, workers } from './fixtures/models.js'
import { poll } from './process-helpers.js'

interface Item {
  value: number
  crash?: 'once' | 'always'
  hang?: true
}

/** Slots of the flaky worker's shared control array (see fixtures/flaky-load-worker.js). */
const LOAD_EXITS = 0
const LOAD_THROWS = 1
const LOAD_ATTEMPTS = 2
const DISPOSE_EXITS = 3
const RUN_CRASHES = 4
const LOAD_HANGS = 5

/**
 * startupTimeoutMs of the tests where a load hangs on purpose: the hang lasts this
 * long, and every healthy thread start in the same test must fit well inside it.
 */
const STARTUP_TIMEOUT_MS = 5_000

const pools: Array<Pool<Item, number>> = []
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

async function flakyPool(
  replicas: number,
  extra: Record<string, unknown> = {},
): Promise<{ pool: Pool<Item, number>; control: Int32Array; warnings: string[] }> {
  const control = new Int32Array(new SharedArrayBuffer(4 * 8))
  const logger = recordingLogger()
  const pool = await createPool<Item, number>({
    model: models.demoMlp,
    worker: workers.flakyLoad,
    workerOptions: { control },
    replicas,
    batching: { maxBatchSize: 8 },
    logger,
    ...extra,
  })
  pools.push(pool)
  return { pool, control, warnings: logger.warnings }
}

/**
 * Settles with the promise's outcome, or with 'hung' if it has not settled within
 * `ms` — a hang guard, never a timing assertion.
 */
function within<T>(promise: Promise<T>, ms = 15_000): Promise<PromiseSettledResult<T> | 'hung'> {
  let timer: NodeJS.Timeout | undefined
  const bound = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)))
  const outcome = Promise.allSettled([promise]).then(([o]) => o)
  return Promise.race([outcome, bound]).finally(() => clearTimeout(timer))
}

/** Resolves on the pool's next event of that kind. */
function next<K extends keyof PoolObserver>(pool: Pool<Item, number>, kind: K): Promise<Parameters<NonNullable<PoolObserver[K]>>[0]> {
  return new Promise((resolve) => {
    const stop = pool.observe({
      [kind]: (event: never) => {
        stop()
        resolve(event)
      },
    })
  })
}

function rejection(outcome: PromiseSettledResult<unknown> | 'hung'): unknown {
  expect(outcome).not.toBe('hung')
  expect((outcome as PromiseSettledResult<unknown>).status).toBe('rejected')
  return (outcome as PromiseRejectedResult).reason
}

describe('a replacement thread that dies while loading (piscina then stops replacing)', () => {
  it('one replica: the crashed batch runs on a new set of threads, and the replica is back', async () => {
    const { pool, control, warnings } = await flakyPool(1)
    control[RUN_CRASHES] = 1
    control[LOAD_EXITS] = 1
    const rebuilt = next(pool, 'onRebuild')
    expect(await within(pool.infer({ value: 21, crash: 'once' }))).toEqual({ status: 'fulfilled', value: 42 })
    expect(await within(rebuilt)).toEqual({ status: 'fulfilled', value: { generation: 2, reason: 'exit code 7' } })
    expect(await within(pool.infer({ value: 5 }))).toEqual({ status: 'fulfilled', value: 10 })
    expect(pool.stats).toMatchObject({ rebuilds: 1, crashed: 0, failed: 0 })
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['ready'])
    // The first thread, its replacement that died loading, the new set's thread.
    expect(control[LOAD_ATTEMPTS]).toBe(3)
    expect(warnings).toEqual([
      `inferpool: replica 0 of ${models.demoMlp}: worker thread exited with code 3; starting a replacement; 0 of 1 replicas ready`,
      `inferpool: worker threads of ${models.demoMlp} stopped being replaced (exit code 7); started a new set of 1`,
    ])
  })

  it('two replicas: the survivor serves meanwhile, and both replicas are ready again', async () => {
    const { pool, control } = await flakyPool(2)
    control[RUN_CRASHES] = 1
    control[LOAD_EXITS] = 1
    const rebuilt = next(pool, 'onRebuild')
    const outcomes = await within(
      Promise.all(Array.from({ length: 12 }, (_, value) => pool.infer(value === 3 ? { value, crash: 'once' } : { value }))),
    )
    expect(outcomes).toEqual({ status: 'fulfilled', value: Array.from({ length: 12 }, (_, value) => value * 2) })
    expect(await within(rebuilt)).toMatchObject({ status: 'fulfilled', value: { generation: 2 } })
    // Both threads of the new set load; requests after that are served by them.
    expect(await within(Promise.all(Array.from({ length: 16 }, (_, value) => pool.infer({ value }))))).toMatchObject({
      status: 'fulfilled',
    })
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['ready', 'ready'])
    expect(pool.stats.rebuilds).toBe(1)
  })

  it('replacements that always die while loading: requests fail with ERR_WORKER_CRASHED naming the cause, never hang; the pool recovers once loads work', async () => {
    const { pool, control } = await flakyPool(1)
    control[RUN_CRASHES] = 1
    control[LOAD_EXITS] = 1_000
    const error = rejection(await within(pool.infer({ value: 1, crash: 'once' }))) as WorkerCrashedError
    expect(error).toBeInstanceOf(WorkerCrashedError)
    expect(error.code).toBe('ERR_WORKER_CRASHED')
    expect(error.message).toMatch(/exit(ed with)? code:? 7/)
    // While no thread runs, a request fails at once with the last load death, typed.
    const secondRebuild = new Promise<void>((resolve) => {
      const stop = pool.observe({
        onRebuild: ({ generation }) => {
          if (generation >= 3) {
            stop()
            resolve()
          }
        },
      })
    })
    const downError = rejection(await within(pool.infer({ value: 2 }))) as WorkerCrashedError
    expect(downError).toBeInstanceOf(WorkerCrashedError)
    expect(downError.message).toMatch(/exit code 7/)
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['down'])
    // Loads work again: the next rebuild (backing off) brings the replica back.
    control[LOAD_EXITS] = 0
    expect(await within(secondRebuild)).toEqual({ status: 'fulfilled', value: undefined })
    expect(await within(pool.infer({ value: 4 }))).toEqual({ status: 'fulfilled', value: 8 })
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['ready'])
  })

  it('a replacement whose load never finishes is terminated after startupTimeoutMs, and the request is served by a new thread', async () => {
    // startupTimeoutMs also bounds every normal thread start here (createPool's first
    // thread, the new set's thread): it must stay well above one on a loaded 2-core
    // machine (0.3–0.8 s measured at load average 7), or a healthy thread is
    // terminated too and the rebuild count and reason change. The hang takes this long.
    const { pool, control } = await flakyPool(1, { startupTimeoutMs: STARTUP_TIMEOUT_MS })
    control[RUN_CRASHES] = 1
    control[LOAD_HANGS] = 1
    const rebuilt = next(pool, 'onRebuild')
    expect(await within(pool.infer({ value: 3, crash: 'once' }))).toEqual({ status: 'fulfilled', value: 6 })
    expect(await within(rebuilt)).toEqual({
      status: 'fulfilled',
      value: { generation: 2, reason: `the thread did not load within startupTimeoutMs (${STARTUP_TIMEOUT_MS} ms)` },
    })
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['ready'])
  })
})

describe('a replacement thread still loading', () => {
  it('takes no batch while another thread has loaded: every request is served by the loaded one, none waits for the load', async () => {
    // The hang outlasts the test (destroyed at its end), so a batch handed to the loading
    // thread would never come back within the hang guard.
    const { pool, control } = await flakyPool(2, { startupTimeoutMs: 600_000 })
    control[RUN_CRASHES] = 1
    control[LOAD_HANGS] = 1
    // The crash ends one thread (its batch is re-run on the other); its replacement's load hangs.
    expect(await within(pool.infer({ value: 1, crash: 'once' }))).toEqual({ status: 'fulfilled', value: 2 })
    await poll(() => control[LOAD_ATTEMPTS] === 3, 'the replacement to start loading')

    const outcomes = await within(Promise.all(Array.from({ length: 40 }, (_, value) => pool.infer({ value }))))
    expect(outcomes).toEqual({ status: 'fulfilled', value: Array.from({ length: 40 }, (_, value) => value * 2) })
    // The replacement never became ready (piscina gives it a seat only then): still loading, its first load only.
    expect(pool.stats.replicas.map((r) => r.state).sort()).toEqual(['down', 'ready'])
    expect(control[LOAD_ATTEMPTS]).toBe(3)
    await pool.destroy()
  })
})

describe('a replacement thread whose load fails (it lives, answering ERR_MODEL_LOAD)', () => {
  it('retries its load with the next batch: a transient failure fails no request', async () => {
    const { pool, control } = await flakyPool(1)
    control[RUN_CRASHES] = 1
    // The replacement's start-up load and the retry with the re-run batch both fail; the batch's one more go loads.
    control[LOAD_THROWS] = 2
    expect(await within(pool.infer({ value: 7, crash: 'once' }))).toEqual({ status: 'fulfilled', value: 14 })
    expect(control[LOAD_ATTEMPTS]).toBe(4)
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['ready'])
    expect(pool.stats.rebuilds).toBe(0)
  })

  it('two replicas: the failed one takes no batch while the other is ready; it retries its load after a back-off, with no request needed, logged', async () => {
    const { pool, control, warnings } = await flakyPool(2)
    control[RUN_CRASHES] = 1
    control[LOAD_THROWS] = 1_000
    // The crash ends one thread (its batch is re-run on the other); the replacement's load fails.
    expect(await within(pool.infer({ value: 1, crash: 'once' }))).toEqual({ status: 'fulfilled', value: 2 })
    await poll(() => pool.stats.replicas.some((r) => r.state === 'failed'), 'the replacement to fail its load')

    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, (_, value) => pool.infer({ value })))
    expect(outcomes).toEqual(Array.from({ length: 40 }, (_, value) => ({ status: 'fulfilled', value: value * 2 })))

    // No batch reaches it, yet its load is retried: it comes back once the load works.
    control[LOAD_THROWS] = 0
    await poll(() => pool.stats.replicas.every((r) => r.state === 'ready'), 'the failed replica to load on a retry')
    expect(pool.stats.rebuilds).toBe(0)
    expect(warnings).toContain(
      'inferpool: a worker thread of ' +
        models.demoMlp +
        ' failed to load (Worker failed to load: flaky resource unavailable); retrying in 250 ms; 1 of 2 replicas ready',
    )
  })

  it('a retried load that hangs is bounded by startupTimeoutMs: the batch gets its one more go and is served', async () => {
    // Above any normal thread start (see the test above): the replacement whose first
    // load throws must report before its start-up watchdog, or it is terminated and
    // the load attempts counted below change.
    const { pool, control } = await flakyPool(1, { startupTimeoutMs: STARTUP_TIMEOUT_MS })
    control[RUN_CRASHES] = 1
    // The replacement's start-up load throws; the retry with the re-run batch hangs; the next one loads.
    control[LOAD_THROWS] = 1
    control[LOAD_HANGS] = 1
    expect(await within(pool.infer({ value: 6, crash: 'once' }))).toEqual({ status: 'fulfilled', value: 12 })
    expect(control[LOAD_ATTEMPTS]).toBe(4)
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['ready'])
  })

  it('a load that keeps failing fails requests with ModelLoadError and its message, shows the replica as failed, and recovers when the load works', async () => {
    const { pool, control } = await flakyPool(1)
    control[RUN_CRASHES] = 1
    control[LOAD_THROWS] = 1_000
    const error = rejection(await within(pool.infer({ value: 1, crash: 'once' }))) as ModelLoadError
    expect(error).toBeInstanceOf(ModelLoadError)
    expect(error).toMatchObject({ code: 'ERR_MODEL_LOAD', message: 'Worker failed to load: flaky resource unavailable' })
    expect(pool.stats.replicas).toMatchObject([{ state: 'failed', lastError: 'Worker failed to load: flaky resource unavailable' }])
    control[LOAD_THROWS] = 0
    expect(await within(pool.infer({ value: 8 }))).toEqual({ status: 'fulfilled', value: 16 })
    expect(pool.stats.replicas).toMatchObject([{ state: 'ready' }])
    expect(pool.stats.replicas[0].lastError).toBeUndefined()
  })
})

describe('close() while threads exit', () => {
  it('finishes when a dispose calls process.exit', async () => {
    const { pool, control } = await flakyPool(2)
    expect(await within(pool.infer({ value: 1 }))).toEqual({ status: 'fulfilled', value: 2 })
    control[DISPOSE_EXITS] = 1
    // An exited thread counts as disposed: close() does not wait out its 2 s dispose timeout for it.
    expect(await within(pool.close())).toEqual({ status: 'fulfilled', value: undefined })
    await expect(pool.infer({ value: 2 })).rejects.toMatchObject({ code: 'ERR_BATCHER_CLOSED' })
  })

  it('finishes when replacement threads die while loading during close, and the request in flight settles typed', async () => {
    const { pool, control } = await flakyPool(1)
    control[RUN_CRASHES] = 1
    control[LOAD_EXITS] = 1_000
    const request = within(pool.infer({ value: 1, crash: 'once' }))
    const closing = within(pool.close())
    const error = rejection(await request)
    expect(error).toBeInstanceOf(WorkerCrashedError)
    expect(await closing).toEqual({ status: 'fulfilled', value: undefined })
  })

  it('leaves a process that exits on its own with code 0 (no abort, nothing holding the loop)', async () => {
    const child = spawn(process.execPath, [workers.closeWhileLoadsExit, workers.flakyLoad, models.demoMlp], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    const code = await within(exited)
    if (code === 'hung') child.kill()
    expect(code).toEqual({ status: 'fulfilled', value: 0 })
    // The other replica served the crashed row's re-run.
    expect(stdout).toBe('closed; request fulfilled 2\n')
  })
})

describe('other paths that must settle', () => {
  it('a logger that throws while the pool rebuilds its threads breaks nothing', async () => {
    const logger = {
      warn() {
        throw new Error('log sink down')
      },
      info() {},
    }
    const { pool, control } = await flakyPool(1, { logger })
    control[RUN_CRASHES] = 1
    control[LOAD_EXITS] = 1
    const rebuilt = next(pool, 'onRebuild')
    expect(await within(pool.infer({ value: 2, crash: 'once' }))).toEqual({ status: 'fulfilled', value: 4 })
    expect(await within(rebuilt)).toMatchObject({ status: 'fulfilled' })
    expect(await within(pool.infer({ value: 3 }))).toEqual({ status: 'fulfilled', value: 6 })
  })

  it('close() while a crashed batch waits for its re-run: the re-run is served, then close finishes', async () => {
    const { pool, control } = await flakyPool(1)
    control[RUN_CRASHES] = 1
    const restarted = next(pool, 'onWorkerRestart')
    const request = within(pool.infer({ value: 9, crash: 'once' }))
    await restarted
    const closing = within(pool.close())
    expect(await request).toEqual({ status: 'fulfilled', value: 18 })
    expect(await closing).toEqual({ status: 'fulfilled', value: undefined })
  })

  it('close({ drain: false }) while a crashed batch waits for a replacement that dies loading: the request fails typed, close finishes', async () => {
    const { pool, control } = await flakyPool(1)
    control[RUN_CRASHES] = 1
    control[LOAD_EXITS] = 1_000
    const restarted = next(pool, 'onWorkerRestart')
    const request = within(pool.infer({ value: 9, crash: 'once' }))
    await restarted
    // Submitted while the only batch slot is taken: it stays queued.
    const queued = within(pool.infer({ value: 10 }))
    const closing = within(pool.close({ drain: false }))
    expect(rejection(await request)).toBeInstanceOf(WorkerCrashedError)
    expect(rejection(await queued)).toMatchObject({ code: 'ERR_BATCHER_CLOSED' })
    expect(await closing).toEqual({ status: 'fulfilled', value: undefined })
  })
})

describe('a user worker input that cannot be sent to a thread', () => {
  it('fails alone with ERR_INVALID_INPUT (not a crash), and its batch-mates are served', async () => {
    const { pool } = await flakyPool(1)
    const restarts = pool.stats.restarts
    const outcomes = await within(
      Promise.allSettled([pool.infer({ value: 1 }), pool.infer({ value: 2, callback: () => 2 } as Item), pool.infer({ value: 3 })]),
    )
    expect(outcomes).toMatchObject({ status: 'fulfilled' })
    const [first, bad, third] = (outcomes as PromiseFulfilledResult<Array<PromiseSettledResult<number>>>).value
    expect(first).toEqual({ status: 'fulfilled', value: 2 })
    expect(third).toEqual({ status: 'fulfilled', value: 6 })
    const error = (bad as PromiseRejectedResult).reason as InvalidInputError
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error.code).toBe('ERR_INVALID_INPUT')
    expect(error.message).toMatch(/^The request could not be sent to the worker thread \(DataCloneError: .*could not be cloned/)
    expect(pool.stats).toMatchObject({ restarts, crashed: 0 })
  })
})

describe('a run that never returns', () => {
  it('with batchTimeoutMs: only the row that hangs alone fails, with ERR_BATCH_TIMEOUT; its thread is replaced and close finishes', async () => {
    // Well above a thread's start: the split halves wait for the replacement within it.
    const { pool } = await flakyPool(1, { batchTimeoutMs: 2_000 })
    const outcomes = await within(
      Promise.allSettled([1, 2, 3, 4].map((value) => pool.infer(value === 3 ? { value, hang: true } : { value }))),
    )
    expect(outcomes).toMatchObject({ status: 'fulfilled' })
    const [one, two, three, four] = (outcomes as PromiseFulfilledResult<Array<PromiseSettledResult<number>>>).value
    expect([one, two, four]).toEqual([2, 4, 8].map((value) => ({ status: 'fulfilled', value })))
    const error = (three as PromiseRejectedResult).reason as BatchTimeoutError
    expect(error).toBeInstanceOf(BatchTimeoutError)
    expect(error).toMatchObject({
      code: 'ERR_BATCH_TIMEOUT',
      message: 'The batch did not finish within batchTimeoutMs (2000 ms); the worker thread running it was terminated',
      details: { timeoutMs: 2_000, rows: 1 },
    })
    // The replica came back and serves.
    expect(await within(pool.infer({ value: 5 }))).toEqual({ status: 'fulfilled', value: 10 })
    expect(pool.stats.restarts).toBeGreaterThanOrEqual(1)
    expect(await within(pool.close())).toEqual({ status: 'fulfilled', value: undefined })
  })

  it('validates batchTimeoutMs', () => {
    expect(() => resolvePoolOptions({ model: 'm.onnx', batchTimeoutMs: 0 })).toThrow(
      new RangeError('Expected `batchTimeoutMs` to be an integer >= 1, got `0` (number)'),
    )
    expect(resolvePoolOptions({ model: 'm.onnx' }).batchTimeoutMs).toBeUndefined()
  })
})
