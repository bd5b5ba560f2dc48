/**
 * gRPC calls from hostile or stalled clients: the call guard (src/grpc/call-guard.ts)
 * checks the bearer token as a call starts, ends a request that does not arrive within
 * `bodyTimeoutMs`, and draws every byte still arriving from the budget HTTP bodies share
 * (`maxPendingBodyBytes`). Real HTTP/2 on 127.0.0.1: a raw node:http2 client that
 * declares a message length and stalls part way, and @grpc/grpc-js clients.
 */
import { connect, constants } from 'node:http2'
import type { ClientHttp2Session, ClientHttp2Stream } from 'node:http2'
import { request } from 'node:http'
import * as grpc from '@grpc/grpc-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { createGrpcService, createRequestHandler, createServer, GRPC_SERVICE_DEFINITION, serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { drain, grpcClient, rawBytes } from './grpc-helpers.js'
import type { Message, Outcome, TestClient } from './grpc-helpers.js'
import { demoModel, demoRequest, demoRows, metric, post, until } from './server-helpers.js'

const quiet = { error() {}, info() {}, warn() {} }
const TOKEN = 'sekret'
const UNAUTHENTICATED = 16
const DEADLINE_EXCEEDED = 4
const UNAVAILABLE = 14
const RESOURCE_EXHAUSTED = 8

let demo: Pool
const servers: InferpoolServer[] = []
const sessions: ClientHttp2Session[] = []
const clients: TestClient[] = []
beforeAll(async () => {
  demo = await createPool({ model: demoModel, replicas: 1, logger: quiet })
})
afterAll(async () => {
  for (const client of clients) client.close()
  for (const session of sessions) session.destroy()
  await Promise.all(servers.map((s) => s.close({ drain: false })))
  await demo.close()
})

async function server(options: Parameters<typeof serve>[1] = {}): Promise<InferpoolServer> {
  const s = await serve({ demo }, { port: 0, grpcPort: 0, closePools: false, logger: quiet, ...options })
  servers.push(s)
  return s
}

function client(s: InferpoolServer): TestClient {
  const c = grpcClient(s.grpcAddress as string)
  clients.push(c)
  return c
}

function session(s: InferpoolServer): ClientHttp2Session {
  const h2 = connect(`http://${s.grpcAddress as string}`)
  h2.on('error', () => {})
  sessions.push(h2)
  return h2
}

/** How a raw call ended: its gRPC status and our code (from the trailers, or a trailers-only answer). */
interface RawEnd {
  status: number | undefined
  code: string | undefined
  /** Messages received before the end. */
  messages: number
}

/** A call opened on a raw HTTP/2 session; `send` writes bytes, `ended` settles with how it ended. */
function rawCall(
  h2: ClientHttp2Session,
  rpc: string,
  token?: string,
): { stream: ClientHttp2Stream; ended: Promise<RawEnd>; messages(): number } {
  const headers: Record<string, string> = {
    ':method': 'POST',
    ':path': `/inference.GRPCInferenceService/${rpc}`,
    'content-type': 'application/grpc',
    te: 'trailers',
  }
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  const stream = h2.request(headers, { endStream: false })
  const end: RawEnd = { status: undefined, code: undefined, messages: 0 }
  const read = (fields: Record<string, unknown>): void => {
    if (fields['grpc-status'] !== undefined) end.status = Number(fields['grpc-status'])
    if (fields['inferpool-code'] !== undefined) end.code = String(fields['inferpool-code'])
  }
  stream.on('response', read)
  stream.on('trailers', read)
  stream.on('data', (chunk: Buffer) => {
    // Each response here fits one DATA frame's chunk; counting its prefixes is enough.
    if (chunk.length >= 5) end.messages++
  })
  stream.on('error', () => {})
  const ended = new Promise<RawEnd>((resolve) => stream.on('close', () => resolve(end)))
  return { stream, ended, messages: () => end.messages }
}

/** A gRPC message prefix declaring `length` bytes (uncompressed). */
function prefix(length: number): Buffer {
  const bytes = Buffer.alloc(5)
  bytes.writeUInt32BE(length, 1)
  return bytes
}

