/**
 * Command-line flags → the plan of one bench run.
 *
 * Time budget of the default full run on 2 cores (each sweep point = warm-up + window
 * = 0.3 s + 1 s; each target-round point 0.5 s + 1.5 s; each HTTP point 1 s + 3 s):
 *   core overhead ~10 s · direct baselines 4 points ~8 s · pool sweep 2×2×4 pools ×
 *   4 caller counts = 64 points ~90 s · shapes 3 rounds × 4 pools × 2 caller counts
 *   ~35 s · batching policy 3 pools × 3 caller counts ~15 s · target rounds 3 × 6
 *   points ~40 s · HTTP 3 servers × 3 connection counts
 *   ~45 s · processes 2 servers × 3 connection counts ~30 s · third-party 6 points
 *   ~15 s · memory 2 models × 4 probes ~15 s · charts ~5 s  ⇒  about 4¾ minutes
 *   (measured: see bench/HISTORY.md; the processes scenario took 30 s), under the 5-minute
 *   budget with room for slow pool start-ups on a busy machine. The sweep's short
 *   windows are affordable because the ratios the targets judge come from the
 *   interleaved target rounds, not from single sweep points.
 * `--quick` shrinks every list and window to a smoke run of well under 30 s.
 */
import { parseArgs } from 'node:util'
import type { BulkOptions } from './scenarios/bulk.js'
import type { DeadlineGridOptions } from './scenarios/deadline-grid.js'
import { SLO_MODELS, SLO_POLICIES, type SloModel, type SloOptions } from './slo-plan.js'

export const SCENARIOS = [
  'core',
  'direct',
  'pool',
  'shapes',
  'waits',
  'targets',
  'isolation',
  'http',
  'grpc',
  'processes',
  'third-party',
  'memory',
  'overload',
  'repository',
  'slo',
  'bulk',
  'deadline-grid',
] as const
/** Scenarios that run only when named in `--only` (they take minutes on their own). */
export const OPT_IN_SCENARIOS: readonly Scenario[] = ['overload', 'repository', 'slo', 'bulk', 'deadline-grid']
export type Scenario = (typeof SCENARIOS)[number]

export interface Window {
  warmupMs: number
  durationMs: number
}

export interface BatchingPolicy {
  minBatchSize: number
  maxWaitMs: number
}

export interface BenchConfig {
  quick: boolean
  scenarios: Scenario[]
  /** The model of the sweeps, baselines and HTTP runs; `null` = the built-in demo MLP. */
  model: string | null
  /** Sizes of symbolic non-batch axes of `model`, by axis name. */
  dims: Record<string, number>
  thirdPartyModel: string | null
  replicas: number[]
  concurrency: number[]
  maxBatchSize: number[]
  callers: number[]
  connections: number[]
  /** (minBatchSize, maxWaitMs) pairs of the batching-policy scenario. */
  policies: BatchingPolicy[]
  /** Interleaved rounds of the shapes scenario. */
  shapeRounds: number
  /** Interleaved rounds of the targets scenario. */
  targetRounds: number
  /** Interleaved rounds of the isolation scenario (thread vs process mode). */
  isolationRounds: number
  /** Window of each point of a target round. */
  targetWindow: Window
  thirdPartyReplicas: number[]
  thirdPartyCallers: number
  memoryReplicas: number[]
  window: Window
  httpWindow: Window
  /** Interleaved rounds of the gRPC scenario, its window per point, and its callers (one connection each). */
  grpcRounds: number
  grpcWindow: Window
  grpcConnections: number
  /** Interleaved rounds of the door comparison (inferpool vs the no-op door, JSON and binary). */
  doorRounds: number
  /** Interleaved rounds of the http scenario (every server at every connection count per round); its points are medians. */
  httpRounds: number
  /** Window of each door point. */
  doorWindow: Window
  core: { items: number; producers: number; maxBatchSize: number; rounds: number }
  /** Connections of the capacity point, request sizes and window of the overload scenario. */
  overload: {
    comfortable: number
    rowsPerRequest: number[]
    encodings: Array<'json' | 'binary'>
    window: Window
    rounds: number
    bin: string | null
    timeoutMs: number | null
    serveArgs: string[]
    allocator: 'glibc' | 'jemalloc' | null
  }
  /** The repository scenario: swaps under load, then memory over load/unload cycles. */
  repository: {
    connections: number
    window: Window
    rounds: number
    reloadEveryMs: number
    cycles: number
    requestsPerCycle: number
    settleMs: number
  }
  /** The slo scenario's plan (models, arrival patterns, deadlines, loads, rounds, windows). */
  slo: SloOptions
  /** The bulk scenario's plan (NATS JetStream: consume ÷ pool, online p99 beside a backlog). */
  bulk: BulkOptions
  /** The deadline grid's plan (rows × deadlines × connections, deadline vs count over HTTP). */
  deadlineGrid: DeadlineGridOptions
  json: boolean
  out: string | null
  charts: boolean
}

