/**
 * The thread ledger: the one owner of what the host knows about each worker thread.
 *
 * Every other part of thread mode (start-up, the generations of piscina instances, the
 * replica seats, the transport's sends, `close`) asks the ledger; none keeps its own
 * copy. Per thread it records:
 * - its load: `loading` until the worker reports it (on the pool's channel, or through
 *   a task result), then `loaded` or `failed`;
 * - `running`: tasks handed to it that have not come back (counted by the transport's
 *   load balancer, which is where piscina picks a thread for a task);
 * - `overdue`: out of service, to be ended — it missed `startupTimeoutMs`, or a batch
 *   it runs missed `batchTimeoutMs`. An overdue thread takes no new batch;
 * - `disposed` (it released its state at close) and `exited`.
 * It also owns the start-up watchdog, the one subscription to each thread's `error`
 * and `exit`, and the one "wait until" helper ({@link ThreadLedger.until}).
 *
 * THE RULE (docs/runtime-facts.md#onnxruntime-node-in-worker-threads): terminating a
 * thread while it is inside a native call of onnxruntime — session creation *or*
 * `run` — aborts the whole process. So with `native` set (the built-in ONNX worker), a
 * thread is terminated only when it is neither loading nor running anything
 * ({@link ThreadLedger.end}); until then it is only marked, and it is terminated the
 * moment its load or its last task comes back. A native call does return; a slow one
 * delays the termination by as much, never a caller (callers of a late batch are
 * failed at once by the transport). A user worker's load and run are plain JS, which
 * `terminate()` interrupts safely, so without `native` a thread is terminated at once
 * — once it has *booted*.
 *
 * Booting: terminating a thread while it is still importing its module aborts the
 * process too, native or not (Node fails fatally in module linking, or a native addon
 * such as onnxruntime-node's throws from its registration; docs/runtime-facts.md). So
 * no thread is terminated before it has said it booted (the worker posts that on the
 * pool's channel as its module runs, see @inferpool/worker's `defineWorker`), or before
 * {@link BOOT_GRACE_MS} has passed: past that, a thread still not booted is stuck in
 * its own JS (a top-level await that never settles), which may be ended.
 */
import type { Worker } from 'node:worker_threads'

export type ThreadLoad = 'loading' | 'loaded' | 'failed'

/**
 * Longest wait for a thread to say it booted before the ledger may end it anyway.
 * Importing the worker's module, onnxruntime-node's addon included, takes well under a
 * second even on a loaded 2-core machine; a thread silent for this long is in its own
 * JS, which `terminate()` interrupts safely.
 */
export const BOOT_GRACE_MS = 10_000

/** One thread as the ledger knows it. Read it; only the ledger writes it. */
export interface ThreadRecord<Tag> {
  readonly thread: Worker
  /** Read at watch time: a Worker's `threadId` turns to -1 once it has exited. */
  readonly threadId: number
  /** Its module has run (it said so), or {@link BOOT_GRACE_MS} passed: ending it cannot land in its import. */
  booted: boolean
  /** What the owner attached (the thread-mode transport: its piscina generation). */
  readonly tag: Tag
  load: ThreadLoad
  /** With `load: 'failed'`: the load's message. */
  loadError: string | undefined
  /** Inside its (first) load right now: set until the load returns, even past the watchdog. */
  inLoad: boolean
  /** Tasks handed to it and not come back yet (one may be inside a native `run`). */
  running: number
  /** Out of service, ended once safe; the reason (a watchdog's, a timeout's). */
  overdue: string | undefined
  disposed: boolean
  exited: boolean
  /** The last `error` it emitted (an uncaught exception, an out-of-memory kill). */
  error: Error | undefined
  /** It emitted `error` while `serving()` held: its exit is a crash, whatever happened since. */
  crashed: boolean
  /** `terminate()` was called. */
  terminating: boolean
  /** Overdue and not safe to end yet: the ledger holds the process open for it. */
  held: boolean
}

export interface LedgerSettings {
  /** A thread that has not reported its load in this many ms is made overdue. */
  startupTimeoutMs: number
  /** Loads and runs are native calls (the built-in ONNX worker): see THE RULE above. */
  native: boolean
}

export interface LedgerHooks<Tag> {
  /** Whether an `error` of this thread now is a crash (its generation is current and the pool open). */
  serving(record: ThreadRecord<Tag>): boolean
  /** A thread emitted `error` (before its `exit`). */
  onError?(record: ThreadRecord<Tag>, error: Error): void
  /** A thread exited; `loaded` says whether its load had settled (in time). */
  onExit?(record: ThreadRecord<Tag>, code: number, loaded: boolean): void
}

