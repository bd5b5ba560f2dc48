/**
 * SLO: how many requests each batching policy answers within their deadline when
 * requests arrive open-loop (Poisson, or on/off bursts) at 0.5×, 1×, 2× and 4× of the
 * pool's capacity, measured in the same run with the open-loop generator in the loop
 * (`openLoopCapacity`: a load the host can serve and send twice over on schedule, at
 * most the closed-loop capacity). Through the library pool (`createPool`), so the
 * figures are the batcher's, not an HTTP server's.
 *
 * Policies, each a pool of its own on the same model and machine, in interleaved rounds
 * (every point runs each policy in turn, the order rotating from round to round):
 * - `deadline`: `batching.formation: 'deadline'` — the measured latency model picks the
 *   largest batch whose earliest deadline holds; rows that cannot make it fail at once,
 *   and requests the queue cannot drain in time are refused at the door;
 * - `count`: today's default count/time policy (`maxWaitMs: 0`, pull-based), with the
 *   deadline as each request's `timeoutMs` (`TimeoutError` once it passes);
 * - `max-queue-delay`: Triton's dynamic batcher — wait up to `maxQueueDelayMs` for the
 *   preferred batch size (`minBatchSize` = `maxBatchSize`), with Triton's default queue
 *   policy (no queue timeout, and a request's own timeout is not honoured), so every
 *   request runs and late answers are the client's problem.
 *
 * Per point: attainment (answers within the deadline ÷ requests sent), goodput (those
 * answers per second, also ÷ capacity), wasted work — rows the replicas ran (counted by the
 * pool's `onBatchTimings` events) that did not yield an answer within its deadline: rows
 * answered late, and rows whose request had already failed while its batch ran — and
 * the p50/p99 of every answer.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BatchingOptions, Pool, PoolOptions, RowInput } from '@inferpool/host'
import { buildMlp, mlpWeights, serializeModel } from '@inferpool/model-builder'
import { runClosedLoop } from '../closed-loop.js'
import type { LatencySummary } from '../latency.js'
import { readModelInfo, type ModelInfo } from '../model.js'
import { arrivals, runOpenLoop, type ArrivalPattern } from '../open-loop.js'
import { demoModelPath } from '../paths.js'
import type { CreatePool } from '../pool-api.js'
import { HEAVY_MLP_SIZES, SLO_POLICIES, type SloModel, type SloOptions, type SloPolicy } from '../slo-plan.js'
import { poolRows } from './pool.js'
import { median } from './targets.js'

export interface SloPoint {
  model: SloModel
  pattern: ArrivalPattern
  deadlineMs: number
  load: number
  policy: SloPolicy
  round: number
  /** Requests per second the schedule asked for (load × capacity). */
  offeredPerSec: number
  /** Requests per second actually sent (lower when the generator fell behind). */
  sentPerSec: number
  sent: number
  windowMs: number
  withinDeadline: number
  late: number
  failed: Record<string, number>
  /** withinDeadline ÷ sent. */
  attainment: number
  /** withinDeadline per second of the window. */
  goodputPerSec: number
  /** goodputPerSec ÷ the model's capacity. */
  goodputVsCapacity: number
  /** Rows the pool ran in the point's batches. */
  rowsRun: number
  /** Rows run that did not yield an answer within its deadline (rowsRun − withinDeadline). */
  wastedRows: number
  meanBatchSize: number
  answeredMs: LatencySummary
  /** p99 of how far behind its schedule the generator sent a request (ms). */
  sendLagP99Ms: number
}

export interface SloModelInfo {
  model: SloModel
  path: string
  maxBatchSize: number
  replicas: number
  /** The capacity the loads are multiples of: the open-loop search's (`capacitySteps`), at most the closed-loop one. */
  capacityRowsPerSec: number
  /** Closed-loop rows/s of the count policy at `capacityCallers` callers, before the points and after them. */
  closedLoopRowsPerSec: number
  capacityAfterRowsPerSec: number
  capacityCallers: number
  /** The open-loop capacity search, one step per rate tried (the first from the closed-loop capacity down). */
  capacitySteps: CapacityStep[]
  /** The deadline pool's latency model once the points ran (ms by batch size). */
  latencyEstimates: Array<{ size: number; ms: number | undefined }>
}

