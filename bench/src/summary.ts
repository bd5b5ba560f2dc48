/**
 * Turns the points of a run into the ratios the issues set as targets, and into the
 * settings the figures point to. Every figure here comes from points of the same run.
 */
import type { BenchResult, Summary, TargetCheck } from './results.js'
import type { GrpcVariant } from './scenarios/grpc.js'
import type { PoolPoint } from './scenarios/pool.js'

const maxOf = (xs: number[]): number => xs.reduce((a, b) => Math.max(a, b), -Infinity)

export function summarize(r: Omit<BenchResult, 'summary'>): Summary {
  const t = r.targets
  const limit = t?.median.practicalLimitRowsPerSec ?? r.direct?.practicalLimit?.rowsPerSec ?? null
  const direct1 = r.direct?.row.find((p) => p.callers === 1) ?? null
  const directMost = r.direct?.row.length ? r.direct.row.reduce((a, b) => (b.callers > a.callers ? b : a)) : null

  const poolMost = r.pool.length ? maxOf(r.pool.map((p) => p.callers)) : null
  const atMost = r.pool.filter((p) => p.callers === poolMost)
  const best = atMost.length ? atMost.reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a)) : null
  const off = best
    ? atMost.find((p) => p.replicas === best.replicas && p.concurrency === best.concurrency && p.maxBatchSize === 1)
    : undefined
  const bestAt1 = best
    ? r.pool.find(
        (p) =>
          p.callers === 1 && p.replicas === best.replicas && p.concurrency === best.concurrency && p.maxBatchSize === best.maxBatchSize,
      )
    : undefined

  const targets: TargetCheck[] = []
  const check = (t: Omit<TargetCheck, 'met'>): void => {
    const met = t.actual === null ? null : t.comparison === '>=' ? t.actual >= t.target : t.actual <= t.target
    targets.push({ ...t, met })
  }
  check({
    id: 'core-vs-dataloader',
    description: 'DynamicBatcher items/s ÷ dataloader items/s (no-op batches, 256 producers, maxBatchSize 128)',
    actual: r.core?.ratio ?? null,
    target: 1,
    comparison: '>=',
    detail: r.core
      ? `${Math.round(r.core.inferpoolItemsPerSec)} vs ${Math.round(r.core.dataloaderItemsPerSec)} items/s`
      : 'core scenario not run',
  })
  if (t) {
    const m = t.median
    const shape = `replicas ${t.shape.replicas}, concurrency ${t.shape.concurrency}, maxBatchSize ${t.shape.maxBatchSize}`
    const rounds = `median of ${t.rounds.length} interleaved round(s)`
    check({
      id: 'pool-vs-practical-limit',
      description: `pool rows/s at ${t.callers} callers ÷ the practical limit`,
      actual: m.poolRowsPerSec / m.practicalLimitRowsPerSec,
      target: 0.8,
      comparison: '>=',
      detail: `${shape}: ${Math.round(m.poolRowsPerSec)} vs ${Math.round(m.practicalLimitRowsPerSec)} rows/s, ${rounds}`,
    })
    check({
      id: 'pool-vs-batching-off',
      description: `pool rows/s ÷ the same replicas × concurrency with maxBatchSize 1, at ${t.callers} callers`,
      actual: m.batchingOffRowsPerSec > 0 ? m.poolRowsPerSec / m.batchingOffRowsPerSec : null,
      target: 15,
      comparison: '>=',
      detail: `${Math.round(m.poolRowsPerSec)} vs ${Math.round(m.batchingOffRowsPerSec)} rows/s, ${rounds}`,
    })
    check({
      id: 'p50-at-1-caller',
      description: 'pool p50 − direct onnxruntime-node p50 at 1 caller (ms)',
      actual: m.poolP50MsAt1 - m.directP50Ms,
      target: 0.1,
      comparison: '<=',
      detail: `${shape}: ${m.poolP50MsAt1.toFixed(3)} vs ${m.directP50Ms.toFixed(3)} ms, ${rounds}`,
    })
    check({
      id: 'host-cpu-per-row',
      description: `host-thread CPU µs per row of the pool at ${t.callers} callers`,
      actual: m.hostCpuUsPerRow,
      target: 1.2,
      comparison: '<=',
      detail:
        m.hostCpuUsPerRow === null
          ? 'per-thread CPU is not readable on this platform (/proc)'
          : `${shape}: ${m.hostCpuUsPerRow.toFixed(2)} µs on the host thread, plus ${(m.platformCpuUsPerRow ?? 0).toFixed(2)} µs on V8's platform threads (garbage collection, compilation: every isolate's), ${rounds}`,
    })
  } else {
    check({
      id: 'pool-vs-practical-limit',
      description: `best pool rows/s at ${poolMost ?? '?'} callers ÷ the practical limit`,
      actual: best && limit ? best.rowsPerSec / limit : null,
      target: 0.8,
      comparison: '>=',
      detail:
        best && limit
          ? `${label(best)}: ${Math.round(best.rowsPerSec)} vs ${Math.round(limit)} rows/s (sweep)`
          : 'pool or direct scenario not run',
    })
    check({
      id: 'pool-vs-batching-off',
      description: `best pool rows/s ÷ the same replicas × concurrency with maxBatchSize 1, at ${poolMost ?? '?'} callers`,
      actual: best && off && off.rowsPerSec > 0 ? best.rowsPerSec / off.rowsPerSec : null,
      target: 15,
      comparison: '>=',
      detail:
        best && off
          ? `${Math.round(best.rowsPerSec)} vs ${Math.round(off.rowsPerSec)} rows/s (sweep)`
          : 'no maxBatchSize 1 point in the sweep',
    })
    check({
      id: 'p50-at-1-caller',
      description: 'pool p50 − direct onnxruntime-node p50 at 1 caller (ms), best pool shape',
      actual: bestAt1 && direct1 ? bestAt1.latencyMs.p50 - direct1.latencyMs.p50 : null,
      target: 0.1,
      comparison: '<=',
      detail:
        bestAt1 && direct1 ? `${bestAt1.latencyMs.p50.toFixed(3)} vs ${direct1.latencyMs.p50.toFixed(3)} ms (sweep)` : 'no 1-caller points',
    })
  }

  const iso = r.isolation
  if (iso) {
    const m = iso.median
    const shape = `replicas ${iso.shape.replicas}, concurrency ${iso.shape.concurrency}, maxBatchSize ${iso.shape.maxBatchSize}`
    const rounds = `median of ${iso.rounds.length} interleaved round(s)`
    check({
      id: 'process-vs-thread',
      description: `process-mode rows/s ÷ thread-mode rows/s at ${iso.callers} callers`,
      actual: m.threadRowsPerSec > 0 ? m.processRowsPerSec / m.threadRowsPerSec : null,
      // Issue 21's target.
      target: 0.95,
      comparison: '>=',
      detail: `${shape}: ${Math.round(m.processRowsPerSec)} vs ${Math.round(m.threadRowsPerSec)} rows/s, ${rounds}`,
    })
    check({
      id: 'process-p50-at-1-caller',
      description: 'process-mode p50 − thread-mode p50 at 1 caller (ms)',
      actual: m.processP50MsAt1 - m.threadP50MsAt1,
      // Issue 21's target.
      target: 0.03,
      comparison: '<=',
      detail: `${shape}: ${m.processP50MsAt1.toFixed(3)} vs ${m.threadP50MsAt1.toFixed(3)} ms, ${rounds}`,
    })
  }

  const grpc = grpcSummary(r)
  if (grpc) {
    check({
      id: 'grpc-stream-vs-json',
      description: 'gRPC streaming ÷ JSON HTTP, single-row requests, same server and pool',
      actual: grpc.streamVsJson,
      target: 1.5,
      comparison: '>=',
      detail: `medians of ${grpc.rounds} interleaved round(s) at ${grpc.connections} connections/streams`,
    })
  }

  if (r.door) {
    const d = r.door.summary
    const rounds = `median of ${d.rounds} interleaved round(s), ${d.connections} connections, single-row requests`
    check({
      id: 'door-json-vs-noop',
      description: 'JSON requests/s through inferpool ÷ through a no-op server parsing the same body',
      actual: d.jsonVsNoop,
      target: 0.8,
      comparison: '>=',
      detail: `${Math.round(d.single.inferpool.json)} vs ${Math.round(d.single.noop.json)} req/s (${rounds})`,
    })
    check({
      id: 'door-binary-vs-json',
      description: 'binary tensor data requests/s ÷ JSON requests/s, both through inferpool',
      actual: d.binaryVsJson,
      target: 1.3,
      comparison: '>=',
      detail: `${Math.round(d.single.inferpool.binary)} vs ${Math.round(d.single.inferpool.json)} req/s (${rounds})`,
    })
  }

  const httpMost = r.http.length ? maxOf(r.http.map((p) => p.connections)) : null
  const httpAt = (server: string) => r.http.find((p) => p.server === server && p.connections === httpMost)?.rowsPerSec ?? null
  const hb = httpAt('batched')
  const ho = httpAt('batching-off')
  const hp = httpAt('plain-node-http')
  const hpy = httpAt('python-fastapi')

  return {
    practicalLimitRowsPerSec: limit,
    directRowRowsPerSec: directMost?.rowsPerSec ?? null,
    bestPool: best
      ? {
          replicas: best.replicas,
          concurrency: best.concurrency,
          maxBatchSize: best.maxBatchSize,
          callers: best.callers,
          rowsPerSec: best.rowsPerSec,
          efficiency: best.efficiency,
        }
      : null,
    batchingOffRowsPerSec: off?.rowsPerSec ?? null,
    http:
      httpMost === null
        ? null
        : {
            connections: httpMost,
            batchedRowsPerSec: hb,
            batchingOffRowsPerSec: ho,
            plainRowsPerSec: hp,
            batchedVsBatchingOff: hb && ho ? hb / ho : null,
            batchedVsPlain: hb && hp ? hb / hp : null,
            pythonRowsPerSec: hpy,
            batchedVsPython: hb && hpy ? hb / hpy : null,
          },
    grpc,
    targets,
    suggested: suggest(r, best),
  }
}

