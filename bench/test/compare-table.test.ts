import { describe, expect, it } from 'vitest'
import { metricsOf, type Metric } from '../src/compare/probes.js'
import { compareRow, formatFigure, formatTable, isRegression, spreadOf, type TableHeader } from '../src/compare/table.js'

const throughput: Metric = { id: 'door-json-1row-c64', label: 'door json 1-row, 64 conn', unit: 'req/s', better: 'higher' }
const cpu: Metric = {
  id: 'door-json-1row-c64-main-cpu',
  label: 'door json 1-row, 64 conn: main-thread CPU',
  unit: 'µs/req',
  better: 'lower',
}

describe('spreadOf', () => {
  it('gives the median (the middle one of an odd count, the mean of the two middle ones of an even count), min and max', () => {
    expect(spreadOf([30, 10, 20])).toEqual({ median: 20, min: 10, max: 30, samples: 3 })
    expect(spreadOf([40, 10, 30, 20])).toEqual({ median: 25, min: 10, max: 40, samples: 4 })
    expect(spreadOf([7])).toEqual({ median: 7, min: 7, max: 7, samples: 1 })
  })

  it('refuses an empty list rather than invent a figure', () => {
    expect(() => spreadOf([])).toThrow(new RangeError('spreadOf: no samples'))
  })
})

describe('the regression flag', () => {
  // A's rounds: median 100, spread 98–102. Each case: B's rounds, and whether the row is flagged.
  const a = spreadOf([98, 100, 102])
  const cases: Array<[string, number[], boolean]> = [
    ['6 % lower, spreads apart', [93, 94, 95], true],
    ['exactly 5 % lower, spreads apart (not more than 5 %)', [94, 95, 96], false],
    ['6 % lower, but one B round reaches into A’s spread', [90, 94, 98.5], false],
    ['20 % lower, spreads touching at one value', [70, 80, 98], false],
    ['2 % lower, spreads apart', [97, 98, 97.5], false],
    ['10 % higher (better)', [109, 110, 111], false],
  ]
  for (const [name, b, flagged] of cases)
    it(`${flagged ? 'flags' : 'does not flag'} throughput ${name}`, () => {
      expect(isRegression('higher', a, spreadOf(b))).toBe(flagged)
    })

  it('flags a lower-is-better figure (CPU, latency) that rose by more than 5 % with spreads apart, and only that', () => {
    expect(isRegression('lower', a, spreadOf([106, 107, 108]))).toBe(true)
    expect(isRegression('lower', a, spreadOf([104, 105, 106]))).toBe(false) // exactly +5 %
    expect(isRegression('lower', a, spreadOf([101, 110, 112]))).toBe(false) // overlaps
    expect(isRegression('lower', a, spreadOf([80, 81, 82]))).toBe(false) // better
  })

  it('flags exactly the rows that fell by more than 5 % with spreads apart, out of a whole table', () => {
    const rows = [
      compareRow(throughput, [100, 101, 99], [90, 91, 92]), // −9 %, apart: flagged
      compareRow(cpu, [80, 82, 81], [90, 91, 89]), // +11 % CPU, apart: flagged
      compareRow({ ...throughput, id: 'x1' }, [100, 101, 99], [90, 91, 100]), // −9 %, overlapping: not
      compareRow({ ...throughput, id: 'x2' }, [100, 101, 99], [96, 96, 96]), // −4 %, apart: not
      compareRow({ ...cpu, id: 'x3' }, [80, 82, 81], [70, 71, 72]), // CPU fell: better, not
      compareRow({ ...throughput, id: 'x4' }, [], [90, 91, 92], 'A failed: no gRPC'), // no A figure: not
    ]
    expect(rows.filter((r) => r.regression).map((r) => r.id)).toEqual(['door-json-1row-c64', 'door-json-1row-c64-main-cpu'])
  })
})

describe('compareRow', () => {
  it("gives the ratio of B's median to A's", () => {
    const row = compareRow(throughput, [200, 100, 300], [150, 250, 450])
    expect(row.a).toEqual({ median: 200, min: 100, max: 300, samples: 3 })
    expect(row.b).toEqual({ median: 250, min: 150, max: 450, samples: 3 })
    expect(row.ratio).toBe(1.25)
    expect(row.regression).toBe(false)
  })

  it('has no ratio and no flag when a side has no figure, and keeps the reason', () => {
    const row = compareRow(throughput, [], [1, 2], 'A failed: this version of inferpool serve has no gRPC')
    expect([row.a, row.ratio, row.regression, row.note]).toEqual([
      null,
      null,
      false,
      'A failed: this version of inferpool serve has no gRPC',
    ])
  })
})