/** A whole, framed ModelInferRequest for the demo model (`model`: a pool of it by another name). */
function framedDemoRequest(seed: number, id: string, rows = 1, model = 'demo'): Buffer {
  const message = GRPC_SERVICE_DEFINITION.ModelInfer.requestSerialize({
    model_name: model,
    id,
    inputs: [{ name: 'input', datatype: 'FP32', shape: [rows, 256] }],
    raw_input_contents: [rawBytes(Float32Array.from(demoRows(seed, rows).flat()))],
  })
  return Buffer.concat([prefix(message.length), message])
}

function failure(outcome: Outcome<Message>): { code: number; inferpoolCode: string | undefined } {
  if (outcome.ok) throw new Error('expected a failure, got a response')
  return { code: outcome.code, inferpoolCode: outcome.metadata['inferpool-code'] }
}

describe('a call without the bearer token', () => {
  it('is answered UNAUTHENTICATED as it starts, while its declared 16 MiB message is still arriving, and holds no bytes', async () => {
    const s = await server({ apiKey: TOKEN, bodyTimeoutMs: 60_000 })
    const h2 = session(s)
    const calls = Array.from({ length: 8 }, () => rawCall(h2, 'ModelInfer'))
    for (const { stream } of calls) {
      stream.write(prefix(16 * 1024 * 1024))
      stream.write(Buffer.alloc(256 * 1024))
    }
    const ends = await Promise.all(calls.map((c) => c.ended))
    expect(ends).toEqual(new Array(8).fill({ status: UNAUTHENTICATED, code: 'ERR_UNAUTHORIZED', messages: 0 }))
    expect(s.handler.pendingBodyBytes).toMatchObject({ held: 0, refused: 0 })
    expect(s.grpc?.service.activeCalls).toBe(0)
  })

  it('is answered UNAUTHENTICATED on a stream too, and by a grpc-js client sending a large message', async () => {
    const s = await server({ apiKey: TOKEN, bodyTimeoutMs: 60_000 })
    const { stream, ended } = rawCall(session(s), 'ModelStreamInfer')
    stream.write(prefix(1024 * 1024))
    expect(await ended).toEqual({ status: UNAUTHENTICATED, code: 'ERR_UNAUTHORIZED', messages: 0 })

    const large = {
      model_name: 'demo',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [4096, 256] }],
      raw_input_contents: [Buffer.alloc(4096 * 256 * 4)],
    }
    expect(failure(await client(s).call('ModelInfer', large))).toEqual({ code: UNAUTHENTICATED, inferpoolCode: 'ERR_UNAUTHORIZED' })
    // The health RPCs stay open, as /v2/health/* does.
    expect(await client(s).call('ServerLive', {})).toEqual({ ok: true, response: { live: true } })
  })
})

describe('many calls without the bearer token, stalled after megabytes each on one connection', () => {
  const bodyTimeoutMs = 3_000
  /** Settles with `'unanswered'` once the body timeout has passed: a call still open then got no answer. */
  function withinBodyTimeout<T>(answers: Array<Promise<T>>): Promise<Array<T | 'unanswered'>> {
    let timer: NodeJS.Timeout | undefined
    const unanswered = new Promise<'unanswered'>((resolve) => {
      timer = setTimeout(() => resolve('unanswered'), bodyTimeoutMs)
    })
    return Promise.all(answers.map((answer) => Promise.race([answer, unanswered]))).finally(() => clearTimeout(timer))
  }

  it('each is answered UNAUTHENTICATED from its headers within the body timeout, and none holds a byte', async () => {
    const s = await server({ apiKey: TOKEN, bodyTimeoutMs })
    // Node's client counts the bytes it has queued to send (here 320 MiB, the server
    // reading none) in its own session memory, 10 MB by default: past it, it drops the
    // headers it receives, status included, and keeps a stream reset with NO_ERROR open
    // while writes are queued on it, so none of these calls would end, whatever the
    // server sends. grpc-js lifts that limit for its clients (and servers); so does this one.
    const h2 = connect(`http://${s.grpcAddress as string}`, { maxSessionMemory: 1024 })
    h2.on('error', () => {})
    sessions.push(h2)
    const calls = Array.from({ length: 40 }, () => rawCall(h2, 'ModelInfer'))
    // One buffer for all: each write queues a reference to it, not a copy.
    const eightMiB = Buffer.alloc(8 * 1024 * 1024)
    for (const { stream } of calls) {
      stream.write(prefix(16 * 1024 * 1024))
      stream.write(eightMiB)
    }
    const ends = await withinBodyTimeout(calls.map((call) => call.ended))
    expect(ends).toEqual(new Array(40).fill({ status: UNAUTHENTICATED, code: 'ERR_UNAUTHORIZED', messages: 0 }))
    expect(s.handler.pendingBodyBytes).toMatchObject({ held: 0, refused: 0 })
    expect(s.grpc?.service.activeCalls).toBe(0)
  })

  it('each is answered UNAUTHENTICATED to a grpc-js client sending 2 MiB messages', async () => {
    const s = await server({ apiKey: TOKEN, bodyTimeoutMs })
    const large = {
      model_name: 'demo',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [2048, 256] }],
      raw_input_contents: [Buffer.alloc(2048 * 256 * 4)],
    }
    const c = client(s)
    const ends = await withinBodyTimeout(Array.from({ length: 40 }, () => c.call('ModelInfer', large).then(failure)))
    expect(ends).toEqual(new Array(40).fill({ code: UNAUTHENTICATED, inferpoolCode: 'ERR_UNAUTHORIZED' }))
    expect(s.handler.pendingBodyBytes).toMatchObject({ held: 0, refused: 0 })
  })
})

