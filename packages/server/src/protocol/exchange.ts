/**
 * One inference request's way from its arrival to its answer, the same for every
 * protocol. A binding (HTTP's handler, gRPC's service) makes one `InferenceExchange` per
 * request as it arrives and gives it the steps only it knows — when its bytes can be
 * read, how many rows its still-unread request counts for, how to wait at the door, how
 * to decode, how to answer — as methods of its subclass (no closure per request). The
 * exchange owns the order, so the protocols cannot drift:
 *
 *   arrival (the `admitting` count: a draining shutdown waits for it)
 *   → hold the model version → refused if it arrived after the shutdown began
 *   → the pool → the rows declared or estimated at the door → admitted, or parked for room
 *   → decoded (the binding's hook) → its deadline → the `admitted` count → submitted
 *   → answered (the binding's hook: encoding)
 *   → `finish`: the version let go, the request recorded in the metrics and statistics
 *     (the binding calls it once the answer's status is known).
 *
 * The binding keeps reading bytes, decoding, encoding and answering.
 *
 * Traced (an OpenTelemetry SDK registered: request-tracing.ts), the exchange opens the
 * request's `infer <model>` span from the binding's trace headers (`traceHeader`), times
 * `decode` and `encode` as its events, hands its context to the pool (which adds `queue`,
 * `execute` and the batch), and marks it failed with the registry code.
 */
import { performance } from 'node:perf_hooks'
import type { Context, Tracer } from '@opentelemetry/api'
import { TimeoutError } from '@inferpool/core'
import { errorCodeOf, INTERNAL_ERROR_CODE } from '../error-registry.js'
import type { BlockOutput, RowOutput } from '@inferpool/host'
import type { DecodedInferRequest } from './decode.js'
import type { Door, RoomReservation } from './door.js'
import { ShuttingDownError } from './errors.js'
import type { RequestProtocol } from './metrics.js'
import type { ServedModel, ServedModels } from './served-models.js'
import type { ServedPool } from './served-pool.js'
import { childSpan, failRequestSpan, requestTracer, startRequestSpan, tracePhase } from './request-tracing.js'
import type { RequestSpan, TraceCarrier } from './request-tracing.js'
import { submitRequest } from './submit-rows.js'
import type { SubmitOptions } from './submit-rows.js'
import { shorterTimeout } from './timeout.js'

/** What `run` takes: the request's model and how it is cut short. */
export interface ExchangeOptions {
  /** The model version the request names (looked up by the binding: its name is in the path or the message). */
  readonly model: ServedModel
  /** Aborts the request's rows (its client left, or a forced shutdown). */
  readonly signal: AbortSignal
  /** The client's own deadline, in ms since the epoch (a gRPC call's); none when absent. */
  readonly deadline?: number
}

/** `Answer`: what the binding's `answer` makes of the results (HTTP writes them: nothing; gRPC: the response message). */
/** Codes of a refusal at the door: the request's `queue` span records `refused` with it. */
const DOOR_REFUSALS = new Set(['ERR_QUEUE_FULL', 'ERR_SHUTTING_DOWN', 'ERR_REQUEST_TOO_LARGE', 'ERR_DEADLINE_UNATTAINABLE'])

export abstract class InferenceExchange<Answer> implements TraceCarrier {
  readonly served: ServedModels
  /** `performance.now()` at the arrival: the request's deadline and duration count from here. */
  readonly started: number
  /** The served models were open when the request arrived: it is accepted work, even during a draining shutdown. */
  readonly arrivedOpen: boolean
  /** The model version, once `run` was given it. */
  model: ServedModel | undefined
  /** Its pool, once reached. */
  pool: ServedPool | undefined
  /** The decoded request, once decoded. */
  decoded: DecodedInferRequest | undefined
  /** The rows the request counts for: estimated or declared at the door, then decoded. */
  rows = 1
  /** Whether `rows` are the decoded request's (the metrics count only those; 0 before). */
  #decoded = false
  /** `Retry-After` seconds when it was refused for lack of room (from the pool's drain rate). */
  retryAfterSeconds: number | undefined
  /** The context of the request's span while traced (a failure's log line carries its ids: the binding logs it under this context). */
  traceContext: Context | undefined
  /** The request's whole timeout in ms, once decoded. */
  #budgetMs: number | undefined
  /** Room promised at the door, until the rows are in the queue. */
  #reservation: RoomReservation | undefined
  /** Still counted in `admitting` (until `through`). */
  #admitting = true
  /** Lets go of the model version (`served.hold`). */
  #release: (() => void) | undefined

