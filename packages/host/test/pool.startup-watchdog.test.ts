/**
 * The thread ledger's start-up watchdog on replacement threads (src/pool/threads/ledger.ts), against a scripted
 * piscina and fake timers: whether a thread past `startupTimeoutMs` is terminated at
 * once or only once its load has returned (`deferWhileLoading`, the ONNX worker's
 * case: terminating a thread inside ORT's native session creation aborts the whole
 * process — pool.startup-timeout.test.ts shows it with real threads).
 */
import { EventEmitter } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BOOT_GRACE_MS } from '../src/pool/threads/ledger.js'
import { reportLoad, superviseThreads } from './fixtures/threads.js'

const STARTUP_TIMEOUT_MS = 1_000
let nextThreadId = 1

/** A Worker as the ledger uses it; `terminate()` exits it (as a real one does, later). */
class FakeThread extends EventEmitter {
  readonly threadId = nextThreadId++
  terminated = false
  terminate(): Promise<number> {
    this.terminated = true
    queueMicrotask(() => this.emit('exit', 1))
    return Promise.resolve(1)
  }
}

/** piscina's part: its own exit listener (registered first) drops the thread and, if `replace`, starts another. */
class FakePiscina extends EventEmitter {
  threads: FakeThread[] = []
  closed = false
  replace = true

  constructor(size: number) {
    super()
    for (let i = 0; i < size; i++) this.add()
  }

  add(): FakeThread {
    const thread = new FakeThread()
    thread.on('exit', () => {
      if (!this.threads.includes(thread)) return
      this.threads = this.threads.filter((t) => t !== thread)
      if (this.replace) this.add()
    })
    this.threads.push(thread)
    return thread
  }

  close(): Promise<void> {
    this.closed = true
    return Promise.resolve()
  }
}

function supervise(deferWhileLoading: boolean) {
  const first = new FakePiscina(2)
  const {
    ledger,
    generations,
    exits: recorded,
  } = superviseThreads(first, () => new FakePiscina(2), {
    replicas: 2,
    startupTimeoutMs: STARTUP_TIMEOUT_MS,
    native: deferWhileLoading,
  })
  const exits = {
    at: (index: number) => {
      const exit = recorded.at(index)
      return exit && { threadId: exit.threadId, loaded: exit.loaded, reason: exit.reason }
    },
  }
  /** What the thread transport does with a load report. */
  const noteLoaded = (threadId: number, ok: boolean) => reportLoad(ledger, generations, threadId, ok)
  const supervisor = {
    noteLoaded,
    /** What the thread transport does with a boot report. */
    noteBooted: (threadId: number) => ledger.noteBooted(threadId),
    stop: () => generations.stop(),
    get lastLoadDeath() {
      return ledger.lastLoadDeath
    },
  }
  /**
   * Crashes a loaded thread of the first generation; returns its replacement (loading,
   * watched), which has reported that it booted unless `booted` is false.
   */
  const replaceOne = (booted = true): FakeThread => {
    ;(first.threads[0] as FakeThread).emit('exit', 3)
    const replacement = first.threads.at(-1) as FakeThread
    if (booted) supervisor.noteBooted(replacement.threadId)
    return replacement
  }
  return { first, supervisor, exits, replaceOne }
}

/** The exit the ledger records for a thread it ended for missing `startupTimeoutMs`. */
const overdueExit = (thread: FakeThread) => ({
  threadId: thread.threadId,
  loaded: false,
  reason: `the thread did not load within startupTimeoutMs (${STARTUP_TIMEOUT_MS} ms)`,
})

/** Lets queued microtasks (a terminated thread's exit) run. */
const flush = () => vi.advanceTimersByTimeAsync(0)

