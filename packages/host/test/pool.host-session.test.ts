import { afterEach, describe, expect, it } from 'vitest'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { createPool } from '@inferpool/host'
import type { Pool, RowInput, RowOutput } from '@inferpool/host'
import type { OnnxWorkerOptions, RunTask, TensorBatchOutput } from '@inferpool/worker'
import { resolvePoolOptions } from '../src/pool/options.js'
import { HostSessionTransport, hostSessionFits, type IdleAwareTransport } from '../src/pool/threads/host-session.js'
import { ThreadTransport, workerOptionsFor } from '../src/pool/threads/transport.js'
import { models, prng, recordingLogger, workers } from './fixtures/models.js'

const WIDTH = 256
const OUT = 16
const rand = prng(35)
const row = (): Float32Array => Float32Array.from({ length: WIDTH }, () => rand() * 2 - 1)

/** The batches the replicas ran: the pool's batches less these ran on the host session. */
const replicaBatches = (pool: Pool<RowInput, RowOutput>): number => pool.stats.replicas.reduce((sum, r) => sum + r.batches, 0)

async function direct(input: Float32Array): Promise<number[]> {
  const session = await InferenceSession.create(models.demoMlp, { intraOpNumThreads: 1 })
  try {
    const out = await session.run({ input: new Tensor('float32', input, [1, WIDTH]) })
    return Array.from(out.output.data as Float32Array)
  } finally {
    await session.release()
  }
}

describe('the host session (demo MLP, two thread replicas)', () => {
  let pool: Pool<RowInput, RowOutput> | undefined
  afterEach(async () => {
    await pool?.close()
    pool = undefined
  })

  it('runs a lone request on an idle pool on the host thread, with the answer a session gives', async () => {
    pool = await createPool({ model: models.demoMlp, replicas: 2 })
    const input = row()
    const out = await pool.infer({ input })
    expect(Array.from(out.output.data as Float32Array)).toEqual(await direct(input))
    expect(out.output.dims).toEqual([OUT])
    expect(pool.stats.batches).toBe(1)
    expect(pool.stats.completed).toBe(1)
    expect(replicaBatches(pool)).toBe(0)
  })

  it('leaves to the replicas a batch of more rows than a lone request', async () => {
    pool = await createPool({ model: models.demoMlp, replicas: 2 })
    const inputs = Array.from({ length: 10 }, row)
    const outs = await pool.inferMany(inputs.map((input) => ({ input })))
    expect(outs).toHaveLength(10)
    expect(Array.from(outs[9].output.data as Float32Array)).toEqual(await direct(inputs[9]))
    expect(pool.stats.batches).toBe(1)
    expect(replicaBatches(pool)).toBe(1)
  })

  it('sends the batches that come while the host session runs one to the replicas, each answered', async () => {
    pool = await createPool({ model: models.demoMlp, replicas: 2, batching: { maxBatchSize: 2 } })
    const inputs = Array.from({ length: 12 }, row)
    const outs = await Promise.all(inputs.map((input) => (pool as Pool<RowInput, RowOutput>).infer({ input })))
    expect(Array.from(outs[11].output.data as Float32Array)).toEqual(await direct(inputs[11]))
    expect(pool.stats.completed).toBe(12)
    // The first batch found every replica idle (the host); the second found the host busy.
    expect(replicaBatches(pool)).toBeGreaterThanOrEqual(1)
    expect(replicaBatches(pool)).toBeLessThan(pool.stats.batches)
  })

  it('is not used with hostSession: false: the lone request goes to a replica', async () => {
    pool = await createPool({ model: models.demoMlp, replicas: 1, hostSession: false })
    await pool.infer({ input: row() })
    expect(replicaBatches(pool)).toBe(1)
  })

  it('refuses a hostSession that is not a boolean, naming the option and echoing the value', async () => {
    await expect(createPool({ model: models.demoMlp, hostSession: 'yes' as never })).rejects.toThrow(
      new TypeError('Expected `hostSession` to be a boolean, got `"yes"` (string)'),
    )
  })

  it('is kept out of process replicas, user workers, the CUDA provider and pools with batchTimeoutMs', () => {
    const fits = (extra: Record<string, unknown>): boolean => hostSessionFits(resolvePoolOptions({ model: models.demoMlp, ...extra }))
    expect(fits({})).toBe(true)
    expect(fits({ hostSession: false })).toBe(false)
    expect(fits({ isolation: 'process' })).toBe(false)
    expect(fits({ batchTimeoutMs: 5_000 })).toBe(false)
    expect(fits({ worker: workers.gate })).toBe(false)
    expect(fits({ session: { executionProviders: ['cuda'] } })).toBe(false)
  })
})

