import { describe, expect, it } from 'vitest'
import { overloadMedians } from '../src/report.js'
import type { OverloadPoint } from '../src/scenarios/overload.js'

/** The fields the medians read; the rest of a point does not matter here. */
const point = (round: number, load: number, okPerSec: number, capacity: number): OverloadPoint =>
  ({ encoding: 'binary', rowsPerRequest: 64, round, load, okPerSec, goodputVsCapacity: okPerSec / capacity }) as OverloadPoint

describe('overloadMedians', () => {
  it("gives each round's ratios against its capacity and against its best lower point, with their medians", () => {
    const rounds: Array<[number, number, number]> = [
      // 1×, 4×, 16× requests/s: the 4× point beats the 16-connection one in rounds 1 and 3.
      [3_000, 4_000, 3_600],
      [3_500, 3_400, 2_800],
      [3_200, 4_100, 3_280],
    ]
    const points = rounds.flatMap(([one, four, sixteen], i) => [
      point(i + 1, 1, one, one),
      point(i + 1, 4, four, one),
      point(i + 1, 16, sixteen, one),
    ])
    expect(overloadMedians(points)).toEqual([
      'overload binary 64 rows: goodput ÷ capacity per round at 4× 1.33, 0.97, 1.28 (median 1.28×), at 16× 1.20, 0.80, 1.02 (median 1.02×); ' +
        "16× ÷ the round's best lower point 0.90, 0.80, 0.80 (median 0.80×)",
    ])
  })
})