describe('formatFigure', () => {
  it('keeps about three significant figures and groups thousands', () => {
    expect([123_456.7, 8_765.4, 999.6, 86.24, 8.625, 0.41234, 0].map(formatFigure)).toEqual([
      '123,457',
      '8,765',
      '1000',
      '86.2',
      '8.63',
      '0.412',
      '0.000',
    ])
  })
})

describe('formatTable', () => {
  const header: TableHeader = {
    a: 'main (0123456789)',
    b: 'working tree at abcdef0',
    rounds: 3,
    windowMs: 700,
    loadBefore: 0.5,
    loadAfter: 1.25,
    loadWarning: null,
  }

  it('prints both sides, the spreads, the ratio and the flag, one line per row, with the load', () => {
    const rows = [compareRow(throughput, [10_000, 10_200, 9_800], [9_000, 9_100, 9_200]), compareRow(cpu, [80, 82, 81], [80, 81, 82])]
    expect(formatTable(rows, header).split('\n')).toEqual([
      'A = main (0123456789)',
      'B = working tree at abcdef0',
      '3 interleaved rounds (A, B, A, B, ...), 700 ms windows; 1-min load 0.50 before, 1.25 after',
      '',
      '                                           unit    A median     A min–max  B median    B min–max   B/A',
      'door json 1-row, 64 conn                   req/s     10,000  9,800–10,200     9,100  9,000–9,200  0.91  REGRESSION (lower is worse here)',
      'door json 1-row, 64 conn: main-thread CPU  µs/req      81.0     80.0–82.0      81.0    80.0–82.0  1.00',
      '',
      '1 regression: worse by more than 5 % with spreads apart',
    ])
  })

  it('puts the load warning above the table when the run went on under load', () => {
    const text = formatTable([compareRow(throughput, [1, 2], [1, 2])], { ...header, loadWarning: 'the 1-minute load was 2.50' })
    expect(text.split('\n').slice(3, 4)).toEqual(['!!! the 1-minute load was 2.50'])
    expect(text.split('\n').at(-1)).toBe('no regression: no row worse by more than 5 % with spreads apart')
  })
})

describe('metricsOf', () => {
  it('gives a door probe its throughput and its main-thread CPU per request, and the pool at one caller its p50', () => {
    expect(metricsOf({ kind: 'door', encoding: 'binary', rows: 64, connections: 1 }).map((m) => [m.id, m.unit, m.better])).toEqual([
      ['door-binary-64row-c1', 'req/s', 'higher'],
      ['door-binary-64row-c1-main-cpu', 'µs/req', 'lower'],
    ])
    expect(metricsOf({ kind: 'pool', callers: 1 }).map((m) => [m.id, m.unit, m.better])).toEqual([
      ['pool-callers1', 'rows/s', 'higher'],
      ['pool-callers1-p50', 'ms', 'lower'],
    ])
    expect(metricsOf({ kind: 'pool', callers: 256 }).map((m) => m.id)).toEqual(['pool-callers256'])
    expect(metricsOf({ kind: 'pool', callers: 1, isolation: 'process' }).map((m) => [m.id, m.label])).toEqual([
      ['pool-process-callers1', 'pool (library, process replicas), 1 caller'],
      ['pool-process-callers1-p50', 'pool (library, process replicas), 1 caller: p50'],
    ])
  })

  it("gives the traced door probes issue 38's targets: 15 % below A allowed at 100 % sampling, 3 % at 1 %", () => {
    expect(metricsOf({ kind: 'door-traced', sampling: 'always' }).map((m) => [m.id, m.allowedShare])).toEqual([
      ['door-json-1row-c64-traced-always', 0.15],
    ])
    expect(metricsOf({ kind: 'door-traced', sampling: 'ratio-1%' }).map((m) => [m.id, m.allowedShare])).toEqual([
      ['door-json-1row-c64-traced-ratio1pct', 0.03],
    ])
    const traced = metricsOf({ kind: 'door-traced', sampling: 'always' })[0]
    expect(compareRow(traced, [100, 101, 99], [86, 87, 88]).regression).toBe(false) // −13 %: within its target
    expect(compareRow(traced, [100, 101, 99], [80, 81, 82]).regression).toBe(true) // −19 %
  })
})