export const USAGE = `Usage: pnpm bench [-- flags]      (or: node bench/dist/cli.js [flags])

Throughput runs of inferpool with baselines measured in the same run.

Scenarios (--only / --skip, comma-separated):
  core         DynamicBatcher vs dataloader, no-op batches
  direct       onnxruntime-node directly: one row at a time in the main thread, and
               full batches on every core (the practical limit)
  pool         sweep replicas × concurrency × max batch size × callers (single rows)
  shapes       replicas × concurrency at the best batch size, all pools open, measured
               in interleaved rounds (1 and the most callers); medians
  waits        batching policy: (minBatchSize, maxWaitMs) pairs on the best pool shape
  targets      the points the targets compare, re-measured in interleaved rounds
               (practical limit, best pool, batching off, 1-caller latency); medians
  isolation    thread vs process mode (isolation: 'process'), best pool shape, in
               interleaved rounds (the most callers and 1); memory per replica in both
  http         autocannon against the inferpool server (batched, maxBatchSize 1), a
               plain node:http server calling onnxruntime-node per request and the
               naive FastAPI server, all started together, in interleaved rounds; medians
  grpc         our own closed-loop gRPC clients, unary and streaming, against the
               inferpool server and a no-op gRPC server, with JSON HTTP on the same
               server as reference; interleaved rounds, medians; one 64-row point
  processes    autocannon against \`inferpool serve\` with 1 and 2 server processes
               (--processes), the same inference threads in total
  third-party  a real fixed-batch-1 model: replicas 1 vs 2
  memory       resident memory vs replicas
  overload     (only with --only) \`inferpool serve\` with default settings at a
               comfortable concurrency, then 4× and 16× as many connections, single-row
               and 64-row requests, JSON and binary: goodput ÷ capacity, 503 share, p99,
               deadline misses, CPU per server thread, memory
  repository   (only with --only) \`inferpool serve --model-repository\`: p50/p99 at 64
               connections in steady windows and in windows with a reload every second
               (interleaved rounds), then resident memory over 50 load/unload cycles in
               thread and in process isolation, and what an unload gives back
  slo          (only with --only) open-loop Poisson and on/off burst arrivals at 0.5×,
               1×, 2×, 4× of the measured capacity, 20 and 100 ms deadlines, the demo
               MLP and a heavier MLP, through the library pool: deadline-aware formation
               vs the count/time policy vs Triton's max_queue_delay, interleaved rounds;
               SLO attainment, goodput, wasted rows, p50/p99 (~8 min; --quick ~20 s)
  bulk         (only with --only) NATS JetStream (starts nats-server -js itself):
               rows/s through \`inferpool consume\` ÷ the in-process pool, and the
               online p99 of \`inferpool serve --nats\` at a fixed rate with a bulk
               backlog ÷ without; interleaved rounds (~4 min; --quick ~40 s)
  deadline-grid (only with --only) \`createPool\` + \`serve\` with deadline and with count
               formation, 64 closed-loop connections of 8-row JSON requests with a
               20 ms \`parameters.timeout\`: answers in time, 5 interleaved rounds of
               6 s (~2 min); wider grids: node bench/dist/scenarios/deadline-grid.js

Flags:
  --quick                    smoke run (< 30 s): small lists, short windows
  --only <list>              run only these scenarios
  --skip <list>              run all but these scenarios
  --model <path>             your own .onnx model instead of the demo MLP
  --dim <name>=<n>           size of a symbolic non-batch axis of --model (repeatable; default 1)
  --third-party-model <path> fixed-batch model of the third-party scenario
                             (default: fixtures/models/third-party/light_squeezenet.onnx)
  --replicas <list>          default 1,2
  --concurrency <list>       default 1,2
  --max-batch-size <list>    default 1,32,64,128
  --callers <list>           default 1,16,64,256
  --connections <list>       HTTP connections, default 16,64,256
  --warmup-ms <n>            warm-up before each point, default 300
  --duration-ms <n>          measurement window of each sweep point, default 1000
                             (target rounds and HTTP windows scale with it)
  --isolation-rounds <n>     interleaved rounds of the isolation scenario (default 3;
                             --quick 1)
  --overload-timeout-ms <n>  --timeout-ms of the overload scenario's server (default: the
                             CLI's default); answers later than it + 1 s count as misses
  --overload-serve-arg <a>   one more \`inferpool serve\` argument for the overload scenario
                             (repeatable, e.g. --overload-serve-arg=--concurrency=2)
  --overload-rounds <n>      rounds of each overload series (1×, 4×, 16×), each 16× point
                             against its own round's capacity (default 3; --quick 1)
  --overload-rows <list>     rows per request of the overload series (default 1,64)
  --overload-encodings <l>   json and/or binary (default json,binary)
  --overload-allocator <a>   the overload scenario server's malloc: jemalloc (preloaded as
                             the Docker image does) or glibc (default: jemalloc where
                             Debian's libjemalloc2 is installed, else glibc)
  --slo-models <list>        models of the slo scenario: demo and/or heavy (default both;
                             --quick: heavy)
  --slo-rounds <n>           interleaved rounds of the slo scenario (default 2; --quick 1)
  --slo-capacity <rows/s>    the capacity the slo loads are multiples of, instead of the
                             open-loop search (for A/B runs of two builds at equal loads)
  --slo-concurrency <n>      batches in flight per replica of the slo pools (default 1)
  --overload-bin <path>      the inferpool CLI the overload scenario starts (default this
                             checkout's packages/server/bin/inferpool.js), e.g. another build's
  --out <dir>                where the JSON and SVG go (default bench/results)
  --json                     print the result JSON to stdout instead of the table
  --no-charts                skip the SVG charts
  -h, --help                 this text`

