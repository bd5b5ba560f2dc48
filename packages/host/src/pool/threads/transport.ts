/**
 * `ThreadTransport`: the replica transport over piscina worker threads.
 *
 * - Start-up: one piscina instance of `replicas` threads; resolves once each has
 *   reported a successful load on the pool's `BroadcastChannel` (piscina's balancer
 *   cannot promise a start-up task per thread, so loads are counted by `threadId`).
 * - Sends: `piscina.run()` with the batch's buffers in the transfer list and no
 *   AbortSignal (aborting a running piscina task terminates its thread — inside a
 *   native `run`, that aborts the process). A batch past `timeoutMs` settles its send
 *   at once with `timeout`; the thread that runs it is made overdue in the ledger,
 *   takes no new batch, and is ended once its run has returned. piscina then replaces
 *   it like any other exit.
 * - What a rejected `piscina.run()` means: the thread died (the worker handler never
 *   throws) → `crashed`; the task could not be cloned → `unsendable`; its generation
 *   was retired → `rerouted` (generations.ts).
 * - Ending: `close()` asks every worker to release its session (bounded), then
 *   destroys; `destroy()` settles every send with `closed` at once and ends the
 *   threads as soon as none is inside a native call (ledger.ts).
 */
import { randomUUID } from 'node:crypto'
import { BroadcastChannel } from 'node:worker_threads'
import { Piscina } from 'piscina'
import type { LoadReport, OnnxWorkerOptions, RunTask, TaskResult, WorkerDescription } from '@inferpool/worker'
import { InferpoolError } from '@inferpool/core'
import { restartDelayMs } from '../../backoff.js'
import { StartupTimeoutError, WorkerCrashedError } from '../../errors.js'
import { fromWire } from '../../wire-errors.js'
import type { ReplicaStats } from '../../types.js'
import { loadFailureOf } from '../load-failure.js'
import { modelLabelFor } from '../model-bytes.js'
import type { ResolvedPoolOptions } from '../options.js'
import type { ReplicaTransport, SendOptions, SendOutcome, TransportEvents, TransportFailure } from '../transport.js'
import { Generations } from './generations.js'
import type { Generation } from './generations.js'
import { ThreadLedger } from './ledger.js'
import type { ThreadRecord } from './ledger.js'
import { balancer, createPiscina, onnxWorkerPath } from './piscina.js'
import type { PiscinaWorkerInterface, Ticket } from './piscina.js'
import { ReplicaTable } from './replicas.js'

/** How long `close()` waits for the workers to release their sessions before terminating them. */
const DISPOSE_TIMEOUT_MS = 2_000

const QUEUE_OPTIONS = Piscina.queueOptionsSymbol

/** A send not settled yet (destroy settles them all with `closed`). */
type Settle = (outcome: SendOutcome) => void

function describeError(err: unknown, withName = false): string {
  if (!(err instanceof Error)) return String(err)
  return withName ? `${err.name}: ${err.message}` : err.message
}

/** A `postMessage` that failed on what it was given to send (structured clone). */
function isCloneError(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'DataCloneError'
}

function failed(failure: TransportFailure): SendOutcome {
  return { ok: false, failure }
}

export class ThreadTransport implements ReplicaTransport {
  readonly #options: ResolvedPoolOptions
  readonly #events: TransportEvents
  readonly #filename: string
  readonly #workerOptions: unknown
  readonly #channelName = `inferpool:${process.pid}:${randomUUID()}`
  readonly #channel: BroadcastChannel
  readonly #ledger: ThreadLedger<Generation>
  readonly #replicas: ReplicaTable
  #generations: Generations | undefined
  readonly #inFlight = new Set<Settle>()
  /** Threads whose failed load is being retried: the attempts so far and the pending retry. */
  readonly #loadRetries = new Map<number, { attempt: number; timer: NodeJS.Timeout | undefined }>()
  #description: WorkerDescription | null = null
  /** The first failure seen while starting (a load error, a thread that died loading). */
  #startFailure: Error | undefined
  #stopping = false
  #destroyed = false
  #teardown: Promise<void> | undefined

