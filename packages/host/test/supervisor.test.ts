/**
 * The thread ledger and its generations (src/pool/threads/) against a scripted piscina: the order of a thread's 'error' and
 * 'exit' events, and what piscina does in its own listeners, decide what `run()` sees.
 * Real threads hit these orders only by chance (pool.crash.test.ts); here each step is
 * explicit, so the outcome is exact every run.
 */
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { superviseThreads } from './fixtures/threads.js'

let nextThreadId = 1

/** A Worker as the ledger uses it: events, a threadId, terminate(). */
class FakeThread extends EventEmitter {
  readonly threadId = nextThreadId++
  terminate(): Promise<number> {
    return Promise.resolve(1)
  }
}

/**
 * The part of piscina 5.3.2 the generations rely on. Like piscina, it registers its
 * own 'error' and 'exit' listeners first and drops a dead thread there; `replace`
 * says whether it starts a replacement (piscina does not once it judged a thread to
 * have died before it was ready: the sticky `workerFailsDuringBootstrap`).
 */
class FakePiscina extends EventEmitter {
  threads: FakeThread[] = []
  runs: unknown[] = []
  closed = false
  replace = true

  constructor(size: number) {
    super()
    for (let i = 0; i < size; i++) this.add()
  }

  private add(): void {
    const thread = new FakeThread()
    const drop = (): void => {
      if (!this.threads.includes(thread)) return
      this.threads = this.threads.filter((t) => t !== thread)
      if (this.replace) this.add()
    }
    thread.on('error', drop)
    thread.on('exit', drop)
    this.threads.push(thread)
  }

  run(task: unknown): Promise<unknown> {
    this.runs.push(task)
    return new Promise(() => {})
  }

  close(): Promise<void> {
    this.closed = true
    return Promise.resolve()
  }
}

function supervise(first: FakePiscina, replicas: number) {
  const spawned: FakePiscina[] = []
  const { generations, exits, rebuilds } = superviseThreads(
    first,
    () => {
      const piscina = new FakePiscina(replicas)
      spawned.push(piscina)
      return piscina
    },
    { replicas, startupTimeoutMs: 60_000, native: false },
  )
  /** What the thread transport does per send: run on the current generation. */
  const run = (task: unknown) => {
    const generation = generations.current
    const result = (generation.piscina as unknown as FakePiscina).run(task)
    return { generation, result }
  }
  return { generations, run, spawned, rebuilds, recorded: exits }
}

const task = { kind: 'run', batchId: 1, payload: [] } as const

describe('thread generations (piscina replacing its threads)', () => {
  it("starts a new generation at a thread's 'error' when piscina drops it without a replacement, so a run before its 'exit' is served", async () => {
    const first = new FakePiscina(1)
    const { generations, run, spawned, recorded: exits, rebuilds } = supervise(first, 1)
    const [thread] = first.threads
    first.replace = false

    // piscina rejects the thread's tasks in its 'error' listener; the caller re-runs
    // them before the thread's 'exit' (which comes once the thread is joined).
    thread.emit('error', new Error('uncaught in worker'))
    const { generation, result } = run(task)
    void result.catch(() => undefined)

    expect(spawned).toHaveLength(1)
    expect(rebuilds).toEqual([{ generation: 2, reason: 'uncaught in worker' }])
    expect(generation.id).toBe(2)
    expect(spawned[0].runs).toEqual([task])
    expect(first.runs).toEqual([])

    // The exit that follows is still a crash of a running replica (not an expected
    // exit of a retired generation), and starts nothing more.
    thread.emit('exit', 1)
    expect(exits.map(({ threadId, expected }) => ({ threadId, expected }))).toEqual([{ threadId: thread.threadId, expected: false }])
    expect(spawned).toHaveLength(1)
    // The retired generation is closed once none of its threads is loading.
    await generations.stop().retired
    expect(first.closed).toBe(true)
  })

  it("keeps the generation when piscina replaced the thread at its 'error'", () => {
    const first = new FakePiscina(2)
    const { generations, run, spawned, recorded: exits, rebuilds } = supervise(first, 2)
    const [thread] = first.threads
    thread.emit('error', new Error('uncaught in worker'))
    thread.emit('exit', 1)
    const { generation } = run(task)
    expect(generation.id).toBe(1)
    expect(first.runs).toEqual([task])
    expect(spawned).toEqual([])
    expect(rebuilds).toEqual([])
    expect(exits.map(({ threadId, expected }) => ({ threadId, expected }))).toEqual([{ threadId: thread.threadId, expected: false }])
    generations.stop()
  })

  it('counts the exit of a thread that errored after the pool stopped as expected', () => {
    const first = new FakePiscina(1)
    const { generations, spawned, recorded: exits } = supervise(first, 1)
    const [thread] = first.threads
    first.replace = false
    generations.stop()
    thread.emit('error', new Error('terminated while closing'))
    thread.emit('exit', 1)
    expect(exits.map(({ threadId, expected }) => ({ threadId, expected }))).toEqual([{ threadId: thread.threadId, expected: true }])
    expect(spawned).toEqual([])
  })
})
