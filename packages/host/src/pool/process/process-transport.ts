/**
 * `isolation: 'process'`: replicas as long-lived child processes behind the
 * {@link ReplicaTransport} seam. A native crash (SIGSEGV, SIGABRT), a `process.exit`
 * or a SIGKILL ends one process: only the batches it held fail, as `crashed`, and the
 * pool's retry policy re-runs or splits them with the same rules as for threads. Unlike a
 * thread inside onnxruntime, a process can be killed at any moment, so
 * `startupTimeoutMs` and `batchTimeoutMs` are hard stops here (SIGKILL).
 *
 * Each replica is a seat (its stats, restarts and back-off) holding at most one
 * {@link ReplicaProcess} at a time. Only a `ready` process takes a batch. A process
 * that dies after loading is replaced at once; one that dies while loading, or whose
 * load fails (it is ended: it could only fail batches), is replaced after a back-off
 * (`restartDelayMs`: 250 ms doubling to 30 s), and while no replica has a process,
 * sends fail as `unavailable` instead of waiting. Each replacement is logged with how
 * many replicas are ready meanwhile.
 *
 * Every process loads the pool's one private copy of the model bytes (model-file.ts),
 * checked against their SHA-256: a respawn never picks up a file replaced on disk.
 */
import { fileURLToPath } from 'node:url'
import type { OnnxWorkerOptions, RunTask, TaskResult, WorkerBootData, WorkerDescription } from '@inferpool/worker'
import { restartDelayMs } from '../../backoff.js'
import { fromWire } from '../../wire-errors.js'
import { StartupTimeoutError, WorkerCrashedError } from '../../errors.js'
import type { ReplicaStats } from '../../types.js'
import { leastBusy } from '../balance.js'
import { loadFailureOf } from '../load-failure.js'
import { modelLabelFor } from '../model-bytes.js'
import type { ResolvedPoolOptions } from '../options.js'
import type { ReplicaTransport, SendOptions, SendOutcome, TransportEvents, TransportFailure } from '../transport.js'
import { ModelFile } from './model-file.js'
import { describeExit, ReplicaProcess } from './replica-process.js'
import type { LoadOutcome, ProcessExit } from './replica-process.js'

/** How long each step of ending a process (dispose, channel close, SIGTERM) may take before the next. */
const PROCESS_STOP_BOUND_MS = 2_000

interface Send {
  readonly id: number
  readonly task: RunTask
  readonly transfer: readonly ArrayBuffer[]
  readonly rows: number
  readonly settle: (outcome: SendOutcome) => void
  timer: NodeJS.Timeout | undefined
  /** The seat running it (undefined while queued). */
  seat: Seat | undefined
}

interface Seat {
  readonly id: number
  proc: ReplicaProcess | null
  /** Why the host ended the current process on purpose ('timeout', 'memory'), if it did. */
  endCause: string | undefined
  batches: number
  rows: number
  busyMs: number
  restarts: number
  restartCauses: Record<string, number>
  /** Idle garbage collections run by this seat's processes, over all of them. */
  idleCollections: number
  /** Processes of this seat in a row that died or failed while loading (the back-off's count). */
  loadFailures: number
  respawn: NodeJS.Timeout | undefined
}

/** Rows of a task, when the pool did not say (`SendOptions.rows`). */
function rowsOf(task: RunTask): number {
  const payload = task.payload as { rows?: unknown } | unknown[] | null
  if (Array.isArray(payload)) return payload.length
  return typeof payload?.rows === 'number' ? payload.rows : 0
}

/** Batches a replica's process runs now. */
const inFlightOf = (seat: Seat): number => (seat.proc as ReplicaProcess).inFlight

/** A replica whose process is ready, has a free lane and is not being ended. */
const takesBatches = (seat: Seat): boolean => seat.proc !== null && seat.proc.hasFreeLane && seat.endCause === undefined

function fail(kind: TransportFailure['kind'], reason: string, extra: Omit<TransportFailure, 'kind' | 'reason'> = {}): SendOutcome {
  return { ok: false, failure: { kind, reason, ...extra } }
}

