/**
 * The request metrics' counters and histograms (src/protocol/series-metrics.ts), whose
 * series a served version resolves once: their exposition is exactly prom-client's for
 * the same observations, as text, as JSON and aggregated across registries.
 */
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { SeriesCounter, SeriesHistogram } from '../src/protocol/series-metrics.js'
import { prng } from '../../host/test/fixtures/models.js'

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const LABELS = ['model', 'version', 'protocol'] as const
type Label = (typeof LABELS)[number]

/** The same two metrics twice: prom-client's in one registry, ours in another. */
function pair() {
  const theirs = new Registry()
  const ours = new Registry()
  const seconds = { name: 'inferpool_request_duration_seconds', help: 'Latency.', labelNames: [...LABELS] as Label[], buckets: BUCKETS }
  const requests = { name: 'inferpool_requests_total', help: 'Requests.', labelNames: [...LABELS, 'status'] as Array<Label | 'status'> }
  return {
    theirs,
    ours,
    histogram: new Histogram<Label>({ ...seconds, registers: [theirs] }),
    counter: new Counter<Label | 'status'>({ ...requests, registers: [theirs] }),
    seriesHistogram: new SeriesHistogram<Label>({ ...seconds, registers: [ours] }),
    seriesCounter: new SeriesCounter<Label | 'status'>({ ...requests, registers: [ours] }),
  }
}

/** Durations: every bound exactly, just above and below, past the last, zero, and random ones. */
function durations(seed: number): number[] {
  const random = prng(seed)
  const values = [0, 45, 30, 30.000001]
  for (const bound of BUCKETS) values.push(bound, bound + 1e-12, bound - 1e-12)
  for (let i = 0; i < 300; i++) values.push(random() ** 3 * 2)
  return values
}

/** Feeds both sides the same requests: ours through series resolved once per label set. */
function feed(p: ReturnType<typeof pair>, seed: number): void {
  const sets = [
    { model: 'm', version: '1', protocol: 'http' },
    { model: 'm', version: '2', protocol: 'grpc' },
    { model: 'other', version: '1', protocol: 'http' },
  ]
  sets.forEach((labels, i) => {
    const series = p.seriesHistogram.series(labels)
    const ok = p.seriesCounter.series({ ...labels, status: '200' })
    for (const value of durations(seed + i)) {
      p.histogram.observe(labels, value)
      series.observe(value)
      p.counter.inc({ ...labels, status: '200' })
      ok.inc()
    }
  })
}

describe('series metrics', () => {
  it("expose exactly what prom-client's Counter and Histogram do for the same observations, as text and as JSON", async () => {
    const p = pair()
    feed(p, 1)
    expect(await p.ours.metrics()).toBe(await p.theirs.metrics())
    expect(await p.ours.getMetricsAsJSON()).toEqual(await p.theirs.getMetricsAsJSON())
  })

  it("aggregate across registries (inferpool serve --processes) as prom-client's do", async () => {
    const a = pair()
    const b = pair()
    feed(a, 2)
    feed(b, 7)
    const ours = AggregatorRegistry.aggregate([await a.ours.getMetricsAsJSON(), await b.ours.getMetricsAsJSON()])
    const theirs = AggregatorRegistry.aggregate([await a.theirs.getMetricsAsJSON(), await b.theirs.getMetricsAsJSON()])
    expect(await ours.metrics()).toBe(await theirs.metrics())
  })

  it('gives one series per label set however often it is asked for, and zeroes them on reset while their holders keep them', async () => {
    const p = pair()
    const labels = { model: 'm', version: '1', protocol: 'http', status: '200' }
    const held = p.seriesCounter.series(labels)
    expect(p.seriesCounter.series({ ...labels })).toBe(held)
    held.inc()
    p.ours.resetMetrics()
    held.inc()
    expect(await p.ours.getSingleMetricAsString('inferpool_requests_total')).toBe(
      '# HELP inferpool_requests_total Requests.\n# TYPE inferpool_requests_total counter\ninferpool_requests_total{model="m",version="1",protocol="http",status="200"} 1',
    )
  })
})
