/**
 * The primary of `inferpool serve --processes n` (node:cluster). It serves nothing itself:
 * it forks n server processes that share the listening port (each with its own pools),
 * and owns their lifecycle:
 *
 *   starting ──every process ready──▶ serving ──SIGTERM/SIGINT──▶ stopping ──all exited──▶ exit
 *       │                                                             ▲
 *       └── a process exits before it was ready (a model cannot load) ┘  (exit 1)
 *
 * - While serving, a process that exits is replaced after a back-off
 *   ({@link restartDelayMs}) and counted in `inferpool_process_restarts_total`.
 * - `/metrics` on any process is answered with the aggregate of every ready process's
 *   registry plus the primary's own (prom-client's `AggregatorRegistry.aggregate`).
 * - On SIGTERM/SIGINT every process drains (the same graceful shutdown as one process)
 *   and the primary exits once all have: 0 when all shut down cleanly, else 1. A process
 *   still running `shutdownTimeoutMs` + {@link HARD_STOP_GRACE_MS} later is killed.
 *   A second signal kills them all at once.
 * - The processes end with the primary: node:cluster makes a server process exit as
 *   soon as its IPC channel to the primary closes, whatever ended the primary.
 * - Before the first fork it reads each `--model` file once into a private copy that
 *   every process, a replacement too, loads (./model-copies.ts); the copies go with it.
 */
import cluster from 'node:cluster'
import type { Worker } from 'node:cluster'
import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client'
import { restartDelayMs } from '@inferpool/host/internal'
import { COLLECT_TIMEOUT_MS, isOurs } from './messages.js'
import { copyModels } from './model-copies.js'
import type { ModelCopies } from './model-copies.js'
import type { MetricsJson, ToPrimary, ToServer } from './messages.js'

/** Longest extra wait, past `shutdownTimeoutMs`, for a draining process before it is killed. */
export const HARD_STOP_GRACE_MS = 5_000

export interface ClusterOptions {
  /** Server processes to run. */
  processes: number
  /** The `--model` files: read once here, before the first fork, and loaded by every process from a private copy. */
  model?: ReadonlyArray<{ readonly path: string }>
  /** The servers' own `shutdownTimeoutMs`: how long the primary waits for a drain. */
  shutdownTimeoutMs: number
  log(line: string): void
  error(line: string): void
}

/**
 * The place of one server process: a replacement takes the seat of the process that
 * exited (its index, its count of failed replacements), as a replica's thread does in
 * the pool (pool/threads/replicas.ts).
 */
interface Seat {
  readonly index: number
  worker: Worker | undefined
  ready: boolean
  /** Consecutive replacements of this seat that exited before they were ready. */
  failures: number
  respawn: NodeJS.Timeout | undefined
}

type State = 'starting' | 'serving' | 'stopping'

const SIGNALS = ['SIGTERM', 'SIGINT'] as const

function describeExit(code: number | null, signal: string | null): string {
  return signal !== null ? `was killed by ${signal}` : `exited with code ${code}`
}

/** Runs the primary until every server process has ended; resolves with the exit code to use. */
export function runClusterPrimary(options: ClusterOptions): Promise<number> {
  return new ClusterPrimary(options).run()
}

class ClusterPrimary {
  readonly #options: ClusterOptions
  readonly #seats: Seat[]
  readonly #registry = new Registry()
  readonly #restarts: Counter
  readonly #processesReady: Gauge
  #state: State = 'starting'
  #exitCode = 0
  #hardStop: NodeJS.Timeout | undefined
  #finish: ((code: number) => void) | undefined
  #nextId = 0
  #models: ModelCopies | undefined
  /** Per process, the scrapes waiting for its own metrics, by request id. */
  readonly #collecting = new Map<Worker, Map<number, (metrics: MetricsJson | undefined) => void>>()

