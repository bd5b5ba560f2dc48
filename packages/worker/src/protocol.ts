/**
 * The host ↔ worker wire contract, defined once (as piscina's `src/types.ts` and
 * tinypool's `src/common.ts` do). The worker side builds these messages; the host
 * imports them with `import type` only, so nothing here may carry runtime code.
 *
 * Two channels cross the thread boundary:
 * - piscina's task channel: one {@link WorkerTask} in, one {@link TaskResult} out.
 *   A worker handler never throws: every failure comes back as a `TaskResult` with
 *   `ok: false`, so a rejected `piscina.run()` always means the worker thread died.
 * - a per-pool `BroadcastChannel` (its name in {@link WorkerBootData}): each worker
 *   posts one {@link LoadReport} when its start-up load settles. The host counts
 *   reports by `threadId`, which piscina's balancer cannot promise for start-up tasks.
 */
import type { SerializedError } from '@inferpool/core'
import type { TYPED_ARRAY_OF } from './tensor-types.js'

export type { SerializedError }

/**
 * ONNX element types that travel between threads (as ORT's `Tensor.Type` names them): the
 * keys of the one table, tensor-types.ts. `float16` is carried as its raw bits (a
 * Uint16Array), as ORT's Node binding holds it; `string` (the protocol's BYTES) as one
 * buffer in the BYTES wire form, each element a 4-byte little-endian length then its
 * UTF-8 bytes (strings.ts).
 */
export type WireTensorType = keyof typeof TYPED_ARRAY_OF

/**
 * A whole-batch tensor. `buffer` holds exactly the tensor's elements from byte 0 and
 * is owned by the message: the sender transfers it (it is detached on the sending
 * side). Never a view over Node's shared Buffer slab (Node 20 would silently clone
 * it) and never a SharedArrayBuffer (ORT rejects typed arrays over one).
 */
export interface WireTensor {
  type: WireTensorType
  /** Full dims, batch dimension first. */
  dims: number[]
  buffer: ArrayBuffer
}

/** A model input or output as the model declares it. */
export interface WireTensorInfo {
  name: string
  type: WireTensorType
  /** Declared dims; a string (symbolic name) or -1 for a dynamic axis. */
  dims: Array<number | string>
}

/** What a worker says about what it serves (returned by `describe(state)`). */
export interface WorkerDescription {
  inputs: WireTensorInfo[]
  outputs: WireTensorInfo[]
  /** Free-form facts for `pool.metadata` (e.g. the execution provider in use). */
  [key: string]: unknown
}

/** The batch the ONNX tensor worker receives: one packed tensor per input. */
export interface TensorBatch {
  /** Rows in the batch (the first dim of every input). */
  rows: number
  inputs: Record<string, WireTensor>
}

/** What the ONNX tensor worker returns: one tensor per output, batch dim first. */
export interface TensorBatchOutput {
  outputs: Record<string, WireTensor>
  /**
   * When the session's `run` started and returned, in ms on the clock every thread of
   * the process shares (`performance.timeOrigin + performance.now()`), so the host can
   * split a batch's time into input preparation, the model run and output handling.
   */
  timing?: RunTiming
}

/** Start and end of one `session.run`, in ms on the process-wide clock (see `TensorBatchOutput.timing`). */
export interface RunTiming {
  runStartMs: number
  runEndMs: number
}

/** Runs one batch. `payload` is a `TensorBatch` for the ONNX worker, the items array for a user worker. */
export interface RunTask {
  kind: 'run'
  batchId: number
  payload: unknown
  /**
   * The deadline of each of the callers' rows, in payload order (fill rows of a fixed
   * batch size have none), in ms on the shared clock (shared-clock.ts `sharedClockMs`);
   * `Infinity` for a row without one. Sent with `formation: 'deadline'` only. The
   * replica checks them right before it runs the batch, against `runMs`: a row whose
   * answer would come too late is not run (`RunSuccess.dropped`).
   * @default undefined (no row has a deadline)
   */
  deadlines?: number[]
  /**
   * How long after its run starts the batch's answer is due on the host, by the host's
   * latency model (the run and the way back).
   * @default 0
   */
  runMs?: number
}

/** Asks for the worker's description (loads first if the start-up load failed). */
export interface DescribeTask {
  kind: 'describe'
}

export type WorkerTask = RunTask | DescribeTask

/** Facts every result carries, for the host's per-replica bookkeeping. */
export interface ResultFacts {
  /** `worker_threads.threadId` of the worker that ran the task. */
  threadId: number
  /** ms the worker spent on the task (load retry included). */
  busyMs: number
}