describe('an error that echoes a long name', () => {
  const longName = 'm'.repeat(200 * 1024)
  const echoed = `Unknown model '${'m'.repeat(256)}… (${200 * 1024} characters)'`

  it('is answered over gRPC, its status message bounded, unary and stream alike', async () => {
    const s = await server()
    const outcome = await client(s).call('ModelInfer', { model_name: longName }, { deadlineMs: 10_000 })
    expect(failure(outcome)).toEqual({ code: 5, inferpoolCode: 'ERR_MODEL_NOT_FOUND' })
    expect(outcome.ok || outcome.details).toBe(echoed)
    expect((await client(s).call('ModelMetadata', { name: 'demo', version: '9'.repeat(100_000) })).ok === false).toBe(true)

    const stream = client(s).stream()
    const done = drain(stream)
    stream.write({ model_name: longName, id: 'long' })
    stream.end()
    const { responses, status } = await done
    expect(responses.map((r) => [r.error_message, r.infer_response.id])).toEqual([[echoed, 'long']])
    expect(status.code).toBe(0)
  })

  it('is answered over HTTP with the name bounded in the error body', async () => {
    const s = await server()
    const name = 'n'.repeat(8 * 1024)
    const answer = await post(`${s.url}/v2/models/${name}/infer`, demoRequest(demoRows(11, 1)))
    expect({ status: answer.status, json: answer.json }).toEqual({
      status: 404,
      json: { error: `Unknown model '${'n'.repeat(256)}… (${8 * 1024} characters)'`, code: 'ERR_MODEL_NOT_FOUND' },
    })
  })
})

describe('a call its client cancels', () => {
  it('is not logged as a server error', async () => {
    const waiting = await createPool({
      model: demoModel,
      replicas: 1,
      logger: quiet,
      batching: { minBatchSize: 8, maxBatchSize: 8, maxWaitMs: 600_000 },
    })
    try {
      const logged: unknown[][] = []
      const s = await serve(
        { waiting },
        { port: 0, grpcPort: 0, closePools: false, logger: { ...quiet, error: (...args: unknown[]) => logged.push(args) } },
      )
      servers.push(s)
      const h2 = session(s)
      const unary = rawCall(h2, 'ModelInfer')
      unary.stream.end(framedDemoRequest(12, 'unary', 1, 'waiting'))
      const streamed = rawCall(h2, 'ModelStreamInfer')
      streamed.stream.write(framedDemoRequest(13, 'streamed', 1, 'waiting'))
      await until(() => waiting.stats.queued === 2)
      unary.stream.close(constants.NGHTTP2_CANCEL)
      streamed.stream.close(constants.NGHTTP2_CANCEL)
      await Promise.all([unary.ended, streamed.ended])
      await until(() => s.grpc?.service.activeCalls === 0 && waiting.stats.queued === 0)
      const text = await (await fetch(`${s.url}/metrics`)).text()
      expect(metric(text, 'inferpool_requests_total', { model: 'waiting', version: '1', protocol: 'grpc', status: 'CANCELLED' })).toBe(2)
      expect(logged).toEqual([])
    } finally {
      await waiting.close({ drain: false })
    }
  })
})