/** Interleaved rounds of the third-party replicas comparison. */
export const THIRD_PARTY_ROUNDS = 2

const FULL = {
  replicas: [1, 2],
  concurrency: [1, 2],
  maxBatchSize: [1, 32, 64, 128],
  callers: [1, 16, 64, 256],
  connections: [16, 64, 256],
  policies: [
    { minBatchSize: 1, maxWaitMs: 0 },
    { minBatchSize: 16, maxWaitMs: 1 },
    { minBatchSize: 64, maxWaitMs: 2 },
  ],
  shapeRounds: 3,
  targetRounds: 3,
  isolationRounds: 3,
  targetWindow: { warmupMs: 500, durationMs: 1500 },
  thirdPartyReplicas: [1, 2],
  thirdPartyCallers: 8,
  memoryReplicas: [1, 2, 4],
  window: { warmupMs: 300, durationMs: 1000 },
  httpWindow: { warmupMs: 1000, durationMs: 3000 },
  grpcRounds: 3,
  grpcWindow: { warmupMs: 500, durationMs: 2000 },
  grpcConnections: 64,
  doorRounds: 3,
  httpRounds: 3,
  doorWindow: { warmupMs: 500, durationMs: 1500 },
  core: { items: 500_000, producers: 256, maxBatchSize: 128, rounds: 5 },
  overload: {
    comfortable: 16,
    rowsPerRequest: [1, 64],
    encodings: ['json', 'binary'] as Array<'json' | 'binary'>,
    window: { warmupMs: 1000, durationMs: 5000 },
    rounds: 3,
    bin: null as string | null,
    timeoutMs: null as number | null,
    serveArgs: [] as string[],
    allocator: null as 'glibc' | 'jemalloc' | null,
  },
  repository: {
    connections: 64,
    window: { warmupMs: 2000, durationMs: 10_000 },
    rounds: 2,
    reloadEveryMs: 1000,
    cycles: 50,
    requestsPerCycle: 32,
    settleMs: 1500,
  },
  deadlineGrid: {
    rows: [8],
    connections: [64],
    deadlinesMs: [20],
    rounds: 5,
    warmupMs: 2000,
    durationMs: 6000,
    replicas: 2,
    maxBatchSize: 128,
    model: null,
  },
  slo: {
    models: ['demo', 'heavy'],
    patterns: ['poisson', 'burst'],
    deadlinesMs: [20, 100],
    loads: [0.5, 1, 2, 4],
    rounds: 2,
    windowMs: 1000,
    capacityWindow: { warmupMs: 1000, durationMs: 2000 },
    maxBatchSize: 128,
    maxQueueDelayMs: 2,
    replicas: 1,
    concurrency: 1,
    capacityRowsPerSec: null,
  } as SloOptions,
  bulk: {
    replicas: 1,
    maxBatchSize: 64,
    rounds: 2,
    throughputRequests: 40_000,
    onlineRatePerSec: 500,
    window: { warmupMs: 1000, durationMs: 5000 },
    maxBacklog: 60_000,
  } as BulkOptions,
}

