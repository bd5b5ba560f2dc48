import { describe, expect, it } from 'vitest'
import { LatencyModel } from '../src/index.js'

describe('LatencyModel', () => {
  it('knows nothing before a run is measured, and leaves out each size’s warm-up runs', () => {
    const model = new LatencyModel({ warmupRuns: 1 })
    expect(model.estimate(1)).toBeUndefined()
    expect(model.measured).toBe(false)
    model.record(4, 50) // the first run of size 4: warm-up
    expect(model.estimate(4)).toBeUndefined()
    model.record(4, 8)
    expect(model.measured).toBe(true)
    expect(model.estimate(4)).toBe(8)
  })

  it('estimates a size by the p99 of its last `window` runs: the slowest of the last 10', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    for (const ms of [5, 6, 9, 5, 5, 5, 5, 5, 5, 5]) model.record(8, ms)
    expect(model.estimate(8)).toBe(9)
    // Ten faster runs push the slow one out of the window.
    for (let i = 0; i < 10; i++) model.record(8, 4)
    expect(model.estimate(8)).toBe(4)
  })

  it('adapts at once when the machine slows down', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    for (let i = 0; i < 10; i++) model.record(16, 10)
    model.record(16, 30)
    expect(model.estimate(16)).toBe(30)
  })

  it('never estimates a larger batch below a smaller one’s typical run, nor lets one slow small run raise every larger size', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    for (const ms of [1, 1, 1, 50]) model.record(2, ms) // one stall at size 2
    for (const ms of [4, 4, 4]) model.record(8, ms)
    expect(model.estimates([2, 8])).toEqual([
      { size: 2, ms: 50 },
      { size: 8, ms: 4 },
    ])
    for (const ms of [9, 9, 9]) model.record(4, ms) // size 4's typical run is slower than size 8's
    expect(model.estimate(8)).toBe(9)
  })

  it('never estimates a larger batch below a smaller one', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    model.record(2, 10)
    model.record(4, 6) // noisy: faster than size 2
    expect(model.estimate(4)).toBe(10)
    expect(model.estimate(3)).toBe(10)
  })

  it('gives a size between two measured sizes the size below scaled to its rows, at most the next measured size above', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    model.record(1, 2)
    model.record(8, 12)
    // 2 ms per row from size 1, up to size 8's 12 ms.
    expect(model.estimates([1, 2, 3, 5, 6, 7, 8]).map((e) => e.ms)).toEqual([2, 4, 6, 10, 12, 12, 12])
  })

  it('gives a size between two measured sizes the straight line between them when the time per row grows with the rows', () => {
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0 })
    model.record(4, 4) // 1 ms per row
    model.record(8, 16) // 2 ms per row: the line from (4, 4) to (8, 16) is above 1 ms per row
    expect(model.estimates([5, 6, 7]).map((e) => e.ms)).toEqual([7, 10, 13])
    expect([model.bound(5), model.bound(6), model.bound(7)]).toEqual([7, 10, 13])
  })

  it('gives a size below every measured one the smallest measured size', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    model.record(4, 8)
    model.record(16, 20)
    expect(model.estimates([1, 3]).map((e) => e.ms)).toEqual([8, 8])
  })

  it('extrapolates a size beyond every measured one in proportion to its rows, from the largest measured size', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    model.record(1, 3) // 3 ms per row
    model.record(4, 8) // 2 ms per row: the largest size's, which the extrapolation scales
    expect(model.estimate(10)).toBe(20)
    expect(model.estimates([1, 4, 10])).toEqual([
      { size: 1, ms: 3 },
      { size: 4, ms: 8 },
      { size: 10, ms: 20 },
    ])
  })

  it('extrapolates past the largest size from its estimate, so a larger batch is never estimated below a smaller one', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    model.record(2, 10)
    model.record(4, 4) // its estimate is 10 (never below size 2's)
    expect(model.estimates([4, 8])).toEqual([
      { size: 4, ms: 10 },
      { size: 8, ms: 20 },
    ])
  })

  it('forgets a size not run in the last `staleAfterRuns` runs, so a stall at a size no longer in use does not hold every larger estimate up', () => {
    const model = new LatencyModel({ warmupRuns: 0, staleAfterRuns: 3 })
    model.record(2, 50) // a stalled run at size 2, never run again
    model.record(8, 4)
    expect(model.estimate(8)).toBe(50) // never below a smaller size's estimate
    model.record(8, 4)
    expect(model.estimate(8)).toBe(50) // 2 runs since size 2's: still fresh
    model.record(8, 4)
    // 3 runs since: size 2 is forgotten, and takes the next measured size above it.
    expect(model.estimates([1, 2, 8, 16])).toEqual([
      { size: 1, ms: 4 },
      { size: 2, ms: 4 },
      { size: 8, ms: 4 },
      { size: 16, ms: 8 },
    ])
    expect(() => new LatencyModel({ staleAfterRuns: 0 })).toThrow('Expected `staleAfterRuns` to be an integer >= 1, got `0` (number)')
  })

  it('adds the median hand-off overhead, not its slow tail, to a run measured where it ran', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    // Runs of 1 ms on the replica; handing them over and back took 2 ms, once 70 (a host stall).
    for (const overheadMs of [2, 2, 70, 2, 2]) model.record(1, 1, overheadMs)
    model.record(4, 2, 2)
    expect(model.estimates([1, 4, 8])).toEqual([
      { size: 1, ms: 3 },
      { size: 4, ms: 4 },
      { size: 8, ms: 6 }, // 2 ms per row at size 4, extrapolated, plus the hand-off
    ])
    // Stalls that become typical (the median) are part of every estimate.
    for (let i = 0; i < 6; i++) model.record(1, 1, 30)
    expect(model.estimate(1)).toBe(31)
    expect(() => new LatencyModel({ overheadWindow: 0 })).toThrow('Expected `overheadWindow` to be an integer >= 1, got `0` (number)')
  })

  it('bounds a run for starting a batch by its slowest run or its median times the recent slow-down, whichever is larger, plus the p90 hand-off', () => {
    // Without calibration (its own test below): these runs outrun their bound on purpose.
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 0 })
    // Size 4 runs 10 ms, then once 12 (1.2× its median); the hand-offs take 1 ms, once 3, once 9.
    for (let i = 0; i < 8; i++) model.record(4, 10, 1)
    model.record(4, 10, 3)
    model.record(4, 12, 9)
    model.record(1, 5, 1)
    // The door's estimate: p99 + median hand-off. The bound: the slowest run, or the
    // median × 1.2, + the p90 hand-off (3). Size 1 has run only at 5 ms, but the machine
    // was seen 1.2× slower: 6 + 3.
    expect([1, 4, 8].map((n) => model.estimate(n))).toEqual([6, 13, 25])
    expect([1, 4, 8].map((n) => model.bound(n))).toEqual([9, 15, 27])
    // A stall of 10× a size's median scales every median by 2 at most; the stalled size
    // keeps its slowest run.
    model.record(1, 50, 1)
    expect([1, 4].map((n) => model.bound(n))).toEqual([51, 21])
    // The slow-down is forgotten after `driftWindow` (16) runs.
    for (let i = 0; i < 16; i++) model.record(4, 10)
    expect([1, 4].map((n) => model.bound(n))).toEqual([51, 11])
    expect(new LatencyModel().bound(1)).toBeUndefined()
    // `headroom` (default 0.2) scales the run part, not the hand-off: 1.2 × 10 + 1.
    const spare = new LatencyModel({ warmupRuns: 0 })
    spare.record(4, 10, 1)
    expect(spare.bound(4)).toBe(13)
    expect(() => new LatencyModel({ headroom: -0.1 })).toThrow('Expected `headroom` to be a finite number >= 0, got `-0.1` (number)')
    expect(() => new LatencyModel({ driftWindow: 0 })).toThrow('Expected `driftWindow` to be an integer >= 1, got `0` (number)')
  })

  it('adds to its bound the largest time, over the last `calibrationWindow` batches, that a batch spent on the host beyond the bound’s hand-off part', () => {
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 4 })
    // Size 4 runs 10 ms and size 16 runs 40, handed over and back in 1: bounded at 11 and
    // 41, and they keep to it.
    model.record(4, 10, 1)
    expect(model.bound(4)).toBe(11)
    model.record(16, 40, 1)
    expect([model.bound(4), model.bound(16)]).toEqual([11, 41])
    // A batch of 4 that ran as usual, but whose answer the host saw 5.5 ms late. Its
    // hand-off is not the p90 of three, so only the calibration sees it: the same 5.5 ms
    // more for every size (not 1.5× each: a late host is late by milliseconds, whatever
    // the batch). The door's estimate is not calibrated.
    model.record(4, 10, 6.5)
    expect([model.bound(4), model.bound(16), model.bound(1), model.estimate(4)]).toEqual([16.5, 46.5, 16.5, 11])
    // Kept for the window's 4 batches, then forgotten.
    for (let i = 0; i < 3; i++) {
      model.record(4, 10, 1)
      expect(model.bound(4)).toBe(16.5)
    }
    model.record(4, 10, 1)
    expect(model.bound(4)).toBe(11)
    // Batches recorded between two reads are each set against the hand-off part before
    // them; the calibration at most doubles the bound (the MAX_DRIFT reason). The p90 of
    // the 9 hand-offs is now 6.5: (10 + 6.5) × 2, not 10 + 6.5 + 99.
    model.record(4, 10, 100)
    model.record(4, 10, 1)
    expect(model.bound(4)).toBe(33)
    // Forgotten with everything else.
    model.forget()
    model.record(4, 10, 1)
    expect(model.bound(4)).toBe(11)
    // 0: no calibration.
    const plain = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 0 })
    for (const overheadMs of [1, 1, 6.5]) plain.record(4, 10, overheadMs)
    expect(plain.bound(4)).toBe(11)
    expect(() => new LatencyModel({ calibrationWindow: -1 })).toThrow(
      'Expected `calibrationWindow` to be an integer >= 0, got `-1` (number)',
    )
    expect(() => new LatencyModel({ calibrationWindow: 2.5 })).toThrow(
      'Expected `calibrationWindow` to be an integer >= 0, got `2.5` (number)',
    )
  })

  it('counts a slow run once, in its size’s slowest run and the recent slow-down, not again in the calibration', () => {
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 256 })
    model.record(1, 2, 1)
    expect(model.bound(1)).toBe(3)
    for (let i = 0; i < 4; i++) {
      model.record(4, 10, 1)
      expect(model.bound(4)).toBe(11)
    }
    // A stall: a run of 3× its size's median, handed off as usual. Its size is bound by
    // that run, every size's median by twice itself (the slow-down, at most 2×), plus the
    // hand-off, and no more (set against the bound it started by, 30 + 1 is 2.8× 11).
    model.record(4, 30, 1)
    expect([model.bound(1), model.bound(4)]).toEqual([5, 31])
    // Once the stall has left the size's window and the slow-down's, the bounds are as
    // before it, though it is still within the last 256 batches.
    for (let i = 0; i < 16; i++) model.record(4, 10, 1)
    expect([model.bound(1), model.bound(4)]).toEqual([3, 11])
  })

  it('counts in a batch’s calibration the time its answers took to reach their callers after it was recorded', () => {
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 8 })
    model.record(4, 7, 1)
    expect(model.bound(4)).toBe(8)
    // Told before the bound is read again: 1 + 4 on the host against a p90 hand-off of 1.
    model.record(4, 7, 1)
    model.delivered(4)
    expect(model.bound(4)).toBe(12)
    // Told twice: counted once.
    model.delivered(4)
    expect(model.bound(4)).toBe(12)
    // Told after the bound was read (formation reads it as the batch settles): 1 + 8.
    model.record(4, 7, 1)
    expect(model.bound(4)).toBe(12)
    model.delivered(8)
    expect(model.bound(4)).toBe(16)
    // Not for a batch that was not counted: a warm-up run, or no calibration at all.
    const warm = new LatencyModel({ warmupRuns: 1, headroom: 0, calibrationWindow: 8 })
    for (let i = 0; i < 3; i++) warm.record(4, 7, 1)
    expect(warm.bound(4)).toBe(8)
    warm.record(2, 50, 1)
    warm.delivered(8)
    expect(warm.bound(4)).toBe(8)
    const plain = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 0 })
    plain.record(4, 7, 1)
    expect(plain.bound(4)).toBe(8)
    plain.record(4, 7, 1)
    plain.delivered(8)
    expect(plain.bound(4)).toBe(8)
  })

  it('gives the callers’ wait to every batch recorded since it was last told, when several settled in one turn', () => {
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 8 })
    model.record(4, 7, 1)
    expect(model.bound(4)).toBe(8)
    // Two batches settle in one turn, the first slow: each was 1 + 4 on the host.
    model.record(4, 11, 1)
    model.record(4, 7, 1)
    model.delivered(4)
    // The tables now: slowest 11 (the median 7 times its slow-down 11 ÷ 7 is no more), plus
    // the hand-off 1, plus the 4 ms beyond it.
    expect(model.bound(4)).toBe(16)
    // Set against the bound already, both take the next turn's wait: 12 more, capped at
    // twice the bound before calibration (12).
    model.record(4, 7, 1)
    model.record(4, 7, 1)
    expect(model.bound(4)).toBe(16)
    model.delivered(12)
    expect(model.bound(4)).toBe(24)
  })

  it('adds nothing to a bound of 0, and at most doubles any other', () => {
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 8 })
    model.record(1, 0)
    expect(model.bound(1)).toBe(0)
    // Set against a bound of 0, then told its callers' wait.
    model.record(1, 0)
    expect(model.bound(1)).toBe(0)
    model.delivered(1)
    expect(model.bound(1)).toBe(0)
    // Pending when told: a run of 0.5 whose callers waited 1 ms more is bound at twice 0.5.
    model.record(1, 0.5)
    model.delivered(1)
    expect(model.bound(1)).toBe(1)
    model.record(1, 0.5)
    expect(model.bound(1)).toBe(1)
  })

  it('sets the first batch after `forget` against nothing, not against the forgotten tables', () => {
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 8 })
    model.record(1, 1, 0)
    model.record(1, 1, 0)
    expect(model.bound(1)).toBe(1)
    model.forget()
    // Its hand-off of 2 would be 2 beyond the forgotten tables' hand-off part (0).
    model.record(1, 3, 2)
    expect(model.bound(1)).toBe(5)
  })

  it('floors a size at the fastest run of any measured size at or below it, plus the fastest recent hand-off', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    expect(model.floor(1)).toBeUndefined()
    model.record(4, 8, 3)
    model.record(4, 6, 1)
    model.record(16, 20, 2)
    // Size 4: fastest run 6, hand-off 1 at the fastest.
    expect(model.floor(4)).toBe(7)
    // Below every measured size: size 4's fastest in proportion to the rows.
    expect(model.floor(2)).toBe(4)
    // Between two sizes, and past the largest: the fastest of the sizes at or below.
    expect([model.floor(8), model.floor(16), model.floor(64)]).toEqual([7, 21, 21])
    // Never above the typical estimate.
    for (const n of [1, 2, 4, 8, 16, 64]) expect(model.floor(n)).toBeLessThanOrEqual(model.estimate(n) as number)
  })

  it('ignores runs that are not measurements, and validates its options', () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    model.record(0, 5)
    model.record(2, -1)
    model.record(2, Number.NaN)
    model.record(2, Infinity)
    expect(model.measured).toBe(false)
    expect(() => new LatencyModel({ window: 0 })).toThrow('Expected `window` to be an integer >= 1, got `0` (number)')
    expect(() => new LatencyModel({ warmupRuns: -1 })).toThrow('Expected `warmupRuns` to be an integer >= 0, got `-1` (number)')
  })
})
