/**
 * WorkerSupervisor against a scripted piscina: the order of a thread's 'error' and
 * 'exit' events, and what piscina does in its own listeners, decide what `run()` sees.
 * Real threads hit these orders only by chance (pool.crash.test.ts); here each step is
 * explicit, so the outcome is exact every run.
 */
import { EventEmitter } from 'node:events'
import type { Piscina } from 'piscina'
import { describe, expect, it } from 'vitest'
import { WorkerSupervisor } from '../src/pool/supervisor.js'
import type { Generation } from '../src/pool/supervisor.js'

let nextThreadId = 1

/** A Worker as the supervisor uses it: events, a threadId, terminate(). */
class FakeThread extends EventEmitter {
  readonly threadId = nextThreadId++
  terminate(): Promise<number> {
    return Promise.resolve(1)
  }
}

/**
 * The part of piscina 5.3.2 the supervisor relies on. Like piscina, it registers its
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
  const exits: Array<{ threadId: number; expected: boolean }> = []
  const rebuilds: Array<{ generation: number; reason: string }> = []
  const supervisor = new WorkerSupervisor(
    first as unknown as Piscina,
    () => {
      const piscina = new FakePiscina(replicas)
      spawned.push(piscina)
      return piscina as unknown as Piscina
    },
    {
      onGeneration: () => undefined,
      onThreadExit: ({ threadId, expected }) => void exits.push({ threadId, expected }),
      onRebuild: (event) => void rebuilds.push(event),
    },
    { replicas, startupTimeoutMs: 60_000 },
    first.threads.map((t) => t.threadId),
  )
  return { supervisor, spawned, exits, rebuilds }
}

const task = { kind: 'run', batchId: 1, payload: [] } as const

describe('WorkerSupervisor', () => {
  it("starts a new generation at a thread's 'error' when piscina drops it without a replacement, so a run before its 'exit' is served", async () => {
    const first = new FakePiscina(1)
    const { supervisor, spawned, exits, rebuilds } = supervise(first, 1)
    const [thread] = first.threads
    first.replace = false

    // piscina rejects the thread's tasks in its 'error' listener; the caller re-runs
    // them before the thread's 'exit' (which comes once the thread is joined).
    thread.emit('error', new Error('uncaught in worker'))
    const { generation, result } = supervisor.run(task, [])
    void result.catch(() => undefined)

    expect(spawned).toHaveLength(1)
    expect(rebuilds).toEqual([{ generation: 2, reason: 'uncaught in worker' }])
    expect((generation as Generation).id).toBe(2)
    expect(spawned[0].runs).toEqual([task])
    expect(first.runs).toEqual([])

    // The exit that follows is still a crash of a running replica (not an expected
    // exit of a retired generation), and starts nothing more.
    thread.emit('exit', 1)
    expect(exits).toEqual([{ threadId: thread.threadId, expected: false }])
    expect(spawned).toHaveLength(1)
    // The retired generation is closed once none of its threads is loading.
    await supervisor.stop().retired
    expect(first.closed).toBe(true)
  })

  it("keeps the generation when piscina replaced the thread at its 'error'", () => {
    const first = new FakePiscina(2)
    const { supervisor, spawned, exits, rebuilds } = supervise(first, 2)
    const [thread] = first.threads
    thread.emit('error', new Error('uncaught in worker'))
    thread.emit('exit', 1)
    const { generation } = supervisor.run(task, [])
    expect(generation.id).toBe(1)
    expect(first.runs).toEqual([task])
    expect(spawned).toEqual([])
    expect(rebuilds).toEqual([])
    expect(exits).toEqual([{ threadId: thread.threadId, expected: false }])
    supervisor.stop()
  })

  it('counts the exit of a thread that errored after the pool stopped as expected', () => {
    const first = new FakePiscina(1)
    const { supervisor, spawned, exits } = supervise(first, 1)
    const [thread] = first.threads
    first.replace = false
    supervisor.stop()
    thread.emit('error', new Error('terminated while closing'))
    thread.emit('exit', 1)
    expect(exits).toEqual([{ threadId: thread.threadId, expected: true }])
    expect(spawned).toEqual([])
  })
})
