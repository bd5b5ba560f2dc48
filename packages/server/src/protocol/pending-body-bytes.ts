/**
 * The one budget of request bytes held by requests still arriving, HTTP bodies and gRPC
 * messages together. A client that declares a large body and sends it slowly (or never
 * finishes it) pins what it sent until the body timeout; many such clients would pin
 * the server's memory. Each request takes its bytes from this budget as they arrive and
 * gives them back once its body is complete (a gRPC message, which grpc-js reads whole
 * before the door: once it has passed the door) or it ends; a chunk that would
 * take the total past the limit gets the request refused (`PendingBodyBytesFullError`,
 * 503 / UNAVAILABLE) and nothing of it held. A request that alone needs more than the
 * whole budget could never be taken, however long its client waited: it is refused as
 * too large (`PayloadTooLargeError`, 413 / RESOURCE_EXHAUSTED, not retryable), whatever
 * `maxBodyBytes` and `maxMessageBytes` allow.
 *
 * One owner: `ServedModels` creates it (`pendingBodyBytes`); the HTTP handler and the
 * gRPC call guard take their holds from the served models they share, so both protocols
 * draw on the same bytes.
 */
import { PayloadTooLargeError, PendingBodyBytesFullError } from './errors.js'

/** What one request holds of the budget. */
export interface PendingBodyHold {
  /** Bytes this request holds now. */
  readonly bytes: number
  /**
   * Takes `bytes` more for this request; throws (taking nothing) `PayloadTooLargeError`
   * when this request alone would hold more than the whole budget, else
   * `PendingBodyBytesFullError` when the budget cannot give them now.
   */
  take(bytes: number): void
  /** Gives back everything this request holds. Idempotent until the next `take`. */
  release(): void
}

export class PendingBodyBytes {
  readonly limit: number
  #held = 0
  #refused = 0

  constructor(limit: number) {
    this.limit = limit
  }

  /** Bytes held now by requests still arriving, over both protocols. */
  get held(): number {
    return this.#held
  }

  /** Requests refused since the start because the budget was spent. */
  get refused(): number {
    return this.#refused
  }

  /**
   * A new, empty hold for one request (or one gRPC message): an instance of a class, not
   * an object literal with a getter and two closures, since one is made per request on the
   * host thread.
   */
  hold(): PendingBodyHold {
    return new Hold(this)
  }

  /**
   * Checks a body that arrived whole before it was read (HTTP's already-buffered body):
   * held and given back at once, so it is refused exactly as `take` would refuse it and
   * otherwise leaves the budget as it was, with no hold made.
   */
  pass(bytes: number): void {
    this.reserve(0, bytes)
    this.giveBack(bytes)
  }

  /**
   * Takes `bytes` for a request that holds `mine` already; throws (taking nothing) as
   * `PendingBodyHold.take` says. Also called by this module's holds.
   */
  reserve(mine: number, bytes: number): void {
    if (mine + bytes > this.limit) throw new PayloadTooLargeError(this.limit)
    if (this.#held + bytes > this.limit) {
      this.#refused++
      throw new PendingBodyBytesFullError(this.limit)
    }
    this.#held += bytes
  }

  /** Gives back `bytes` a request held (a hold's `release`). */
  giveBack(bytes: number): void {
    this.#held -= bytes
  }
}

/** One request's share of a `PendingBodyBytes` budget. */
class Hold implements PendingBodyHold {
  readonly #budget: PendingBodyBytes
  #mine = 0

  constructor(budget: PendingBodyBytes) {
    this.#budget = budget
  }

  get bytes(): number {
    return this.#mine
  }

  take(bytes: number): void {
    this.#budget.reserve(this.#mine, bytes)
    this.#mine += bytes
  }

  release(): void {
    this.#budget.giveBack(this.#mine)
    this.#mine = 0
  }
}
