/**
 * Charts as SVG: vega-lite specs compiled to vega and rendered headless with
 * `View#toSVG()` (no canvas needed in Node: vega estimates text widths).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as vega from 'vega'
import * as vl from 'vega-lite'
import type { TopLevelSpec } from 'vega-lite'
import type { BenchResult } from './results.js'

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json'
/** Legends show full labels (vega's default truncates at 160 px). */
const LEGEND = { labelLimit: 400, titleLimit: 400 }

async function render(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}

/** The chart specs a result yields (only those with data). */
export function chartSpecs(r: BenchResult): Record<string, TopLevelSpec> {
  const specs: Record<string, TopLevelSpec> = {}
  const limit = r.summary.practicalLimitRowsPerSec
  const directMost = r.direct?.row.at(-1)
  const batchOf = (b: number) => (b === 1 ? 'maxBatchSize 1 (batching off)' : `maxBatchSize ${b}`)
  const batchOrder = [...new Set(r.pool.map((p) => p.maxBatchSize))].sort((a, b) => a - b).map(batchOf)
  const shapeOrder = [...new Set(r.pool.map((p) => `replicas ${p.replicas}, concurrency ${p.concurrency}`))]
  const poolRows = r.pool.map((p) => ({
    shape: `replicas ${p.replicas}, concurrency ${p.concurrency}`,
    batch: batchOf(p.maxBatchSize),
    callers: p.callers,
    rowsPerSec: Math.round(p.rowsPerSec),
    p50: p.latencyMs.p50,
    p95: p.latencyMs.p95,
    p99: p.latencyMs.p99,
    // Reference lines travel with every row so that each facet can draw them.
    limit: limit ? Math.round(limit) : null,
    direct: directMost ? Math.round(directMost.rowsPerSec) : null,
  }))
  if (poolRows.length) {
    const callerTicks = [...new Set(r.pool.map((p) => p.callers))].sort((a, b) => a - b)
    const x = {
      field: 'callers',
      type: 'quantitative',
      scale: { type: 'log', base: 2 },
      title: 'concurrent callers',
      axis: { values: callerTicks },
    } as const
    const color = {
      field: 'shape',
      type: 'nominal',
      title: null,
      sort: shapeOrder,
      legend: { ...LEGEND, orient: 'bottom', columns: 2 },
    } as const
    const reference = (field: 'limit' | 'direct', label: string, dash: number[]) => [
      {
        mark: { type: 'rule', strokeDash: dash },
        encoding: { y: { field, aggregate: 'max', type: 'quantitative' }, color: { value: '#555' } },
      },
      {
        mark: { type: 'text', align: 'left', baseline: 'bottom', dx: 2, dy: -2, fontSize: 9 },
        encoding: {
          y: { field, aggregate: 'max', type: 'quantitative' },
          x: { value: 0 },
          text: { value: label },
          color: { value: '#333' },
        },
      },
    ]
    specs.throughput = {
      $schema: SCHEMA,
      title: 'Pool throughput vs concurrent callers (single-row requests), per maxBatchSize',
      data: { values: poolRows },
      facet: { column: { field: 'batch', type: 'nominal', title: null, sort: batchOrder } },
      spec: {
        width: 200,
        height: 260,
        layer: [
          {
            mark: { type: 'line', point: true },
            encoding: { x, y: { field: 'rowsPerSec', type: 'quantitative', title: 'rows/s' }, color },
          },
          ...(limit ? reference('limit', 'practical limit', [6, 4]) : []),
          ...(directMost ? reference('direct', `direct, 1 row/run`, [2, 2]) : []),
        ],
      },
    } as TopLevelSpec
    // Latency: the biggest batch size against batching off, so each panel stays readable.
    const biggestBatch = batchOf(Math.max(...r.pool.map((p) => p.maxBatchSize)))
    specs.latency = {
      $schema: SCHEMA,
      title: `Pool latency percentiles vs concurrent callers (${biggestBatch} solid, batching off dashed)`,
      data: { values: poolRows.filter((p) => p.batch === biggestBatch || p.batch === batchOf(1)) },
      transform: [{ fold: ['p50', 'p95', 'p99'], as: ['percentile', 'ms'] }],
      facet: { column: { field: 'percentile', type: 'nominal', title: null } },
      spec: {
        width: 220,
        height: 260,
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'ms', type: 'quantitative', scale: { type: 'log' }, title: 'latency (ms, log)' },
          color,
          strokeDash: {
            field: 'batch',
            type: 'nominal',
            title: null,
            sort: [biggestBatch, batchOf(1)],
            legend: { ...LEGEND, orient: 'bottom' },
          },
        },
      },
    }
    const most = Math.max(...r.pool.map((p) => p.callers))
    const biggest = Math.max(...r.pool.map((p) => p.maxBatchSize))
    // Prefer the interleaved shape rounds (medians) over single sweep points.
    const shapesMost = r.shapes ? Math.max(...r.shapes.callers) : 0
    const cells = r.shapes
      ? r.shapes.median.filter((m) => m.callers === shapesMost)
      : r.pool.filter((p) => p.callers === most && p.maxBatchSize === biggest)
    const heat = cells.map((p) => ({
      replicas: p.replicas,
      concurrency: p.concurrency,
      rowsPerSec: Math.round(p.rowsPerSec),
      text: `${Math.round(p.rowsPerSec).toLocaleString('en-US')}${limit ? ` (${(p.rowsPerSec / limit).toFixed(2)}×)` : ''}`,
    }))
    const heatTitle = r.shapes
      ? `rows/s by replicas × concurrency (${shapesMost} callers, maxBatchSize ${r.shapes.maxBatchSize}, median of ${Math.max(...r.shapes.points.map((p) => p.round))} interleaved rounds; × practical limit)`
      : `rows/s by replicas × concurrency (${most} callers, maxBatchSize ${biggest}; × practical limit)`
    if (heat.length) {
      specs.heatmap = {
        $schema: SCHEMA,
        title: heatTitle,
        data: { values: heat },
        width: 120 * new Set(heat.map((h) => h.concurrency)).size,
        height: 80 * new Set(heat.map((h) => h.replicas)).size,
        encoding: {
          x: { field: 'concurrency', type: 'ordinal', title: 'concurrency (batches in flight per replica)' },
          y: { field: 'replicas', type: 'ordinal', title: 'replicas' },
        },
        layer: [
          {
            mark: 'rect',
            encoding: {
              color: { field: 'rowsPerSec', type: 'quantitative', title: 'rows/s', scale: { scheme: 'blues' }, legend: { format: ',d' } },
            },
          },
          { mark: { type: 'text', fontSize: 12 }, encoding: { text: { field: 'text' }, color: { value: 'black' } } },
        ],
      }
    }
  }
  if (r.http.length) {
    const rows = r.http.map((p) => ({
      server: p.server,
      connections: String(p.connections),
      rowsPerSec: Math.round(p.rowsPerSec),
      p50: p.latencyMs.p50,
      p95: p.latencyMs.p95,
      p99: p.latencyMs.p99,
    }))
    specs.http = {
      $schema: SCHEMA,
      title: 'HTTP: single-row KServe v2 requests under autocannon',
      data: { values: rows },
      hconcat: [
        {
          width: 300,
          height: 260,
          mark: 'bar',
          encoding: {
            x: { field: 'connections', type: 'ordinal', title: 'connections', sort: null },
            xOffset: { field: 'server' },
            y: { field: 'rowsPerSec', type: 'quantitative', title: 'rows/s' },
            color: { field: 'server', type: 'nominal' },
          },
        },
        {
          width: 300,
          height: 260,
          transform: [{ fold: ['p50', 'p95', 'p99'], as: ['percentile', 'ms'] }],
          mark: { type: 'line', point: { size: 60, filled: true } },
          encoding: {
            x: { field: 'connections', type: 'ordinal', title: 'connections', sort: null },
            y: { field: 'ms', type: 'quantitative', scale: { type: 'log' }, title: 'latency (ms, log)' },
            color: { field: 'server', type: 'nominal', legend: LEGEND },
            shape: { field: 'percentile', type: 'nominal' },
            strokeDash: { field: 'percentile', type: 'nominal' },
          },
        },
      ],
    }
  }
  if (r.thirdParty || r.memory.length) {
    const panels: TopLevelSpec[] = []
    if (r.thirdParty) {
      const t = r.thirdParty
      const values = [
        ...t.direct
          .filter((p) => p.callers === t.pool[0]?.callers)
          .map((p) => ({ runner: 'direct, main thread', rowsPerSec: Math.round(p.rowsPerSec) })),
        ...t.pool.map((p) => ({ runner: `pool, ${p.replicas} replica(s)`, rowsPerSec: Math.round(p.rowsPerSec) })),
      ]
      panels.push({
        title: `Fixed batch 1 (${t.model.split('/').at(-1)}), ${t.pool[0]?.callers ?? '?'} callers`,
        width: 240,
        height: 220,
        data: { values },
        mark: 'bar',
        encoding: {
          x: { field: 'runner', type: 'nominal', sort: null, title: null, axis: { labelAngle: -20 } },
          y: { field: 'rowsPerSec', type: 'quantitative', title: 'rows/s' },
        },
      } as TopLevelSpec)
    }
    if (r.memory.length) {
      panels.push({
        title: 'Resident memory vs replicas',
        width: 240,
        height: 220,
        data: { values: r.memory.map((p) => ({ model: p.model, replicas: p.replicas, rss: p.rssAfterRunMiB })) },
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'replicas', type: 'quantitative', title: 'replicas', axis: { tickMinStep: 1 } },
          y: { field: 'rss', type: 'quantitative', title: 'RSS (MiB)' },
          color: { field: 'model', type: 'nominal', legend: LEGEND },
        },
      } as TopLevelSpec)
    }
    specs.replicas = { $schema: SCHEMA, hconcat: panels } as TopLevelSpec
  }
  Object.assign(specs, sloChartSpecs(r))
  return specs
}

