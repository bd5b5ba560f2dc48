/**
 * Graceful shutdown of `createServer`/`serve` in this process (the signal path is
 * exercised through the CLI in cli.test.ts): requests in progress and rows in the
 * queue are all answered, then the pools close.
 */
import { createServer as createHttpServer, request } from 'node:http'
import { connect as connectHttp2 } from 'node:http2'
import type { ClientHttp2Stream } from 'node:http2'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { createRequestHandler, GRPC_SERVICE_DEFINITION, serve } from '@inferpool/server'
import type { Pool, RowInput, RowOutput } from '@inferpool/host'
import { workers } from '../../host/test/fixtures/models.js'
import { grpcClient, rawBytes } from './grpc-helpers.js'
import { demoModel, demoRequest, demoRows, http, post, until } from './server-helpers.js'
import type { HttpResult } from './server-helpers.js'

const pools: Pool[] = []
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

/** A pool whose batches only form once 64 rows wait: rows stay queued until close() flushes them. */
async function waitingPool(): Promise<Pool> {
  const pool = await createPool({
    model: demoModel,
    replicas: 1,
    batching: { maxBatchSize: 64, minBatchSize: 64, maxWaitMs: 600_000 },
  })
  pools.push(pool)
  return pool
}

type Out = { outputs: Array<{ data: number[] }> }

/** A whole, framed (5-byte prefix) ModelInferRequest of one demo row. */
function framedDemoRequest(seed: number): Buffer {
  const message = GRPC_SERVICE_DEFINITION.ModelInfer.requestSerialize({
    model_name: 'demo',
    inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256] }],
    raw_input_contents: [rawBytes(Float32Array.from(demoRows(seed, 1)[0]))],
  })
  const prefix = Buffer.alloc(5)
  prefix.writeUInt32BE(message.length, 1)
  return Buffer.concat([prefix, message])
}

/** A ModelInfer call on its own raw HTTP/2 session, its message written by the caller; `ended`: its status, our code, responses. */
function rawModelInfer(address: string): {
  stream: ClientHttp2Stream
  ended: Promise<{ status: number | undefined; code: string | undefined; messages: number }>
} {
  const session = connectHttp2(`http://${address}`)
  session.on('error', () => {})
  const stream = session.request(
    { ':method': 'POST', ':path': '/inference.GRPCInferenceService/ModelInfer', 'content-type': 'application/grpc', te: 'trailers' },
    { endStream: false },
  )
  const end = { status: undefined as number | undefined, code: undefined as string | undefined, messages: 0 }
  const read = (fields: Record<string, unknown>): void => {
    if (fields['grpc-status'] !== undefined) end.status = Number(fields['grpc-status'])
    if (fields['inferpool-code'] !== undefined) end.code = String(fields['inferpool-code'])
  }
  stream.on('response', read)
  stream.on('trailers', read)
  stream.on('data', (chunk: Buffer) => {
    if (chunk.length >= 5) end.messages++
  })
  stream.on('error', () => {})
  const ended = new Promise<typeof end>((resolve) =>
    stream.on('close', () => {
      session.destroy()
      resolve(end)
    }),
  )
  return { stream, ended }
}

/**
 * A POST of `body` whose first bytes only (`first`; none when undefined: not even the
 * headers) are sent now; the caller sends the rest with `req.end(...)`.
 */
function partialPost(
  url: string,
  body: string,
  first: string | undefined,
): { req: ReturnType<typeof request>; answer: Promise<{ status: number; text: string; connection: string | undefined }> } {
  let req!: ReturnType<typeof request>
  const answer = new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
    req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), connection: res.headers.connection }),
        )
      },
    )
    req.on('error', reject)
    if (first !== undefined) req.write(first)
  })
  return { req, answer }
}

