/**
 * A loaded model version is immutable: the pool reads its model once, and every replica
 * it starts later (a replacement after a kill or a timeout) runs those same bytes, in
 * worker threads and in replica processes alike — whatever has happened to the file on
 * disk since. A replica whose load fails takes no batch while another is ready, and is
 * retried with back-off; the model stays ready, reported as degraded.
 *
 * The models are y = x⁴ and y = x³ for square matrices x: for a 2×2 matrix of ones
 * every element is 8 under the first and 4 under the second, so each answer tells which
 * model ran it.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { buildMatrixPower, serializeModel } from '@inferpool/model-builder'
import { createPool } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool, RowInput, RowOutput } from '@inferpool/host'
import { models, recordingLogger, workers } from '../../host/test/fixtures/models.js'
import { grpcClient } from './grpc-helpers.js'
import { jsonLines, poll, runNode } from '../../host/test/process-helpers.js'
import { http, metric } from './server-helpers.js'

const childScript = fileURLToPath(new URL('../../host/test/fixtures/replaced-model-child.mjs', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'inferpool-model-immutable-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const pools: Array<Pool<unknown, unknown>> = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.destroy()))
})

/** y = x^power for square matrices x [batch, n, n] (model-builder's buildMatrixPower). */
const matrixPower = (power: number): Uint8Array => serializeModel(buildMatrixPower(power))

const ones: RowInput = { x: { data: new Float32Array(4).fill(1), dims: [2, 2] } }

