import { request } from 'node:http'
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool, resolvePoolOptions } from '@inferpool/host'
import { createRequestHandler, createServer, serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { workers } from '../../host/test/fixtures/models.js'
import { demoModel, demoRequest, demoRows, http, metric, post, repoModel } from './server-helpers.js'

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

async function server(...args: Parameters<typeof serve>): Promise<string> {
  const s = await serve(args[0], { port: 0, closePools: false, ...args[1] })
  servers.push(s)
  return s.url as string
}

let demo: Pool
let multi: Pool
let tokens: Pool
let url: string
beforeAll(async () => {
  demo = await pool({ model: demoModel, replicas: 1 })
  ;[multi, tokens] = await Promise.all([
    pool({ model: repoModel('multi-io.onnx'), replicas: 1 }),
    pool({ model: repoModel('token-pool.onnx'), replicas: 1 }),
  ])
  url = await server({ demo, multi, tokens })
})

describe('health and metadata endpoints', () => {
  it('answers live and ready with 200 once every pool has loaded', async () => {
    expect(await http(`${url}/v2/health/live`)).toMatchObject({ status: 200, json: { live: true } })
    expect(await http(`${url}/v2/health/ready`)).toMatchObject({ status: 200, json: { ready: true } })
  })

  it('answers HEAD like GET, without a body', async () => {
    const res = await http(`${url}/v2/health/live`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.text).toBe('')
  })

  it('describes the server at /v2', async () => {
    expect(await http(`${url}/v2`)).toMatchObject({
      status: 200,
      json: { name: 'inferpool', version: '0.1.0', extensions: ['binary_tensor_data', 'model_configuration', 'statistics'] },
    })
  })

  it('describes a model: inputs and outputs with protocol datatypes, -1 for dynamic axes', async () => {
    const expected = {
      name: 'demo',
      versions: ['1'],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [-1, 256] }],
      outputs: [{ name: 'output', datatype: 'FP32', shape: [-1, 16] }],
      parameters: {
        max_batch_size: demo.metadata.maxBatchSize,
        fixed_batch_size: null,
        replicas: 1,
        concurrency: 1,
        execution_provider: 'cpu',
      },
    }
    expect(await http(`${url}/v2/models/demo`)).toMatchObject({ status: 200, json: expected })
    expect(await http(`${url}/v2/models/demo/versions/1`)).toMatchObject({ status: 200, json: expected })
    const tokens = await http(`${url}/v2/models/tokens`)
    expect(tokens.json).toMatchObject({
      inputs: [
        { name: 'input_ids', datatype: 'INT64', shape: [-1, -1] },
        { name: 'attention_mask', datatype: 'INT64', shape: [-1, -1] },
      ],
    })
  })

  it('reports a served model ready, an unknown one or version not ready (400, as Triton), and its metadata as 404 ERR_MODEL_NOT_FOUND', async () => {
    expect(await http(`${url}/v2/models/demo/ready`)).toMatchObject({ status: 200, json: { name: 'demo', ready: true } })
    expect(await http(`${url}/v2/models/demo/versions/1/ready`)).toMatchObject({ status: 200 })
    expect(await http(`${url}/v2/models/nope/ready`)).toMatchObject({ status: 400, json: { name: 'nope', ready: false } })
    expect(await http(`${url}/v2/models/demo/versions/2/ready`)).toMatchObject({ status: 400, json: { name: 'demo', ready: false } })
    for (const path of ['/v2/models/nope', '/v2/models/demo/versions/2']) {
      const res = await http(`${url}${path}`)
      expect(res.status).toBe(404)
      expect((res.json as { code: string }).code).toBe('ERR_MODEL_NOT_FOUND')
    }
  })
})

