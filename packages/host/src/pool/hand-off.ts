/**
 * Nothing late is run, after formation too (`formation: 'deadline'`). The batcher starts
 * a batch only when its latency model's bound says the answer comes before the earliest
 * deadline in it; but the batch can still lose time after that, before its run starts: a
 * stall of the host thread while it is packed and posted, a replica thread or process
 * the OS runs late, a re-send after a crash. Measured on the heavy MLP at 2× capacity
 * with 20 ms deadlines: batches that lost 3.8–4.2 ms there answered rows late.
 *
 * So the pool stamps each queued row with its caller's deadline, and every send of a
 * batch carries the deadlines of its rows (on the clock every thread and process reads
 * alike, `sharedClockMs`) with the time the answer takes once the run starts. The
 * replica looks at them right before it runs the batch (@inferpool/worker
 * `createWorkerRuntime`) and leaves out the rows whose answer would come too late; a
 * re-send leaves them out on the host already. A row left out fails with
 * `DeadlineExceededError`, the error of a row that cannot make its deadline.
 */
import { DeadlineExceededError } from '@inferpool/core'
import type { LatencyModel } from '@inferpool/core'
import { quantile } from '@inferpool/core/internal'
import { performance } from 'node:perf_hooks'
import { sharedClockMs } from '@inferpool/worker'

/** A queued row of a pool with deadline formation: the request's deadline, if it has one. */
interface Deadlined {
  /** ms on this thread's `performance.now()` clock by which the answer is due. */
  deadline?: number
}

/** What one send of a batch carries about its deadlines. */
export interface SendPlan {
  /** The rows to send (indices into the batch, ascending); `undefined`: all of them. */
  keep: number[] | undefined
  /** The sent rows' deadlines on the shared clock (`Infinity`: none). */
  deadlines: number[]
  /** ms from the start of the run until its answer is due on the host. */
  runMs: number
  /** The model's bound of the whole batch (ms, hand-off included), for the error of a row left out. */
  boundMs: number
}

/** Hand-off times kept (see {@link DeadlineHandOff.noteSend}). */
const SENDS_KEPT = 64

/** The share of hand-offs the replica's check allows for (see {@link DeadlineHandOff.plan}). */
const SEND_QUANTILE = 0.9