/** What a 2×2 matrix of ones came back as: the distinct values of `y` (one value per model). */
async function answers(pool: Pool<RowInput, RowOutput>): Promise<unknown[]> {
  const outcome = (p: Promise<RowOutput>): Promise<unknown> =>
    p.then(
      (out) => ({ status: 'fulfilled', y: [...new Set(out.y?.data as Float32Array)] }),
      (err: { code?: string; message?: string }) => ({ status: 'rejected', code: err.code, message: err.message }),
    )
  const sequential: unknown[] = []
  for (let i = 0; i < 20; i++) sequential.push(await outcome(pool.infer(ones)))
  const concurrent = await Promise.all(Array.from({ length: 40 }, () => outcome(pool.infer(ones))))
  return [...new Set([...sequential, ...concurrent].map((o) => JSON.stringify(o)))].map((o) => JSON.parse(o) as unknown)
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')
const eights = { status: 'fulfilled', y: [8] }

describe('worker threads: a replacement thread runs the bytes the pool loaded', () => {
  it.each([
    ['replaced by another valid model', 'replace'],
    ['truncated to nothing', 'truncate'],
  ] as const)('the file %s, then a thread replaced: every answer comes from the loaded model', async (_name, mode) => {
    const { code, signal, stdout, stderr } = await runNode([childScript, scratch, mode])
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' })
    const loadedSha = sha256(matrixPower(4))
    const steps = jsonLines(stdout) as Array<{ step: string; sha256?: string }>
    expect(steps.map(({ sha256: _, ...rest }) => rest)).toEqual([
      { step: 'loaded', outcome: eights },
      { step: 'slow', status: ['ERR_BATCH_TIMEOUT', 'ERR_BATCH_TIMEOUT'] },
      { step: 'replaced', states: ['ready', 'ready'], restarts: 2 },
      { step: 'after', outcomes: [eights] },
      { step: 'metadata' },
      { step: 'closed' },
    ])
    expect(steps.filter((s) => s.sha256 !== undefined).map((s) => s.sha256)).toEqual([loadedSha, loadedSha])
  })
})

describe('replica processes: a respawned process runs the bytes the pool loaded', () => {
  async function processPool(model: string): Promise<Pool<RowInput, RowOutput>> {
    const pool = await createPool({ model, isolation: 'process', replicas: 2, logger: recordingLogger() })
    pools.push(pool as Pool<unknown, unknown>)
    return pool
  }

  /** Kills each replica process in turn, each time waiting for its replacement to load. */
  async function killEveryReplica(pool: Pool<RowInput, RowOutput>): Promise<void> {
    for (const id of [0, 1]) {
      const victim = pool.stats.replicas[id]?.pid as number
      process.kill(victim, 'SIGKILL')
      await poll(
        () => pool.stats.replicas[id]?.pid !== victim && pool.stats.replicas[id]?.state === 'ready',
        `replica ${id} to be respawned and ready`,
      )
    }
  }

  it('the file replaced by another valid model, then every replica killed: every answer comes from the loaded model', async () => {
    const path = join(scratch, 'process-replace.onnx')
    writeFileSync(path, matrixPower(4))
    const pool = await processPool(path)
    writeFileSync(path, matrixPower(3))
    await killEveryReplica(pool)
    expect(await answers(pool)).toEqual([eights])
    expect(pool.stats.replicas.map((r) => [r.state, r.restarts])).toEqual([
      ['ready', 1],
      ['ready', 1],
    ])
    expect(pool.metadata.modelSha256).toBe(sha256(matrixPower(4)))
  })

  it('the processes load a private, read-only copy of the bytes, which the pool removes when it closes', async () => {
    const path = join(scratch, 'process-copy.onnx')
    writeFileSync(path, matrixPower(4))
    const copies = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith(`inferpool-model-${process.pid}-`))
    const pool = await processPool(path)
    expect(copies()).toHaveLength(1)
    const copy = join(tmpdir(), copies()[0] as string, 'model.onnx')
    expect(sha256(readFileSync(copy))).toBe(pool.metadata.modelSha256)
    expect({ dir: statSync(dirname(copy)).mode & 0o777, file: statSync(copy).mode & 0o777 }).toEqual({ dir: 0o700, file: 0o400 })
    await pool.close()
    expect(copies()).toEqual([])
    const destroyed = await processPool(path)
    expect(copies()).toHaveLength(1)
    await destroyed.destroy()
    expect(copies()).toEqual([])
  })

  it('a host that exits without closing its pool leaves no private copy behind', async () => {
    const hostFixture = fileURLToPath(new URL('../../host/test/fixtures/process-host.mjs', import.meta.url))
    const host = spawn(process.execPath, [hostFixture, models.demoMlp, '1', 'exit'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    host.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const code = await new Promise((resolve) => host.once('exit', resolve))
    const { host: hostPid, copies } = JSON.parse(out) as { host: number; copies: string[] }
    expect({ code, copies: copies.length }).toEqual({ code: 0, copies: 1 })
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`inferpool-model-${hostPid}-`))).toEqual([])
  })

  it('the copy left by a host killed outright (SIGKILL) is removed by the next host that writes one', async () => {
    const hostFixture = fileURLToPath(new URL('../../host/test/fixtures/process-host.mjs', import.meta.url))
    /** Runs the host fixture; resolves with its report line once it serves, and its exit. */
    const startHost = (...args: string[]) => {
      const host = spawn(process.execPath, [hostFixture, models.demoMlp, '1', ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
      const exited = new Promise<void>((resolve) => host.once('exit', () => resolve()))
      let out = ''
      const report = new Promise<{ host: number; copies: string[] }>((resolve, reject) => {
        host.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          if (out.includes('\n')) resolve(JSON.parse(out) as { host: number; copies: string[] })
        })
        host.once('exit', (code) => reject(new Error(`the host exited with ${code} before serving`)))
      })
      return { host, exited, report }
    }
    const killed = startHost()
    const { copies } = await killed.report
    expect(copies).toHaveLength(1)
    const left = join(tmpdir(), copies[0] as string)
    killed.host.kill('SIGKILL')
    // Checked before the killed host is reaped: until then it is a zombie, which counts as
    // running, so no other process (vitest's forks write copies too) may sweep its copy yet.
    expect(existsSync(left)).toBe(true)
    await killed.exited
    const next = startHost('exit')
    await next.report
    await next.exited
    expect(existsSync(left)).toBe(false)
  })

  it("a private copy changed behind the pool fails the respawn's load (sha256 check), and that replica takes no batch", async () => {
    const path = join(scratch, 'process-tamper.onnx')
    writeFileSync(path, matrixPower(4))
    const logger = recordingLogger()
    const pool = await createPool({ model: path, isolation: 'process', replicas: 2, logger })
    pools.push(pool as Pool<unknown, unknown>)
    const [dir] = readdirSync(tmpdir()).filter((name) => name.startsWith(`inferpool-model-${process.pid}-`))
    const copy = join(tmpdir(), dir as string, 'model.onnx')
    chmodSync(copy, 0o600)
    writeFileSync(copy, matrixPower(3))
    process.kill(pool.stats.replicas[0]?.pid as number, 'SIGKILL')
    await poll(() => (pool.stats.replicas[0]?.restartCauses?.['load failed'] ?? 0) > 0, 'the respawn to refuse the changed copy')
    expect(await answers(pool)).toEqual([eights])
    expect(logger.warnings[1]?.replace(/process \d+/, 'process N')).toBe(
      `inferpool: replica 0 of ${path}: replica process N ended (its load failed: Failed to load model ${path}: its bytes changed since the pool read them ` +
        `(sha256 ${sha256(matrixPower(3))}, expected ${sha256(matrixPower(4))})); retrying in 250 ms; 1 of 2 replicas ready`,
    )
  })

  it('the file truncated to nothing, then a replica killed: every request succeeds, the respawn loads the same model', async () => {
    const path = join(scratch, 'process-truncate.onnx')
    writeFileSync(path, matrixPower(4))
    const pool = await processPool(path)
    writeFileSync(path, new Uint8Array(0))
    const victim = pool.stats.replicas[0]?.pid as number
    process.kill(victim, 'SIGKILL')
    await poll(() => {
      const replica = pool.stats.replicas[0]
      return replica?.pid !== undefined && replica.pid !== victim && replica.state !== 'loading'
    }, 'replica 0 to be respawned and done loading')
    expect(await answers(pool)).toEqual([eights])
    expect(pool.stats.replicas.map((r) => r.state)).toEqual(['ready', 'ready'])
  })
})

