/**
 * Overload and slow clients, over real HTTP on 127.0.0.1 with real pools: a request's
 * rows are admitted whole or not at all, a refusal is cheap (before the body is read)
 * and reaches the client, a failing row takes its siblings out of the queue, a stalled
 * body is timed out.
 */
import { Agent, request } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { afterAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer, ServerOptions } from '@inferpool/server'
import { demoModel, demoRequest, demoRows, http, post, repoModel, until } from './server-helpers.js'

const pools: Pool[] = []
const servers: InferpoolServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  await Promise.all(pools.map((p) => p.close()))
})

async function pool(options: Parameters<typeof createPool>[0]): Promise<Pool> {
  const p = await createPool(options)
  pools.push(p)
  return p
}

async function server(p: Pool, options: ServerOptions = {}): Promise<InferpoolServer> {
  const s = await serve({ demo: p }, { port: 0, closePools: false, ...options })
  servers.push(s)
  return s
}

/** A pool whose rows stay queued (batches form only at 64 rows) until it closes. */
function holdingPool(maxQueueSize: number): Promise<Pool> {
  return pool({
    model: demoModel,
    replicas: 1,
    batching: { maxBatchSize: 64, minBatchSize: 64, maxWaitMs: 600_000, maxQueueSize },
  })
}

/** Rows the worker threads were sent, counted from the pool's own events. */
function rowsSent(p: Pool): { rows: number } {
  const seen = { rows: 0 }
  p.observe({
    onBatchSent(event) {
      seen.rows += event.rows
    },
  })
  return seen
}

interface Answer {
  status: number
  headers: IncomingMessage['headers']
  json: unknown
}

/** GET /v2/health/live through `agent` (whose one socket the test keeps): the status. */
function liveStatusOver(agent: Agent, s: InferpoolServer): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    request(`${s.url}/v2/health/live`, { agent }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
      .on('error', reject)
      .end()
  })
}

/**
 * A POST whose body is sent in two parts: the headers (with the whole Content-Length)
 * and `first` bytes go out at once, the rest only when `sendRest()` is called.
 */
function partialPost(
  url: string,
  body: string,
  first: number,
  agent: Agent | false = false,
): { answer: Promise<Answer>; sendRest: () => void } {
  let req!: ReturnType<typeof request>
  const answer = new Promise<Answer>((resolve, reject) => {
    req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString()) }),
        )
      },
    )
    req.on('error', reject)
    req.write(body.slice(0, first))
  })
  return { answer, sendRest: () => req.end(body.slice(first)) }
}

