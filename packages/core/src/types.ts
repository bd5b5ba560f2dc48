/**
 * Public types of the dynamic batcher. This file is the contract that
 * `@inferpool/host` builds on: extend it, but do not rename or remove fields.
 */
import type { Formation } from './formation.js'
import type { LatencyEstimate, LatencyModel } from './latency-model.js'

/** What `processBatch` receives besides the items. */
export interface BatchContext {
  /** Monotonic id of this batch (a re-run after a split gets a new id). */
  readonly batchId: number
  /** The `batchKey` shared by every item of the batch (`undefined` without `batchKey`). */
  readonly key: unknown
  /** Summed cost of the items. */
  readonly cost: number
  /**
   * How many times the items of this batch have been split by `isolateFailures`
   * (0 for a batch as first formed). Lets a processor tell first runs from re-runs.
   */
  readonly splitDepth: number
  /**
   * Aborted when every item of the batch has settled early (aborted or timed out),
   * or when the batcher is destroyed. A processor may use it to skip work; it never
   * has to.
   */
  readonly signal: AbortSignal
  /**
   * Whether `signal` is aborted. Reading it creates nothing, whereas the first read of
   * `signal` creates an `AbortController` — per batch, on a hot path.
   */
  readonly aborted: boolean
  /**
   * Tells the batcher how long the batch ran where it ran (ms; e.g. a replica's own
   * model call), when the processor knows. The latency model (deadline formation) then
   * learns that as the batch's run time, and the rest of the time from dispatch to
   * settle as a hand-off overhead, of which it adds the median: a run measured only from
   * dispatch to settle includes every stall of the thread that dispatched it. Optional
   * to call; the last call before the batch settles counts.
   */
  reportRunMs(ms: number): void
  /** Why the batch went when it did (see {@link BatchReason}); for traces and logs. */
  readonly reason: BatchReason
}

/**
 * Why a batch formed when it did:
 * - `'full'`: it reached `maxBatchSize` or the cost budget (more items were waiting);
 * - `'min'`: it reached `minBatchSize` (> 1) before `maxWaitMs` passed;
 * - `'idle'`: a slot was free and the batch took what was queued (`minBatchSize` 1);
 * - `'timer'`: its oldest item had waited `maxWaitMs`;
 * - `'drain'`: the batcher is closing and sends what is left;
 * - `'deadline'` / `'probe'`: deadline formation sized it (a probe: a batch of one before any run was measured);
 * - `'split'`: a half of a failed batch, re-run (`isolateFailures`).
 */
export type BatchReason = 'full' | 'min' | 'idle' | 'timer' | 'drain' | 'deadline' | 'probe' | 'split'

/**
 * Runs one batch. Must return (or resolve to) an array with exactly one entry per
 * item, in the same order. An `Error` instance in a slot fails that item only.
 */
export type ProcessBatch<Item, Result> = (items: Item[], context: BatchContext) => Array<Result | Error> | Promise<Array<Result | Error>>

