import { MessageChannel, Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QueueFullError, TimeoutError } from '@inferpool/core'
import { connectPool, createPool, exposePool, InvalidInputError, RemoteConnectTimeoutError, RemotePoolClosedError } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool, RemotePool } from '@inferpool/host'
import { demoModel, demoRequest, demoRows, http, post } from './server-helpers.js'

const pools: Pool[] = []
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

async function pool(options: Parameters<typeof createPool>[0]): Promise<Pool> {
  const p = await createPool(options)
  pools.push(p)
  return p
}

/** A pool whose batches only form once 8 rows wait: rows stay queued as long as a test needs. */
const waitingOptions = {
  model: demoModel,
  replicas: 1,
  batching: { maxBatchSize: 8, minBatchSize: 8, maxWaitMs: 600_000, maxQueueSize: 1 },
}

async function connected(p: Pool, options?: Parameters<typeof connectPool>[1]) {
  const { port1, port2 } = new MessageChannel()
  const exposed = exposePool(p, port1)
  const remote = await connectPool(port2, options)
  return { exposed, remote }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => setImmediate(resolve))
}

function row(seed: number): Float32Array {
  return Float32Array.from(demoRows(seed, 1)[0])
}

describe('connectPool over a MessagePort, against a real pool', () => {
  let demo: Pool
  let remote: RemotePool
  beforeAll(async () => {
    demo = await pool({ model: demoModel, replicas: 1 })
    ;({ remote } = await connected(demo))
  })
  afterAll(async () => {
    await remote.close()
  })

  it('has the pool metadata and stats', async () => {
    expect(remote.metadata).toEqual(demo.metadata)
    const stats = await remote.readStats()
    expect(stats.replicas).toHaveLength(1)
    expect(stats.completed).toBe(demo.stats.completed)
  })

  it('answers infer with the same outputs as the pool, each in its own buffer', async () => {
    const input = row(1)
    const direct = await demo.infer({ input: input.slice() })
    const out = await remote.infer({ input })
    expect(out.output.type).toBe('float32')
    expect(out.output.dims).toEqual([16])
    expect(out.output.data).toBeInstanceOf(Float32Array)
    expect(Array.from(out.output.data as Float32Array)).toEqual(Array.from(direct.output.data as Float32Array))
    expect((out.output.data as Float32Array).buffer.byteLength).toBe(16 * 4)
  })

  it('moves the input buffer instead of cloning it: detached as soon as infer is called', async () => {
    const input = row(2)
    const pending = remote.infer({ input })
    expect(input.byteLength).toBe(0)
    expect((await pending).output.dims).toEqual([16])
  })

  it('copies a view into a larger buffer rather than detaching its neighbours', async () => {
    const backing = new Float32Array(1024).fill(0.5)
    const view = backing.subarray(256, 512)
    const direct = await demo.infer({ input: view.slice() })
    const out = await remote.infer({ input: view })
    expect(backing.byteLength).toBe(4096)
    expect(backing[0]).toBe(0.5)
    expect(Array.from(out.output.data as Float32Array)).toEqual(Array.from(direct.output.data as Float32Array))
  })

  it('leaves the caller buffer alone with transferInputs: false', async () => {
    const { remote: copying } = await connected(demo, { transferInputs: false })
    const input = row(3)
    await copying.infer({ input })
    expect(input.byteLength).toBe(1024)
    await copying.close()
  })

  it('rejects with the pool error rebuilt in its class, with code, message and details', async () => {
    const direct = await demo.infer({ nope: new Float32Array(3) } as never).catch((error: unknown) => error)
    const error = await remote.infer({ nope: new Float32Array(3) } as never).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toMatchObject({
      name: 'InvalidInputError',
      code: 'ERR_INVALID_INPUT',
      message: (direct as Error).message,
      details: (direct as InvalidInputError).details,
    })
  })
})

