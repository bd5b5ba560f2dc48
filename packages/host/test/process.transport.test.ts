/**
 * ProcessTransport driven directly (start / send / close / destroy), with real child
 * processes and real onnxruntime: what each kind of replica death does to the batches
 * in flight, and that nothing — no process, no transfer file — outlives the transport.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { exposeGc } from '@inferpool/worker'
import type { RunTask, TaskResult, TensorBatchOutput } from '@inferpool/worker'
import { ModelLoadError, StartupTimeoutError } from '../src/errors.js'
import { withoutUnneededBytes } from '../src/pool/model-bytes.js'
import { resolvePoolOptions } from '../src/pool/options.js'
import { ProcessTransport } from '../src/pool/process/index.js'
import type { PoolOptions } from '../src/types.js'
import type { SendOutcome } from '../src/pool/transport.js'
import { models, prng, workers } from './fixtures/models.js'
import { alive, poll, scratchDir, transferFiles } from './process-helpers.js'

const WIDTH = 256

interface Item {
  value: number
  abort?: true
  hold?: string
  grow?: number
  env?: string
  pid?: true
}

const transports: ProcessTransport[] = []
afterEach(async () => {
  // Whatever a test left running ends here, also when it failed.
  await Promise.all(transports.splice(0).map((t) => t.destroy()))
})

const scratch = scratchDir('inferpool-process-test-')

function transport(options: Partial<PoolOptions>, restarts: string[] = []): ProcessTransport {
  const t = new ProcessTransport(resolvePoolOptions({ model: models.demoMlp, isolation: 'process', ...options }), {
    onReplicaRestart: ({ reason }) => void restarts.push(reason),
  })
  transports.push(t)
  return t
}

let nextBatch = 1
function items(list: Item[]): RunTask {
  return { kind: 'run', batchId: nextBatch++, payload: list }
}

function tensorTask(rows: Float32Array[]): { task: RunTask; transfer: ArrayBuffer[] } {
  const buffer = new ArrayBuffer(rows.length * WIDTH * 4)
  rows.forEach((row, i) => new Float32Array(buffer, i * WIDTH * 4, WIDTH).set(row))
  return {
    task: {
      kind: 'run',
      batchId: nextBatch++,
      payload: { rows: rows.length, inputs: { input: { type: 'float32', dims: [rows.length, WIDTH], buffer } } },
    },
    transfer: [buffer],
  }
}

function row(seed: number): Float32Array {
  const rand = prng(seed)
  return Float32Array.from({ length: WIDTH }, () => rand() * 2 - 1)
}

function valueOf(outcome: SendOutcome): unknown {
  if (!outcome.ok) throw new Error(`expected a result, got ${outcome.failure.kind}: ${outcome.failure.reason}`)
  const result = outcome.result as TaskResult & { value?: unknown }
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`)
  return result.value
}

describe('ProcessTransport', () => {
  let session: InferenceSession
  beforeAll(async () => {
    session = await InferenceSession.create(models.demoMlp, { intraOpNumThreads: 1 })
  })
  afterAll(async () => {
    await session?.release()
  })

  it('holds no model bytes once the private copy is written: the bytes it was given can be collected', async () => {
    const gc = exposeGc()
    expect(gc).toBeTypeOf('function')
    // Made in a function of its own, so no reference of the test's outlives it but the WeakRef.
    const start = (): { t: ProcessTransport; bytes: WeakRef<ArrayBufferLike> } => {
      const model = new Uint8Array(readFileSync(models.demoMlp))
      const t = new ProcessTransport(
        { ...resolvePoolOptions({ model: models.demoMlp, isolation: 'process', replicas: 1 }), model, modelLabel: '<bytes>' },
        {},
      )
      transports.push(t)
      return { t, bytes: new WeakRef(model.buffer) }
    }
    const { t, bytes } = start()
    expect((await t.start())?.inputs.map((i) => i.name)).toEqual(['input'])
    // A WeakRef's target stays alive until the job that made it ends: collect in a later one.
    await new Promise((resolve) => setImmediate(resolve))
    ;(gc as () => void)()
    expect(bytes.deref()).toBe(undefined)
  })

  it('returns, for batches of 1 then 128 rows (the transfer file grows), every row equal to onnxruntime in this process', async () => {
    const t = transport({ replicas: 1 })
    const description = await t.start()
    expect(description?.inputs).toEqual([{ name: 'input', type: 'float32', dims: ['batch', WIDTH] }])
    for (const size of [1, 128, 3]) {
      const rows = Array.from({ length: size }, (_, i) => row(size * 1000 + i))
      const { task, transfer } = tensorTask(rows)
      const { outputs } = valueOf(await t.send(task, transfer)) as TensorBatchOutput
      const output = outputs.output as TensorBatchOutput['outputs'][string]
      expect(output.dims).toEqual([size, 16])
      // Each output tensor arrives in its own ArrayBuffer from byte 0: aligned for any typed array.
      const got = new Float32Array(output.buffer)
      for (let i = 0; i < size; i++) {
        const want = (await session.run({ input: new Tensor('float32', rows[i] as Float32Array, [1, WIDTH]) })).output.data as Float32Array
        expect(Array.from(got.subarray(i * 16, i * 16 + 16))).toEqual(Array.from(want))
      }
    }
    expect(t.replicas[0]).toMatchObject({ id: 0, batches: 3, rows: 132, restarts: 0, state: 'ready' })
    expect(t.replicas[0]?.rssBytes).toBeGreaterThan(0)
    await t.close()
    expect(transferFiles(process.pid)).toEqual([])
  })

  it('SIGKILL of a replica mid-batch fails only that batch as crashed (signal named), respawns it, and the next batch runs', async () => {
    const restarts: string[] = []
    const t = transport({ replicas: 1, worker: workers.process }, restarts)
    await t.start()
    const before = t.replicas[0]?.pid as number
    const marker = join(scratch(), 'kill-9')
    const pending = t.send(items([{ value: 1 }, { value: 2, hold: marker }]), [])
    await poll(() => existsSync(marker), 'the held batch to start running')
    process.kill(before, 'SIGKILL')
    expect(await pending).toEqual({
      ok: false,
      failure: {
        kind: 'crashed',
        reason: `replica process ${before} killed by SIGKILL`,
        details: { pid: before, exitCode: null, signal: 'SIGKILL' },
      },
    })
    expect(valueOf(await t.send(items([{ value: 3 }, { value: 4 }]), []))).toEqual([6, 8])
    const replica = t.replicas[0]
    expect(replica?.restarts).toBe(1)
    expect(replica?.restartCauses).toEqual({ SIGKILL: 1 })
    expect(replica?.pid).not.toBe(before)
    expect(restarts).toEqual([`replica process ${before} killed by SIGKILL`])
    expect(alive(before)).toBe(false)
  })

  it('process.abort() in a replica fails its batch as crashed with SIGABRT; the other replica keeps serving', async () => {
    const t = transport({ replicas: 2, worker: workers.process })
    await t.start()
    const pids = t.replicas.map((r) => r.pid)
    const [aborted, fine] = await Promise.all([t.send(items([{ value: 1, abort: true }]), []), t.send(items([{ value: 5 }]), [])])
    expect(aborted.ok).toBe(false)
    const failure = (aborted as SendOutcome & { ok: false }).failure
    expect(failure.kind).toBe('crashed')
    expect(failure.reason).toMatch(/^replica process \d+ killed by SIGABRT$/)
    expect(failure.details?.signal).toBe('SIGABRT')
    expect(pids).toContain(failure.details?.pid)
    expect(valueOf(fine)).toEqual([10])
    await poll(() => t.replicas.every((r) => r.state === 'ready'), 'the aborted replica to be respawned')
    expect(t.replicas.map((r) => r.restartCauses)).toContainEqual({ SIGABRT: 1 })
    expect(t.restarts).toBe(1)
  })

  it('a batch past its timeout settles as timeout and its process is SIGKILLed at once', async () => {
    const t = transport({ replicas: 1, worker: workers.process })
    await t.start()
    const pid = t.replicas[0]?.pid as number
    const marker = join(scratch(), 'timeout')
    const outcome = await t.send(items([{ value: 1, hold: marker }]), [], { timeoutMs: 300 })
    expect(outcome).toEqual({
      ok: false,
      failure: { kind: 'timeout', reason: 'the batch did not finish within 300 ms', details: { timeoutMs: 300 } },
    })
    await poll(() => !alive(pid), 'the timed-out replica to be killed')
    expect(valueOf(await t.send(items([{ value: 2 }]), []))).toEqual([4])
    expect(t.replicas[0]?.restartCauses).toEqual({ timeout: 1 })
  })

  it('a payload structured clone cannot copy is unsendable, and harms nothing else', async () => {
    const t = transport({ replicas: 1, worker: workers.process })
    await t.start()
    const outcome = await t.send(items([{ value: 1, fn: () => 1 } as unknown as Item]), [])
    expect(outcome.ok).toBe(false)
    expect((outcome as SendOutcome & { ok: false }).failure.kind).toBe('unsendable')
    expect(valueOf(await t.send(items([{ value: 2 }]), []))).toEqual([4])
    expect(t.restarts).toBe(0)
  })

  it('gives each replica its entry of processes.env', async () => {
    const t = transport({
      replicas: 2,
      worker: workers.process,
      processes: { env: [{ INFERPOOL_TEST_DEVICE: 'gpu-a' }, { INFERPOOL_TEST_DEVICE: 'gpu-b' }] },
    })
    await t.start()
    const seen = new Map<number, unknown>()
    // Two at a time: each goes to the less busy replica, so both answer.
    while (seen.size < 2) {
      const outcomes = await Promise.all(
        [0, 1].map(() =>
          t.send(
            items([
              { value: 0, pid: true },
              { value: 0, env: 'INFERPOOL_TEST_DEVICE' },
            ]),
            [],
          ),
        ),
      )
      for (const outcome of outcomes) {
        const [pid, device] = valueOf(outcome) as [number, string]
        seen.set(pid, device)
      }
    }
    const byPid = new Map(t.replicas.map((r) => [r.pid, r.id]))
    for (const [pid, device] of seen) expect(device).toBe(byPid.get(pid) === 0 ? 'gpu-a' : 'gpu-b')
  })

  it('recycles a replica whose RSS is over processes.maxRssMb after a batch', async () => {
    const restarts: string[] = []
    const t = transport({ replicas: 1, worker: workers.process, processes: { maxRssMb: 300 } }, restarts)
    await t.start()
    const pid = t.replicas[0]?.pid as number
    expect(valueOf(await t.send(items([{ value: 1, grow: 400 }]), []))).toEqual([2])
    await poll(() => t.replicas[0]?.state === 'ready' && t.replicas[0]?.pid !== pid, 'the recycled replica to be replaced')
    expect(alive(pid)).toBe(false)
    expect(t.replicas[0]?.restartCauses).toEqual({ memory: 1 })
    expect(restarts).toHaveLength(1)
    expect(restarts[0]).toMatch(new RegExp(`^replica process ${pid} recycled: RSS \\d+ MiB is over processes.maxRssMb$`))
    expect(valueOf(await t.send(items([{ value: 2 }]), []))).toEqual([4])
  })

  it('a replica that never finishes loading: start() rejects with StartupTimeoutError and the process is gone (SIGKILL)', async () => {
    const t = transport({ replicas: 2, worker: workers.hangingLoad, startupTimeoutMs: 1_500 })
    const started = t.start()
    await poll(() => t.replicas.every((r) => r.pid !== undefined), 'both replicas to be spawned')
    const pids = t.replicas.map((r) => r.pid as number)
    await expect(started).rejects.toBeInstanceOf(StartupTimeoutError)
    await expect(started).rejects.toMatchObject({ code: 'ERR_STARTUP_TIMEOUT' })
    expect(pids.filter(alive)).toEqual([])
    expect(transferFiles(process.pid)).toEqual([])
  })

  it('a load that fails rejects start() with ModelLoadError naming the cause, leaving no process', async () => {
    const t = transport({ replicas: 2, worker: workers.failingLoad })
    const started = t.start()
    await poll(() => t.replicas.every((r) => r.pid !== undefined), 'both replicas to be spawned')
    const pids = t.replicas.map((r) => r.pid as number)
    await expect(started).rejects.toBeInstanceOf(ModelLoadError)
    expect(pids.filter(alive)).toEqual([])
  })

  it('destroy() settles an in-flight batch as closed at once and ends every process', async () => {
    const t = transport({ replicas: 2, worker: workers.process })
    await t.start()
    const pids = t.replicas.map((r) => r.pid as number)
    const marker = join(scratch(), 'destroy')
    const pending = t.send(items([{ value: 1, hold: marker }]), [])
    await poll(() => existsSync(marker), 'the held batch to start running')
    const destroyed = t.destroy()
    expect(await pending).toEqual({ ok: false, failure: { kind: 'closed', reason: 'the transport was destroyed' } })
    await destroyed
    expect(pids.filter(alive)).toEqual([])
    expect(transferFiles(process.pid)).toEqual([])
    expect(await t.send(items([{ value: 1 }]), [])).toEqual({
      ok: false,
      failure: { kind: 'closed', reason: 'the replica processes were destroyed' },
    })
  })
})

describe('the options a pool keeps once its replicas have started', () => {
  it('hold no model bytes in process mode (the label in their place), and the same bytes in thread mode', () => {
    const model = new Uint8Array([1, 2, 3])
    const base = resolvePoolOptions({ model, replicas: 1 })
    const threads = { ...base, model }
    const processes = { ...resolvePoolOptions({ model, isolation: 'process', replicas: 1 }), model }
    expect(withoutUnneededBytes(threads)).toBe(threads)
    expect(withoutUnneededBytes(processes)).toEqual({ ...processes, model: '<bytes>' })
  })
})
