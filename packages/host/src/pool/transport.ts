/**
 * The seam where a batch leaves the host for a replica.
 *
 * The pool's dispatch policy (retry a crashed batch once, split it, time it out,
 * re-route it) is written once, against this interface. A transport owns everything
 * about *how* replicas run: starting them, watching them die, replacing them, moving a
 * batch's buffers to them and the results back, and ending them. Two implement it:
 * - worker threads (piscina), where buffers are transferred between threads;
 * - child processes (`isolation: 'process'`), where a native crash costs one replica.
 *
 * A transport never decides what a failure means for the callers: it reports what
 * happened as a {@link TransportFailure} with a `kind`, and dispatch decides.
 */
import type { RunTask, TaskResult, WorkerDescription } from '@inferpool/worker'
import type { ReplicaStats } from '../types.js'

/** What became of a batch that a transport could not get a result for. */
export type TransportFailureKind =
  /** The replica running it died (exit, signal, crash). Re-running it may succeed. */
  | 'crashed'
  /** It ran past the batch time limit; the transport has taken the replica out of service. */
  | 'timeout'
  /** It could not be sent (its payload cannot be serialized): the caller's input is at fault. */
  | 'unsendable'
  /** It was never run: the replicas it was queued for were retired. Send it again. */
  | 'rerouted'
  /** No replica can run anything now (every one is down and replacements keep dying). */
  | 'unavailable'
  /** The transport was destroyed while the batch was in flight. */
  | 'closed'

/** A batch the transport could not get a result for, and why. */
export interface TransportFailure {
  readonly kind: TransportFailureKind
  /** What the transport saw (the exit, the signal, the clone error). */
  readonly reason: string
  /** The underlying error, if any. */
  readonly cause?: unknown
  /** Facts for the caller's error `details` (exit code, signal, pid…). */
  readonly details?: Record<string, unknown>
}

/** One send: either the replica's result, or why there is none. */
export type SendOutcome = { readonly ok: true; readonly result: TaskResult } | { readonly ok: false; readonly failure: TransportFailure }

export interface SendOptions {
  /** Fail the batch with `kind: 'timeout'` after this many ms. @default undefined (no limit) */
  timeoutMs?: number
}

/** Events a transport reports to the pool (for stats, metrics and observers). */
export interface TransportEvents {
  /** A replica went down without being asked to and will be replaced. */
  onReplicaRestart?(event: { replica: number; reason: string }): void
  /** A whole new set of replicas replaced one that stopped being replaced. */
  onRebuild?(event: { generation: number; reason: string }): void
  /** A replica's load settled: `true`, or the load error's message. */
  onReplicaLoad?(event: { replica: number; outcome: true | string }): void
}

export interface ReplicaTransport {
  /**
   * Starts every replica and resolves with the worker's description once all have
   * loaded. Rejects with `ModelLoadError`, `ProviderUnavailableError`,
   * `WorkerCrashedError` or `StartupTimeoutError`, and leaves nothing running.
   */
  start(): Promise<WorkerDescription | null>
  /**
   * Sends one batch to some replica. Never rejects: a failure is an outcome. `transfer`
   * lists the buffers the payload owns; after the call they belong to the transport
   * (detached in thread mode), so a re-run must pack the batch again.
   */
  send(task: RunTask, transfer: ArrayBuffer[], options?: SendOptions): Promise<SendOutcome>
  /** Per-replica figures for `pool.stats`. */
  readonly replicas: ReplicaStats[]
  /** Replica restarts, summed. */
  readonly restarts: number
  /** Whole-set rebuilds. */
  readonly rebuilds: number
  /**
   * Ends every replica gracefully once nothing is in flight: each releases its session,
   * then exits. Bounded: a replica that does not exit in time is stopped by force.
   */
  close(): Promise<void>
  /**
   * Ends every replica now. In-flight sends settle with `kind: 'closed'`. Resolves when
   * nothing the transport started is left running (or, for a thread inside a native
   * call that cannot be interrupted, when it is certain to end once that call returns).
   */
  destroy(): Promise<void>
}
