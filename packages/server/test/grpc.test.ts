import { InferenceSession, Tensor } from 'onnxruntime-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { modelConfigOf, serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { drain, float32s, float64s, grpc, grpcClient, rawBytes } from './grpc-helpers.js'
import type { Message, Outcome, TestClient } from './grpc-helpers.js'
import { demoModel, demoRequest, demoRows, http, metric, post, repoModel, until } from './server-helpers.js'

const pools: Pool[] = []
const servers: InferpoolServer[] = []
const clients: TestClient[] = []
afterAll(async () => {
  for (const client of clients) client.close()
  await Promise.all(servers.map((s) => s.close()))
  await Promise.all(pools.map((p) => p.close()))
})

const quiet = { error() {}, info() {}, warn() {} }

async function pool(options: Parameters<typeof createPool>[0]): Promise<Pool> {
  const p = await createPool({ logger: quiet, ...options })
  pools.push(p)
  return p
}

/** Serves `models` over HTTP and gRPC (both on free ports); returns the URL and a gRPC client. */
async function server(
  models: Parameters<typeof serve>[0],
  options: Parameters<typeof serve>[1] = {},
): Promise<{ url: string; client: TestClient; server: InferpoolServer }> {
  const s = await serve(models, { port: 0, grpcPort: 0, closePools: false, logger: quiet, ...options })
  servers.push(s)
  const client = grpcClient(s.grpcAddress as string)
  clients.push(client)
  return { url: s.url as string, client, server: s }
}

function ok(outcome: Outcome<Message>): Message {
  if (!outcome.ok) throw new Error(`expected a response, got status ${outcome.code}: ${outcome.details}`)
  return outcome.response
}

/** A failed call's status, message and our code, the way assertions compare them. */
function failure(outcome: Outcome<Message>): { code: grpc.status; inferpoolCode: string | undefined; details: string } {
  if (outcome.ok) throw new Error('expected a failure, got a response')
  return { code: outcome.code, inferpoolCode: outcome.metadata['inferpool-code'], details: outcome.details }
}

function demoInfer(rows: number[][], extra: Message = {}): Message {
  return {
    model_name: 'demo',
    inputs: [{ name: 'input', datatype: 'FP32', shape: [rows.length, 256] }],
    raw_input_contents: [rawBytes(Float32Array.from(rows.flat()))],
    ...extra,
  }
}

let demo: Pool
let multi: Pool
let tokens: Pool
let url: string
let client: TestClient
beforeAll(async () => {
  ;[demo, multi, tokens] = await Promise.all([
    pool({ model: demoModel, replicas: 1 }),
    pool({ model: repoModel('multi-io.onnx'), replicas: 1 }),
    pool({ model: repoModel('token-pool.onnx'), replicas: 1 }),
  ])
  ;({ url, client } = await server({ demo, multi, tokens }))
})

describe('health and metadata RPCs', () => {
  it('answers ServerLive, ServerReady and ServerMetadata', async () => {
    expect(ok(await client.call('ServerLive', {}))).toEqual({ live: true })
    expect(ok(await client.call('ServerReady', {}))).toEqual({ ready: true })
    const { json: httpServer } = await http(`${url}/v2`)
    expect(ok(await client.call('ServerMetadata', {}))).toEqual(httpServer)
    expect(httpServer).toEqual({
      name: 'inferpool',
      version: '0.1.0',
      extensions: ['binary_tensor_data', 'model_configuration', 'statistics'],
    })
  })

  it('answers ModelReady and ModelMetadata as the HTTP routes do, and NOT_FOUND for an unknown model or version', async () => {
    expect(ok(await client.call('ModelReady', { name: 'demo' }))).toEqual({ ready: true })
    expect(ok(await client.call('ModelReady', { name: 'demo', version: '1' }))).toEqual({ ready: true })
    // As Triton (InferenceServer::ModelIsReady): a model or version not served is not ready, not an error.
    expect(ok(await client.call('ModelReady', { name: 'nope' }))).toEqual({ ready: false })
    expect(ok(await client.call('ModelReady', { name: 'demo', version: '2' }))).toEqual({ ready: false })
    const metadata = ok(await client.call('ModelMetadata', { name: 'tokens' }))
    const { parameters: _, ...httpMetadata } = (await http(`${url}/v2/models/tokens`)).json as Message
    expect(metadata).toEqual(httpMetadata)
    expect(metadata.inputs).toEqual([
      { name: 'input_ids', datatype: 'INT64', shape: [-1, -1] },
      { name: 'attention_mask', datatype: 'INT64', shape: [-1, -1] },
    ])
    for (const [method, request] of [
      ['ModelMetadata', { name: 'nope' }],
      ['ModelMetadata', { name: 'demo', version: '2' }],
      ['ModelInfer', { model_name: 'nope' }],
    ] as const) {
      expect(failure(await client.call(method, request))).toMatchObject({
        code: grpc.status.NOT_FOUND,
        inferpoolCode: 'ERR_MODEL_NOT_FOUND',
      })
    }
  })
})

