import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DynamicBatcher, LatencyModel } from '../src/index.js'
import type { BatchDispatchEvent, BatchSettleEvent } from '../src/index.js'
import { nearestRank, SampleWindow } from '../src/meters.js'
import type { Plain } from '../src/queue.js'
import { recordWaits } from '../src/stats.js'
import { flush, gate, track } from './helpers.js'

describe('queue waits of a batch', () => {
  /** The window's ring as it is, and where it writes next. */
  const contents = (w: SampleWindow): [number[], number] => {
    const inside = w as unknown as { samples: Float64Array; next: number }
    return [Array.from(inside.samples), inside.next]
  }

  it('records the same samples, in the same order, whether each reading is searched for its run or every record is visited', () => {
    // Runs of records sharing a clock reading: single records, short runs, runs that
    // end at a power of two and just past it, and one longer than the window.
    const runLengths = [[1], [128], [1, 1, 1, 1], [3, 1, 4, 1, 5, 9, 2, 6], [64, 64], [63, 2, 63], [7, 300, 1], [33, 17, 1, 95]]
    for (const lengths of runLengths) {
      const records: Plain[] = []
      lengths.forEach((length, run) => {
        const stamp = { at: run * 10 }
        for (let i = 0; i < length; i++) records.push({ resolve: () => {}, reject: () => {}, cost: 1, seq: records.length, stamp })
      })
      const expected = new SampleWindow(200)
      expected.record(-1) // not at the ring's start
      for (const record of records) expected.record(1000 - record.stamp.at)
      for (const ordered of [true, false]) {
        const window = new SampleWindow(200)
        window.record(-1)
        recordWaits(window, records, 1000, ordered)
        expect(contents(window)).toEqual(contents(expected))
      }
    }
  })
})

describe('SampleWindow percentiles', () => {
  it('gives nearest-rank p50/p95/p99 of a known series, whatever the arrival order', () => {
    const window = new SampleWindow(1000)
    const series = Array.from({ length: 100 }, (_, i) => i + 1)
    for (const v of [...series].reverse()) window.record(v)
    expect(window.percentiles()).toEqual({ p50: 50, p95: 95, p99: 99 })
  })

  it('keeps only the most recent `capacity` samples', () => {
    const window = new SampleWindow(10)
    for (let v = 1; v <= 25; v++) window.record(v)
    expect(window.size).toBe(10)
    // Samples 16..25 remain.
    expect(window.percentiles()).toEqual({ p50: 20, p95: 25, p99: 25 })
  })

  it('records a run of equal samples exactly as that many single records, across the wrap-around', () => {
    const runs: Array<[number, number]> = [
      [1, 3],
      [2, 5],
      [3, 1],
      [4, 6],
      [5, 0],
      [6, 23],
      [7, 2],
    ]
    const byRun = new SampleWindow(10)
    const bySample = new SampleWindow(10)
    for (const [value, k] of runs) {
      byRun.recordRun(value, k)
      for (let i = 0; i < k; i++) bySample.record(value)
      expect(byRun.size).toBe(bySample.size)
      expect(byRun.percentiles()).toEqual(bySample.percentiles())
      expect(byRun['samples']).toEqual(bySample['samples'])
    }
  })

  it('reports zeros before any sample', () => {
    expect(new SampleWindow(4).percentiles()).toEqual({ p50: 0, p95: 0, p99: 0 })
  })

  it('picks the smallest sample covering the rank', () => {
    expect(nearestRank([1, 2], 50)).toBe(1)
    expect(nearestRank([1, 2], 95)).toBe(2)
    expect(nearestRank([7], 99)).toBe(7)
  })
})

describe('batcher stats', () => {
  it('counts items and batches and reports percentiles, utilization and run-time estimates from the injected clock', async () => {
    let t = 0
    const g = gate<number>()
    const batcher = new DynamicBatcher<number, number>(g.process, {
      maxBatchSize: 2,
      now: () => t,
      latencyModel: new LatencyModel({ warmupRuns: 0 }),
    })
    const items = [1, 2, 3].map((i) => track(batcher.submit(i)))
    await flush() // batch [1, 2] starts at t = 0
    expect(batcher.stats).toMatchObject({ submitted: 3, queued: 1, inFlight: 1, inFlightItems: 2, batches: 1 })
    t = 10
    g.pending[0].resolve([1, 2]) // batch [3] starts at t = 10, having waited 10
    await flush()
    t = 30
    g.pending[1].resolve([3])
    await flush()
    expect(items.map((i) => i.value)).toEqual([1, 2, 3])
    expect(batcher.stats).toEqual({
      submitted: 3,
      completed: 3,
      failed: 0,
      cancelled: 0,
      timedOut: 0,
      rejected: 0,
      batches: 2,
      splits: 0,
      queued: 0,
      inFlight: 0,
      inFlightItems: 0,
      waitingForRoom: 0,
      avgBatchSize: 1.5,
      utilization: 1,
      batchSize: { p50: 1, p95: 2, p99: 2 },
      queueWaitMs: { p50: 0, p95: 10, p99: 10 },
      processingMs: { p50: 10, p95: 20, p99: 20 },
      maxBatchSize: 2,
      maxWaitMs: 0,
      // Three items dispatched within the last second.
      drainRate: 3,
      // Batch [1, 2] ran 10 ms, batch [3] 20 ms: a batch of two is never estimated below one of one.
      latencyEstimates: [
        { size: 1, ms: 20 },
        { size: 2, ms: 20 },
      ],
    })
    t = 60
    expect(batcher.stats.utilization).toBe(0.5)
  })

  it('measures utilization over all batch slots', async () => {
    let t = 0
    const g = gate<number>()
    const batcher = new DynamicBatcher<number, number>(g.process, {
      maxBatchSize: 1,
      maxConcurrentBatches: 4,
      now: () => t,
    })
    track(batcher.submit(1))
    await flush()
    t = 100
    // One of four slots busy for the whole time.
    expect(batcher.stats.utilization).toBe(0.25)
    g.pending[0].resolve([1])
  })

  it('keeps percentiles over the last statsWindow batches only', async () => {
    const batcher = new DynamicBatcher((items: number[]) => items, { maxBatchSize: 100, statsWindow: 4 })
    for (let size = 1; size <= 10; size++) {
      await Promise.all(Array.from({ length: size }, (_, i) => batcher.submit(i)))
    }
    const stats = batcher.stats
    expect(stats.batches).toBe(10)
    expect(stats.avgBatchSize).toBe(5.5)
    // Sizes 7, 8, 9, 10 remain.
    expect(stats.batchSize).toEqual({ p50: 8, p95: 10, p99: 10 })
  })

  it('is a plain snapshot that does not change afterwards', async () => {
    const batcher = new DynamicBatcher((items: number[]) => items)
    const before = batcher.stats
    await batcher.submit(1)
    expect(before.completed).toBe(0)
    expect(batcher.stats.completed).toBe(1)
    expect(JSON.parse(JSON.stringify(before))).toEqual(before)
  })
})