  constructor(options: ResolvedPoolOptions, events: TransportEvents = {}) {
    this.#options = options
    this.#events = events
    this.#filename = options.worker ?? onnxWorkerPath()
    this.#workerOptions = workerOptionsFor(options)
    this.#channel = new BroadcastChannel(this.#channelName)
    // The channel must not keep the process alive on its own (piscina's threads are
    // unref'd too); the ledger refs it while someone waits for a native call to return.
    this.#channel.unref()
    this.#ledger = new ThreadLedger<Generation>(
      // Only the built-in ONNX worker loads and runs natively (a user worker is plain JS).
      { startupTimeoutMs: options.startupTimeoutMs, native: options.worker === null },
      {
        serving: (record) => (this.#generations?.serving(record) ?? true) && !this.#stopping,
        onError: (record, error) => this.#generations?.errored(record, error),
        onExit: (record, code, loaded) => this.#exited(record, code, loaded),
      },
      this.#channel,
    )
    this.#replicas = new ReplicaTable(options.replicas, this.#ledger as ThreadLedger<unknown>)
    this.#channel.onmessage = (event: unknown) => this.#report((event as { data: LoadReport }).data)
  }

  get replicas(): ReplicaStats[] {
    return this.#replicas.snapshot()
  }

  /** No send is queued or running (the host session's rule: host-session.ts). */
  get idle(): boolean {
    return this.#inFlight.size === 0
  }

  get restarts(): number {
    return this.#replicas.restarts
  }

  get rebuilds(): number {
    return this.#generations?.rebuilds ?? 0
  }