export class ThreadLedger<Tag> {
  readonly #records = new Map<number, ThreadRecord<Tag>>()
  readonly #watched = new WeakSet<Worker>()
  readonly #watchdogs = new Map<number, NodeJS.Timeout>()
  /** Per thread not booted yet, the timer that gives up waiting for it ({@link BOOT_GRACE_MS}). */
  readonly #bootGraces = new Map<number, NodeJS.Timeout>()
  readonly #waiters = new Set<() => void>()
  /** Off while the pool starts (its own timeout covers the first threads) and once it closes. */
  #watchdogsOn = false
  /** See `endingAll`. */
  #ending = false
  /** Reasons the process is held open (counted: the handle's ref() is a flag, not a count). */
  #holds = 0
  /** Why the last thread that died before its load settled died (for error messages). */
  lastLoadDeath: string | undefined
  /** Threads that died before their load settled, not counting expected exits. */
  loadDeaths = 0

  constructor(
    readonly settings: LedgerSettings,
    private readonly hooks: LedgerHooks<Tag>,
    /**
     * Held ref'd while an unbounded `until` waits or an overdue thread is inside a native
     * call: the process must not exit then (that ends the thread mid-call).
     */
    private readonly keepAlive: { ref(): void; unref(): void },
  ) {}

  get(threadId: number): ThreadRecord<Tag> | undefined {
    return this.#records.get(threadId)
  }