/** Stamps rows with their deadline and plans each send of a batch by them: see the module. */
export class DeadlineHandOff {
  readonly #model: LatencyModel
  /** Recent times from a batch's hand-off to the start of its run (a ring), and their p90. */
  readonly #sends: number[] = []
  #next = 0
  #sendHigh = 0
  #dirty = false
  /**
   * One clock reading per turn of the event loop for the rows stamped in it, as the
   * batcher reads one per turn for their enqueue time: a row's deadline is then never
   * later than the one the batcher times it out by.
   */
  #stamp = NaN
  readonly #resetStamp = (): void => {
    this.#stamp = NaN
  }

  constructor(model: LatencyModel) {
    this.#model = model
  }

  /** Stamps a row with its request's deadline, `timeoutMs` from now. */
  stamp(item: unknown, timeoutMs: number): void {
    if (this.#stamp !== this.#stamp) {
      this.#stamp = performance.now()
      queueMicrotask(this.#resetStamp)
    }
    ;(item as Deadlined).deadline = this.#stamp + timeoutMs
  }

  /**
   * The deadlines one send of `items` carries, or `undefined` when it carries none (no
   * row has a deadline, nothing is measured yet, or the batch is formation's probe).
   *
   * - The first send leaves no row out on the host: formation has just chosen the batch
   *   by the same model. A batch of one whose row is already late by the model is
   *   formation's probe (it runs, however late, so that the model learns again after a
   *   while without runs): it goes without deadlines, or it would never run.
   * - A re-send leaves out the rows that can no longer make it (`keep` is empty when
   *   that is every row: the batch is not sent again).
   * - The replica's check allows for the usual hand-offs: the answer is due `runMs`
   *   after the run starts, the model's bound less the p90 of recent hand-offs (from
   *   the batch's start here to its run's start there). The bound holds the p90 of the
   *   whole hand-off (there and back) already, and formation sizes a batch right up to
   *   its earliest deadline by it: allowing for only the median hand-off, the rows that
   *   sized the batch were left out whenever its hand-off was a little slower than
   *   the median (measured on the heavy MLP at 2× capacity and 20 ms deadlines: 400
   *   rows a second, ~4 % of capacity, whose answers would have come ~10 ms early).
   */
  plan(items: readonly unknown[], first: boolean): SendPlan | undefined {
    const n = items.length
    // The model's floor, not its bound: a row is left out only when its deadline is out
    // of reach even by the fastest such batch measured (the latency model's rule for
    // every drop: a row the model is unsure of runs).
    const bound = this.#model.floor(n)
    if (bound === undefined) return undefined
    const now = performance.now()
    const endsAt = now + bound
    const toShared = sharedClockMs() - now
    let any = false
    let late = 0
    for (let i = 0; i < n; i++) {
      const d = (items[i] as Deadlined).deadline
      if (d === undefined) continue
      any = true
      if (d < endsAt) late++
    }
    if (!any || (first && n === 1 && late === 1)) return undefined
    const cut = !first && late > 0
    const keep: number[] | undefined = cut ? [] : undefined
    const deadlines: number[] = []
    for (let i = 0; i < n; i++) {
      const d = (items[i] as Deadlined).deadline
      if (cut && d !== undefined && d < endsAt) continue
      keep?.push(i)
      deadlines.push(d === undefined ? Infinity : d + toShared)
    }
    if (this.#dirty) this.#rebuild()
    const runMs = bound - this.#sendHigh
    return { keep, deadlines, runMs: runMs > 0 ? runMs : 0, boundMs: bound }
  }

  /** The error of a row left out of a batch of `batchSize` rows whose answer the model bounds at `boundMs`. */
  lateError(item: unknown, boundMs: number, batchSize: number): DeadlineExceededError {
    const d = (item as Deadlined).deadline
    return new DeadlineExceededError(d === undefined ? Infinity : d - performance.now(), boundMs, batchSize)
  }

  /**
   * A batch's answers go back to the batcher now: once this turn of the event loop is
   * over, tells the latency model how long after this its callers could see them
   * (`LatencyModel.delivered`). The batcher records the batch when it settles, but the
   * callers' continuations run only after what it does next in the same turn (form and
   * send the next batch, fail the queued rows that can no longer make it): measured on
   * the heavy MLP at 2× capacity with 20 ms deadlines, 0.3–0.5 ms typically, up to 7.7 ms,
   * and rows were answered late by that alone. Read at `setImmediate`, after the turn's
   * microtasks (the callers' included) and the rest of its I/O callbacks: an upper bound.
   * Once per turn, from the turn's first answer: the model gives that wait to every
   * batch recorded since it was last told (two replicas' answers can land in one turn).
   */
  answered(): void {
    if (this.#answeredAt === this.#answeredAt) return
    this.#answeredAt = performance.now()
    setImmediate(this.#tellDelivered)
  }

  /** When this turn's first batch answered (NaN: none yet), for `answered`. */
  #answeredAt = NaN
  readonly #tellDelivered = (): void => {
    const ms = performance.now() - this.#answeredAt
    this.#answeredAt = NaN
    this.#model.delivered(ms)
  }

  /** Notes how long a batch took from its start on the host to the start of its run (ms). */
  noteSend(ms: number): void {
    if (!(ms >= 0) || ms === Infinity) return
    this.#sends[this.#next] = ms
    this.#next = (this.#next + 1) % SENDS_KEPT
    this.#dirty = true
  }

  #rebuild(): void {
    this.#dirty = false
    this.#sendHigh = quantile(
      this.#sends.slice().sort((a, b) => a - b),
      SEND_QUANTILE,
    )
  }
}