describe('ModelConfig and ModelStatistics', () => {
  it("answers ModelConfig with Triton's model configuration, as the HTTP /config route has it", async () => {
    for (const name of ['multi', 'tokens']) {
      const response = ok(await client.call('ModelConfig', { name }))
      expect(response.config).toMatchObject(modelConfigOf(name, name === 'multi' ? multi : tokens) as unknown as Message)
    }
    expect(ok(await client.call('ModelConfig', { name: 'multi' })).config.input).toEqual([
      {
        name: 'a',
        data_type: 'TYPE_FP32',
        format: 'FORMAT_NONE',
        dims: [3],
        is_shape_tensor: false,
        allow_ragged_batch: false,
        optional: false, // The published ModelConfig's other ModelInput fields, at their defaults.
        reshape: null,
        is_non_linear_format_io: false,
      },
      {
        name: 'b',
        data_type: 'TYPE_INT32',
        format: 'FORMAT_NONE',
        dims: [2],
        is_shape_tensor: false,
        allow_ragged_batch: false,
        optional: false, // The published ModelConfig's other ModelInput fields, at their defaults.
        reshape: null,
        is_non_linear_format_io: false,
      },
    ])
    expect(failure(await client.call('ModelConfig', { name: 'nope' })).code).toBe(grpc.status.NOT_FOUND)
  })

  it('answers ModelStatistics with the counts of the requests it served and the batches they ran in', async () => {
    const counted = await pool({ model: demoModel, replicas: 1 })
    const { client: statsClient } = await server({ counted })
    ok(await statsClient.call('ModelInfer', { ...demoInfer(demoRows(15, 2)), model_name: 'counted' }))
    ok(await statsClient.call('ModelInfer', { ...demoInfer(demoRows(16, 1)), model_name: 'counted' }))
    failure(await statsClient.call('ModelInfer', { model_name: 'counted', inputs: [] }))
    const [stats] = ok(await statsClient.call('ModelStatistics', { name: 'counted' })).model_stats
    expect(stats).toMatchObject({
      name: 'counted',
      version: '1',
      inference_count: 3,
      inference_stats: { success: { count: 2 }, fail: { count: 1 }, queue: { count: 3 }, compute_infer: { count: 3 } },
    })
    expect(stats.last_inference).toBeGreaterThan(0)
    expect(stats.inference_stats.compute_infer.ns).toBeGreaterThan(0)
    const batches = stats.batch_stats as Array<{ batch_size: number; compute_infer: { count: number } }>
    expect(batches.reduce((rows, b) => rows + b.batch_size * b.compute_infer.count, 0)).toBe(3)
    expect(batches.reduce((runs, b) => runs + b.compute_infer.count, 0)).toBe(stats.execution_count)
    const all = ok(await statsClient.call('ModelStatistics', {})).model_stats as Message[]
    expect(all.map((m) => m.name)).toEqual(['counted'])
  })
})

