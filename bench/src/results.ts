/** The shape of `bench/results/<run>.json`. Bump `schema` when a field changes meaning. */
import type { CoreOverheadResult } from './core-overhead.js'
import type { BenchConfig, Scenario } from './config.js'
import type { MachineInfo } from './machine.js'
import type { ModelInfo } from './model.js'
import type { DirectRowPoint, PracticalLimit } from './scenarios/direct.js'
import type { GrpcPoint, GrpcVariant } from './scenarios/grpc.js'
import type { DoorPoint, DoorSummary, HttpPoint } from './scenarios/http.js'
import type { IsolationResult } from './scenarios/isolation.js'
import type { ProcessesPoint } from './scenarios/processes.js'
import type { MemoryPoint } from './scenarios/memory.js'
import type { OverloadResult } from './scenarios/overload.js'
import type { RepositoryResult } from './scenarios/repository.js'
import type { PoolPoint } from './scenarios/pool.js'
import type { ShapeRounds } from './scenarios/shapes.js'
import type { SloResult } from './scenarios/slo.js'
import type { DeadlineGridResult } from './scenarios/deadline-grid.js'
import type { BulkResult } from './scenarios/bulk.js'
import type { TargetRounds } from './scenarios/targets.js'
import type { ThirdPartyResult } from './scenarios/third-party.js'

export const RESULT_SCHEMA = 1

export interface TargetCheck {
  id:
    | 'core-vs-dataloader'
    | 'pool-vs-practical-limit'
    | 'pool-vs-batching-off'
    | 'p50-at-1-caller'
    | 'host-cpu-per-row'
    | 'door-json-vs-noop'
    | 'door-binary-vs-json'
    | 'grpc-stream-vs-json'
    | 'process-vs-thread'
    | 'process-p50-at-1-caller'
  description: string
  /** The figure measured (a ratio, or ms for the latency target). */
  actual: number | null
  target: number
  /** `>=`: actual must reach the target; `<=`: must stay under it. */
  comparison: '>=' | '<='
  met: boolean | null
  /** How the figure was obtained (which points). */
  detail: string
}

export interface Summary {
  /** The practical limit the efficiencies use: median of the target rounds, else the direct scenario's. */
  practicalLimitRowsPerSec: number | null
  directRowRowsPerSec: number | null
  /** The pool point with the most rows/s at the most callers. */
  bestPool: {
    replicas: number
    concurrency: number
    maxBatchSize: number
    callers: number
    rowsPerSec: number
    efficiency: number | null
  } | null
  /** The same replicas × concurrency with `maxBatchSize: 1`, at the most callers. */
  batchingOffRowsPerSec: number | null
  http: {
    connections: number
    batchedRowsPerSec: number | null
    batchingOffRowsPerSec: number | null
    plainRowsPerSec: number | null
    batchedVsBatchingOff: number | null
    batchedVsPlain: number | null
    /** The naive Python server (FastAPI + onnxruntime per request), when it ran. */
    pythonRowsPerSec: number | null
    batchedVsPython: number | null
  } | null
  /** Medians over the gRPC scenario's interleaved rounds, single-row requests. */
  grpc: {
    connections: number
    rounds: number
    medianRowsPerSec: Partial<Record<GrpcVariant, number>>
    /** gRPC streaming ÷ JSON HTTP, same server and pool. */
    streamVsJson: number | null
    unaryVsJson: number | null
    /** The inferpool gRPC server ÷ the no-op gRPC server (how much of the door's limit is kept). */
    streamVsNoop: number | null
    unaryVsNoop: number | null
    /** Rows/s of the 64-row streaming point. */
    stream64RowsPerSec: number | null
    /** Median server CPU per row (µs, all threads), by variant. */
    medianServerCpuUsPerRow: Partial<Record<GrpcVariant, number>>
    /** JSON's server CPU per row ÷ gRPC streaming's: the throughput ratio a CPU-bound server would reach. */
    jsonVsStreamCpu: number | null
  } | null
  targets: TargetCheck[]
  /** Settings the figures point to; the reasoning is in bench/README.md. */
  suggested: {
    replicas: number
    concurrency: number
    maxBatchSize: number
    minBatchSize: number
    maxWaitMs: number
    evidence: string[]
  } | null
}

export interface BenchResult {
  schema: number
  quick: boolean
  startedAt: string
  durationSec: number
  machine: MachineInfo
  config: BenchConfig
  scenarios: Scenario[]
  model: ModelInfo | null
  core: CoreOverheadResult | null
  direct: { row: DirectRowPoint[]; practicalLimit: PracticalLimit | null } | null
  pool: PoolPoint[]
  /** replicas × concurrency in interleaved rounds (preferred for the heatmap and the suggested shape). */
  shapes: ShapeRounds | null
  waits: PoolPoint[]
  /** Interleaved re-measurement of the points the targets compare (preferred by the summary). */
  targets: TargetRounds | null
  /** Thread vs process mode, interleaved rounds, plus memory per replica in both. */
  isolation: IsolationResult | null
  http: HttpPoint[]
  grpc: GrpcPoint[]
  /**
   * The door rounds of the `http` scenario: inferpool and the no-op door, JSON and
   * binary, interleaved, plus a multi-row point (null when not run).
   */
  door: { points: DoorPoint[]; summary: DoorSummary } | null
  /** `inferpool serve --processes` 1 vs 2, HTTP. */
  processes: ProcessesPoint[]
  thirdParty: ThirdPartyResult | null
  memory: MemoryPoint[]
  overload: OverloadResult | null
  repository: RepositoryResult | null
  /** Open-loop arrivals against three batching policies, with deadlines (null when not run). */
  slo: SloResult | null
  /** NATS JetStream: consume ÷ pool, online p99 beside a bulk backlog (null when not run). */
  bulk: BulkResult | null
  /** Deadline vs count formation over HTTP, answers in time (null when not run). */
  deadlineGrid?: DeadlineGridResult | null
  summary: Summary
  /** Scenarios that failed; their figures are missing and the CLI exits 1. */
  errors: Array<{ scenario: Scenario | 'charts'; message: string }>
  /** SVG files written next to the JSON (names only). */
  charts: string[]
}
