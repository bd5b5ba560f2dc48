import { fileURLToPath } from 'node:url'
import { BroadcastChannel } from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Piscina } from 'piscina'
import { createWorkerRuntime, WorkerError } from '@inferpool/worker'
import type { LoadReport, TaskResult, WorkerBootData } from '@inferpool/worker'

const boot = (options: unknown): WorkerBootData => ({ channel: '', options })

describe('createWorkerRuntime (the core of defineWorker)', () => {
  it('reports a failed load as ERR_MODEL_LOAD instead of throwing, and retries it on the next task', async () => {
    let attempts = 0
    const runtime = createWorkerRuntime(
      {
        load: (options: { path: string }) => {
          attempts++
          if (attempts === 1) throw new Error(`cannot read ${options.path}`)
          return { ready: true }
        },
        run: (_state, items: number[]) => items.map((n) => n + 1),
      },
      boot({ path: 'model.onnx' }),
    )
    const report = await runtime.start()
    expect(report).toMatchObject({
      type: 'loaded',
      ok: false,
      error: { code: 'ERR_MODEL_LOAD', message: 'Worker failed to load: cannot read model.onnx' },
    })
    // Not cached forever: the next task loads again, and this time it works.
    const result = await runtime.handler({ kind: 'run', batchId: 1, payload: [1, 2] })
    expect(result).toMatchObject({ ok: true, kind: 'run', value: [2, 3] })
    expect(attempts).toBe(2)
  })

  describe('a retried load that hangs', () => {
    afterEach(() => {
      vi.useRealTimers()
    })

    it('answers ERR_MODEL_LOAD after loadTimeoutMs, and the next task tries a fresh load', async () => {
      vi.useFakeTimers()
      let attempts = 0
      const runtime = createWorkerRuntime(
        {
          load: () => {
            attempts++
            if (attempts === 1) throw new Error('device busy')
            if (attempts === 2) return new Promise<never>(() => {})
            return { ready: true }
          },
          run: (_state, items: number[]) => items.map((n) => n * 10),
        },
        { channel: '', options: undefined, loadTimeoutMs: 500 },
      )
      expect(await runtime.start()).toMatchObject({ ok: false, error: { message: 'Worker failed to load: device busy' } })
      const stuck = runtime.handler({ kind: 'run', batchId: 1, payload: [1] })
      await vi.advanceTimersByTimeAsync(500)
      expect(await stuck).toMatchObject({
        ok: false,
        error: {
          code: 'ERR_MODEL_LOAD',
          message: 'Worker failed to load: a retried load did not finish within 500 ms',
          details: { timeoutMs: 500 },
        },
      })
      expect(await runtime.handler({ kind: 'run', batchId: 2, payload: [2] })).toMatchObject({ ok: true, value: [20] })
      expect(attempts).toBe(3)
    })

    it('is not bounded without loadTimeoutMs, and the first load never is (the host bounds it)', async () => {
      vi.useFakeTimers()
      let settled = false
      const runtime = createWorkerRuntime({ load: () => new Promise<never>(() => {}), run: () => [] }, boot(undefined))
      void runtime.start().then(() => (settled = true))
      await vi.advanceTimersByTimeAsync(3_600_000)
      expect(settled).toBe(false)
    })
  })

  it('loads once and reuses the state for every task', async () => {
    let loads = 0
    const runtime = createWorkerRuntime(
      {
        load: async () => ({ id: ++loads }),
        run: (state, items: number[]) => items.map(() => state.id),
        describe: () => ({ inputs: [], outputs: [], name: 'counter' }),
      },
      boot(undefined),
    )
    expect(await runtime.start()).toMatchObject({ ok: true, description: { name: 'counter' } })
    for (let batchId = 1; batchId <= 3; batchId++) {
      expect(await runtime.handler({ kind: 'run', batchId, payload: [0, 0] })).toMatchObject({ ok: true, value: [1, 1] })
    }
    expect(await runtime.handler({ kind: 'describe' })).toMatchObject({ ok: true, kind: 'describe', description: { name: 'counter' } })
    expect(loads).toBe(1)
  })

  it('returns a throwing run as ERR_INFERENCE with the batch id, and keeps a WorkerError code', async () => {
    const runtime = createWorkerRuntime(
      {
        load: () => null,
        run: (_state, items: string[]) => {
          if (items[0] === 'coded') throw new WorkerError('ERR_TOKENIZER', 'unknown token', { details: { token: 'x' } })
          throw new TypeError('bad shape')
        },
      },
      boot(undefined),
    )
    const plain = (await runtime.handler({ kind: 'run', batchId: 7, payload: ['plain'] })) as TaskResult & { ok: false }
    expect(plain.ok).toBe(false)
    expect(plain.error).toEqual({ code: 'ERR_INFERENCE', message: 'bad shape', name: 'Error', details: { batchId: 7, name: 'TypeError' } })
    const coded = (await runtime.handler({ kind: 'run', batchId: 8, payload: ['coded'] })) as TaskResult & { ok: false }
    expect(coded.error).toEqual({
      code: 'ERR_TOKENIZER',
      message: 'unknown token',
      name: 'WorkerError',
      details: { token: 'x', batchId: 8 },
    })
  })

  it('turns an Error in one item of the result into a serialized item error', async () => {
    const runtime = createWorkerRuntime(
      { load: () => null, run: (_state, items: number[]) => items.map((n) => (n < 0 ? new RangeError(`negative: ${n}`) : n)) },
      boot(undefined),
    )
    const result = await runtime.handler({ kind: 'run', batchId: 1, payload: [1, -2, 3] })
    expect(result).toMatchObject({
      ok: true,
      value: [1, { $inferpoolItemError: { code: 'ERR_INFERENCE', message: 'negative: -2', details: { name: 'RangeError' } } }, 3],
    })
  })

  it('wraps the whole result for piscina when run asks for buffers to be transferred', async () => {
    const runtime = createWorkerRuntime(
      {
        load: () => null,
        run: (_state, _batch: null, context) => {
          const buffer = new Float32Array(4).buffer
          context.transfer(buffer)
          return { buffer }
        },
      },
      boot(undefined),
    )
    const moved = (await runtime.handler({ kind: 'run', batchId: 1, payload: null })) as unknown as Record<symbol, unknown>
    const list = moved[Piscina.transferableSymbol] as ArrayBuffer[]
    const value = moved[Piscina.valueSymbol] as TaskResult & { ok: true; kind: 'run' }
    expect(list).toHaveLength(1)
    expect(value.ok).toBe(true)
    expect((value.value as { buffer: ArrayBuffer }).buffer).toBe(list[0])
  })

  it('moves released buffers along with the result, unreferenced, once each, skipping detached and shared ones', async () => {
    const output = new Float32Array(4).buffer
    const input = new Float32Array(8).buffer
    const runtime = createWorkerRuntime(
      {
        load: () => null,
        run: (_state, _batch: null, context) => {
          const detached = new Float32Array(2).buffer
          context.transfer(output)
          context.release(input, output, detached, new SharedArrayBuffer(8) as unknown as ArrayBuffer)
          structuredClone(detached, { transfer: [detached] })
          return { output }
        },
      },
      boot(undefined),
    )
    const ran = await runtime.run({ kind: 'run', batchId: 1, payload: null })
    expect(ran.transfer).toEqual([output])
    expect(ran.release).toHaveLength(3)
    expect(ran.release[0]).toBe(input)
    const moved = (await runtime.handler({ kind: 'run', batchId: 2, payload: null })) as unknown as Record<symbol, unknown>
    expect(moved[Piscina.transferableSymbol]).toEqual([output, input])
    expect((moved[Piscina.transferableSymbol] as ArrayBuffer[])[1]).toBe(input)
    const value = moved[Piscina.valueSymbol] as TaskResult & { ok: true; kind: 'run' }
    expect(value.value).toEqual({ output })
  })

  it('releases the buffers of a run that throws, and answers a run that releases nothing unwrapped', async () => {
    const input = new Float32Array(8).buffer
    const runtime = createWorkerRuntime(
      {
        load: () => null,
        run: (_state, batch: { fail: boolean }, context) => {
          if (!batch.fail) return []
          context.release(input)
          throw new Error('bad batch')
        },
      },
      boot(undefined),
    )
    const failed = await runtime.run({ kind: 'run', batchId: 1, payload: { fail: true } })
    expect(failed.result).toMatchObject({ ok: false, error: { code: 'ERR_INFERENCE', message: 'bad batch' } })
    expect(failed.transfer).toEqual([])
    expect(failed.release).toEqual([input])
    const moved = (await runtime.handler({ kind: 'run', batchId: 2, payload: { fail: true } })) as unknown as Record<symbol, unknown>
    expect(moved[Piscina.transferableSymbol]).toEqual([input])
    expect(await runtime.handler({ kind: 'run', batchId: 3, payload: { fail: false } })).toMatchObject({ ok: true, value: [] })
  })

  it('disposes the state once, and a failing dispose does not throw', async () => {
    const disposed: number[] = []
    const runtime = createWorkerRuntime(
      {
        load: () => 5,
        run: () => [],
        dispose: (state) => {
          disposed.push(state)
          throw new Error('already released')
        },
      },
      boot(undefined),
    )
    await runtime.start()
    await runtime.dispose()
    await runtime.dispose()
    expect(disposed).toEqual([5])
  })
})