/** Options of `DynamicBatcher`. Every option is validated once, at construction. */
export interface DynamicBatcherOptions<Item> {
  /**
   * Most items in one batch. Can be changed at run time with `setMaxBatchSize`.
   * 32 amortises a model call's fixed cost (a session run plus a thread hop is tens of
   * µs) while keeping one batch of rows small enough for low tail latency.
   * @default 32
   */
  maxBatchSize?: number
  /**
   * A batch is dispatched at once when it holds at least this many items; a smaller
   * one waits up to `maxWaitMs` for more. Must be <= `maxBatchSize` (if
   * `setMaxBatchSize` later lowers the maximum below it, the maximum is used).
   * 1 = never hold a batch back: with pull-based formation batches grow by themselves
   * while a slot is busy, so waiting only helps idle slots with trickling traffic.
   * @default 1
   */
  minBatchSize?: number
  /**
   * Longest time (ms) the oldest queued item waits for its batch to reach
   * `minBatchSize` before the batch goes with what it has. 0 = never wait; Infinity =
   * wait until `minBatchSize` is reached (or the batcher closes). Can be changed at
   * run time with `setMaxWaitMs`.
   * @default 0
   */
  maxWaitMs?: number
  /**
   * Budget of summed item cost per batch (e.g. tokens); > 0. An item costlier than the
   * budget is refused at `submit` (`ItemTooLargeError`). A batch stops at the first
   * item that does not fit; that item stays at the head for the next batch (no
   * skipping ahead to smaller items, so large items are never starved).
   * @default Infinity
   */
  maxBatchCost?: number
  /**
   * Cost of one item. The default is the item's own `estimateCost()` or
   * `estimateTokens()` method where it has one (Flyte's `CostEstimator` /
   * `TokenBatcher` protocol), else 1. A per-request `cost` in `submit()` wins.
   * @default item.estimateCost?.() ?? item.estimateTokens?.() ?? 1
   */
  cost?: (item: Item) => number
  /**
   * Most items waiting in the queue (not counting running batches nor callers waiting
   * for room). The batcher does not invent a capacity: set one in a server.
   * @default Infinity
   */
  maxQueueSize?: number
  /**
   * What `submit` does when the queue is full: `'wait'` for room (still abortable
   * by the item's signal and timeout), or `'reject'` at once with `QueueFullError`.
   * Waiting callers are admitted first-in-first-out as room frees. `'reject'` because
   * failing fast (e.g. HTTP 503) is the safer default for a server under overload.
   * @default 'reject'
   */
  whenFull?: 'wait' | 'reject'
  /**
   * Most batches running at once. A batch is formed only when a slot is free
   * (pull-based, like Triton's dynamic batcher). 1 suits one model instance; a pool
   * of N replicas sets N × its per-replica concurrency.
   * @default 1
   */
  maxConcurrentBatches?: number
  /**
   * Items with different keys (compared with SameValueZero, as `Map` keys) never
   * share a batch. Called once per item, at `submit`. A key whose batch waits for
   * `minBatchSize` does not hold back a ready batch of another key.
   * @default undefined (one key for all)
   */
  batchKey?: (item: Item) => unknown
  /**
   * When `processBatch` fails as a whole, split the batch in halves and re-run each,
   * recursively, so only the items that fail on their own get the error. Halves run
   * before any new batch (bounded latency for the items already run once) and count
   * in `stats.batches` and `stats.splits`. A wrong-length result is not split.
   * @default false
   */
  isolateFailures?: boolean
  /**
   * Clock used for waits and statistics (ms; `timeoutMs` uses timers). Inject one in
   * tests: an injected clock is read on every `submit`. The default clock is read
   * once per event-loop turn for enqueue times (items submitted in one synchronous
   * burst share one reading), which saves ~50 ns per item.
   * @default performance.now
   */
  now?: () => number
  /**
   * Number of recent samples kept per percentile series in `stats`.
   * @default 1024
   */
  statsWindow?: number
  /**
   * How a batch is formed when a slot frees up.
   * - `'count'`: by count, cost and time — the largest batch within `maxBatchSize` and
   *   `maxBatchCost`, held back for `minBatchSize` up to `maxWaitMs`. Deadlines
   *   (`timeoutMs`) only reject an item once they pass. Best when requests carry no
   *   deadline, or a generous one: it costs nothing per item.
   * - `'deadline'`: by the items' deadlines (`timeoutMs`) and the run times the
   *   `latencyModel` has measured. Queued items whose deadline is out of reach even by
   *   the fastest batch of one measured fail at once (`DeadlineExceededError`); the
   *   batch is the largest whose earliest deadline still holds with the model's bound
   *   of its run (by its typical run when that bound would leave the head alone, or
   *   cut the batch short while more wait for the last slot); a batch waits for
   *   `minBatchSize` only while every queued deadline keeps its slack; and a request
   *   whose `timeoutMs` is shorter than the fastest drain of the queue ahead of it is
   *   refused at the door (`DeadlineUnattainableError`). Before any run is measured, a
   *   batch of one goes first, as a probe. Best when requests carry tight deadlines and
   *   load can exceed capacity. Each formation walks the queue once.
   * - a `Formation` object: your own (see `Formation`), checked once here.
   *
   * With every formation, an item whose deadline has passed when its batch starts is
   * left out of it and fails with `DeadlineExceededError`: nothing late is run.
   * @default 'count'
   */
  formation?: 'count' | 'deadline' | Formation
  /**
   * Learns how long a batch of n items takes from the batches that ran (each
   * successful batch is recorded, with either `formation`); read by `formation:
   * 'deadline'` and shown in `stats.latencyEstimates`. Inject one to share it or, in
   * tests, to start from known figures.
   * @default new LatencyModel()
   */
  latencyModel?: LatencyModel
}

