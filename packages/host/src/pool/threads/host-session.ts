/**
 * A session held by the host thread, for the batch that finds every replica idle.
 *
 * A batch sent to a sleeping worker thread pays two wake-ups (the replica's, then the
 * host's when the answer comes back) and a structured clone each way. When a lone
 * request is all there is, that hand-off is most of its latency: a round trip to a
 * piscina worker that does nothing costs about as much as the demo model's whole run
 * (docs/runtime-facts.md, piscina 5, "The hand-off at one caller"). So the pool keeps one more
 * session of the same model on the host thread and runs such a batch there, at once,
 * through the very runtime a replica runs (@inferpool/worker `createWorkerRuntime` with
 * the built-in definition): the same decode, deadlines, errors and result.
 *
 * A batch runs on the host only when:
 * - no batch is in flight on any replica (under load the replicas keep the work, and the
 *   host thread its time for requests);
 * - the host session is not running one already (a second waits for a replica instead);
 * - its rows are few (`HOST_LIMITS.maxRows`): a lone request, not a backlog;
 * - the model is light. A host run's time includes its wait for the host's event loop, so a
 *   busy host makes a light model look slow: after `slowRuns` host runs in a row slower
 *   than `maxRunMs`, the next few-row batches go to the replicas, whose threads run
 *   nothing else, to ask the model itself. One of them within `maxRunMs`: the host was
 *   busy, not the model, and the host session resumes. `slowRuns` of them slower: the
 *   model is heavy (its run would hold the host's event loop for as long), and the host
 *   session is released for good.
 *
 * Thread isolation and the CPU execution provider only, and no `batchTimeoutMs`
 * (`hostSessionFits`): a process replica is there to keep native crashes out of the host,
 * a GPU session would claim a device of its own, and a host run cannot be cut short.
 */
import { createWorkerRuntime, onnxWorkerDefinition } from '@inferpool/worker'
import type { OnnxWorkerOptions, RunTask, TaskResult, TensorBatchOutput, WorkerDescription, WorkerRuntime } from '@inferpool/worker'
import type { ReplicaStats } from '../../types.js'
import type { ResolvedPoolOptions } from '../options.js'
import type { ReplicaTransport, SendOptions, SendOutcome } from '../transport.js'

/** Where the host session says what became of it: the pool's logger. */
export type HostSessionLog = (level: 'warn' | 'info', message: string) => void

/** When a batch may run on the host session (tests pass their own). */
export interface HostSessionLimits {
  /** The most rows a batch may hold to run on the host (a lone request and a little company). */
  readonly maxRows: number
  /** A host run slower than this (ms, the model's run alone) counts against the host session. */
  readonly maxRunMs: number
  /**
   * Host runs in a row slower than `maxRunMs` after which the replicas are asked; replica
   * runs in a row slower than it after which the host session is released.
   */
  readonly slowRuns: number
}

export const HOST_LIMITS: HostSessionLimits = { maxRows: 4, maxRunMs: 1, slowRuns: 3 }

/** The replica transport the host session stands in front of: it must say when nothing is in flight. */
export interface IdleAwareTransport extends ReplicaTransport {
  /** No batch is queued or running on any replica. */
  readonly idle: boolean
}

/** What the host session needs to know about its own runs (tests read it). */
export interface HostSessionState {
  /** Batches run on the host so far. */
  readonly runs: number
  /** Whether batches may still run on the host (false once released, or never loaded). */
  readonly active: boolean
}

export class HostSessionTransport implements ReplicaTransport, HostSessionState {
  readonly #inner: IdleAwareTransport
  readonly #workerOptions: OnnxWorkerOptions
  readonly #log: HostSessionLog
  #runtime: WorkerRuntime | undefined
  /** The host run in progress (one at a time). */
  #running: Promise<unknown> | undefined
  #slow = 0
  /** Few-row replica runs still to judge before the host session is released (0: not asking the replicas). */
  #asking = 0
  #runs = 0
  #closed = false
  /** The host run in progress, settled with `closed` by `destroy`. */
  #pending: ((outcome: SendOutcome) => void) | undefined

  readonly #limits: HostSessionLimits

  constructor(
    inner: IdleAwareTransport,
    workerOptions: OnnxWorkerOptions,
    log: HostSessionLog,
    /** @default HOST_LIMITS */
    limits: HostSessionLimits = HOST_LIMITS,
  ) {
    this.#inner = inner
    this.#limits = limits
    // One intra-op thread: the host thread runs the model itself, and starts no pool of its own.
    this.#workerOptions = { ...workerOptions, session: { ...workerOptions.session, intraOpNumThreads: 1 } }
    this.#log = log
  }

  get runs(): number {
    return this.#runs
  }

  get active(): boolean {
    return this.#runtime !== undefined && !this.#closed
  }

  get replicas(): ReplicaStats[] {
    return this.#inner.replicas
  }