describe('all-or-nothing admission', () => {
  it('refuses a multi-row request the queue has no room for whole: 503, nothing queued, the worker never sees its rows', async () => {
    const p = await holdingPool(4)
    const sent = rowsSent(p)
    const s = await server(p)
    const first = post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(1, 3)))
    await until(() => p.stats.queued === 3)

    // Two rows for one free slot. Its length says "at least one row", which fits, so
    // the body is read; the pool then refuses both rows together.
    const refused = await post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(2, 2)))
    expect(refused.status).toBe(503)
    expect(refused.json).toEqual({ error: 'Queue is full (maxQueueSize: 4)', code: 'ERR_QUEUE_FULL' })
    // Nothing has drained yet, so the configured fallback (1 s) is sent.
    expect(refused.headers['retry-after']).toBe('1')
    expect(p.stats).toMatchObject({ queued: 3, rejected: 2 })

    // One row still fits and is queued whole.
    const fits = post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(3, 1)))
    await until(() => p.stats.queued === 4)
    await p.close()
    expect((await first).status).toBe(200)
    expect((await fits).status).toBe(200)
    expect(sent.rows).toBe(4)
  })

  it('cancels the rest of a request when one of its rows fails: its queued rows never reach the worker', async () => {
    const p = await pool({
      model: repoModel('poison.onnx'),
      replicas: 1,
      batching: { maxBatchSize: 1 },
      logger: { warn() {}, info() {} },
    })
    const sent = rowsSent(p)
    const s = await server(p, { logger: { error() {}, info() {} } })
    // Row 0 makes the model fail (Gather index out of range); rows 1..9 are fine.
    const data = Array.from({ length: 10 }, (_, r) => [r === 0 ? 50 : r, 1, 2, 3]).flat()
    const res = await post(`${s.url}/v2/models/demo/infer`, { inputs: [{ name: 'x', shape: [10, 4], datatype: 'FP32', data }] })
    expect(res.status).toBe(500)
    expect((res.json as { code: string }).code).toBe('ERR_INFERENCE')
    await until(() => p.stats.inFlight === 0)
    // Row 0 ran alone (batches of 1); the other nine left the queue with its failure.
    expect(sent.rows).toBe(1)
    expect(p.stats).toMatchObject({ queued: 0, failed: 1, cancelled: 9, completed: 0 })
  })

  it('answers a 1,000-row request without a single listener warning', async () => {
    const p = await pool({ model: demoModel, replicas: 1 })
    const s = await server(p)
    const warnings: Error[] = []
    const onWarning = (warning: Error): void => {
      warnings.push(warning)
    }
    process.on('warning', onWarning)
    try {
      const res = await post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(4, 1000)))
      expect(res.status).toBe(200)
      expect((res.json as { outputs: Array<{ shape: number[] }> }).outputs[0].shape).toEqual([1000, 16])
      // Warnings are emitted on the next tick.
      await new Promise<void>((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings.map((w) => w.name)).toEqual([])
  })
})

describe('early rejection', () => {
  it('answers 503 before the body is read when the queue cannot take the rows its length implies', async () => {
    const p = await holdingPool(16)
    const sent = rowsSent(p)
    const s = await server(p, { admissionWaitMs: 0 })
    const first = post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(5, 10)))
    await until(() => p.stats.queued === 10)

    // 14 rows (~72 KB: at least 8 rows by its length) for 6 free slots. Only the first
    // 100 bytes of the body are sent before the answer comes.
    const body = JSON.stringify(demoRequest(demoRows(6, 14)))
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const { answer, sendRest } = partialPost(`${s.url}/v2/models/demo/infer`, body, 100, agent)
    const early = await answer
    expect(early.status).toBe(503)
    expect(early.json).toEqual({ error: 'Queue is full (maxQueueSize: 16)', code: 'ERR_QUEUE_FULL' })
    expect(early.headers['retry-after']).toBe('1')
    // The body fits the discard bound: it is read and dropped, the connection kept.
    expect(early.headers.connection).toBe('keep-alive')
    sendRest()
    // The same connection carries the next request once the rest was discarded.
    expect(await liveStatusOver(agent, s)).toBe(200)
    agent.destroy()
    // Refused at the door: the pool never heard of it.
    expect(p.stats).toMatchObject({ queued: 10, submitted: 10, rejected: 0 })
    await p.close()
    expect((await first).status).toBe(200)
    expect(sent.rows).toBe(10)
  })

  it('delivers a 413 for a body over the limit to fetch and to node:http every time, never a reset', async () => {
    const p = await pool({ model: demoModel, replicas: 1 })
    const s = await server(p, { maxBodyBytes: 64 * 1024 })
    const body = Buffer.alloc(4 * 1024 * 1024, 0x20)
    const url = `${s.url}/v2/models/demo/infer`
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) {
      const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      statuses.push(res.status)
      expect(((await res.json()) as { code: string }).code).toBe('ERR_PAYLOAD_TOO_LARGE')
    }
    for (let i = 0; i < 10; i++) {
      const res = await http(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      statuses.push(res.status)
      expect(res.headers.connection).toBe('close')
    }
    expect(statuses).toEqual(new Array(20).fill(413))
  })
})