/** Medians over the rounds of one (model, pattern, deadline, load, policy). */
export interface SloMedian {
  model: SloModel
  pattern: ArrivalPattern
  deadlineMs: number
  load: number
  policy: SloPolicy
  attainment: number
  goodputVsCapacity: number
  goodputPerSec: number
  /** The largest wasted-row count of any round (a target of 0 must hold in every round). */
  wastedRowsMax: number
  wastedRows: number
  meanBatchSize: number
  p50Ms: number
  p99Ms: number
  sentPerSec: number
}

export interface SloTarget {
  id: 'goodput-at-2x-20ms' | 'wasted-at-2x-20ms' | 'attainment-at-0.5x'
  model: SloModel
  pattern: ArrivalPattern
  deadlineMs: number
  description: string
  actual: number
  target: number
  comparison: '>=' | '<='
  met: boolean
}

export interface SloResult {
  options: SloOptions
  models: SloModelInfo[]
  points: SloPoint[]
  medians: SloMedian[]
  /** The targets, judged on the `deadline` policy's medians. */
  targets: SloTarget[]
}

/** Writes the heavy MLP to a temporary directory (deterministic weights); returns its path and a cleanup. */
async function writeHeavyModel(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'inferpool-slo-'))
  const path = join(dir, 'heavy-mlp.onnx')
  await writeFile(path, serializeModel(buildMlp(mlpWeights({ sizes: HEAVY_MLP_SIZES, seed: 7 }), { name: 'heavy-mlp' })))
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** The pool options of each policy. */
function policyOptions(policy: SloPolicy, info: ModelInfo, options: SloOptions): PoolOptions & { worker?: undefined } {
  const base = {
    model: info.path,
    replicas: options.replicas,
    concurrency: options.concurrency,
    session: { intraOpNumThreads: 1 },
    logger: { warn: () => {}, info: () => {} },
  }
  const batching: BatchingOptions = { maxBatchSize: options.maxBatchSize }
  if (policy === 'deadline') return { ...base, batching: { ...batching, formation: 'deadline' } }
  if (policy === 'count') return { ...base, batching }
  return {
    ...base,
    batching: { ...batching, minBatchSize: options.maxBatchSize, maxWaitMs: options.maxQueueDelayMs },
    // Triton's default ModelQueuePolicy: no default timeout, no override by the request.
    queuePolicy: {},
  }
}

/**
 * Counts the rows the replicas ran (`onBatchTimings`: a batch whose model run happened,
 * its rows the ones run), and the batches they came in. Not the batcher's settled
 * batches: a batch whose rows had all gone before it was sent, or whose rows the replica
 * left out as too late for their deadline, settles without its rows having run.
 */
function rowCounter(pool: Pool): { read: () => { rows: number; batches: number }; stop: () => void } {
  let rows = 0
  let batches = 0
  const stop = pool.observe({
    onBatchTimings: (event) => {
      rows += event.rows
      batches++
    },
  })
  return { read: () => ({ rows, batches }), stop }
}

/** Closed-loop runs at a few caller counts, so the pool's latency model has seen small and large batches. */
async function warm(pool: Pool, rows: RowInput[], maxBatchSize: number, ms: number): Promise<void> {
  let next = 0
  const mask = rows.length - 1
  for (const callers of [1, 8, Math.max(1, maxBatchSize / 2), maxBatchSize * 4]) {
    await runClosedLoop({ callers, warmupMs: 0, durationMs: ms, call: () => pool.infer(rows[next++ & mask]) })
  }
}

async function capacity(pool: Pool, rows: RowInput[], callers: number, window: SloOptions['capacityWindow']): Promise<number> {
  let next = 0
  const mask = rows.length - 1
  const r = await runClosedLoop({ callers, ...window, call: () => pool.infer(rows[next++ & mask]) })
  return r.rowsPerSec
}

