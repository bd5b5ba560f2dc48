/**
 * Spans leave the main thread as plain records and are exported from a thread of their
 * own (export-worker.ts), where the SDK's `BatchSpanProcessor` and the OTLP exporter run.
 *
 * Why: turning a span into OTLP protobuf (the ids' hex to bytes, every attribute, the size
 * pass and the write pass) and sending it cost the main thread more than making the span,
 * and the main thread is what a server's throughput is made of. A record is the span's own
 * fields; a few hundred go in one message as one JSON string. Not as objects: the
 * structured clone of many small nested objects cost the main thread more than the OTLP
 * serialization it was meant to move, where `JSON.stringify` is a fraction of it and a
 * string crosses as one copy.
 *
 * What stays on the main thread is the SDK's part: the tracer, the sampler, the ids, the
 * spans themselves; this processor takes the place the batch processor had.
 *
 * When the thread falls behind, records past `MAX_IN_FLIGHT` are dropped here, as the
 * batch processor drops spans past its `maxQueueSize`, rather than queued without bound.
 */
import { Worker } from 'node:worker_threads'
import { diag, TraceFlags } from '@opentelemetry/api'
import type { Attributes, HrTime, Link, SpanKind, SpanStatus } from '@opentelemetry/api'
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-node'

/** The exporters the thread builds (tracing.ts decides them from the flags and the environment). */
export interface ExportPlan {
  readonly exporters: ReadonlyArray<
    | { readonly kind: 'otlp'; readonly protocol: 'http/json' | 'http/protobuf'; readonly url: string | undefined }
    | { readonly kind: 'console' }
  >
}

/** A link, its context's trace state as text (a `TraceState` does not survive a clone). */
export interface LinkRecord {
  readonly traceId: string
  readonly spanId: string
  readonly traceFlags: number
  readonly traceState: string | undefined
  readonly isRemote: boolean | undefined
  readonly attributes: Attributes | undefined
  readonly droppedAttributesCount: number | undefined
}

/** An ended span as it crosses to the export thread. */
export interface SpanRecord {
  readonly name: string
  readonly kind: SpanKind
  readonly traceId: string
  readonly spanId: string
  readonly traceFlags: number
  readonly traceState: string | undefined
  readonly parentSpanId: string | undefined
  readonly parentIsRemote: boolean | undefined
  readonly startTime: HrTime
  readonly endTime: HrTime
  readonly status: SpanStatus
  readonly attributes: Attributes
  readonly events: TimedEvent[]
  readonly links: LinkRecord[]
  readonly droppedAttributesCount: number
  readonly droppedEventsCount: number
  readonly droppedLinksCount: number
  readonly scopeName: string
  readonly scopeVersion: string | undefined
}

/** Main thread → export thread. */
export type ToExporter =
  | { readonly type: 'spans'; readonly count: number; /** `SpanRecord[]` as JSON. */ readonly json: string }
  | { readonly type: 'flush'; readonly id: number }
  | { readonly type: 'shutdown'; readonly id: number }

/** Export thread → main thread: `taken` records were handed to the batch processor; a flush or shutdown ended. */
export type FromExporter =
  { readonly type: 'taken'; readonly count: number } | { readonly type: 'done'; readonly id: number; readonly error: string | undefined }

/** Records sent per message: few enough that one clone is short, many enough that messages are few. */
const RECORDS_PER_MESSAGE = 256
/** The longest a record waits on the main thread for its message to fill. */
const HOLD_MS = 200
/** Records sent and not yet taken by the thread: past this the thread is behind, and the rest are dropped. */
const MAX_IN_FLIGHT = 16_384

function recordOf(span: ReadableSpan): SpanRecord {
  const context = span.spanContext()
  const parent = span.parentSpanContext
  const links: LinkRecord[] = []
  for (const link of span.links as readonly Link[]) {
    links.push({
      traceId: link.context.traceId,
      spanId: link.context.spanId,
      traceFlags: link.context.traceFlags,
      traceState: link.context.traceState?.serialize(),
      isRemote: link.context.isRemote,
      attributes: link.attributes,
      droppedAttributesCount: link.droppedAttributesCount,
    })
  }
  return {
    name: span.name,
    kind: span.kind,
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.traceFlags,
    traceState: context.traceState?.serialize(),
    parentSpanId: parent?.spanId,
    parentIsRemote: parent?.isRemote,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: span.attributes,
    events: span.events,
    links,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
    scopeName: span.instrumentationScope.name,
    scopeVersion: span.instrumentationScope.version,
  }
}

/** The span processor of `inferpool serve`: sampled spans go to the export thread. */
export class ThreadSpanProcessor implements SpanProcessor {
  readonly #worker: Worker
  #records: SpanRecord[] = []
  #timer: NodeJS.Timeout | undefined
  #inFlight = 0
  #dropped = 0
  #nextId = 0
  readonly #waiting = new Map<number, { resolve(): void; reject(error: Error): void }>()
  #shutdown: Promise<void> | undefined
  /** The thread is gone (shut down, or failed): what ends now is not exported. */
  #exited = false

  constructor(plan: ExportPlan) {
    this.#worker = new Worker(new URL('./export-worker.js', import.meta.url), { workerData: plan })
    this.#worker.on('message', (message: FromExporter) => {
      if (message.type === 'taken') {
        this.#inFlight -= message.count
        return
      }
      const waiter = this.#waiting.get(message.id)
      if (waiter === undefined) return
      this.#waiting.delete(message.id)
      if (this.#waiting.size === 0) this.#worker.unref()
      if (message.error === undefined) waiter.resolve()
      else waiter.reject(new Error(message.error))
    })
    this.#worker.on('error', (error) => diag.error('inferpool: the span export thread failed', error))
    this.#worker.once('exit', () => {
      this.#exited = true
      for (const waiter of this.#waiting.values()) waiter.resolve()
      this.#waiting.clear()
    })
    // Idle, the thread does not keep the process alive; a flush holds it until answered.
    // After the listeners: adding a 'message' listener refs the worker again.
    this.#worker.unref()
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.#shutdown !== undefined || this.#exited || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return
    if (this.#inFlight + this.#records.length >= MAX_IN_FLIGHT) {
      if (this.#dropped++ === 0) diag.warn('inferpool: the span export thread is behind; dropping spans')
      return
    }
    if (this.#dropped > 0) {
      diag.warn(`inferpool: dropped ${this.#dropped} spans while the export thread was behind`)
      this.#dropped = 0
    }
    this.#records.push(recordOf(span))
    if (this.#records.length >= RECORDS_PER_MESSAGE) this.#send()
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#send(), HOLD_MS)
      this.#timer.unref()
    }
  }

  #send(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer)
    this.#timer = undefined
    if (this.#records.length === 0) return
    const spans = this.#records
    this.#records = []
    this.#inFlight += spans.length
    this.#worker.postMessage({ type: 'spans', count: spans.length, json: JSON.stringify(spans) } satisfies ToExporter)
  }

  /** Sends what is held and waits until the thread has exported everything it has. */
  forceFlush(): Promise<void> {
    if (this.#shutdown !== undefined) return this.#shutdown
    return this.#ask('flush')
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#ask('shutdown').finally(() => this.#worker.terminate())
    return this.#shutdown
  }

  #ask(type: 'flush' | 'shutdown'): Promise<void> {
    if (this.#exited) return Promise.resolve()
    this.#send()
    const id = this.#nextId++
    this.#worker.ref()
    return new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject })
      this.#worker.postMessage({ type, id } satisfies ToExporter)
    })
  }
}