/** A binary request of the demo model: its JSON header and the raw float32 rows. */
function binaryRequest(rows: number[][]): { head: Buffer; tensor: Buffer; headers: Record<string, string> } {
  const tensor = Buffer.from(new Float32Array(rows.flat()).buffer)
  const head = Buffer.from(
    JSON.stringify({
      inputs: [{ name: 'input', shape: [rows.length, 256], datatype: 'FP32', parameters: { binary_data_size: tensor.length } }],
      outputs: [{ name: 'output', parameters: { binary_data: true } }],
    }),
  )
  return {
    head,
    tensor,
    headers: {
      'content-type': 'application/octet-stream',
      'inference-header-content-length': String(head.length),
      'content-length': String(head.length + tensor.length),
    },
  }
}

/**
 * Bytes the server had read from the connection when it ended each answer (read
 * synchronously in `res.end`, before any more of the socket can be read).
 */
function bytesReadAtAnswer(s: InferpoolServer): number[] {
  const seen: number[] = []
  s.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
    res.end = ((...args: unknown[]) => {
      seen.push(req.socket.bytesRead)
      return end(...args)
    }) as ServerResponse['end']
  })
  return seen
}

/**
 * The door's fixture: a request of 10 rows queued (and held) on `p`, behind a server that
 * answers at once when full. `settled()` checks that nothing but those 10 rows ever
 * reached the pool, closes it and checks they were served.
 */
async function tenRowsQueued(p: Pool, seed: number): Promise<{ s: InferpoolServer; read: number[]; settled: () => Promise<void> }> {
  const sent = rowsSent(p)
  const s = await server(p, { admissionWaitMs: 0 })
  const read = bytesReadAtAnswer(s)
  const first = post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(seed, 10)))
  await until(() => p.stats.queued === 10)
  const settled = async (): Promise<void> => {
    expect(p.stats).toMatchObject({ queued: 10, submitted: 10, rejected: 0 })
    await p.close()
    expect((await first).status).toBe(200)
    expect(sent.rows).toBe(10)
  }
  return { s, read, settled }
}

