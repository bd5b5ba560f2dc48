/**
 * A Prometheus histogram with one label, for values observed many at a time: the
 * queue wait of every row of every dispatched batch (64 per 64-row request).
 *
 * Why not prom-client's `Histogram` for this one: its `observe` builds a labels
 * object, validates it and hashes it to a string on every call — about 240 bytes of
 * garbage and a measurable share of the host thread per row at full load. Here a
 * series is looked up once per batch and each value costs a bucket search and three
 * additions. Exposition stays prom-client's: the object registers in the handler's
 * registry and `get()` returns the same shape a prom-client histogram does, so the text
 * format, `getMetricsAsJSON` and the cluster aggregation (`AggregatorRegistry`) treat
 * it as one (a test compares it with prom-client's own histogram, value for value).
 */
import type { Aggregator, Metric, Registry } from 'prom-client'

/** One line of the exposition, as prom-client's metrics give them from `get()`. */
export interface RowHistogramValue {
  readonly labels: Record<string, string | number>
  readonly value: number
  readonly metricName: string
  /** Always null: no exemplars (prom-client's buckets carry the key too). */
  readonly exemplar?: null
}

export interface RowHistogramOptions<L extends string> {
  readonly name: string
  readonly help: string
  /** The one label every series carries (its values are chosen by the server, never by clients). */
  readonly labelName: L
  /** Upper bounds, ascending; `+Inf` is added. */
  readonly buckets: readonly number[]
  readonly registers: readonly Registry[]
}

/** One label value's counts: per bucket (not cumulative), then the sum and count. */
class Series {
  readonly counts: Float64Array
  sum = 0
  count = 0
  constructor(buckets: number) {
    this.counts = new Float64Array(buckets)
  }
}

export class RowHistogram<L extends string> {
  readonly name: string
  readonly help: string
  readonly type = 'histogram'
  readonly aggregator: Aggregator = 'sum'
  readonly #labelName: L
  readonly #bounds: readonly number[]
  readonly #series = new Map<string, Series>()

  constructor(options: RowHistogramOptions<L>) {
    this.name = options.name
    this.help = options.help
    this.#labelName = options.labelName
    this.#bounds = options.buckets
    for (const registry of options.registers) {
      // The registry reads `name`, `help`, `type`, `aggregator`, `get()` and `reset()`
      // only; its type asks for prom-client's own Metric class.
      registry.registerMetric(this as unknown as Metric)
    }
  }

  /** Adds each of `values` divided by `divisor` (ms to seconds: 1000) to the series of `labelValue`. */
  observeAll(labelValue: string, values: ArrayLike<number>, divisor = 1): void {
    let series = this.#series.get(labelValue)
    if (series === undefined) {
      series = new Series(this.#bounds.length)
      this.#series.set(labelValue, series)
    }
    const bounds = this.#bounds
    const counts = series.counts
    for (let i = 0; i < values.length; i++) {
      const value = values[i] / divisor
      // Non-finite values are skipped, where prom-client's observe would throw.
      if (!Number.isFinite(value)) continue
      // Added one by one, in order, as prom-client does: the same sum to the last bit.
      series.sum += value
      series.count++
      let b = 0
      while (b < bounds.length && value > bounds[b]) b++
      // Past the last bound: counted in `+Inf` only (the count).
      if (b < bounds.length) counts[b]++
    }
  }

  get(): Promise<{ name: string; help: string; type: 'histogram'; values: RowHistogramValue[]; aggregator: Aggregator }> {
    const values: RowHistogramValue[] = []
    const bucketName = `${this.name}_bucket`
    for (const [labelValue, series] of this.#series) {
      let cumulative = 0
      for (let b = 0; b < this.#bounds.length; b++) {
        cumulative += series.counts[b]
        values.push({
          labels: { le: this.#bounds[b], [this.#labelName]: labelValue },
          value: cumulative,
          metricName: bucketName,
          exemplar: null,
        })
      }
      values.push({ labels: { le: '+Inf', [this.#labelName]: labelValue }, value: series.count, metricName: bucketName, exemplar: null })
      values.push({ labels: { [this.#labelName]: labelValue }, value: series.sum, metricName: `${this.name}_sum` })
      values.push({ labels: { [this.#labelName]: labelValue }, value: series.count, metricName: `${this.name}_count` })
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator })
  }

  reset(): void {
    this.#series.clear()
  }
}
