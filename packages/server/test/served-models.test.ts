/**
 * The served models both protocols take (protocol/served-models.ts), seen from real HTTP
 * and gRPC servers on 127.0.0.1: one readiness answer on both at every moment of a
 * drain, and one admission door — gRPC requests are refused there, before their
 * contents are decoded, as HTTP requests are before their body is parsed.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { QueueFullError, RequestTooLargeError } from '@inferpool/core'
import { createPool } from '@inferpool/host'
import { createGrpcService, createRequestHandler, serve, ServedModels } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { grpc, grpcClient, rawBytes } from './grpc-helpers.js'
import type { Message, TestClient } from './grpc-helpers.js'
import { demoModel, demoRequest, demoRows, http, metric, post, until } from './server-helpers.js'

const quiet = { error() {}, info() {}, warn() {} }
const pools: Pool[] = []
const servers: InferpoolServer[] = []
const clients: TestClient[] = []
afterAll(async () => {
  for (const client of clients) client.close()
  await Promise.all(servers.map((s) => s.destroy()))
  await Promise.all(pools.map((p) => p.close({ drain: false })))
})

async function pool(options: Omit<Parameters<typeof createPool>[0], 'model'> = {}): Promise<Pool> {
  const p = await createPool({ model: demoModel, replicas: 1, logger: quiet, ...options })
  pools.push(p)
  return p
}

async function server(
  models: Parameters<typeof serve>[0],
  options: Parameters<typeof serve>[1],
): Promise<{ server: InferpoolServer; url: string; client: TestClient }> {
  const s = await serve(models, { port: 0, grpcPort: 0, closePools: false, logger: quiet, ...options })
  servers.push(s)
  const client = grpcClient(s.grpcAddress as string)
  clients.push(client)
  return { server: s, url: s.url as string, client }
}

function demoInfer(model: string, rows: number[][]): Message {
  return {
    model_name: model,
    inputs: [{ name: 'input', datatype: 'FP32', shape: [rows.length, 256] }],
    raw_input_contents: [rawBytes(Float32Array.from(rows.flat()))],
  }
}

/** Readiness as each protocol answers it: the server's and the model's. */
async function readiness(url: string, client: TestClient, model: string): Promise<unknown> {
  const [server, ofModel, grpcServer, grpcModel] = await Promise.all([
    http(`${url}/v2/health/ready`),
    http(`${url}/v2/models/${model}/ready`),
    client.call('ServerReady', {}),
    client.call('ModelReady', { name: model }),
  ])
  return {
    http: { server: [server.status, server.json], model: [ofModel.status, ofModel.json] },
    grpc: { server: grpcServer, model: grpcModel },
  }
}

function agreed(ready: boolean, model: string): unknown {
  const status = ready ? 200 : 503
  // A model not ready answers 400, as Triton's /v2/models/{m}/ready does.
  return {
    http: { server: [status, { ready }], model: [ready ? 200 : 400, { name: model, ready }] },
    grpc: { server: { ok: true, response: { ready } }, model: { ok: true, response: { ready } } },
  }
}

describe('readiness', () => {
  it('is the same answer on HTTP and gRPC before and during a drain, while both still serve', async () => {
    const demo = await pool()
    const { server: s, url, client } = await server({ demo }, { drainDelayMs: 600_000 })
    expect(await readiness(url, client, 'demo')).toEqual(agreed(true, 'demo'))

    const closing = s.close()
    await until(() => !s.handler.served.isReady())
    expect(await readiness(url, client, 'demo')).toEqual(agreed(false, 'demo'))
    // Draining: not ready, yet requests are still served on both protocols.
    expect((await post(`${url}/v2/models/demo/infer`, demoRequest(demoRows(1, 1)))).status).toBe(200)
    const answer = await client.call('ModelInfer', demoInfer('demo', demoRows(2, 1)))
    expect(answer.ok && answer.response.outputs[0].shape).toEqual([1, 16])
    expect(await readiness(url, client, 'demo')).toEqual(agreed(false, 'demo'))

    // A destroy ends the drain delay at once.
    expect(await s.destroy()).toEqual({ forced: true, lost: 0 })
    expect(await closing).toEqual({ forced: true, lost: 0 })
  })

  it('is false on both protocols while a model is still loading', async () => {
    const demo = await pool()
    let loaded!: (pool: Pool) => void
    const loading = new Promise<Pool>((resolve) => (loaded = resolve))
    const { url, client } = await server({ demo, later: loading }, {})
    const both = await readiness(url, client, 'later')
    expect(both).toEqual({
      http: { server: [503, { ready: false }], model: [400, { name: 'later', ready: false }] },
      grpc: { server: { ok: true, response: { ready: false } }, model: { ok: true, response: { ready: false } } },
    })
    loaded(demo)
    await until(() => servers.at(-1)?.handler.served.isReady() === true)
    expect(await readiness(url, client, 'later')).toEqual(agreed(true, 'later'))
  })
})

