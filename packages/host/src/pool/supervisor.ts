/**
 * Keeps the pool's worker threads alive for its whole life, around a gap in piscina.
 *
 * What piscina 5.3.2 does (dist/index.js, `ThreadPool._onError`): when a worker dies it
 * rejects the tasks running on it and calls `_ensureMinimumWorkers()` only if the
 * worker had become *ready* (its module loaded — for an inferpool worker: its `load`
 * finished) and the pool-wide flag `workerFailsDuringBootstrap` is unset. A worker that
 * dies before it is ready (a replacement whose `load` calls `process.exit`, throws
 * outside its promise chain, or is killed) sets that flag, and nothing ever clears it:
 * from then on that Piscina replaces no dead worker at all. It still spawns a thread
 * on demand when a `run()` finds no free ready worker, but a task queued while it has
 * no ready worker and no thread that will become ready stays in its queue for good —
 * the `run()` never settles. (The first threads are marked ready at construction, so
 * only replacements trip the flag.) The flag is private, so the supervisor replaces
 * the whole Piscina instead: a *generation*.
 *
 * - Every thread of every generation is watched for `exit` (replacements that are
 *   still loading too: piscina announces a thread with `workerCreate` only once it is
 *   ready, so new threads are found by scanning `piscina.threads`).
 * - After an exit, a generation with fewer threads than `replicas` has stopped
 *   replacing (piscina's own exit listener, registered first, has already run): it is
 *   retired and a new generation of `replicas` threads starts.
 * - A retired generation is closed gracefully: once none of its threads is still
 *   loading (terminating a thread inside ORT's native session creation aborts the
 *   whole process), its surviving threads finish what they run (and what is queued),
 *   then it is destroyed. A task it rejects without running
 *   was not the batch's fault: the caller re-routes it to the current generation
 *   (`isRetired`).
 * - Rebuilds back off while no thread of the new generation loads (a load that always
 *   dies would otherwise respawn threads in a tight loop). While the current
 *   generation has no thread at all, `run()` fails at once with
 *   `WorkerCrashedError` naming the last death, instead of queueing where nothing can
 *   run it.
 * - A thread that has not reported its load within `startupTimeoutMs` is terminated,
 *   so a replacement whose `load` hangs cannot hold queued tasks forever. With
 *   `deferWhileLoading` (the built-in ONNX worker) it is only marked then, and
 *   terminated as soon as its load returns: terminating a thread inside ORT's native
 *   session creation aborts the whole process, and a native load does return. A slow
 *   native load delays the termination by as much; a retired generation likewise
 *   waits, without a bound, until none of its threads is still loading.
 */
import type { Worker } from 'node:worker_threads'
import type { Piscina } from 'piscina'
import type { TaskResult, WorkerTask } from '@inferpool/worker'
import { WorkerCrashedError } from '../errors.js'

/** One Piscina instance and what the supervisor knows of it. */
export interface Generation {
  readonly id: number
  readonly piscina: Piscina
  /** Retired: no new task goes to it; it is closing or closed. */
  retired: boolean
  /** Some thread of it reported a successful load. */
  loadedOnce: boolean
}

export interface SupervisorHooks {
  /** A thread exited. `expected` when its generation was retired or the pool is closing. */
  onThreadExit(event: { threadId: number; generation: Generation; code: number; error: Error | undefined; loaded: boolean; expected: boolean }): void
  /** A new generation was created (attach piscina listeners such as `workerCreate` here). */
  onGeneration(generation: Generation): void
  /** A rebuild started a new generation in place of `retired`; `reason` is the exit that triggered it. */
  onRebuild?(event: { generation: number; reason: string }): void
}

export interface SupervisorSettings {
  replicas: number
  /** Longest wait for a thread's load before it is terminated. */
  startupTimeoutMs: number
  /**
   * A thread still loading is never terminated: past `startupTimeoutMs` it is
   * terminated once its load returns, and a retired generation waits for its loads
   * without a bound. For loads that run native code (ORT's session creation).
   * @default false
   */
  deferWhileLoading?: boolean
  /** Delay before the first rebuild after a failed one; doubles up to `maxBackoffMs`. */
  backoffMs?: number
  maxBackoffMs?: number
}

const DEFAULT_BACKOFF_MS = 250
const DEFAULT_MAX_BACKOFF_MS = 30_000

export class WorkerSupervisor {
  private current: Generation
  private readonly generations = new Set<Generation>()
  private readonly watched = new WeakSet<Worker>()
  /** Threads whose load has been reported (by threadId), and the watchdog of those not yet. */
  private readonly loadedThreads = new Set<number>()
  /** Threads whose last known load succeeded. */
  private readonly loadedOk = new Set<number>()
  private readonly watchdogs = new Map<number, NodeJS.Timeout>()
  /** Threads past `startupTimeoutMs` still inside their load: terminated when it returns (`deferWhileLoading`). */
  private readonly overdue = new Map<number, Worker>()
  private nextId = 1
  private failedRebuilds = 0
  private rebuildTimer: NodeJS.Timeout | undefined
  private stopped = false
  /** Why the last thread that died before loading died (for error messages). */
  lastLoadDeath: string | undefined
  /** Threads that died before reporting their load (not counting retired or closing ones). */
  loadDeaths = 0
  /** Re-checks of `whenSettled` waits, run when a thread reports its load or exits. */
  private readonly settleChecks = new Set<() => void>()
  /** Generations being closed; `close()` waits for them. */
  private readonly retiring = new Set<Promise<void>>()
  /** Rebuilds done (a new generation started because piscina stopped replacing). */
  rebuilds = 0