describe('early rejection of binary requests, from the rows their header declares', () => {
  it('answers 503 from the JSON header alone, before any tensor byte arrives, and keeps the connection', async () => {
    const p = await holdingPool(16)
    const { s, read, settled } = await tenRowsQueued(p, 12)

    // 7 rows declared for 6 free slots (a length estimate would have said "fits": the
    // tensors are 4 bytes per element). The client sends the HTTP head and the JSON
    // header, and holds the tensor bytes back until the answer is in.
    const { head, tensor, headers } = binaryRequest(demoRows(13, 7))
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    let req!: ReturnType<typeof request>
    const early = await new Promise<Answer>((resolve, reject) => {
      req = request(`${s.url}/v2/models/demo/infer`, { method: 'POST', agent, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString()) }),
        )
      })
      req.on('error', reject)
      req.flushHeaders()
      req.write(head)
    })
    expect(early.status).toBe(503)
    expect(early.json).toEqual({ error: 'Queue is full (maxQueueSize: 16)', code: 'ERR_QUEUE_FULL' })
    expect(early.headers['retry-after']).toBe('1')
    expect(early.headers.connection).toBe('keep-alive')
    // Its connection had carried the HTTP head and the JSON header, all read: nothing else was sent.
    const socket = req.socket as NonNullable<typeof req.socket>
    expect(read).toEqual([socket.bytesWritten])
    req.end(tensor)
    expect(await liveStatusOver(agent, s)).toBe(200)
    agent.destroy()
    await settled()
  })

  it('answers 503 to fetch from the header of a 1 MB binary request the queue has no room for, most of its body unread', async () => {
    // Batches form only at 1,024 rows: 10 queued rows stay, 1,014 slots free.
    const p = await pool({
      model: demoModel,
      replicas: 1,
      batching: { maxBatchSize: 1024, minBatchSize: 1024, maxWaitMs: 600_000, maxQueueSize: 1024 },
    })
    const { s, read, settled } = await tenRowsQueued(p, 19)
    // 1,020 rows of 1 KiB each for 1,014 free slots.
    const { head, tensor, headers } = binaryRequest(demoRows(20, 1020))
    const body = Buffer.concat([head, tensor])
    const res = await fetch(`${s.url}/v2/models/demo/infer`, { method: 'POST', body, headers })
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: 'Queue is full (maxQueueSize: 1024)', code: 'ERR_QUEUE_FULL' })
    expect(res.headers.get('retry-after')).toBe('1')
    expect(read).toHaveLength(1)
    expect(read[0]).toBeLessThan(body.length / 4)
    await settled()
  })

  it('answers 413 ERR_REQUEST_TOO_LARGE to fetch and node:http for more rows than the whole queue, having read a small part of the body', async () => {
    const p = await holdingPool(16)
    const s = await server(p)
    const read = bytesReadAtAnswer(s)
    // 1,000 rows of 1 KiB each: the 413 comes from the header's shape.
    const { head, tensor, headers } = binaryRequest(demoRows(14, 1000))
    const body = Buffer.concat([head, tensor])
    const url = `${s.url}/v2/models/demo/infer`
    const expected = { error: 'Request of 1000 items exceeds the whole queue (maxQueueSize: 16)', code: 'ERR_REQUEST_TOO_LARGE' }
    const viaFetch = await fetch(url, { method: 'POST', body, headers })
    expect(viaFetch.status).toBe(413)
    expect(await viaFetch.json()).toEqual(expected)
    const viaHttp = await http(url, { method: 'POST', body, headers })
    expect(viaHttp.status).toBe(413)
    expect(viaHttp.json).toEqual(expected)
    // Each answer went out with most of the 1 MB body still unread (in the sockets'
    // kernel buffers, then discarded after the answer).
    expect(read).toHaveLength(2)
    for (const bytes of read) expect(bytes).toBeLessThan(body.length / 4)
    expect(p.stats).toMatchObject({ queued: 0, submitted: 0, rejected: 0 })
  })

  it('refuses more rows than maxRowsPerRequest from the header, naming the input', async () => {
    const p = await pool({ model: demoModel, replicas: 1 })
    const s = await server(p, { maxRowsPerRequest: 4 })
    const { head, tensor, headers } = binaryRequest(demoRows(15, 5))
    const res = await http(`${s.url}/v2/models/demo/infer`, { method: 'POST', body: Buffer.concat([head, tensor]), headers })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ error: 'A request may carry at most 4 rows, input "input" has 5', code: 'ERR_INVALID_INPUT' })
    expect(p.stats.submitted).toBe(0)
  })

  it('answers 408 ERR_REQUEST_TIMEOUT to a binary request whose JSON header stalls, and closes its connection', async () => {
    const p = await pool({ model: demoModel, replicas: 1 })
    const s = await server(p, { bodyTimeoutMs: 200 })
    const { head, headers } = binaryRequest(demoRows(18, 2))
    const res = await new Promise<Answer>((resolve, reject) => {
      const req = request(`${s.url}/v2/models/demo/infer`, { method: 'POST', agent: false, headers }, (r) => {
        const chunks: Buffer[] = []
        r.on('data', (c: Buffer) => chunks.push(c))
        r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, json: JSON.parse(Buffer.concat(chunks).toString()) }))
      })
      req.on('error', reject)
      // Half of the JSON header, then nothing.
      req.write(head.subarray(0, head.length >> 1))
    })
    expect(res.status).toBe(408)
    expect(res.json).toEqual({ error: 'The request body did not arrive within 200 ms', code: 'ERR_REQUEST_TIMEOUT' })
    expect(res.headers.connection).toBe('close')
    expect(p.stats.submitted).toBe(0)
    await until(() => s.handler.activeRequests === 0)
  })

  it('serves a binary request that fits with the outputs onnxruntime computes', async () => {
    const p = await holdingPool(16)
    const s = await server(p, { admissionWaitMs: 0 })
    const first = post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(16, 10)))
    await until(() => p.stats.queued === 10)
    // 6 rows for 6 free slots: admitted whole, served once the pool drains.
    const rows = demoRows(17, 6)
    const { head, tensor, headers } = binaryRequest(rows)
    const pending = fetch(`${s.url}/v2/models/demo/infer`, { method: 'POST', body: Buffer.concat([head, tensor]), headers })
    await until(() => p.stats.queued === 16)
    await p.close()
    expect((await first).status).toBe(200)
    const res = await pending
    expect(res.status).toBe(200)
    const raw = Buffer.from(await res.arrayBuffer())
    const headerLength = Number(res.headers.get('inference-header-content-length'))
    const header = JSON.parse(raw.subarray(0, headerLength).toString()) as {
      outputs: Array<{ name: string; shape: number[]; parameters: { binary_data_size: number } }>
    }
    expect(header.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [6, 16], parameters: { binary_data_size: 6 * 16 * 4 } }])
    const out = raw.subarray(headerLength)
    const served = Array.from(new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length)))
    const session = await InferenceSession.create(demoModel, { intraOpNumThreads: 1 })
    try {
      const direct = await session.run({ input: new Tensor('float32', new Float32Array(rows.flat()), [6, 256]) })
      expect(served).toEqual(Array.from(direct.output.data as Float32Array))
    } finally {
      await session.release()
    }
  })
  it('counts a binary request whose JSON header carries its data (over 64 KiB) from its length, reading the header only once admitted', async () => {
    const p = await pool({ model: demoModel, replicas: 1 })
    const s = await server(p, { admissionWaitMs: 0 })
    const rows = demoRows(21, 40)
    // The whole body is the JSON header: the inputs' data as JSON, no tensor bytes.
    const body = Buffer.from(JSON.stringify(demoRequest(rows)))
    expect(body.length).toBeGreaterThan(64 * 1024)
    const asBinary = await post(`${s.url}/v2/models/demo/infer`, body, { 'inference-header-content-length': String(body.length) })
    const asJson = await post(`${s.url}/v2/models/demo/infer`, demoRequest(rows))
    expect(asBinary.status).toBe(200)
    expect(asJson.status).toBe(200)
    const outputsOf = (r: { text: string }, headerLength: number): unknown =>
      (JSON.parse(r.text.slice(0, headerLength)) as { outputs: unknown }).outputs
    expect(outputsOf(asBinary, Number(asBinary.headers['inference-header-content-length'] ?? asBinary.text.length))).toEqual(
      outputsOf(asJson, asJson.text.length),
    )
    expect(p.stats).toMatchObject({ submitted: 80, completed: 80 })
    await p.close()
  })

  it('refuses a binary request whose JSON header (over 64 KiB) carries its data from its length, most of that header unread', async () => {
    // Batches form only at 1,024 rows: 600 queued rows stay, 424 slots free.
    const p = await pool({
      model: demoModel,
      replicas: 1,
      batching: { maxBatchSize: 1024, minBatchSize: 1024, maxWaitMs: 600_000, maxQueueSize: 1024 },
    })
    const sent = rowsSent(p)
    const s = await server(p, { admissionWaitMs: 0 })
    const read = bytesReadAtAnswer(s)
    const first = post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(22, 600)))
    await until(() => p.stats.queued === 600)
    // 1,000 rows as JSON inside the header (about 5 MB), no tensor bytes: counted from
    // its length with the bytes per row the door learnt from the first request (and its
    // 25 % slack), about 800 rows, more than the free slots.
    const body = Buffer.from(JSON.stringify(demoRequest(demoRows(23, 1000))))
    const res = await fetch(`${s.url}/v2/models/demo/infer`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'inference-header-content-length': String(body.length) },
    })
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 503,
      body: { error: 'Queue is full (maxQueueSize: 1024)', code: 'ERR_QUEUE_FULL' },
    })
    expect(read).toHaveLength(1)
    expect(read[0]).toBeLessThan(body.length / 4)
    expect(p.stats).toMatchObject({ queued: 600, submitted: 600, rejected: 0 })
    await p.close()
    expect((await first).status).toBe(200)
    expect(sent.rows).toBe(600)
  })

  it('answers a chunked binary request whose header length exceeds maxBodyBytes with 413, as any body over the limit', async () => {
    const p = await pool({ model: demoModel, replicas: 1 })
    const s = await server(p, { maxBodyBytes: 64 * 1024 })
    const res = await new Promise<{ status: number; code: unknown }>((resolve, reject) => {
      const req = request(
        `${s.url}/v2/models/demo/infer`,
        {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/octet-stream',
            'transfer-encoding': 'chunked',
            'inference-header-content-length': '100000',
          },
        },
        (r) => {
          const chunks: Buffer[] = []
          r.on('data', (c: Buffer) => chunks.push(c))
          r.on('end', () =>
            resolve({ status: r.statusCode ?? 0, code: (JSON.parse(Buffer.concat(chunks).toString()) as { code: unknown }).code }),
          )
        },
      )
      req.on('error', reject)
      // Two writes: a body sent in one `end(buffer)` goes out with a Content-Length.
      req.write(Buffer.alloc(64 * 1024, 0x20))
      req.end(Buffer.alloc(64 * 1024, 0x20))
    })
    expect(res).toEqual({ status: 413, code: 'ERR_PAYLOAD_TOO_LARGE' })
    expect(p.stats.submitted).toBe(0)
    await p.close()
  })
})

