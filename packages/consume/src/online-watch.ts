/**
 * Whether a pool is serving rows that are not the consumer's: online requests, when the
 * consumer shares its pools with a server (`inferpool serve --nats`).
 *
 * Priority alone does not keep bulk work out of an online request's way: a batch that is
 * running does not make room, and the consumer's own work (reading, decoding, encoding,
 * publishing a few hundred requests) runs on the main thread that also answers HTTP and
 * gRPC. So while online rows come in, the consumer holds fewer requests (`#pull`), and
 * takes its full share again once they have stopped for `quietMs`.
 *
 * Read from the pool's `stats.submitted` (rows queued since it started) minus the rows
 * the consumer queued itself, at most every `sampleMs`: no hook into the server.
 */
import type { ServedPool } from '@inferpool/server'

export class OnlineWatch {
  readonly #pool: ServedPool
  readonly #sampleMs: number
  readonly #quietMs: number
  readonly #now: () => number
  #own = 0
  #lastOwn = 0
  #lastSubmitted: number | undefined
  #sampledAt = -Infinity
  #activeUntil = -Infinity

  constructor(pool: ServedPool, sampleMs: number, quietMs: number, now: () => number = () => performance.now()) {
    this.#pool = pool
    this.#sampleMs = sampleMs
    this.#quietMs = quietMs
    this.#now = now
  }

  /** Counts rows the consumer queued in the pool (they are not online). */
  queued(rows: number): void {
    this.#own += rows
  }

  /** Whether rows other than the consumer's entered the pool within the last `quietMs`. */
  get active(): boolean {
    const now = this.#now()
    if (now - this.#sampledAt >= this.#sampleMs) this.#sample(now)
    return now < this.#activeUntil
  }

  #sample(now: number): void {
    this.#sampledAt = now
    // A pool in another thread has no synchronous stats: its consumer never yields.
    const submitted = this.#pool.stats?.submitted
    if (submitted === undefined) return
    if (this.#lastSubmitted !== undefined && submitted - this.#lastSubmitted > this.#own - this.#lastOwn) {
      this.#activeUntil = now + this.#quietMs
    }
    this.#lastSubmitted = submitted
    this.#lastOwn = this.#own
  }
}