export class ProcessTransport implements ReplicaTransport {
  /** A tensor batch's rows go straight into a replica's transfer file (replica-process.ts `run`). */
  readonly takesPieces = true
  private readonly seats: Seat[]
  private readonly queue: Send[] = []
  private readonly inFlight = new Map<number, Send>()
  private readonly module: string
  private nextId = 1
  private phase: 'new' | 'starting' | 'serving' | 'closing' | 'destroyed' = 'new'
  /** Set while no replica has a process because the last ones died while loading. */
  private unavailable: string | undefined
  private onStartEvent: ((seat: Seat, event: { loaded?: LoadOutcome; exit?: ProcessExit }) => void) | undefined
  private destroying: Promise<void> | undefined
  private closing: Promise<void> | undefined
  /** The private copy of the model the processes load (built-in worker, model given as bytes). */
  private modelFile: ModelFile | undefined
  /** How replicas' messages name the model (model-bytes.ts `modelLabelFor`), taken before the bytes are let go. */
  private readonly modelLabel: string | undefined
  /** The pool's options; `model` becomes the private copy's path once it is written (see `start`). */
  private options: ResolvedPoolOptions

  constructor(
    options: ResolvedPoolOptions,
    private readonly events: TransportEvents = {},
  ) {
    this.options = options
    this.modelLabel = modelLabelFor(options)
    this.module = options.worker ?? fileURLToPath(import.meta.resolve('@inferpool/worker/onnx-worker'))
    this.seats = Array.from({ length: options.replicas }, (_, id) => ({
      id,
      proc: null,
      endCause: undefined,
      batches: 0,
      rows: 0,
      busyMs: 0,
      restarts: 0,
      restartCauses: {},
      idleCollections: 0,
      loadFailures: 0,
      respawn: undefined,
    }))
  }

  async start(): Promise<WorkerDescription | null> {
    if (this.phase !== 'new') throw new Error('ProcessTransport.start() may be called once')
    this.phase = 'starting'
    const { replicas, startupTimeoutMs, modelLabel, model } = this.options
    if (this.options.worker === null && typeof model !== 'string') {
      const file = await ModelFile.write(model)
      this.modelFile = file
      // Every process, a respawn too, loads the copy: keeping the bytes would hold the
      // whole model in the host's memory for the pool's life, for nothing.
      this.options = { ...this.options, model: file.path }
      // Destroyed while writing: nothing else will remove it.
      if (this.phase !== 'starting') {
        await file.remove()
        throw new Error('The replica processes were destroyed while starting')
      }
    }
    return new Promise<WorkerDescription | null>((resolve, reject) => {
      const loaded = new Map<number, WorkerDescription | null>()
      const giveUp = (error: Error): void => {
        clearTimeout(timer)
        this.onStartEvent = undefined
        // A process can be killed inside a native load (unlike a thread): nothing lingers.
        void this.destroy().then(() => reject(error))
      }
      const timer = setTimeout(() => giveUp(new StartupTimeoutError(startupTimeoutMs, loaded.size, replicas)), startupTimeoutMs)
      this.onStartEvent = (seat, event) => {
        if (event.exit) {
          const exit = event.exit
          return giveUp(
            new WorkerCrashedError(`A replica process ${describeExit(exit)} while loading ${modelLabel}`, {
              details: { model: modelLabel, exitCode: exit.code, signal: exit.signal },
            }),
          )
        }
        const outcome = event.loaded as LoadOutcome
        if (!outcome.ok) return giveUp(fromWire(outcome.error))
        loaded.set(seat.id, outcome.description)
        if (loaded.size < replicas) return
        clearTimeout(timer)
        this.onStartEvent = undefined
        this.phase = 'serving'
        resolve(loaded.get(0) ?? null)
      }
      for (const seat of this.seats) this.spawn(seat)
    })
  }

