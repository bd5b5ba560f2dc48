/** The human-readable table printed at the end of a run. */
import type { BenchResult } from './results.js'

function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((r) => r.map(String))
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)))
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n')
}

const n0 = (x: number | null | undefined) => (x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US'))
const n2 = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2))
const ms = (x: number) => x.toFixed(x < 10 ? 3 : 1)
const ratio = (x: number | null | undefined) => (x === null || x === undefined ? '–' : `${x.toFixed(2)}×`)

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
      `one row per run(), main thread, ${p.callers} caller(s)`, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p95), ms(p.latencyMs.p99),
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
        ['replicas', 'conc', 'maxBatch', ...(policy ? ['minBatch', 'waitMs'] : []), 'callers', 'rows/s', 'p50 ms', 'p95 ms', 'p99 ms', 'mean batch', 'efficiency'],
        points.map((p) => [
          p.replicas, p.concurrency, p.effectiveMaxBatchSize,
          ...(policy ? [p.minBatchSize ?? '–', p.maxWaitMs ?? '–'] : []),
          p.callers, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p95), ms(p.latencyMs.p99), n2(p.meanBatchSize), ratio(p.efficiency),
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
        r.shapes.median.map((m) => [m.replicas, m.concurrency, m.callers, n0(m.rowsPerSec), ms(m.p50Ms), ms(m.p99Ms), ratio(limit ? m.rowsPerSec / limit : null)]),
      ),
    )
  }
  poolTable('Batching policy (minBatchSize, maxWaitMs)', r.waits, true)
  if (r.targets) {
    const t = r.targets
    out.push(`\nTarget rounds (interleaved; r${t.shape.replicas} c${t.shape.concurrency} b${t.shape.maxBatchSize}, ${t.callers} callers)`)
    out.push(
      table(
        ['round', 'practical limit rows/s', 'pool rows/s', 'batching off rows/s', 'direct p50 ms (1 caller)', 'pool p50 ms (1 caller)'],
        [
          ...t.rounds.map((x, i) => [
            String(i + 1), n0(x.practicalLimit.rowsPerSec), n0(x.pool.rowsPerSec), n0(x.batchingOff.rowsPerSec), ms(x.direct1.latencyMs.p50), ms(x.pool1.latencyMs.p50),
          ]),
          ['median', n0(t.median.practicalLimitRowsPerSec), n0(t.median.poolRowsPerSec), n0(t.median.batchingOffRowsPerSec), ms(t.median.directP50Ms), ms(t.median.poolP50MsAt1)],
        ],
      ),
    )
  }
  if (r.http.length) {
    out.push('\nHTTP (autocannon, single-row KServe v2 JSON requests, servers on 127.0.0.1)')
    out.push(
      table(
        ['server', 'connections', 'rows/s', 'p50 ms', 'p95 ms', 'p99 ms', 'server RSS MiB'],
        r.http.map((p) => [
          p.pool ? `${p.server} (r${p.pool.replicas} c${p.pool.concurrency} b${p.pool.maxBatchSize})` : p.server,
          p.connections, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p95), ms(p.latencyMs.p99), p.serverRssMiB.toFixed(0),
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
          p.connections, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p95), ms(p.latencyMs.p99),
        ]),
      ),
    )
  }
  if (r.thirdParty) {
    const t = r.thirdParty
    out.push(`\nThird-party model ${t.model} (input ${t.input.name} [${t.input.dims.join(',')}], fixed batch ${t.fixedBatchSize ?? 'none'})`)
    out.push(
      table(
        ['runner', 'callers', 'rows/s', 'p50 ms', 'p99 ms', 'mean batch'],
        [
          ...t.direct.map((p) => ['direct, main thread', p.callers, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p99), '1.00']),
          ...t.pool.map((p) => [`pool, ${p.replicas} replica(s)`, p.callers, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p99), n2(p.meanBatchSize)]),
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
        r.memory.map((p) => [p.model, p.replicas, p.rssAfterLoadMiB.toFixed(1), p.rssAfterRunMiB.toFixed(1), p.perReplicaMiB === null ? '–' : p.perReplicaMiB.toFixed(1)]),
      ),
    )
  }
  const s = r.summary
  out.push('\nTargets')
  out.push(
    table(
      ['target', 'actual', 'goal', 'met', 'detail'],
      s.targets.map((t) => [
        t.id,
        t.actual === null ? '–' : t.id === 'p50-at-1-caller' ? `${t.actual.toFixed(3)} ms` : ratio(t.actual),
        `${t.comparison} ${t.id === 'p50-at-1-caller' ? `${t.target} ms` : `${t.target}×`}`,
        t.met === null ? 'n/a' : t.met ? 'yes' : 'NO',
        t.detail,
      ]),
    ),
  )
  if (s.http) {
    out.push(
      `HTTP at ${s.http.connections} connections: batched ÷ batching off ${ratio(s.http.batchedVsBatchingOff)}, batched ÷ plain node:http ${ratio(s.http.batchedVsPlain)}`,
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
