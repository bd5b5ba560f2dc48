/**
 * The one lifecycle state machine of everything that can be closed: the pool, the
 * remote pool client, the HTTP request handler and the server. It follows undici's
 * dispatcher (`close()` / `destroy()`):
 *
 *   open ──close({drain: true})──▶ draining ──close({drain: false})──▶ abandoning
 *     │                              │                                    │
 *     └───────────── destroy(err?) ──┴────────────────────────────────────┴──▶ destroyed
 *
 * - `close({ drain: true })` stops admitting, lets what was admitted finish, then
 *   releases resources; `close({ drain: false })` fails what is still queued and lets
 *   only what is running finish; `destroy(err?)` fails everything now and ends at once.
 * - An escalation is honoured at once, never swallowed: a `drain: false` close after a
 *   draining one runs its step now; a `destroy` after a `close` runs now. Every caller
 *   gets a promise of the end, which the harder step brings sooner.
 * - A milder request after a harder one, or a repeated one, changes nothing: it gets
 *   the same promise.
 *
 * The owner supplies the steps; this module only decides which runs when.
 */

import { booleanOption } from '@inferpool/core/internal'

/** What `close()` accepts. */
export interface CloseOptions {
  /**
   * Run what is queued before ending (`true`), or fail it now (`false`). What is running
   * finishes either way; use `destroy()` to stop that too.
   * @default true
   */
  drain?: boolean
}

/** The owner's steps. Each is called at most once. */
export interface LifecycleSteps {
  /**
   * Stops admitting; with `drain`, resolves once what was admitted has finished. Called
   * with `true` for a draining close.
   */
  drain(): Promise<void>
  /**
   * Fails what is queued now; resolves once what is running has finished. Called for a
   * `drain: false` close, also while `drain()` is still waiting (an escalation).
   */
  abandon(): Promise<void>
  /** Releases resources once admitted work has finished (after `drain` or `abandon`). */
  release(): Promise<void>
  /**
   * Fails everything now (queued and running, with `error` if given) and ends at once.
   * Called also while `drain`, `abandon` or `release` is in progress: they must then
   * settle promptly.
   */
  destroy(error: Error | undefined): Promise<void>
}

type Stage = 'open' | 'draining' | 'abandoning' | 'destroyed'

const RANK: Record<Stage, number> = { open: 0, draining: 1, abandoning: 2, destroyed: 3 }

export class Lifecycle {
  #stage: Stage = 'open'
  #closing: Promise<void> | undefined
  #abandoning: Promise<void> | undefined
  #destroying: Promise<void> | undefined
  /** The promise callers get, until a harder step starts (a repeated call gets the same one). */
  #end: Promise<void> | undefined

  constructor(private readonly steps: LifecycleSteps) {}

  /** `close()` or `destroy()` was called: no new work is admitted. */
  get closed(): boolean {
    return this.#stage !== 'open'
  }

  /** `destroy()` was called. */
  get destroyed(): boolean {
    return this.#stage === 'destroyed'
  }

  /**
   * Closes (see {@link CloseOptions}). Resolves once the owner has ended, by this close
   * or by a later, harder request. Rejects with a TypeError for a non-boolean `drain`.
   */
  close(options?: CloseOptions): Promise<void> {
    let drain: boolean
    try {
      drain = booleanOption('drain', options?.drain, true)
    } catch (error) {
      return Promise.reject(error as Error)
    }
    this.#advance(drain ? 'draining' : 'abandoning')
    return this.#ended()
  }

  /** Ends now: everything queued or running fails (with `error` if given). Resolves once ended. */
  destroy(error?: Error): Promise<void> {
    this.#advance('destroyed', error)
    return this.#ended()
  }

  #advance(to: Stage, error?: Error): void {
    if (RANK[to] <= RANK[this.#stage]) return
    this.#stage = to
    this.#end = undefined
    if (to === 'destroyed') {
      this.#destroying = this.steps.destroy(error)
      return
    }
    if (to === 'abandoning') this.#abandoning = this.steps.abandon()
    // The first close runs `release` once admitted work has finished, whichever way.
    this.#closing ??= (to === 'draining' ? this.steps.drain() : (this.#abandoning as Promise<void>)).then(() =>
      this.#stage === 'destroyed' ? undefined : this.steps.release(),
    )
  }

  /** The end: every step started so far has settled (a destroy cuts the others short). */
  #ended(): Promise<void> {
    this.#end ??= Promise.all([this.#closing, this.#abandoning, this.#destroying]).then(() => undefined)
    return this.#end
  }
}
