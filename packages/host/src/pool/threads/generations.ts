/**
 * Keeps the pool's worker threads alive for its whole life, around a gap in piscina.
 *
 * What piscina 5.3.2 does (`ThreadPool._onError`): when a worker dies it rejects the
 * tasks running on it and starts a replacement only if the worker had become *ready*
 * (its module loaded — for an inferpool worker: its `load` finished) and the pool-wide
 * flag `workerFailsDuringBootstrap` is unset. A worker that dies before it is ready (a
 * replacement whose `load` calls `process.exit`, throws outside its promise chain, or
 * is killed) sets that flag, and nothing ever clears it: from then on that Piscina
 * replaces no dead worker at all, and a task queued while it has no ready worker stays
 * queued for good (docs/runtime-facts.md#piscina-5). The flag is private, so this
 * module replaces the whole Piscina instead: a *generation*.
 *
 * - Every thread of every generation is handed to the ledger (ledger.ts), which
 *   watches it (loading ones too: piscina announces a thread with `workerCreate` only
 *   once it is ready, so new threads are found by scanning `piscina.threads`).
 * - After an exit (or an `error`, see `#errored`), a generation with fewer threads than
 *   `replicas` has stopped replacing: it is retired and a new generation starts.
 * - A retired generation is closed gracefully once none of its threads is inside a
 *   native call (the ledger's rule), or, for a user worker, after `startupTimeoutMs`:
 *   its surviving threads finish what they run and what is queued, then it is
 *   destroyed. A task it rejects without running was not the batch's fault: the
 *   transport re-routes it (`isRetired`).
 * - Rebuilds back off while no thread of the new generation loads (a load that always
 *   dies would otherwise respawn threads in a tight loop). While the current
 *   generation has no thread at all, a send fails at once (`unavailable`).
 */
import type { Piscina } from 'piscina'
import type { ThreadLedger, ThreadRecord } from './ledger.js'

/** One Piscina instance and what is known of it. */
export interface Generation {
  readonly id: number
  readonly piscina: Piscina
  /** Retired: no new task goes to it; it is closing or closed. */
  retired: boolean
  /** Some thread of it reported a successful load. */
  loadedOnce: boolean
}

export interface GenerationHooks {
  /** A thread exited. `expected` when its generation was retired or the pool is closing. */
  onThreadExit(event: { record: ThreadRecord<Generation>; code: number; loaded: boolean; expected: boolean }): void
  /** A new generation was created (attach piscina listeners such as `workerCreate` here). */
  onGeneration(generation: Generation): void
  /** A rebuild started a new generation; `reason` is the exit that triggered it. */
  onRebuild?(event: { generation: number; reason: string }): void
}

export interface GenerationSettings {
  replicas: number
  /** Delay before the first rebuild after a failed one; doubles up to `maxBackoffMs`. */
  backoffMs?: number
  maxBackoffMs?: number
}

const DEFAULT_BACKOFF_MS = 250
const DEFAULT_MAX_BACKOFF_MS = 30_000

export class Generations {
  #current: Generation
  readonly #all = new Set<Generation>()
  #nextId = 1
  #failedRebuilds = 0
  #rebuildTimer: NodeJS.Timeout | undefined
  #stopped = false
  /** Generations being closed; `stop()` hands them to the caller. */
  readonly #retiring = new Set<Promise<void>>()
  /** Rebuilds done (a new generation started because piscina stopped replacing). */
  rebuilds = 0

  /** The first generation's record, made before it loads (its threads are watched from their start). */
  static generation(piscina: Piscina): Generation {
    // piscina emits 'error' for a worker error that has no task to reject; an
    // unhandled 'error' event would throw in the host. The ledger's hooks report it.
    piscina.on('error', () => undefined)
    return { id: 1, piscina, retired: false, loadedOnce: false }
  }

  /** Takes over `first` once every one of its threads has loaded. */
  constructor(
    first: Generation,
    private readonly ledger: ThreadLedger<Generation>,
    private readonly spawn: () => Piscina,
    private readonly hooks: GenerationHooks,
    private readonly settings: GenerationSettings,
  ) {
    first.loadedOnce = true
    this.#current = first
    this.#nextId = first.id + 1
    this.#all.add(first)
    this.hooks.onGeneration(first)
    this.scan(first, true)
    this.ledger.startWatchdogs()
  }

  get current(): Generation {
    return this.#current
  }