describe('a server that adds the service without the call guard', () => {
  it('still answers UNAUTHENTICATED without the token, and the health RPCs stay open', async () => {
    const service = createGrpcService(createRequestHandler({ demo }, { apiKey: TOKEN, logger: quiet }))
    const bare = new grpc.Server()
    bare.addService(service.definition, service.implementation)
    const port = await new Promise<number>((resolve, reject) =>
      bare.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    )
    try {
      const c = grpcClient(`127.0.0.1:${port}`)
      clients.push(c)
      expect(failure(await c.call('ModelMetadata', { name: 'demo' }))).toEqual({ code: UNAUTHENTICATED, inferpoolCode: 'ERR_UNAUTHORIZED' })
      expect(failure(await c.call('ModelInfer', { model_name: 'demo' }))).toEqual({
        code: UNAUTHENTICATED,
        inferpoolCode: 'ERR_UNAUTHORIZED',
      })
      expect(await c.call('ServerLive', {})).toEqual({ ok: true, response: { live: true } })
      expect(await c.call('ServerReady', {})).toEqual({ ok: true, response: { ready: true } })
      expect((await c.call('ModelMetadata', { name: 'demo' }, { token: TOKEN })).ok).toBe(true)
    } finally {
      bare.forceShutdown()
    }
  })
})

describe('a request that does not arrive within bodyTimeoutMs', () => {
  it('ends a stalled unary call with DEADLINE_EXCEEDED and ERR_REQUEST_TIMEOUT (HTTP’s 408), giving its bytes back', async () => {
    const s = await server({ apiKey: TOKEN, bodyTimeoutMs: 200 })
    const h2 = session(s)
    const calls = Array.from({ length: 4 }, () => rawCall(h2, 'ModelInfer', TOKEN))
    for (const { stream } of calls) {
      stream.write(prefix(1024 * 1024))
      stream.write(Buffer.alloc(8 * 1024))
    }
    await until(() => s.handler.pendingBodyBytes.held === 4 * (5 + 8 * 1024))
    const ends = await Promise.all(calls.map((c) => c.ended))
    expect(ends).toEqual(new Array(4).fill({ status: DEADLINE_EXCEEDED, code: 'ERR_REQUEST_TIMEOUT', messages: 0 }))
    expect(s.handler.pendingBodyBytes.held).toBe(0)
  })

  it('ends a unary call whose whole message came but never its half-close', async () => {
    const s = await server({ bodyTimeoutMs: 200 })
    const { stream, ended } = rawCall(session(s), 'ModelInfer')
    stream.write(framedDemoRequest(1, 'whole'))
    expect(await ended).toEqual({ status: DEADLINE_EXCEEDED, code: 'ERR_REQUEST_TIMEOUT', messages: 0 })
  })

  it('gives each message of a stream the limit: an answered message, then one that stalls, ends the stream', async () => {
    const s = await server({ apiKey: TOKEN, bodyTimeoutMs: 200 })
    const { stream, ended } = rawCall(session(s), 'ModelStreamInfer', TOKEN)
    stream.write(framedDemoRequest(2, 'first'))
    // The first message is answered; the stream stays open while no message is in progress.
    await new Promise<void>((resolve) => stream.once('data', () => resolve()))
    stream.write(prefix(64 * 1024))
    stream.write(Buffer.alloc(1024))
    expect(await ended).toEqual({ status: DEADLINE_EXCEEDED, code: 'ERR_REQUEST_TIMEOUT', messages: 1 })
    expect(s.handler.pendingBodyBytes.held).toBe(0)
  })
})

