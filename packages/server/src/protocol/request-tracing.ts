/**
 * A request's spans in the server (docs/observability.md), for both protocols: the
 * exchange (exchange.ts) opens `infer <model>` (SERVER) continuing the caller's
 * `traceparent`, and records `decode` and `encode` as its events; the pool adds `queue`,
 * `execute` and the batch (@inferpool/host, pool/tracing.ts) under the context it passes.
 *
 * With no SDK registered (the default: `inferpool serve` registers one only when
 * tracing is configured, telemetry/tracing.ts), `requestTracer()` is the whole cost: no
 * span, no context, no object per request. With one, a request its sampler does not
 * record costs its root span's ids and sampling decision, and nothing after that.
 */
import { performance } from 'node:perf_hooks'
import { propagation, ProxyTracerProvider, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import type { Attributes, Context, Span, TextMapGetter, Tracer, TracerProvider } from '@opentelemetry/api'

/** The API's no-op provider: what a `ProxyTracerProvider` delegates to while no SDK is registered. */
const NOOP_PROVIDER: TracerProvider = new ProxyTracerProvider().getDelegate()

let cachedProvider: TracerProvider | undefined
let cachedTracer: Tracer | undefined

/** The server's tracer, or `undefined` while no SDK is registered: the one check a request pays. */
export function requestTracer(): Tracer | undefined {
  const global = trace.getTracerProvider()
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global
  if (provider === NOOP_PROVIDER) return undefined
  if (provider !== cachedProvider) {
    cachedProvider = provider
    cachedTracer = provider.getTracer('@inferpool/server')
  }
  return cachedTracer
}

/** Where a binding's trace headers come from (HTTP headers, gRPC metadata). */
export interface TraceCarrier {
  traceHeader(name: string): string | undefined
}

const CARRIER_GETTER: TextMapGetter<TraceCarrier> = {
  keys: () => ['traceparent', 'tracestate'],
  get: (carrier, key) => carrier.traceHeader(key),
}

/** A request's server span and the context its children (and the pool's spans) go under. */
export interface RequestSpan {
  readonly span: Span
  readonly context: Context
}

/**
 * Opens `infer <model>`, continuing the caller's trace when its headers carry one;
 * `undefined` when the sampler does not record it. An unrecorded request is then served
 * as an untraced one: no children (under a parent-based sampler they would not be
 * recorded either, and under another they would hang from a span no one sees), no
 * context for the pool, so past this call it costs nothing more.
 */
export function startRequestSpan(
  tracer: Tracer,
  carrier: TraceCarrier,
  model: { readonly name: string; readonly version: string },
  startTime: number,
): RequestSpan | undefined {
  const parent = propagation.extract(ROOT_CONTEXT, carrier, CARRIER_GETTER)
  const span = tracer.startSpan(`infer ${model.name}`, { kind: SpanKind.SERVER, startTime }, parent)
  if (!span.isRecording()) return undefined
  span.setAttributes({ 'inferpool.model.name': model.name, 'inferpool.model.version': model.version })
  return { span, context: trace.setSpan(parent, span) }
}

/**
 * A phase of the request on the main thread (`decode`, `encode`): an event on its span at
 * the phase's end, with its length (and the code when it failed). An event, not a child
 * span: a span costs the thread several times more (ids, the processor, the export), and
 * these phases are the request's own, with nothing under them.
 */
export function tracePhase(request: RequestSpan, name: 'decode' | 'encode', startedMs: number, code?: string): void {
  const attributes: Attributes = { 'inferpool.duration_ms': performance.now() - startedMs }
  if (code !== undefined) attributes['inferpool.error.code'] = code
  request.span.addEvent(name, attributes)
}

/** A child span of the request (a refused `queue`). */
export function childSpan(tracer: Tracer, request: RequestSpan, name: string): Span {
  return tracer.startSpan(name, { kind: SpanKind.INTERNAL }, request.context)
}

/** Marks a span failed with the error's message and its registry code. */
export function failRequestSpan(span: Span, error: unknown, code: string): void {
  if (!span.isRecording()) return
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error | null)?.message ?? String(error) })
  span.setAttribute('inferpool.error.code', code)
}
