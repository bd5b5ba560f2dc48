/**
 * Public types of the pool. The server, the CLI, the comlink bridge and the bench
 * are written against these: extend them, but do not rename or remove fields.
 */
import type { ResourceLimits } from 'node:worker_threads'
import type { AdmissionState, BatcherObserver, BatcherStats, DynamicBatcherOptions } from '@inferpool/core'
import type { WireTensorType } from '@inferpool/worker'
import type { Context } from '@opentelemetry/api'

/**
 * ONNX element types the pool moves between threads. Defined once, in the host↔worker
 * wire contract of @inferpool/worker.
 */
export type TensorType = WireTensorType

export type TypedArray =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array

/**
 * Elements of a `string` tensor (ONNX string; the protocol's BYTES): one JS string per
 * element, row-major. Between threads they travel as one buffer (see @inferpool/worker's
 * `encodeStrings`).
 */
export type StringData = string[]

/** Elements of a tensor: a typed array (numbers, `bool` as bytes, `float16` as its bits), or strings. */
export type TensorData = TypedArray | StringData

/** One row of one input, without the batch dimension. */
export interface RowTensor {
  data: TensorData
  /** Dims of the row without the batch dimension (needed for dynamic axes). */
  dims: readonly number[]
}

/**
 * One request: each model input by name, as its data (a typed array, or strings for a
 * `string` input; row dims from the model) or `{ data, dims }`.
 */
export type RowInput = Record<string, TensorData | RowTensor>

/** One output tensor of one row, without the batch dimension. */
export interface OutputTensor {
  type: TensorType
  /** A typed array, or strings for a `string` output. */
  data: TensorData
  dims: number[]
}

/** One row's outputs by output name. */
export type RowOutput = Record<string, OutputTensor>

/**
 * A request of several rows as one tensor per model input (`pool.inferBlock`): `dims`
 * is the row count followed by the model's row dims, `data` every row's elements in
 * row order.
 */
export type BlockInput = Record<string, { data: TypedArray; dims: readonly number[] }>

/** `inferBlock`'s outputs: one tensor per model output, the row count first in `dims`. */
export type BlockOutput = Record<string, OutputTensor>

/** Options of one `infer()` call. */
export interface InferOptions {
  /** Aborts the request; it rejects with `signal.reason`. Cancelled in the host only (a running batch finishes). @default undefined */
  signal?: AbortSignal
  /** Rejects with `TimeoutError` (`ERR_TIMEOUT`) after this many ms. Overrides the pool's `timeoutMs`. @default the pool's `timeoutMs` */
  timeoutMs?: number
  /** Higher first; FIFO within a priority. Refused with `priorityLevels` (use `priorityLevel`). @default 0 */
  priority?: number
  /**
   * With the pool's `priorityLevels`: Triton's request `priority` — 1 is the highest
   * level; 0, or a level above `priorityLevels`, means `defaultPriorityLevel` (as Triton
   * does). Ignored without `priorityLevels`.
   * @default 0 (the default level)
   */
  priorityLevel?: number
  /** Cost of this request against `batching.maxBatchCost` (e.g. its tokens). Overrides the pool's `cost`. @default 1 */
  cost?: number
  /**
   * The OpenTelemetry context of the request (its span: `trace.setSpan(context.active(), span)`).
   * When an OpenTelemetry SDK is registered and that span is sampled, the pool adds the
   * request's `queue` and `execute` spans under it and the `batch <model>` span that
   * carries it (docs/observability.md). Without an SDK nothing is made.
   * @default the active context (`context.active()`) when an SDK is registered
   */
  context?: Context
}

/** A model input or output as the model declares it (including the batch dimension). */
export interface TensorInfo {
  name: string
  type: TensorType
  /** Declared dims; a string or -1 for a symbolic/dynamic axis. */
  dims: Array<number | string>
}

export interface PoolMetadata {
  inputs: TensorInfo[]
  outputs: TensorInfo[]
  /** Effective max batch size: the batching option capped by a fixed batch dim, or lowered to 1 at run time. */
  maxBatchSize: number
  /** The model's fixed batch size, or `null` when the batch axis is dynamic. */
  fixedBatchSize: number | null
  /** Why `maxBatchSize` is lower than configured, when it is. */
  maxBatchSizeReason?: string
  replicas: number
  concurrency: number
  executionProvider: 'cpu' | 'cuda'
  /** Model path, or `'<bytes>'` when given as bytes. */
  model: string
  /**
   * Hex SHA-256 of the model bytes every replica runs (the built-in ONNX worker; absent
   * for a user worker). Read once when the pool was created: replacing the file on
   * disk changes nothing until a new pool loads it.
   */
  modelSha256?: string
}