describe('graceful shutdown', () => {
  it('answers every request in flight and every queued row, then closes the pool and the port', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0 })
    const url = server.url as string
    const rows = demoRows(21, 10)
    const answers = Promise.all(rows.map((row) => post(`${url}/v2/models/demo/infer`, demoRequest([row]))))
    await until(() => pool.stats.queued === 10)

    const result = await server.close()

    expect(result).toEqual({ forced: false, lost: 0 })
    const answered = await answers
    expect(answered.map((a) => a.status)).toEqual(new Array(10).fill(200))
    // Same results as the rows run anywhere else (the demo model is deterministic).
    const reference = await createPool({ model: demoModel, replicas: 1 })
    pools.push(reference)
    const expected = await Promise.all(rows.map((row) => reference.infer({ input: Float32Array.from(row) })))
    expect(answered.map((a) => (a.json as Out).outputs[0].data)).toEqual(expected.map((e) => Array.from(e.output.data as Float32Array)))
    await expect(pool.infer({ input: new Float32Array(256) })).rejects.toMatchObject({ code: 'ERR_BATCHER_CLOSED' })
    await expect(http(`${url}/v2/health/live`)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(server.server.listening).toBe(false)
  })

  it('serves a request whose body was still arriving when a draining close began', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0 })
    const body = JSON.stringify(demoRequest(demoRows(22, 1)))
    const half = Math.floor(body.length / 2)
    const sent = partialPost(`${server.url}/v2/models/demo/infer`, body, body.slice(0, half))
    await until(() => server.handler.pendingBodyBytes.held > 0)

    const closing = server.close()
    await until(() => server.handler.closed)
    sent.req.end(body.slice(half))

    const { status, text } = await sent.answer
    expect(status).toBe(200)
    expect((JSON.parse(text) as Out).outputs[0].data).toHaveLength(16)
    expect(await closing).toEqual({ forced: false, lost: 0 })
    expect(pool.stats.submitted).toBe(1)
  })

  it('serves ten 512-row requests whose bodies were just written when the draining close began (parked or still read)', async () => {
    // A queue of 1,024 rows: of ten 512-row requests, some are admitted, the others wait for room
    // (at the door, or in the queue when the door's estimate from the length let them in).
    const pool = await createPool({ model: demoModel, replicas: 1, batching: { maxBatchSize: 64, maxQueueSize: 1024, whenFull: 'wait' } })
    pools.push(pool)
    const server = await serve({ demo: pool }, { port: 0, admissionWaitMs: 600_000, shutdownTimeoutMs: 600_000 })
    const body = JSON.stringify(demoRequest(demoRows(30, 512)))
    const sent = Array.from({ length: 10 }, () => partialPost(`${server.url}/v2/models/demo/infer`, body, undefined))
    await Promise.all(sent.map(({ req }) => new Promise<void>((resolve) => req.end(body, resolve))))

    const closing = server.close()
    const answers = await Promise.all(sent.map(({ answer }) => answer))
    expect(answers.map(({ status, text }) => (status === 200 ? 200 : text))).toEqual(new Array(10).fill(200))
    expect(await closing).toEqual({ forced: false, lost: 0 })
  })

  it('serves an inference request whose bytes reached the process before the handler closed, not yet read', async () => {
    const pool = await createPool({ model: demoModel, replicas: 1 })
    pools.push(pool)
    const handler = createRequestHandler({ demo: pool })
    const plain = createHttpServer(handler)
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
    const { port } = plain.address() as AddressInfo
    const body = JSON.stringify(demoRequest(demoRows(31, 1)))
    const sent = partialPost(`http://127.0.0.1:${port}/v2/models/demo/infer`, body, undefined)
    await new Promise<void>((resolve) => sent.req.once('socket', (socket) => socket.once('connect', resolve)))

    // In one turn of the event loop: the request is written (into the kernel), then the handler closes.
    sent.req.end(body)
    expect(sent.req.socket?.writableLength).toBe(0)
    const closing = handler.close()

    expect((await sent.answer).status).toBe(200)
    await closing
    plain.close()
  })

  it('answers a body that stalls during a draining close 408 at the body timeout, and the answer reaches the client', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0, bodyTimeoutMs: 200, shutdownTimeoutMs: 600_000 })
    const body = JSON.stringify(demoRequest(demoRows(22, 1)))
    // Half the body, and the rest never: a stalled client.
    const sent = partialPost(`${server.url}/v2/models/demo/infer`, body, body.slice(0, Math.floor(body.length / 2)))
    await until(() => server.handler.pendingBodyBytes.held > 0)

    expect(await server.close()).toEqual({ forced: false, lost: 0 })
    const { status, text, connection } = await sent.answer
    expect(status).toBe(408)
    expect(JSON.parse(text)).toMatchObject({ code: 'ERR_REQUEST_TIMEOUT' })
    expect(connection).toBe('close')
    expect(pool.stats.submitted).toBe(0)
  })

  it('refuses an inference request that arrives after the signal, on a connection accepted before it', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0 })
    let accepted = 0
    server.server.on('connection', () => accepted++)
    const body = JSON.stringify(demoRequest(demoRows(22, 1)))
    const sent = partialPost(`${server.url}/v2/models/demo/infer`, body, undefined)
    await until(() => accepted === 1)

    const closing = server.close()
    // Closed: past the round of reads that takes what had reached the process (the request had not).
    await until(() => server.handler.served.closed)
    sent.req.end(body)

    const { status, text } = await sent.answer
    expect({ status, body: JSON.parse(text) as unknown }).toEqual({
      status: 503,
      body: { error: 'Server is shutting down', code: 'ERR_SHUTTING_DOWN' },
    })
    expect(await closing).toEqual({ forced: false, lost: 0 })
  })

  it('serves a gRPC call whose message was still arriving when a draining close began', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0, grpcPort: 0 })
    const call = rawModelInfer(server.grpcAddress as string)
    const framed = framedDemoRequest(28)
    call.stream.write(framed.subarray(0, 100))
    await until(() => server.handler.pendingBodyBytes.held > 0)

    const closing = server.close()
    await until(() => server.handler.closed)
    call.stream.end(framed.subarray(100))

    expect(await call.ended).toEqual({ status: 0, code: undefined, messages: 1 })
    expect(await closing).toEqual({ forced: false, lost: 0 })
    expect(pool.stats.submitted).toBe(1)
  })

  it('ends a gRPC call whose message stalls during a draining close with DEADLINE_EXCEEDED at the body timeout', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0, grpcPort: 0, bodyTimeoutMs: 200, shutdownTimeoutMs: 600_000 })
    const call = rawModelInfer(server.grpcAddress as string)
    call.stream.write(framedDemoRequest(29).subarray(0, 100))
    await until(() => server.handler.pendingBodyBytes.held > 0)

    expect(await server.close()).toEqual({ forced: false, lost: 0 })
    expect(await call.ended).toEqual({ status: 4, code: 'ERR_REQUEST_TIMEOUT', messages: 0 })
    expect(pool.stats.submitted).toBe(0)
  })

  it('answers a connection accepted before close() whose request comes after it, instead of resetting it', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0 })
    let accepted = 0
    server.server.on('connection', () => accepted++)
    const { port } = new URL(server.url as string)
    const socket = connect(Number(port), '127.0.0.1')
    await until(() => accepted === 1)

    const closed = server.close()
    const reply = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = []
      socket.on('data', (c: Buffer) => chunks.push(c))
      socket.on('end', () => resolve(Buffer.concat(chunks).toString()))
      socket.on('error', reject)
    })
    socket.end('GET /v2/health/ready HTTP/1.1\r\nHost: x\r\n\r\n')
    const text = await reply
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable')
    expect(text).toContain('"ready":false')
    expect(await closed).toEqual({ forced: false, lost: 0 })
  })

  it('cuts off what is left when shutdownTimeoutMs passes, and says so', async () => {
    const pool = await waitingPool()
    // closePools: false leaves the queued row where it is, so only the timeout can end the wait.
    const server = await serve({ demo: pool }, { port: 0, closePools: false, shutdownTimeoutMs: 20 })
    const stuck = post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(23, 1)))
    await until(() => pool.stats.queued === 1)

    expect(await server.close()).toEqual({ forced: true, lost: 1 })
    await expect(stuck).rejects.toMatchObject({ code: 'ECONNRESET' })
  })

  it('counts a gRPC request cut off by the timeout in lost, as an HTTP one', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0, grpcPort: 0, closePools: false, shutdownTimeoutMs: 20 })
    const client = grpcClient(server.grpcAddress as string)
    const stuck = client.call('ModelInfer', {
      model_name: 'demo',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256] }],
      raw_input_contents: [rawBytes(Float32Array.from(demoRows(27, 1)[0]))],
    })
    await until(() => pool.stats.queued === 1)

    expect(await server.close()).toEqual({ forced: true, lost: 1 })
    expect(await stuck).toMatchObject({ ok: false })
    client.close()
  })

  it('returns the same promise from a second close()', async () => {
    const pool = await waitingPool()
    const server = await serve({ demo: pool }, { port: 0 })
    const first = server.close()
    expect(server.close()).toBe(first)
    await first
  })
})