describe('inference', () => {
  it('answers one row with the pool result, echoing the id', async () => {
    const [row] = demoRows(1, 1)
    const res = await post(`${url}/v2/models/demo/infer`, demoRequest([row], { id: 'req-7' }))
    const direct = await demo.infer({ input: Float32Array.from(row) })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.json).toEqual({
      model_name: 'demo',
      model_version: '1',
      id: 'req-7',
      outputs: [{ name: 'output', datatype: 'FP32', shape: [1, 16], data: Array.from(direct.output.data as Float32Array) }],
    })
  })

  it('answers a request of N rows exactly as N single-row requests, in order', async () => {
    const rows = demoRows(2, 5)
    const batched = await post(`${url}/v2/models/demo/infer`, demoRequest(rows))
    const singles = await Promise.all(rows.map((row) => post(`${url}/v2/models/demo/infer`, demoRequest([row]))))
    type Out = { outputs: Array<{ shape: number[]; data: number[] }> }
    const out = (batched.json as Out).outputs[0]
    expect(out.shape).toEqual([5, 16])
    expect(out.data).toEqual(singles.flatMap((s) => (s.json as Out).outputs[0].data))
  })

  it('takes nested data the same as flat row-major data', async () => {
    const rows = demoRows(3, 2)
    const flat = await post(`${url}/v2/models/demo/infer`, demoRequest(rows))
    const nested = await post(`${url}/v2/models/demo/infer`, {
      inputs: [{ name: 'input', shape: [2, 256], datatype: 'FP32', data: rows }],
    })
    expect(nested.status).toBe(200)
    expect(nested.json).toEqual(flat.json)
  })

  it('returns only the requested outputs, with integer and float64 datatypes', async () => {
    const body = {
      inputs: [
        { name: 'a', shape: [2, 3], datatype: 'FP32', data: [1, 2, 3, 4, 5, 6] },
        {
          name: 'b',
          shape: [2, 2],
          datatype: 'INT32',
          data: [
            [1, 2],
            [30, -4],
          ],
        },
      ],
      outputs: [{ name: 'b_sum' }],
    }
    const res = await post(`${url}/v2/models/multi/infer`, body)
    const direct = await Promise.all([
      multi.infer({ a: Float32Array.of(1, 2, 3), b: Int32Array.of(1, 2) }),
      multi.infer({ a: Float32Array.of(4, 5, 6), b: Int32Array.of(30, -4) }),
    ])
    expect(res.status).toBe(200)
    expect(res.json).toEqual({
      model_name: 'multi',
      model_version: '1',
      outputs: [
        {
          name: 'b_sum',
          datatype: 'FP64',
          shape: [2],
          data: direct.flatMap((d) => Array.from(d.b_sum.data as Float64Array)),
        },
      ],
    })
  })

  it('splits a request for a fixed-batch model (dims [1, 8]) into rows of one', async () => {
    const fixed = await pool({ model: repoModel('fixed-batch.onnx'), replicas: 1 })
    const fixedUrl = await server({ fixed })
    const rows = [0, 1, 2].map((r) => Array.from({ length: 8 }, (_, i) => (r * 8 + i) / 10))
    const res = await post(`${fixedUrl}/v2/models/fixed/infer`, {
      inputs: [{ name: 'x', shape: [3, 8], datatype: 'FP32', data: rows }],
    })
    const direct = await Promise.all(rows.map((r) => fixed.infer({ x: Float32Array.from(r) })))
    expect(res.status).toBe(200)
    expect((await http(`${fixedUrl}/v2/models/fixed`)).json).toMatchObject({
      inputs: [{ name: 'x', shape: [1, 8] }],
      parameters: { max_batch_size: 1, fixed_batch_size: 1 },
    })
    expect((res.json as { outputs: Array<{ shape: number[]; data: number[] }> }).outputs[0]).toMatchObject({
      shape: [3, 4],
      data: direct.flatMap((d) => Array.from(d.y.data as Float32Array)),
    })
  })

  it('takes INT64 inputs with a dynamic sequence axis', async () => {
    const ids = [
      [5, 9, 2, 0],
      [7, 7, 1, 3],
    ]
    const mask = [
      [1, 1, 1, 0],
      [1, 1, 1, 1],
    ]
    const res = await post(`${url}/v2/models/tokens/infer`, {
      inputs: [
        { name: 'input_ids', shape: [2, 4], datatype: 'INT64', data: ids.flat() },
        { name: 'attention_mask', shape: [2, 4], datatype: 'INT64', data: mask },
      ],
    })
    const direct = await Promise.all(
      ids.map((row, i) =>
        tokens.infer({
          input_ids: { data: BigInt64Array.from(row.map(BigInt)), dims: [4] },
          attention_mask: { data: BigInt64Array.from(mask[i].map(BigInt)), dims: [4] },
        }),
      ),
    )
    expect(res.status).toBe(200)
    const outputs = (res.json as { outputs: Array<{ name: string; shape: number[]; data: number[] }> }).outputs
    expect(outputs.map((o) => [o.name, o.shape])).toEqual([
      ['token_embeddings', [2, 4, 8]],
      ['pooled', [2, 8]],
    ])
    expect(outputs[1].data).toEqual(direct.flatMap((d) => Array.from(d.pooled.data as Float32Array)))
  })
})