/**
 * Where a replica stands: `'ready'` (its session is loaded), `'loading'` (a thread is
 * loading it), `'failed'` (its thread's load failed: it answers `ModelLoadError` and
 * retries the load on each batch), `'down'` (no thread: being replaced or rebuilt).
 */
/**
 * - `overdue`: out of service after a batch ran past `batchTimeoutMs` (or a load past
 *   `startupTimeoutMs`); it takes no new batch and is replaced once its native call has
 *   returned (`lastError` says why).
 */
export type ReplicaState = 'ready' | 'loading' | 'failed' | 'overdue' | 'down'

export interface ReplicaStats {
  id: number
  /** Batches completed by this replica. */
  batches: number
  /** Rows completed by this replica. */
  rows: number
  /** Total ms this replica had at least one batch in flight. */
  busyMs: number
  /** Batches in flight on this replica now. */
  inFlight: number
  /** How many times this replica's worker thread was replaced after a crash. */
  restarts: number
  /** Where the replica stands now. */
  state: ReplicaState
  /** With `state: 'failed'`: the load's error message; with `'overdue'`: why it is out of service. */
  lastError?: string
  /** Process mode: the replica's process id (absent while it is down). */
  pid?: number
  /** Process mode: its resident set size in bytes, as last reported (after its load, then after each batch). */
  rssBytes?: number
  /**
   * Process mode: restarts by cause — a signal name (`'SIGABRT'`), `'exit 3'`,
   * `'timeout'` (killed by `batchTimeoutMs`) or `'memory'` (recycled by `processes.maxRssMb`).
   */
  restartCauses?: Record<string, number>
  /** Process mode: idle garbage collections run by this replica's processes (`processes.idleCollectMs`). */
  idleCollections?: number
}

export interface PoolStats extends BatcherStats {
  replicas: ReplicaStats[]
  /** Worker restarts over all replicas. */
  restarts: number
  /** Rows failed with `WorkerCrashedError`. */
  crashed: number
  /**
   * Times the pool started a whole new set of worker threads because piscina had
   * stopped replacing dead ones (a replacement died while loading).
   */
  rebuilds: number
}

/** Triton's `ModelQueuePolicy`, in its own units and with its own defaults. */
export interface QueuePolicy {
  /**
   * `timeout_action`: what happens to a row whose timeout passes. `'reject'`: it fails
   * (`TimeoutError`; with `batching.formation: 'deadline'`, `DeadlineExceededError` as
   * soon as it cannot make it). `'delay'` (Triton's DELAY): a queued row is not failed
   * but moved behind every row of its priority level (and the levels above) still in
   * time, ahead of the levels below, and waits with no timeout; a running row finishes.
   * @default 'reject'
   */
  timeoutAction?: 'reject' | 'delay'
  /**
   * `default_timeout_microseconds`: the timeout of a row whose request gives none, in
   * microseconds (0: none).
   * @default 0
   */
  defaultTimeoutMicroseconds?: number
  /**
   * `allow_timeout_override`: whether a request's own timeout (`infer`'s `timeoutMs`,
   * which the server sets from its `timeoutMs`, `parameters.timeout` and a gRPC
   * deadline) replaces the default. `false`, as in Triton: the default holds for every
   * row, and a request's own timeout is ignored.
   * @default false
   */
  allowTimeoutOverride?: boolean
  /**
   * `max_queue_size`: most rows queued (0: unbounded); a request that would exceed it
   * is refused (`QueueFullError`, 503 / UNAVAILABLE). With `priorityLevels`, a bound per
   * level, on the level's rows not yet answered (queued or running; Triton counts the
   * queued ones only).
   * @default 0
   */
  maxQueueSize?: number
}

/** Batching options of a pool: the batcher's, minus what the pool derives itself. */
export type BatchingOptions = Pick<
  DynamicBatcherOptions<unknown>,
  | 'maxBatchSize'
  | 'minBatchSize'
  | 'maxWaitMs'
  | 'maxQueueSize'
  | 'whenFull'
  | 'maxBatchCost'
  | 'isolateFailures'
  | 'statsWindow'
  | 'formation'
  | 'latencyModel'
>

export type ExecutionProvider = 'cpu' | 'cuda' | { name: 'cuda'; deviceId?: number | number[] }

