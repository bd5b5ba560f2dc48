/**
 * The comparison's arithmetic and its table: medians, spreads, ratios B/A and the
 * regression flag. Pure functions, unit-tested in bench/test/compare-table.test.ts.
 */
import type { Better, Metric } from './probes.js'

/** A row is flagged when B is worse than A by more than this share... */
export const REGRESSION_SHARE = 0.05

/** Median and spread (min–max) of one side's samples of one metric. */
export interface Spread {
  median: number
  min: number
  max: number
  samples: number
}

export function spreadOf(samples: readonly number[]): Spread {
  if (samples.length === 0) throw new RangeError('spreadOf: no samples')
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples: sorted.length }
}

/**
 * ...and the spreads do not overlap: every B sample is worse than every A sample. A 5 %
 * move inside overlapping spreads is what a shared machine does on its own; a move whose
 * rounds never meet is the code.
 */
export function isRegression(better: Better, a: Spread, b: Spread, share = REGRESSION_SHARE): boolean {
  const ratio = b.median / a.median
  if (better === 'higher') return ratio < 1 - share && b.max < a.min
  return ratio > 1 + share && b.min > a.max
}

export interface ComparedRow extends Metric {
  /** null: the side has no figure (the probe failed there, e.g. a ref without gRPC). */
  a: Spread | null
  b: Spread | null
  /** B's median ÷ A's median (null when either side has no figure). */
  ratio: number | null
  regression: boolean
  /** Why a side has no figure, when it has none. */
  note: string | null
}

export function compareRow(metric: Metric, a: readonly number[], b: readonly number[], note: string | null = null): ComparedRow {
  const sa = a.length ? spreadOf(a) : null
  const sb = b.length ? spreadOf(b) : null
  return {
    ...metric,
    a: sa,
    b: sb,
    ratio: sa && sb ? sb.median / sa.median : null,
    regression: sa !== null && sb !== null && isRegression(metric.better, sa, sb, metric.allowedShare),
    note,
  }
}

/** Three significant figures at most, thousands grouped: 123,457 · 8,765 · 86.2 · 0.412. */
export function formatFigure(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  const abs = Math.abs(n)
  if (abs >= 1000) return Math.round(n).toLocaleString('en-US')
  if (abs >= 100) return n.toFixed(0)
  if (abs >= 10) return n.toFixed(1)
  if (abs >= 1) return n.toFixed(2)
  return n.toFixed(3)
}

function formatSpread(s: Spread | null): [string, string] {
  if (s === null) return ['n/a', '']
  return [formatFigure(s.median), `${formatFigure(s.min)}–${formatFigure(s.max)}`]
}

export interface TableHeader {
  /** Side A: the ref as given and its commit. */
  a: string
  /** Side B: the working tree's commit (and whether it has uncommitted changes). */
  b: string
  rounds: number
  windowMs: number
  /** 1-minute load average when the run started, and when it ended. */
  loadBefore: number
  loadAfter: number
  /** Set when the load was too high and the run went on anyway (`--allow-load`). */
  loadWarning: string | null
}

/** The one table `compare` prints. */
export function formatTable(rows: readonly ComparedRow[], header: TableHeader): string {
  const head = ['', 'unit', 'A median', 'A min–max', 'B median', 'B min–max', 'B/A', '']
  const body = rows.map((r) => {
    const [am, as] = formatSpread(r.a)
    const [bm, bs] = formatSpread(r.b)
    const flag = r.regression ? `REGRESSION (${r.better === 'higher' ? 'lower' : 'higher'} is worse here)` : (r.note ?? '')
    return [r.label, r.unit, am, as, bm, bs, r.ratio === null ? '–' : r.ratio.toFixed(2), flag]
  })
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)))
  // Labels and units read left-aligned, figures right-aligned; the flag column is last and ragged.
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd()
  const regressions = rows.filter((r) => r.regression).length
  const out = [
    `A = ${header.a}`,
    `B = ${header.b}`,
    `${header.rounds} interleaved rounds (A, B, A, B, ...), ${header.windowMs} ms windows; ` +
      `1-min load ${header.loadBefore.toFixed(2)} before, ${header.loadAfter.toFixed(2)} after`,
  ]
  if (header.loadWarning) out.push(`!!! ${header.loadWarning}`)
  out.push('', line(head), ...body.map(line), '')
  out.push(
    regressions === 0
      ? `no regression: no row worse by more than ${REGRESSION_SHARE * 100} % with spreads apart`
      : `${regressions} regression${regressions === 1 ? '' : 's'}: worse by more than ${REGRESSION_SHARE * 100} % with spreads apart`,
  )
  return out.join('\n')
}