describe('metrics', () => {
  it('serves Prometheus text with every series labelled by model', async () => {
    // Twice: the first batch of a size is its warm-up, left out of the latency model.
    await post(`${url}/v2/models/demo/infer`, demoRequest(demoRows(4, 2)))
    await post(`${url}/v2/models/demo/infer`, demoRequest(demoRows(4, 2)))
    const res = await http(`${url}/metrics`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
    for (const name of [
      'inferpool_requests_total',
      'inferpool_request_duration_seconds',
      'inferpool_queue_length',
      'inferpool_batch_size',
      'inferpool_queue_wait_seconds',
      'inferpool_batch_processing_seconds',
      'inferpool_batch_utilization_ratio',
      'inferpool_rows_rejected_total',
      'inferpool_rows_timed_out_total',
      'inferpool_worker_restarts_total',
      'inferpool_replicas_ready',
      'inferpool_pool_rebuilds_total',
      'inferpool_batch_latency_estimate_seconds',
    ]) {
      expect(res.text).toContain(`# TYPE ${name} `)
    }
    // The latency model's estimates, as the pool's stats give them at scrape time.
    expect(demo.stats.latencyEstimates.find((e) => e.size === 4)?.ms).toBeGreaterThan(0)
    for (const { size, ms } of demo.stats.latencyEstimates) {
      expect(metric(res.text, 'inferpool_batch_latency_estimate_seconds', { model: 'demo', batch_size: String(size) })).toBe(
        ms === undefined ? undefined : ms / 1000,
      )
    }
    for (const model of ['demo', 'multi', 'tokens']) {
      expect(metric(res.text, 'inferpool_queue_length', { model })).toBe(0)
      expect(metric(res.text, 'inferpool_worker_restarts_total', { model })).toBe(0)
      expect(metric(res.text, 'inferpool_pool_rebuilds_total', { model })).toBe(0)
    }
    expect(metric(res.text, 'inferpool_replicas_ready', { model: 'demo' })).toBe(demo.stats.replicas.length)
    expect(metric(res.text, 'inferpool_rows_completed_total', { model: 'demo' })).toBe(demo.stats.completed)
  })

  it('counts worker restarts and crashes of a real worker thread', async () => {
    // A user worker that calls process.exit() on the item marked 'once' (exactly once,
    // counted in shared memory): the pool replaces the thread and re-runs the batch.
    const crashing = await createPool<{ value: number; crash?: 'once' }, number>({
      model: demoModel,
      worker: workers.crash,
      workerOptions: { onceCounter: new Int32Array(new SharedArrayBuffer(4)) },
      replicas: 1,
    })
    pools.push(crashing as unknown as Pool)
    const handler = createRequestHandler({ crash: crashing as unknown as Pool })
    const app = createHttpServer(handler)
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    try {
      const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
      expect(metric((await http(`${base}/metrics`)).text, 'inferpool_worker_restarts_total', { model: 'crash' })).toBe(0)
      expect(await crashing.infer({ value: 4, crash: 'once' })).toBe(8)
      const text = (await http(`${base}/metrics`)).text
      expect(metric(text, 'inferpool_worker_restarts_total', { model: 'crash' })).toBe(1)
      expect(metric(text, 'inferpool_replicas', { model: 'crash' })).toBe(1)
      expect(metric(text, 'inferpool_replicas_ready', { model: 'crash' })).toBe(1)
      expect(metric(text, 'inferpool_rows_completed_total', { model: 'crash' })).toBe(1)
    } finally {
      await new Promise((resolve) => app.close(resolve))
    }
  })

  it('shows concurrent requests sharing batches in the batch size histogram', async () => {
    // One batch forms only once 8 rows wait (maxWaitMs is a hang guard, never reached):
    // 8 concurrent single-row requests must end up in exactly one batch of 8.
    const batched = await pool({ model: demoModel, replicas: 1, batching: { maxBatchSize: 8, minBatchSize: 8, maxWaitMs: 600_000 } })
    const batchedUrl = await server({ demo: batched })
    const rows = demoRows(5, 8)
    const answers = await Promise.all(rows.map((row) => post(`${batchedUrl}/v2/models/demo/infer`, demoRequest([row]))))
    expect(answers.map((a) => a.status)).toEqual(new Array(8).fill(200))
    const text = (await http(`${batchedUrl}/metrics`)).text
    expect(metric(text, 'inferpool_batch_size_count', { model: 'demo' })).toBe(1)
    expect(metric(text, 'inferpool_batch_size_sum', { model: 'demo' })).toBe(8)
    expect(metric(text, 'inferpool_batch_size_bucket', { model: 'demo', le: '4' })).toBe(0)
    expect(metric(text, 'inferpool_batch_size_bucket', { model: 'demo', le: '8' })).toBe(1)
    expect(metric(text, 'inferpool_batch_utilization_ratio_bucket', { model: 'demo', le: '0.9' })).toBe(0)
    expect(metric(text, 'inferpool_batch_utilization_ratio_bucket', { model: 'demo', le: '1' })).toBe(1)
    expect(metric(text, 'inferpool_queue_wait_seconds_count', { model: 'demo' })).toBe(8)
    expect(metric(text, 'inferpool_batch_processing_seconds_count', { model: 'demo' })).toBe(1)
    expect(metric(text, 'inferpool_requests_total', { model: 'demo', version: '1', protocol: 'http', status: '200' })).toBe(8)
    expect(metric(text, 'inferpool_request_duration_seconds_count', { model: 'demo', version: '1', protocol: 'http' })).toBe(8)
  })
})

describe("errors map to HTTP statuses with the protocol's JSON { error: message } body and our stable code beside it", () => {
  const codeOf = (res: { json: unknown }): string => (res.json as { code: string }).code

  it('404 ERR_NOT_FOUND for an unknown route, 405 with Allow for a wrong method', async () => {
    const missing = await http(`${url}/v1/models`)
    expect([missing.status, codeOf(missing)]).toEqual([404, 'ERR_NOT_FOUND'])
    const wrong = await http(`${url}/v2/models/demo/infer`)
    expect([wrong.status, codeOf(wrong), wrong.headers.allow]).toEqual([405, 'ERR_METHOD_NOT_ALLOWED', 'POST'])
    const wrongHealth = await http(`${url}/v2/health/ready`, { method: 'POST', body: '{}' })
    expect([wrongHealth.status, wrongHealth.headers.allow]).toEqual([405, 'GET, HEAD'])
  })

  it('404 ERR_MODEL_NOT_FOUND for inference on an unknown model', async () => {
    const res = await post(`${url}/v2/models/nope/infer`, demoRequest(demoRows(1, 1)))
    expect(res.status).toBe(404)
    expect(res.json).toEqual({ error: "Unknown model 'nope'", code: 'ERR_MODEL_NOT_FOUND' })
  })

  it('400 ERR_MALFORMED_JSON for a body that is not JSON', async () => {
    const res = await post(`${url}/v2/models/demo/infer`, '{"inputs": [')
    expect([res.status, codeOf(res)]).toEqual([400, 'ERR_MALFORMED_JSON'])
  })

  it('400 ERR_INVALID_INPUT saying what was expected', async () => {
    const res = await post(`${url}/v2/models/demo/infer`, {
      inputs: [{ name: 'input', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] }],
    })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({
      error: 'Input "input" has dims [3], expected float32 [256] without the batch dimension (axis 0 must be 256)',
      code: 'ERR_INVALID_INPUT',
    })
  })

  it("400 ERR_INVALID_INPUT saying 'none' or 'an empty array' for missing or empty inputs", async () => {
    const [missing, empty] = await Promise.all([
      post(`${url}/v2/models/demo/infer`, {}),
      post(`${url}/v2/models/demo/infer`, { inputs: [] }),
    ])
    expect([missing.status, missing.json, empty.status, empty.json]).toEqual([
      400,
      { error: "'inputs' must be a non-empty array, got none", code: 'ERR_INVALID_INPUT' },
      400,
      { error: "'inputs' must be a non-empty array, got an empty array", code: 'ERR_INVALID_INPUT' },
    ])
  })

  it('415 ERR_UNSUPPORTED_MEDIA_TYPE for a compressed body', async () => {
    const res = await http(`${url}/v2/models/demo/infer`, {
      method: 'POST',
      body: Buffer.from([0x1f, 0x8b]),
      headers: { 'content-encoding': 'gzip' },
    })
    expect([res.status, codeOf(res)]).toEqual([415, 'ERR_UNSUPPORTED_MEDIA_TYPE'])
  })

  it('413 ERR_PAYLOAD_TOO_LARGE from Content-Length, before reading the body', async () => {
    const small = await server({ demo }, { maxBodyBytes: 2048 })
    const res = await post(`${small}/v2/models/demo/infer`, demoRequest(demoRows(6, 1)))
    expect([res.status, codeOf(res), res.headers.connection]).toEqual([413, 'ERR_PAYLOAD_TOO_LARGE', 'close'])
    const ok = await post(`${small}/v2/models/demo/infer`, demoRequest([new Array(256).fill(0)]))
    expect(ok.status).toBe(200)
  })

  it('413 for a chunked body as soon as it crosses the limit, without reading the rest', async () => {
    const small = await server({ demo }, { maxBodyBytes: 2048 })
    const cap = 256 * 1024 * 1024
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const { status, code, written } = await new Promise<{ status: number; code: string; written: number }>((resolve, reject) => {
      let written = 0
      let answered = false
      const req = request(`${small}/v2/models/demo/infer`, { method: 'POST', agent: false }, (res) => {
        answered = true
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as { code: string }
          resolve({ status: res.statusCode ?? 0, code: body.code, written })
          req.destroy()
        })
      })
      // The server closes the connection once it has answered: a write error after that is expected.
      req.on('error', (error) => (answered ? undefined : reject(error)))
      const pump = (): void => {
        while (!answered && written < cap) {
          written += chunk.length
          if (!req.write(chunk)) return void req.once('drain', pump)
        }
        if (!answered) req.end()
      }
      pump()
    })
    expect([status, code]).toEqual([413, 'ERR_PAYLOAD_TOO_LARGE'])
    expect(written).toBeLessThan(cap)
  })

  it('500 with the pool code when the model fails on a row; other requests in the same batch succeed', async () => {
    // The three rows can only run as one batch of 3; the pool then isolates the bad one.
    const poison = await pool({
      model: repoModel('poison.onnx'),
      replicas: 1,
      batching: { maxBatchSize: 3, minBatchSize: 3, maxWaitMs: 600_000 },
      logger: { warn() {}, info() {} },
    })
    const poisonUrl = await server({ poison }, { logger: { error() {}, info() {} } })
    const body = (x0: number): unknown => ({ inputs: [{ name: 'x', shape: [1, 4], datatype: 'FP32', data: [x0, 1, 2, 3] }] })
    const [bad, good1, good2] = await Promise.all([
      post(`${poisonUrl}/v2/models/poison/infer`, body(50)),
      post(`${poisonUrl}/v2/models/poison/infer`, body(1)),
      post(`${poisonUrl}/v2/models/poison/infer`, body(2)),
    ])
    expect([bad.status, codeOf(bad)]).toEqual([500, 'ERR_INFERENCE'])
    expect([good1.status, good2.status]).toEqual([200, 200])
  })

  describe('with rows waiting for a batch that never fills', () => {
    let waitingUrl: string
    let waiting: Pool
    beforeAll(async () => {
      waiting = await pool({
        model: demoModel,
        replicas: 1,
        batching: { maxBatchSize: 8, minBatchSize: 8, maxWaitMs: 600_000, maxQueueSize: 2 },
      })
      waitingUrl = await server({ demo: waiting }, { timeoutMs: 50, retryAfterSeconds: 3 })
    })

    it('504 ERR_TIMEOUT when the per-request timeout passes', async () => {
      const res = await post(`${waitingUrl}/v2/models/demo/infer`, demoRequest(demoRows(7, 1)))
      expect(res.status).toBe(504)
      expect(res.json).toEqual({ error: 'Request timed out after 50 ms', code: 'ERR_TIMEOUT' })
      const text = (await http(`${waitingUrl}/metrics`)).text
      expect(metric(text, 'inferpool_rows_timed_out_total', { model: 'demo' })).toBe(1)
      expect(metric(text, 'inferpool_request_errors_total', { model: 'demo', version: '1', protocol: 'http', code: 'ERR_TIMEOUT' })).toBe(1)
    })

    it('413 ERR_REQUEST_TOO_LARGE for more rows than the whole queue holds; none of its rows is queued', async () => {
      const res = await post(`${waitingUrl}/v2/models/demo/infer`, demoRequest(demoRows(8, 3)))
      expect(res.status).toBe(413)
      expect(res.json).toEqual({ error: 'Request of 3 items exceeds the whole queue (maxQueueSize: 2)', code: 'ERR_REQUEST_TOO_LARGE' })
      expect(waiting.stats.queued).toBe(0)
      const text = (await http(`${waitingUrl}/metrics`)).text
      expect(metric(text, 'inferpool_rows_rejected_total', { model: 'demo' })).toBe(3)
      expect(metric(text, 'inferpool_requests_total', { model: 'demo', version: '1', protocol: 'http', status: '413' })).toBe(1)
    })
  })
})