/**
 * A pool whose single replica runs one row at a time; a row with a negative first value
 * runs until the test opens the gate (never, in these tests), so rows sent after it stay
 * queued. `end()` releases it for cleanup.
 */
async function heldPool(): Promise<{ pool: Pool; end(): Promise<void> }> {
  const gate = new Int32Array(new SharedArrayBuffer(4))
  const pool = await createPool<RowInput, RowOutput>({
    model: demoModel,
    worker: workers.gatedEcho,
    workerOptions: { gate },
    replicas: 1,
    batching: { maxBatchSize: 1 },
  })
  return {
    pool,
    async end() {
      Atomics.store(gate, 0, 1)
      Atomics.notify(gate, 0)
      await pool.destroy()
    },
  }
}

const rowRequest = (first: number) => ({ inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: [first, 1, 2, 3] }] })

/** Sends a row that runs forever and two that queue behind it; resolves once they do. */
async function heldAndQueued(url: string, pool: Pool): Promise<Array<Promise<HttpResult>>> {
  const held = post(`${url}/v2/models/m/infer`, rowRequest(-1))
  await until(() => pool.stats.inFlight === 1)
  const queued = [post(`${url}/v2/models/m/infer`, rowRequest(1)), post(`${url}/v2/models/m/infer`, rowRequest(2))]
  await until(() => pool.stats.queued === 2)
  return [held, ...queued]
}