/** ONNX Runtime session options the pool passes through. */
export interface SessionOptions {
  /** @default ['cpu'] */
  executionProviders?: ExecutionProvider[]
  /** @default max(1, floor(cores / replicas)) */
  intraOpNumThreads?: number
  /** @default 1 */
  interOpNumThreads?: number
  /** @default 'all' */
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all'
  /** Let intra-op threads spin while waiting. Off by default: cores are shared between replicas. @default false */
  allowSpinning?: boolean
  /**
   * ONNX Runtime's log level: 0 verbose, 1 info, 2 warning, 3 error, 4 fatal. Sets the
   * session's `logSeverityLevel` and ORT's process-wide `env.logLevel` (which also
   * covers messages logged before a session exists, such as a CUDA provider that
   * cannot load). Fatal only by default: every error ORT would print (a failed run, a
   * provider that cannot load) already reaches the caller as a typed error with ORT's
   * message (`InferenceError`, `ModelLoadError`, `ProviderUnavailableError`), so
   * printing it too only duplicates it — once per split re-run of a failing batch,
   * which a client sending bad rows can multiply. Set 2 or 3 to see ORT's own logs.
   * @default 4
   */
  logSeverityLevel?: 0 | 1 | 2 | 3 | 4
}

/** Pad rows of an input along its dynamic axis to the longest row in the batch. */
export interface PaddingOptions {
  /** Value used for padding. @default 0 */
  value?: number | bigint
  /** Axis of the row (without batch dim) that varies. @default 0 */
  axis?: number
  /**
   * Output row axes to cut back to each row's own length, by output name. By default
   * every output axis with the same symbolic name as the padded input axis (e.g.
   * `seq` in `input_ids: [batch, seq]` and `token_embeddings: [batch, seq, dim]`).
   * @default derived from the model's symbolic dim names
   */
  outputAxes?: Record<string, number>
}

/** Options of process-isolated replicas (`isolation: 'process'`). */
export interface ProcessOptions {
  /**
   * Environment variables of the replica processes, over the host's own. An array
   * gives replica `i` the entry `i % length`: one GPU per replica is
   * `[{ CUDA_VISIBLE_DEVICES: '0' }, { CUDA_VISIBLE_DEVICES: '1' }]`. A replacement
   * process gets its replica's entry again.
   * @default {} (the host's environment)
   */
  env?: Readonly<Record<string, string>> | ReadonlyArray<Readonly<Record<string, string>>>
  /**
   * Recycles a replica whose resident memory is above this many MiB after a batch (it
   * finishes what it holds, releases its session, exits, and a new process loads).
   * Counted in `restartCauses.memory`.
   * @default undefined (no cap)
   */
  maxRssMb?: number
  /**
   * Once a replica process has run no batch for this many ms after running some, it runs
   * a full garbage collection, and one more about five seconds later if it is still
   * quiet (the second gives back V8's young generation). Without them an idle replica
   * keeps the buffers of the batches it last read, and its grown heap, until it next
   * gets work: measured at about 45 MiB per replica after a burst. Each collection is
   * counted in its `ReplicaStats.idleCollections`, and updates its `rssBytes`. 0 turns
   * them off.
   * @default 1000
   */
  idleCollectMs?: number
}

