import { describe, expect, it } from 'vitest'
import { parseConfig } from '../src/config.js'
import type { BenchResult } from '../src/results.js'
import type { GrpcPoint, GrpcVariant } from '../src/scenarios/grpc.js'
import type { PoolPoint } from '../src/scenarios/pool.js'
import type { TargetRound } from '../src/scenarios/targets.js'
import { summarize } from '../src/summary.js'

const latency = (p50: number) => ({ count: 1, mean: p50, p50, p95: p50, p99: p50, max: p50 })

function point(
  replicas: number,
  concurrency: number,
  maxBatchSize: number,
  callers: number,
  rowsPerSec: number,
  extra: Partial<PoolPoint> = {},
): PoolPoint {
  return {
    kind: 'pool',
    replicas,
    concurrency,
    maxBatchSize,
    effectiveMaxBatchSize: maxBatchSize,
    minBatchSize: null,
    maxWaitMs: null,
    meanBatchSize: Math.min(callers, maxBatchSize),
    efficiency: null,
    hostCpuUsPerRow: null,
    platformCpuUsPerRow: null,
    callers,
    calls: 1,
    rows: 1,
    windowMs: 1000,
    rowsPerSec,
    callsPerSec: rowsPerSec,
    latencyMs: latency(0.2),
    ...extra,
  }
}

function round(limit: number, pool: number, off: number, directP50: number, poolP50: number): TargetRound {
  return {
    practicalLimit: { rowsPerSec: limit, best: 'worker-threads', batchSize: 128, variants: [] },
    pool: point(2, 1, 128, 256, pool),
    batchingOff: point(2, 1, 1, 256, off),
    direct1: {
      kind: 'direct-row',
      callers: 1,
      calls: 1,
      rows: 1,
      windowMs: 1,
      rowsPerSec: 1,
      callsPerSec: 1,
      latencyMs: latency(directP50),
    },
    pool1: point(2, 1, 128, 1, 1, { latencyMs: latency(poolP50) }),
  }
}

function result(parts: Partial<BenchResult>): Omit<BenchResult, 'summary'> {
  return {
    schema: 1,
    quick: false,
    startedAt: '',
    durationSec: 0,
    machine: {} as BenchResult['machine'],
    config: parseConfig([])!,
    scenarios: [],
    model: null,
    core: null,
    direct: null,
    pool: [],
    shapes: null,
    waits: [],
    targets: null,
    isolation: null,
    http: [],
    door: null,
    grpc: [],
    processes: [],
    thirdParty: null,
    memory: [],
    overload: null,
    repository: null,
    slo: null,
    bulk: null,
    errors: [],
    charts: [],
    ...parts,
  }
}

function grpcPoint(variant: GrpcVariant, round: number, rowsPerSec: number, rowsPerRequest = 1): GrpcPoint {
  return {
    kind: 'grpc',
    variant,
    round,
    connections: 64,
    rowsPerRequest,
    requests: 1,
    rowsPerSec,
    windowMs: 1000,
    latencyMs: latency(1),
    serverCpuUsPerRow: 1e6 / rowsPerSec,
  }
}