describe('a replica whose load fails while serving', () => {
  it('takes no batch; it is retried with back-off and logged; the model stays ready, reported degraded, until none is ready; both load again', async () => {
    const marker = join(scratch, 'refuse-load')
    const logger = recordingLogger()
    const pool = await createPool<{ value: number; pid?: true }, number>({
      model: 'unused.onnx',
      worker: workers.process,
      workerOptions: { failLoadIf: marker },
      isolation: 'process',
      replicas: 2,
      logger,
    })
    pools.push(pool as Pool<unknown, unknown>)
    const server = await serve(
      { users: pool as unknown as Pool },
      { port: 0, grpcPort: 0, closePools: false, logger: { error() {}, info() {} } },
    )
    const base = server.url as string
    const client = grpcClient(server.grpcAddress as string)
    /** Readiness as each door reports it: HTTP's two routes, gRPC's two calls. */
    const readiness = async (): Promise<unknown[]> => [
      (await http(`${base}/v2/health/ready`)).status,
      (await http(`${base}/v2/models/users/ready`)).status,
      await client.call('ServerReady', {}),
      await client.call('ModelReady', { name: 'users' }),
    ]
    const ready = (yes: boolean): unknown[] => [
      yes ? 200 : 503,
      yes ? 200 : 400,
      { ok: true, response: { ready: yes } },
      { ok: true, response: { ready: yes } },
    ]
    try {
      writeFileSync(marker, '')
      const healthy = pool.stats.replicas[1]?.pid as number
      process.kill(pool.stats.replicas[0]?.pid as number, 'SIGKILL')
      // Its replacement fails to load (and is ended, to be retried after a back-off).
      await poll(() => {
        const replica = pool.stats.replicas[0]
        return replica?.state === 'failed' || (replica?.restartCauses?.['load failed'] ?? 0) > 0
      }, 'a failed load of replica 0')

      const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => pool.infer({ value: 1, pid: true })))
      const distinct = [...new Set(outcomes.map((o) => JSON.stringify(o)))].map((o) => JSON.parse(o) as unknown)
      expect(distinct).toEqual([{ status: 'fulfilled', value: healthy }])
      expect(await readiness()).toEqual(ready(true))
      const text = (await http(`${base}/metrics`)).text
      expect(metric(text, 'inferpool_model_degraded', { model: 'users' })).toBe(1)
      expect(metric(text, 'inferpool_replicas_ready', { model: 'users' })).toBe(1)
      expect(logger.warnings[0]).toMatch(
        /^inferpool: replica 0 of unused\.onnx: replica process \d+ killed by SIGKILL; starting a replacement; 1 of 2 replicas ready$/,
      )
      expect(logger.warnings[1]).toMatch(
        new RegExp(
          `^inferpool: replica 0 of unused\\.onnx: replica process \\d+ ended \\(its load failed: Worker failed to load: load refused: ${marker.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} exists\\); retrying in 250 ms; 1 of 2 replicas ready$`,
        ),
      )

      // The model is not ready only once none of its replicas is.
      process.kill(healthy, 'SIGKILL')
      await poll(
        () => (pool.stats.replicas[1]?.restartCauses?.['load failed'] ?? 0) > 0 && pool.stats.replicas.every((r) => r.state !== 'ready'),
        'replica 1 to fail its load too',
      )
      expect(await readiness()).toEqual(ready(false))

      unlinkSync(marker)
      await poll(() => pool.stats.replicas.every((r) => r.state === 'ready'), 'both replicas to load again')
      expect(await readiness()).toEqual(ready(true))
      expect(logger.infos.sort()).toEqual([
        expect.stringMatching(/^inferpool: replica 0 of unused\.onnx is ready again; [12] of 2 replicas ready$/),
        expect.stringMatching(/^inferpool: replica 1 of unused\.onnx is ready again; [12] of 2 replicas ready$/),
      ])
      expect(pool.stats.replicas.map((r) => r.restartCauses)).toEqual([
        { SIGKILL: 1, 'load failed': expect.any(Number) },
        { SIGKILL: 1, 'load failed': expect.any(Number) },
      ])
      const after = (await http(`${base}/metrics`)).text
      expect(metric(after, 'inferpool_model_degraded', { model: 'users' })).toBe(0)
    } finally {
      if (existsSync(marker)) unlinkSync(marker)
      client.close()
      await server.close()
    }
  })
})
