/**
 * The span export thread (span-thread.ts): it turns the main thread's records back into
 * the SDK's `ReadableSpan`s and hands them to a `BatchSpanProcessor` per exporter, which
 * batch, serialize and send them as they would on the main thread (and read the
 * `OTEL_BSP_*` settings as they would there).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { TraceState } from '@opentelemetry/core'
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto'
import { BatchSpanProcessor, ConsoleSpanExporter } from '@opentelemetry/sdk-trace-node'
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node'
import type { HrTime, Link, SpanContext } from '@opentelemetry/api'
import type { InstrumentationScope } from '@opentelemetry/core'
import { tracingResource } from './resource.js'
import type { ExportPlan, FromExporter, SpanRecord, ToExporter } from './span-thread.js'

const port = parentPort
if (port === null) throw new Error('export-worker.ts runs as a worker thread (span-thread.ts starts it)')

const plan = workerData as ExportPlan
const resource = tracingResource()
const processors = plan.exporters.map((spec) => {
  let exporter: SpanExporter
  if (spec.kind === 'console') exporter = new ConsoleSpanExporter()
  else {
    // Without a URL the exporters read the endpoint variables themselves (default http://localhost:4318).
    const config = spec.url === undefined ? {} : { url: spec.url }
    exporter = spec.protocol === 'http/json' ? new OtlpJsonExporter(config) : new OtlpProtoExporter(config)
  }
  return new BatchSpanProcessor(exporter)
})

/** One object per scope: the serializer groups a batch's spans by scope identity. */
const scopes = new Map<string, InstrumentationScope>()
function scopeOf(name: string, version: string | undefined): InstrumentationScope {
  const key = `${name}@${version ?? ''}`
  let scope = scopes.get(key)
  if (scope === undefined) scopes.set(key, (scope = version === undefined ? { name } : { name, version }))
  return scope
}

function durationOf(start: HrTime, end: HrTime): HrTime {
  let seconds = end[0] - start[0]
  let nanos = end[1] - start[1]
  if (nanos < 0) {
    seconds -= 1
    nanos += 1e9
  }
  return [seconds, nanos]
}

function spanOf(record: SpanRecord): ReadableSpan {
  const context: SpanContext = { traceId: record.traceId, spanId: record.spanId, traceFlags: record.traceFlags }
  if (record.traceState !== undefined) context.traceState = new TraceState(record.traceState)
  const links: Link[] = record.links.map((link) => {
    const linked: SpanContext = { traceId: link.traceId, spanId: link.spanId, traceFlags: link.traceFlags }
    if (link.traceState !== undefined) linked.traceState = new TraceState(link.traceState)
    if (link.isRemote !== undefined) linked.isRemote = link.isRemote
    const out: Link = { context: linked }
    if (link.attributes !== undefined) out.attributes = link.attributes
    if (link.droppedAttributesCount !== undefined) out.droppedAttributesCount = link.droppedAttributesCount
    return out
  })
  return {
    name: record.name,
    kind: record.kind,
    spanContext: () => context,
    parentSpanContext:
      record.parentSpanId === undefined
        ? undefined
        : { traceId: record.traceId, spanId: record.parentSpanId, traceFlags: record.traceFlags, isRemote: record.parentIsRemote },
    startTime: record.startTime,
    endTime: record.endTime,
    status: record.status,
    attributes: record.attributes,
    links,
    events: record.events,
    duration: durationOf(record.startTime, record.endTime),
    ended: true,
    resource,
    instrumentationScope: scopeOf(record.scopeName, record.scopeVersion),
    droppedAttributesCount: record.droppedAttributesCount,
    droppedEventsCount: record.droppedEventsCount,
    droppedLinksCount: record.droppedLinksCount,
  }
}

function answer(id: number, settled: Promise<unknown>): void {
  settled.then(
    () => port?.postMessage({ type: 'done', id, error: undefined } satisfies FromExporter),
    (error: unknown) => port?.postMessage({ type: 'done', id, error: String(error) } satisfies FromExporter),
  )
}

port.on('message', (message: ToExporter) => {
  switch (message.type) {
    case 'spans':
      for (const record of JSON.parse(message.json) as SpanRecord[]) {
        const span = spanOf(record)
        for (const processor of processors) processor.onEnd(span)
      }
      port.postMessage({ type: 'taken', count: message.count } satisfies FromExporter)
      return
    case 'flush':
      answer(message.id, Promise.all(processors.map((p) => p.forceFlush())))
      return
    case 'shutdown':
      answer(message.id, Promise.all(processors.map((p) => p.shutdown())))
      return
  }
})