describe('summary', () => {
  it('compares gRPC streaming with JSON HTTP on the medians of the interleaved rounds', () => {
    const rounds: Array<Record<GrpcVariant, number>> = [
      { 'noop-grpc-unary': 4_000, 'noop-grpc-stream': 10_000, 'grpc-unary': 2_000, 'grpc-stream': 6_000, 'http-json': 3_000 },
      { 'noop-grpc-unary': 5_000, 'noop-grpc-stream': 12_000, 'grpc-unary': 3_000, 'grpc-stream': 4_000, 'http-json': 4_000 },
      { 'noop-grpc-unary': 3_000, 'noop-grpc-stream': 8_000, 'grpc-unary': 1_000, 'grpc-stream': 9_000, 'http-json': 1_000 },
    ]
    const grpc = rounds.flatMap((r, i) => (Object.keys(r) as GrpcVariant[]).map((v) => grpcPoint(v, i + 1, r[v])))
    const s = summarize(result({ grpc: [...grpc, grpcPoint('grpc-stream', 1, 50_000, 64)] }))
    expect(s.grpc).toEqual({
      connections: 64,
      rounds: 3,
      medianRowsPerSec: {
        'noop-grpc-unary': 4_000,
        'noop-grpc-stream': 10_000,
        'grpc-unary': 2_000,
        'grpc-stream': 6_000,
        'http-json': 3_000,
      },
      streamVsJson: 2,
      unaryVsJson: 2_000 / 3_000,
      streamVsNoop: 0.6,
      unaryVsNoop: 0.5,
      stream64RowsPerSec: 50_000,
      medianServerCpuUsPerRow: {
        'noop-grpc-unary': 250,
        'noop-grpc-stream': 100,
        'grpc-unary': 500,
        'grpc-stream': 1e6 / 6_000,
        'http-json': 1e6 / 3_000,
      },
      jsonVsStreamCpu: 2,
    })
    expect(s.targets.find((t) => t.id === 'grpc-stream-vs-json')).toMatchObject({ actual: 2, target: 1.5, met: true })
  })

  it('judges the targets on the medians of the interleaved rounds', () => {
    const s = summarize(
      result({
        targets: {
          shape: { replicas: 2, concurrency: 1, maxBatchSize: 128 },
          callers: 256,
          rounds: [
            round(200_000, 150_000, 5_000, 0.02, 0.2),
            round(100_000, 90_000, 6_000, 0.03, 0.5),
            round(300_000, 160_000, 4_000, 0.02, 0.25),
          ],
          median: {
            practicalLimitRowsPerSec: 200_000,
            poolRowsPerSec: 150_000,
            batchingOffRowsPerSec: 5_000,
            directP50Ms: 0.02,
            poolP50MsAt1: 0.25,
            hostCpuUsPerRow: 1.1,
            platformCpuUsPerRow: 0.4,
          },
        },
      }),
    )
    expect(s.practicalLimitRowsPerSec).toBe(200_000)
    expect(s.targets.map((t) => [t.id, t.actual, t.met])).toEqual([
      ['core-vs-dataloader', null, null],
      ['pool-vs-practical-limit', 0.75, false],
      ['pool-vs-batching-off', 30, true],
      ['p50-at-1-caller', 0.25 - 0.02, false],
      ['host-cpu-per-row', 1.1, true],
    ])
  })

  it("judges process mode against thread mode on the medians of the isolation rounds, by issue 21's goals (0.95x, +0.03 ms)", () => {
    const iso = (thread: number, proc: number, threadP50: number, processP50: number) => ({
      thread: point(2, 1, 128, 256, thread),
      process: point(2, 1, 128, 256, proc),
      thread1: point(2, 1, 128, 1, 1, { latencyMs: latency(threadP50) }),
      process1: point(2, 1, 128, 1, 1, { latencyMs: latency(processP50) }),
    })
    const judged = (processRowsPerSec: number, processP50MsAt1: number) =>
      summarize(
        result({
          isolation: {
            shape: { replicas: 2, concurrency: 1, maxBatchSize: 128 },
            callers: 256,
            rounds: [iso(100_000, 90_000, 0.2, 0.3)],
            median: { threadRowsPerSec: 100_000, processRowsPerSec, threadP50MsAt1: 0.2, processP50MsAt1 },
            memory: null,
          },
        }),
      )
        .targets.filter((t) => t.id.startsWith('process'))
        .map((t) => [t.id, t.actual, t.met])
    expect(judged(80_000, 0.3)).toEqual([
      ['process-vs-thread', 0.8, false],
      ['process-p50-at-1-caller', 0.3 - 0.2, false],
    ])
    expect(judged(95_000, 0.225)).toEqual([
      ['process-vs-thread', 0.95, true],
      ['process-p50-at-1-caller', 0.225 - 0.2, true],
    ])
  })

  it('suggests the best shape, the smallest batch within 5% of it, and no waiting unless waiting pays', () => {
    const pool = [
      point(1, 1, 1, 256, 5_000),
      point(1, 1, 128, 256, 100_000),
      point(2, 1, 1, 256, 7_000),
      point(2, 1, 32, 256, 90_000),
      point(2, 1, 64, 256, 140_000),
      point(2, 1, 128, 256, 145_000),
    ]
    const waits = [
      point(2, 1, 128, 1, 5_000, { minBatchSize: 1, maxWaitMs: 0, latencyMs: latency(0.15) }),
      point(2, 1, 128, 16, 60_000, { minBatchSize: 1, maxWaitMs: 0 }),
      point(2, 1, 128, 1, 600, { minBatchSize: 16, maxWaitMs: 1, latencyMs: latency(1.4) }),
      point(2, 1, 128, 16, 66_000, { minBatchSize: 16, maxWaitMs: 1 }),
    ]
    const s = summarize(result({ pool, waits }))
    expect(s.bestPool).toMatchObject({ replicas: 2, concurrency: 1, maxBatchSize: 128, callers: 256, rowsPerSec: 145_000 })
    expect(s.batchingOffRowsPerSec).toBe(7_000)
    // 10% more rows/s at 16 callers, but p50 at 1 caller goes from 0.15 to 1.4 ms: not worth it.
    expect(s.suggested).toMatchObject({ replicas: 2, concurrency: 1, maxBatchSize: 64, minBatchSize: 1, maxWaitMs: 0 })
  })

  it('takes replicas × concurrency from the interleaved shape rounds over single sweep points', () => {
    const pool = [point(2, 1, 64, 256, 150_000), point(1, 1, 64, 256, 120_000), point(1, 1, 128, 256, 125_000)]
    const m = (replicas: number, rowsPerSec: number) => ({
      replicas,
      concurrency: 1,
      maxBatchSize: 64,
      callers: 256,
      rowsPerSec,
      p50Ms: 1,
      p99Ms: 2,
    })
    const s = summarize(result({ pool, shapes: { maxBatchSize: 64, callers: [256], points: [], median: [m(1, 140_000), m(2, 130_000)] } }))
    expect(s.suggested).toMatchObject({ replicas: 1, concurrency: 1, maxBatchSize: 64 })
  })
})
