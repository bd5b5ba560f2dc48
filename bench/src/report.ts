/** The human-readable table printed at the end of a run. */
import type { BenchResult } from './results.js'
import type { OverloadPoint } from './scenarios/overload.js'
import type { SloResult } from './scenarios/slo.js'
import type { BulkResult } from './scenarios/bulk.js'
import { median } from './scenarios/targets.js'

function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((r) => r.map(String))
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)))
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n')
}

const n0 = (x: number | null | undefined) => (x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US'))
const n2 = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2))
const ms = (x: number) => x.toFixed(x < 10 ? 3 : 1)
/** The unit a target's figure is in: ms for latencies, µs for CPU per row, × for ratios. */
const unitOf = (id: string): string => (id.includes('p50') ? 'ms' : id.includes('cpu') ? 'µs' : '×')
const ratio = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${x.toFixed(2)}×`)
const mib = (x: number | null) => (x === null ? '–' : x.toFixed(0))

/** Per series of the overload scenario: each round's 4× and 16× ratios and their medians. */
export function overloadMedians(points: readonly OverloadPoint[]): string[] {
  const series = new Map<string, OverloadPoint[]>()
  for (const p of points) {
    const key = `${p.encoding} ${p.rowsPerRequest} row${p.rowsPerRequest === 1 ? '' : 's'}`
    series.set(key, [...(series.get(key) ?? []), p])
  }
  return [...series].map(([key, ps]) => {
    const at = (load: number) => ps.filter((p) => p.load === load).map((p) => p.goodputVsCapacity)
    const rounds = (load: number) =>
      `${at(load)
        .map((x) => x.toFixed(2))
        .join(', ')} (median ${ratio(median(at(load)))})`
    // A stricter reading: 16× against the best lower point of its round (the 4× point
    // beats the 16-connection one when 16 connections do not saturate the server).
    const againstBest = ps
      .filter((p) => p.load === 16)
      .map((p16) => {
        const lower = ps.filter((p) => p.round === p16.round && p.load < 16).map((p) => p.okPerSec)
        return lower.length === 0 ? Number.NaN : p16.okPerSec / Math.max(...lower)
      })
    const best = `${againstBest.map((x) => x.toFixed(2)).join(', ')} (median ${ratio(median(againstBest))})`
    return `overload ${key}: goodput ÷ capacity per round at 4× ${rounds(4)}, at 16× ${rounds(16)}; 16× ÷ the round's best lower point ${best}`
  })
}

/** The bulk scenario: consume ÷ pool, then each online window, then its targets. */
function bulkReport(b: BulkResult): string[] {
  const o = b.options
  const lines = [
    `\nBulk (NATS JetStream, nats-server ${b.natsServerVersion}; replicas ${o.replicas}, max batch ${o.maxBatchSize}, ${b.intraOpThreads} intra-op thread(s); ${o.rounds} interleaved round(s))`,
    ...b.throughput.map(
      (t) =>
        `  ${t.model} (${t.description}): in-process pool rows/s ${t.poolRowsPerSec.map(n0).join(', ')}; inferpool consume rows/s ${t.consumeRowsPerSec.map(n0).join(', ')} (backlogs ${t.requests.map(n0).join(', ')})`,
    ),
    `  online ${o.onlineRatePerSec}/s single-row JSON over HTTP, ${o.window.durationMs} ms windows (inferpool serve --nats):`,
  ]
  for (const w of b.online.windows) {
    lines.push(
      `    ${w.backlog ? 'with a backlog   ' : 'without a backlog'}: p50 ${w.answered.p50.toFixed(2)} ms, p99 ${w.answered.p99.toFixed(2)} ms, ` +
        `${w.sent} sent, failed ${JSON.stringify(w.failed)}; backlog ${n0(w.backlogAtStart)} → ${n0(w.backlogAtEnd)}, bulk ${n0(w.bulkRowsPerSec)} rows/s`,
    )
  }
  for (const t of b.targets) {
    const actual = t.actual === null ? 'n/a' : `${t.actual.toFixed(2)}×`
    const id = t.model === undefined ? t.id : `${t.id} (${t.model})`
    lines.push(`  bulk target ${id}: ${actual} ${t.comparison} ${t.target} → ${t.met === null ? 'n/a' : t.met ? 'met' : 'MISSED'}`)
  }
  return lines
}

