/**
 * `isolation: 'process'` through the public API: a native abort in a replica costs only
 * the row that causes it, a killed replica costs nothing, and no replica process or
 * transfer file outlives its pool — not even when the host itself is SIGKILLed.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BatchTimeoutError, createPool, ModelLoadError, StartupTimeoutError, WorkerCrashedError } from '@inferpool/host'
import { createRequestHandler } from '@inferpool/server'
import type { Pool, RowInput, RowOutput } from '@inferpool/host'
import { models, prng, workers } from '../../host/test/fixtures/models.js'
import { alive, childrenOf, poll, scratchDir, transferFiles } from '../../host/test/process-helpers.js'
import { http, metric } from './server-helpers.js'

interface Item {
  value: number
  abort?: true
  hold?: string
  holdOnce?: string
}

const hostFixture = fileURLToPath(new URL('../../host/test/fixtures/process-host.mjs', import.meta.url))
const pools: Array<Pool<unknown, unknown>> = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.destroy()))
})

const scratch = scratchDir('inferpool-pool-process-')

async function userPool(extra: Record<string, unknown> = {}): Promise<Pool<Item, number>> {
  const pool = await createPool<Item, number>({
    model: models.demoMlp,
    worker: workers.process,
    isolation: 'process',
    replicas: 2,
    batching: { maxBatchSize: 8 },
    ...extra,
  })
  pools.push(pool as Pool<unknown, unknown>)
  return pool
}

describe('process isolation', () => {
  it('process.abort() on one row under concurrent load: only that row fails (ERR_WORKER_CRASHED, SIGABRT), the host lives and serves on', async () => {
    const pool = await userPool()
    const restarts: string[] = []
    pool.observe({ onWorkerRestart: ({ reason }) => void restarts.push(reason) })
    const items: Item[] = Array.from({ length: 64 }, (_, value) => (value === 37 ? { value, abort: true } : { value }))
    const outcomes = await Promise.allSettled(items.map((item) => pool.infer(item)))
    outcomes.forEach((outcome, i) => {
      if (i !== 37) return expect(outcome).toEqual({ status: 'fulfilled', value: i * 2 })
      expect(outcome.status).toBe('rejected')
      const error = (outcome as PromiseRejectedResult).reason as WorkerCrashedError
      expect(error).toBeInstanceOf(WorkerCrashedError)
      expect(error.code).toBe('ERR_WORKER_CRASHED')
      expect(error.message).toMatch(/running this row \(replica process \d+ killed by SIGABRT\)$/)
    })
    const stats = pool.stats
    expect(stats.crashed).toBe(1)
    expect(stats.completed).toBe(63)
    // Every send that held the row aborted a replica: its first batch, the re-run, and each split down to it alone.
    expect(stats.restarts).toBeGreaterThanOrEqual(2)
    const causes = stats.replicas.reduce((sum, r) => sum + (r.restartCauses?.SIGABRT ?? 0), 0)
    expect(causes).toBe(stats.restarts)
    expect(restarts).toHaveLength(stats.restarts)
    expect(restarts.every((reason) => /^replica process \d+ killed by SIGABRT$/.test(reason))).toBe(true)
    const after = await Promise.all(Array.from({ length: 16 }, (_, value) => pool.infer({ value })))
    expect(after).toEqual(Array.from({ length: 16 }, (_, value) => value * 2))
    expect(pool.stats.replicas.map((r) => typeof r.pid)).toEqual(['number', 'number'])
  })

  it('kill -9 of a replica mid-batch fails nothing: the batch re-runs on the replacement', async () => {
    const pool = await userPool({ replicas: 1 })
    const marker = join(scratch(), 'kill-9')
    const victim = pool.stats.replicas[0]?.pid as number
    const answers = Promise.all([pool.infer({ value: 1 }), pool.infer({ value: 2, holdOnce: marker }), pool.infer({ value: 3 })])
    await poll(() => existsSync(marker), 'the batch to be running')
    process.kill(victim, 'SIGKILL')
    expect(await answers).toEqual([2, 4, 6])
    const [replica] = pool.stats.replicas
    expect(replica?.restartCauses).toEqual({ SIGKILL: 1 })
    expect(replica?.pid).not.toBe(victim)
    expect(pool.stats.crashed).toBe(0)
    expect(alive(victim)).toBe(false)
  })

  it('batchTimeoutMs SIGKILLs the replica running a batch that never returns; that row fails with BatchTimeoutError', async () => {
    // batchTimeoutMs counts a wait for a free replica too, so the other row is sent only
    // once the timeout has happened: it then goes to the replica that is still up.
    const pool = await userPool({ replicas: 2, batchTimeoutMs: 500 })
    const pids = pool.stats.replicas.map((r) => r.pid as number)
    const error = await pool.infer({ value: 1, hold: join(scratch(), 'timeout') }).then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toBeInstanceOf(BatchTimeoutError)
    expect(error).toMatchObject({ code: 'ERR_BATCH_TIMEOUT' })
    expect(await pool.infer({ value: 2 })).toBe(4)
    // The restart is counted when the OS reports the exit, a moment after the kill.
    await poll(() => pool.stats.restarts === 1, "the killed replica's exit to be seen")
    const killed = pool.stats.replicas.findIndex((r) => r.restartCauses?.timeout === 1)
    expect(killed).not.toBe(-1)
    expect(pool.stats.replicas.map((r) => r.restarts)).toEqual(killed === 0 ? [1, 0] : [0, 1])
    await poll(() => !alive(pids[killed] as number), 'the timed-out replica to be reaped')
    expect(alive(pids[1 - killed] as number)).toBe(true)
  })

  it('a replica that never finishes loading: createPool rejects with StartupTimeoutError and no replica process is left', async () => {
    const before = childrenOf(process.pid)
    const started = createPool({
      model: models.demoMlp,
      worker: workers.hangingLoad,
      isolation: 'process',
      replicas: 2,
      startupTimeoutMs: 1_000,
    })
    await poll(() => childrenOf(process.pid).length >= before.length + 2, 'the replica processes to be spawned')
    const replicas = childrenOf(process.pid).filter((pid) => !before.includes(pid))
    await expect(started).rejects.toBeInstanceOf(StartupTimeoutError)
    expect(replicas.filter(alive)).toEqual([])
    expect(transferFiles(process.pid)).toEqual([])
  })

  it('workerOptions holding a bare SharedArrayBuffer cannot reach a process: createPool rejects with ModelLoadError, no process left', async () => {
    const before = childrenOf(process.pid)
    const started = createPool({
      model: models.demoMlp,
      worker: workers.process,
      isolation: 'process',
      replicas: 1,
      workerOptions: { shared: new SharedArrayBuffer(4) },
    })
    await expect(started).rejects.toBeInstanceOf(ModelLoadError)
    await expect(started).rejects.toThrow('Could not boot the replica process: #<SharedArrayBuffer> could not be cloned.')
    await poll(() => childrenOf(process.pid).every((pid) => before.includes(pid)), 'the replica process to be gone')
    expect(transferFiles(process.pid)).toEqual([])
  })

  it('close() leaves no replica process and no transfer file', async () => {
    const pool = await userPool()
    const pids = pool.stats.replicas.map((r) => r.pid as number)
    expect(await pool.infer({ value: 4 })).toBe(8)
    await pool.close()
    expect(pids.filter(alive)).toEqual([])
    expect(transferFiles(process.pid)).toEqual([])
  })

  it('no orphans: when the host is SIGKILLed, every replica process exits by itself and removes its transfer files', async () => {
    const host = spawn(process.execPath, [hostFixture, models.demoMlp, '2'], { stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = new Promise((resolve) => host.once('exit', resolve))
    try {
      let line = ''
      await new Promise<void>((resolve, reject) => {
        host.stdout.on('data', (chunk: Buffer) => {
          line += chunk.toString()
          if (line.includes('\n')) resolve()
        })
        host.once('exit', (code) => reject(new Error(`the host exited with ${code} before serving`)))
      })
      const { host: hostPid, replicas } = JSON.parse(line) as { host: number; replicas: number[] }
      expect(replicas).toHaveLength(2)
      expect(replicas.every(alive)).toBe(true)
      expect(transferFiles(hostPid).length).toBeGreaterThan(0)
      host.kill('SIGKILL')
      await exited
      await poll(() => !replicas.some(alive), 'the replicas of a killed host to exit')
      expect(transferFiles(hostPid)).toEqual([])
    } finally {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL')
    }
  })
})

describe('process isolation metrics', () => {
  it("exports each replica process's RSS and its restarts by cause", async () => {
    const pool = await userPool({ replicas: 2 })
    const app = createServer(createRequestHandler({ users: pool as unknown as Pool }))
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    try {
      const victim = pool.stats.replicas[1]?.pid as number
      process.kill(victim, 'SIGKILL')
      await poll(() => pool.stats.replicas[1]?.state === 'ready' && pool.stats.replicas[1]?.pid !== victim, 'replica 1 to be respawned')
      const text = (await http(`http://127.0.0.1:${(app.address() as AddressInfo).port}/metrics`)).text
      expect(metric(text, 'inferpool_replica_restarts_total', { model: 'users', replica: '1', cause: 'SIGKILL' })).toBe(1)
      expect(metric(text, 'inferpool_replica_restarts_total', { model: 'users', replica: '0', cause: 'SIGKILL' })).toBeUndefined()
      expect(metric(text, 'inferpool_worker_restarts_total', { model: 'users' })).toBe(1)
      for (const replica of ['0', '1']) {
        const rss = metric(text, 'inferpool_replica_resident_memory_bytes', { model: 'users', replica })
        expect(rss).toBe(pool.stats.replicas[Number(replica)]?.rssBytes)
        expect(rss).toBeGreaterThan(0)
      }
    } finally {
      await new Promise((resolve) => app.close(resolve))
    }
  })
})

describe('process isolation after a burst', () => {
  it('the replica that ran a batch collects its garbage once quiet; one that ran none does not', async () => {
    const pool = await createPool({
      model: models.demoMlp,
      replicas: 2,
      isolation: 'process',
      processes: { idleCollectMs: 10 },
      batching: { maxBatchSize: 16 },
    })
    pools.push(pool as Pool<unknown, unknown>)
    expect(pool.stats.replicas.map((r) => r.idleCollections)).toEqual([0, 0])
    const rand = prng(4)
    await pool.infer({ input: Float32Array.from({ length: 256 }, () => rand()) })
    const ran = pool.stats.replicas.findIndex((r) => r.batches === 1)
    // At least: a second, releasing collection may follow 5.2 s later.
    await poll(() => (pool.stats.replicas[ran]?.idleCollections ?? 0) >= 1, 'the idle collection of the replica that ran the batch')
    expect(pool.stats.replicas[1 - ran]?.idleCollections).toBe(0)
    const app = createServer(createRequestHandler({ demo: pool as unknown as Pool }))
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    try {
      const text = (await http(`http://127.0.0.1:${(app.address() as AddressInfo).port}/metrics`)).text
      const counted = (replica: number) =>
        metric(text, 'inferpool_replica_idle_collections_total', { model: 'demo', replica: String(replica) })
      expect(counted(ran)).toBe(pool.stats.replicas[ran]?.idleCollections)
      expect(counted(1 - ran)).toBe(0)
    } finally {
      await new Promise((resolve) => app.close(resolve))
    }
  })
})

describe('process isolation with the ONNX worker', () => {
  it('returns every row equal to thread mode', async () => {
    const thread = await createPool({ model: models.demoMlp, replicas: 1, batching: { maxBatchSize: 16 } })
    const proc = await createPool({ model: models.demoMlp, replicas: 2, isolation: 'process', batching: { maxBatchSize: 16 } })
    pools.push(thread as Pool<unknown, unknown>, proc as Pool<unknown, unknown>)
    expect(proc.metadata).toEqual({ ...thread.metadata, replicas: 2 })
    const rand = prng(9)
    const rows: RowInput[] = Array.from({ length: 100 }, () => ({ input: Float32Array.from({ length: 256 }, () => rand() * 2 - 1) }))
    const [want, got] = await Promise.all([Promise.all(rows.map((r) => thread.infer(r))), Promise.all(rows.map((r) => proc.infer(r)))])
    const plain = (outs: RowOutput[]) =>
      outs.map((o) => ({ type: o.output?.type, dims: o.output?.dims, data: Array.from(o.output?.data as Float32Array) }))
    expect(plain(got)).toEqual(plain(want))
    const stats = proc.stats.replicas
    expect(stats.reduce((sum, r) => sum + r.rows, 0)).toBe(100)
    expect(stats.every((r) => r.state === 'ready' && (r.rssBytes ?? 0) > 0 && typeof r.pid === 'number')).toBe(true)
  })

  it.each([
    [
      'int32 and float32 rows of 8 and 12 bytes (float64 outputs)',
      { model: models.multiIo },
      (i: number): RowInput => ({ a: Float32Array.from([i, -i / 3, 0.25]), b: Int32Array.from([i, i * 7]) }),
    ],
    [
      'int64 token rows of 1 to 6 tokens, padded to the longest of their batch',
      { model: models.tokenPool, padding: { input_ids: { value: 0 }, attention_mask: { value: 0 } } },
      (i: number): RowInput => {
        const n = 1 + (i % 6)
        return {
          input_ids: { data: BigInt64Array.from({ length: n }, (_, t) => BigInt(i * 13 + t)), dims: [n] },
          attention_mask: { data: new BigInt64Array(n).fill(1n), dims: [n] },
        }
      },
    ],
  ])(
    'writes each batch from the rows themselves, no packed buffer on the host, and answers %s as thread mode does',
    async (_what, options, rowOf) => {
      const common = { replicas: 2, batching: { maxBatchSize: 16 }, ...options }
      const thread = await createPool(common)
      const proc = await createPool({ ...common, isolation: 'process' })
      pools.push(thread as Pool<unknown, unknown>, proc as Pool<unknown, unknown>)
      const sent: Array<{ rows: number; buffers: number }> = []
      proc.observe({ onBatchSent: ({ rows, buffers }) => void sent.push({ rows, buffers: buffers.length }) })
      const rows = Array.from({ length: 48 }, (_, i) => rowOf(i))
      const [want, got] = await Promise.all([Promise.all(rows.map((r) => thread.infer(r))), Promise.all(rows.map((r) => proc.infer(r)))])
      const plain = (outs: RowOutput[]) =>
        outs.map((o) =>
          Object.entries(o).map(([name, t]) => ({ name, type: t.type, dims: t.dims, data: Array.from(t.data as ArrayLike<number>) })),
        )
      expect(plain(got)).toEqual(plain(want))
      // Every row went in some batch, and no batch had a buffer packed for it on the host.
      expect(sent.reduce((sum, s) => sum + s.rows, 0)).toBe(48)
      expect(sent.filter((s) => s.buffers > 0)).toEqual([])
    },
  )
})
