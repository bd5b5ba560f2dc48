/**
 * OpenTelemetry traces end to end: the SDK as `inferpool serve` starts it (startTracing,
 * OTLP http/json), a real pool and server, HTTP and gRPC clients sending `traceparent`,
 * and an in-process OTLP receiver decoding what the exporter sends. Nothing is awaited
 * by time: the batch is forced by `minBatchSize: 2` with a long `maxWaitMs`, and the
 * spans are pushed out by `forceFlush`.
 *
 * INFERPOOL_TRACE_RENDER=<file> writes the text rendering of the shared-batch trace
 * there (docs/observability.md shows one).
 */
import { writeFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { serve, startTracing } from '@inferpool/server'
import type { InferpoolServer, Tracing } from '@inferpool/server'
import { grpcClient, rawBytes } from './grpc-helpers.js'
import type { TestClient } from './grpc-helpers.js'
import { otlpReceiver, renderTraces } from './otlp-receiver.js'
import type { OtlpReceiver, ReceivedSpan } from './otlp-receiver.js'
import { demoModel, demoRequest, demoRows, post, until } from './server-helpers.js'
import { ROOT_CONTEXT, trace } from '@opentelemetry/api'
import { createLog } from '../src/telemetry/log.js'

const quiet = { error() {}, info() {}, warn() {} }
const SERVER = 2
const INTERNAL = 1
const ERROR = 2

const HTTP_TRACE = '0af7651916cd43dd8448eb211c80319c'
const HTTP_CALLER = 'b7ad6b7169203331'
const GRPC_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const GRPC_CALLER = '00f067aa0ba902b7'

function traceparent(traceId: string, spanId: string, sampled = true): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`
}

interface Stack {
  receiver: OtlpReceiver
  tracing: Tracing
  pool: Pool
  server: InferpoolServer
  client: TestClient
}

/** The SDK (as `inferpool serve` starts it), a pool whose batches wait for 2 rows, and a server on free ports. */
async function stack(flags: Parameters<typeof startTracing>[0] = {}, maxQueueSize?: number): Promise<Stack> {
  const receiver = await otlpReceiver()
  // An empty environment: only the flags configure it.
  const tracing = startTracing({ otelEndpoint: receiver.url, otelProtocol: 'http/json', ...flags }, {}) as Tracing
  const pool = await createPool({
    model: demoModel,
    replicas: 1,
    logger: quiet,
    labels: { model: 'demo', version: '1' },
    batching: { maxBatchSize: 8, minBatchSize: 2, maxWaitMs: 60_000, ...(maxQueueSize === undefined ? {} : { maxQueueSize }) },
  })
  // A full queue refuses at once (no wait at the door for room).
  const door = maxQueueSize === undefined ? {} : { admissionWaitMs: 0 }
  const server = await serve({ demo: pool }, { port: 0, grpcPort: 0, closePools: false, logger: quiet, ...door })
  const client = grpcClient(server.grpcAddress as string)
  return { receiver, tracing, pool, server, client }
}

async function teardown(s: Stack): Promise<void> {
  s.client.close()
  await s.server.close()
  await s.pool.close()
  await s.tracing.shutdown()
  await s.receiver.close()
}

/** The two requests of one batch: one over HTTP, one over gRPC, each continuing its caller's trace. */
async function sharedBatch(s: Stack, sampled = true): Promise<void> {
  const [httpAnswer, grpcAnswer] = await Promise.all([
    post(`${s.server.url as string}/v2/models/demo/infer`, demoRequest(demoRows(1, 1)), {
      traceparent: traceparent(HTTP_TRACE, HTTP_CALLER, sampled),
    }),
    s.client.call(
      'ModelInfer',
      {
        model_name: 'demo',
        inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256] }],
        raw_input_contents: [rawBytes(Float32Array.from(demoRows(2, 1).flat()))],
      },
      { metadata: { traceparent: traceparent(GRPC_TRACE, GRPC_CALLER, sampled) } },
    ),
  ])
  expect(httpAnswer.status).toBe(200)
  expect(grpcAnswer.ok).toBe(true)
}

const named = (spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] => spans.filter((span) => span.name === name)
const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan): string[] =>
  spans
    .filter((span) => span.parentSpanId === parent.spanId && span.traceId === parent.traceId)
    .map((span) => span.name)
    .sort()

describe('traces of requests that shared a batch', () => {
  let s: Stack
  beforeAll(async () => {
    s = await stack()
  })
  afterAll(async () => {
    await teardown(s)
  })

  it('puts each request in its caller trace with decode and encode events, queue and execute spans, and one batch span linked from both', async () => {
    await sharedBatch(s)
    await s.tracing.forceFlush()
    const spans = [...s.receiver.spans]
    if (process.env.INFERPOOL_TRACE_RENDER !== undefined) writeFileSync(process.env.INFERPOOL_TRACE_RENDER, `${renderTraces(spans)}\n`)

    const requests = named(spans, 'infer demo')
    expect(requests.map((span) => [span.traceId, span.parentSpanId, span.kind]).sort()).toEqual(
      [
        [HTTP_TRACE, HTTP_CALLER, SERVER],
        [GRPC_TRACE, GRPC_CALLER, SERVER],
      ].sort(),
    )
    for (const request of requests) {
      expect(request.attributes).toEqual({ 'inferpool.model.name': 'demo', 'inferpool.model.version': '1' })
      expect(request.statusCode).toBe(0)
      expect(request.service).toBe('inferpool')
      // decode and encode are the request's events, each with its length.
      expect(request.events.map((e) => [e.name, Object.keys(e.attributes)])).toEqual([
        ['decode', ['inferpool.duration_ms']],
        ['encode', ['inferpool.duration_ms']],
      ])
      const [decode, encode] = request.events
      expect(decode.attributes['inferpool.duration_ms']).toBeGreaterThanOrEqual(0)
      expect(request.startNs <= decode.timeNs && decode.timeNs <= encode.timeNs && encode.timeNs <= request.endNs).toBe(true)
    }
    const batches = named(spans, 'batch demo')
    expect(batches).toHaveLength(1)
    const batch = batches[0]
    expect(batch.kind).toBe(INTERNAL)
    // Linked to both requests' spans; a child of the first one's, so a parent-based sampler records it.
    expect(batch.links.map((l) => [l.traceId, l.spanId]).sort()).toEqual(requests.map((r) => [r.traceId, r.spanId]).sort())
    expect(requests.map((r) => r.spanId)).toContain(batch.parentSpanId)
    const { 'inferpool.replica.id': replicaId, 'inferpool.batch.measured_ms': measuredMs, ...attributes } = batch.attributes
    expect(attributes).toEqual({
      'inferpool.batch.id': 1,
      'inferpool.batch.rows': 2,
      'inferpool.batch.requests': 2,
      'inferpool.batch.reason': 'min',
      'inferpool.replica.kind': 'thread',
      'inferpool.model.name': 'demo',
      'inferpool.model.version': '1',
    })
    expect(typeof replicaId).toBe('number')
    expect(measuredMs).toBeGreaterThanOrEqual(0)
    expect(childrenOf(spans, batch)).toEqual(['run', 'transfer'])
    const transfer = named(spans, 'transfer')[0]
    const run = named(spans, 'run')[0]
    expect(transfer.endNs).toBeLessThanOrEqual(run.startNs)
    expect(batch.startNs).toBeLessThanOrEqual(transfer.startNs)

    const positions: number[] = []
    for (const request of requests) {
      expect(childrenOf(spans, request)).toEqual(
        request.spanId === batch.parentSpanId ? ['batch demo', 'execute', 'queue'] : ['execute', 'queue'],
      )
      const queue = spans.find((span) => span.name === 'queue' && span.parentSpanId === request.spanId) as ReceivedSpan
      expect(queue.events.map((e) => e.name)).toEqual(['admitted'])
      expect(queue.attributes['inferpool.request.rows']).toBe(1)
      const execute = spans.find((span) => span.name === 'execute' && span.parentSpanId === request.spanId) as ReceivedSpan
      expect(execute.links).toEqual([{ traceId: batch.traceId, spanId: batch.spanId }])
      expect(execute.attributes['inferpool.request.rows']).toBe(1)
      expect(execute.attributes['inferpool.batch.id']).toBe(1)
      positions.push(execute.attributes['inferpool.batch.position'] as number)
      expect(queue.endNs).toBeLessThanOrEqual(execute.startNs)
    }
    expect(positions.sort()).toEqual([0, 1])
  })

  it('writes JSON log lines that carry the trace and span ids of the active span, and none outside one', async () => {
    const lines: string[] = []
    const streams = {
      stdout: { write: (text: string) => lines.push(text) },
      stderr: { write: (text: string) => lines.push(`stderr ${text}`) },
    }
    const log = createLog('json', streams).child({ model: 'demo', version: '1' })
    let ids: { traceId: string; spanId: string } | undefined
    trace.getTracer('test').startActiveSpan('logged', (span) => {
      ids = span.spanContext()
      log.warn('inferpool: lowering maxBatchSize of demo from 8 to 1')
      span.end()
    })
    log.info('inferpool: ready')
    const [inSpan, outside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    if (process.env.INFERPOOL_TRACE_RENDER !== undefined) writeFileSync(`${process.env.INFERPOOL_TRACE_RENDER}.log`, lines[0])
    expect({ ...inSpan, time: typeof inSpan.time }).toEqual({
      level: 'warn',
      time: 'string',
      pid: process.pid,
      model: 'demo',
      version: '1',
      trace_id: ids?.traceId,
      span_id: ids?.spanId,
      msg: 'inferpool: lowering maxBatchSize of demo from 8 to 1',
    })
    expect(Object.keys(outside).sort()).toEqual(['level', 'model', 'msg', 'pid', 'time', 'version'])
    // The span made here leaves before the next test looks.
    await s.tracing.forceFlush()
  })

  it('marks a failed request and its decode event with the registry code', async () => {
    s.receiver.spans.length = 0
    const answer = await post(`${s.server.url as string}/v2/models/demo/infer`, '{"inputs": [', {
      traceparent: traceparent(HTTP_TRACE, HTTP_CALLER),
    })
    expect(answer.status).toBe(400)
    const code = (answer.json as { code: string }).code
    expect(code).toBe('ERR_MALFORMED_JSON')
    await s.tracing.forceFlush()
    const spans = s.receiver.spans
    const request = named(spans, 'infer demo')[0]
    expect([request.statusCode, request.attributes['inferpool.error.code']]).toEqual([ERROR, code])
    expect(request.events.map((e) => [e.name, e.attributes['inferpool.error.code']])).toEqual([['decode', code]])
    expect(spans.map((span) => span.name)).toEqual(['infer demo'])
  })

  it('marks a request that timed out in the queue with a cancelled queue event and the code', async () => {
    s.receiver.spans.length = 0
    // Alone, the row waits for a partner (minBatchSize 2) until its own timeout (20 ms, in µs) passes.
    const answer = await post(
      `${s.server.url as string}/v2/models/demo/infer`,
      demoRequest(demoRows(3, 1), { parameters: { timeout: 20_000 } }),
      {
        traceparent: traceparent(GRPC_TRACE, GRPC_CALLER),
      },
    )
    const code = (answer.json as { code: string }).code
    expect(code).toBe('ERR_TIMEOUT')
    await s.tracing.forceFlush()
    const spans = s.receiver.spans
    const request = named(spans, 'infer demo')[0]
    expect([request.statusCode, request.attributes['inferpool.error.code']]).toEqual([ERROR, code])
    const queue = named(spans, 'queue')[0]
    expect(queue.statusCode).toBe(ERROR)
    expect(queue.events.map((e) => [e.name, e.attributes])).toEqual([['cancelled', { 'inferpool.reason': code }]])
    expect(named(spans, 'execute')).toEqual([])
  })

  it("keeps the caller's tracestate on its request span and on the batch's link to it, through the export thread", async () => {
    s.receiver.spans.length = 0
    const url = `${s.server.url as string}/v2/models/demo/infer`
    const answers = await Promise.all([
      post(url, demoRequest(demoRows(9, 1)), { traceparent: traceparent(HTTP_TRACE, HTTP_CALLER), tracestate: 'inferpool=t1,other=x' }),
      post(url, demoRequest(demoRows(10, 1)), { traceparent: traceparent(GRPC_TRACE, GRPC_CALLER) }),
    ])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    await s.tracing.forceFlush()
    const spans = s.receiver.spans
    const requests = named(spans, 'infer demo')
    expect(requests.map((r) => [r.traceId, r.traceState]).sort()).toEqual(
      [
        [HTTP_TRACE, 'inferpool=t1,other=x'],
        [GRPC_TRACE, ''],
      ].sort(),
    )
    const withState = requests.find((r) => r.traceId === HTTP_TRACE) as ReceivedSpan
    const batch = named(spans, 'batch demo')[0]
    expect(batch.links.find((l) => l.traceId === HTTP_TRACE)).toEqual({
      traceId: HTTP_TRACE,
      spanId: withState.spanId,
      traceState: 'inferpool=t1,other=x',
    })
  })
})

describe('a refusal at the door', () => {
  let s: Stack
  beforeAll(async () => {
    s = await stack({}, 1)
  })
  afterAll(async () => {
    await teardown(s)
  })

  it('records a refused queue span with the code on a request the full queue turned away', async () => {
    const url = `${s.server.url as string}/v2/models/demo/infer`
    // The one place in the queue, held by a row that waits for a partner until its own timeout (1 s, in µs):
    // long enough that a busy machine still sees it queued before it leaves.
    const holder = post(url, demoRequest(demoRows(6, 1), { parameters: { timeout: 1_000_000 } }))
    await until(() => s.pool.stats.queued === 1)
    const refused = await post(url, demoRequest(demoRows(7, 1), { parameters: { timeout: 5_000_000 } }), {
      traceparent: traceparent(HTTP_TRACE, HTTP_CALLER),
    })
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([503, 'ERR_QUEUE_FULL'])
    expect((await holder).status).toBe(504)
    await s.tracing.forceFlush()
    const spans = s.receiver.spans.filter((span) => span.traceId === HTTP_TRACE)
    const request = named(spans, 'infer demo')[0]
    expect([request.statusCode, request.attributes['inferpool.error.code']]).toEqual([ERROR, 'ERR_QUEUE_FULL'])
    const queue = named(spans, 'queue')[0]
    expect([queue.parentSpanId, queue.statusCode]).toEqual([request.spanId, ERROR])
    expect(queue.events.map((e) => [e.name, e.attributes])).toEqual([['refused', { 'inferpool.reason': 'ERR_QUEUE_FULL' }]])
    expect(named(spans, 'execute')).toEqual([])
  })
})

describe('the library: pool.infer with a context, replicas as processes', () => {
  let receiver: OtlpReceiver
  let tracing: Tracing
  let pool: Pool
  beforeAll(async () => {
    receiver = await otlpReceiver()
    tracing = startTracing({ otelEndpoint: receiver.url, otelProtocol: 'http/json' }, {}) as Tracing
    pool = await createPool({
      model: demoModel,
      replicas: 1,
      isolation: 'process',
      logger: quiet,
      batching: { maxBatchSize: 8, minBatchSize: 2, maxWaitMs: 60_000 },
    })
  })
  afterAll(async () => {
    await pool.close()
    await tracing.shutdown()
    await receiver.close()
  })

  it("puts two rows of the application's span in one batch span, named after the model file, run by a process", async () => {
    const tracer = trace.getTracer('app')
    const parent = tracer.startSpan('handle')
    const context = trace.setSpan(ROOT_CONTEXT, parent)
    const rows = demoRows(8, 2).map((row) => ({ input: Float32Array.from(row) }))
    await Promise.all(rows.map((row) => pool.infer(row, { context, priority: 3, timeoutMs: 30_000 })))
    parent.end()
    await tracing.forceFlush()
    const spans = receiver.spans
    const batch = named(spans, 'batch demo-mlp')[0]
    expect(batch.parentSpanId).toBe(parent.spanContext().spanId)
    expect([
      batch.attributes['inferpool.replica.kind'],
      batch.attributes['inferpool.batch.rows'],
      batch.attributes['inferpool.batch.reason'],
    ]).toEqual(['process', 2, 'min'])
    expect(childrenOf(spans, batch)).toEqual(['run', 'transfer'])
    const queues = named(spans, 'queue')
    expect(
      queues.map((q) => [q.parentSpanId, q.attributes['inferpool.request.priority'], q.attributes['inferpool.request.deadline_ms']]),
    ).toEqual([
      [parent.spanContext().spanId, 3, 30_000],
      [parent.spanContext().spanId, 3, 30_000],
    ])
    expect(
      named(spans, 'execute')
        .map((e) => e.attributes['inferpool.batch.position'])
        .sort(),
    ).toEqual([0, 1])
  })
})

describe('sampling off', () => {
  let s: Stack | undefined
  afterEach(async () => {
    if (s !== undefined) await teardown(s)
    s = undefined
  })

  it('exports nothing when the callers did not sample their traces', async () => {
    s = await stack()
    await sharedBatch(s, false)
    await s.tracing.forceFlush()
    expect([s.receiver.posts, s.receiver.spans.length]).toEqual([0, 0])
  })

  it('exports nothing at a sample ratio of 0 for requests without a traceparent', async () => {
    s = await stack({ otelSampleRatio: 0 })
    const url = `${s.server.url as string}/v2/models/demo/infer`
    const answers = await Promise.all([post(url, demoRequest(demoRows(4, 1))), post(url, demoRequest(demoRows(5, 1)))])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    await s.tracing.forceFlush()
    expect([s.receiver.posts, s.receiver.spans.length]).toEqual([0, 0])
  })
})

describe('no SDK configured', () => {
  it('registers nothing with an empty environment and no flag', () => {
    expect(startTracing({}, {})).toBeUndefined()
    expect(startTracing({}, { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' })).toBeUndefined()
    expect(startTracing({ otel: true }, { OTEL_SDK_DISABLED: 'true' })).toBeUndefined()
  })

  it('refuses a protocol it does not bundle, naming the variable', () => {
    expect(() => startTracing({}, { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      new RangeError('Expected OTEL_EXPORTER_OTLP_PROTOCOL to be http/protobuf or http/json, got `grpc` (grpc is not bundled)'),
    )
  })
})
