/**
 * The pool's OpenTelemetry spans (docs/observability.md), with `@opentelemetry/api`
 * alone: the SDK, if any, is the application's (the server registers one).
 *
 * Per traced request (one whose span, from `InferOptions.context`, is sampled), under
 * that span:
 * - `queue`: from enqueue to the dispatch of its first row, with an `admitted` event, or
 *   a `refused` / `cancelled` one (the error's code) when it never ran;
 * - `execute`: per batch holding its rows, from dispatch to the batch's end, linked to
 *   the batch span, with the request's rows in it and the position of the first.
 *
 * Per batch holding a traced request: `batch <model>` (INTERNAL), started as the batch
 * forms, a child of the first traced request's span (so a parent-based sampler records it
 * whenever that request is sampled), linking to the spans of the requests it carries (up
 * to the SDK's 128 links; each request's `execute` links back regardless), with the
 * replica's `transfer` and `run` as children, built here with explicit times from the
 * timing the replica sends back with its result: no tracing code runs in a replica.
 *
 * Cost: with no SDK registered, a request pays one check (`tracer()`: the global
 * provider is the API's no-op one) and a batch one comparison (`traced === 0`); no span,
 * no object. With an SDK, a request whose span is not sampled pays a span-context read.
 */
import { performance } from 'node:perf_hooks'
import { context as otelContext, ProxyTracerProvider, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api'
import type { Attributes, Context, Link, Span, SpanContext, Tracer, TracerProvider } from '@opentelemetry/api'
import type { AdmissionState, BatchContext, LatencyModel } from '@inferpool/core'
import type { RunTiming, TaskResult, TensorBatchOutput } from '@inferpool/worker'
import type { InferOptions } from '../types.js'

/** How long a batch span's `inferpool.batch.predicted_ms` reuses an estimate of its size. */
const PREDICTION_REUSE_MS = 250

/** The SDK's default limit of links per span: more would be dropped by it anyway. */
const MAX_BATCH_LINKS = 128

/** The API's no-op provider: what a `ProxyTracerProvider` delegates to while no SDK is registered. */
const NOOP_PROVIDER: TracerProvider = new ProxyTracerProvider().getDelegate()

/** Codes of a refusal at the batcher's door (the request was never queued). */
const REFUSALS = new Set([
  'ERR_QUEUE_FULL',
  'ERR_ITEM_TOO_LARGE',
  'ERR_BATCHER_CLOSED',
  'ERR_DEADLINE_UNATTAINABLE',
  'ERR_REQUEST_TOO_LARGE',
])

/** The stable `code` of an error, when it has one. */
export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** Marks a span failed with the error's message and registry code. */
export function failSpan(span: Span, error: unknown): void {
  if (!span.isRecording()) return
  const code = codeOf(error)
  span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error | null)?.message ?? String(error) })
  if (code !== undefined) span.setAttribute('inferpool.error.code', code)
}

/** One traced request inside the pool. */
class RequestTrace {
  /** Open until the dispatch of its first row (or its failure before that). */
  queue: Span | undefined
  /** The request settled: its rows in a later re-run are not traced again. */
  done = false

  constructor(
    readonly parent: Context,
    readonly spanContext: SpanContext,
    queue: Span,
    readonly enqueuedAt: number,
    readonly rows: number,
  ) {
    this.queue = queue
  }
}

/** The spans of one batch: its own and its requests' `execute` spans. */
export class BatchTrace {
  readonly #tracer: Tracer
  readonly #span: Span
  readonly #executes: Array<{ span: Span; first: number; count: number }>

  constructor(tracer: Tracer, span: Span, executes: Array<{ span: Span; first: number; count: number }>) {
    this.#tracer = tracer
    this.#span = span
    this.#executes = executes
  }

