/**
 * Triton's statistics extension (triton-inference-server/server,
 * `docs/protocol/extension_statistics.md`): per model, counts and cumulative
 * nanoseconds, fed by real timings.
 *
 * Where each figure comes from:
 * - `queue`, `compute_input`, `compute_infer`, `compute_output` and `batch_stats` come
 *   from the pool (`pool.observe()`): the batcher's per-row queue waits at dispatch and
 *   the pool's per-batch phase timings (`onBatchTimings`). Every row of a batch counts
 *   the batch's whole compute durations, as Triton counts each request of a batch.
 * - `success`, `fail`, `inference_count` and `last_inference` come from the protocol
 *   front ends (HTTP, gRPC), which call `request()` once per answered inference
 *   request, with its duration from arrival to answer.
 *
 * One unit differs from Triton for multi-row requests: the pool queues and computes
 * rows, not requests, so `queue` and `compute_*` count rows while `success` counts
 * requests. With one row per request (what Triton's clients and perf_analyzer send by
 * default) the counts agree exactly.
 *
 * The pool's latency model (its estimate of a batch's run time by size) is not written
 * here: every figure of `ModelStatistics` is cumulative (a count and summed ns, which
 * clients divide or difference), and an estimate is neither; in `batch_stats` it would
 * break `ns ÷ count`. It is in `pool.stats.latencyEstimates` and `/metrics` (docs/protocol.md).
 */
import type { BatchDispatchEvent } from '@inferpool/core'
import type { BatchTimingsEvent, PoolObserver } from '@inferpool/host'

/** `StatisticDuration`: a count and a total duration in ns. */
export interface DurationStat {
  count: number
  ns: number
}

/** `InferStatistics`. */
export interface InferStatistics {
  success: DurationStat
  fail: DurationStat
  queue: DurationStat
  compute_input: DurationStat
  compute_infer: DurationStat
  compute_output: DurationStat
  /** inferpool has no response cache: always zero. */
  cache_hit: DurationStat
}

/** `InferBatchStatistics`: executions of one batch size. */
export interface InferBatchStatistics {
  batch_size: number
  compute_input: DurationStat
  compute_infer: DurationStat
  compute_output: DurationStat
}

/** `ModelStatistics`, as the HTTP route writes it and the gRPC RPC maps it. */
export interface ModelStatistics {
  name: string
  version: string
  /** ms since the epoch of the last inference request answered (0 before any). */
  last_inference: number
  /** Rows of successful requests. */
  inference_count: number
  /** Successful batch executions. */
  execution_count: number
  inference_stats: InferStatistics
  batch_stats: InferBatchStatistics[]
}

const NS_PER_MS = 1e6

function zero(): DurationStat {
  return { count: 0, ns: 0 }
}

function add(stat: DurationStat, count: number, ns: number): void {
  stat.count += count
  // Cumulative ns pass 2^53 only after months of compute; a double then loses
  // nanoseconds, not magnitude.
  stat.ns += Math.round(ns)
}

function copy(stat: DurationStat): DurationStat {
  return { count: stat.count, ns: stat.ns }
}

interface BatchSizeEntry {
  compute_input: DurationStat
  compute_infer: DurationStat
  compute_output: DurationStat
}

/** One outcome reported by a protocol front end. */
export interface RequestOutcome {
  ok: boolean
  /** Rows the request carried (counted in `inference_count` when it succeeded). */
  rows: number
  /** From arrival to answer, in ns. */
  durationNs: number
}

/** The statistics of one served pool. */
export class TritonStatsCollector {
  readonly #stats: InferStatistics = {
    success: zero(),
    fail: zero(),
    queue: zero(),
    compute_input: zero(),
    compute_infer: zero(),
    compute_output: zero(),
    cache_hit: zero(),
  }
  readonly #batches = new Map<number, BatchSizeEntry>()
  readonly #now: () => number
  #lastInference = 0
  #inferenceCount = 0
  #executionCount = 0

  /** `now` gives ms since the epoch, for `last_inference` (injectable for tests). */
  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  /** The pool events this collector reads; pass to `pool.observe()`. */
  readonly observer: PoolObserver = {
    onDispatch: (event: BatchDispatchEvent) => {
      const waits = event.queueWaitsMs
      let total = 0
      for (let i = 0; i < waits.length; i++) total += waits[i]
      add(this.#stats.queue, waits.length, total * NS_PER_MS)
    },
    onBatchTimings: (event: BatchTimingsEvent) => this.#batch(event),
  }

  #batch(event: BatchTimingsEvent): void {
    const { rows } = event
    const input = event.inputMs * NS_PER_MS
    const infer = event.inferMs * NS_PER_MS
    const output = event.outputMs * NS_PER_MS
    this.#executionCount++
    add(this.#stats.compute_input, rows, input * rows)
    add(this.#stats.compute_infer, rows, infer * rows)
    add(this.#stats.compute_output, rows, output * rows)
    let entry = this.#batches.get(rows)
    if (entry === undefined) {
      entry = { compute_input: zero(), compute_infer: zero(), compute_output: zero() }
      this.#batches.set(rows, entry)
    }
    add(entry.compute_input, 1, input)
    add(entry.compute_infer, 1, infer)
    add(entry.compute_output, 1, output)
  }

  /** Records one answered inference request (called by the HTTP and gRPC front ends). */
  request(outcome: RequestOutcome): void {
    this.#lastInference = this.#now()
    if (outcome.ok) {
      add(this.#stats.success, 1, outcome.durationNs)
      this.#inferenceCount += outcome.rows
    } else {
      add(this.#stats.fail, 1, outcome.durationNs)
    }
  }

  /** A plain snapshot in Triton's `ModelStatistics` shape. */
  snapshot(name: string, version: string): ModelStatistics {
    const s = this.#stats
    return {
      name,
      version,
      last_inference: this.#lastInference,
      inference_count: this.#inferenceCount,
      execution_count: this.#executionCount,
      inference_stats: {
        success: copy(s.success),
        fail: copy(s.fail),
        queue: copy(s.queue),
        compute_input: copy(s.compute_input),
        compute_infer: copy(s.compute_infer),
        compute_output: copy(s.compute_output),
        cache_hit: copy(s.cache_hit),
      },
      batch_stats: [...this.#batches.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([size, entry]) => ({
          batch_size: size,
          compute_input: copy(entry.compute_input),
          compute_infer: copy(entry.compute_infer),
          compute_output: copy(entry.compute_output),
        })),
    }
  }
}
