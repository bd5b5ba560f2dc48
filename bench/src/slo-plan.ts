/**
 * The plan of the slo scenario (scenarios/slo.ts): its vocabularies and options, apart
 * from the scenario so that the flag parser does not load the pool to know them.
 */
import type { ArrivalPattern } from './open-loop.js'

export const SLO_POLICIES = ['deadline', 'count', 'max-queue-delay'] as const
export type SloPolicy = (typeof SLO_POLICIES)[number]
export const SLO_MODELS = ['demo', 'heavy'] as const
export type SloModel = (typeof SLO_MODELS)[number]

/** The heavier model: an MLP 256-2048-2048-16 (~4.7 M weights; a batch of 128 runs ~11 ms on one thread). */
export const HEAVY_MLP_SIZES: readonly number[] = [256, 2048, 2048, 16]

export interface SloOptions {
  models: SloModel[]
  patterns: ArrivalPattern[]
  deadlinesMs: number[]
  /** Offered load as multiples of the measured capacity. */
  loads: number[]
  rounds: number
  /** Length of each point's arrival schedule (ms). */
  windowMs: number
  /** Closed-loop warm-up and window of the capacity measurement. */
  capacityWindow: { warmupMs: number; durationMs: number }
  maxBatchSize: number
  /**
   * Replicas of each policy's pool, one intra-op thread each. The load generator runs on
   * the host thread beside the batcher, so on 2 cores one replica leaves the host a core
   * of its own (with two, the replicas take both and the host's time per request,
   * refused ones too, is taken from them).
   */
  replicas: number
  /**
   * Batches in flight per replica (the pool's `concurrency`), every policy alike: with 2,
   * the next batch waits in the replica while one runs, instead of the replica waiting
   * for the host to see an answer, form and send the next one. With the generator on the
   * host thread, the host is often busy when an answer comes (sending arrivals, refusing
   * them), and with 1 the replica sat idle for it: the demo MLP's replica was idle 56 %
   * of the time at 2× capacity. At 2× capacity, 20 ms deadlines, deadline formation
   * answered in time 1.3–2.3× as many requests on the demo MLP with 2 as with 1, and
   * 1.08–1.11× as many on the heavy MLP (same schedules, two alternations each).
   */
  concurrency: number
  /** The `max-queue-delay` policy's wait for a full batch (Triton's `max_queue_delay_microseconds` ÷ 1000). */
  maxQueueDelayMs: number
  /**
   * The capacity (rows/s) the loads are multiples of, given instead of searched for:
   * for A/B runs of two builds at the same offered loads (`--slo-capacity`). `null`:
   * the open-loop search of the run.
   */
  capacityRowsPerSec: number | null
}