export interface RunSuccess extends ResultFacts {
  ok: true
  kind: 'run'
  /**
   * What `run` returned. For a user worker an array in which a failed item is
   * replaced by a {@link ItemError}.
   */
  value: unknown
  /**
   * Rows of the task (indices, ascending) the replica left out because their answer
   * would have come after their deadline (`RunTask.deadlines`): `value` answers the
   * other rows only, in order. When it lists every row nothing ran and `value` is
   * `undefined`.
   * @default undefined (every row ran)
   */
  dropped?: number[]
}

export interface DescribeSuccess extends ResultFacts {
  ok: true
  kind: 'describe'
  description: WorkerDescription | null
}

/** The task failed as a whole: load failure, or `run` threw (`ERR_INFERENCE`). */
export interface TaskFailure extends ResultFacts {
  ok: false
  error: SerializedError
}

export type TaskResult = RunSuccess | DescribeSuccess | TaskFailure

/** Marker object standing in for an `Error` in one item of a user worker's result array. */
export interface ItemError {
  $inferpoolItemError: SerializedError
}

/** `workerData` of every inferpool worker thread (piscina's `workerData` option). */
export interface WorkerBootData {
  /** Name of the pool's `BroadcastChannel` for {@link LoadReport}s and {@link ControlMessage}s. */
  channel: string
  /** Passed to the definition's `load(options)`. */
  options: unknown
  /**
   * Longest wait for a load *retried* after a failed one (a task waits for it); past it
   * the task answers `ERR_MODEL_LOAD` and the next task tries again. The first load is
   * bounded by the host (it terminates a thread that does not report in time), but a
   * retry runs inside a task of a thread that is already up, where only this bounds it.
   * @default undefined (no bound)
   */
  loadTimeoutMs?: number
}

/** Posted by a worker on the pool's channel when its start-up load has settled. */
export type LoadReport =
  /** Its module has run (imports, native addons included, are done): from now on ending the thread cannot land in them. */
  | { type: 'booted'; threadId: number }
  | { type: 'loaded'; threadId: number; ok: true; description: WorkerDescription | null }
  | { type: 'loaded'; threadId: number; ok: false; error: SerializedError }
  | { type: 'disposed'; threadId: number }

/** Posted by the host on the pool's channel. */
export interface ControlMessage {
  type: 'dispose'
}

/** Codes of errors raised inside a worker (the host rebuilds each into its class). */
export type WorkerErrorCode =
  /** The model (or a user worker's `load`) failed to load. */
  | 'ERR_MODEL_LOAD'
  /** The requested execution provider's libraries are missing. */
  | 'ERR_PROVIDER_UNAVAILABLE'
  /** `run` failed for the batch (an ONNX Runtime error, or a user worker's exception). */
  | 'ERR_INFERENCE'

/*
 * Process mode (`isolation: 'process'`): each replica is a child process running
 * process-child.ts, which loads the same worker module. Payloads (the boot data, each
 * task, each result) never travel in the IPC message itself: they are written into a
 * per-replica shared-memory file (see process-wire.ts) and a message only says where
 * ({@link TransferLayout}): for each task and result a binary notice on a pipe of its own
 * (process-notice.ts); the control messages below are small JSON on the IPC channel.
 */

/** Where a payload sits in a transfer file: a v8-serialized head at byte 0, then each buffer at the next 8-byte boundary. */
export interface TransferLayout {
  /** Byte length of the v8-serialized value (buffers listed below are out of band). */
  head: number
  /** Byte length of each out-of-band ArrayBuffer, in order. */
  buffers: number[]
}

/** What a process-mode child reads from its boot transfer file before importing the worker module. */
export interface ProcessBoot {
  /** Absolute path of the worker module (built `.js`). */
  module: string
  boot: WorkerBootData
}

/** Host → child, over the IPC channel. `lane`: which of the replica's transfer files (one per batch in flight). */
export type HostMessage =
  /** `lanes`: how many transfer-file pairs the host created for this child (all of them are the child's to unlink if the host goes). */
  /** `rssEachBatch`: measure the RSS after every batch (a memory cap is set); otherwise at most every 250 ms. */
  /** `idleCollectMs`: quiet time after the last batch before the child collects its garbage (0: never; see idle-collection.ts). */
  { t: 'boot'; layout: TransferLayout; lanes: number; rssEachBatch: boolean; idleCollectMs: number } | { t: 'dispose' }

/** Child → host, over the IPC channel. `rss`: the child's resident set size in bytes when it sent this. */
export type ChildMessage =
  | { t: 'loaded'; ok: true; description: WorkerDescription | null; rss: number }
  | { t: 'loaded'; ok: false; error: SerializedError; rss: number }
  | { t: 'disposed' }
  /** The child ran one idle collection; `rss` is measured after it. */
  | { t: 'collected'; rss: number }