describe('the pending-bytes budget, shared by HTTP and gRPC', () => {
  it('refuses the call whose bytes would pass maxPendingBodyBytes with UNAVAILABLE, and an HTTP body with 503, until bytes come back', async () => {
    const limit = 48 * 1024
    const s = await server({ bodyTimeoutMs: 60_000, maxPendingBodyBytes: limit })
    const h2 = session(s)
    const holding = rawCall(h2, 'ModelInfer')
    holding.stream.write(prefix(1024 * 1024))
    holding.stream.write(Buffer.alloc(40 * 1024))
    await until(() => s.handler.pendingBodyBytes.held === 5 + 40 * 1024)

    // A second stalled call whose bytes do not fit: refused, nothing of it held.
    const refused = rawCall(h2, 'ModelInfer')
    refused.stream.write(prefix(1024 * 1024))
    refused.stream.write(Buffer.alloc(16 * 1024))
    expect(await refused.ended).toEqual({ status: UNAVAILABLE, code: 'ERR_PENDING_BODY_BYTES_FULL', messages: 0 })
    expect(s.handler.pendingBodyBytes).toEqual({ held: 5 + 40 * 1024, limit, refused: 1 })

    // An HTTP body that does not fit either: 503 with its code.
    const body = JSON.stringify(demoRequest(demoRows(4, 2)))
    // It fits the budget alone, not beside the stalled call.
    expect(Buffer.byteLength(body) <= limit && Buffer.byteLength(body) > limit - (5 + 40 * 1024)).toBe(true)
    const http = await post(`${s.url}/v2/models/demo/infer`, body)
    expect({ status: http.status, json: http.json }).toEqual({
      status: 503,
      json: {
        error: `Requests still arriving hold the server's limit of ${limit} bytes; retry later`,
        code: 'ERR_PENDING_BODY_BYTES_FULL',
      },
    })
    expect(http.headers['retry-after']).toBe('1')
    expect(s.handler.pendingBodyBytes).toEqual({ held: 5 + 40 * 1024, limit, refused: 2 })

    // The stalled client leaves: its bytes come back, and the same body is served.
    holding.stream.close()
    await holding.ended
    await until(() => s.handler.pendingBodyBytes.held === 0)
    expect((await post(`${s.url}/v2/models/demo/infer`, body)).status).toBe(200)
    expect(s.handler.pendingBodyBytes).toEqual({ held: 0, limit, refused: 2 })
  })

  it('answers a request larger than the whole budget as too large (RESOURCE_EXHAUSTED, 413), not as a retry that could never succeed', async () => {
    const limit = 64 * 1024
    const s = await server({ maxPendingBodyBytes: limit })
    const outcome = await client(s).call('ModelInfer', {
      model_name: 'demo',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [100, 256] }],
      raw_input_contents: [rawBytes(Float32Array.from(demoRows(5, 100).flat()))],
    })
    expect(failure(outcome)).toEqual({ code: RESOURCE_EXHAUSTED, inferpoolCode: 'ERR_PAYLOAD_TOO_LARGE' })
    expect(outcome.ok || outcome.metadata['grpc-retry-pushback-ms']).toBe(undefined)
    // Over HTTP too: under maxBodyBytes (16 MiB), over the budget.
    const http = await post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(5, 100)))
    expect({ status: http.status, json: http.json, retryAfter: http.headers['retry-after'] }).toEqual({
      status: 413,
      json: { error: `Request body exceeds the limit of ${limit} bytes`, code: 'ERR_PAYLOAD_TOO_LARGE' },
      retryAfter: undefined,
    })
    // Not a refusal for a spent budget: nothing else held any of it.
    expect(s.handler.pendingBodyBytes).toEqual({ held: 0, limit, refused: 0 })
  })

  it('keeps a parked gRPC request’s message in the budget until it passes the door, unary and stream alike', async () => {
    // Batches of 2 only, a queue of 2: one row queued leaves no room for a 2-row request.
    const small = await createPool({
      model: demoModel,
      replicas: 1,
      logger: quiet,
      batching: { minBatchSize: 2, maxBatchSize: 2, maxWaitMs: 600_000, maxQueueSize: 2 },
    })
    try {
      const s = await serve({ small }, { port: 0, grpcPort: 0, closePools: false, logger: quiet, admissionWaitMs: 600_000 })
      servers.push(s)
      const gate = s.handler.served.door(small)
      const first = small.infer({ input: Float32Array.from(demoRows(7, 1)[0]) })
      await until(() => small.stats.queued === 1)

      const h2 = session(s)
      const unaryBytes = framedDemoRequest(8, 'unary', 2, 'small')
      const unary = rawCall(h2, 'ModelInfer')
      unary.stream.end(unaryBytes)
      await until(() => gate.parked === 1)
      expect(s.handler.pendingBodyBytes.held).toBe(unaryBytes.length)
      const streamBytes = framedDemoRequest(9, 'streamed', 2, 'small')
      const streamed = rawCall(h2, 'ModelStreamInfer')
      streamed.stream.write(streamBytes)
      await until(() => gate.parked === 2)
      expect(s.handler.pendingBodyBytes.held).toBe(unaryBytes.length + streamBytes.length)

      // A row straight into the pool completes a batch: room frees, both pass the door.
      await Promise.all([first, small.infer({ input: Float32Array.from(demoRows(10, 1)[0]) })])
      expect(await unary.ended).toEqual({ status: 0, code: undefined, messages: 1 })
      await until(() => streamed.messages() === 1)
      expect(s.handler.pendingBodyBytes).toMatchObject({ held: 0, refused: 0 })
      streamed.stream.end()
      expect(await streamed.ended).toEqual({ status: 0, code: undefined, messages: 1 })
    } finally {
      await small.close()
    }
  })

  it('holds an HTTP body’s bytes while it arrives and gives them back when it stalls out', async () => {
    const s = await server({ bodyTimeoutMs: 200 })
    const body = JSON.stringify(demoRequest(demoRows(6, 4)))
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(`${s.url}/v2/models/demo/infer`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      })
      req.on('response', (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.write(body.slice(0, 1000))
    })
    await until(() => s.handler.pendingBodyBytes.held === 1000)
    expect(await answer).toBe(408)
    expect(s.handler.pendingBodyBytes.held).toBe(0)
  })
})