  /** The replica's result: who ran it, and its `transfer` and `run` from the timing it sent back. */
  ran(result: TaskResult, startedMs: number): void {
    const tracer = this.#tracer
    const span = this.#span
    if (!span.isRecording()) return
    span.setAttribute('inferpool.replica.id', result.threadId)
    const timing: RunTiming | undefined =
      result.ok && result.kind === 'run' ? (result.value as Partial<TensorBatchOutput> | null)?.timing : undefined
    if (timing === undefined) return
    span.setAttribute('inferpool.batch.measured_ms', timing.runEndMs - timing.runStartMs)
    const parent = trace.setSpan(otelContext.active(), span)
    // Clocks of two threads (or processes) agree to well under a ms: clamp what rounding could invert.
    const runStart = Math.max(startedMs, timing.runStartMs)
    tracer.startSpan('transfer', { kind: SpanKind.INTERNAL, startTime: startedMs }, parent).end(runStart)
    tracer.startSpan('run', { kind: SpanKind.INTERNAL, startTime: runStart }, parent).end(Math.max(runStart, timing.runEndMs))
  }

  /** The batch settled with one output or `Error` per item. */
  end(outputs: readonly unknown[]): void {
    for (const execute of this.#executes) {
      for (let i = execute.first; i < execute.first + execute.count; i++) {
        if (outputs[i] instanceof Error) {
          failSpan(execute.span, outputs[i])
          break
        }
      }
      execute.span.end()
    }
    this.#span.end()
  }

  /** The batch failed as a whole. */
  fail(error: unknown): void {
    for (const execute of this.#executes) {
      failSpan(execute.span, error)
      execute.span.end()
    }
    failSpan(this.#span, error)
    this.#span.end()
  }
}

/** What a pool's tracing needs to know about it. */
export interface PoolTracingFacts {
  readonly model: string
  readonly version: string | undefined
  readonly kind: 'thread' | 'process'
  readonly latencyModel: LatencyModel
}

/** A pool's tracing: which items belong to which traced request, and the spans. */
export class PoolTracing {
  readonly #facts: PoolTracingFacts
  readonly #batchName: string
  /** The traced request of each queued item (items are the codec's own objects). */
  readonly #items = new WeakMap<object, RequestTrace>()
  /** Items of traced requests not yet settled: while 0, a batch is not even looked at. */
  traced = 0
  #provider: TracerProvider | undefined
  #tracer: Tracer | undefined
  /** Estimates by batch size, and when they were read (`#predicted`). */
  readonly #predictions = new Map<number, number | undefined>()
  #predictedAt = -Infinity

  constructor(facts: PoolTracingFacts) {
    this.#facts = facts
    this.#batchName = `batch ${facts.model}`
  }

  /** The tracer, or `undefined` while no SDK is registered (the cheap check every request pays). */
  tracer(): Tracer | undefined {
    const global = trace.getTracerProvider()
    const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global
    if (provider === NOOP_PROVIDER) return undefined
    if (provider !== this.#provider) {
      this.#provider = provider
      this.#tracer = provider.getTracer('@inferpool/host')
    }
    return this.#tracer
  }

  /**
   * The latency model's estimate for a batch of `size` rows, read again at most every
   * `PREDICTION_REUSE_MS`: an estimate after a recorded run rebuilds the model's tables,
   * a run is recorded after every batch, and count formation never reads the model, so
   * without this every traced batch would pay a rebuild of its own.
   */
  #predicted(size: number): number | undefined {
    const now = performance.now()
    if (now - this.#predictedAt > PREDICTION_REUSE_MS) {
      this.#predictions.clear()
      this.#predictedAt = now
    }
    if (this.#predictions.has(size)) return this.#predictions.get(size)
    const estimate = this.#facts.latencyModel.estimate(size)
    this.#predictions.set(size, estimate)
    return estimate
  }

  /**
   * A request is about to be queued: its `queue` span starts when its span is sampled.
   * Returns how to wrap its promise, or `undefined` when it is not traced.
   */
  begin(
    tracer: Tracer,
    items: readonly unknown[],
    options: InferOptions,
    poolTimeoutMs: number | undefined,
    admission: AdmissionState,
  ): RequestTrace | undefined {
    const parent = options.context ?? otelContext.active()
    const spanContext = trace.getSpanContext(parent)
    if (spanContext === undefined || (spanContext.traceFlags & TraceFlags.SAMPLED) === 0) return undefined
    // The SDK's own clock (sub-ms): the other spans' times line up with it.
    const now = performance.timeOrigin + performance.now()
    const queue = tracer.startSpan('queue', { kind: SpanKind.INTERNAL, startTime: now }, parent)
    if (queue.isRecording()) {
      const attributes: Attributes = { 'inferpool.request.rows': items.length }
      const priority = options.priorityLevel ?? options.priority
      if (priority !== undefined) attributes['inferpool.request.priority'] = priority
      const timeoutMs = options.timeoutMs ?? poolTimeoutMs
      if (timeoutMs !== undefined && timeoutMs !== Infinity) attributes['inferpool.request.deadline_ms'] = timeoutMs
      // The queue ahead of it, at the rate it has been draining.
      if (admission.drainRate > 0)
        attributes['inferpool.queue.predicted_wait_ms'] = ((admission.queued + items.length) / admission.drainRate) * 1000
      queue.setAttributes(attributes)
    }
    const record = new RequestTrace(parent, spanContext, queue, now, items.length)
    for (const item of items) this.#items.set(item as object, record)
    this.traced += items.length
    return record
  }