const answer = (r: HttpResult) => ({ status: r.status, code: (r.json as { code?: string } | undefined)?.code })

describe('forced shutdown and escalation (closePools: true)', () => {
  it('when shutdownTimeoutMs passes, queued rows fail with 503 and the row still running is answered 503 too', async () => {
    const { pool, end } = await heldPool()
    const server = await serve({ m: pool }, { port: 0, shutdownTimeoutMs: 50 })
    const [held, ...queued] = await heldAndQueued(server.url as string, pool)

    expect(await server.close()).toEqual({ forced: true, lost: 3 })

    expect(answer(await held)).toEqual({ status: 503, code: 'ERR_SHUTTING_DOWN' })
    expect((await Promise.all(queued)).map(answer)).toEqual([
      { status: 503, code: 'ERR_BATCHER_CLOSED' },
      { status: 503, code: 'ERR_BATCHER_CLOSED' },
    ])
    expect({ poolClosed: pool.closed, serverClosed: server.closed, destroyed: server.destroyed }).toEqual({
      poolClosed: true,
      serverClosed: true,
      destroyed: false,
    })
    expect(server.server.listening).toBe(false)
    await end()
  })

  it('close({ drain: false }) during a graceful close() forces the shutdown at once; both calls resolve forced', async () => {
    const { pool, end } = await heldPool()
    const server = await serve({ m: pool }, { port: 0, shutdownTimeoutMs: 600_000 })
    const [held, ...queued] = await heldAndQueued(server.url as string, pool)

    const graceful = server.close()
    const hard = server.close({ drain: false })

    expect(await Promise.all([graceful, hard])).toEqual([
      { forced: true, lost: 3 },
      { forced: true, lost: 3 },
    ])
    expect(answer(await held)).toEqual({ status: 503, code: 'ERR_SHUTTING_DOWN' })
    expect((await Promise.all(queued)).map(answer)).toEqual([
      { status: 503, code: 'ERR_BATCHER_CLOSED' },
      { status: 503, code: 'ERR_BATCHER_CLOSED' },
    ])
    expect(server.handler.closed).toBe(true)
    await end()
  })

  it('destroy() during a graceful close() answers every request 503 at once and destroys the pools', async () => {
    const { pool, end } = await heldPool()
    const server = await serve({ m: pool }, { port: 0, shutdownTimeoutMs: 600_000 })
    const requests = await heldAndQueued(server.url as string, pool)

    const graceful = server.close()
    const destroyed = server.destroy(new Error('operator said stop'))

    expect(await Promise.all([graceful, destroyed])).toEqual([
      { forced: true, lost: 3 },
      { forced: true, lost: 3 },
    ])
    expect((await Promise.all(requests)).map(answer)).toEqual(new Array(3).fill({ status: 503, code: 'ERR_SHUTTING_DOWN' }))
    expect({ destroyed: server.destroyed, handlerDestroyed: server.handler.destroyed }).toEqual({ destroyed: true, handlerDestroyed: true })
    await until(() => pool.destroyed)
    await end()
  })
})