/** Options of one `submit()` call. */
export interface SubmitOptions {
  /**
   * Aborts the request; it rejects with `signal.reason` — at once, whether it is
   * queued, waiting for room or running (its result is then dropped).
   * @default undefined (not abortable)
   */
  signal?: AbortSignal
  /**
   * Rejects with `TimeoutError` when the result has not arrived after this many ms
   * (counted from `submit`; 0..2147483647, or Infinity for none).
   * @default Infinity
   */
  timeoutMs?: number
  /**
   * Higher goes first; first-in-first-out within one priority.
   * @default 0
   */
  priority?: number
  /**
   * Triton's timeout action DELAY: when `timeoutMs` passes, the item is not rejected. If
   * it is still queued (or waiting for room), it moves to this priority — behind every
   * item of a higher one, so give one below `priority` — and waits there with no
   * timeout; if it is running, it just finishes. A signal still aborts it.
   * @default undefined (a timeout rejects with `TimeoutError`)
   */
  delayedPriority?: number
  /**
   * Cost of this item (finite, >= 0); overrides the `cost` option.
   * @default the `cost` option's value for the item
   */
  cost?: number
}

/** Options of `close()`. */
export interface CloseOptions {
  /**
   * `true`: run everything queued, then resolve. `false`: reject queued items with
   * `BatcherClosedError` and resolve once running batches have settled.
   * @default true
   */
  drain?: boolean
}

/** p50/p95/p99 of a recent window of samples (0 when there are none). */
export interface Percentiles {
  p50: number
  p95: number
  p99: number
}

/** A plain snapshot of the batcher's state; safe to serialize. */
export interface BatcherStats {
  /** Items accepted by `submit` (not counting those rejected at the door). */
  submitted: number
  /** Items resolved with a result. */
  completed: number
  /**
   * Items rejected by an error of their batch or their own slot, or by
   * `close({ drain: false })` / `destroy()`.
   */
  failed: number
  /** Items aborted by their signal or timed out. */
  cancelled: number
  /** Of `cancelled`, those that timed out. */
  timedOut: number
  /** Items refused at the door: queue full, too large, closed. */
  rejected: number
  /** Batches dispatched (including re-runs after a split). */
  batches: number
  /** Batches re-run because of `isolateFailures`. */
  splits: number
  /** Items waiting in the queue now. */
  queued: number
  /** Batches running now. */
  inFlight: number
  /** Items in running batches now, or awaiting a re-run after a split. */
  inFlightItems: number
  /** `submit` calls waiting for room in a full queue (`whenFull: 'wait'`). */
  waitingForRoom: number
  /** Mean items per dispatched batch since construction. */
  avgBatchSize: number
  /** Fraction of time the batch slots were busy since construction (0..1). */
  utilization: number
  /** Recent batch sizes. */
  batchSize: Percentiles
  /** Recent queue waits (ms): submit to first dispatch, one sample per item. */
  queueWaitMs: Percentiles
  /** Recent batch processing times (ms). */
  processingMs: Percentiles
  /** Current `maxBatchSize` / `maxWaitMs` (they can be changed at run time). */
  maxBatchSize: number
  maxWaitMs: number
  /** Items dispatched per second over about the last second (first runs only). */
  drainRate: number
  /**
   * The latency model's estimated run time of a batch, at sizes 1, 2, 4, … up to
   * `maxBatchSize` (`ms` undefined until a batch has been measured).
   */
  latencyEstimates: LatencyEstimate[]
}

/**
 * What admission control needs to know, cheaply (no percentiles are computed): whether
 * a request of n items would be queued now, and how fast the queue drains.
 */
export interface AdmissionState {
  /** Items waiting in the queue now. */
  readonly queued: number
  /** Callers waiting for room (`whenFull: 'wait'`). */
  readonly waitingForRoom: number
  readonly maxQueueSize: number
  readonly whenFull: 'wait' | 'reject'
  /** Items dispatched per second over about the last second. */
  readonly drainRate: number
  /** `close()` or `destroy()` was called: nothing more is admitted. */
  readonly closing: boolean
}

/** Emitted when a batch is dispatched to `processBatch`. */
export interface BatchDispatchEvent {
  readonly batchId: number
  readonly size: number
  readonly cost: number
  readonly splitDepth: number
  /** Per item, ms from `submit` to this dispatch (for queue-wait histograms). */
  readonly queueWaitsMs: readonly number[]
}

/** Emitted when a batch's `processBatch` call has settled. */
export interface BatchSettleEvent {
  readonly batchId: number
  readonly size: number
  readonly splitDepth: number
  readonly processingMs: number
  /** false when `processBatch` threw/rejected or returned the wrong length. */
  readonly ok: boolean
}

/**
 * Receives batch events, e.g. to feed Prometheus histograms. Register with
 * `batcher.observe(observer)`, which returns an unsubscribe function. Observers are
 * called synchronously; an observer that throws is ignored (it never fails a batch).
 */
export interface BatcherObserver {
  onDispatch?(event: BatchDispatchEvent): void
  onSettle?(event: BatchSettleEvent): void
}