describe('waiting for room at the door', () => {
  it('parks a request that does not fit, body unread, and admits it whole once room frees', async () => {
    const p = await holdingPool(16)
    const sent = rowsSent(p)
    const s = await server(p, { admissionWaitMs: 600_000 })
    // 10 rows held by a client that will leave, freeing their room.
    const body10 = JSON.stringify(demoRequest(demoRows(8, 10)))
    const leaving = request(`${s.url}/v2/models/demo/infer`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body10)) },
    })
    leaving.on('error', () => {})
    leaving.end(body10)
    await until(() => p.stats.queued === 10)

    // 14 rows (at least 8 by their length) for 6 free slots: parked, only 100 bytes sent.
    const body = JSON.stringify(demoRequest(demoRows(9, 14)))
    const { answer, sendRest } = partialPost(`${s.url}/v2/models/demo/infer`, body, 100)
    await until(() => s.handler.activeRequests === 2)
    sendRest()
    expect(p.stats).toMatchObject({ queued: 10, submitted: 10 })

    leaving.destroy()
    // The leaving client's rows go; the parked request gets the room and all its rows queue.
    await until(() => p.stats.queued === 14)
    expect(p.stats).toMatchObject({ cancelled: 10, submitted: 24, rejected: 0 })
    await p.close()
    expect((await answer).status).toBe(200)
    expect(sent.rows).toBe(14)
  })

  it('answers 503 with Retry-After once the wait for room ends', async () => {
    const p = await holdingPool(16)
    const s = await server(p, { admissionWaitMs: 50 })
    const first = post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(10, 10)))
    await until(() => p.stats.queued === 10)
    const refused = await post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(11, 14)))
    expect(refused.status).toBe(503)
    expect(refused.json).toEqual({ error: 'Queue is full (maxQueueSize: 16)', code: 'ERR_QUEUE_FULL' })
    expect(refused.headers['retry-after']).toBe('1')
    expect(p.stats).toMatchObject({ queued: 10, submitted: 10, rejected: 0 })
    await p.close()
    expect((await first).status).toBe(200)
  })
})

describe('slow clients', () => {
  it('answers a stalled body with 408 ERR_REQUEST_TIMEOUT and closes its connection', async () => {
    const p = await pool({ model: demoModel, replicas: 1 })
    const s = await server(p, { bodyTimeoutMs: 200 })
    const body = JSON.stringify(demoRequest(demoRows(7, 1)))
    const { answer } = partialPost(`${s.url}/v2/models/demo/infer`, body, 10)
    const res = await answer
    expect(res.status).toBe(408)
    expect(res.json).toEqual({ error: 'The request body did not arrive within 200 ms', code: 'ERR_REQUEST_TIMEOUT' })
    expect(res.headers.connection).toBe('close')
    expect(p.stats.submitted).toBe(0)
    await until(() => s.handler.activeRequests === 0)
  })
})