describe('requests parked at the door when the shutdown begins', () => {
  it('serves a request that arrived before a draining close and waits for room, as accepted work', async () => {
    const gate = new Int32Array(new SharedArrayBuffer(4))
    const pool = await createPool<RowInput, RowOutput>({
      model: demoModel,
      worker: workers.gatedEcho,
      workerOptions: { gate },
      replicas: 1,
      batching: { maxBatchSize: 1, maxQueueSize: 1 },
    })
    pools.push(pool)
    const server = await serve({ m: pool }, { port: 0, admissionWaitMs: 600_000, shutdownTimeoutMs: 60_000 })
    const url = server.url as string
    // One row running until the gate opens, one filling the queue, one parked at the door.
    const held = post(`${url}/v2/models/m/infer`, rowRequest(-1))
    await until(() => pool.stats.inFlight === 1)
    const queued = post(`${url}/v2/models/m/infer`, rowRequest(1))
    await until(() => pool.stats.queued === 1)
    const parked = post(`${url}/v2/models/m/infer`, rowRequest(2))
    // Parked at the door (not merely reading its body): what the shutdown must not refuse.
    await until(() => server.handler.served.door(pool).parked === 1)

    const closing = server.close()
    await until(() => server.handler.closed)
    Atomics.store(gate, 0, 1)
    Atomics.notify(gate, 0)

    const answers = await Promise.all([held, queued, parked])
    expect(answers.map(answer)).toEqual([
      { status: 200, code: undefined },
      { status: 200, code: undefined },
      { status: 200, code: undefined },
    ])
    expect((answers[2].json as Out).outputs[0].data).toEqual([4, 2, 4, 6])
    expect(await closing).toEqual({ forced: false, lost: 0 })
    expect(pool.stats).toMatchObject({ submitted: 3, rejected: 0 })
  })

  it('serves a gRPC request that arrived before a draining close and waits for room, as HTTP does', async () => {
    // Batches of 2 only: a lone row stays queued until another joins it (or close() flushes it).
    const pool = await createPool({
      model: demoModel,
      replicas: 1,
      batching: { minBatchSize: 2, maxBatchSize: 2, maxWaitMs: 600_000, maxQueueSize: 3 },
    })
    pools.push(pool)
    const server = await serve({ m: pool }, { port: 0, grpcPort: 0, admissionWaitMs: 600_000, shutdownTimeoutMs: 60_000 })
    const client = grpcClient(server.grpcAddress as string)
    const infer = (rows: number[][]) => ({
      model_name: 'm',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [rows.length, 256] }],
      raw_input_contents: [rawBytes(Float32Array.from(rows.flat()))],
    })
    const door = server.handler.served.door(pool)
    const queued = client.call('ModelInfer', infer(demoRows(24, 1)))
    await until(() => pool.stats.queued === 1)
    // 1 + 3 rows do not fit a queue of 3: the call waits at the door.
    const parked = client.call('ModelInfer', infer(demoRows(25, 3)))
    await until(() => door.parked === 1)

    const closing = server.close()
    await until(() => server.handler.closed)
    // A row straight into the pool completes a batch with the queued one: room frees.
    const direct = pool.infer({ input: Float32Array.from(demoRows(26, 1)[0]) })

    const [one, three] = await Promise.all([queued, parked, direct])
    expect(one.ok && one.response.outputs[0].shape).toEqual([1, 16])
    expect(three.ok ? three.response.outputs[0].shape : three).toEqual([3, 16])
    expect(await closing).toEqual({ forced: false, lost: 0 })
    client.close()
  })
})