/** The slo scenario's medians over rounds as a table, then its capacities and targets. */
export function sloReport(slo: SloResult): string[] {
  const out: string[] = []
  const caps = slo.models
    .map(
      (m) =>
        `${m.model} ${n0(m.capacityRowsPerSec)} rows/s open loop (closed loop ${n0(m.closedLoopRowsPerSec)}, after the points ${n0(m.capacityAfterRowsPerSec)})`,
    )
    .join('; ')
  out.push(
    `\nSLO (open loop, library pool, medians of ${slo.options.rounds} interleaved round(s), ${slo.options.windowMs} ms per point; capacity: ${caps})`,
  )
  out.push(
    table(
      [
        'model',
        'arrivals',
        'deadline',
        'load',
        'policy',
        'sent/s',
        'within deadline',
        'goodput ÷ cap',
        'wasted rows',
        'batch',
        'p50 ms',
        'p99 ms',
      ],
      slo.medians.map((m) => [
        m.model,
        m.pattern,
        `${m.deadlineMs} ms`,
        `${m.load}×`,
        m.policy,
        n0(m.sentPerSec),
        `${(m.attainment * 100).toFixed(2)} %`,
        n2(m.goodputVsCapacity),
        n0(m.wastedRows),
        m.meanBatchSize.toFixed(1),
        ms(m.p50Ms),
        ms(m.p99Ms),
      ]),
    ),
  )
  for (const m of slo.models) {
    const steps = m.capacitySteps.map(
      (c) =>
        `${n0(c.rowsPerSec)}/s: served ${(c.served * 100).toFixed(1)} % lag p99 ${c.sendLagP99Ms.toFixed(1)} ms, 2× sent ${(c.doubleSent * 100).toFixed(0)} % lag p99 ${c.doubleSendLagP99Ms.toFixed(1)} ms${c.ok ? ' → capacity' : ''}`,
    )
    out.push(
      steps.length === 0
        ? `slo ${m.model} capacity given (--slo-capacity): ${n0(m.capacityRowsPerSec)}/s`
        : `slo ${m.model} open-loop capacity search: ${steps.join('; ')}`,
    )
  }
  for (const t of slo.targets) {
    const actual =
      t.id === 'attainment-at-0.5x'
        ? `${(t.actual * 100).toFixed(2)} %`
        : t.id === 'wasted-at-2x-20ms'
          ? String(t.actual)
          : `${t.actual.toFixed(2)}×`
    out.push(
      `slo target ${t.id} (${t.model}, ${t.pattern}, ${t.deadlineMs} ms): ${actual} ${t.comparison} ${t.target} → ${t.met ? 'met' : 'MISSED'}`,
    )
  }
  return out
}