describe('bearer-token auth', () => {
  let authUrl: string
  beforeAll(async () => {
    authUrl = await server({ demo }, { apiKey: 'sekret-token' })
  })

  it('leaves the health endpoints open', async () => {
    expect((await http(`${authUrl}/v2/health/live`)).status).toBe(200)
    expect((await http(`${authUrl}/v2/health/ready`)).status).toBe(200)
  })

  it.each([
    ['no header', undefined],
    ['a wrong token', 'Bearer sekret-tokeN'],
    ['a longer token', 'Bearer sekret-token-and-more'],
    ['another scheme', 'Basic c2VrcmV0LXRva2Vu'],
  ])('answers 401 ERR_UNAUTHORIZED with %s on every other route', async (_case, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization }
    for (const path of ['/v2', '/v2/models/demo', '/v2/models/demo/ready', '/metrics', '/v2/models/nope']) {
      const res = await http(`${authUrl}${path}`, { headers })
      expect([path, res.status, res.headers['www-authenticate']]).toEqual([path, 401, 'Bearer'])
      expect(res.json).toEqual({ error: 'Missing or invalid bearer token', code: 'ERR_UNAUTHORIZED' })
    }
    const infer = await post(`${authUrl}/v2/models/demo/infer`, demoRequest(demoRows(9, 1)), headers)
    expect(infer.status).toBe(401)
  })

  it('serves every route with the right token', async () => {
    const headers = { authorization: 'Bearer sekret-token' }
    expect((await http(`${authUrl}/v2/models/demo`, { headers })).status).toBe(200)
    expect((await http(`${authUrl}/metrics`, { headers })).status).toBe(200)
    const infer = await post(`${authUrl}/v2/models/demo/infer`, demoRequest(demoRows(9, 1)), { authorization: 'bearer sekret-token' })
    expect(infer.status).toBe(200)
  })
})