export interface PoolOptions {
  /** Path to an `.onnx` file, or its bytes. */
  model: string | Uint8Array
  /**
   * How replicas run. `'thread'`: worker threads of this process (the fastest hand-over;
   * a native abort in one ends the process). `'process'`: one child process each, fed
   * through shared-memory files; a native crash costs only the batch it ran, and a
   * stuck replica can be killed at any time. See the host README, "Threads or processes".
   * @default 'thread'
   */
  isolation?: 'thread' | 'process'
  /** Process-mode settings; only with `isolation: 'process'`. @default {} */
  processes?: ProcessOptions
  /** Worker threads, each with one cached session. @default min(2, available cores) */
  replicas?: number
  /** Batches in flight per replica (piscina `concurrentTasksPerWorker`). @default 1 */
  concurrency?: number
  /**
   * Keep one more session of the model on the host thread, and run there the batch of a
   * few rows that finds every replica idle: a lone request then skips the hand-off to a
   * sleeping thread and back. Under load the replicas take every batch. Released for
   * good once the model's runs take over 1 ms on the host and then on a replica (the
   * host thread would stall that long); slow host runs alone only mean a busy host.
   * Only for the built-in ONNX worker, thread replicas and the CPU provider (ignored
   * otherwise, and with `batchTimeoutMs`: a run on the host cannot be cut short). It costs
   * the memory of one more session; its batches count in the pool's figures
   * (`stats.batches`), in no replica's.
   * @default true
   */
  hostSession?: boolean
  /**
   * Batching options. The pool's defaults differ from the batcher's:
   * `maxBatchSize` 128 (capped by a fixed batch dim), `maxWaitMs` 0, `isolateFailures`
   * true; `maxConcurrentBatches` is always `replicas × concurrency`.
   * @default { maxBatchSize: 128, maxWaitMs: 0, isolateFailures: true }
   */
  batching?: BatchingOptions
  /**
   * Cost of one request against `batching.maxBatchCost`, computed on the caller's
   * thread. @default input.estimateCost?.() ?? input.estimateTokens?.() ?? 1
   */
  cost?: (input: unknown) => number
  /**
   * ONNX Runtime session options for every replica's session (see `SessionOptions` for
   * each field's default: CPU, `intraOpNumThreads` = max(1, floor(cores / replicas)),
   * spinning off, logging at fatal only).
   * @default {}
   */
  session?: SessionOptions
  /** Per input name: pad rows to the longest in the batch instead of batching by shape. @default {} (rows batch by shape) */
  padding?: Record<string, PaddingOptions>
  /** Default per-request timeout in ms. @default undefined (none) */
  timeoutMs?: number
  /**
   * Triton's queue policy (a model config's `dynamic_batching.default_queue_policy`),
   * field for field, so a repository's config.pbtxt maps onto it directly. Given, it
   * replaces `timeoutMs` and `batching.maxQueueSize` (giving both is refused). See the
   * host README, "Triton's queue policy".
   * @default undefined (`timeoutMs` and `batching` alone; a request's own timeout wins)
   */
  queuePolicy?: QueuePolicy
  /**
   * Triton's `priority_levels`: requests choose a level with `InferOptions.priorityLevel`
   * (1 first); rows of a higher level always go before those of a lower one, FIFO
   * within a level. 0: no levels (`InferOptions.priority` orders rows instead).
   * @default 0
   */
  priorityLevels?: number
  /** Triton's `default_priority_level`: the level of a request that names none; required, in [1, priorityLevels], with levels. @default undefined */
  defaultPriorityLevel?: number
  /**
   * Triton's `priority_queue_policy`: a queue policy per level (keys 1..priorityLevels);
   * a level without one follows `queuePolicy` (Triton's `default_queue_policy`).
   * @default {}
   */
  priorityQueuePolicy?: Record<number, QueuePolicy>
  /** With `'cpu'`, a pool that asks for CUDA and cannot load it falls back to CPU with a warning. @default undefined (no fallback) */
  fallback?: 'cpu'
  /**
   * A user's own worker module (built `.js`, default export from `defineWorker`). The
   * pool then sends each batch as the array of inputs given to `infer` and expects a
   * result array of the same length. @default the built-in ONNX tensor worker
   */
  worker?: string | URL
  /** Passed to a user worker's `load(options)`. @default undefined */
  workerOptions?: unknown
  /** Memory limits of each worker thread; a worker over them is killed and replaced like a crash. @default undefined (Node's defaults) */
  resourceLimits?: ResourceLimits
  /** Longest wait for every replica to load. @default 60000 */
  startupTimeoutMs?: number
  /**
   * Longest time one batch may run on a worker. A batch past it fails its callers at
   * once with `BatchTimeoutError` (`ERR_BATCH_TIMEOUT`); its replica is taken out of
   * service (`state: 'overdue'`, no new batch) and replaced — a user worker's thread at
   * once (the way to get a thread back from a `run` that never returns), an ONNX thread
   * only once its native `run` has returned (terminating it inside the call aborts the
   * process; docs/runtime-facts.md). The batcher then splits the batch, so only rows
   * that time out alone fail. Without it, such a batch holds its requests (unless they
   * have a `timeoutMs`), its replica and `close()` (`destroy()` still ends them). The
   * time counts from when the batch is handed to the replicas, including a wait for a
   * free or replacement thread: set it well above a batch's run time.
   * @default undefined (no bound)
   */
  batchTimeoutMs?: number
  /** Where warnings go (fallbacks, batch-size lowering). @default console */
  logger?: Pick<Console, 'warn' | 'info'>
  /**
   * How traces name the model: the `batch <model>` span and its `inferpool.model.version`
   * attribute (docs/observability.md).
   * @default { model: the model file's name without `.onnx` (or 'model' for bytes) }
   */
  labels?: PoolLabels
}

/** Names a pool's model in traces (`PoolOptions.labels`). */
export interface PoolLabels {
  /** @default the model file's name without `.onnx` ('model' for bytes or a user worker without a path) */
  model?: string
  /** @default undefined (no `inferpool.model.version` attribute) */
  version?: string
}