  /** Records of threads not exited yet. */
  get live(): Array<ThreadRecord<Tag>> {
    return [...this.#records.values()]
  }

  /**
   * Starts watching a thread (once; later calls return its record). `loaded`: its load
   * is already known to have succeeded (the first threads, once start-up resolved).
   */
  watch(thread: Worker, tag: Tag, loaded = false): void {
    if (this.#watched.has(thread)) return
    this.#watched.add(thread)
    const record: ThreadRecord<Tag> = {
      thread,
      threadId: thread.threadId,
      booted: loaded,
      tag,
      load: loaded ? 'loaded' : 'loading',
      loadError: undefined,
      inLoad: !loaded,
      running: 0,
      overdue: undefined,
      disposed: false,
      exited: false,
      error: undefined,
      crashed: false,
      terminating: false,
      held: false,
    }
    this.#records.set(record.threadId, record)
    thread.on('error', (err: Error) => {
      record.error = err
      record.crashed ||= this.hooks.serving(record)
      this.hooks.onError?.(record, err)
    })
    thread.once('exit', (code: number) => this.#exited(record, code))
    if (!loaded) {
      const grace = setTimeout(() => this.noteBooted(record.threadId), BOOT_GRACE_MS)
      // Only ever a bound on an end already asked for: it must not keep a process alive.
      grace.unref()
      this.#bootGraces.set(record.threadId, grace)
    }
    if (!loaded && this.#watchdogsOn) {
      const timer = setTimeout(() => {
        this.#watchdogs.delete(record.threadId)
        record.error ??= new Error(`the thread did not load within startupTimeoutMs (${this.settings.startupTimeoutMs} ms)`)
        this.end(record, record.error.message)
      }, this.settings.startupTimeoutMs)
      // A pool nobody uses must not keep the process alive for a watchdog.
      timer.unref()
      this.#watchdogs.set(record.threadId, timer)
    }
  }

  /** A thread's module has run (its boot report), or the grace for that passed. */
  noteBooted(threadId: number): void {
    const record = this.#records.get(threadId)
    if (record === undefined || record.booted) return
    record.booted = true
    this.#clearBootGrace(threadId)
    this.#changed(record)
  }

  /**
   * A thread reported its load (on the pool's channel, or through a task result).
   * Returns its record when this changed anything.
   */
  noteLoaded(threadId: number, ok: boolean, error?: string): ThreadRecord<Tag> | undefined {
    const record = this.#records.get(threadId)
    // Called with every task result: the common case (a known, loaded thread) is free.
    if (record === undefined || (ok && record.load === 'loaded' && !record.inLoad)) return undefined
    record.inLoad = false
    // Its boot report comes first on the same channel; a load report through a task result is proof too.
    record.booted = true
    this.#clearBootGrace(threadId)
    this.#clearWatchdog(threadId)
    // Overdue while loading: it counts as a thread that did not load in time (its exit
    // is a load death, not a success), whatever the load's outcome. Out of native code
    // now, so it may be ended.
    if (record.overdue === undefined) {
      record.load = ok ? 'loaded' : 'failed'
      record.loadError = ok ? undefined : error
    }
    this.#changed(record)
    return record
  }

  /** A thread released its state (answer to the pool's dispose message). */
  noteDisposed(threadId: number): void {
    const record = this.#records.get(threadId)
    if (record === undefined) return
    record.disposed = true
    this.#changed(record)
  }

  /** A task was handed to the thread (the transport's load balancer chose it). */
  runStarted(record: ThreadRecord<Tag>): void {
    record.running++
  }

  /** A task handed to the thread came back (its native call, if any, has returned). */
  runSettled(record: ThreadRecord<Tag>): void {
    record.running--
    if (record.overdue !== undefined || this.#waiters.size > 0) this.#changed(record)
  }

  /** Whether a new task may go to this thread. */
  accepts(record: ThreadRecord<Tag>): boolean {
    return record.overdue === undefined && !record.exited && !this.#ending
  }

  /**
   * The owner is ending every thread itself (piscina's `destroy()`, which must not run
   * while any thread is inside a native call): no thread takes a new task from now on,
   * and the ledger ends none on its own (piscina would replace it). Wait with
   * `until(() => ledger.allSafe())`, then destroy.
   */
  endingAll(): void {
    this.#ending = true
  }

  /** No live thread is inside a native call. */
  allSafe(): boolean {
    for (const record of this.#records.values()) if (!this.safeToTerminate(record)) return false
    return true
  }

  /**
   * Takes the thread out of service and ends it: now if that is safe, else the moment
   * it is (THE RULE above). Idempotent; the first reason sticks.
   */
  end(record: ThreadRecord<Tag>, reason: string): void {
    record.overdue ??= reason
    this.#terminateIfSafe(record)
    // Not ended yet (inside a native call): the process must not exit meanwhile — an
    // exit ends the thread just as `terminate()` would.
    if (!record.terminating && !record.exited && !record.held) {
      record.held = true
      this.#hold()
    }
  }

  /** Whether terminating the thread now cannot land inside its import or a native call. */
  safeToTerminate(record: ThreadRecord<Tag>): boolean {
    return record.booted && (!this.settings.native || (!record.inLoad && record.running === 0))
  }

  /**
   * Resolves `true` once `done()` holds (checked now and on every change the ledger
   * sees: a load, a dispose, a task coming back, an exit), or `false` after `ms`. With
   * `ms` Infinity the keep-alive handle is ref'd meanwhile: the process must not exit
   * (ending the threads, maybe inside a native call) while someone waits for them.
   */
  until(done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true)
    return new Promise<boolean>((resolve) => {
      const bounded = Number.isFinite(ms)
      const finish = (outcome: boolean): void => {
        clearTimeout(timer)
        this.#waiters.delete(check)
        if (!bounded) this.#release()
        resolve(outcome)
      }
      const check = (): void => {
        if (done()) finish(true)
      }
      const timer = bounded ? setTimeout(() => finish(false), ms) : undefined
      if (!bounded) this.#hold()
      this.#waiters.add(check)
    })
  }

  /** Wakes `until` waiters on a change the ledger does not see itself (a generation retired). */
  poke(): void {
    for (const check of [...this.#waiters]) check()
  }

  /** Threads watched from now on get a start-up watchdog (the pool has started). */
  startWatchdogs(): void {
    this.#watchdogsOn = true
  }

  /** No more watchdogs (the pool is closing); threads already overdue are still ended once safe. */
  stopWatchdogs(): void {
    this.#watchdogsOn = false
    for (const timer of this.#watchdogs.values()) clearTimeout(timer)
    this.#watchdogs.clear()
  }

  #terminateIfSafe(record: ThreadRecord<Tag>): void {
    if (record.overdue === undefined || record.exited || record.terminating || this.#ending || !this.safeToTerminate(record)) return
    record.terminating = true
    this.#unhold(record)
    void record.thread.terminate()
  }

  #hold(): void {
    if (this.#holds++ === 0) this.keepAlive.ref()
  }

  #release(): void {
    if (--this.#holds === 0) this.keepAlive.unref()
  }

  #unhold(record: ThreadRecord<Tag>): void {
    if (!record.held) return
    record.held = false
    this.#release()
  }

  #changed(record: ThreadRecord<Tag>): void {
    this.#terminateIfSafe(record)
    this.poke()
  }

  #clearWatchdog(threadId: number): void {
    clearTimerOf(this.#watchdogs, threadId)
  }

  #clearBootGrace(threadId: number): void {
    clearTimerOf(this.#bootGraces, threadId)
  }

  #exited(record: ThreadRecord<Tag>, code: number): void {
    this.#clearWatchdog(record.threadId)
    this.#clearBootGrace(record.threadId)
    this.#unhold(record)
    record.exited = true
    this.#records.delete(record.threadId)
    const loaded = record.load !== 'loading'
    const expected = !record.crashed && !this.hooks.serving(record)
    if (!loaded && !expected) {
      this.lastLoadDeath = record.error ? record.error.message : `exit code ${code}`
      this.loadDeaths++
    }
    this.hooks.onExit?.(record, code, loaded)
    this.poke()
  }
}

/** Clears and forgets the timer a thread has in `timers`, if any. */
function clearTimerOf(timers: Map<number, NodeJS.Timeout>, threadId: number): void {
  const timer = timers.get(threadId)
  if (timer === undefined) return
  clearTimeout(timer)
  timers.delete(threadId)
}