  constructor(served: ServedModels) {
    this.served = served
    this.started = performance.now()
    this.arrivedOpen = !served.closed
    served.admitting.enter()
  }

  /** A trace header of the request (`traceparent`, `tracestate`): HTTP's headers, gRPC's metadata. */
  traceHeader(_name: string): string | undefined {
    return undefined
  }

  /** Resolves once the request's bytes can be read (HTTP: once the socket's round is parsed); `undefined` when they can now. */
  protected untilReadable(): Promise<void> | undefined {
    return undefined
  }

  /**
   * The rows the request counts for at the door, before it is decoded: declared by its
   * shapes (`door.declaredRows`) or estimated from its length (`door.rowsOfLength`). A
   * promise when bytes must be read first (a binary request's JSON header).
   */
  protected abstract doorRows(door: Door): number | Promise<number>

  /** Waits, parked, for room (`admission` resolves once it has it). HTTP gives the place up when the client leaves. */
  protected parked(admission: Promise<void>): Promise<void> {
    return admission
  }

  /** Decodes the admitted request (reading what is left of its bytes first, where it must). */
  protected abstract decode(door: Door, signal: AbortSignal): DecodedInferRequest | Promise<DecodedInferRequest>

  /** Encodes the results (HTTP also writes them). */
  protected abstract answer(decoded: DecodedInferRequest, model: ServedModel, results: RowOutput[] | BlockOutput): Answer

  /**
   * Hands the decoded request's rows to the pool (all or none, under one signal). A
   * binding may pick a cheaper way for the requests it sees most (gRPC: one row).
   */
  protected submit(pool: ServedPool, decoded: DecodedInferRequest, options: SubmitOptions): Promise<RowOutput[] | BlockOutput> {
    return submitRequest(pool, decoded, options)
  }

  /** The rows are in the pool's queue, or the request failed (gRPC: its message's bytes leave the pending-bytes budget). */
  protected passedDoor(): void {}

  /** `run` ended, either way (HTTP: what is left of an unread body is let go). */
  protected ended(): void {}

