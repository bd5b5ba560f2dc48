/**
 * The door of a pool: everything an inference request meets between its arrival and the
 * pool's queue, shared by the HTTP and gRPC bindings (through exchange.ts).
 *
 * Under overload the host thread is the scarce resource: reading, parsing and decoding
 * a body costs far more than computing its rows. So a request the queue cannot take is
 * refused *before* its body is parsed — from what is known at the door: the declared
 * row count when a binary header or a gRPC message's shapes give it, else a lower bound
 * on the rows derived from the body's length — and the rows of an admitted request are
 * queued all together or not at all (`pool.inferMany`), so a refused request never
 * leaves rows behind that are computed for nobody.
 *
 * One `Door` per served pool, kept by `ServedModels` (room promised to a request on one
 * protocol is counted by the other).
 */
import { QueueFullError, RequestTooLargeError } from '@inferpool/core'
import type { AdmissionState } from '@inferpool/core'
import { MAX_TIMER_MS } from '@inferpool/core/internal'
import { errorCodeOf } from '../error-registry.js'
import type { PoolMetadata } from '@inferpool/host'
import { checkRowCount } from './decode.js'
import type { ResolvedHandlerOptions } from './options.js'
import type { ServedPool } from './served-pool.js'

/**
 * Most bytes one tensor element takes in a compact JSON body: a float written with
 * full double precision (`-0.10000000149011612e-300`) and its comma stay under 26
 * bytes; 32 leaves room for some whitespace. Dividing a body's length by it gives a
 * lower bound on its elements, so the row estimate never refuses a request that
 * would have fit — except for bodies padded with far more whitespace than data.
 */
const MAX_JSON_BYTES_PER_ELEMENT = 32

/** Fixed part of a request (`{"inputs":[{"name":…,"shape":…,"datatype":…,"data":[`). */
const JSON_ENVELOPE_BYTES = 256

/** Bounds of a `Retry-After` derived from the drain rate, in seconds. */
const MIN_RETRY_AFTER_S = 1
const MAX_RETRY_AFTER_S = 60

/**
 * Elements of one row across all inputs, counting a dynamic axis as 1 (so the figure
 * stays a lower bound). A row of any model is at least 1 element.
 */
export function elementsPerRow(metadata: PoolMetadata): number {
  let total = 0
  for (const input of metadata.inputs) {
    let elements = 1
    for (let axis = 1; axis < input.dims.length; axis++) {
      const dim = input.dims[axis]
      if (typeof dim === 'number' && dim > 0) elements *= dim
    }
    total += elements
  }
  return Math.max(1, total)
}

/**
 * A lower bound on the rows of a JSON inference request of `bodyBytes` bytes (at
 * least 1: every request carries a row).
 */
export function estimateJsonRows(bodyBytes: number, metadata: PoolMetadata): number {
  const payload = Math.max(0, bodyBytes - JSON_ENVELOPE_BYTES)
  return Math.max(1, Math.floor(payload / (elementsPerRow(metadata) * MAX_JSON_BYTES_PER_ELEMENT)))
}

/**
 * Slack on the measured bytes per row: a body is assumed to hold rows up to 25 %
 * larger than the recent ones, so a client writing longer numbers than the others is
 * underestimated rather than refused.
 */
const ROW_BYTES_SLACK = 1.25

/**
 * Bytes per row of one model's recent JSON requests (a moving average), which turns a
 * body's length into a much closer row estimate than the worst-case bound: clients
 * typically write 6–20 bytes per number, not 32. Without it, a 64-row request of
 * short numbers counts as 14 rows at the door, and most refusals would come only
 * after the body was parsed — the cost early rejection is there to avoid.
 */
export class RowSizeEstimator {
  #bytesPerRow = 0

  constructor(private readonly metadata: PoolMetadata) {}

  /** Records a parsed request: its body length and its rows. */
  observe(bodyBytes: number, rows: number): void {
    if (rows <= 0) return
    const sample = bodyBytes / rows
    this.#bytesPerRow = this.#bytesPerRow === 0 ? sample : this.#bytesPerRow * 0.9 + sample * 0.1
  }