describe("a task's deadlines, checked right before the run", () => {
  /** A user worker that records the items each run got. */
  function recording(): { runtime: ReturnType<typeof createWorkerRuntime>; runs: number[][]; clock: { now: number } } {
    const runs: number[][] = []
    const clock = { now: 1_000 }
    const runtime = createWorkerRuntime(
      {
        load: () => ({}),
        run: (_state, items: number[]) => {
          runs.push(items)
          return items.map((n) => n * 10)
        },
      },
      boot(undefined),
      () => clock.now,
    )
    return { runtime, runs, clock }
  }

  it('leaves out the rows whose answer would come after their deadline, and runs the others', async () => {
    const { runtime, runs } = recording()
    // The answer is due 20 ms after the run starts, at 1,020: row 1's deadline is earlier.
    const result = await runtime.handler({ kind: 'run', batchId: 1, payload: [1, 2, 3], deadlines: [1_020, 1_019.5, Infinity], runMs: 20 })
    expect(runs).toEqual([[1, 3]])
    expect(result).toMatchObject({ ok: true, kind: 'run', value: [10, 30], dropped: [1] })
  })

  it('runs nothing when every row would be answered late', async () => {
    const { runtime, runs, clock } = recording()
    clock.now = 5_000
    const result = await runtime.handler({ kind: 'run', batchId: 2, payload: [1, 2], deadlines: [5_009.5, 5_001], runMs: 10 })
    expect(runs).toEqual([])
    expect(result).toMatchObject({ ok: true, kind: 'run', value: undefined, dropped: [0, 1] })
  })

  it('runs the whole batch when every row can make it, and says nothing of dropped rows', async () => {
    const { runtime, runs } = recording()
    const result = await runtime.handler({ kind: 'run', batchId: 3, payload: [4, 5], deadlines: [1_010, 1_011], runMs: 10 })
    expect(runs).toEqual([[4, 5]])
    expect(result).toMatchObject({ ok: true, kind: 'run', value: [40, 50] })
    expect('dropped' in result).toBe(false)
  })
})