describe('HTTP/2 connections', () => {
  it('announce maxConcurrentStreams (100 by default) as SETTINGS_MAX_CONCURRENT_STREAMS', async () => {
    const settingsOf = async (s: InferpoolServer): Promise<number | undefined> => {
      const h2 = session(s)
      await new Promise<void>((resolve) => h2.once('remoteSettings', () => resolve()))
      return h2.remoteSettings.maxConcurrentStreams
    }
    expect(await settingsOf(await server())).toBe(100)
    expect(await settingsOf(await server({ maxConcurrentStreams: 3 }))).toBe(3)
  })
})

describe('shutdown', () => {
  it('waits for a unary call still arriving (accepted work), and ends it at the body timeout when it stalls', async () => {
    const s = await server({ bodyTimeoutMs: 200, shutdownTimeoutMs: 30_000 })
    const { stream, ended } = rawCall(session(s), 'ModelInfer')
    stream.write(prefix(1024 * 1024))
    stream.write(Buffer.alloc(1024))
    await until(() => s.handler.pendingBodyBytes.held === 5 + 1024)
    const result = await s.close()
    expect(await ended).toEqual({ status: DEADLINE_EXCEEDED, code: 'ERR_REQUEST_TIMEOUT', messages: 0 })
    expect(result).toEqual({ forced: false, lost: 0 })
  })

  it('ends open streams whose client never half-closes — idle, or a message half-sent — and the draining close is not forced', async () => {
    const s = await server({ bodyTimeoutMs: 60_000, shutdownTimeoutMs: 30_000 })
    const h2 = session(s)
    const idle = rawCall(h2, 'ModelStreamInfer')
    const halfSent = rawCall(h2, 'ModelStreamInfer')
    halfSent.stream.write(prefix(64 * 1024))
    halfSent.stream.write(Buffer.alloc(1024))
    await until(() => s.handler.pendingBodyBytes.held === 5 + 1024)

    const result = await s.close()
    expect(await Promise.all([idle.ended, halfSent.ended])).toEqual([
      { status: UNAVAILABLE, code: 'ERR_SHUTTING_DOWN', messages: 0 },
      { status: UNAVAILABLE, code: 'ERR_SHUTTING_DOWN', messages: 0 },
    ])
    // Both streams were reset after their status, so the connection could close without them.
    expect(result).toEqual({ forced: false, lost: 0 })
    expect(s.handler.pendingBodyBytes.held).toBe(0)
  })
})

describe('options', () => {
  it('validates maxPendingBodyBytes and maxConcurrentStreams once, naming the option and echoing the value', () => {
    expect(() => createRequestHandler({ demo }, { maxPendingBodyBytes: 0 })).toThrow(
      new RangeError('Expected `maxPendingBodyBytes` to be an integer >= 1, got `0` (number)'),
    )
    expect(() => createServer({ demo }, { grpcPort: 0, maxConcurrentStreams: 0.5 })).toThrow(
      new RangeError('Expected `maxConcurrentStreams` to be an integer in [1, 2147483647], got `0.5` (number)'),
    )
  })
})