describe('ModelInfer', () => {
  it('answers raw input contents with raw output contents equal to direct onnxruntime, echoing the id', async () => {
    const rows = demoRows(11, 3)
    const response = ok(await client.call('ModelInfer', demoInfer(rows, { id: 'req-1' })))
    const direct = await Promise.all(rows.map((row) => demo.infer({ input: Float32Array.from(row) })))
    expect(response.id).toBe('req-1')
    expect(response.model_name).toBe('demo')
    expect(response.model_version).toBe('1')
    expect(response.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [3, 16], parameters: {}, contents: null }])
    expect(response.raw_output_contents).toHaveLength(1)
    expect(float32s(response.raw_output_contents[0])).toEqual(direct.flatMap((d) => Array.from(d.output.data as Float32Array)))
  })

  it('reads raw contents at any byte offset of the message (ids of 4 lengths shift them by 0-3 bytes)', async () => {
    const [row] = demoRows(12, 1)
    const expected = Array.from((await demo.infer({ input: Float32Array.from(row) })).output.data as Float32Array)
    for (const id of ['', 'a', 'ab', 'abc']) {
      const response = ok(await client.call('ModelInfer', demoInfer([row], { id })))
      expect([id, float32s(response.raw_output_contents[0])]).toEqual([id, expected])
    }
  })

  it('reads typed contents (fp32_contents, int_contents) and returns only the requested outputs', async () => {
    const response = ok(
      await client.call('ModelInfer', {
        model_name: 'multi',
        inputs: [
          { name: 'a', datatype: 'FP32', shape: [2, 3], contents: { fp32_contents: [1, 2, 3, 4, 5, 6] } },
          { name: 'b', datatype: 'INT32', shape: [2, 2], contents: { int_contents: [1, 2, 30, -4] } },
        ],
        outputs: [{ name: 'b_sum' }],
      }),
    )
    const direct = await Promise.all([
      multi.infer({ a: Float32Array.of(1, 2, 3), b: Int32Array.of(1, 2) }),
      multi.infer({ a: Float32Array.of(4, 5, 6), b: Int32Array.of(30, -4) }),
    ])
    expect(response.outputs.map((o: Message) => [o.name, o.datatype, o.shape])).toEqual([['b_sum', 'FP64', [2]]])
    expect(float64s(response.raw_output_contents[0])).toEqual(direct.flatMap((d) => Array.from(d.b_sum.data as Float64Array)))
  })

  it('reads INT64 as int64_contents and as raw bytes alike', async () => {
    const ids = [5n, 9n, 2n, 7n]
    const mask = [1n, 1n, 1n, 0n]
    const typed = ok(
      await client.call('ModelInfer', {
        model_name: 'tokens',
        inputs: [
          { name: 'input_ids', datatype: 'INT64', shape: [1, 4], contents: { int64_contents: ids.map(Number) } },
          { name: 'attention_mask', datatype: 'INT64', shape: [1, 4], contents: { int64_contents: mask.map(Number) } },
        ],
      }),
    )
    const raw = ok(
      await client.call('ModelInfer', {
        model_name: 'tokens',
        inputs: [
          { name: 'input_ids', datatype: 'INT64', shape: [1, 4] },
          { name: 'attention_mask', datatype: 'INT64', shape: [1, 4] },
        ],
        raw_input_contents: [rawBytes(BigInt64Array.from(ids)), rawBytes(BigInt64Array.from(mask))],
      }),
    )
    const direct = await tokens.infer({
      input_ids: { data: BigInt64Array.from(ids), dims: [4] },
      attention_mask: { data: BigInt64Array.from(mask), dims: [4] },
    })
    const name = tokens.metadata.outputs[0].name
    expect(typed.raw_output_contents).toEqual(raw.raw_output_contents)
    expect(Buffer.from(typed.raw_output_contents[0])).toEqual(rawBytes(direct[name].data as ArrayBufferView))
  })

  it('takes and returns FP16 as raw half-precision bits, equal to a direct onnxruntime session', async () => {
    const fp16 = await pool({ model: repoModel('fp16.onnx'), replicas: 1 })
    const session = await InferenceSession.create(repoModel('fp16.onnx'), { intraOpNumThreads: 1 })
    try {
      const { client: halfClient } = await server({ fp16 })
      // 1, -2, 1/3 (rounded), the smallest subnormal, -0.5, 0, 0.5, 5 as IEEE half bits.
      const x = new Uint16Array([0x3c00, 0xc000, 0x3555, 0x0001, 0xb800, 0x0000, 0x3800, 0x4500])
      const response = ok(
        await halfClient.call('ModelInfer', {
          model_name: 'fp16',
          inputs: [{ name: 'x', datatype: 'FP16', shape: [2, 4] }],
          raw_input_contents: [rawBytes(x)],
        }),
      )
      const direct = await session.run({ x: new Tensor('float16', x, [2, 4]) })
      // y = f(x) in FP16, sum in FP32 per row.
      expect(response.outputs.map((o: Message) => [o.name, o.datatype, o.shape])).toEqual([
        ['y', 'FP16', [2, 4]],
        ['sum', 'FP32', [2]],
      ])
      expect(response.raw_output_contents.map((raw: Uint8Array) => Buffer.from(raw))).toEqual([
        rawBytes(direct.y.data as Uint16Array),
        rawBytes(direct.sum.data as Float32Array),
      ])
      expect(
        failure(
          await halfClient.call('ModelInfer', {
            model_name: 'fp16',
            inputs: [{ name: 'x', datatype: 'FP16', shape: [1, 4], contents: { fp32_contents: [1, 2, 3, 4] } }],
          }),
        ),
      ).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, inferpoolCode: 'ERR_INVALID_INPUT' })
    } finally {
      await session.release()
    }
  })

  it('takes BYTES as bytes_contents or length-prefixed raw bytes, and answers them length-prefixed', async () => {
    const strings = await pool({ model: repoModel('strings.onnx'), replicas: 1 })
    const { client: textClient } = await server({ strings })
    const words = ['héllo', '', 'wörld', 'x'.repeat(300)]
    const framed = Buffer.concat(
      words.map((w) => {
        const bytes = Buffer.from(w, 'utf8')
        const length = Buffer.alloc(4)
        length.writeUInt32LE(bytes.length)
        return Buffer.concat([length, bytes])
      }),
    )
    const typed = ok(
      await textClient.call('ModelInfer', {
        model_name: 'strings',
        inputs: [
          { name: 'text', datatype: 'BYTES', shape: [2, 2], contents: { bytes_contents: words.map((w) => Buffer.from(w, 'utf8')) } },
        ],
      }),
    )
    const raw = ok(
      await textClient.call('ModelInfer', {
        model_name: 'strings',
        inputs: [{ name: 'text', datatype: 'BYTES', shape: [2, 2] }],
        raw_input_contents: [framed],
      }),
    )
    // The model echoes its input: the answer is the same framing, rows in order.
    for (const response of [typed, raw]) {
      expect(response.outputs.map((o: Message) => [o.name, o.datatype, o.shape])).toEqual([['echo', 'BYTES', [2, 2]]])
      expect(Buffer.from(response.raw_output_contents[0])).toEqual(framed)
    }
    expect(
      failure(
        await textClient.call('ModelInfer', {
          model_name: 'strings',
          inputs: [
            { name: 'text', datatype: 'BYTES', shape: [1, 2], contents: { bytes_contents: [Buffer.from([0xff]), Buffer.from('ok')] } },
          ],
        }),
      ),
    ).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      inferpoolCode: 'ERR_INVALID_INPUT',
      details: 'Input "text": BYTES element 0 is not valid UTF-8; the model\'s string input takes text',
    })
  })

  it('refuses bad input with INVALID_ARGUMENT, the message HTTP gives and ERR_INVALID_INPUT', async () => {
    const [row] = demoRows(13, 1)
    const badShape = {
      model_name: 'demo',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 255] }],
      raw_input_contents: [rawBytes(Float32Array.from(row.slice(0, 255)))],
    }
    const httpAnswer = await post(`${url}/v2/models/demo/infer`, {
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 255], data: row.slice(0, 255) }],
    })
    expect(failure(await client.call('ModelInfer', badShape))).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      inferpoolCode: 'ERR_INVALID_INPUT',
      details: (httpAnswer.json as { error: string }).error,
    })
    expect(failure(await client.call('ModelInfer', { ...demoInfer([row]), raw_input_contents: [Buffer.alloc(1020)] }))).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      inferpoolCode: 'ERR_MALFORMED_BINARY',
      details: 'Malformed binary tensor data: "input": shape [1, 256] of FP32 needs 1024 bytes, raw_input_contents[0] is 1020',
    })
    const cases: Array<[Message, string]> = [
      [{ ...demoInfer([row]), raw_input_contents: [] }, 'Input "input": shape [1, 256] holds 256 elements, \'data\' has 0'],
      [
        { ...demoInfer([row]), raw_input_contents: [rawBytes(Float32Array.from(row)), Buffer.alloc(4)] },
        "'raw_input_contents' must hold one entry per input: the request has 1 input(s) and 2 raw entries",
      ],
      [
        { model_name: 'demo', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256], contents: { fp64_contents: row } }] },
        "Input \"input\" has its elements in 'contents.fp64_contents'; FP32 elements go in 'fp32_contents'",
      ],
      [
        { model_name: 'demo', inputs: [{ name: 'input', datatype: 'INT32', shape: [1, 256] }], raw_input_contents: [Buffer.alloc(1024)] },
        'Input "input" has datatype FP32, the request sends INT32',
      ],
      [
        {
          model_name: 'tokens',
          inputs: [
            { name: 'input_ids', datatype: 'INT64', shape: [1, 1], contents: { int64_contents: [2 ** 53 + 2] } },
            { name: 'attention_mask', datatype: 'INT64', shape: [1, 1], contents: { int64_contents: [1] } },
          ],
        },
        'Input "input_ids": element 0 is number 9007199254740994, expected a safe integer (|n| <= 2^53 - 1)',
      ],
    ]
    for (const [request, details] of cases) {
      expect(failure(await client.call('ModelInfer', request))).toEqual({
        code: grpc.status.INVALID_ARGUMENT,
        inferpoolCode: 'ERR_INVALID_INPUT',
        details,
      })
    }
  })

  it('refuses a message over maxMessageBytes with RESOURCE_EXHAUSTED before decoding it', async () => {
    const small = await server({ demo }, { maxMessageBytes: 512 })
    const outcome = await small.client.call('ModelInfer', demoInfer(demoRows(14, 1)))
    expect(outcome.ok ? 'ok' : outcome.code).toBe(grpc.status.RESOURCE_EXHAUSTED)
  })
})