  constructor(
    first: Piscina,
    private readonly spawn: () => Piscina,
    private readonly hooks: SupervisorHooks,
    private readonly settings: SupervisorSettings,
    firstLoaded: Iterable<number>,
  ) {
    for (const id of firstLoaded) {
      this.loadedThreads.add(id)
      this.loadedOk.add(id)
    }
    this.current = this.adopt(first)
    this.current.loadedOnce = true
  }

  /** The current generation's threads. */
  get threads(): Worker[] {
    return this.current.piscina.threads
  }

  /** The threads of every generation not closed yet (the current one and those retiring). */
  get allThreads(): Worker[] {
    return [...this.generations].flatMap((g) => g.piscina.threads)
  }

  /**
   * Runs a task on the current generation. Returns the generation too, so a caller
   * whose task is rejected can tell a retirement (re-route) from a thread death.
   */
  run(task: WorkerTask, transferList: ArrayBuffer[], signal?: AbortSignal): { generation: Generation; result: Promise<TaskResult> } {
    const generation = this.current
    if (generation.piscina.threads.length === 0) {
      // Nothing can run it until the next rebuild (backing off): fail now, typed.
      const reason = this.lastLoadDeath ?? 'every worker thread exited'
      return {
        generation,
        result: Promise.reject(
          new WorkerCrashedError(`No worker thread is running: replacement threads die while loading (${reason}); retrying in the background`, {
            details: { reason, down: true },
          }),
        ),
      }
    }
    const result = generation.piscina.run(task, signal ? { transferList, signal } : { transferList }) as Promise<TaskResult>
    // run() may have spawned a thread on demand: watch it from its start.
    this.scan(generation)
    return { generation, result }
  }

  isRetired(generation: Generation): boolean {
    return generation.retired
  }

  /** A thread reported its load (on the channel or through a task result). */
  noteLoaded(threadId: number, ok: boolean): void {
    // Called with every task result: the common case (a known, loaded thread) is free.
    if (ok && this.loadedOk.has(threadId)) return
    const overdue = this.overdue.get(threadId)
    if (overdue) {
      // Its load has returned: out of native code, it can be terminated now. It counts
      // as a thread that did not load in time (its exit is a load death, not a success
      // that would reset the rebuild back-off), whatever the load's outcome.
      this.overdue.delete(threadId)
      void overdue.terminate()
      return
    }
    if (ok) this.loadedOk.add(threadId)
    else this.loadedOk.delete(threadId)
    this.loadedThreads.add(threadId)
    const timer = this.watchdogs.get(threadId)
    if (timer) clearTimeout(timer)
    this.watchdogs.delete(threadId)
    for (const check of [...this.settleChecks]) check()
    if (!ok) return
    for (const generation of this.generations) {
      if (generation.piscina.threads.some((t) => t.threadId === threadId)) {
        generation.loadedOnce = true
        if (generation === this.current) this.failedRebuilds = 0
      }
    }
  }

  /**
   * Stops rebuilding and watching (the pool is closing). Returns the current Piscina
   * for the caller to dispose and destroy, and a promise of the retiring ones' end.
   */
  stop(): { piscina: Piscina; retired: Promise<void> } {
    this.stopped = true
    clearTimeout(this.rebuildTimer)
    for (const timer of this.watchdogs.values()) clearTimeout(timer)
    this.watchdogs.clear()
    return { piscina: this.current.piscina, retired: Promise.all(this.retiring).then(() => undefined) }
  }

  private adopt(piscina: Piscina): Generation {
    const generation: Generation = { id: this.nextId++, piscina, retired: false, loadedOnce: false }
    this.generations.add(generation)
    // piscina emits 'error' for a worker error that has no task to reject; an
    // unhandled 'error' event would throw in the host. The exit listener reports it.
    piscina.on('error', () => undefined)
    this.hooks.onGeneration(generation)
    this.scan(generation)
    return generation
  }