  constructor(options: ClusterOptions) {
    this.#options = options
    this.#seats = Array.from({ length: options.processes }, (_, index) => ({
      index,
      worker: undefined,
      ready: false,
      failures: 0,
      respawn: undefined,
    }))
    const registers = [this.#registry]
    this.#restarts = new Counter({
      name: 'inferpool_process_restarts_total',
      help: 'Server processes replaced after they exited (inferpool serve --processes).',
      registers,
    })
    const seats = this.#seats
    new Gauge({
      name: 'inferpool_processes',
      help: 'Server processes configured (inferpool serve --processes).',
      registers,
      collect() {
        this.set(seats.length)
      },
    })
    this.#processesReady = new Gauge({
      name: 'inferpool_processes_ready',
      help: 'Server processes whose models are loaded and that take connections now: those whose own metrics this scrape sums.',
      registers,
    })
  }

  async run(): Promise<number> {
    try {
      this.#models = await copyModels((this.#options.model ?? []).map((m) => m.path))
    } catch (error) {
      this.#options.error(`inferpool: a model failed to load: ${(error as Error).message}`)
      return 1
    }
    const done = new Promise<number>((resolve) => (this.#finish = resolve))
    for (const signal of SIGNALS) process.on(signal, this.#onSignal)
    this.#options.log(`inferpool: starting ${this.#seats.length} server processes…`)
    for (const seat of this.#seats) this.#fork(seat)
    return done.finally(async () => {
      for (const signal of SIGNALS) process.off(signal, this.#onSignal)
      await this.#models?.remove()
    })
  }

  #fork(seat: Seat): void {
    seat.respawn = undefined
    const worker = cluster.fork({ ...this.#models?.env, INFERPOOL_PROCESS_INDEX: String(seat.index) })
    seat.worker = worker
    seat.ready = false
    this.#collecting.set(worker, new Map())
    worker.on('message', (message: unknown) => {
      if (isOurs<ToPrimary>(message)) this.#onMessage(seat, worker, message)
    })
    // Sending to a process that just died fails asynchronously; its 'exit' handles the rest.
    worker.on('error', () => {})
    worker.once('exit', (code, signal) => this.#onExit(seat, worker, code, signal))
  }

  #send(worker: Worker, message: ToServer): void {
    if (worker.isConnected()) worker.send(message)
  }

  #onMessage(seat: Seat, worker: Worker, message: ToPrimary): void {
    switch (message.type) {
      case 'inferpool:ready': {
        if (seat.worker !== worker) return
        seat.ready = true
        seat.failures = 0
        if (this.#state === 'stopping') {
          // It loaded after the drain began: it was told to shut down already (see #stop).
          return
        }
        if (this.#state === 'starting' && this.#seats.every((s) => s.ready)) {
          this.#state = 'serving'
          const grpcPart = message.grpcAddress === undefined ? '' : ` and grpc://${message.grpcAddress}`
          this.#options.log(
            `inferpool listening on ${message.url}${grpcPart} (${this.#seats.length} server processes share the port` +
              `${message.grpcAddress === undefined ? '' : 's'})`,
          )
          for (const line of message.banner) this.#options.log(line)
          this.#options.log('inferpool: ready')
        } else if (this.#state === 'serving') {
          this.#options.log(`inferpool: server process ${worker.process.pid} is ready (replacing one that exited)`)
        }
        return
      }
      case 'inferpool:aggregate': {
        this.#aggregate().then(
          (text) => this.#send(worker, { type: 'inferpool:aggregated', id: message.id, text }),
          (error: unknown) =>
            this.#send(worker, { type: 'inferpool:aggregated', id: message.id, error: (error as Error).message ?? String(error) }),
        )
        return
      }
      case 'inferpool:own-metrics': {
        const waiting = this.#collecting.get(worker)
        waiting?.get(message.id)?.(message.metrics)
        waiting?.delete(message.id)
        return
      }
    }
  }

  #onExit(seat: Seat, worker: Worker, code: number | null, signal: string | null): void {
    for (const settle of this.#collecting.get(worker)?.values() ?? []) settle(undefined)
    this.#collecting.delete(worker)
    if (seat.worker !== worker) return
    const wasReady = seat.ready
    seat.worker = undefined
    seat.ready = false
    const pid = worker.process.pid

    if (this.#state === 'stopping') {
      if (code !== 0) this.#exitCode = 1
      this.#finishIfAllExited()
      return
    }
    if (this.#state === 'starting' && !wasReady) {
      this.#options.error(`inferpool: server process ${pid} ${describeExit(code, signal)} before it was ready; stopping`)
      this.#stop(1)
      return
    }
    this.#restarts.inc()
    if (!wasReady) seat.failures++
    const delay = restartDelayMs(seat.failures)
    this.#options.error(`inferpool: server process ${pid} ${describeExit(code, signal)}; starting a replacement in ${delay} ms`)
    seat.respawn = setTimeout(() => this.#fork(seat), delay)
  }

  readonly #onSignal = (signal: NodeJS.Signals): void => {
    if (this.#state === 'stopping') {
      this.#options.error(`inferpool: ${signal} again, exiting now`)
      for (const seat of this.#seats) seat.worker?.process.kill('SIGKILL')
      process.exit(1)
    }
    this.#options.log(
      `inferpool: ${signal} received, draining ${this.#seats.length} server processes (up to ${this.#options.shutdownTimeoutMs} ms)`,
    )
    this.#stop(0)
  }

  #stop(exitCode: number): void {
    this.#state = 'stopping'
    this.#exitCode = Math.max(this.#exitCode, exitCode)
    for (const seat of this.#seats) {
      clearTimeout(seat.respawn)
      seat.respawn = undefined
      // Server processes ignore signals (a terminal's Ctrl-C reaches the whole process
      // group): the primary alone decides when they drain.
      if (seat.worker !== undefined) this.#send(seat.worker, { type: 'inferpool:shutdown' })
    }
    this.#hardStop = setTimeout(() => {
      this.#exitCode = 1
      for (const seat of this.#seats) seat.worker?.process.kill('SIGKILL')
    }, this.#options.shutdownTimeoutMs + HARD_STOP_GRACE_MS)
    this.#finishIfAllExited()
  }

  #finishIfAllExited(): void {
    if (this.#seats.some((seat) => seat.worker !== undefined)) return
    clearTimeout(this.#hardStop)
    this.#options.log(
      this.#exitCode === 0 ? 'inferpool: shut down cleanly' : 'inferpool: shutdown did not complete cleanly in every server process',
    )
    this.#finish?.(this.#exitCode)
  }

  /** Every ready process's own metrics and the primary's, aggregated by prom-client. */
  async #aggregate(): Promise<string> {
    const id = this.#nextId++
    const serving = this.#seats.flatMap((seat) => (seat.ready && seat.worker !== undefined ? [seat.worker] : []))
    const replies = (await Promise.all(serving.map((worker) => this.#collect(worker, id)))).filter((r): r is MetricsJson => r !== undefined)
    // `inferpool_processes_ready` counts the processes whose metrics are summed, so that
    // one scrape is one snapshot. Counted from the seats instead, it disagreed with the
    // sum of their replicas both ways: a process killed a moment ago is still marked ready
    // until its 'exit' arrives (asked, it never answers), and one that became ready while
    // the replies came in was not asked.
    this.#processesReady.set(replies.length)
    return AggregatorRegistry.aggregate([...replies, await this.#registry.getMetricsAsJSON()]).metrics()
  }

  /** One process's own metrics; `undefined` if it exits or does not answer in time. */
  #collect(worker: Worker, id: number): Promise<MetricsJson | undefined> {
    const waiting = this.#collecting.get(worker)
    if (waiting === undefined || !worker.isConnected()) return Promise.resolve(undefined)
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), COLLECT_TIMEOUT_MS)
      const settle = (metrics: MetricsJson | undefined): void => {
        clearTimeout(timer)
        waiting.delete(id)
        resolve(metrics)
      }
      waiting.set(id, settle)
      this.#send(worker, { type: 'inferpool:collect', id })
    })
  }
}