const QUICK: typeof FULL = {
  replicas: [1],
  concurrency: [1],
  maxBatchSize: [1, 128],
  callers: [1, 64],
  connections: [16],
  policies: [
    { minBatchSize: 1, maxWaitMs: 0 },
    { minBatchSize: 16, maxWaitMs: 1 },
  ],
  shapeRounds: 1,
  targetRounds: 1,
  isolationRounds: 1,
  targetWindow: { warmupMs: 150, durationMs: 350 },
  thirdPartyReplicas: [1, 2],
  thirdPartyCallers: 4,
  memoryReplicas: [1],
  window: { warmupMs: 150, durationMs: 350 },
  httpWindow: { warmupMs: 200, durationMs: 600 },
  grpcRounds: 1,
  grpcWindow: { warmupMs: 150, durationMs: 400 },
  grpcConnections: 64,
  doorRounds: 1,
  httpRounds: 1,
  doorWindow: { warmupMs: 150, durationMs: 350 },
  core: { items: 50_000, producers: 256, maxBatchSize: 128, rounds: 1 },
  overload: {
    comfortable: 4,
    rowsPerRequest: [1, 64],
    encodings: ['json', 'binary'] as Array<'json' | 'binary'>,
    window: { warmupMs: 200, durationMs: 800 },
    rounds: 1,
    bin: null,
    timeoutMs: null,
    serveArgs: [],
    allocator: null,
  },
  repository: {
    connections: 16,
    window: { warmupMs: 300, durationMs: 2500 },
    rounds: 1,
    reloadEveryMs: 1000,
    cycles: 3,
    requestsPerCycle: 4,
    settleMs: 300,
  },
  deadlineGrid: {
    rows: [8],
    connections: [64],
    deadlinesMs: [20],
    rounds: 1,
    warmupMs: 300,
    durationMs: 1000,
    replicas: 1,
    maxBatchSize: 128,
    model: null,
  },
  slo: {
    models: ['heavy'],
    patterns: ['poisson'],
    deadlinesMs: [20],
    loads: [0.5, 2],
    rounds: 1,
    windowMs: 300,
    capacityWindow: { warmupMs: 200, durationMs: 400 },
    maxBatchSize: 128,
    maxQueueDelayMs: 2,
    replicas: 1,
    concurrency: 1,
    capacityRowsPerSec: null,
  },
  bulk: {
    replicas: 1,
    maxBatchSize: 64,
    rounds: 1,
    throughputRequests: 5_000,
    onlineRatePerSec: 200,
    window: { warmupMs: 300, durationMs: 1500 },
    maxBacklog: 20_000,
  },
}

