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
   * Batches in flight per replica (the pool's `concurrency`), every policy alike
   * (`--slo-concurrency`). With 2, the next batch waits in the replica while one runs,
   * instead of the replica waiting for the host thread (busy with the generator and its
   * refusals) to see the answer and send the next: the demo MLP's replica was idle 56 %
   * of the time at 2× capacity with 1. Measured with 2, deadline formation at 2× and
   * 20 ms answered ~100k requests a second in time on the demo MLP against 50–68k with
   * 1; but the 0.5× points lost whole rounds to host stalls (generator lag p99 23–91 ms,
   * attainment 68.6–91.9 %) in both runs with 2 and in none with 1, so 1 stays the
   * default until that is understood.
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