describe('HostSessionTransport', () => {
  const task = (batchId: number): { task: RunTask; transfer: ArrayBuffer[] } => {
    const buffer = row().buffer as ArrayBuffer
    return {
      task: { kind: 'run', batchId, payload: { rows: 1, inputs: { input: { type: 'float32', dims: [1, WIDTH], buffer } } } },
      transfer: [buffer],
    }
  }

  /** Replicas whose runs report a time of zero: a light model, whatever the host saw. */
  function quickReplicas(inner: ThreadTransport): IdleAwareTransport {
    return {
      start: () => inner.start(),
      close: () => inner.close(),
      destroy: () => inner.destroy(),
      get idle() {
        return inner.idle
      },
      get replicas() {
        return inner.replicas
      },
      get restarts() {
        return inner.restarts
      },
      get rebuilds() {
        return inner.rebuilds
      },
      async send(t, transfer, options) {
        const outcome = await inner.send(t, transfer, options)
        const timing =
          outcome.ok && outcome.result.ok && outcome.result.kind === 'run' ? (outcome.result.value as TensorBatchOutput).timing : undefined
        if (timing) timing.runEndMs = timing.runStartMs
        return outcome
      },
    }
  }

  async function started(limits = { maxRows: 4, maxRunMs: -1, slowRuns: 3 }, wrap = (inner: ThreadTransport): IdleAwareTransport => inner) {
    const options = resolvePoolOptions({ model: models.demoMlp, replicas: 1 })
    const logger = recordingLogger()
    const transport = new HostSessionTransport(
      wrap(new ThreadTransport(options)),
      workerOptionsFor(options) as OnnxWorkerOptions,
      (level, message) => logger[level](message),
      limits,
    )
    await transport.start()
    return { transport, logger }
  }

  const sendOne = async (transport: HostSessionTransport, id: number) => {
    const { task: t, transfer } = task(id)
    const outcome = await transport.send(t, transfer, { rows: 1 })
    expect(outcome.ok && outcome.result.ok).toBe(true)
    return outcome
  }

  it('after as many slow host runs in a row as allowed asks the replicas, and releases the host session when they are as slow, saying so', async () => {
    // maxRunMs -1: every run is too slow, on the host and on a replica.
    const { transport, logger } = await started()
    try {
      for (let id = 1; id <= 3; id++) await sendOne(transport, id)
      expect([transport.runs, transport.active, transport.replicas[0].batches]).toEqual([3, true, 0])
      for (let id = 4; id <= 6; id++) await sendOne(transport, id)
      expect([transport.runs, transport.active, transport.replicas[0].batches]).toEqual([3, false, 3])
      expect(logger.infos).toEqual([
        "the model's runs took over -1 ms (3 in a row on the host, then 3 on a replica): too long to hold the host thread; the host session is released and every batch goes to the replicas",
      ])
      const outcome = await sendOne(transport, 7)
      expect(outcome.ok && outcome.result.ok && outcome.result.threadId).not.toBe(0)
      expect([transport.runs, transport.replicas[0].batches]).toEqual([3, 4])
    } finally {
      await transport.close()
    }
  })

  it('keeps the host session when a replica runs the model within maxRunMs: the host was busy, not the model', async () => {
    // maxRunMs 0: every host run counts as slow; the replicas report runs of no time.
    const { transport, logger } = await started({ maxRows: 4, maxRunMs: 0, slowRuns: 2 }, quickReplicas)
    try {
      for (let id = 1; id <= 2; id++) await sendOne(transport, id)
      expect([transport.runs, transport.replicas[0].batches]).toEqual([2, 0])
      await sendOne(transport, 3)
      expect([transport.runs, transport.replicas[0].batches]).toEqual([2, 1])
      await sendOne(transport, 4)
      expect([transport.runs, transport.active, transport.replicas[0].batches]).toEqual([3, true, 1])
      expect(logger.infos).toEqual([])
    } finally {
      await transport.close()
    }
  })

  it('settles a host run in progress with closed when destroyed', async () => {
    const { transport } = await started({ maxRows: 4, maxRunMs: 1_000, slowRuns: 3 })
    const { task: t, transfer } = task(1)
    const pending = transport.send(t, transfer, { rows: 1 })
    await transport.destroy()
    expect(await pending).toEqual({ ok: false, failure: { kind: 'closed', reason: 'the pool was destroyed' } })
    expect(transport.active).toBe(false)
  })
})
