/**
 * After a burst, gives memory back once the server has gone quiet: one full garbage
 * collection `afterMs` after the last request was answered.
 *
 * Why the server does this itself: V8 collects when a program allocates, and an idle
 * server allocates nothing. After an overload burst the main thread's heap and the dead
 * request buffers (body chunks, joined bodies, decoded tensors: off-heap memory that only
 * a collection frees) stay allocated until the next traffic, or until V8's memory reducer
 * runs tens of seconds later. One collection frees them; whether the process's resident
 * memory then falls depends on the allocator (docs/runtime-facts.md#memory-after-a-burst:
 * glibc keeps most of it, jemalloc with a decay time returns it).
 *
 * Cheap on the request path: the server's request gates call `busy()`, `idle()` and
 * `inferenceStarted()` only when they turn non-empty or empty, and one timer at most is
 * pending, re-armed when it fires too early instead of being cleared and set per request.
 */

export interface IdleCollectionOptions {
  /** Quiet time after the last answer before collecting, in ms. */
  readonly afterMs: number
  /** Runs one full collection (`globalThis.gc` under `--expose-gc`). */
  readonly collect: () => void
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
  /** An inference request ran since the last collection. */
  #dirty = false
  /** When the server last went idle (`now()`). */
  #idleSince = 0
  #timer: NodeJS.Timeout | undefined
  #closed = false

  constructor(options: IdleCollectionOptions) {
    this.#options = options
    this.#now = options.now ?? (() => performance.now())
  }

  /** The first request after a quiet spell started (any route: a scrape delays a collection too). */
  busy(): void {
    this.#busy = true
  }

  /**
   * An inference request started. Only these make a collection worth its pause: health
   * probes and metric scrapes alone never trigger one.
   */
  inferenceStarted(): void {
    this.#dirty = true
  }

  /** The last request in progress was answered. */
  idle(): void {
    this.#busy = false
    this.#idleSince = this.#now()
    if (this.#timer === undefined && !this.#closed) this.#arm(this.#options.afterMs)
  }

  /** No collection after this (the server is shutting down). */
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
    if (this.#busy || !this.#dirty || this.#closed) return
    const quietMs = this.#now() - this.#idleSince
    if (quietMs < this.#options.afterMs) {
      this.#arm(this.#options.afterMs - quietMs)
      return
    }
    this.#dirty = false
    try {
      this.#options.collect()
      this.#options.onCollected?.()
    } catch (error) {
      this.#options.logger.error('inferpool: the idle garbage collection failed', error)
    }
  }
}