describe('start-up watchdog on replacement threads', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('without deferWhileLoading (a user worker) terminates a thread still loading at startupTimeoutMs at once', async () => {
    const { supervisor, exits, replaceOne } = supervise(false)
    const replacement = replaceOne()
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS)
    expect(replacement.terminated).toBe(true)
    expect(exits.at(-1)).toEqual(overdueExit(replacement))
    supervisor.stop()
  })

  it('without deferWhileLoading terminates an overdue thread only once it reports that it booted (its module loaded)', async () => {
    const { supervisor, exits, replaceOne } = supervise(false)
    const replacement = replaceOne(false)
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS * 2)
    expect(replacement.terminated).toBe(false)
    supervisor.noteBooted(replacement.threadId)
    expect(replacement.terminated).toBe(true)
    await flush()
    expect(exits.at(-1)).toEqual(overdueExit(replacement))
    supervisor.stop()
  })

  it('terminates an overdue thread that never reports booting once BOOT_GRACE_MS has passed since it started', async () => {
    const { supervisor, replaceOne } = supervise(false)
    const replacement = replaceOne(false)
    await vi.advanceTimersByTimeAsync(BOOT_GRACE_MS - 1)
    expect(replacement.terminated).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(replacement.terminated).toBe(true)
    supervisor.stop()
  })

  it('with deferWhileLoading keeps an overdue thread while it loads and terminates it as soon as its load returns', async () => {
    const { supervisor, exits, replaceOne } = supervise(true)
    const replacement = replaceOne()
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS * 10)
    expect(replacement.terminated).toBe(false)
    // Its load report arrives (a success, late): now out of native code.
    supervisor.noteLoaded(replacement.threadId, true)
    expect(replacement.terminated).toBe(true)
    await flush()
    // It counts as a thread that did not load in time, not as a loaded one.
    expect(exits.at(-1)).toEqual(overdueExit(replacement))
    expect(supervisor.lastLoadDeath).toBe(`the thread did not load within startupTimeoutMs (${STARTUP_TIMEOUT_MS} ms)`)
    supervisor.stop()
  })

  it('with deferWhileLoading terminates an overdue thread whose load failed once the failure is reported', async () => {
    const { supervisor, replaceOne } = supervise(true)
    const replacement = replaceOne()
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS)
    expect(replacement.terminated).toBe(false)
    supervisor.noteLoaded(replacement.threadId, false)
    expect(replacement.terminated).toBe(true)
    supervisor.stop()
  })

  it('with deferWhileLoading leaves a thread that loads in time alone', async () => {
    const { supervisor, replaceOne } = supervise(true)
    const replacement = replaceOne()
    supervisor.noteLoaded(replacement.threadId, true)
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS * 10)
    expect(replacement.terminated).toBe(false)
    supervisor.stop()
  })

  it('after stop() (the pool closing) still terminates an overdue thread once its load returns', async () => {
    const { supervisor, replaceOne } = supervise(true)
    const replacement = replaceOne()
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS)
    supervisor.stop()
    expect(replacement.terminated).toBe(false)
    supervisor.noteLoaded(replacement.threadId, true)
    expect(replacement.terminated).toBe(true)
  })

  it('with deferWhileLoading closes a retired generation only once its loading thread is out of its load, past startupTimeoutMs', async () => {
    const { first, supervisor, replaceOne } = supervise(true)
    const loading = replaceOne()
    // piscina stops replacing; the next exit retires the first generation.
    first.replace = false
    ;(first.threads[0] as FakeThread).emit('exit', 3)
    expect(first.threads).toEqual([loading])
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS * 10)
    expect(first.closed).toBe(false)
    expect(loading.terminated).toBe(false)
    supervisor.noteLoaded(loading.threadId, true)
    await flush()
    expect(loading.terminated).toBe(true)
    expect(first.closed).toBe(true)
    const { retired } = supervisor.stop()
    await retired
  })

  it('without deferWhileLoading closes a retired generation after startupTimeoutMs even while a thread loads', async () => {
    const { first, supervisor, replaceOne } = supervise(false)
    const loading = replaceOne()
    first.replace = false
    ;(first.threads[0] as FakeThread).emit('exit', 3)
    await vi.advanceTimersByTimeAsync(STARTUP_TIMEOUT_MS)
    expect(first.closed).toBe(true)
    expect(loading.terminated).toBe(true)
    supervisor.stop()
  })
})