  send(task: RunTask, transfer: ArrayBuffer[], options?: SendOptions): Promise<SendOutcome> {
    if (this.phase === 'destroyed') return Promise.resolve(fail('closed', 'the replica processes were destroyed'))
    if (this.unavailable !== undefined) return Promise.resolve(fail('unavailable', this.unavailable))
    return new Promise<SendOutcome>((resolve) => {
      const send: Send = {
        id: this.nextId++,
        task,
        transfer,
        rows: options?.rows ?? rowsOf(task),
        settle: resolve,
        timer: undefined,
        seat: undefined,
      }
      if (options?.timeoutMs !== undefined)
        send.timer = setTimeout(() => this.timeOut(send, options.timeoutMs as number), options.timeoutMs)
      this.queue.push(send)
      this.pump()
    })
  }

  get replicas(): ReplicaStats[] {
    return this.seats.map((seat) => {
      const proc = seat.proc
      const stats: ReplicaStats = {
        id: seat.id,
        batches: seat.batches,
        rows: seat.rows,
        busyMs: seat.busyMs,
        inFlight: proc?.inFlight ?? 0,
        restarts: seat.restarts,
        state: proc === null || proc.state === 'exited' ? 'down' : proc.state,
        restartCauses: { ...seat.restartCauses },
        idleCollections: seat.idleCollections,
      }
      if (proc?.state === 'failed' && proc.lastError !== undefined) stats.lastError = proc.lastError
      if (proc && proc.state !== 'exited') {
        stats.pid = proc.pid
        stats.rssBytes = proc.rss
      }
      return stats
    })
  }

  get restarts(): number {
    return this.seats.reduce((sum, seat) => sum + seat.restarts, 0)
  }

  /** A process transport never replaces its whole set: each seat respawns on its own. */
  readonly rebuilds = 0

  close(): Promise<void> {
    if (this.destroying) return this.destroying
    this.closing ??= (async () => {
      this.phase = 'closing'
      this.stopRespawns()
      // The pool closes once nothing is in flight; anything still queued cannot run now.
      this.failQueued('closed', 'the transport was closed')
      await Promise.all(this.seats.map((seat) => seat.proc?.stop(PROCESS_STOP_BOUND_MS)))
      this.phase = 'destroyed'
      await this.modelFile?.remove()
    })()
    return this.closing
  }

  destroy(): Promise<void> {
    // A destroy after close() wins at once: it does not wait for the graceful steps.
    this.destroying ??= (async () => {
      this.phase = 'destroyed'
      this.stopRespawns()
      this.failQueued('closed', 'the transport was destroyed')
      for (const send of [...this.inFlight.values()]) this.settle(send, fail('closed', 'the transport was destroyed'))
      await Promise.all(this.seats.map((seat) => seat.proc?.destroy(PROCESS_STOP_BOUND_MS)))
      await this.modelFile?.remove()
    })()
    return this.destroying
  }

  /** Hands queued sends to replicas with a free lane, by the pools' one rule (../balance.ts `leastBusy`). */
  private pump(): void {
    while (this.queue.length > 0) {
      const best = leastBusy(this.seats, this.options.concurrency, inFlightOf, takesBatches)
      if (!best) return
      const send = this.queue.shift() as Send
      try {
        ;(best.proc as ReplicaProcess).run(send.id, send.task, send.transfer)
      } catch (err) {
        this.settle(send, fail('unsendable', err instanceof Error ? err.message : String(err), { cause: err }))
        continue
      }
      send.seat = best
      this.inFlight.set(send.id, send)
    }
  }

  private settle(send: Send, outcome: SendOutcome): void {
    clearTimeout(send.timer)
    this.inFlight.delete(send.id)
    const queued = this.queue.indexOf(send)
    if (queued !== -1) this.queue.splice(queued, 1)
    send.settle(outcome)
  }

  private failQueued(kind: TransportFailure['kind'], reason: string): void {
    for (const send of this.queue.splice(0)) this.settle(send, fail(kind, reason))
  }

  private timeOut(send: Send, ms: number): void {
    const seat = send.seat
    this.settle(send, fail('timeout', `the batch did not finish within ${ms} ms`, { details: { timeoutMs: ms } }))
    if (!seat?.proc) return
    // A process can be killed at any moment, even inside a native call: no waiting.
    seat.endCause ??= 'timeout'
    seat.proc.kill('SIGKILL')
  }