function medianOf(values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

function grpcSummary(r: Omit<BenchResult, 'summary'>): Summary['grpc'] {
  const single = r.grpc.filter((p) => p.rowsPerRequest === 1)
  if (single.length === 0) return null
  const medianRowsPerSec: Partial<Record<GrpcVariant, number>> = {}
  const medianServerCpuUsPerRow: Partial<Record<GrpcVariant, number>> = {}
  for (const variant of new Set(single.map((p) => p.variant))) {
    const points = single.filter((p) => p.variant === variant)
    const m = medianOf(points.map((p) => p.rowsPerSec))
    if (m !== null) medianRowsPerSec[variant] = m
    const cpu = medianOf(points.map((p) => p.serverCpuUsPerRow))
    if (cpu !== null) medianServerCpuUsPerRow[variant] = cpu
  }
  const jsonCpu = medianServerCpuUsPerRow['http-json']
  const streamCpu = medianServerCpuUsPerRow['grpc-stream']
  const over = (a: GrpcVariant, b: GrpcVariant): number | null => {
    const x = medianRowsPerSec[a]
    const y = medianRowsPerSec[b]
    return x !== undefined && y !== undefined && y > 0 ? x / y : null
  }
  return {
    connections: single[0].connections,
    rounds: Math.max(...single.map((p) => p.round)),
    medianRowsPerSec,
    streamVsJson: over('grpc-stream', 'http-json'),
    unaryVsJson: over('grpc-unary', 'http-json'),
    streamVsNoop: over('grpc-stream', 'noop-grpc-stream'),
    unaryVsNoop: over('grpc-unary', 'noop-grpc-unary'),
    stream64RowsPerSec: r.grpc.find((p) => p.rowsPerRequest === 64)?.rowsPerSec ?? null,
    medianServerCpuUsPerRow,
    jsonVsStreamCpu: jsonCpu !== undefined && streamCpu !== undefined && streamCpu > 0 ? jsonCpu / streamCpu : null,
  }
}

function label(p: PoolPoint): string {
  return `replicas ${p.replicas}, concurrency ${p.concurrency}, maxBatchSize ${p.maxBatchSize}`
}

/**
 * Settings the figures point to:
 * - replicas × concurrency: the shape with the most rows/s at the most callers.
 * - maxBatchSize: the smallest size within 5% of the best rows/s of that shape at the
 *   most callers (bigger batches only add tail latency past that point).
 * - minBatchSize / maxWaitMs: the batching policy with the best rows/s at the middle
 *   caller count unless it costs more than 10% p50 at 1 caller; else no waiting.
 */
function suggest(r: Omit<BenchResult, 'summary'>, bestSwept: PoolPoint | null): Summary['suggested'] {
  if (!bestSwept) return null
  const evidence: string[] = []
  let replicas = bestSwept.replicas
  let concurrency = bestSwept.concurrency
  const shapesMost = r.shapes ? r.shapes.median.filter((m) => m.callers === maxOf(r.shapes!.callers)) : []
  if (shapesMost.length) {
    const top = shapesMost.reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a))
    replicas = top.replicas
    concurrency = top.concurrency
    evidence.push(
      `replicas × concurrency, medians of interleaved rounds at ${top.callers} callers, maxBatchSize ${top.maxBatchSize}: ` +
        shapesMost.map((m) => `r${m.replicas} c${m.concurrency}: ${Math.round(m.rowsPerSec)} rows/s`).join(', '),
    )
  } else {
    evidence.push(
      `most rows/s at ${bestSwept.callers} callers in the sweep: ${label(bestSwept)} (${Math.round(bestSwept.rowsPerSec)} rows/s)`,
    )
  }
  const shape = r.pool.filter((p) => p.callers === bestSwept.callers && p.replicas === replicas && p.concurrency === concurrency)
  const top = maxOf(shape.map((p) => p.rowsPerSec))
  const enough = shape.filter((p) => p.rowsPerSec >= 0.95 * top).sort((a, b) => a.maxBatchSize - b.maxBatchSize)[0] ?? bestSwept
  evidence.push(
    `maxBatchSize ${enough.maxBatchSize} is the smallest within 5% of that shape's best (${shape
      .map((p) => `b${p.maxBatchSize}: ${Math.round(p.rowsPerSec)}`)
      .join(', ')} rows/s)`,
  )
  let minBatchSize = 1
  let maxWaitMs = 0
  if (r.waits.length) {
    const callers = [...new Set(r.waits.map((p) => p.callers))].sort((a, b) => a - b)
    const mid = callers[Math.floor((callers.length - 1) / 2)]
    const key = (p: PoolPoint) => `${p.minBatchSize}/${p.maxWaitMs}`
    const noWait = (p: PoolPoint) => p.minBatchSize === 1 && p.maxWaitMs === 0
    const atMid = r.waits.filter((p) => p.callers === mid)
    const at1 = new Map(r.waits.filter((p) => p.callers === callers[0]).map((p) => [key(p), p]))
    const base = atMid.find(noWait)
    const winner = atMid.reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a))
    const winnerLatency = at1.get(key(winner))?.latencyMs.p50
    const baseLatency = base ? at1.get(key(base))?.latencyMs.p50 : undefined
    const worthIt =
      base !== undefined &&
      winner !== base &&
      winner.rowsPerSec > base.rowsPerSec * 1.05 &&
      (winnerLatency === undefined || baseLatency === undefined || winnerLatency <= baseLatency * 1.1)
    if (worthIt) {
      minBatchSize = winner.minBatchSize ?? 1
      maxWaitMs = winner.maxWaitMs ?? 0
    }
    evidence.push(
      `batching policy at ${mid} callers: ${atMid.map((p) => `min ${p.minBatchSize}/wait ${p.maxWaitMs} ms: ${Math.round(p.rowsPerSec)} rows/s`).join(', ')}; ` +
        `p50 at ${callers[0]} caller(s): ${[...at1.values()].map((p) => `min ${p.minBatchSize}/wait ${p.maxWaitMs}: ${p.latencyMs.p50.toFixed(2)} ms`).join(', ')}`,
    )
  }
  return { replicas, concurrency, maxBatchSize: enough.maxBatchSize, minBatchSize, maxWaitMs, evidence }
}