describe('a remote pool behind the HTTP server', () => {
  it('serves inference, metadata and the pool stats from a pool reached over a port', async () => {
    const demo = await pool({ model: demoModel, replicas: 1 })
    const { remote, exposed } = await connected(demo)
    const server = await serve({ demo: remote }, { port: 0 })
    const rows = demoRows(13, 2)
    const res = await post(`${server.url}/v2/models/demo/infer`, demoRequest(rows))
    const direct = await Promise.all(rows.map((r) => demo.infer({ input: Float32Array.from(r) })))
    expect(res.status).toBe(200)
    expect((res.json as { outputs: Array<{ data: number[] }> }).outputs[0].data).toEqual(
      direct.flatMap((d) => Array.from(d.output.data as Float32Array)),
    )
    expect((await http(`${server.url}/v2/models/demo`)).json).toMatchObject({ inputs: [{ name: 'input', shape: [-1, 256] }] })
    const metrics = (await http(`${server.url}/metrics`)).text
    expect(metrics).toContain('inferpool_requests_total{model="demo",version="1",protocol="http",status="200"} 1')
    expect(metrics).toContain('inferpool_queue_length{model="demo"} 0')
    expect(metrics).toContain(`inferpool_rows_completed_total{model="demo"} ${demo.stats.completed}`)
    // Batch histograms come from pool events, which stay in the pool's own thread.
    expect(metrics).not.toContain('inferpool_batch_size_count{')
    // The server owns what it was given: closing it releases the connection, not the pool.
    await server.close()
    await until(() => exposed.pending === 0)
    await expect(remote.infer({ input: row(14) })).rejects.toBeInstanceOf(RemotePoolClosedError)
    expect((await demo.infer({ input: row(14) })).output.dims).toEqual([16])
  })

  it('refuses what is not a MessagePort', async () => {
    const demo = await pool({ model: demoModel, replicas: 1 })
    expect(() => exposePool(demo, {} as never)).toThrow(
      new TypeError('Expected `port` to be a MessagePort from node:worker_threads, got `[object Object]`'),
    )
    await expect(connectPool({} as never)).rejects.toThrow(TypeError)
  })

  it('gives up on a port nobody serves after connectTimeoutMs', async () => {
    const { port2 } = new MessageChannel()
    const error = await connectPool(port2, { connectTimeoutMs: 20 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RemoteConnectTimeoutError)
    expect(error).toMatchObject({ code: 'ERR_REMOTE_CONNECT_TIMEOUT', details: { timeoutMs: 20 } })
  })
})

describe('queue errors, timeouts and aborts across the port', () => {
  let waiting: Pool
  let remote: RemotePool
  beforeAll(async () => {
    waiting = await pool(waitingOptions)
    ;({ remote } = await connected(waiting))
  })
  afterAll(async () => {
    await remote.close({ drain: false })
  })

  it('rejects with QueueFullError (code, details) when the pool queue is full; the AbortSignal takes the row out', async () => {
    const controller = new AbortController()
    const first = remote.infer({ input: row(4) }, { signal: controller.signal })
    await until(() => waiting.stats.queued === 1)
    const full = await remote.infer({ input: row(5) }).catch((e: unknown) => e)
    expect(full).toBeInstanceOf(QueueFullError)
    expect(full).toMatchObject({ code: 'ERR_QUEUE_FULL', details: { maxQueueSize: 1 } })

    const reason = new Error('caller gave up')
    const cancelledBefore = waiting.stats.cancelled
    controller.abort(reason)
    await expect(first).rejects.toBe(reason)
    await until(() => waiting.stats.queued === 0)
    expect(waiting.stats.cancelled).toBe(cancelledBefore + 1)
    expect(remote.pending).toBe(0)
  })

  it('rejects at once for a signal aborted before the call', async () => {
    const reason = new Error('already')
    await expect(remote.infer({ input: row(6) }, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
    expect(waiting.stats.queued).toBe(0)
  })

  it('passes timeoutMs to the pool and rejects with TimeoutError', async () => {
    const error = await remote.infer({ input: row(7) }, { timeoutMs: 20 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(error).toMatchObject({ code: 'ERR_TIMEOUT', details: { timeoutMs: 20 } })
  })
})

describe('releasing', () => {
  it('close({ drain: false }) after a draining close() rejects the pending call at once and takes its row out of the queue', async () => {
    const demo = await pool({ ...waitingOptions, batching: { ...waitingOptions.batching, minBatchSize: 2, maxQueueSize: 8 } })
    const { remote } = await connected(demo)
    const pending = remote.infer({ input: row(11) })
    await until(() => demo.stats.queued === 1)
    const draining = remote.close()
    expect({ closed: remote.closed, destroyed: remote.destroyed }).toEqual({ closed: true, destroyed: false })
    const hard = remote.close({ drain: false })
    await expect(pending).rejects.toMatchObject({ code: 'ERR_REMOTE_CLOSED' })
    await Promise.all([draining, hard])
    await until(() => demo.stats.queued === 0)
    expect(remote.pending).toBe(0)
  })

  it('destroy(err) after close() rejects the pending call with err at once and closes the port', async () => {
    const demo = await pool({ ...waitingOptions, batching: { ...waitingOptions.batching, minBatchSize: 2, maxQueueSize: 8 } })
    const { remote, exposed } = await connected(demo)
    const pending = remote.infer({ input: row(12) })
    await until(() => demo.stats.queued === 1)
    const draining = remote.close()
    const reason = new Error('client going away')
    const destroyed = remote.destroy(reason)
    expect(remote.destroyed).toBe(true)
    await expect(pending).rejects.toBe(reason)
    await Promise.all([draining, destroyed])
    expect(remote.close()).toBe(destroyed)
    await until(() => exposed.pending === 0 && demo.stats.queued === 0)
  })

  it('close() waits for pending calls, then rejects new ones with RemotePoolClosedError', async () => {
    const demo = await pool({ ...waitingOptions, batching: { ...waitingOptions.batching, minBatchSize: 2, maxQueueSize: 8 } })
    const { remote, exposed } = await connected(demo)
    const first = remote.infer({ input: row(8) })
    await until(() => demo.stats.queued === 1)
    const closed = remote.close()
    const refused = await remote.infer({ input: row(9) }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(RemotePoolClosedError)
    expect(refused).toMatchObject({ code: 'ERR_REMOTE_CLOSED' })
    // A second row from elsewhere fills the batch: the pending call settles, close() completes.
    const other = demo.infer({ input: row(10) })
    expect((await first).output.dims).toEqual([16])
    await other
    await closed
    expect(remote.close()).toBe(closed)
    await until(() => exposed.pending === 0)
  })

  it('rejects pending calls with ERR_REMOTE_CLOSED when the exposing side closes, and their rows leave the queue', async () => {
    const demo = await pool(waitingOptions)
    const { remote, exposed } = await connected(demo)
    const pending = remote.infer({ input: row(11) })
    await until(() => demo.stats.queued === 1)
    exposed.close()
    await expect(pending).rejects.toMatchObject({ code: 'ERR_REMOTE_CLOSED' })
    await until(() => demo.stats.queued === 0)
    await expect(remote.infer({ input: row(12) })).rejects.toBeInstanceOf(RemotePoolClosedError)
  })
})

function startWorker(file: string, workerData: Record<string, unknown>, transferList: never[]): Worker {
  return new Worker(new URL(file, import.meta.url), { workerData, transferList })
}

function nextMessage<T>(worker: Worker, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string }): void => {
      if (message.type !== type) return
      worker.off('message', onMessage)
      worker.off('error', reject)
      resolve(message as T)
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
  })
}

describe('real worker threads feeding one pool in the main thread', () => {
  it('two HTTP server threads share batches of one pool, and shut down cleanly', async () => {
    const shared = await pool({ model: demoModel, replicas: 1, batching: { maxBatchSize: 8, minBatchSize: 8, maxWaitMs: 600_000 } })
    const reference = await pool({ model: demoModel, replicas: 1 })
    const exposed = [0, 1]
      .map(() => new MessageChannel())
      .map(({ port1, port2 }) => ({
        handle: exposePool(shared, port1),
        worker: startWorker('./remote-http-worker.mjs', { port: port2 }, [port2 as never]),
      }))
    const workers = exposed.map((e) => e.worker)
    const urls = await Promise.all(workers.map((w) => nextMessage<{ url: string }>(w, 'listening').then((m) => m.url)))

    // 4 single-row requests to each thread; a batch forms only once 8 rows wait, so it
    // can only form from rows of both threads together.
    const rows = demoRows(31, 8)
    const batchesBefore = shared.stats.batches
    const answers = await Promise.all(rows.map((r, i) => post(`${urls[i % 2]}/v2/models/demo/infer`, demoRequest([r]))))
    expect(answers.map((a) => a.status)).toEqual(new Array(8).fill(200))
    expect(shared.stats.batches - batchesBefore).toBe(1)
    const expected = await Promise.all(rows.map((r) => reference.infer({ input: Float32Array.from(r) })))
    expect(answers.map((a) => (a.json as { outputs: Array<{ data: number[] }> }).outputs[0].data)).toEqual(
      expected.map((e) => Array.from(e.output.data as Float32Array)),
    )

    const exits = workers.map((w) => new Promise<number>((resolve) => w.once('exit', resolve)))
    for (const w of workers) w.postMessage({ type: 'close' })
    const closed = await Promise.all(workers.map((w) => nextMessage<{ result: unknown; pending: number }>(w, 'closed')))
    expect(closed).toEqual([
      { type: 'closed', result: { forced: false, lost: 0 }, pending: 0 },
      { type: 'closed', result: { forced: false, lost: 0 }, pending: 0 },
    ])
    expect(await Promise.all(exits)).toEqual([0, 0])
    // The threads released their connections; the pool itself stays open for its owner.
    expect(exposed.map((e) => e.handle.pending)).toEqual([0, 0])
    const direct = await Promise.all(rows.map((r) => shared.infer({ input: Float32Array.from(r) })))
    expect(direct.map((d) => d.output.dims)).toEqual(new Array(8).fill([16]))
  })

  it('a client thread gets results and errors rebuilt in their classes on its side', async () => {
    const demo = await pool({ model: demoModel, replicas: 1 })
    const { port1, port2 } = new MessageChannel()
    exposePool(demo, port1)
    const worker = startWorker('./remote-client-worker.mjs', { port: port2 }, [port2 as never])
    const [result, error, closed] = await Promise.all([
      nextMessage<{
        inputByteLength: number
        sent: number[]
        output: { type: string; dims: number[]; data: number[]; isFloat32: boolean }
      }>(worker, 'result'),
      nextMessage<Record<string, unknown>>(worker, 'error'),
      nextMessage<Record<string, unknown>>(worker, 'closed'),
    ])
    const direct = await demo.infer({ input: Float32Array.from(result.sent) })
    expect(result).toMatchObject({
      inputByteLength: 0,
      output: { type: 'float32', dims: [16], isFloat32: true, data: Array.from(direct.output.data as Float32Array) },
    })
    expect(error).toMatchObject({
      name: 'InvalidInputError',
      code: 'ERR_INVALID_INPUT',
      isInvalidInputError: true,
      isInferpoolError: true,
    })
    expect(closed).toMatchObject({ code: 'ERR_REMOTE_CLOSED', isClosedError: true })
  })

  it('a client thread that ends with a call pending: the row is aborted in the pool', async () => {
    const waiting = await pool(waitingOptions)
    const { port1, port2 } = new MessageChannel()
    const exposed = exposePool(waiting, port1)
    const worker = startWorker('./remote-client-worker.mjs', { port: port2, script: 'hang' }, [port2 as never])
    await nextMessage(worker, 'submitted')
    await until(() => waiting.stats.queued === 1)
    await worker.terminate()
    await until(() => waiting.stats.queued === 0)
    expect(exposed.pending).toBe(0)
    expect(waiting.stats.cancelled).toBe(1)
  })
})