describe('ModelStreamInfer', () => {
  it('answers each request with its id; a failing request gets error_message and the stream goes on', async () => {
    const rows = demoRows(21, 3)
    const stream = client.stream()
    const done = drain(stream)
    stream.write(demoInfer([rows[0]], { id: 'first' }))
    stream.write({
      model_name: 'demo',
      id: 'bad',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 3], contents: { fp32_contents: [1, 2, 3] } }],
    })
    stream.write({
      ...demoInfer([rows[1]], { id: 'third' }),
      raw_input_contents: undefined,
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256], contents: { fp32_contents: rows[1] } }],
    })
    stream.write({ model_name: 'nope', id: 'unknown-model' })
    stream.write(demoInfer([rows[2]], { id: 'last' }))
    stream.end()
    const { responses, status } = await done
    expect(status.code).toBe(grpc.status.OK)
    const byId = new Map(responses.map((r) => [r.infer_response.id as string, r]))
    expect([...byId.keys()].sort()).toEqual(['bad', 'first', 'last', 'third', 'unknown-model'])
    const direct = await Promise.all(rows.map((row) => demo.infer({ input: Float32Array.from(row) })))
    for (const [id, i] of [
      ['first', 0],
      ['third', 1],
      ['last', 2],
    ] as const) {
      const response = byId.get(id) as Message
      expect(response.error_message).toBe('')
      expect(float32s(response.infer_response.raw_output_contents[0])).toEqual(Array.from(direct[i].output.data as Float32Array))
    }
    expect(byId.get('bad')?.error_message).toBe(
      'Input "input" has dims [3], expected float32 [256] without the batch dimension (axis 0 must be 256)',
    )
    expect(byId.get('bad')?.infer_response.parameters).toEqual({
      inferpool_code: { string_param: 'ERR_INVALID_INPUT', parameter_choice: 'string_param' },
    })
    expect(byId.get('unknown-model')?.error_message).toBe("Unknown model 'nope'")
  })
})

