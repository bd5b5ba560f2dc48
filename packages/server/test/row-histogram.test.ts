import { AggregatorRegistry, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { RowHistogram } from '../src/protocol/row-histogram.js'
import { prng as mulberry32 } from '../../host/test/fixtures/models.js'

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** The same metric twice: prom-client's Histogram in one registry, ours in another. */
function pair() {
  const theirs = new Registry()
  const ours = new Registry()
  const options = { name: 'inferpool_queue_wait_seconds', help: 'Per row, time from submission to the dispatch of its batch.' }
  const histogram = new Histogram({ ...options, labelNames: ['model'], buckets: BUCKETS, registers: [theirs] })
  const rows = new RowHistogram({ ...options, labelName: 'model', buckets: BUCKETS, registers: [ours] })
  return { theirs, ours, histogram, rows }
}

/** Waits in ms: every bound exactly, just above and below, past the last, zero, and random ones. */
function waitsMs(seed: number): number[] {
  const random = mulberry32(seed)
  const waits = [0, 45_000, 30_000, 30_000.001]
  for (const bound of BUCKETS) waits.push(bound * 1000, bound * 1000 + 1e-9, bound * 1000 - 1e-9)
  for (let i = 0; i < 500; i++) waits.push(random() ** 3 * 2000)
  return waits
}

describe('RowHistogram', () => {
  it("exposes exactly what prom-client's Histogram does for the same observations, as text and as JSON", async () => {
    const { theirs, ours, histogram, rows } = pair()
    for (const [model, seed] of [
      ['demo', 1],
      ['other', 2],
      ['demo', 3],
    ] as const) {
      const waits = waitsMs(seed)
      for (const waitMs of waits) histogram.observe({ model }, waitMs / 1000)
      rows.observeAll(model, waits, 1000)
    }
    expect(await ours.metrics()).toBe(await theirs.metrics())
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON())
  })

  it("aggregates across registries (inferpool serve --processes) as prom-client's does", async () => {
    const a = pair()
    const b = pair()
    a.rows.observeAll('demo', waitsMs(4), 1000)
    b.rows.observeAll('demo', waitsMs(5), 1000)
    for (const waitMs of waitsMs(4)) a.histogram.observe({ model: 'demo' }, waitMs / 1000)
    for (const waitMs of waitsMs(5)) b.histogram.observe({ model: 'demo' }, waitMs / 1000)
    const ours = AggregatorRegistry.aggregate([await a.ours.getMetricsAsJSON(), await b.ours.getMetricsAsJSON()])
    const theirs = AggregatorRegistry.aggregate([await a.theirs.getMetricsAsJSON(), await b.theirs.getMetricsAsJSON()])
    expect(await ours.metrics()).toBe(await theirs.metrics())
  })

  it('skips non-finite values, exposes no series before the first value, and is emptied by reset', async () => {
    const { ours, rows } = pair()
    expect(await ours.metrics()).toBe(
      '# HELP inferpool_queue_wait_seconds Per row, time from submission to the dispatch of its batch.\n# TYPE inferpool_queue_wait_seconds histogram\n',
    )
    rows.observeAll('demo', [Number.NaN, Number.POSITIVE_INFINITY, 2], 1000)
    const text = await ours.metrics()
    expect(text).toContain('inferpool_queue_wait_seconds_count{model="demo"} 1\n')
    expect(text).toContain('inferpool_queue_wait_seconds_sum{model="demo"} 0.002\n')
    expect(text).toContain('inferpool_queue_wait_seconds_bucket{le="0.001",model="demo"} 0\n')
    expect(text).toContain('inferpool_queue_wait_seconds_bucket{le="0.0025",model="demo"} 1\n')
    ours.resetMetrics()
    expect(await ours.metrics()).not.toContain('model="demo"')
  })
})