export function formatReport(r: BenchResult): string {
  const out: string[] = []
  const m = r.machine
  out.push(
    `inferpool bench${r.quick ? ' (--quick)' : ''} — ${m.date} — ${m.cores} cores (${m.cpuModel}), Node ${m.node}, ` +
      `onnxruntime-node ${m.onnxruntime}, load avg at start ${m.loadAverage1m} — ${r.durationSec.toFixed(0)} s`,
  )
  if (r.model) out.push(`model: ${r.model.path} (${r.model.inputs.map((i) => `${i.name} ${i.type} [${i.dims.join(',')}]`).join('; ')})`)

  if (r.core) {
    out.push('\nCore overhead (no-op batches, 256 producers, maxBatchSize 128)')
    out.push(
      table(
        ['contender', 'items/s'],
        [
          ['DynamicBatcher (all features on)', n0(r.core.inferpoolItemsPerSec)],
          ['dataloader', n0(r.core.dataloaderItemsPerSec)],
          ['ratio', ratio(r.core.ratio)],
        ],
      ),
    )
  }
  if (r.direct) {
    out.push('\nDirect onnxruntime-node baselines')
    const rows: Array<Array<string | number>> = r.direct.row.map((p) => [
      `one row per run(), main thread, ${p.callers} caller(s)`,
      n0(p.rowsPerSec),
      ms(p.latencyMs.p50),
      ms(p.latencyMs.p95),
      ms(p.latencyMs.p99),
    ])
    for (const v of r.direct.practicalLimit?.variants ?? []) {
      rows.push([`${v.description}${v.name === r.direct.practicalLimit?.best ? '  ← practical limit' : ''}`, n0(v.rowsPerSec), '', '', ''])
    }
    out.push(table(['baseline', 'rows/s', 'p50 ms', 'p95 ms', 'p99 ms'], rows))
  }
  const poolTable = (title: string, points: BenchResult['pool'], policy: boolean) => {
    if (!points.length) return
    out.push(`\n${title}`)
    out.push(
      table(
        [
          'replicas',
          'conc',
          'maxBatch',
          ...(policy ? ['minBatch', 'waitMs'] : []),
          'callers',
          'rows/s',
          'p50 ms',
          'p95 ms',
          'p99 ms',
          'mean batch',
          'efficiency',
        ],
        points.map((p) => [
          p.replicas,
          p.concurrency,
          p.effectiveMaxBatchSize,
          ...(policy ? [p.minBatchSize ?? '–', p.maxWaitMs ?? '–'] : []),
          p.callers,
          n0(p.rowsPerSec),
          ms(p.latencyMs.p50),
          ms(p.latencyMs.p95),
          ms(p.latencyMs.p99),
          n2(p.meanBatchSize),
          ratio(p.efficiency),
        ]),
      ),
    )
  }
  poolTable('Pool sweep (single-row requests; efficiency = rows/s ÷ practical limit)', r.pool, false)
  if (r.shapes) {
    const rounds = Math.max(...r.shapes.points.map((p) => p.round))
    out.push(`\nreplicas × concurrency (maxBatchSize ${r.shapes.maxBatchSize}, median of ${rounds} interleaved round(s))`)
    const limit = r.summary.practicalLimitRowsPerSec
    out.push(
      table(
        ['replicas', 'conc', 'callers', 'rows/s', 'p50 ms', 'p99 ms', 'efficiency'],
        r.shapes.median.map((m) => [
          m.replicas,
          m.concurrency,
          m.callers,
          n0(m.rowsPerSec),
          ms(m.p50Ms),
          ms(m.p99Ms),
          ratio(limit ? m.rowsPerSec / limit : null),
        ]),
      ),
    )
  }
  poolTable('Batching policy (minBatchSize, maxWaitMs)', r.waits, true)
  if (r.targets) {
    const t = r.targets
    out.push(`\nTarget rounds (interleaved; r${t.shape.replicas} c${t.shape.concurrency} b${t.shape.maxBatchSize}, ${t.callers} callers)`)
    out.push(
      table(
        [
          'round',
          'practical limit rows/s',
          'pool rows/s',
          'host CPU µs/row',
          'V8 helper threads µs/row',
          'batching off rows/s',
          'direct p50 ms (1 caller)',
          'pool p50 ms (1 caller)',
        ],
        [
          ...t.rounds.map((x, i) => [
            String(i + 1),
            n0(x.practicalLimit.rowsPerSec),
            n0(x.pool.rowsPerSec),
            n2(x.pool.hostCpuUsPerRow),
            n2(x.pool.platformCpuUsPerRow),
            n0(x.batchingOff.rowsPerSec),
            ms(x.direct1.latencyMs.p50),
            ms(x.pool1.latencyMs.p50),
          ]),
          [
            'median',
            n0(t.median.practicalLimitRowsPerSec),
            n0(t.median.poolRowsPerSec),
            n2(t.median.hostCpuUsPerRow),
            n2(t.median.platformCpuUsPerRow),
            n0(t.median.batchingOffRowsPerSec),
            ms(t.median.directP50Ms),
            ms(t.median.poolP50MsAt1),
          ],
        ],
      ),
    )
  }
  if (r.isolation) {
    const x = r.isolation
    out.push(
      `\nThread vs process mode (interleaved; r${x.shape.replicas} c${x.shape.concurrency} b${x.shape.maxBatchSize}, ${x.callers} callers and 1)`,
    )
    out.push(
      table(
        ['round', 'thread rows/s', 'process rows/s', 'thread p50 ms (1 caller)', 'process p50 ms (1 caller)'],
        [
          ...x.rounds.map((y, i) => [
            String(i + 1),
            n0(y.thread.rowsPerSec),
            n0(y.process.rowsPerSec),
            ms(y.thread1.latencyMs.p50),
            ms(y.process1.latencyMs.p50),
          ]),
          [
            'median',
            n0(x.median.threadRowsPerSec),
            n0(x.median.processRowsPerSec),
            ms(x.median.threadP50MsAt1),
            ms(x.median.processP50MsAt1),
          ],
        ],
      ),
    )
    if (x.memory) {
      const m = x.memory
      out.push(
        `memory, ${m.replicas} replica(s): thread mode ${m.threadTotalMiB.toFixed(1)} MiB in all (${m.threadPerReplicaMiB.toFixed(1)} per replica); ` +
          `process mode ${m.processTotalMiB.toFixed(1)} MiB in all (${m.processPerReplicaMiB.toFixed(1)} per replica; replica processes ${m.processReplicaMiB.map((v) => v.toFixed(1)).join(', ')}); floor ${m.floorMiB.toFixed(1)}`,
      )
    }
  }
  if (r.http.length) {
    const rounds = r.http[0].rounds
    out.push(
      `\nHTTP (autocannon, single-row KServe v2 JSON requests, servers on 127.0.0.1${rounds === undefined ? '' : `; medians of ${rounds} interleaved round(s)`})`,
    )
    const spread = (p: (typeof r.http)[number]): string =>
      p.rowsPerSecRounds === undefined || p.rowsPerSecRounds.length < 2
        ? ''
        : `${n0(Math.min(...p.rowsPerSecRounds))}–${n0(Math.max(...p.rowsPerSecRounds))}`
    out.push(
      table(
        ['server', 'connections', 'rows/s', 'rounds min–max', 'p50 ms', 'p95 ms', 'p99 ms', 'server RSS MiB'],
        r.http.map((p) => [
          p.pool ? `${p.server} (r${p.pool.replicas} c${p.pool.concurrency} b${p.pool.maxBatchSize})` : p.server,
          p.connections,
          n0(p.rowsPerSec),
          spread(p),
          ms(p.latencyMs.p50),
          ms(p.latencyMs.p95),
          ms(p.latencyMs.p99),
          p.serverRssMiB.toFixed(0),
        ]),
      ),
    )
    // batched ÷ the naive Python server at each connection count (and per round: the servers ran in the same rounds).
    for (const batched of r.http.filter((p) => p.server === 'batched')) {
      const python = r.http.find((p) => p.server === 'python-fastapi' && p.connections === batched.connections)
      if (python === undefined) continue
      const perRound =
        batched.rowsPerSecRounds !== undefined && python.rowsPerSecRounds !== undefined
          ? batched.rowsPerSecRounds.map((b, i) => `${(b / (python.rowsPerSecRounds as number[])[i]).toFixed(2)}×`).join(', ')
          : ''
      out.push(
        `batched ÷ naive Python at ${batched.connections} connection(s): ${(batched.rowsPerSec / python.rowsPerSec).toFixed(2)}× (medians)${perRound ? `; per round ${perRound}` : ''}`,
      )
    }
  }
  if (r.door) {
    const d = r.door.summary
    out.push(
      `\nThe door (single-row requests, ${d.connections} connections, median of ${d.rounds} interleaved round(s); no-op = parse and answer, no inference)`,
    )
    out.push(
      table(
        ['encoding', 'inferpool req/s', 'no-op req/s', 'inferpool ÷ no-op'],
        (['json', 'binary'] as const).map((e) => [
          e,
          n0(d.single.inferpool[e]),
          n0(d.single.noop[e]),
          ratio(d.single.inferpool[e] / d.single.noop[e]),
        ]),
      ),
    )
    out.push(
      `binary ÷ JSON through inferpool: ${ratio(d.binaryVsJson)} (target >= 1.3); JSON ÷ its no-op: ${ratio(d.jsonVsNoop)} (target >= 0.8)`,
    )
    out.push(`${d.multiRows}-row requests through inferpool: JSON ${n0(d.multi.json)} rows/s, binary ${n0(d.multi.binary)} rows/s`)
  }
  if (r.grpc.length) {
    out.push('\ngRPC (own closed-loop clients, raw_input_contents; JSON HTTP by autocannon on the same server; interleaved rounds)')
    out.push(
      table(
        ['variant', 'round', 'connections', 'rows/request', 'rows/s', 'p50 ms', 'p99 ms', 'server CPU µs/row'],
        r.grpc.map((p) => [
          p.variant,
          p.round,
          p.connections,
          p.rowsPerRequest,
          n0(p.rowsPerSec),
          ms(p.latencyMs.p50),
          ms(p.latencyMs.p99),
          p.serverCpuUsPerRow.toFixed(1),
        ]),
      ),
    )
  }

  if (r.processes?.length) {
    out.push('\nServer processes (inferpool serve --processes; autocannon, single-row KServe v2 JSON requests)')
    out.push(
      table(
        ['processes × replicas × intra-op', 'connections', 'rows/s', 'p50 ms', 'p95 ms', 'p99 ms'],
        r.processes.map((p) => [
          `${p.processes} × ${p.replicas} × ${p.intraOpThreads}`,
          p.connections,
          n0(p.rowsPerSec),
          ms(p.latencyMs.p50),
          ms(p.latencyMs.p95),
          ms(p.latencyMs.p99),
        ]),
      ),
    )
  }

  if (r.thirdParty) {
    const t = r.thirdParty
    out.push(
      `\nThird-party model ${t.model} (input ${t.input.name} [${t.input.dims.join(',')}], fixed batch ${t.fixedBatchSize ?? 'none'})`,
    )
    out.push(
      table(
        ['runner', 'callers', 'rows/s', 'p50 ms', 'p99 ms', 'mean batch'],
        [
          ...t.direct.map((p) => ['direct, main thread', p.callers, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p99), '1.00']),
          ...t.pool.map((p) => [
            `pool, ${p.replicas} replica(s)`,
            p.callers,
            n0(p.rowsPerSec),
            ms(p.latencyMs.p50),
            ms(p.latencyMs.p99),
            n2(p.meanBatchSize),
          ]),
        ],
      ),
    )
    out.push(`replicas speed-up: ${ratio(t.replicaSpeedup)}`)
  }
  if (r.memory.length) {
    out.push('\nResident memory (fresh process per row)')
    out.push(
      table(
        ['model', 'replicas', 'RSS after load MiB', 'RSS after requests MiB', 'per replica MiB'],
        r.memory.map((p) => [
          p.model,
          p.replicas,
          p.rssAfterLoadMiB.toFixed(1),
          p.rssAfterRunMiB.toFixed(1),
          p.perReplicaMiB === null ? '–' : p.perReplicaMiB.toFixed(1),
        ]),
      ),
    )
  }
  if (r.overload) {
    const o = r.overload
    out.push(
      `\nOverload (inferpool serve${o.serveArgs.length ? ` ${o.serveArgs.join(' ')}` : ', default settings'}; malloc: ${o.allocator ?? 'glibc'}; capacity at ${o.comfortable} connections; idle RSS ${o.idleRssMiB.toFixed(0)} MiB)`,
    )
    out.push(
      table(
        [
          'encoding',
          'rows/req',
          'round',
          'conns',
          'load',
          '2xx/s',
          '÷ capacity',
          '503 share',
          'p99 2xx ms',
          'max ms',
          'late',
          'server-side slow',
          'RSS before→after→settled MiB (s)',
          'heap MiB',
          'external MiB',
          'slots busy',
          'client CPU',
          'CPU per server thread (cores)',
        ],
        o.points.map((p) => [
          p.encoding,
          p.rowsPerRequest,
          p.round,
          p.connections,
          `${p.load}×`,
          n0(p.okPerSec),
          ratio(p.goodputVsCapacity),
          `${(p.share503 * 100).toFixed(1)} %`,
          ms(p.okLatencyMs.p99),
          String(p.maxAnswerMs),
          p.deadlineMisses,
          p.serverOver === null ? '–' : `${p.serverOver.answers} > ${p.serverOver.seconds} s`,
          `${p.rssMiB.before.toFixed(0)}→${p.rssMiB.after.toFixed(0)}→${mib(p.rssMiB.settled)}` +
            (p.rssMiB.settledAfterMs === null ? '' : ` (${(p.rssMiB.settledAfterMs / 1000).toFixed(1)})`),
          `${p.heapUsedMiB.before.toFixed(0)}→${p.heapUsedMiB.after.toFixed(0)}→${mib(p.heapUsedMiB.settled)}`,
          `${p.externalMiB.before.toFixed(0)}→${p.externalMiB.after.toFixed(0)}→${mib(p.externalMiB.settled)}`,
          `${(p.slotUtilization * 100).toFixed(0)} %`,
          p.clientCores.toFixed(2),
          p.threads
            .slice(0, 4)
            .map((t) => `${t.name} ${t.cores.toFixed(2)}`)
            .join(', '),
        ]),
      ),
    )
  }
  if (r.overload) {
    for (const line of overloadMedians(r.overload.points)) out.push(line)
  }
  if (r.repository) {
    const o = r.repository
    out.push(
      `\nRepository (inferpool serve --model-repository; malloc: ${o.allocator}; ${o.connections} connections; a reload every ${o.reloadEveryMs} ms in swap windows)`,
    )
    out.push(
      table(
        ['phase', 'round', '2xx/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'swaps', 'swap p50 ms'],
        o.windows.map((w) => [
          w.phase,
          w.round,
          w.okPerSec,
          w.latencyMs.p50.toFixed(2),
          w.latencyMs.p99.toFixed(2),
          Object.values(w.non2xx).reduce((a, b) => a + b, 0),
          w.errors + w.timeouts,
          w.phase === 'swap' ? `${w.swaps}${w.failedSwaps ? ` (+${w.failedSwaps} failed)` : ''}` : '–',
          w.swapMs === null ? '–' : w.swapMs.p50.toFixed(0),
        ]),
      ),
    )
    out.push(
      table(
        [
          'isolation',
          'cycles',
          'RSS before',
          'loaded (1st)',
          'unloaded (1st)',
          'unloaded (10th)',
          'loaded (last)',
          'unloaded (last)',
          'last ÷ 1st',
          'last ÷ 10th',
          'returned on unload',
          'server after GC: last ÷ 1st',
        ],
        o.memory.map((m) => [
          m.isolation,
          m.cycles,
          m.rssMiB.beforeLoad.toFixed(1),
          m.rssMiB.loadedFirst.toFixed(1),
          m.rssMiB.afterFirstUnload.toFixed(1),
          m.rssMiB.afterPlateauUnload.toFixed(1),
          m.rssMiB.loadedLast.toFixed(1),
          m.rssMiB.afterLastUnload.toFixed(1),
          m.growthAfterCycles.toFixed(3),
          m.growthAfterPlateau.toFixed(3),
          `${m.returnedOnUnloadMiB.toFixed(1)} MiB`,
          `${m.hostGrowthAfterGc.toFixed(3)} (anon ${m.hostAnonGrowthAfterGc.toFixed(3)})`,
        ]),
      ),
    )
    out.push(
      'Server process (process.memoryUsage() and /proc RssAnon, RssFile; MiB), as it is / after a full collection and the settle time',
    )
    out.push(
      table(
        ['isolation', 'cycle', 'state', 'tree RSS', 'RSS', 'anon', 'file', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers'],
        o.memory.flatMap((m) =>
          m.readings.map((r) => [
            m.isolation,
            r.cycle,
            r.state,
            r.treeRssMiB.toFixed(1),
            `${r.host.rss.toFixed(1)} / ${r.hostAfterGc.rss.toFixed(1)}`,
            `${r.host.rssAnon.toFixed(1)} / ${r.hostAfterGc.rssAnon.toFixed(1)}`,
            `${r.host.rssFile.toFixed(1)} / ${r.hostAfterGc.rssFile.toFixed(1)}`,
            `${r.host.heapUsed.toFixed(1)} / ${r.hostAfterGc.heapUsed.toFixed(1)}`,
            `${r.host.heapTotal.toFixed(1)} / ${r.hostAfterGc.heapTotal.toFixed(1)}`,
            `${r.host.external.toFixed(1)} / ${r.hostAfterGc.external.toFixed(1)}`,
            `${r.host.arrayBuffers.toFixed(1)} / ${r.hostAfterGc.arrayBuffers.toFixed(1)}`,
          ]),
        ),
      ),
    )
  }
  if (r.slo) out.push(...sloReport(r.slo))
  if (r.bulk) out.push(...bulkReport(r.bulk))
  const s = r.summary
  out.push('\nTargets')
  out.push(
    table(
      ['target', 'actual', 'goal', 'met', 'detail'],
      s.targets.map((t) => [
        t.id,
        t.actual === null ? '–' : `${t.actual.toFixed(t.id.includes('p50') ? 3 : 2)}${unitOf(t.id) === '×' ? '×' : ` ${unitOf(t.id)}`}`,
        `${t.comparison} ${t.target}${unitOf(t.id) === '×' ? '×' : ` ${unitOf(t.id)}`}`,
        t.met === null ? 'n/a' : t.met ? 'yes' : 'NO',
        t.detail,
      ]),
    ),
  )
  if (s.http) {
    out.push(
      `HTTP at ${s.http.connections} connections: batched ÷ batching off ${ratio(s.http.batchedVsBatchingOff)}, batched ÷ plain node:http ${ratio(s.http.batchedVsPlain)}, batched ÷ naive Python (FastAPI) ${ratio(s.http.batchedVsPython)}`,
    )
  }
  if (s.grpc) {
    const g = s.grpc
    out.push(
      `gRPC medians at ${g.connections} connections: stream ÷ JSON ${ratio(g.streamVsJson)}, unary ÷ JSON ${ratio(g.unaryVsJson)}, ` +
        `stream ÷ no-op stream ${ratio(g.streamVsNoop)}, unary ÷ no-op unary ${ratio(g.unaryVsNoop)}; 64-row stream ${g.stream64RowsPerSec === null ? '–' : n0(g.stream64RowsPerSec)} rows/s; ` +
        `server CPU per row, JSON ÷ gRPC stream ${ratio(g.jsonVsStreamCpu)}`,
    )
  }
  if (s.suggested) {
    const g = s.suggested
    out.push(
      `\nSuggested: replicas ${g.replicas}, concurrency ${g.concurrency}, maxBatchSize ${g.maxBatchSize}, minBatchSize ${g.minBatchSize}, maxWaitMs ${g.maxWaitMs}`,
    )
    for (const e of g.evidence) out.push(`  - ${e}`)
  }
  for (const e of r.errors) out.push(`\nFAILED ${e.scenario}: ${e.message}`)
  return out.join('\n')
}