  private spawn(seat: Seat): void {
    seat.respawn = undefined
    seat.endCause = undefined
    const boot: WorkerBootData = {
      // No BroadcastChannel between processes: loads and disposal are reported over IPC.
      channel: '',
      options: this.workerOptionsFor(seat.id),
      loadTimeoutMs: this.options.startupTimeoutMs,
    }
    const env = this.options.processEnv[seat.id % this.options.processEnv.length] ?? {}
    let proc: ReplicaProcess | null = null
    // Events of a process that is no longer the seat's (a late message) are ignored.
    const current = (): boolean => proc !== null && seat.proc === proc
    proc = new ReplicaProcess(
      {
        module: this.module,
        boot,
        env,
        lanes: this.options.concurrency,
        rssEachBatch: this.options.maxRssBytes !== undefined,
        idleCollectMs: this.options.idleCollectMs,
      },
      {
        onLoaded: (outcome) => {
          if (!current()) return
          if (this.onStartEvent) return this.onStartEvent(seat, { loaded: outcome })
          if (outcome.ok) {
            this.unavailable = undefined
            if (seat.loadFailures > 0)
              this.log('info', `replica ${seat.id} of ${this.options.modelLabel} is ready again${this.readyCount()}`)
            seat.loadFailures = 0
          } else if (this.phase === 'serving') {
            // It would only fail every batch it took (pump skips it meanwhile): end it,
            // and replace it after a back-off (onExit).
            seat.endCause ??= 'load failed'
            ;(proc as ReplicaProcess).kill('SIGKILL')
          }
          this.pump()
        },
        onResult: (id, result) => this.onResult(seat, id, result),
        onExit: (exit, pending) => this.onExit(seat, proc as ReplicaProcess, exit, pending),
        onCollected: () => {
          if (current()) seat.idleCollections++
        },
      },
    )
    seat.proc = proc
    // Loading now: arm the start-up bound for a replacement too (one that never loads would hold its seat).
    if (this.phase === 'serving') this.watchLoad(seat, proc)
  }

  /** A replacement that has not loaded within `startupTimeoutMs` is killed and counts as a load death. */
  private watchLoad(seat: Seat, proc: ReplicaProcess): void {
    const timer = setTimeout(() => {
      if (seat.proc === proc && proc.state === 'loading') {
        seat.endCause ??= 'startup timeout'
        proc.kill('SIGKILL')
      }
    }, this.options.startupTimeoutMs)
    timer.unref()
    void proc.exited.then(() => clearTimeout(timer))
  }

  private onResult(seat: Seat, id: number, result: TaskResult): void {
    const send = this.inFlight.get(id)
    const proc = seat.proc
    const loadFailure = loadFailureOf(result)
    proc?.noteLoad(loadFailure)
    if (loadFailure === undefined && send) {
      seat.batches++
      seat.rows += send.rows
      seat.busyMs += result.busyMs
    }
    if (send) this.settle(send, { ok: true, result })
    const cap = this.options.maxRssBytes
    if (proc && cap !== undefined && proc.rss > cap && seat.endCause === undefined && this.phase === 'serving') {
      // Recycle: it takes nothing new (pump skips a seat with an end cause), finishes
      // what it holds, then ends gracefully; its exit respawns the seat.
      seat.endCause = 'memory'
      this.emitRestart(seat, `replica process ${proc.pid} recycled: RSS ${Math.round(proc.rss / 1048576)} MiB is over processes.maxRssMb`)
    }
    // Only decreases once the seat takes nothing new, so this is reached once.
    if (proc && seat.endCause === 'memory' && proc.inFlight === 0) void proc.stop(PROCESS_STOP_BOUND_MS)
    this.pump()
  }