  /** The request's promise, ending its `queue` span if it never ran. */
  settle<T>(record: RequestTrace, pending: Promise<T>): Promise<T> {
    return pending.then(
      (value) => {
        this.#done(record)
        return value
      },
      (error: unknown) => {
        const queue = record.queue
        if (queue !== undefined) {
          record.queue = undefined
          const code = codeOf(error) ?? 'ERR_UNKNOWN'
          queue.addEvent(REFUSALS.has(code) ? 'refused' : 'cancelled', { 'inferpool.reason': code })
          failSpan(queue, error)
          queue.end()
        }
        this.#done(record)
        throw error
      },
    )
  }

  #done(record: RequestTrace): void {
    if (record.done) return
    record.done = true
    this.traced -= record.rows
  }

  /** A batch formed: its span and its traced requests' `execute` spans start, or `undefined` when none of its items is traced. */
  batch(tracer: Tracer, items: readonly unknown[], ctx: BatchContext): BatchTrace | undefined {
    const records: RequestTrace[] = []
    const firsts: number[] = []
    const counts: number[] = []
    let untraced = 0
    for (let i = 0; i < items.length; i++) {
      const record = this.#items.get(items[i] as object)
      if (record === undefined || record.done) {
        untraced++
        continue
      }
      const last = records.length - 1
      // A request's rows are queued together, and so usually sit side by side.
      const at = last >= 0 && records[last] === record ? last : records.indexOf(record)
      if (at >= 0) counts[at]++
      else {
        records.push(record)
        firsts.push(i)
        counts.push(1)
      }
    }
    if (records.length === 0) return undefined
    const links: Link[] = []
    for (let r = 0; r < records.length && r < MAX_BATCH_LINKS; r++) links.push({ context: records[r].spanContext })
    const span = tracer.startSpan(this.#batchName, { kind: SpanKind.INTERNAL, links }, records[0].parent)
    if (span.isRecording()) {
      const facts = this.#facts
      const attributes: Attributes = {
        'inferpool.batch.id': ctx.batchId,
        'inferpool.batch.rows': items.length,
        'inferpool.batch.requests': records.length + untraced,
        'inferpool.batch.reason': ctx.reason,
        'inferpool.replica.kind': facts.kind,
        'inferpool.model.name': facts.model,
      }
      const predicted = this.#predicted(items.length)
      if (predicted !== undefined) attributes['inferpool.batch.predicted_ms'] = predicted
      if (facts.version !== undefined) attributes['inferpool.model.version'] = facts.version
      if (ctx.splitDepth > 0) attributes['inferpool.batch.split_depth'] = ctx.splitDepth
      span.setAttributes(attributes)
    }
    const batchLink: Link[] = [{ context: span.spanContext() }]
    const executes: Array<{ span: Span; first: number; count: number }> = []
    for (let r = 0; r < records.length; r++) {
      const record = records[r]
      const queue = record.queue
      if (queue !== undefined) {
        record.queue = undefined
        queue.addEvent('admitted', record.enqueuedAt)
        queue.end()
      }
      const execute = tracer.startSpan('execute', { kind: SpanKind.INTERNAL, links: batchLink }, record.parent)
      if (execute.isRecording()) {
        execute.setAttributes({
          'inferpool.request.rows': counts[r],
          'inferpool.batch.position': firsts[r],
          'inferpool.batch.id': ctx.batchId,
        })
      }
      executes.push({ span: execute, first: firsts[r], count: counts[r] })
    }
    return new BatchTrace(tracer, span, executes)
  }
}