describe('observers', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('reports every dispatch with per-item queue waits and every settle with its outcome', async () => {
    let t = 0
    const dispatched: BatchDispatchEvent[] = []
    const settled: BatchSettleEvent[] = []
    const batcher = new DynamicBatcher<number, number>(
      (items) => {
        t += 5
        if (items.includes(13)) throw new Error('bad')
        return items
      },
      { maxBatchSize: 2, isolateFailures: true, now: () => t, cost: (i) => i },
    )
    batcher.observe({ onDispatch: (e) => dispatched.push(e), onSettle: (e) => settled.push(e) })
    const first = batcher.submit(1)
    t = 3
    const second = batcher.submit(2)
    await Promise.all([first, second])
    await Promise.allSettled([batcher.submit(12), batcher.submit(13)])
    expect(dispatched).toEqual([
      { batchId: 1, size: 2, cost: 3, splitDepth: 0, queueWaitsMs: [3, 0] },
      { batchId: 2, size: 2, cost: 25, splitDepth: 0, queueWaitsMs: [0, 0] },
      // Re-runs report the time since submit: 12 and 13 were submitted at t = 8.
      { batchId: 3, size: 1, cost: 12, splitDepth: 1, queueWaitsMs: [5] },
      { batchId: 4, size: 1, cost: 13, splitDepth: 1, queueWaitsMs: [10] },
    ])
    expect(settled).toEqual([
      { batchId: 1, size: 2, splitDepth: 0, processingMs: 5, ok: true },
      { batchId: 2, size: 2, splitDepth: 0, processingMs: 5, ok: false },
      { batchId: 3, size: 1, splitDepth: 1, processingMs: 5, ok: true },
      { batchId: 4, size: 1, splitDepth: 1, processingMs: 5, ok: false },
    ])
  })

  it('reads the default clock once per turn: items submitted in one turn share a queue wait, and the next turn reads it again', async () => {
    // Every read of the default clock (`performance.now`) moves it on by 1 ms, so two
    // items with equal queue waits were stamped by one reading.
    let t = 0
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => ++t)
    try {
      const waits: Array<readonly number[]> = []
      const batcher = new DynamicBatcher<number, number>((items) => items, { maxBatchSize: 3, minBatchSize: 3, maxWaitMs: 1e6 })
      batcher.observe({ onDispatch: (e) => waits.push(e.queueWaitsMs) })
      const before = t
      const first = [batcher.submit(1), batcher.submit(2)]
      expect(t - before).toBe(1)
      await Promise.resolve()
      const afterTurn = t
      const third = batcher.submit(3)
      expect(t - afterTurn).toBe(1)
      expect(await Promise.all([...first, third])).toEqual([1, 2, 3])
      expect(waits).toHaveLength(1)
      const [a, b, c] = waits[0]
      expect(b).toBe(a)
      expect(a - c).toBe(afterTurn + 1 - (before + 1))
    } finally {
      clock.mockRestore()
    }
  })

  it('reports ok: false for a result array of the wrong length', async () => {
    const settled: BatchSettleEvent[] = []
    const batcher = new DynamicBatcher<number, number>(() => [], { now: () => 0 })
    batcher.observe({ onSettle: (e) => settled.push(e) })
    await batcher.submit(1).catch(() => undefined)
    expect(settled.map((e) => e.ok)).toEqual([false])
  })

  it('ignores an observer that throws, and stops calling one that unsubscribed', async () => {
    const batcher = new DynamicBatcher((items: number[]) => items)
    const seen: number[] = []
    batcher.observe({
      onDispatch: () => {
        throw new Error('observer bug')
      },
      onSettle: () => {
        throw new Error('observer bug')
      },
    })
    const unsubscribe = batcher.observe({ onDispatch: (e) => seen.push(e.batchId) })
    expect(await batcher.submit(1)).toBe(1)
    unsubscribe()
    unsubscribe()
    expect(await batcher.submit(2)).toBe(2)
    expect(seen).toEqual([1])
  })
})
