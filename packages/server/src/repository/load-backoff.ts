/**
 * The failed on-demand loads a repository remembers: a model whose load failed is not
 * tried again on every request (each would pay the load's cost to meet the same error),
 * only once its back-off has passed, the delay doubling with each failure in a row up to
 * a ceiling. Until then its requests get the error of the last attempt at once.
 */

/** The first delay before a failed load is tried again, in ms. */
export const LOAD_BACKOFF_INITIAL_MS = 1000
/** The longest delay between two attempts of a load that keeps failing, in ms. */
export const LOAD_BACKOFF_MAX_MS = 60_000

interface Failure {
  readonly error: Error
  /** When (`now()`) the next attempt may start. */
  readonly retryAt: number
  /** The delay that led to `retryAt`: the next failure doubles it. */
  readonly delayMs: number
}

export class LoadBackoff {
  readonly #now: () => number
  readonly #failures = new Map<string, Failure>()

  /** `now`: the clock of the delays, in ms (injected by tests). */
  constructor(now: () => number) {
    this.#now = now
  }

  /** The error of `name`'s last load while its back-off lasts; `undefined` when a load may be tried. */
  refusal(name: string): Error | undefined {
    const failure = this.#failures.get(name)
    return failure !== undefined && this.#now() < failure.retryAt ? failure.error : undefined
  }

  /** When the next load of `name` may start (`now()` time), while it is backed off. */
  retryAt(name: string): number | undefined {
    return this.#failures.get(name)?.retryAt
  }

  /** A load of `name` failed with `error`: the next waits twice as long as the last did. */
  failed(name: string, error: Error): void {
    const before = this.#failures.get(name)
    const delayMs = before === undefined ? LOAD_BACKOFF_INITIAL_MS : Math.min(before.delayMs * 2, LOAD_BACKOFF_MAX_MS)
    this.#failures.set(name, { error, retryAt: this.#now() + delayMs, delayMs })
  }

  /** A load of `name` succeeded, or an operator asked for one (an explicit load tries at once): forgotten. */
  forget(name: string): void {
    this.#failures.delete(name)
  }
}