  get restarts(): number {
    return this.#inner.restarts
  }

  get rebuilds(): number {
    return this.#inner.rebuilds
  }

  /**
   * Starts the replicas and, alongside, loads the host session. The replicas decide:
   * their failure is the pool's; a host session that fails to load (the replicas did
   * load) is only warned about, and every batch goes to the replicas.
   */
  async start(): Promise<WorkerDescription | null> {
    const runtime = createWorkerRuntime(onnxWorkerDefinition, { channel: '', options: this.#workerOptions })
    const [replicas, host] = await Promise.allSettled([this.#inner.start(), runtime.start()])
    if (replicas.status === 'rejected') {
      if (host.status === 'fulfilled' && host.value.ok) await runtime.dispose()
      throw replicas.reason
    }
    if (host.status === 'fulfilled' && host.value.ok) this.#runtime = runtime
    else {
      const why =
        host.status === 'fulfilled' && !host.value.ok ? host.value.error.message : String(host.status === 'rejected' && host.reason)
      this.#log('warn', `the host thread's session did not load (${why}); every batch goes to the replicas`)
    }
    return replicas.value
  }

  send(task: RunTask, transfer: ArrayBuffer[], options?: SendOptions): Promise<SendOutcome> {
    const runtime = this.#runtime
    if (
      runtime === undefined ||
      this.#running !== undefined ||
      this.#closed ||
      (options?.rows ?? 0) > this.#limits.maxRows ||
      !this.#inner.idle
    ) {
      return this.#inner.send(task, transfer, options)
    }
    if (this.#asking > 0) return this.#inner.send(task, transfer, options).then((outcome) => this.#judgeReplica(outcome))
    this.#runs++
    return new Promise<SendOutcome>((resolve) => {
      this.#pending = resolve
      this.#running = runtime.run(task).then(({ result }) => {
        this.#running = undefined
        if (this.#pending !== resolve) return
        this.#pending = undefined
        this.#judge(result)
        resolve({ ok: true, result })
      })
    })
  }

  async close(): Promise<void> {
    await this.#inner.close()
    await this.#release()
  }

  async destroy(): Promise<void> {
    const pending = this.#pending
    this.#pending = undefined
    pending?.({ ok: false, failure: { kind: 'closed', reason: 'the pool was destroyed' } })
    await this.#inner.destroy()
    await this.#release()
  }

  /** A host run slower than the host allows counts; `slowRuns` in a row send the next few-row batches to the replicas to judge. */
  #judge(result: TaskResult): void {
    const slow = this.#slowRun(result)
    if (slow === undefined) return
    if (!slow) {
      this.#slow = 0
      return
    }
    if (++this.#slow < this.#limits.slowRuns) return
    this.#slow = 0
    this.#asking = this.#limits.slowRuns
  }

  /** A few-row replica run within `maxRunMs` resumes the host session; `slowRuns` slower in a row release it. */
  #judgeReplica(outcome: SendOutcome): SendOutcome {
    const slow = outcome.ok ? this.#slowRun(outcome.result) : undefined
    if (slow === undefined || this.#asking === 0) return outcome
    if (!slow) {
      this.#asking = 0
      return outcome
    }
    if (--this.#asking > 0) return outcome
    const { maxRunMs, slowRuns } = this.#limits
    // What it is built to do with a heavy model: news, not a fault.
    this.#log(
      'info',
      `the model's runs took over ${maxRunMs} ms (${slowRuns} in a row on the host, then ${slowRuns} on a replica): too long to hold the host thread; the host session is released and every batch goes to the replicas`,
    )
    void this.#release()
    return outcome
  }

  /** Whether a run took longer than `maxRunMs` (undefined: not a run that says). */
  #slowRun(result: TaskResult): boolean | undefined {
    const timing = result.ok && result.kind === 'run' ? (result.value as Partial<TensorBatchOutput> | undefined)?.timing : undefined
    return timing === undefined ? undefined : timing.runEndMs - timing.runStartMs > this.#limits.maxRunMs
  }

  /** Releases the host session once no run is on it (a run in progress keeps it until it returns). */
  async #release(): Promise<void> {
    this.#closed = true
    const runtime = this.#runtime
    this.#runtime = undefined
    if (runtime === undefined) return
    await this.#running
    await runtime.dispose()
  }
}

/**
 * Whether a pool gets a host session: the built-in worker on the CPU, in threads, unless
 * `hostSession: false`, and without `batchTimeoutMs` (a run on the host cannot be cut
 * short, and a user who bounds a batch's run counts on that).
 */
export function hostSessionFits(options: ResolvedPoolOptions): boolean {
  return (
    options.hostSession &&
    options.batchTimeoutMs === undefined &&
    options.worker === null &&
    options.isolation === 'thread' &&
    options.session.executionProvider === 'cpu'
  )
}