  /**
   * Runs the request through the door into its pool and answers it (`answer`), or
   * rejects with why it was not served. A refusal for lack of room leaves its hint in
   * `retryAfterSeconds`.
   */
  async run(options: ExchangeOptions): Promise<Answer> {
    const served = this.served
    let model = options.model
    const signal = options.signal
    this.model = model
    // The version looked up stays open for this request until it is answered, even if reloaded meanwhile.
    this.#release = served.hold(model)
    let door: Door | undefined
    // Traced only with an SDK registered; the start counts from the arrival.
    const tracer = requestTracer()
    const traced = tracer === undefined ? undefined : startRequestSpan(tracer, this, model, performance.timeOrigin + this.started)
    this.traceContext = traced?.context
    let submitted = false
    try {
      if (!this.arrivedOpen) throw new ShuttingDownError()
      // Not loaded (on-demand mode): the request waits for its load, within its deadline, then holds the version loaded.
      if (model.state.kind === 'unloaded') model = await this.#loaded(model, signal, options.deadline)
      const pool = served.poolOf(model)
      this.pool = pool
      door = served.doorOf(model)
      // Refuse what the queue cannot take before reading the body: under overload the
      // body's parse is the expensive part, not the refusal.
      const readable = this.untilReadable()
      if (readable !== undefined) await readable
      const counted = this.doorRows(door)
      this.rows = typeof counted === 'number' ? counted : await counted
      const reservation = door.reserve(this.rows)
      if (reservation instanceof Promise) await this.parked(reservation.then((held) => this.#reserved(held)))
      else this.#reservation = reservation
      // Admitted during a draining close, it is served (it arrived before); a forced one cuts it short.
      if (signal.aborted) throw signal.reason

      const decodeStarted = traced === undefined ? 0 : performance.now()
      let decoded: DecodedInferRequest
      try {
        const decoding = this.decode(door, signal)
        decoded = decoding instanceof Promise ? await decoding : decoding
      } catch (error) {
        if (traced !== undefined) tracePhase(traced, 'decode', decodeStarted, errorCodeOf(error) ?? INTERNAL_ERROR_CODE)
        throw error
      }
      if (traced !== undefined) tracePhase(traced, 'decode', decodeStarted)
      this.decoded = decoded
      this.rows = decoded.rowCount
      this.#decoded = true
      // The deadline counts from the arrival, body read included: the server's `timeoutMs`,
      // or the request's own `parameters.timeout` when that is shorter.
      const budgetMs = shorterTimeout(served.options.timeoutMs, decoded.timeoutMs)
      this.#budgetMs = budgetMs
      let timeoutMs = budgetMs === undefined ? undefined : budgetMs - (performance.now() - this.started)
      if (timeoutMs !== undefined && timeoutMs <= 0) throw new TimeoutError(budgetMs as number)
      // Rows the client no longer waits for leave the queue at its own deadline (its own
      // timer answers it then either way).
      const deadline = options.deadline
      if (deadline !== undefined && deadline !== Infinity) timeoutMs = shorterTimeout(timeoutMs, Math.max(1, deadline - Date.now()))

      // Rows in a pool: what a forced shutdown would lose (its `lost` count).
      let results: RowOutput[] | BlockOutput
      const admitted = served.admitted
      admitted.enter()
      try {
        submitted = true
        const pending = this.submit(
          pool,
          decoded,
          traced === undefined ? { signal, timeoutMs } : { signal, timeoutMs, context: traced.context },
        )
        // The rows are in the queue now (or refused): the room promised at the door is theirs.
        this.through()
        results = await pending
      } finally {
        admitted.leave()
      }
      if (traced === undefined) return this.answer(decoded, model, results)
      const encodeStarted = performance.now()
      try {
        return this.answer(decoded, model, results)
      } finally {
        tracePhase(traced, 'encode', encodeStarted)
      }
    } catch (error) {
      const code = errorCodeOf(error)
      if (traced !== undefined) this.#traceFailure(tracer as Tracer, traced, error, code ?? INTERNAL_ERROR_CODE, submitted)
      if (code === 'ERR_QUEUE_FULL' && door !== undefined) this.retryAfterSeconds = door.retryAfter(error, this.rows)
      // The rows were given what was left of the deadline; the client set the whole of it.
      if (code === 'ERR_TIMEOUT' && this.#budgetMs !== undefined) throw new TimeoutError(this.#budgetMs)
      throw error
    } finally {
      traced?.span.end()
      this.through()
      this.ended()
    }
  }

  /** The version `unloaded` serves once loaded, held in its place. */
  async #loaded(unloaded: ServedModel, signal: AbortSignal, deadline: number | undefined): Promise<ServedModel> {
    const model = await this.served.untilLoaded(unloaded, signal, this.started, deadline)
    this.#release?.()
    this.model = model
    this.#release = this.served.hold(model)
    return model
  }

  /** The request failed: its span says so with the code; a refusal at the door gets its `queue` span with a `refused` event. */
  #traceFailure(tracer: Tracer, traced: RequestSpan, error: unknown, code: string, submitted: boolean): void {
    if (!submitted && DOOR_REFUSALS.has(code)) {
      const queue = childSpan(tracer, traced, 'queue')
      queue.addEvent('refused', { 'inferpool.reason': code })
      failRequestSpan(queue, error, code)
      queue.end()
    }
    failRequestSpan(traced.span, error, code)
  }

  /** A reservation made while parked: kept, or given back at once if the request went through (failed) meanwhile. */
  #reserved(reservation: RoomReservation): void {
    if (this.#admitting) this.#reservation = reservation
    else reservation.release()
  }

  /**
   * The rows are in the pool's queue, or the request failed (or never came: a gRPC call
   * that ended before its message): the room promised at the door goes back and the
   * request leaves `admitting`. Idempotent.
   */
  through(): void {
    if (!this.#admitting) return
    this.#admitting = false
    this.#reservation?.release()
    this.served.admitting.leave()
    this.passedDoor()
  }

  /**
   * The request was answered: the version is let go, and the request is counted in its
   * version's metrics (`status`: the HTTP status or the gRPC status name; `errorCode`
   * when it failed with one) and, once its pool was reached, in Triton's statistics. Not
   * counted when no model was found. Call once.
   */
  finish(protocol: RequestProtocol, status: number | string, ok: boolean, errorCode: string | undefined): void {
    this.through()
    this.#release?.()
    const model = this.model
    if (model === undefined) return
    const rows = this.#decoded ? this.rows : 0
    this.served.recordRequest(model, this.pool, protocol, status, ok, performance.now() - this.started, rows, errorCode)
  }
}