  /** Starts watching threads of `generation` not seen before. */
  private scan(generation: Generation): void {
    for (const thread of generation.piscina.threads) {
      if (this.watched.has(thread)) continue
      this.watched.add(thread)
      // Read now: a Worker's threadId turns to -1 once it has exited.
      const threadId = thread.threadId
      let error: Error | undefined
      // Whether it died while its generation was current and the pool open: its exit
      // is a crash even if the generation has been retired by the time it comes.
      let crashed = false
      thread.on('error', (err) => {
        error = err
        crashed ||= !this.stopped && !generation.retired
        this.errored(generation, err)
      })
      thread.once('exit', (code) => this.exited(generation, threadId, code, error, crashed))
      if (!this.loadedThreads.has(threadId) && !this.stopped) {
        const timer = setTimeout(() => {
          this.watchdogs.delete(threadId)
          error ??= new Error(`the thread did not load within startupTimeoutMs (${this.settings.startupTimeoutMs} ms)`)
          // Terminating it inside a native load would abort the process: wait for the
          // load to return (noteLoaded), or for the thread to exit on its own.
          if (this.settings.deferWhileLoading) this.overdue.set(threadId, thread)
          else void thread.terminate()
        }, this.settings.startupTimeoutMs)
        timer.unref()
        this.watchdogs.set(threadId, timer)
      }
    }
  }

  /**
   * A thread emitted 'error' (an uncaught exception, an out-of-memory kill). piscina's
   * listener, registered first, has already dropped it from `threads` and rejected its
   * tasks; its 'exit' comes later (after the thread is joined). Callers re-run those
   * tasks before that exit, so if piscina did not start a replacement the generation
   * must be replaced now, not at the exit: until then `run()` would find no thread and
   * fail a batch that a new generation would serve. (piscina skips the replacement
   * when it judges the thread "not ready": a replacement that got a task before its
   * ready message was processed — `_onWorkerAvailable` hands queued tasks to pending
   * workers too — and crashed running it.)
   */
  private errored(generation: Generation, error: Error): void {
    if (this.stopped || generation.retired) return
    // Watch the replacement piscina started in its own 'error' listener, if any.
    this.scan(generation)
    if (generation.piscina.threads.length < this.settings.replicas) this.rebuild(generation, error.message)
  }

  private exited(generation: Generation, threadId: number, code: number, error: Error | undefined, crashed: boolean): void {
    const timer = this.watchdogs.get(threadId)
    if (timer) clearTimeout(timer)
    this.watchdogs.delete(threadId)
    this.overdue.delete(threadId)
    const loaded = this.loadedThreads.has(threadId)
    const expected = (this.stopped || generation.retired) && !crashed
    if (!loaded && !expected) {
      this.lastLoadDeath = error ? error.message : `exit code ${code}`
      this.loadDeaths++
    }
    this.loadedThreads.delete(threadId)
    this.loadedOk.delete(threadId)
    // piscina's exit listener ran first: a replacement, if piscina made one, is in
    // `threads` now. Watch it even while closing (close() waits for it to settle).
    this.scan(generation)
    this.hooks.onThreadExit({ threadId, generation, code, error, loaded, expected })
    for (const check of [...this.settleChecks]) check()
    if (expected || this.stopped) return
    // No replacement: this generation has stopped replacing.
    if (generation.piscina.threads.length < this.settings.replicas) this.rebuild(generation, error ? error.message : `exit code ${code}`)
  }

  private rebuild(generation: Generation, reason: string): void {
    if (generation !== this.current || this.rebuildTimer !== undefined) return
    if (!generation.loadedOnce) this.failedRebuilds++
    const base = this.settings.backoffMs ?? DEFAULT_BACKOFF_MS
    const max = this.settings.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS
    const delay = this.failedRebuilds === 0 ? 0 : Math.min(max, base * 2 ** (this.failedRebuilds - 1))
    const start = (): void => {
      this.rebuildTimer = undefined
      if (this.stopped) return
      this.rebuilds++
      const old = this.current
      this.current = this.adopt(this.spawn())
      this.retire(old)
      this.hooks.onRebuild?.({ generation: this.current.id, reason })
    }
    if (delay === 0) return start()
    this.rebuildTimer = setTimeout(start, delay)
    // A pool nobody uses must not keep the process alive while it backs off.
    this.rebuildTimer.unref()
  }

  /**
   * Resolves once no thread of `generation` is still loading (a thread that exits is
   * not), or after `startupTimeoutMs` — never early with `deferWhileLoading`.
   */
  private whenSettled(generation: Generation): Promise<void> {
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer)
        this.settleChecks.delete(check)
        resolve()
      }
      const check = (): void => {
        if (generation.piscina.threads.every((t) => this.loadedThreads.has(t.threadId))) finish()
      }
      const timer = this.settings.deferWhileLoading ? undefined : setTimeout(finish, this.settings.startupTimeoutMs)
      timer?.unref()
      this.settleChecks.add(check)
      check()
    })
  }

  private retire(generation: Generation): void {
    generation.retired = true
    // close(): survivors finish their running and queued tasks (bounded by piscina's
    // closeTimeout), then it destroys, rejecting whatever never ran.
    const done = this.whenSettled(generation)
      .then(() => generation.piscina.close())
      .catch(() => undefined)
      .finally(() => {
        this.generations.delete(generation)
        this.retiring.delete(done)
      })
    this.retiring.add(done)
  }
}