describe('errors as gRPC statuses', () => {
  it('UNAUTHENTICATED without the bearer token in `authorization` metadata; health RPCs stay open', async () => {
    const guarded = await server({ demo }, { apiKey: 's3cret' })
    const request = demoInfer(demoRows(31, 1))
    for (const token of [undefined, 'wrong']) {
      expect(failure(await guarded.client.call('ModelInfer', request, { token }))).toEqual({
        code: grpc.status.UNAUTHENTICATED,
        inferpoolCode: 'ERR_UNAUTHORIZED',
        details: 'Missing or invalid bearer token',
      })
    }
    const stream = guarded.client.stream({ token: 'wrong' })
    const refused = drain(stream)
    stream.end()
    expect((await refused).status.code).toBe(grpc.status.UNAUTHENTICATED)
    expect(ok(await guarded.client.call('ModelInfer', request, { token: 's3cret' })).outputs[0].shape).toEqual([1, 16])
    expect(ok(await guarded.client.call('ServerLive', {}))).toEqual({ live: true })
    expect(ok(await guarded.client.call('ServerReady', {}))).toEqual({ ready: true })
  })

  it('checks the bearer of a unary call once, in the call guard: the service does not hash it again', async () => {
    const guarded = await server({ demo }, { apiKey: 's3cret' })
    const served = guarded.server.handler.served
    const checked: Array<string | undefined> = []
    const authorized = served.authorized.bind(served)
    served.authorized = (header: unknown) => {
      checked.push(header as string | undefined)
      return authorized(header)
    }
    const request = demoInfer(demoRows(32, 1))
    expect(ok(await guarded.client.call('ModelInfer', request, { token: 's3cret' })).outputs[0].shape).toEqual([1, 16])
    expect(checked).toEqual(['Bearer s3cret'])
  })

  it('INTERNAL with the pool code when the model fails on a row, logged once', async () => {
    const poison = await pool({ model: repoModel('poison.onnx'), replicas: 1 })
    const logged: unknown[][] = []
    const { client: poisonClient } = await server({ poison }, { logger: { error: (...args) => logged.push(args), info() {} } })
    const request = (x0: number, id = ''): Message => ({
      model_name: 'poison',
      id,
      inputs: [{ name: 'x', datatype: 'FP32', shape: [1, 4], contents: { fp32_contents: [x0, 1, 2, 3] } }],
    })
    expect(failure(await poisonClient.call('ModelInfer', request(50)))).toMatchObject({
      code: grpc.status.INTERNAL,
      inferpoolCode: 'ERR_INFERENCE',
    })
    expect(logged.map((args) => [args[0], (args[1] as { code?: string }).code])).toEqual([
      ['inferpool: gRPC request failed', 'ERR_INFERENCE'],
    ])
    const stream = poisonClient.stream()
    const done = drain(stream)
    stream.write(request(50, 'bad'))
    stream.end()
    const { responses } = await done
    expect(responses.map((r) => [r.infer_response.id, r.infer_response.parameters.inferpool_code.string_param])).toEqual([
      ['bad', 'ERR_INFERENCE'],
    ])
    expect(logged).toHaveLength(2)
    expect(ok(await poisonClient.call('ModelInfer', request(1))).outputs[0].shape).toEqual([1, 4])
  })

  describe('with rows waiting for a batch that never fills', () => {
    it('UNAVAILABLE with ERR_QUEUE_FULL and a retry hint when the queue is full', async () => {
      const full = await pool({
        model: demoModel,
        replicas: 1,
        batching: { minBatchSize: 8, maxBatchSize: 8, maxWaitMs: Infinity, maxQueueSize: 1 },
      })
      const { client: fullClient } = await server({ full }, { retryAfterSeconds: 3 })
      const request = { ...demoInfer(demoRows(32, 1)), model_name: 'full' }
      const first = fullClient.call('ModelInfer', request)
      await until(() => full.stats.queued === 1)
      expect(await fullClient.call('ModelInfer', request)).toEqual({
        ok: false,
        code: grpc.status.UNAVAILABLE,
        details: expect.any(String),
        metadata: expect.objectContaining({ 'inferpool-code': 'ERR_QUEUE_FULL', 'grpc-retry-pushback-ms': '3000' }),
      })
      await full.close({ drain: false })
      expect(failure(await first).code).toBe(grpc.status.UNAVAILABLE)
    })

    it('DEADLINE_EXCEEDED with ERR_TIMEOUT when a row passes the timeout', async () => {
      const slow = await pool({ model: demoModel, replicas: 1, batching: { minBatchSize: 8, maxBatchSize: 8, maxWaitMs: Infinity } })
      const { client: slowClient } = await server({ slow }, { timeoutMs: 30 })
      expect(failure(await slowClient.call('ModelInfer', { ...demoInfer(demoRows(33, 1)), model_name: 'slow' }))).toMatchObject({
        code: grpc.status.DEADLINE_EXCEEDED,
        inferpoolCode: 'ERR_TIMEOUT',
      })
      // The client's own deadline: the row leaves the queue too.
      const outcome = await slowClient.call('ModelInfer', { ...demoInfer(demoRows(34, 1)), model_name: 'slow' }, { deadlineMs: 50 })
      expect(outcome.ok ? 'ok' : outcome.code).toBe(grpc.status.DEADLINE_EXCEEDED)
      await until(() => slow.stats.queued === 0)
    })
  })
})

