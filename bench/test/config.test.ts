import { describe, expect, it } from 'vitest'
import { directCallers, parseConfig, plannedPoints, SCENARIOS, UsageError, waitCallers } from '../src/config.js'

describe('bench flags', () => {
  it('default to the full sweep of the issue', () => {
    const c = parseConfig([])!
    expect(c.quick).toBe(false)
    // The overload, repository, slo, bulk and deadline-grid scenarios run only when asked for by name.
    expect(c.scenarios).toEqual(SCENARIOS.filter((s) => !['overload', 'repository', 'slo', 'bulk', 'deadline-grid'].includes(s)))
    expect([c.replicas, c.concurrency, c.maxBatchSize, c.callers, c.connections]).toEqual([
      [1, 2],
      [1, 2],
      [1, 32, 64, 128],
      [1, 16, 64, 256],
      [16, 64, 256],
    ])
    expect(c.window).toEqual({ warmupMs: 300, durationMs: 1000 })
    expect(c.targetRounds).toBe(3)
    expect(c.shapeRounds).toBe(3)
    expect(c.out).toBeNull()
    expect(c.model).toBeNull()
    expect(c.charts).toBe(true)
    // 2×2×4 pools × 4 caller counts; 3 policies × 3 caller counts; up to 4 servers × 3 connection
    // counts × 3 interleaved rounds, plus the door: 3 rounds × (inferpool, no-op) × (JSON, binary) and 2 multi-row points;
    // gRPC: 3 rounds × 5 variants and one 64-row point.
    expect(plannedPoints(c, true)).toEqual({
      core: 1,
      direct: 4,
      pool: 64,
      shapes: 3,
      waits: 9,
      targets: 3,
      isolation: 4,
      http: 36 + 14,
      grpc: 16,
      processes: 6,
      'third-party': 6,
      memory: 8,
      overload: 0,
      repository: 0,
      slo: 0,
      bulk: 0,
      'deadline-grid': 0,
    })
    expect([c.doorRounds, c.doorWindow]).toEqual([3, { warmupMs: 500, durationMs: 1500 }])
    expect(c.httpRounds).toBe(3)
  })

  it('run the repository scenario only when named: 64 connections, a reload every second, 50 load/unload cycles', () => {
    const c = parseConfig(['--only', 'repository'])!
    expect(c.scenarios).toEqual(['repository'])
    expect(c.repository).toEqual({
      connections: 64,
      window: { warmupMs: 2000, durationMs: 10_000 },
      rounds: 2,
      reloadEveryMs: 1000,
      cycles: 50,
      requestsPerCycle: 32,
      settleMs: 1500,
    })
    // Two windows per round, then one cycle series per isolation.
    expect(plannedPoints(c, false).repository).toBe(6)
  })

  it('plan the slo scenario: both models, both arrival patterns, 2 deadlines × 4 loads × 3 policies per round', () => {
    const c = parseConfig(['--only', 'slo'])!
    expect(c.scenarios).toEqual(['slo'])
    expect([c.slo.models, c.slo.patterns, c.slo.deadlinesMs, c.slo.loads, c.slo.rounds]).toEqual([
      ['demo', 'heavy'],
      ['poisson', 'burst'],
      [20, 100],
      [0.5, 1, 2, 4],
      2,
    ])
    // Per model: the capacity point, then 2 rounds × 2 patterns × 2 deadlines × 4 loads × 3 policies.
    expect(plannedPoints(c, true).slo).toBe(2 * (1 + 2 * 2 * 2 * 4 * 3))
    expect(parseConfig(['--only', 'slo', '--slo-models', 'heavy', '--slo-rounds', '3'])!.slo).toMatchObject({
      models: ['heavy'],
      rounds: 3,
    })
    expect(() => parseConfig(['--slo-models', 'demo,big'])).toThrow('--slo-models: expected demo and/or heavy, got "big"')
    // The capacity is searched for unless given (A/B runs of two builds at equal loads).
    expect(parseConfig(['--only', 'slo'])!.slo.capacityRowsPerSec).toBe(null)
    expect(parseConfig(['--only', 'slo', '--slo-capacity', '9000'])!.slo.capacityRowsPerSec).toBe(9000)
    // One batch in flight per replica unless told.
    expect(parseConfig(['--only', 'slo'])!.slo.concurrency).toBe(1)
    expect(parseConfig(['--only', 'slo', '--slo-concurrency', '2'])!.slo.concurrency).toBe(2)
  })

  it('run the overload server on the allocator asked for, and refuse any other', () => {
    expect(parseConfig([])!.overload.allocator).toBe(null)
    expect(parseConfig(['--overload-allocator', 'glibc'])!.overload.allocator).toBe('glibc')
    expect(parseConfig(['--overload-allocator=jemalloc'])!.overload.allocator).toBe('jemalloc')
    expect(() => parseConfig(['--overload-allocator', 'tcmalloc'])).toThrow(
      new UsageError('--overload-allocator: expected glibc or jemalloc, got "tcmalloc"'),
    )
  })

  it('run the overload series for the rounds, rows and encodings asked for', () => {
    expect(parseConfig([])!.overload).toMatchObject({ rounds: 3, rowsPerRequest: [1, 64], encodings: ['json', 'binary'] })
    expect(parseConfig(['--quick'])!.overload.rounds).toBe(1)
    const c = parseConfig(['--only', 'overload', '--overload-rounds', '2', '--overload-rows', '64', '--overload-encodings', 'binary'])!
    expect(c.overload).toMatchObject({ rounds: 2, rowsPerRequest: [64], encodings: ['binary'] })
    expect(plannedPoints(c, false).overload).toBe(6)
    expect(() => parseConfig(['--overload-encodings', 'json,grpc'])).toThrow(
      new UsageError('--overload-encodings: expected json and/or binary, got "grpc"'),
    )
  })

  it('accept the separator pnpm passes through (`pnpm bench -- --quick`)', () => {
    expect(parseConfig(['--', '--quick'])!.quick).toBe(true)
  })

  it('shrink everything for --quick and leave out the tuning scenarios (shapes, waits)', () => {
    const c = parseConfig(['--quick'])!
    expect(c.scenarios).toEqual(['core', 'direct', 'pool', 'targets', 'isolation', 'http', 'grpc', 'third-party', 'memory'])
    expect([c.replicas, c.concurrency, c.maxBatchSize, c.callers, c.connections]).toEqual([[1], [1], [1, 128], [1, 64], [16]])
    expect(c.targetRounds).toBe(1)
  })

  it('parse lists, sorted and without duplicates', () => {
    const c = parseConfig(['--replicas', '4,1,2,2', '--callers', '256, 1', '--max-batch-size', '128'])!
    expect(c.replicas).toEqual([1, 2, 4])
    expect(c.callers).toEqual([1, 256])
    expect(c.maxBatchSize).toEqual([128])
    expect(directCallers(c)).toEqual([1, 256])
    expect(waitCallers(c)).toEqual([1, 256])
  })

  it('select scenarios with --only and --skip, in run order', () => {
    expect(parseConfig(['--only', 'memory,pool'])!.scenarios).toEqual(['pool', 'memory'])
    expect(parseConfig(['--skip', 'http,core,waits'])!.scenarios).toEqual([
      'direct',
      'pool',
      'shapes',
      'targets',
      'isolation',
      'grpc',
      'processes',
      'third-party',
      'memory',
    ])
    expect(parseConfig(['--quick', '--only', 'waits'])!.scenarios).toEqual(['waits'])
    expect(parseConfig(['--only', 'overload,http'])!.scenarios).toEqual(['http', 'overload'])
  })

  it('scale target-round and HTTP windows with --duration-ms', () => {
    const c = parseConfig(['--warmup-ms', '0', '--duration-ms', '500'])!
    expect(c.window).toEqual({ warmupMs: 0, durationMs: 500 })
    expect(c.targetWindow).toEqual({ warmupMs: 0, durationMs: 750 })
    expect(c.httpWindow).toEqual({ warmupMs: 0, durationMs: 1500 })
  })

  it('read symbolic axis sizes for --model', () => {
    expect(parseConfig(['--model', 'm.onnx', '--dim', 'seq=128', '--dim', 'n=3'])!.dims).toEqual({ seq: 128, n: 3 })
  })

  it('run the bulk scenario only when named: 2 rounds of consume ÷ pool and of online windows with and without a backlog; --quick 1', () => {
    const c = parseConfig(['--only', 'bulk'])!
    expect(c.scenarios).toEqual(['bulk'])
    expect(c.bulk).toEqual({
      replicas: 1,
      maxBatchSize: 64,
      rounds: 2,
      throughputRequests: 40_000,
      onlineRatePerSec: 500,
      window: { warmupMs: 1000, durationMs: 5000 },
      maxBacklog: 60_000,
    })
    expect(plannedPoints(c, false).bulk).toBe(8)
    expect(parseConfig(['--only', 'bulk', '--quick'])!.bulk).toMatchObject({ rounds: 1, throughputRequests: 5_000 })
  })

  it('return null for --help', () => {
    expect(parseConfig(['--help'])).toBeNull()
    expect(parseConfig(['-h'])).toBeNull()
  })

  it.each([
    [['--callers', '0'], '--callers expects a comma-separated list of integers >= 1, got "0"'],
    [['--replicas', '1.5'], '--replicas expects a comma-separated list of integers >= 1, got "1.5"'],
    [['--connections', ''], '--connections expects a comma-separated list of integers >= 1, got ""'],
    [
      ['--only', 'pool,gpu'],
      '--only: unknown scenario "gpu" (one of core, direct, pool, shapes, waits, targets, isolation, http, grpc, processes, third-party, memory, overload, repository, slo, bulk, deadline-grid)',
    ],
    [['--only', 'pool', '--skip', 'http'], '--only and --skip cannot be combined'],
    [['--dim', 'seq'], '--dim expects <axis name>=<integer >= 1>, got "seq"'],
    [['extra'], 'unexpected argument "extra" (see --help)'],
  ])('reject %j with a UsageError naming the flag and echoing the value', (args, message) => {
    expect(() => parseConfig(args)).toThrow(new UsageError(message))
  })

  it('leave unknown flags to parseArgs, which names them', () => {
    expect(() => parseConfig(['--fast'])).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }))
  })
})