  /** Rows a JSON body of `bodyBytes` bytes likely holds, at least the worst-case lower bound. */
  rows(bodyBytes: number): number {
    const bound = estimateJsonRows(bodyBytes, this.metadata)
    if (this.#bytesPerRow === 0) return bound
    return Math.max(bound, Math.floor(bodyBytes / (this.#bytesPerRow * ROW_BYTES_SLACK)))
  }
}

/**
 * Seconds after which a request of `rows` rows refused now is likely to fit: the rows
 * that must leave the queue first, at the measured drain rate. `fallback` when nothing
 * has drained lately (the rate says nothing then).
 */
export function retryAfterSeconds(state: AdmissionState, rows: number, fallback: number): number {
  if (!(state.drainRate > 0)) return fallback
  const excess = state.queued + state.waitingForRoom + rows - state.maxQueueSize
  const seconds = Math.ceil(Math.max(0, excess) / state.drainRate)
  return Math.min(MAX_RETRY_AFTER_S, Math.max(MIN_RETRY_AFTER_S, seconds))
}

/** Whether `rows` more rows fit the queue now, on top of `promised` rows not yet submitted. */
export function fits(state: AdmissionState, rows: number, promised = 0): boolean {
  return state.waitingForRoom === 0 && state.queued + promised + rows <= state.maxQueueSize
}

/** Whether a request of `rows` rows would be refused for lack of room right now. */
export function wouldRefuse(state: AdmissionState, rows: number): boolean {
  if (state.whenFull !== 'reject') return false
  return !fits(state, rows)
}

/**
 * The largest binary-request JSON header read before admission. A header of a few
 * inputs' names, types and shapes is well under 1 KiB; a larger one carries JSON
 * `data`, and reading and parsing it is the expense the door exists to avoid — so such
 * a request is counted like a JSON body, from its length, and its header is read once
 * admitted. It also bounds what a connection parked at the door holds in memory.
 */
export const MAX_DOOR_HEADER_BYTES = 64 * 1024

/** Room promised to an admitted request until its rows are submitted (or it fails first). */
export interface RoomReservation {
  /** Gives the room back; call once the rows are in the pool's queue, or on failure. Idempotent. */
  release(): void
}

const NO_RESERVATION: RoomReservation = Object.freeze({ release() {} })

interface Parked {
  readonly rows: number
  readonly resolve: (reservation: RoomReservation) => void
  readonly reject: (error: unknown) => void
  timer: ReturnType<typeof setTimeout> | undefined
  done: boolean
}

/** How often parked requests look for room (the queue drains batch by batch). */
const PARKED_POLL_MS = 5

/**
 * The door of one pool, shared by every protocol. A request is admitted when its rows
 * (as counted before its body is read) fit the queue, counting the room already
 * promised to admitted requests still reading their bodies — so two requests never
 * count on the same room, and a refusal after the parse (wasted work) stays rare.
 *
 * A request that does not fit waits, parked with its body unread — its client held by
 * TCP flow control, at no CPU cost — first come first served, until it fits or its
 * wait ends (`admissionWaitMs` with `whenFull: 'reject'`, its deadline with `'wait'`);
 * then it gets `QueueFullError`. Why wait at all before refusing: clients that retry at
 * once on a 503 (most load generators, many naive clients) otherwise turn overload into
 * a storm of refusals, each costing the host thread a request's parse and answer; a
 * short wait bounds the refusals to about one per client per wait and lets the ones
 * that can be served be served.
 */
export class Door {
  /** Bytes per row of the pool's recent JSON bodies: a body's length becomes its row estimate. */
  readonly rowSize: RowSizeEstimator
  readonly #pool: ServedPool
  readonly #options: ResolvedHandlerOptions
  #promised = 0
  readonly #parked: Parked[] = []
  #poll: ReturnType<typeof setTimeout> | undefined

  constructor(pool: ServedPool, options: ResolvedHandlerOptions) {
    this.#pool = pool
    this.#options = options
    this.rowSize = new RowSizeEstimator(pool.metadata)
  }

  /** Rows promised to admitted requests not yet submitted. */
  get promised(): number {
    return this.#promised
  }

  /** Requests waiting for room. */
  get parked(): number {
    return this.#parked.length
  }

  /**
   * The rows a request counts for when its inputs declare `rows` (the largest first dim,
   * of `input`; 0 when none declares a usable one): refused at once when the request could
   * never be taken (more rows than `maxRowsPerRequest`, or than the whole queue holds).
   */
  declaredRows(rows: number, input: string): number {
    // Without a usable shape the decode refuses the request, saying what is wrong.
    if (rows === 0) return 1
    checkRowCount(input, rows, { maxRows: this.#options.maxRowsPerRequest })
    const state = this.#pool.admission
    if (state !== undefined && rows > state.maxQueueSize) throw new RequestTooLargeError(rows, state.maxQueueSize)
    return rows
  }

  /** The rows a body of `length` bytes likely holds (NaN: a chunked body, counted as 1 row). */
  rowsOfLength(length: number): number {
    return Number.isFinite(length) ? this.rowSize.rows(length) : 1
  }

  /**
   * Room for `rows` rows: a reservation at once when they fit (or the pool cannot tell,
   * or the request is larger than the whole queue — `inferMany` then refuses it with its
   * own error); else a promise of one while the request waits, parked (see the class
   * comment); `QueueFullError` when the wait ends without room — at once when the wait
   * is 0.
   */
  reserve(rows: number): RoomReservation | Promise<RoomReservation> {
    const state = this.#pool.admission
    if (state === undefined || rows > state.maxQueueSize) return NO_RESERVATION
    if (this.#parked.length === 0 && fits(state, rows, this.#promised)) return this.#reservation(rows)
    const waitMs = this.#waitMs()
    if (waitMs <= 0) throw new QueueFullError(state.maxQueueSize)
    return new Promise<RoomReservation>((resolve, reject) => {
      const parked: Parked = { rows, resolve, reject, timer: undefined, done: false }
      parked.timer = setTimeout(() => {
        this.#unpark(parked)
        reject(new QueueFullError(state.maxQueueSize))
      }, waitMs)
      this.#parked.push(parked)
      this.#schedulePoll()
    })
  }

  /**
   * Seconds after which a request of `rows` rows that failed with `error` may be retried:
   * for lack of room, from the pool's drain rate; else `retryAfterSeconds`.
   */
  retryAfter(error: unknown, rows: number): number {
    const fallback = this.#options.retryAfterSeconds
    const state = this.#pool.admission
    if (state === undefined || errorCodeOf(error) !== 'ERR_QUEUE_FULL') return fallback
    return retryAfterSeconds(state, rows, fallback)
  }

  /**
   * Refuses every parked request with `error` (a forced shutdown) — whichever protocol
   * parked it: the door is the pool's.
   */
  refuseParked(error: unknown): void {
    for (const parked of this.#parked.splice(0)) {
      parked.done = true
      clearTimeout(parked.timer)
      parked.reject(error)
    }
  }

  /**
   * How long a request may wait for room: with `whenFull: 'wait'` until its deadline,
   * with 'reject' for `admissionWaitMs` at most.
   */
  #waitMs(): number {
    const options = this.#options
    const deadlineMs = options.timeoutMs ?? MAX_TIMER_MS
    return Math.min(this.#pool.admission?.whenFull === 'wait' ? MAX_TIMER_MS : options.admissionWaitMs, deadlineMs)
  }

  #reservation(rows: number): RoomReservation {
    this.#promised += rows
    let held = true
    return {
      release: () => {
        if (!held) return
        held = false
        this.#promised -= rows
        if (this.#parked.length > 0) this.#admitParked()
      },
    }
  }

  #unpark(parked: Parked): void {
    parked.done = true
    const i = this.#parked.indexOf(parked)
    if (i !== -1) this.#parked.splice(i, 1)
  }

  /** Admits parked requests in arrival order while the first one fits. */
  #admitParked(): void {
    const state = this.#pool.admission
    if (state === undefined) return
    while (this.#parked.length > 0) {
      const first = this.#parked[0]
      if (!fits(state, first.rows, this.#promised)) return
      this.#parked.shift()
      first.done = true
      clearTimeout(first.timer)
      first.resolve(this.#reservation(first.rows))
    }
  }

  #schedulePoll(): void {
    if (this.#poll !== undefined) return
    this.#poll = setTimeout(() => {
      this.#poll = undefined
      this.#admitParked()
      if (this.#parked.length > 0) this.#schedulePoll()
    }, PARKED_POLL_MS)
  }
}