/** Phases of one successful batch of a tensor pool, in ms (see `PoolObserver.onBatchTimings`). */
export interface BatchTimingsEvent {
  batchId: number
  /** Rows of the callers in the batch (without fill rows of a fixed batch size). */
  rows: number
  inputMs: number
  inferMs: number
  outputMs: number
}

/** Observer of a pool: the batcher's events plus worker restarts. */
export interface PoolObserver extends BatcherObserver {
  onWorkerRestart?(event: { replica: number; reason: string }): void
  /**
   * Called right after a batch's packed input buffers were handed to a worker (each
   * batch gets its own ArrayBuffer per input, transferred, so they are detached by
   * now unless piscina had to queue the task). With `isolation: 'process'` a tensor
   * batch has no packed buffers (`buffers` is empty): its rows are written straight
   * into the replica's transfer file. For diagnostics and tests.
   */
  onBatchSent?(event: {
    batchId: number
    rows: number
    buffers: readonly ArrayBuffer[]
    /** Dims of each packed input (batch dim first; after padding), for tensor pools. */
    dims: Readonly<Record<string, readonly number[]>>
  }): void
  /**
   * Called when the pool starts a whole new set of worker threads because piscina
   * stopped replacing dead ones (a replacement thread died while loading). `reason` is
   * the exit that showed it. Requests waiting for a thread are sent to the new ones.
   */
  onRebuild?(event: { generation: number; reason: string }): void
  /**
   * Called when a batch of a tensor pool (the built-in ONNX worker) succeeded, with its
   * time split into three phases that add up to the batch's time in the pool:
   * `inputMs` from the batch's dispatch to the start of the session's `run` (packing,
   * the hop to the worker thread, wrapping the tensors), `inferMs` the `run` itself,
   * `outputMs` from its return until each row has its outputs (the hop back, unpacking).
   * Feeds Triton's statistics (`compute_input`, `compute_infer`, `compute_output`).
   */
  onBatchTimings?(event: BatchTimingsEvent): void
  /** Called when the pool lowers its max batch size at run time (e.g. a model that only runs batch 1). */
  onMaxBatchSizeLowered?(event: { from: number; to: number; reason: string }): void
}

export interface Pool<In = RowInput, Out = RowOutput> {
  infer(input: In, options?: InferOptions): Promise<Out>
  /**
   * The rows of one request, all queued or none: resolves with one output per row, in
   * order, or rejects with the first error. Refused whole with `QueueFullError` when
   * the queue has no room for every row (`whenFull: 'reject'`), with
   * `RequestTooLargeError` when the request holds more rows than `maxQueueSize`, and
   * with `InvalidInputError` when any row is invalid (nothing is queued then). Once a
   * row fails, or the request is aborted or times out, its other rows leave the queue
   * at once. `options` apply to the whole request: one abort listener, one timer.
   */
  inferMany(inputs: readonly In[], options?: InferOptions): Promise<Out[]>
  /**
   * The rows of one request given as one tensor per input (rows first), queued as
   * `inferMany` queues rows — all or none, one signal and timer, the same errors — and
   * answered as one tensor per output. Cheaper than `inferMany` on the host thread: no
   * object per row on the way in or out, and the outputs are views of the batch's
   * output buffers when the rows ran together. Only on pools of the built-in worker
   * whose model's inputs and outputs are all numeric with fixed row dims (no padding)
   * and that have no `cost` rule; `undefined` on every other pool.
   */
  readonly inferBlock?: (inputs: BlockInput, options?: InferOptions) => Promise<BlockOutput>
  /** Queue room and drain rate, cheap to read per request (for admission control). */
  readonly admission: AdmissionState
  readonly metadata: PoolMetadata
  readonly stats: PoolStats
  /** Subscribe to batch and restart events; returns an unsubscribe function. */
  observe(observer: PoolObserver): () => void
  /**
   * Stops accepting requests (`BatcherClosedError`), runs what is queued (`drain: true`,
   * default) or fails it now (`drain: false`), waits for running batches, then releases
   * sessions and threads. A later `close({ drain: false })` or `destroy()` takes over at
   * once; a repeated call returns the same promise.
   */
  close(options?: { drain?: boolean }): Promise<void>
  /**
   * Ends now: queued and running requests fail (with `error` if given, else
   * `BatcherClosedError`), the threads end at once — an ONNX thread inside a native
   * call as soon as that call returns (ending it there would abort the process).
   * Resolves once nothing of the pool is left running. Also after `close()`.
   */
  destroy(error?: Error): Promise<void>
  /** `close()` or `destroy()` was called. */
  readonly closed: boolean
  /** `destroy()` was called. */
  readonly destroyed: boolean
  [Symbol.asyncDispose](): Promise<void>
}