describe('the admission door on gRPC', () => {
  it('refuses a request the queue has no room for with UNAVAILABLE and a retry hint, before decoding its contents', async () => {
    const full = await pool({ batching: { minBatchSize: 8, maxBatchSize: 8, maxWaitMs: Infinity, maxQueueSize: 1 } })
    const { url, client } = await server({ full }, { retryAfterSeconds: 3, admissionWaitMs: 0 })
    const first = client.call('ModelInfer', demoInfer('full', demoRows(3, 1)))
    await until(() => full.stats.queued === 1)
    // Its contents are 3 bytes where one row of 256 FP32 takes 1,024: decoded, this
    // request would be INVALID_ARGUMENT. The door refuses it first, from its shape.
    const undecodable: Message = {
      model_name: 'full',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256] }],
      raw_input_contents: [Buffer.from([1, 2, 3])],
    }
    const refused = await client.call('ModelInfer', undecodable)
    expect(refused).toEqual({
      ok: false,
      code: grpc.status.UNAVAILABLE,
      details: new QueueFullError(1).message,
      metadata: expect.objectContaining({ 'inferpool-code': 'ERR_QUEUE_FULL', 'grpc-retry-pushback-ms': '3000' }),
    })
    // More rows than the whole queue: refused from its shape too, as HTTP answers 413.
    const tooLarge = await client.call('ModelInfer', { ...undecodable, inputs: [{ name: 'input', datatype: 'FP32', shape: [2, 256] }] })
    expect(tooLarge).toEqual({
      ok: false,
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: new RequestTooLargeError(2, 1).message,
      metadata: expect.objectContaining({ 'inferpool-code': 'ERR_REQUEST_TOO_LARGE' }),
    })
    const text = (await http(`${url}/metrics`)).text
    expect(metric(text, 'inferpool_request_errors_total', { model: 'full', version: '1', protocol: 'grpc', code: 'ERR_QUEUE_FULL' })).toBe(
      1,
    )
    expect(
      metric(text, 'inferpool_request_errors_total', { model: 'full', version: '1', protocol: 'grpc', code: 'ERR_INVALID_INPUT' }),
    ).toBe(undefined)
    await full.close({ drain: false })
    const cut = await first
    expect(cut.ok ? 'ok' : cut.code).toBe(grpc.status.UNAVAILABLE)
  })

  it('parks a gRPC request that does not fit yet, undecoded, in the same first-come line as HTTP requests, and serves both once room frees', async () => {
    const small = await pool({ batching: { minBatchSize: 2, maxBatchSize: 2, maxWaitMs: Infinity, maxQueueSize: 3 } })
    const { server: s, url, client } = await server({ small }, { admissionWaitMs: 60_000 })
    const door = s.handler.served.door(small)
    const first = client.call('ModelInfer', demoInfer('small', demoRows(4, 1)))
    await until(() => small.stats.queued === 1)
    // 1 + 3 rows do not fit a queue of 3: the gRPC request waits at the door.
    const three = client.call('ModelInfer', demoInfer('small', demoRows(5, 3)))
    await until(() => door.parked === 1)
    // One row would fit, but an HTTP request does not pass the one waiting before it.
    const behind = post(`${url}/v2/models/small/infer`, demoRequest(demoRows(6, 1)))
    await until(() => door.parked === 2)
    expect(small.stats.queued).toBe(1)
    // A row straight into the pool completes a batch of 2: the queue empties, the door lets both through in order.
    const direct = small.infer({ input: Float32Array.from(demoRows(7, 1)[0]) })
    const [one, many, http1] = await Promise.all([first, three, behind, direct])
    expect(one.ok && one.response.outputs[0].shape).toEqual([1, 16])
    expect(many.ok && many.response.outputs[0].shape).toEqual([3, 16])
    expect(http1.status).toBe(200)
    expect(door.parked).toBe(0)
  })

  it('takes served models directly: an HTTP handler and a gRPC service over one ServedModels', async () => {
    const demo = await pool()
    const served = new ServedModels({ demo })
    expect(createRequestHandler(served).served).toBe(served)
    expect(() => createRequestHandler(served, {})).toThrow(
      new TypeError('Expected no `options` with served models: they were given to `new ServedModels(pools, options)`'),
    )
    expect(createGrpcService(served).activeCalls).toBe(0)
    expect(() => createGrpcService({ served: 'nope' } as never)).toThrow(
      new TypeError('Expected served models (or a handler made by createRequestHandler), got `[object Object]`'),
    )
  })
})