/**
 * Longest p99 lag of the generator behind its schedule for a load to count as sent on
 * time, as a share of the plan's shortest deadline: half of it. (A fixed 5 ms, tried
 * first, was within the host's own jitter: one GC pause in a 1 s window passes it.)
 */
const MAX_SEND_LAG_SHARE = 0.5
/** Share of requests the count pool must answer within the longest deadline for a rate to count as served. */
const MIN_SERVED = 0.99
/** Each step of the search tries this fraction of the rate before. */
const CAPACITY_STEP = 0.8
const CAPACITY_STEPS = 10

/** One rate tried by the open-loop capacity search. */
export interface CapacityStep {
  rowsPerSec: number
  /** The count pool at this rate, deadline the longest of the plan: answered within it ÷ sent, and the generator's p99 lag (ms). */
  served: number
  sendLagP99Ms: number
  /** The deadline pool at twice this rate, deadline the shortest of the plan: the schedule's window ÷ the time it took to send, and the generator's p99 lag (ms). */
  doubleSent: number
  doubleSendLagP99Ms: number
  ok: boolean
}

/**
 * The capacity the loads are multiples of, with the open-loop generator in the loop:
 * the highest rate, from the closed-loop capacity down in steps of ×0.8, that the host
 * both serves on schedule (the count pool answers >= 99 % within the longest deadline,
 * the generator's p99 lag <= half the shortest deadline) and can send twice over on
 * schedule (the deadline pool at 2×, the shortest deadline: >= 98 % of the schedule sent
 * within its window, lag p99 <= half the shortest deadline).
 *
 * The closed-loop figure alone is the replicas' capacity when the host thread has
 * nothing else to do. Where the host thread is the bottleneck (the demo MLP's batches
 * run in 0.1 ms, its host time per row is what limits), the generator shares it: at 2×
 * the closed-loop figure it sent 113–205 ms behind its schedule under every policy, so
 * "2×" was not a load anyone sent, and the points measured the generator.
 */
async function openLoopCapacity(
  count: Pool,
  deadline: Pool,
  rows: RowInput[],
  closedLoop: number,
  options: SloOptions,
): Promise<{ capacity: number; steps: CapacityStep[] }> {
  let next = 0
  const mask = rows.length - 1
  const longest = Math.max(...options.deadlinesMs)
  const shortest = Math.min(...options.deadlinesMs)
  const steps: CapacityStep[] = []
  const maxLag = shortest * MAX_SEND_LAG_SHARE
  let rate = closedLoop
  for (let i = 0; i < CAPACITY_STEPS; i++, rate *= CAPACITY_STEP) {
    const seed = 7_000_003 + i
    const at = await runOpenLoop({
      times: arrivals('poisson', rate, options.windowMs, seed),
      durationMs: options.windowMs,
      deadlineMs: longest,
      send: () => count.infer(rows[next++ & mask], { timeoutMs: longest }),
    })
    await pause(50)
    const doubled = arrivals('poisson', 2 * rate, options.windowMs, seed + 1)
    const twice = await runOpenLoop({
      times: doubled,
      durationMs: options.windowMs,
      deadlineMs: shortest,
      send: () => deadline.infer(rows[next++ & mask], { timeoutMs: shortest }),
    })
    await pause(50)
    const served = at.sent === 0 ? 1 : at.withinDeadline / at.sent
    // Sent on schedule: the whole schedule went out within its window (plus the lag allowed).
    const doubleSent = options.windowMs / twice.windowMs
    const ok = served >= MIN_SERVED && at.sendLagMs.p99 <= maxLag && twice.sendLagMs.p99 <= maxLag && doubleSent >= 0.98
    steps.push({
      rowsPerSec: rate,
      served,
      sendLagP99Ms: at.sendLagMs.p99,
      doubleSent,
      doubleSendLagP99Ms: twice.sendLagMs.p99,
      ok,
    })
    if (ok) return { capacity: rate, steps }
  }
  // None held: the lowest rate tried (the points then show how far from the targets).
  return { capacity: steps[steps.length - 1].rowsPerSec, steps }
}

