/**
 * After a burst, gives memory back once an isolate has gone quiet: one full garbage
 * collection `afterMs` after the last piece of work ended, and one more
 * `RELEASE_AFTER_MS` after that if it is still quiet. Two owners run one each: the
 * server's main thread (its requests are the work) and each process-mode replica (its
 * batches are).
 *
 * Why they do this themselves: V8 collects when a program allocates, and an idle
 * program allocates nothing. After an overload burst the heap and the dead buffers
 * (request bodies and decoded tensors on the server; the batches read from the transfer
 * files in a replica process: off-heap memory that only a collection frees) stay
 * allocated until the next traffic, or until V8's memory reducer runs tens of seconds
 * later. One collection frees them; whether the process's resident memory then falls
 * depends on the allocator (docs/runtime-facts.md#memory-after-a-burst: glibc keeps
 * most of it, jemalloc with a decay time returns it).
 *
 * Why a second one: V8 gives its young generation back (it grows from 1 to 32 MiB under
 * load) only at a full collection that finds the allocation rate low over the last five
 * seconds of collections (docs/runtime-facts.md#memory-after-a-burst). The first
 * collection follows the burst too closely to qualify; it frees the old generation and
 * the dead off-heap buffers. The second, over five seconds after it, shrinks the young
 * generation.
 *
 * Cheap on the hot path: the owner calls `busy()`, `idle()` and `inferenceStarted()`
 * only when its work turns non-empty or empty, and one timer at most is pending,
 * re-armed when it fires too early instead of being cleared and set per request.
 */

import { getHeapSpaceStatistics } from 'node:v8'

/** V8's young generation (`new_space`): its committed size now, in bytes. */
function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
}

/**
 * A `grown` for {@link IdleCollectionOptions}: whether V8's young generation is larger
 * than when this was called (at start). It grows from 1 to 32 MiB under load and only a releasing
 * collection gives that back.
 */
export function youngGenerationGrown(): () => boolean {
  const atStart = youngGenerationBytes()
  return () => youngGenerationBytes() > atStart
}

/**
 * Quiet time in ms between the first collection and the one that releases the young
 * generation: just over V8's five-second allocation-rate window.
 */
export const RELEASE_AFTER_MS = 5_200

/**
 * Releasing collections after one burst at most: V8 may still find the allocation rate
 * too high at the first (JIT code installed in the quiet, a scrape's allocations), so
 * another follows `RELEASE_AFTER_MS` later while `grown()` says memory is still held.
 */
export const MAX_RELEASES = 3

export interface IdleCollectionOptions {
  /** Quiet time after the last answer before collecting, in ms. */
  readonly afterMs: number
  /** Runs one full collection (`globalThis.gc` under `--expose-gc`). */
  readonly collect: () => void
  /**
   * After a releasing collection: whether the heap still holds what one gives back
   * (`youngGenerationGrown()`: V8's young generation larger than at start). While it does, up to
   * `MAX_RELEASES` are run. @default () => false (one releasing collection)
   */
  readonly grown?: () => boolean
  /** Called after each collection (the metrics count them). */
  readonly onCollected?: () => void
  /** Where a collection that throws is reported. */
  readonly logger: Pick<Console, 'error'>
  /** The clock, in ms (tests inject one). @default performance.now */
  readonly now?: () => number
}

export class IdleCollection {
  readonly #options: IdleCollectionOptions
  readonly #now: () => number
  /** Requests being answered, as the gate last said: busy while true. */
  #busy = false
  /**
   * The collection owed: `collect` once an inference request ran, `release` after that
   * first collection, `none` once both ran.
   */
  #owed: 'none' | 'collect' | 'release' = 'none'
  /** When the owner last went idle (`now()`). */
  #idleSince = 0
  /** When the last collection ran (`now()`). */
  #collectedAt = 0
  /** Releasing collections run since the first collection after the last burst. */
  #releases = 0
  #timer: NodeJS.Timeout | undefined
  #closed = false

  constructor(options: IdleCollectionOptions) {
    this.#options = options
    this.#now = options.now ?? (() => performance.now())
  }

  /** The first piece of work after a quiet spell started (on the server any route: a scrape delays a collection too). */
  busy(): void {
    this.#busy = true
  }

  /**
   * Work that allocates started: an inference request on the server, a batch in a
   * replica process. Only such work makes a collection worth its pause: health probes
   * and metric scrapes alone never trigger one.
   */
  inferenceStarted(): void {
    if (this.#owed === 'release') {
      // The pending timer is the release's, seconds away: the next `idle()` arms afresh.
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    this.#owed = 'collect'
  }

  /** The last piece of work in progress (request, batch) ended. */
  idle(): void {
    this.#busy = false
    this.#idleSince = this.#now()
    if (this.#timer === undefined && !this.#closed) this.#arm(this.#options.afterMs)
  }

  /** No collection after this (the owner is shutting down). */
  close(): void {
    this.#closed = true
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  #arm(ms: number): void {
    // Never keeps the process alive on its own.
    this.#timer = setTimeout(this.#check, ms).unref()
  }

  readonly #check = (): void => {
    this.#timer = undefined
    // Busy again: the next `idle()` arms the timer anew.
    if (this.#busy || this.#owed === 'none' || this.#closed) return
    const now = this.#now()
    const quietUntil = this.#idleSince + this.#options.afterMs
    const due = this.#owed === 'collect' ? quietUntil : Math.max(quietUntil, this.#collectedAt + RELEASE_AFTER_MS)
    if (now < due) {
      this.#arm(due - now)
      return
    }
    const first = this.#owed === 'collect'
    this.#releases = first ? 0 : this.#releases + 1
    this.#collectedAt = now
    let grown = false
    try {
      this.#options.collect()
      this.#options.onCollected?.()
      grown = !first && this.#releases < MAX_RELEASES && (this.#options.grown?.() ?? false)
    } catch (error) {
      this.#options.logger.error('inferpool: the idle garbage collection failed', error)
    }
    this.#owed = first || grown ? 'release' : 'none'
    if (this.#owed === 'release') this.#arm(RELEASE_AFTER_MS)
  }
}
