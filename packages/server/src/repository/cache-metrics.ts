/**
 * The metrics of on-demand loading and its memory budget, in the server's registry
 * (`/metrics`), named after ModelMesh's where it has one:
 *
 * | inferpool                                  | ModelMesh                                   |
 * | ------------------------------------------ | ------------------------------------------- |
 * | `inferpool_cache_miss_seconds`             | `modelmesh_cache_miss_milliseconds`         |
 * | `inferpool_model_load_seconds` (metrics.ts)| `modelmesh_loadmodel_milliseconds`          |
 * | `inferpool_model_load_queue_seconds`       | `modelmesh_loading_queue_delay_milliseconds`|
 * | `inferpool_age_at_eviction_seconds`        | `modelmesh_age_at_eviction_milliseconds`    |
 * | `inferpool_memory_budget_bytes`            | `modelmesh_instance_capacity_bytes`         |
 * | `inferpool_memory_used_bytes`              | `modelmesh_instance_used_bytes`             |
 * | `inferpool_model_memory_bytes{model}`      | `modelmesh_loaded_model_size_bytes`         |
 * | `inferpool_model_last_used_seconds{model}` | (`modelmesh_instance_lru_seconds`: the LRU) |
 * | `inferpool_model_evictions_total{model}`   | `modelmesh_model_evicted`                   |
 *
 * Seconds rather than milliseconds: the unit of every other inferpool time metric.
 */
import { Counter, Gauge, Histogram } from 'prom-client'
import type { Registry } from 'prom-client'

const WAIT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
const AGE_BUCKETS = [1, 10, 30, 60, 300, 600, 1800, 3600, 4 * 3600, 24 * 3600]

/** What the metrics read at scrape time. */
export interface CacheReadings {
  /** The budget in bytes, if any. */
  readonly budget: number | undefined
  /** The server's PSS now (read only under a budget). */
  used(): number | undefined
  /** Each loaded model's measured size and last use (ms since the epoch). */
  models(): Iterable<{ readonly name: string; readonly bytes: number | undefined; readonly lastUsed: number | undefined }>
}

export class CacheMetrics {
  readonly #missSeconds: Histogram<'outcome'>
  readonly #queueSeconds: Histogram
  readonly #ageAtEviction: Histogram
  readonly #evictions: Counter<'model'>

  constructor(registry: Registry, readings: CacheReadings) {
    const registers = [registry]
    this.#missSeconds = new Histogram({
      name: 'inferpool_cache_miss_seconds',
      help: "Per request that found its model not loaded (on-demand mode), from then to the load's outcome ('ok' or 'failed', a remembered failure included).",
      labelNames: ['outcome'],
      buckets: WAIT_BUCKETS,
      registers,
    })
    this.#queueSeconds = new Histogram({
      name: 'inferpool_model_load_queue_seconds',
      help: 'Per load under a memory budget, the wait for its turn (loads run one at a time, each measured).',
      buckets: WAIT_BUCKETS,
      registers,
    })
    this.#ageAtEviction = new Histogram({
      name: 'inferpool_age_at_eviction_seconds',
      help: 'Per model evicted to make room under the memory budget, the time since it was last used (since it loaded, if never).',
      buckets: AGE_BUCKETS,
      registers,
    })
    this.#evictions = new Counter({
      name: 'inferpool_model_evictions_total',
      help: 'Evictions of each model to make room under the memory budget.',
      labelNames: ['model'],
      registers,
    })
    if (readings.budget !== undefined) {
      const budget = readings.budget
      new Gauge({
        name: 'inferpool_memory_budget_bytes',
        help: 'The memory budget of this server process (--model-memory-budget).',
        registers,
        collect() {
          this.set(budget)
        },
      })
      new Gauge({
        name: 'inferpool_memory_used_bytes',
        help: 'The PSS of this server process and its replica processes, read at scrape time.',
        registers,
        collect() {
          const used = readings.used()
          if (used !== undefined) this.set(used)
        },
      })
      new Gauge({
        name: 'inferpool_model_memory_bytes',
        help: "Each loaded model's size under the memory budget: the server's PSS change across its load.",
        labelNames: ['model'],
        registers,
        collect() {
          this.reset()
          for (const model of readings.models()) if (model.bytes !== undefined) this.set({ model: model.name }, model.bytes)
        },
      })
    }
    new Gauge({
      name: 'inferpool_model_last_used_seconds',
      help: 'Per loaded repository model, when its last request was answered (Unix time in seconds); absent before its first.',
      labelNames: ['model'],
      registers,
      aggregator: 'max',
      collect() {
        this.reset()
        for (const model of readings.models()) if (model.lastUsed !== undefined) this.set({ model: model.name }, model.lastUsed / 1000)
      },
    })
  }

  /** A request waited `seconds` for its model's on-demand load, which ended `ok` or not. */
  cacheMiss(seconds: number, ok: boolean): void {
    this.#missSeconds.observe({ outcome: ok ? 'ok' : 'failed' }, seconds)
  }

  /** A load under the budget waited `seconds` for its turn. */
  loadQueued(seconds: number): void {
    this.#queueSeconds.observe(seconds)
  }

  /** `model` was evicted `ageSeconds` after its last use (its load, if it served none). */
  evicted(model: string, ageSeconds: number): void {
    this.#evictions.inc({ model })
    this.#ageAtEviction.observe(ageSeconds)
  }
}