describe('one pool behind both protocols', () => {
  it('puts a row from an HTTP request and a row from a gRPC request into one batch', async () => {
    // A batch forms only with 2 rows: each request alone would wait for ever.
    const pair = await pool({ model: demoModel, replicas: 1, batching: { minBatchSize: 2, maxBatchSize: 2, maxWaitMs: Infinity } })
    const sizes: number[] = []
    pair.observe({ onDispatch: (event) => sizes.push(event.size) })
    const shared = await server({ pair })
    const [httpRow, grpcRow] = demoRows(41, 2)
    const [httpAnswer, grpcAnswer] = await Promise.all([
      post(`${shared.url}/v2/models/pair/infer`, demoRequest([httpRow])),
      shared.client.call('ModelInfer', { ...demoInfer([grpcRow]), model_name: 'pair' }),
    ])
    expect(sizes).toEqual([2])
    const direct = await Promise.all([httpRow, grpcRow].map((row) => demo.infer({ input: Float32Array.from(row) })))
    expect((httpAnswer.json as Message).outputs[0].data).toEqual(Array.from(direct[0].output.data as Float32Array))
    expect(float32s(ok(grpcAnswer).raw_output_contents[0])).toEqual(Array.from(direct[1].output.data as Float32Array))
  })

  it('counts gRPC requests in the metrics under protocol="grpc"', async () => {
    const counted = await server({ demo })
    ok(await counted.client.call('ModelInfer', demoInfer(demoRows(42, 2))))
    await counted.client.call('ModelInfer', { model_name: 'demo', inputs: [] })
    await post(`${counted.url}/v2/models/demo/infer`, demoRequest(demoRows(43, 1)))
    const text = (await http(`${counted.url}/metrics`)).text
    expect(metric(text, 'inferpool_requests_total', { model: 'demo', version: '1', protocol: 'grpc', status: 'OK' })).toBe(1)
    expect(metric(text, 'inferpool_requests_total', { model: 'demo', version: '1', protocol: 'grpc', status: 'INVALID_ARGUMENT' })).toBe(1)
    expect(
      metric(text, 'inferpool_request_errors_total', { model: 'demo', version: '1', protocol: 'grpc', code: 'ERR_INVALID_INPUT' }),
    ).toBe(1)
    expect(metric(text, 'inferpool_requests_total', { model: 'demo', version: '1', protocol: 'http', status: '200' })).toBe(1)
    expect(metric(text, 'inferpool_request_rows_sum', { model: 'demo', version: '1', protocol: 'grpc' })).toBe(2)
  })

  it('on close answers gRPC requests in progress, ends idle streams with UNAVAILABLE and refuses new calls', async () => {
    const waiting = await pool({ model: demoModel, replicas: 1, batching: { minBatchSize: 8, maxBatchSize: 8, maxWaitMs: Infinity } })
    const closing = await server({ waiting }, { closePools: true })
    const stream = closing.client.stream()
    const streamDone = drain(stream)
    const rows = demoRows(44, 2)
    const inFlight = closing.client.call('ModelInfer', { ...demoInfer([rows[0]]), model_name: 'waiting' })
    stream.write({ ...demoInfer([rows[1]], { id: 'streamed' }), model_name: 'waiting' })
    await until(() => waiting.stats.queued === 2)
    const closed = closing.server.close()
    const direct = await Promise.all(rows.map((row) => demo.infer({ input: Float32Array.from(row) })))
    expect(float32s(ok(await inFlight).raw_output_contents[0])).toEqual(Array.from(direct[0].output.data as Float32Array))
    const { responses, status } = await streamDone
    expect(responses.map((r) => [r.error_message, r.infer_response.id])).toEqual([['', 'streamed']])
    expect(float32s(responses[0].infer_response.raw_output_contents[0])).toEqual(Array.from(direct[1].output.data as Float32Array))
    expect([status.code, status.metadata.get('inferpool-code')]).toEqual([grpc.status.UNAVAILABLE, ['ERR_SHUTTING_DOWN']])
    expect(await closed).toEqual({ forced: false, lost: 0 })
    const after = await closing.client.call('ServerLive', {}, { deadlineMs: 5_000 })
    expect(after.ok ? 'ok' : after.code).toBe(grpc.status.UNAVAILABLE)
  })
})