  /** Every generation not closed yet (the current one and those retiring). */
  get all(): Generation[] {
    return [...this.#all]
  }

  /** Whether the pool is closing (no rebuilds, exits are expected). */
  get stopped(): boolean {
    return this.#stopped
  }

  /** Whether an `error` or exit of this thread now is a crash. */
  serving(record: ThreadRecord<Generation>): boolean {
    return !this.#stopped && !record.tag.retired
  }

  /** Watches threads of `generation` not seen before (after a `run()` that spawned one, an exit…). */
  scan(generation: Generation, loaded = false): void {
    for (const thread of generation.piscina.threads) this.ledger.watch(thread, generation, loaded)
  }

  /** A thread's load succeeded: its generation has loaded once (resets the rebuild back-off). */
  noteLoadSucceeded(record: ThreadRecord<Generation>): void {
    record.tag.loadedOnce = true
    if (record.tag === this.#current) this.#failedRebuilds = 0
  }

  /**
   * Stops rebuilding (the pool is closing). Returns the current Piscina for the caller
   * to dispose and destroy, and a promise of the retiring ones' end.
   */
  stop(): { piscina: Piscina; retired: Promise<void> } {
    this.#stopped = true
    clearTimeout(this.#rebuildTimer)
    this.ledger.stopWatchdogs()
    return { piscina: this.#current.piscina, retired: Promise.all(this.#retiring).then(() => undefined) }
  }

  /** Called by the ledger's `error` hook (piscina's own listener ran first). */
  errored(record: ThreadRecord<Generation>, error: Error): void {
    // piscina has already dropped the thread and rejected its tasks; its 'exit' comes
    // later (once the thread is joined). The transport re-runs those tasks before that
    // exit, so if piscina started no replacement the generation must be replaced now,
    // not at the exit: until then a send would find no thread. (piscina skips the
    // replacement when it judges the thread "not ready": a replacement that got a task
    // before its ready message was processed and crashed running it.)
    const generation = record.tag
    if (this.#stopped || generation.retired) return
    this.scan(generation)
    if (generation.piscina.threads.length < this.settings.replicas) this.#rebuild(generation, error.message)
  }

  /** Called by the ledger's `exit` hook (piscina's own exit listener ran first). */
  exited(record: ThreadRecord<Generation>, code: number, loaded: boolean): void {
    const generation = record.tag
    const expected = !record.crashed && !this.serving(record)
    // A replacement, if piscina made one, is in `threads` now. Watch it even while
    // closing (close waits for it to leave native code).
    this.scan(generation)
    this.hooks.onThreadExit({ record, code, loaded, expected })
    if (expected || this.#stopped) return
    if (generation.piscina.threads.length < this.settings.replicas) {
      this.#rebuild(generation, record.error ? record.error.message : `exit code ${code}`)
    }
  }

  #adopt(piscina: Piscina): Generation {
    const generation: Generation = { ...Generations.generation(piscina), id: this.#nextId++ }
    this.#all.add(generation)
    this.hooks.onGeneration(generation)
    this.scan(generation)
    return generation
  }

  #rebuild(generation: Generation, reason: string): void {
    if (generation !== this.#current || this.#rebuildTimer !== undefined) return
    if (!generation.loadedOnce) this.#failedRebuilds++
    const base = this.settings.backoffMs ?? DEFAULT_BACKOFF_MS
    const max = this.settings.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS
    const delay = this.#failedRebuilds === 0 ? 0 : Math.min(max, base * 2 ** (this.#failedRebuilds - 1))
    const start = (): void => {
      this.#rebuildTimer = undefined
      if (this.#stopped) return
      this.rebuilds++
      const old = this.#current
      this.#current = this.#adopt(this.spawn())
      this.#retire(old)
      this.hooks.onRebuild?.({ generation: this.#current.id, reason })
    }
    if (delay === 0) return start()
    this.#rebuildTimer = setTimeout(start, delay)
    // A pool nobody uses must not keep the process alive while it backs off.
    this.#rebuildTimer.unref()
  }

  #retire(generation: Generation): void {
    generation.retired = true
    const settled = (): boolean =>
      generation.piscina.threads.every((t) => {
        const record = this.ledger.get(t.threadId)
        return record === undefined || (!record.inLoad && this.ledger.safeToTerminate(record))
      })
    // A user worker's load may be cut short after startupTimeoutMs; a native one never.
    const bound = this.ledger.settings.native ? Infinity : this.ledger.settings.startupTimeoutMs
    // close(): survivors finish their running and queued tasks (bounded by piscina's
    // closeTimeout), then it destroys, rejecting whatever never ran.
    const done = this.ledger
      .until(settled, bound)
      .then(() => generation.piscina.close())
      .catch(() => undefined)
      .finally(() => {
        this.#all.delete(generation)
        this.#retiring.delete(done)
      })
    this.#retiring.add(done)
  }
}