/** A seed shared by every policy of one point and round, so they see the same arrivals. */
function seedOf(pattern: ArrivalPattern, deadlineMs: number, load: number, round: number): number {
  return ((pattern === 'poisson' ? 1 : 2) * 1_000_003 + deadlineMs * 10_007 + Math.round(load * 100) * 101 + round) >>> 0
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function runSlo(createPool: CreatePool, options: SloOptions, onPoint: (label: string) => void): Promise<SloResult> {
  const models: SloModelInfo[] = []
  const points: SloPoint[] = []
  for (const model of options.models) {
    const heavy = model === 'heavy' ? await writeHeavyModel() : undefined
    try {
      const info = await readModelInfo(heavy?.path ?? demoModelPath())
      const rows = poolRows(info)
      const mask = rows.length - 1
      const pools = new Map<SloPolicy, Pool>()
      try {
        for (const policy of SLO_POLICIES) pools.set(policy, await createPool(policyOptions(policy, info, options)))
        for (const pool of pools.values()) await warm(pool, rows, options.maxBatchSize, options.capacityWindow.warmupMs / 2)
        const count = pools.get('count') as Pool
        const replicas = count.metadata.replicas
        const capacityCallers = options.maxBatchSize * replicas * options.concurrency * 2
        const closedLoop = await capacity(count, rows, capacityCallers, options.capacityWindow)
        const search =
          options.capacityRowsPerSec === null
            ? await openLoopCapacity(count, pools.get('deadline') as Pool, rows, closedLoop, options)
            : { capacity: options.capacityRowsPerSec, steps: [] }
        const cap = search.capacity
        onPoint(`slo ${model}: capacity ${Math.round(cap)} rows/s open loop (closed loop ${Math.round(closedLoop)})`)
        let next = 0
        for (let round = 1; round <= options.rounds; round++) {
          for (const pattern of options.patterns)
            for (const deadlineMs of options.deadlinesMs)
              for (const load of options.loads) {
                const times = arrivals(pattern, load * cap, options.windowMs, seedOf(pattern, deadlineMs, load, round))
                // Rotate the policy order from round to round (and point to point), so none always goes first.
                const shift = (round + points.length) % SLO_POLICIES.length
                const order = [...SLO_POLICIES.slice(shift), ...SLO_POLICIES.slice(0, shift)]
                for (const policy of order) {
                  const pool = pools.get(policy) as Pool
                  const counter = rowCounter(pool)
                  let result
                  try {
                    result = await runOpenLoop({
                      times,
                      durationMs: options.windowMs,
                      deadlineMs,
                      send: () => pool.infer(rows[next++ & mask], { timeoutMs: deadlineMs }),
                    })
                  } finally {
                    counter.stop()
                  }
                  const ran = counter.read()
                  const windowSec = result.windowMs / 1000
                  const goodputPerSec = result.withinDeadline / windowSec
                  points.push({
                    model,
                    pattern,
                    deadlineMs,
                    load,
                    policy,
                    round,
                    offeredPerSec: load * cap,
                    sentPerSec: result.sent / windowSec,
                    sent: result.sent,
                    windowMs: result.windowMs,
                    withinDeadline: result.withinDeadline,
                    late: result.late,
                    failed: result.failed,
                    attainment: result.sent === 0 ? 1 : result.withinDeadline / result.sent,
                    goodputPerSec,
                    goodputVsCapacity: goodputPerSec / cap,
                    rowsRun: ran.rows,
                    wastedRows: ran.rows - result.withinDeadline,
                    meanBatchSize: ran.batches === 0 ? 0 : ran.rows / ran.batches,
                    answeredMs: result.answeredMs,
                    sendLagP99Ms: result.sendLagMs.p99,
                  })
                  onPoint(`slo ${model} ${pattern} ${deadlineMs} ms ${load}× ${policy} (round ${round})`)
                  // Let the timers and the replicas' last messages settle before the next policy.
                  await pause(50)
                }
              }
        }
        const after = await capacity(count, rows, capacityCallers, options.capacityWindow)
        const estimates = (pools.get('deadline') as Pool).stats.latencyEstimates
        models.push({
          model,
          path: heavy === undefined ? info.path : `(temporary) heavy MLP ${HEAVY_MLP_SIZES.join('-')}`,
          maxBatchSize: count.metadata.maxBatchSize,
          replicas,
          capacityRowsPerSec: cap,
          closedLoopRowsPerSec: closedLoop,
          capacityAfterRowsPerSec: after,
          capacityCallers,
          capacitySteps: search.steps,
          latencyEstimates: estimates.map((e) => ({ size: e.size, ms: e.ms })),
        })
      } finally {
        await Promise.all([...pools.values()].map((pool) => pool.close()))
      }
    } finally {
      await heavy?.cleanup()
    }
  }
  const medians = sloMedians(points)
  return { options, models, points, medians, targets: sloTargets(medians) }
}

/** Medians over rounds, per (model, pattern, deadline, load, policy), in the order first seen. */
export function sloMedians(points: readonly SloPoint[]): SloMedian[] {
  const groups = new Map<string, SloPoint[]>()
  for (const p of points) {
    const key = `${p.model}|${p.pattern}|${p.deadlineMs}|${p.load}|${p.policy}`
    groups.set(key, [...(groups.get(key) ?? []), p])
  }
  return [...groups.values()].map((ps) => {
    const m = (f: (p: SloPoint) => number) => median(ps.map(f)) as number
    const p = ps[0]
    return {
      model: p.model,
      pattern: p.pattern,
      deadlineMs: p.deadlineMs,
      load: p.load,
      policy: p.policy,
      attainment: m((x) => x.attainment),
      goodputVsCapacity: m((x) => x.goodputVsCapacity),
      goodputPerSec: m((x) => x.goodputPerSec),
      wastedRowsMax: Math.max(...ps.map((x) => x.wastedRows)),
      wastedRows: m((x) => x.wastedRows),
      meanBatchSize: m((x) => x.meanBatchSize),
      p50Ms: m((x) => x.answeredMs.p50),
      p99Ms: m((x) => x.answeredMs.p99),
      sentPerSec: m((x) => x.sentPerSec),
    }
  })
}

/** The targets on the deadline policy: at 2× and 20 ms, goodput ≥ 0.9× capacity and no wasted row; at 0.5×, ≥ 99.9 % within the deadline. */
export function sloTargets(medians: readonly SloMedian[]): SloTarget[] {
  const targets: SloTarget[] = []
  for (const m of medians) {
    if (m.policy !== 'deadline') continue
    const where = { model: m.model, pattern: m.pattern, deadlineMs: m.deadlineMs }
    if (m.load === 2 && m.deadlineMs === 20) {
      targets.push({
        id: 'goodput-at-2x-20ms',
        ...where,
        description: 'within-deadline goodput ÷ capacity at 2× capacity, 20 ms deadline',
        actual: m.goodputVsCapacity,
        target: 0.9,
        comparison: '>=',
        met: m.goodputVsCapacity >= 0.9,
      })
      targets.push({
        id: 'wasted-at-2x-20ms',
        ...where,
        description: 'rows run whose answer came late, at 2× capacity, 20 ms deadline (most of any round)',
        actual: m.wastedRowsMax,
        target: 0,
        comparison: '<=',
        met: m.wastedRowsMax <= 0,
      })
    }
    if (m.load === 0.5) {
      targets.push({
        id: 'attainment-at-0.5x',
        ...where,
        description: 'share of requests answered within the deadline at 0.5× capacity',
        actual: m.attainment,
        target: 0.999,
        comparison: '>=',
        met: m.attainment >= 0.999,
      })
    }
  }
  return targets
}
