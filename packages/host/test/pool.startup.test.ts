import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPool, ModelLoadError, ProviderUnavailableError, resolvePoolOptions, StartupTimeoutError } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { toOrtSessionOptions } from '@inferpool/worker'
import { models, recordingLogger, workers } from './fixtures/models.js'

/** OS threads of this process (Linux): each worker thread adds several. */
const osThreads = (): number => readdirSync('/proc/self/task').length
/**
 * Waits (bounded) until the process has no more OS threads than `before`. A worker
 * thread's 'exit' event fires when its JS stops; the OS thread behind it is joined a
 * moment later, and on a loaded machine that moment can fall after the pool's promise
 * settled (seen once in ~10 full runs under load: 13 threads against 12 right after the
 * rejection). The count must still come back to `before` or lower, within the bound.
 */
async function threadsBackTo(before: number): Promise<void> {
  await vi.waitFor(() => expect(osThreads()).toBeLessThanOrEqual(before), { timeout: 5_000, interval: 5 })
}
/** Handles a live worker thread holds (its MessagePorts). */
const workerPorts = (): number => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length

/**
 * Settles with the promise's outcome (its error, or null), once the handles closed
 * while it settled are closed for good. piscina's `destroy()` resolves on the threads'
 * 'exit' events and closes each thread's MessagePort with `port.close()`; libuv
 * finishes a close in the closing-handles phase, the last of a loop iteration. When a
 * thread's exit is handled in the same iteration as its `port.close()` (a start-up
 * timeout firing while the threads are still booting), the rejection arrives while
 * the port is still closing — and still counted by `getActiveResourcesInfo()`. An
 * immediate scheduled from an immediate runs in the next iteration's check phase,
 * after that closing phase: an ordering barrier, not a wait of any length.
 */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  )
  await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)))
  return outcome
}

describe('load failures', () => {
  beforeAll(async () => {
    // Warm up: the first pool start creates process-wide helper threads (libuv pool,
    // V8 platform) that stay; the thread counts below compare against that state.
    // (Corrupt bytes, not a missing file: the pool reads the file before it starts any thread.)
    await failure(createPool({ model: new Uint8Array([8, 1, 18, 3, 1, 2, 3, 255, 255]), replicas: 1 }))
  })

  it('rejects a missing model file with ERR_MODEL_LOAD naming the path and the system message, before starting any thread', async () => {
    const before = osThreads()
    const error = await failure(createPool({ model: '/no/such/model.onnx', replicas: 2 }))
    expect(error).toBeInstanceOf(ModelLoadError)
    expect(error).toMatchObject({
      code: 'ERR_MODEL_LOAD',
      message: "Failed to load model /no/such/model.onnx: ENOENT: no such file or directory, open '/no/such/model.onnx'",
      details: { model: '/no/such/model.onnx', runtimeMessage: "ENOENT: no such file or directory, open '/no/such/model.onnx'" },
    })
    await threadsBackTo(before)
    expect(workerPorts()).toBe(0)
  })

  it('rejects an empty model file with ERR_MODEL_LOAD saying so, before starting any thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inferpool-startup-'))
    try {
      const path = join(dir, 'empty.onnx')
      writeFileSync(path, '')
      const before = osThreads()
      const error = await failure(createPool({ model: path, replicas: 2 }))
      expect(error).toBeInstanceOf(ModelLoadError)
      expect(error).toMatchObject({
        code: 'ERR_MODEL_LOAD',
        message: `Failed to load model ${path}: the file is empty`,
        details: { model: path },
      })
      await threadsBackTo(before)
      expect(workerPorts()).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('rejects corrupt model bytes with ERR_MODEL_LOAD and the runtime message', async () => {
    const before = osThreads()
    const error = await failure(createPool({ model: new Uint8Array([8, 1, 18, 3, 1, 2, 3, 255, 255]), replicas: 2 }))
    expect(error).toBeInstanceOf(ModelLoadError)
    expect(error).toMatchObject({
      code: 'ERR_MODEL_LOAD',
      message: 'Failed to load model <bytes: 9>: Failed to load model because protobuf parsing failed.',
    })
    await threadsBackTo(before)
  })

  it("reports a user worker's failing load as ERR_MODEL_LOAD with its message", async () => {
    const error = await failure(
      createPool({ model: models.demoMlp, worker: workers.failingLoad, workerOptions: { resource: 'vocab.txt' }, replicas: 1 }),
    )
    expect(error).toBeInstanceOf(ModelLoadError)
    expect(error).toMatchObject({ code: 'ERR_MODEL_LOAD', message: 'Worker failed to load: cannot open vocab.txt' })
  })

  it('gives up on a load that never finishes after startupTimeoutMs, with ERR_STARTUP_TIMEOUT, leaving no thread running', async () => {
    const before = osThreads()
    const error = await failure(createPool({ model: models.demoMlp, worker: workers.hangingLoad, replicas: 2, startupTimeoutMs: 100 }))
    expect(error).toBeInstanceOf(StartupTimeoutError)
    expect(error).toMatchObject({
      code: 'ERR_STARTUP_TIMEOUT',
      message: 'Only 0 of 2 replicas loaded within startupTimeoutMs (100 ms)',
      details: { timeoutMs: 100, loaded: 0, replicas: 2 },
    })
    await threadsBackTo(before)
    expect(workerPorts()).toBe(0)
  })
})