  async start(): Promise<WorkerDescription | null> {
    const piscina = this.#spawn()
    const threads = (): ThreadRecord<Generation>[] =>
      piscina.threads.map((t) => this.#ledger.get(t.threadId)).filter((r) => r !== undefined)
    const loaded = (): number => threads().filter((r) => r.load === 'loaded').length
    const settled = (): boolean => threads().every((r) => !r.inLoad)
    // The first generation's threads, watched from their start (no watchdog yet: the
    // start-up timeout below covers them).
    const first = Generations.generation(piscina)
    for (const thread of piscina.threads) this.#ledger.watch(thread, first)
    piscina.on('error', (err: unknown) => {
      this.#startFailure ??= err instanceof Error ? err : new Error(String(err))
    })
    // Done when every replica loaded, or on a failure once no thread is inside its
    // load (ending one there aborts the process); the timeout bounds both.
    const done = await this.#ledger.until(
      () => (this.#startFailure === undefined ? loaded() >= this.#options.replicas : settled()),
      this.#options.startupTimeoutMs,
    )
    if (done && this.#startFailure === undefined) {
      this.#generations = new Generations(first, this.#ledger, () => this.#spawn(), this.#hooks(), { replicas: this.#options.replicas })
      for (const record of threads()) this.#replicas.attach(record.threadId, () => record.running)
      return this.#description
    }
    const error = done
      ? (this.#startFailure as Error)
      : (this.#startFailure ?? new StartupTimeoutError(this.#options.startupTimeoutMs, loaded(), this.#options.replicas))
    const typed =
      error instanceof InferpoolError
        ? error
        : new WorkerCrashedError(`A worker thread failed while loading ${this.#options.modelLabel}: ${error.message}`, { cause: error })
    this.#stopping = true
    if (settled() || !this.#ledger.settings.native) {
      await this.#end([piscina])
      throw typed
    }
    // Reject on time; end the threads once none is inside its native load. The ledger
    // holds the channel ref'd until then: the process must not exit under that load.
    void this.#end([piscina])
    throw typed
  }

  send(task: RunTask, transfer: ArrayBuffer[], options?: SendOptions): Promise<SendOutcome> {
    const generations = this.#generations
    if (this.#destroyed || this.#stopping || generations === undefined) {
      return Promise.resolve(failed({ kind: 'closed', reason: 'the pool is closing' }))
    }
    const generation = generations.current
    if (generation.piscina.threads.length === 0) {
      // Nothing can run it until the next rebuild (backing off): fail now.
      const reason = this.#ledger.lastLoadDeath ?? 'every worker thread exited'
      return Promise.resolve(failed({ kind: 'unavailable', reason, details: { reason, down: true } }))
    }
    const ticket: Ticket = { threadId: undefined }
    // A fresh object per send: `kind` may be rewritten below while it waits in piscina's queue.
    const sent: RunTask & { [QUEUE_OPTIONS]: Ticket } = {
      kind: 'run',
      batchId: task.batchId,
      payload: task.payload,
      [QUEUE_OPTIONS]: ticket,
    }
    if (task.deadlines !== undefined) {
      sent.deadlines = task.deadlines
      sent.runMs = task.runMs ?? 0
    }
    const pending = generation.piscina.run(sent, { transferList: transfer }) as Promise<TaskResult>
    // run() may have spawned a thread on demand: watch it from its start.
    generations.scan(generation)
    const loadDeathsBefore = this.#ledger.loadDeaths
    return new Promise<SendOutcome>((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const settle: Settle = (outcome) => {
        if (!this.#inFlight.delete(settle)) return
        clearTimeout(timer)
        resolve(outcome)
      }
      this.#inFlight.add(settle)
      if (options?.timeoutMs !== undefined) {
        const ms = options.timeoutMs
        timer = setTimeout(() => {
          const record = ticket.threadId === undefined ? undefined : this.#ledger.get(ticket.threadId)
          let consequence: string
          if (record !== undefined) {
            // Running on that thread (maybe inside a native call): out of service now,
            // ended once the call returns.
            this.#ledger.end(record, `a batch ran past batchTimeoutMs (${ms} ms)`)
            consequence = this.#ledger.safeToTerminate(record)
              ? 'the worker thread running it was terminated'
              : 'its worker thread takes no new batch and is replaced once the run returns (a native call cannot be interrupted)'
          } else {
            // Still in piscina's queue: let it reach a thread as a cheap describe task
            // instead of the batch nobody waits for any more.
            ;(sent as { kind: string }).kind = 'describe'
            sent.payload = undefined
            // Nor its buffers: moved with it they would land in that thread with nothing to
            // release them, to stay until its next collection. piscina posts this same
            // array when the task reaches a thread (TaskInfo keeps the reference), so
            // emptying it keeps them here, where they are garbage now.
            transfer.length = 0
            consequence = 'it was still waiting for a free worker thread'
          }
          settle(failed({ kind: 'timeout', reason: consequence, details: { timeoutMs: ms } }))
        }, ms)
      }
      pending.then(
        (result) => {
          this.#returned(ticket)
          this.#noteResult(result)
          // A batch that timed out while queued ran as a describe task: not a batch.
          if (sent.kind === 'run') this.#replicas.record(result.threadId, options?.rows ?? 0, result.busyMs)
          settle({ ok: true, result })
        },
        (err: unknown) => {
          this.#returned(ticket)
          if (this.#destroyed) return settle(failed({ kind: 'closed', reason: 'the pool was destroyed', cause: err }))
          // piscina could not post the task: no thread died, the payload is at fault.
          if (isCloneError(err)) {
            return settle(
              failed({ kind: 'unsendable', reason: describeError(err, true), cause: err, details: { reason: describeError(err) } }),
            )
          }
          // Rejected because its generation was retired: not this batch's fault.
          if (generation.retired) return settle(failed({ kind: 'rerouted', reason: describeError(err), cause: err }))
          const loadDeath = this.#ledger.loadDeaths > loadDeathsBefore ? this.#ledger.lastLoadDeath : undefined
          settle(
            failed({
              kind: 'crashed',
              reason: describeError(err),
              cause: err,
              ...(loadDeath === undefined ? {} : { details: { loadDeath } }),
            }),
          )
        },
      )
    })
  }

  async close(): Promise<void> {
    const generations = this.#generations
    if (generations === undefined || this.#teardown !== undefined) return this.#end([])
    this.#stopping = true
    const { piscina, retired } = generations.stop()
    const unsafe = (): boolean => this.#ledger.live.some((r) => r.inLoad || !this.#ledger.safeToTerminate(r))
    // No thread is ended inside a native call: wait (unbounded) for loads and late runs
    // to return. A user worker's load is cut short after startupTimeoutMs.
    await this.#ledger.until(() => this.#destroyed || !unsafe(), this.#ledger.settings.native ? Infinity : this.#options.startupTimeoutMs)
    const live = piscina.threads.map((t) => t.threadId)
    if (live.length > 0 && !this.#destroyed) {
      // A thread that exits instead (a dispose that calls process.exit) is done too.
      const done = this.#ledger.until(
        () => this.#destroyed || live.every((id) => this.#ledger.get(id)?.disposed !== false),
        DISPOSE_TIMEOUT_MS,
      )
      this.#channel.postMessage({ type: 'dispose' })
      await done
    }
    await Promise.all([this.#end([piscina]), retired])
  }

  destroy(): Promise<void> {
    this.#destroyed = true
    this.#stopping = true
    for (const settle of [...this.#inFlight]) settle(failed({ kind: 'closed', reason: 'the pool was destroyed' }))
    this.#generations?.stop()
    this.#ledger.poke()
    return this.#end(this.#generations?.all.map((g) => g.piscina) ?? [])
  }

  /**
   * Destroys the given piscina instances once no thread is inside a native call (the
   * ledger's rule; meanwhile no thread takes a new task), then closes the channel.
   * Once: later calls share it.
   */
  #end(instances: Piscina[]): Promise<void> {
    this.#teardown ??= (async () => {
      for (const retry of this.#loadRetries.values()) clearTimeout(retry.timer)
      this.#ledger.endingAll()
      await this.#ledger.until(() => this.#ledger.allSafe(), Infinity)
      await Promise.all(instances.map((p) => p.destroy().catch(() => undefined)))
      this.#channel.onmessage = () => undefined
      this.#channel.close()
    })()
    return this.#teardown
  }

  #spawn(): Piscina {
    return createPiscina(
      this.#options,
      this.#filename,
      this.#workerOptions,
      this.#channelName,
      balancer(
        this.#options.concurrency,
        (threadId) => {
          const record = this.#ledger.get(threadId)
          return record === undefined || this.#ledger.accepts(record)
        },
        (threadId, ticket) => {
          const record = this.#ledger.get(threadId)
          if (record === undefined || ticket === undefined) return
          ticket.threadId = threadId
          this.#ledger.runStarted(record)
        },
        // A thread the ledger has not seen yet is still starting: loading.
        (threadId) => this.#ledger.get(threadId)?.load ?? 'loading',
      ),
    )
  }

  #hooks() {
    return {
      onGeneration: (generation: Generation) => {
        generation.piscina.on('workerCreate', (worker: PiscinaWorkerInterface) => {
          const record = this.#ledger.get(worker.id)
          this.#replicas.attach(worker.id, () => record?.running ?? worker.currentUsage)
        })
      },
      onRebuild: (event: { generation: number; reason: string }) => {
        // Called from a thread's listener: a logger that throws there would be an
        // uncaught exception in the host, ending every caller's process.
        try {
          this.#options.logger.warn(
            `inferpool: worker threads of ${this.#options.modelLabel} stopped being replaced (${event.reason}); started a new set of ${this.#options.replicas}`,
          )
        } catch {
          // A logger never breaks the pool.
        }
        try {
          this.#events.onRebuild?.(event)
        } catch {
          // A hook never breaks the transport.
        }
      },
      onThreadExit: ({
        record,
        code,
        loaded,
        expected,
      }: {
        record: ThreadRecord<Generation>
        code: number
        loaded: boolean
        expected: boolean
      }) => {
        clearTimeout(this.#loadRetries.get(record.threadId)?.timer)
        this.#loadRetries.delete(record.threadId)
        const restart = !expected && !this.#stopping
        const replica = this.#replicas.detach(record.threadId, restart)
        if (!restart || replica === undefined) return
        const reason =
          (record.error ? record.error.message : (record.overdue ?? `worker thread exited with code ${code}`)) +
          (loaded ? '' : ' (while loading)')
        this.#log('warn', `replica ${replica} of ${this.#options.modelLabel}: ${reason}; starting a replacement${this.#readyCount()}`)
        try {
          this.#events.onReplicaRestart?.({ replica, reason })
        } catch {
          // A hook never breaks the transport.
        }
      },
    }
  }

  #exited(record: ThreadRecord<Generation>, code: number, loaded: boolean): void {
    if (this.#generations !== undefined) return this.#generations.exited(record, code, loaded)
    // Still starting: a thread that exits while loading fails the start-up.
    if (loaded) return
    const error = record.error
    this.#startFailure ??= new WorkerCrashedError(
      `A worker thread exited while loading ${this.#options.modelLabel} (${error ? error.message : `exit code ${code}`})`,
      { details: { model: this.#options.modelLabel, exitCode: code, message: error?.message } },
    )
  }

  /** A load or dispose report on the pool's channel. */
  #report(report: LoadReport | undefined): void {
    if (report?.type === 'loaded') {
      if (report.ok) this.#description ??= report.description
      else if (this.#generations === undefined) this.#startFailure ??= fromWire(report.error)
      this.#noteLoad(report.threadId, report.ok, report.ok ? undefined : report.error.message)
    } else if (report?.type === 'booted') this.#ledger.noteBooted(report.threadId)
    else if (report?.type === 'disposed') this.#ledger.noteDisposed(report.threadId)
  }

  /** What a task result says about its thread's load (a failed load is retried per task). */
  #noteResult(result: TaskResult): void {
    const loadFailure = loadFailureOf(result)
    this.#noteLoad(result.threadId, loadFailure === undefined, loadFailure)
  }

  #noteLoad(threadId: number, ok: boolean, error: string | undefined): void {
    const record = this.#ledger.noteLoaded(threadId, ok, error)
    if (record?.load === 'loaded') {
      this.#generations?.noteLoadSucceeded(record)
      if (this.#loadRetries.delete(record.threadId))
        this.#log('info', `a worker thread of ${this.#options.modelLabel} loaded on a retry${this.#readyCount()}`)
    } else if (record?.load === 'failed' && this.#generations !== undefined) this.#retryLoad(record)
  }

  /**
   * A thread whose load failed takes no batch while another has loaded (the balancer in
   * piscina.ts): it retries its load with a describe task sent to it alone, after a
   * back-off (`restartDelayMs`), until the load works or the thread is gone.
   */
  #retryLoad(record: ThreadRecord<Generation>): void {
    if (this.#stopping || record.exited || record.overdue !== undefined || this.#loadRetries.get(record.threadId)?.timer) return
    const attempt = this.#loadRetries.get(record.threadId)?.attempt ?? 0
    const delay = restartDelayMs(attempt)
    this.#log(
      'warn',
      `a worker thread of ${this.#options.modelLabel} failed to load (${record.loadError ?? 'no message'}); retrying in ${delay} ms${this.#readyCount()}`,
    )
    const timer = setTimeout(() => {
      this.#loadRetries.set(record.threadId, { attempt: attempt + 1, timer: undefined })
      // Overdue since the retry was planned: out of service, ended once its run returns.
      if (this.#stopping || record.exited || record.overdue !== undefined || record.load !== 'failed') return
      const ticket: Ticket = { threadId: undefined, target: record.threadId }
      const task = { kind: 'describe', batchId: 0, payload: undefined, [QUEUE_OPTIONS]: ticket }
      record.tag.piscina.run(task).then(
        (result: TaskResult) => {
          this.#returned(ticket)
          this.#noteResult(result)
        },
        () => this.#returned(ticket),
      )
    }, delay)
    // A pool nobody uses must not stay alive for a retry.
    timer.unref()
    this.#loadRetries.set(record.threadId, { attempt, timer })
  }

  /** `; 1 of 2 replicas ready`: how degraded the model is meanwhile. */
  #readyCount(): string {
    const replicas = this.#replicas.snapshot()
    return `; ${replicas.filter((r) => r.state === 'ready').length} of ${replicas.length} replicas ready`
  }

  #log(level: 'warn' | 'info', message: string): void {
    try {
      this.#options.logger[level](`inferpool: ${message}`)
    } catch {
      // A logger never breaks the pool.
    }
  }

  /** The task on the ticket's thread came back: its native call (if any) has returned. */
  #returned(ticket: Ticket): void {
    if (ticket.threadId === undefined) return
    const record = this.#ledger.get(ticket.threadId)
    if (record !== undefined) this.#ledger.runSettled(record)
  }
}

export function workerOptionsFor(options: ResolvedPoolOptions): unknown {
  if (options.worker !== null) return options.workerOptions
  // `model`: the pool's bytes over its SharedArrayBuffer (model-bytes.ts), which every
  // thread, a replacement too, sees without a copy in `workerData`.
  const onnx: OnnxWorkerOptions = {
    model: options.model,
    session: options.session,
    deviceIds: options.deviceIds,
    deviceCounter: new Int32Array(new SharedArrayBuffer(4)),
  }
  const label = modelLabelFor(options)
  if (label !== undefined) onnx.label = label
  return onnx
}
