/**
 * Prometheus counters and histograms whose series are resolved once and then fed
 * directly: `series(labels)` gives the series of one label set, which its holder keeps
 * (a served model version keeps its own request series) and feeds with arithmetic only.
 *
 * Why not prom-client's `Counter` and `Histogram` for the request metrics: their `inc`
 * and `observe` — the `labels()` children too — build a labels object, validate it and
 * hash it to a string on every call, three times per request. Exposition stays
 * prom-client's, as for row-histogram.ts: the object registers in the server's registry
 * and `get()` returns the shape a prom-client metric returns, so the text format,
 * `getMetricsAsJSON` and the cluster aggregation (`AggregatorRegistry`) treat it as one.
 */
import type { Aggregator, Metric, Registry } from 'prom-client'

interface MetricValue {
  readonly labels: Record<string, string | number>
  readonly value: number
  readonly metricName?: string
  readonly exemplar?: null
}

interface MetricOptions<L extends string> {
  readonly name: string
  readonly help: string
  readonly labelNames: readonly L[]
  readonly registers: readonly Registry[]
}

/** The series of one counter label set. */
export interface CounterSeries {
  inc(): void
}

/** The series of one histogram label set. */
export interface HistogramSeries {
  observe(value: number): void
}

abstract class SeriesMetric<L extends string, S> {
  readonly name: string
  readonly help: string
  readonly aggregator: Aggregator = 'sum'
  abstract readonly type: 'counter' | 'histogram'
  readonly #labelNames: readonly L[]
  /** By the label values joined: one series per label set, however often it is asked for. */
  readonly #series = new Map<string, { readonly labels: Readonly<Record<L, string>>; readonly series: S }>()

  constructor(options: MetricOptions<L>) {
    this.name = options.name
    this.help = options.help
    this.#labelNames = options.labelNames
    // The registry reads `name`, `help`, `type`, `aggregator`, `get()` and `reset()` only;
    // its type asks for prom-client's own Metric class.
    for (const registry of options.registers) registry.registerMetric(this as unknown as Metric)
  }

  protected abstract create(): S
  protected abstract clear(series: S): void
  protected abstract values(labels: Readonly<Record<L, string>>, series: S): MetricValue[]

  /** The series of `labels` (every label name given), created on first use. */
  series(labels: Readonly<Record<L, string>>): S {
    const key = JSON.stringify(this.#labelNames.map((name) => labels[name]))
    let found = this.#series.get(key)
    if (found === undefined) {
      found = { labels: { ...labels }, series: this.create() }
      this.#series.set(key, found)
    }
    return found.series
  }

  get(): Promise<{ name: string; help: string; type: 'counter' | 'histogram'; values: MetricValue[]; aggregator: Aggregator }> {
    const values: MetricValue[] = []
    for (const { labels, series } of this.#series.values()) values.push(...this.values(labels, series))
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator })
  }

  /** Zeroes every series (their holders keep feeding them). */
  reset(): void {
    for (const { series } of this.#series.values()) this.clear(series)
  }
}

class CountSeries implements CounterSeries {
  value = 0
  inc(): void {
    this.value++
  }
}

export class SeriesCounter<L extends string> extends SeriesMetric<L, CounterSeries> {
  readonly type = 'counter'
  protected create(): CountSeries {
    return new CountSeries()
  }
  protected clear(series: CountSeries): void {
    series.value = 0
  }
  protected values(labels: Readonly<Record<L, string>>, series: CountSeries): MetricValue[] {
    return [{ labels, value: series.value }]
  }
}

/** Counts per bucket (not cumulative), then the sum and count. */
class BucketSeries implements HistogramSeries {
  readonly counts: Float64Array
  readonly #bounds: readonly number[]
  sum = 0
  count = 0
  constructor(bounds: readonly number[]) {
    this.#bounds = bounds
    this.counts = new Float64Array(bounds.length)
  }
  observe(value: number): void {
    // Non-finite values are skipped, where prom-client's observe would throw.
    if (!Number.isFinite(value)) return
    this.sum += value
    this.count++
    const bounds = this.#bounds
    let b = 0
    while (b < bounds.length && value > bounds[b]) b++
    // Past the last bound: counted in `+Inf` only (the count).
    if (b < bounds.length) this.counts[b]++
  }
}

export class SeriesHistogram<L extends string> extends SeriesMetric<L, HistogramSeries> {
  readonly type = 'histogram'
  readonly #bounds: readonly number[]

  constructor(options: MetricOptions<L> & { readonly buckets: readonly number[] }) {
    super(options)
    this.#bounds = options.buckets
  }
  protected create(): BucketSeries {
    return new BucketSeries(this.#bounds)
  }
  protected clear(series: BucketSeries): void {
    series.counts.fill(0)
    series.sum = 0
    series.count = 0
  }
  protected values(labels: Readonly<Record<L, string>>, series: BucketSeries): MetricValue[] {
    const values: MetricValue[] = []
    const bucketName = `${this.name}_bucket`
    let cumulative = 0
    for (let b = 0; b < this.#bounds.length; b++) {
      cumulative += series.counts[b]
      values.push({ labels: { le: this.#bounds[b], ...labels }, value: cumulative, metricName: bucketName, exemplar: null })
    }
    values.push({ labels: { le: '+Inf', ...labels }, value: series.count, metricName: bucketName, exemplar: null })
    values.push({ labels, value: series.sum, metricName: `${this.name}_sum` })
    values.push({ labels, value: series.count, metricName: `${this.name}_count` })
    return values
  }
}