  private onExit(seat: Seat, proc: ReplicaProcess, exit: ProcessExit, pending: number[]): void {
    const reason = `replica process ${proc.pid} ${describeExit(exit)}`
    const details = { pid: proc.pid, exitCode: exit.code, signal: exit.signal }
    for (const id of pending) {
      const send = this.inFlight.get(id)
      if (send) this.settle(send, fail('crashed', reason, { details }))
    }
    if (seat.proc !== proc) return
    seat.proc = null
    if (this.onStartEvent) return this.onStartEvent(seat, { exit })
    if (this.phase !== 'serving') return
    const loadFailed = seat.endCause === 'load failed'
    const wasLoaded = proc.loaded && seat.endCause !== 'startup timeout' && !loadFailed
    const cause = seat.endCause ?? exit.signal ?? `exit ${exit.code}`
    seat.restarts++
    seat.restartCauses[cause] = (seat.restartCauses[cause] ?? 0) + 1
    // A memory recycle was announced when it was decided.
    const why =
      seat.endCause === 'timeout'
        ? ' (batchTimeoutMs)'
        : seat.endCause === 'startup timeout'
          ? ' (startupTimeoutMs)'
          : loadFailed
            ? ` (its load failed: ${proc.lastError ?? 'no message'})`
            : ''
    const restartReason = loadFailed ? `replica process ${proc.pid} ended${why}` : reason + why + (wasLoaded ? '' : ' (while loading)')
    if (seat.endCause !== 'memory') this.emitRestart(seat, restartReason)
    if (wasLoaded) {
      seat.loadFailures = 0
      this.log('warn', `replica ${seat.id} of ${this.options.modelLabel}: ${restartReason}; starting a replacement${this.readyCount()}`)
      this.spawn(seat)
    } else {
      // Failing to load repeats (a broken model, a missing device): back off.
      const delay = restartDelayMs(seat.loadFailures++)
      this.log('warn', `replica ${seat.id} of ${this.options.modelLabel}: ${restartReason}; retrying in ${delay} ms${this.readyCount()}`)
      seat.respawn = setTimeout(() => this.spawn(seat), delay)
      if (this.seats.every((s) => s.proc === null)) {
        this.unavailable = `no replica process is running: replacements die while loading (last: ${reason})`
        this.failQueued('unavailable', this.unavailable)
      }
    }
    this.pump()
  }

  /** `; 1 of 2 replicas ready`: how degraded the model is while a replica is replaced. */
  private readyCount(): string {
    const ready = this.seats.reduce((n, s) => (s.proc?.state === 'ready' ? n + 1 : n), 0)
    return `; ${ready} of ${this.seats.length} replicas ready`
  }

  private log(level: 'warn' | 'info', message: string): void {
    try {
      this.options.logger[level](`inferpool: ${message}`)
    } catch {
      // A logger never breaks the transport (this runs in a process's listener).
    }
  }

  private emitRestart(seat: Seat, reason: string): void {
    try {
      this.events.onReplicaRestart?.({ replica: seat.id, reason })
    } catch {
      // A hook that throws is the pool's bug; it must not become an uncaught exception here.
    }
  }

  private stopRespawns(): void {
    for (const seat of this.seats) {
      clearTimeout(seat.respawn)
      seat.respawn = undefined
    }
  }

  private workerOptionsFor(replica: number): unknown {
    const options = this.options
    if (options.worker !== null) return options.workerOptions
    // Each process picks its device here: the threads' shared round-robin counter
    // (a SharedArrayBuffer) cannot cross processes.
    const ids = options.deviceIds
    const onnx: OnnxWorkerOptions = {
      model: options.model,
      session: options.session,
      deviceIds: ids.length === 0 ? [] : [ids[replica % ids.length] as number],
    }
    if (this.modelFile !== undefined && options.modelSha256 !== undefined) onnx.sha256 = options.modelSha256
    if (this.modelLabel !== undefined) onnx.label = this.modelLabel
    return onnx
  }
}

/** The {@link ReplicaTransportFactory} of process mode. */
export function createProcessTransport(options: ResolvedPoolOptions, events: TransportEvents): ReplicaTransport {
  return new ProcessTransport(options, events)
}