describe('defineWorker in a real worker thread', () => {
  /** One thread of fixtures/releasing-worker.js, which answers with the sizes of every buffer it was sent. */
  const releasingThread = (): Piscina =>
    new Piscina({
      filename: fileURLToPath(new URL('./fixtures/releasing-worker.js', import.meta.url)),
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Infinity,
      workerData: { channel: '', options: null } satisfies WorkerBootData,
    })

  it("piscina posts a queued task's own transfer list array: emptied while queued, its buffers stay here (threads/transport.ts relies on it)", async () => {
    const piscina = releasingThread()
    try {
      // The thread is still starting: both tasks wait in piscina's queue.
      const moved = new ArrayBuffer(16)
      const kept = new ArrayBuffer(16)
      const first = piscina.run({ kind: 'run', batchId: 1, payload: { buffer: moved, release: false } }, { transferList: [moved] })
      const list = [kept]
      const second = piscina.run({ kind: 'run', batchId: 2, payload: { buffer: kept, release: false } }, { transferList: list })
      list.length = 0
      expect(await first).toMatchObject({ ok: true, value: [16] })
      // Cloned, not moved: the thread saw its own copy, and this side's buffer is intact.
      expect(await second).toMatchObject({ ok: true, value: [16, 16] })
      expect(moved.byteLength).toBe(0)
      expect(kept.byteLength).toBe(16)
    } finally {
      await piscina.destroy()
    }
  })

  it('moves a released buffer out of the thread with the result, and keeps one not released', async () => {
    const piscina = releasingThread()
    const send = async (release: boolean): Promise<unknown> => {
      const buffer = new ArrayBuffer(16)
      const result = (await piscina.run(
        { kind: 'run', batchId: 1, payload: { buffer, release } },
        { transferList: [buffer] },
      )) as TaskResult
      return (result as TaskResult & { ok: true; kind: 'run' }).value
    }
    try {
      expect(await send(true)).toEqual([16])
      // The first buffer left with the first result: the thread now holds it detached.
      expect(await send(false)).toEqual([0, 16])
      expect(await send(false)).toEqual([0, 16, 16])
    } finally {
      await piscina.destroy()
    }
  })

  it('a worker module whose load throws still loads, reports on the channel, and answers tasks with the error', async () => {
    const channelName = `test:${process.pid}:${Math.random()}`
    const channel = new BroadcastChannel(channelName)
    const report = new Promise<LoadReport>((resolve) => {
      channel.onmessage = (event: unknown) => resolve((event as { data: LoadReport }).data)
    })
    const piscina = new Piscina({
      filename: fileURLToPath(new URL('./fixtures/throwing-load.js', import.meta.url)),
      minThreads: 1,
      maxThreads: 1,
      workerData: { channel: channelName, options: null } satisfies WorkerBootData,
    })
    try {
      expect(await report).toMatchObject({
        type: 'loaded',
        ok: false,
        error: { code: 'ERR_MODEL_LOAD', message: 'Worker failed to load: no model here' },
      })
      const result = (await piscina.run({ kind: 'describe' })) as TaskResult
      expect(result).toMatchObject({ ok: false, error: { code: 'ERR_MODEL_LOAD', message: 'Worker failed to load: no model here' } })
    } finally {
      channel.close()
      await piscina.destroy()
    }
  })
})