describe('embedding', () => {
  it('passes paths that are not its own to next() when mounted in a framework', async () => {
    const handler = createRequestHandler({ demo })
    const app = createHttpServer((req, res) =>
      handler(req, res, () => {
        res.statusCode = 200
        res.end('from the app')
      }),
    )
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    try {
      const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
      expect(await http(`${base}/hello`)).toMatchObject({ status: 200, text: 'from the app' })
      expect(await http(`${base}/v2/health/live`)).toMatchObject({ status: 200, json: { live: true } })
      expect((await post(`${base}/v2/models/demo/infer`, demoRequest(demoRows(10, 1)))).status).toBe(200)
    } finally {
      await new Promise((resolve) => app.close(resolve))
    }
  })

  it('after handler.close(): not ready, inference 503 ERR_SHUTTING_DOWN with Connection: close, pools left open', async () => {
    const handler = createRequestHandler({ demo })
    const app = createHttpServer(handler)
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
    try {
      const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
      expect((await http(`${base}/v2/health/ready`)).status).toBe(200)
      await handler.close()
      expect(await http(`${base}/v2/health/ready`)).toMatchObject({ status: 503, json: { ready: false } })
      expect(await http(`${base}/v2/models/demo/ready`)).toMatchObject({ status: 400, json: { name: 'demo', ready: false } })
      const res = await post(`${base}/v2/models/demo/infer`, demoRequest(demoRows(13, 1)))
      expect([res.status, res.headers.connection]).toEqual([503, 'close'])
      expect(res.json).toEqual({ error: 'Server is shutting down', code: 'ERR_SHUTTING_DOWN' })
      expect((await demo.infer({ input: new Float32Array(256) })).output.dims).toEqual([16])
    } finally {
      await new Promise((resolve) => app.close(resolve))
    }
  })

  it('reports not ready while a pool loads, then serves it', async () => {
    let resolvePool!: (pool: Pool) => void
    const loading = new Promise<Pool>((resolve) => (resolvePool = resolve))
    const loadingUrl = await server({ demo: loading })
    expect(await http(`${loadingUrl}/v2/health/live`)).toMatchObject({ status: 200 })
    expect(await http(`${loadingUrl}/v2/health/ready`)).toMatchObject({ status: 503, json: { ready: false } })
    expect(await http(`${loadingUrl}/v2/models/demo/ready`)).toMatchObject({ status: 400, json: { name: 'demo', ready: false } })
    const early = await post(`${loadingUrl}/v2/models/demo/infer`, demoRequest(demoRows(11, 1)))
    expect([early.status, (early.json as { code: string }).code]).toEqual([503, 'ERR_MODEL_NOT_READY'])
    resolvePool(demo)
    await servers.at(-1)?.handler.ready()
    expect(await http(`${loadingUrl}/v2/health/ready`)).toMatchObject({ status: 200, json: { ready: true } })
    expect((await post(`${loadingUrl}/v2/models/demo/infer`, demoRequest(demoRows(11, 1)))).status).toBe(200)
  })

  it('keeps answering with 503 ERR_MODEL_NOT_READY when a pool failed to load', async () => {
    const failed = createPool({ model: repoModel('README.md'), replicas: 1 })
    const handler = createRequestHandler({ broken: failed, demo })
    await expect(handler.ready()).rejects.toMatchObject({ code: 'ERR_MODEL_LOAD' })
    const s = await serve({ broken: failed, demo }, { port: 0, closePools: false })
    servers.push(s)
    expect((await http(`${s.url}/v2/health/ready`)).status).toBe(503)
    const res = await post(`${s.url}/v2/models/broken/infer`, demoRequest(demoRows(12, 1)))
    expect([res.status, (res.json as { code: string }).code]).toEqual([503, 'ERR_MODEL_NOT_READY'])
    expect((await post(`${s.url}/v2/models/demo/infer`, demoRequest(demoRows(12, 1)))).status).toBe(200)
  })

  it('validates its options once, naming the option and echoing the value', () => {
    expect(() => createRequestHandler({ demo }, { maxBodyBytes: 0 })).toThrow(
      new RangeError('Expected `maxBodyBytes` to be an integer >= 1, got `0` (number)'),
    )
    expect(() => createRequestHandler({ demo }, { apiKey: '' })).toThrow(
      new TypeError('Expected `apiKey` to be a non-empty string, got `""` (string)'),
    )
    expect(() => createRequestHandler({ demo }, { timeoutMs: -5 })).toThrow(
      new RangeError('Expected `timeoutMs` to be a finite number > 0 and <= 2147483647, got `-5` (number)'),
    )
    // One validator set (@inferpool/core/internal): a number of the wrong kind is a
    // RangeError here as in the batcher and the pool, a value of the wrong type a TypeError.
    expect(() => createRequestHandler({ demo }, { maxRowsPerRequest: 1.5 })).toThrow(
      new RangeError('Expected `maxRowsPerRequest` to be an integer >= 1, got `1.5` (number)'),
    )
    expect(() => createRequestHandler({ demo }, { maxRowsPerRequest: '2' as unknown as number })).toThrow(
      new TypeError('Expected `maxRowsPerRequest` to be an integer >= 1, got `"2"` (string)'),
    )
    expect(() => createServer({ demo }, { port: 65536 })).toThrow(
      new RangeError('Expected `port` to be an integer in [0, 65535], got `65536` (number)'),
    )
    expect(() => createServer({ demo }, { shutdownTimeoutMs: 1.5 })).toThrow(
      new RangeError('Expected `shutdownTimeoutMs` to be an integer in [0, 2147483647], got `1.5` (number)'),
    )
    expect(() => createServer({ demo }, { idleCollectMs: -1 })).toThrow(
      new RangeError('Expected `idleCollectMs` to be an integer in [0, 2147483647], got `-1` (number)'),
    )
    expect(() => createServer({ demo }, { idleCollectMs: 2 ** 31 })).toThrow(
      new RangeError('Expected `idleCollectMs` to be an integer in [0, 2147483647], got `2147483648` (number)'),
    )
    expect(() => createServer({ demo }, { collectGarbage: 'gc' as unknown as () => void })).toThrow(
      new TypeError('Expected `collectGarbage` to be a function, got `"gc"` (string)'),
    )
    expect(() => resolvePoolOptions({ model: 'm.onnx', replicas: 1.5 })).toThrow(
      new RangeError('Expected `replicas` to be an integer >= 1, got `1.5` (number)'),
    )
    expect(() => createRequestHandler({})).toThrow(new TypeError('Expected `pools` to hold at least one model, got none'))
    expect(() => createRequestHandler({ 'a/b': demo })).toThrow(TypeError)
  })
})