function fail(message: string): never {
  throw new UsageError(message)
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

function intList(flag: string, value: string | undefined, min: number): number[] | undefined {
  if (value === undefined) return undefined
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (parts.length === 0) fail(`--${flag} expects a comma-separated list of integers >= ${min}, got "${value}"`)
  const list = parts.map((p) => {
    const n = Number(p)
    if (!Number.isInteger(n) || n < min) fail(`--${flag} expects a comma-separated list of integers >= ${min}, got "${value}"`)
    return n
  })
  return [...new Set(list)].sort((a, b) => a - b)
}

function intFlag(flag: string, value: string | undefined, min: number): number | undefined {
  return intList(flag, value, min)?.[0]
}

function encodingList(value: string | undefined): Array<'json' | 'binary'> | undefined {
  if (value === undefined) return undefined
  return value.split(',').map((e) => {
    const encoding = e.trim()
    if (encoding !== 'json' && encoding !== 'binary') fail(`--overload-encodings: expected json and/or binary, got "${encoding}"`)
    return encoding
  })
}

function allocatorFlag(value: string | undefined): 'glibc' | 'jemalloc' | null {
  if (value === undefined) return null
  if (value !== 'glibc' && value !== 'jemalloc') fail(`--overload-allocator: expected glibc or jemalloc, got "${value}"`)
  return value
}

function sloModels(value: string | undefined): SloModel[] | undefined {
  if (value === undefined) return undefined
  return value.split(',').map((m) => {
    const model = m.trim()
    if (!(SLO_MODELS as readonly string[]).includes(model)) fail(`--slo-models: expected demo and/or heavy, got "${model}"`)
    return model as SloModel
  })
}

function scenarioList(flag: string, value: string): Scenario[] {
  return value.split(',').map((s) => {
    const name = s.trim()
    if (!(SCENARIOS as readonly string[]).includes(name)) fail(`--${flag}: unknown scenario "${name}" (one of ${SCENARIOS.join(', ')})`)
    return name as Scenario
  })
}

/** Parses argv (without `node` and the script). Returns `null` for `--help`. */
export function parseConfig(argv: string[]): BenchConfig | null {
  // `pnpm bench -- --quick` can hand us the separator itself: drop it.
  const args = argv.filter((a) => a !== '--')
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      skip: { type: 'string' },
      model: { type: 'string' },
      dim: { type: 'string', multiple: true },
      'third-party-model': { type: 'string' },
      replicas: { type: 'string' },
      concurrency: { type: 'string' },
      'max-batch-size': { type: 'string' },
      callers: { type: 'string' },
      connections: { type: 'string' },
      'warmup-ms': { type: 'string' },
      'duration-ms': { type: 'string' },
      out: { type: 'string' },
      'overload-bin': { type: 'string' },
      'overload-timeout-ms': { type: 'string' },
      'overload-serve-arg': { type: 'string', multiple: true },
      'overload-allocator': { type: 'string' },
      'overload-rounds': { type: 'string' },
      'isolation-rounds': { type: 'string' },
      'overload-rows': { type: 'string' },
      'overload-encodings': { type: 'string' },
      'slo-models': { type: 'string' },
      'slo-rounds': { type: 'string' },
      'slo-capacity': { type: 'string' },
      'slo-concurrency': { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-charts': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) return null
  if (positionals.length > 0) fail(`unexpected argument "${positionals[0]}" (see --help)`)
  if (values.only !== undefined && values.skip !== undefined) fail('--only and --skip cannot be combined')

  const base = values.quick ? QUICK : FULL
  let scenarios: Scenario[] = SCENARIOS.filter((s) => !OPT_IN_SCENARIOS.includes(s))
  if (values.only !== undefined) scenarios = SCENARIOS.filter((s) => scenarioList('only', values.only as string).includes(s))
  if (values.skip !== undefined) {
    const skipped = scenarioList('skip', values.skip)
    scenarios = scenarios.filter((s) => !skipped.includes(s))
  }
  // The batching-policy, shape and process-count comparisons answer tuning questions; a smoke run does not need them.
  if (values.quick && values.only === undefined) scenarios = scenarios.filter((s) => s !== 'waits' && s !== 'shapes' && s !== 'processes')

  const dims: Record<string, number> = {}
  for (const d of values.dim ?? []) {
    const match = /^([^=]+)=(\d+)$/.exec(d)
    if (!match || Number(match[2]) < 1) fail(`--dim expects <axis name>=<integer >= 1>, got "${d}"`)
    dims[match[1]] = Number(match[2])
  }
  const warmupMs = intFlag('warmup-ms', values['warmup-ms'], 0)
  const durationMs = intFlag('duration-ms', values['duration-ms'], 1)
  const window = { warmupMs: warmupMs ?? base.window.warmupMs, durationMs: durationMs ?? base.window.durationMs }
  const scale = window.durationMs / base.window.durationMs
  return {
    quick: values.quick,
    scenarios,
    deadlineGrid: base.deadlineGrid,
    model: values.model ?? null,
    dims,
    thirdPartyModel: values['third-party-model'] ?? null,
    replicas: intList('replicas', values.replicas, 1) ?? base.replicas,
    concurrency: intList('concurrency', values.concurrency, 1) ?? base.concurrency,
    maxBatchSize: intList('max-batch-size', values['max-batch-size'], 1) ?? base.maxBatchSize,
    callers: intList('callers', values.callers, 1) ?? base.callers,
    connections: intList('connections', values.connections, 1) ?? base.connections,
    policies: base.policies,
    shapeRounds: base.shapeRounds,
    targetRounds: base.targetRounds,
    isolationRounds: intFlag('isolation-rounds', values['isolation-rounds'], 1) ?? base.isolationRounds,
    // Target rounds follow --warmup-ms/--duration-ms too.
    targetWindow: {
      warmupMs: warmupMs ?? base.targetWindow.warmupMs,
      durationMs: Math.max(1, Math.round(base.targetWindow.durationMs * scale)),
    },
    thirdPartyReplicas: base.thirdPartyReplicas,
    thirdPartyCallers: base.thirdPartyCallers,
    memoryReplicas: base.memoryReplicas,
    window,
    // HTTP windows follow --warmup-ms/--duration-ms proportionally.
    httpWindow: {
      warmupMs: warmupMs ?? base.httpWindow.warmupMs,
      durationMs: Math.max(200, Math.round(base.httpWindow.durationMs * scale)),
    },
    grpcRounds: base.grpcRounds,
    // gRPC windows follow --warmup-ms/--duration-ms proportionally, as HTTP's do.
    grpcWindow: {
      warmupMs: warmupMs ?? base.grpcWindow.warmupMs,
      durationMs: Math.max(200, Math.round(base.grpcWindow.durationMs * scale)),
    },
    grpcConnections: base.grpcConnections,
    doorRounds: base.doorRounds,
    httpRounds: base.httpRounds,
    doorWindow: {
      warmupMs: warmupMs ?? base.doorWindow.warmupMs,
      durationMs: Math.max(200, Math.round(base.doorWindow.durationMs * scale)),
    },
    core: base.core,
    overload: {
      ...base.overload,
      rounds: intFlag('overload-rounds', values['overload-rounds'], 1) ?? base.overload.rounds,
      rowsPerRequest: intList('overload-rows', values['overload-rows'], 1) ?? base.overload.rowsPerRequest,
      encodings: encodingList(values['overload-encodings']) ?? base.overload.encodings,
      bin: values['overload-bin'] ?? null,
      timeoutMs: intFlag('overload-timeout-ms', values['overload-timeout-ms'], 1) ?? null,
      serveArgs: values['overload-serve-arg'] ?? [],
      allocator: allocatorFlag(values['overload-allocator']),
    },
    repository: base.repository,
    slo: {
      ...base.slo,
      models: sloModels(values['slo-models']) ?? base.slo.models,
      rounds: intFlag('slo-rounds', values['slo-rounds'], 1) ?? base.slo.rounds,
      capacityRowsPerSec: intFlag('slo-capacity', values['slo-capacity'], 1) ?? null,
      concurrency: intFlag('slo-concurrency', values['slo-concurrency'], 1) ?? base.slo.concurrency,
    },
    bulk: base.bulk,
    json: values.json,
    out: values.out ?? null,
    charts: !values['no-charts'],
  }
}

/** Planned measurement points per scenario (for the progress bar and the time estimate). */
export function plannedPoints(config: BenchConfig, hasThirdParty: boolean): Record<Scenario, number> {
  const has = (s: Scenario) => config.scenarios.includes(s)
  return {
    core: has('core') ? 1 : 0,
    direct: has('direct') ? directCallers(config).length + 2 : 0,
    pool: has('pool') ? config.replicas.length * config.concurrency.length * config.maxBatchSize.length * config.callers.length : 0,
    shapes: has('shapes') ? config.shapeRounds : 0,
    waits: has('waits') ? config.policies.length * waitCallers(config).length : 0,
    targets: has('targets') ? config.targetRounds : 0,
    isolation: has('isolation') ? config.isolationRounds + 1 : 0,
    // Up to four servers per connection count and round, then the door rounds.
    http: has('http') ? 4 * config.httpRounds * config.connections.length + 4 * config.doorRounds + 2 : 0,
    // Five variants per round, then the 64-row point.
    grpc: has('grpc') ? 5 * config.grpcRounds + 1 : 0,
    processes: has('processes') ? 2 * config.connections.length : 0,
    'third-party': has('third-party') && hasThirdParty ? 2 + THIRD_PARTY_ROUNDS * config.thirdPartyReplicas.length : 0,
    memory: has('memory') ? (1 + config.memoryReplicas.length) * (hasThirdParty ? 2 : 1) : 0,
    overload: has('overload') ? 3 * config.overload.rounds * config.overload.rowsPerRequest.length * config.overload.encodings.length : 0,
    // Two windows per round, then one cycle series per isolation.
    repository: has('repository') ? 2 * config.repository.rounds + 2 : 0,
    slo: has('slo')
      ? config.slo.models.length *
        (1 + config.slo.rounds * config.slo.patterns.length * config.slo.deadlinesMs.length * config.slo.loads.length * SLO_POLICIES.length)
      : 0,
    // Two throughput rounds (pool, consume) and two online windows per round.
    bulk: has('bulk') ? 4 * config.bulk.rounds : 0,
    'deadline-grid': has('deadline-grid')
      ? 2 *
        config.deadlineGrid.rounds *
        config.deadlineGrid.rows.length *
        config.deadlineGrid.deadlinesMs.length *
        config.deadlineGrid.connections.length
      : 0,
  }
}

/** Caller counts of the batching-policy scenario: the fewest, a middle one, the most. */
export function waitCallers(config: BenchConfig): number[] {
  const c = config.callers
  return [...new Set([c[0], c[Math.floor((c.length - 1) / 2)], c[c.length - 1]])]
}

/** Caller counts of the direct single-row baseline: 1 (the latency reference) and the most. */
export function directCallers(config: BenchConfig): number[] {
  return [...new Set([1, config.callers[config.callers.length - 1]])]
}