describe('execution providers', () => {
  const pools: Pool[] = []
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()))
  })

  it("fails 'cuda' without the provider libraries with ERR_PROVIDER_UNAVAILABLE and install instructions", async () => {
    const before = osThreads()
    const error = await failure(createPool({ model: models.demoMlp, replicas: 1, session: { executionProviders: ['cuda'] } }))
    expect(error).toBeInstanceOf(ProviderUnavailableError)
    const { code, message, details } = error as ProviderUnavailableError
    expect(code).toBe('ERR_PROVIDER_UNAVAILABLE')
    expect(message).toMatch(/^Execution provider 'cuda' is unavailable \(.*Failed to load shared library.*\)\. /)
    expect(message).toContain('ONNXRUNTIME_NODE_INSTALL=cuda12 pnpm rebuild onnxruntime-node')
    expect(message).toContain('CUDA 12 and cuDNN 9')
    expect(details).toMatchObject({ provider: 'cuda', deviceId: 0 })
    await threadsBackTo(before)
  })

  it("falls back to CPU with a warning when asked to (fallback: 'cpu'), and serves", async () => {
    const logger = recordingLogger()
    const pool = await createPool({
      model: models.demoMlp,
      replicas: 1,
      session: { executionProviders: [{ name: 'cuda', deviceId: 1 }] },
      fallback: 'cpu',
      logger,
    })
    pools.push(pool)
    expect(pool.metadata.executionProvider).toBe('cpu')
    expect(logger.warnings).toHaveLength(1)
    expect(logger.warnings[0]).toMatch(
      /^inferpool: Execution provider 'cuda' is unavailable .* Falling back to the CPU execution provider \(fallback: 'cpu'\)\.$/,
    )
    const out = await pool.infer({ input: new Float32Array(256) })
    expect(out.output.dims).toEqual([16])
  })

  it('maps pool options to ORT session options: threads per replica, no spinning, one provider', () => {
    const cpu = resolvePoolOptions({ model: 'm.onnx', replicas: 2 }, 2)
    expect(cpu.session).toEqual({
      executionProvider: 'cpu',
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      allowSpinning: false,
      logSeverityLevel: 4,
    })
    expect(toOrtSessionOptions(cpu.session)).toEqual({
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 4,
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    })
    expect(resolvePoolOptions({ model: 'm.onnx', replicas: 1 }, 8).session.intraOpNumThreads).toBe(8)
    expect(resolvePoolOptions({ model: 'm.onnx', replicas: 3 }, 8).session.intraOpNumThreads).toBe(2)
    expect(resolvePoolOptions({ model: 'm.onnx', replicas: 4 }, 2).session.intraOpNumThreads).toBe(1)
    expect(resolvePoolOptions({ model: 'm.onnx', session: { intraOpNumThreads: 3, allowSpinning: true } }, 2).session).toMatchObject({
      intraOpNumThreads: 3,
      allowSpinning: true,
    })

    const cuda = resolvePoolOptions({ model: 'm.onnx', session: { executionProviders: [{ name: 'cuda', deviceId: [2, 3] }] } }, 2)
    expect(cuda.session.executionProvider).toBe('cuda')
    expect(cuda.deviceIds).toEqual([2, 3])
    expect(toOrtSessionOptions({ ...cuda.session, deviceId: 3 }).executionProviders).toEqual([{ name: 'cuda', deviceId: 3 }])
    expect(toOrtSessionOptions({ allowSpinning: true }).extra).toEqual({ session: { intra_op: { allow_spinning: '1' } } })
    expect(resolvePoolOptions({ model: 'm.onnx', session: { executionProviders: ['cuda'] } }, 2).deviceIds).toEqual([0])
  })

  it('maps replicas to piscina threads and concurrency to tasks per worker, and states them', async () => {
    const pool = await createPool({ model: models.demoMlp, replicas: 2, concurrency: 2 })
    pools.push(pool)
    expect(pool.metadata).toMatchObject({ replicas: 2, concurrency: 2 })
    expect(pool.stats.replicas).toHaveLength(2)
    // replicas × concurrency batch slots: 4 batches run at once at most.
    let maxInFlight = 0
    const stop = pool.observe({ onDispatch: () => (maxInFlight = Math.max(maxInFlight, pool.stats.inFlight)) })
    await Promise.all(Array.from({ length: 400 }, () => pool.infer({ input: new Float32Array(256) })))
    stop()
    expect(maxInFlight).toBeLessThanOrEqual(4)
  })
})
