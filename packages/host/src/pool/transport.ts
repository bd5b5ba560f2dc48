/**
 * The seam where a batch leaves the host for a replica.
 *
 * The pool's retry policy (retry a crashed batch once, split it, time it out,
 * re-route it: pool/retry-policy.ts) is written once, against this interface. A transport
 * owns everything about *how* replicas run: starting them, watching them die,
 * replacing them, moving a batch's buffers to them and the results back, timing a batch
 * out, and ending them. Two implement it:
 * - worker threads (piscina, pool/threads/), where buffers are transferred between threads;
 * - child processes (`isolation: 'process'`), where a native crash costs one replica.
 *
 * A transport never decides what a failure means for the callers: it reports what
 * happened as a {@link TransportFailure} with a `kind`, and the retry policy decides. A task
 * that reached a replica and came back (`ok: true` or `ok: false`) is a *result*, not a
 * failure: a worker's own error (`ERR_INFERENCE`, a failed load) is the result's
 * business, and the transport only reads it for its bookkeeping (a failed load).
 */
import type { RunTask, TaskResult, WorkerDescription } from '@inferpool/worker'
import type { ReplicaStats } from '../types.js'
import type { ResolvedPoolOptions } from './options.js'

/** What became of a batch that a transport could not get a result for. */
export type TransportFailureKind =
  /** The replica running it died (exit, signal, crash). Re-running it may succeed. */
  | 'crashed'
  /**
   * It ran past `SendOptions.timeoutMs`. The send settles at once; the transport has
   * taken the replica out of service (it takes no new batch) and replaces it as soon as
   * that is safe (a thread: once its native call has returned; a process: at once).
   */
  | 'timeout'
  /** It could not be sent (its payload cannot be serialized): the caller's input is at fault. */
  | 'unsendable'
  /** It was never run: the replicas it was queued for were retired. Send it again. */
  | 'rerouted'
  /** No replica can run anything now (every one is down and replacements keep dying). */
  | 'unavailable'
  /** The transport was destroyed while the batch was queued or in flight. */
  | 'closed'

/** A batch the transport could not get a result for, and why. */
export interface TransportFailure {
  readonly kind: TransportFailureKind
  /** What the transport saw (the exit, the signal, the clone error), as a sentence fragment. */
  readonly reason: string
  /** The underlying error, if any. */
  readonly cause?: unknown
  /**
   * Facts for the caller's error `details` (exit code, signal, pid…). For `crashed`:
   * `loadDeath`, why a replacement replica died while loading during this send, when
   * one did (the likelier cause of a crash that repeats).
   */
  readonly details?: Record<string, unknown>
}

/** One send: either the replica's result, or why there is none. */
export type SendOutcome = { readonly ok: true; readonly result: TaskResult } | { readonly ok: false; readonly failure: TransportFailure }

export interface SendOptions {
  /** Fail the batch with `kind: 'timeout'` after this many ms. @default undefined (no limit) */
  timeoutMs?: number
  /**
   * The callers' rows in the batch, for the per-replica figures (`ReplicaStats.rows`):
   * the payload may hold more (a fixed-batch model's padding).
   * @default 0
   */
  rows?: number
}

/**
 * Events a transport reports to the pool (for stats, metrics and observers). Called
 * from the transport's own listeners: a hook that throws is the pool's bug, but the
 * transport still catches it (an exception there would be uncaught in the host).
 */
export interface TransportEvents {
  /** A replica went down without being asked to (or was recycled after a timeout) and will be replaced. */
  onReplicaRestart?(event: { replica: number; reason: string }): void
  /** A whole new set of replicas replaced one that stopped being replaced. */
  onRebuild?(event: { generation: number; reason: string }): void
}

export interface ReplicaTransport {
  /**
   * It writes a tensor batch's rows where they go itself (process mode: straight into a
   * replica's transfer file), so the pool hands it a batch as its rows' own arrays
   * (pack.ts `BatchPieces`) rather than one packed buffer per input to transfer.
   * @default false
   */
  readonly takesPieces?: boolean
  /**
   * Starts every replica and resolves with the worker's description once all have
   * loaded. Rejects with `ModelLoadError`, `ProviderUnavailableError`,
   * `WorkerCrashedError` or `StartupTimeoutError`, and leaves nothing running (a
   * replica inside a native load is ended once that load returns, in the background).
   */
  start(): Promise<WorkerDescription | null>
  /**
   * Sends one batch to some replica. Never rejects: a failure is an outcome. The task
   * is handed over synchronously: when `send` returns, `transfer` (the buffers the
   * payload owns) belongs to the transport — detached in thread mode unless the task
   * had to wait in the transport's queue — so a re-run must pack the batch again.
   */
  send(task: RunTask, transfer: ArrayBuffer[], options?: SendOptions): Promise<SendOutcome>
  /** Per-replica figures for `pool.stats` (a fresh snapshot per read). */
  readonly replicas: ReplicaStats[]
  /** Replica restarts, summed. */
  readonly restarts: number
  /** Whole-set rebuilds. */
  readonly rebuilds: number
  /**
   * Ends every replica gracefully once nothing is in flight: each releases its session,
   * then exits. Bounded: a replica that does not exit in time is stopped by force
   * (never a thread inside a native call: see `destroy`). Call it once the pool has
   * stopped sending; a later `destroy()` still takes over at once.
   */
  close(): Promise<void>
  /**
   * Ends every replica now. Queued and in-flight sends settle with `kind: 'closed'` at
   * once. Resolves when nothing the transport started is left running, or, for a thread
   * inside a native call that cannot be interrupted, once that call has returned and the
   * thread has ended (a `run` that never returns in plain JS does not delay it).
   */
  destroy(): Promise<void>
}

/** How the pool makes a transport (one per `createPool` attempt: a CPU fallback makes a second). */
export type ReplicaTransportFactory = (options: ResolvedPoolOptions, events: TransportEvents) => ReplicaTransport