/**
 * The slo scenario's charts: SLO attainment, and within-deadline goodput ÷ capacity,
 * against offered load, one line per policy; a panel per model × arrival pattern (rows)
 * and deadline (columns). Medians over the interleaved rounds.
 */
function sloChartSpecs(r: BenchResult): Record<string, TopLevelSpec> {
  if (!r.slo || r.slo.medians.length === 0) return {}
  const values = r.slo.medians.map((m) => ({
    panel: `${m.model} MLP, ${m.pattern} arrivals`,
    deadline: `deadline ${m.deadlineMs} ms`,
    load: m.load,
    policy: m.policy,
    attainment: m.attainment,
    goodput: m.goodputVsCapacity,
  }))
  const loads = [...new Set(r.slo.medians.map((m) => m.load))].sort((a, b) => a - b)
  const chart = (field: 'attainment' | 'goodput', title: string, axis: string): TopLevelSpec =>
    ({
      $schema: SCHEMA,
      title,
      data: { values },
      facet: {
        row: { field: 'panel', type: 'nominal', title: null },
        column: { field: 'deadline', type: 'nominal', title: null },
      },
      spec: {
        width: 220,
        height: 160,
        mark: { type: 'line', point: true },
        encoding: {
          x: {
            field: 'load',
            type: 'quantitative',
            scale: { type: 'log', base: 2 },
            axis: { values: loads },
            title: 'offered load (× capacity)',
          },
          y: { field, type: 'quantitative', title: axis, ...(field === 'attainment' ? { scale: { domain: [0, 1] } } : {}) },
          color: { field: 'policy', type: 'nominal', title: 'policy', legend: { ...LEGEND, orient: 'bottom' } },
        },
      },
    }) as TopLevelSpec
  return {
    'slo-attainment': chart(
      'attainment',
      'SLO attainment (answers within the deadline ÷ requests sent) vs offered load',
      'within deadline (share)',
    ),
    'slo-goodput': chart('goodput', 'Within-deadline goodput ÷ capacity vs offered load', 'goodput (× capacity)'),
  }
}

/** Writes `<stem>-<chart>.svg` for every chart; returns the file names. */
export async function writeCharts(r: BenchResult, dir: string, stem: string): Promise<string[]> {
  const written: string[] = []
  for (const [name, spec] of Object.entries(chartSpecs(r))) {
    const file = `${stem}-${name}.svg`
    await writeFile(join(dir, file), await render(spec))
    written.push(file)
  }
  return written
}
