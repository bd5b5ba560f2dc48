/**
 * Prometheus metrics of one request handler, in its own `prom-client` registry (never
 * the global one, so several handlers or servers in one process do not collide).
 *
 * Three sources, all labelled by `model` (only configured model names are ever used as
 * label values, so a client cannot grow the label set):
 * - each answered request feeds the request metrics of its served version, labelled by
 *   `model` and `version` too (`requestsOf`: series resolved once per version, so a
 *   request builds and hashes no label set; series-metrics.ts);
 * - per-batch events from `pool.observe()` feed histograms (batch size, batch fill,
 *   queue wait, processing time) — a snapshot of percentiles could not be aggregated
 *   across instances, histogram buckets can;
 * - `pool.stats` is read at scrape time for gauges (queue length, batches in flight,
 *   slot utilization) and for counters the pool already keeps (rejected, timed-out,
 *   failed rows, worker restarts), mirrored so they count work from every caller of
 *   the pool, not only this handler's.
 */
import { Counter, Gauge, Histogram, collectDefaultMetrics } from 'prom-client'
import type { Aggregator, Registry } from 'prom-client'
import { isDegraded, replicasReady } from '@inferpool/host/internal'
import type { PoolStats } from '@inferpool/host'
import { RowHistogram } from './row-histogram.js'
import { SeriesCounter, SeriesHistogram } from './series-metrics.js'
import type { CounterSeries, HistogramSeries } from './series-metrics.js'
import type { ServedPool } from './served-pool.js'

const SECONDS_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const BATCH_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
const LOAD_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]
const RATIO_BUCKETS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]

type Labels = 'model'

/** One served model version's state, for `inferpool_model_state`. */
export interface ModelVersionState {
  readonly model: string
  readonly version: string
  readonly state: 'loading' | 'ready' | 'failed'
}

/** The front end a request came through (the `protocol` label). */
export type RequestProtocol = 'http' | 'grpc'

export interface ServerMetricsOptions {
  registry: Registry
  processMetrics: boolean
}

/** The metrics of one handler; `attach` each pool once it has loaded. */
export class ServerMetrics {
  readonly registry: Registry
  /**
   * The attached pools by model version (`attach`'s key), with their model name (the
   * `model` label): a model serving several versions has one pool per version, summed
   * under its name.
   */
  readonly #pools = new Map<string, { readonly model: string; readonly pool: ServedPool }>()
  /** Stats of pools that only have `readStats` (remote ones), as of the last `refresh()`. */
  readonly #readStats = new Map<string, PoolStats>()
  readonly #requests: SeriesCounter<'model' | 'version' | 'protocol' | 'status'>
  readonly #requestErrors: SeriesCounter<'model' | 'version' | 'protocol' | 'code'>
  readonly #requestSeconds: SeriesHistogram<'model' | 'version' | 'protocol'>
  readonly #requestRows: SeriesHistogram<'model' | 'version' | 'protocol'>
  readonly #batchSize: Histogram<Labels>
  readonly #batchFill: Histogram<Labels>
  readonly #queueWait: RowHistogram<Labels>
  readonly #processing: Histogram<Labels>
  readonly #idleCollections: Counter
  readonly #loadSeconds: Histogram<'model' | 'outcome'>
  readonly #unloadSeconds: Histogram<'model'>
  #states: () => Iterable<ModelVersionState> = () => []

  constructor(options: ServerMetricsOptions) {
    const registry = options.registry
    this.registry = registry
    const registers = [registry]
    if (options.processMetrics) collectDefaultMetrics({ register: registry })

    // The request metrics are fed per served version through series it resolves once (`requestsOf`).
    this.#requests = new SeriesCounter({
      name: 'inferpool_requests_total',
      help: "Inference requests answered, by model, version, protocol ('http' or 'grpc') and status (the HTTP status, or the gRPC status name).",
      labelNames: ['model', 'version', 'protocol', 'status'],
      registers,
    })
    this.#requestErrors = new SeriesCounter({
      name: 'inferpool_request_errors_total',
      help: 'Inference requests answered with an error, by model, version, protocol and error code (ERR_QUEUE_FULL = rejected, ERR_TIMEOUT = timed out).',
      labelNames: ['model', 'version', 'protocol', 'code'],
      registers,
    })
    this.#requestSeconds = new SeriesHistogram({
      name: 'inferpool_request_duration_seconds',
      help: 'Inference request latency from arrival to the answer, by model, version and protocol.',
      labelNames: ['model', 'version', 'protocol'],
      buckets: SECONDS_BUCKETS,
      registers,
    })
    this.#requestRows = new SeriesHistogram({
      name: 'inferpool_request_rows',
      help: 'Rows per inference request, by model, version and protocol.',
      labelNames: ['model', 'version', 'protocol'],
      buckets: BATCH_SIZE_BUCKETS,
      registers,
    })
    this.#batchSize = new Histogram({
      name: 'inferpool_batch_size',
      help: 'Rows per dispatched batch.',
      labelNames: ['model'],
      buckets: BATCH_SIZE_BUCKETS,
      registers,
    })
    this.#batchFill = new Histogram({
      name: 'inferpool_batch_utilization_ratio',
      help: "Batch fill at dispatch: rows in the batch / the pool's effective max batch size.",
      labelNames: ['model'],
      buckets: RATIO_BUCKETS,
      registers,
    })
    // Fed a whole batch of rows at a time: see row-histogram.ts for why not prom-client's.
    this.#queueWait = new RowHistogram({
      name: 'inferpool_queue_wait_seconds',
      help: 'Per row, time from submission to the dispatch of its batch.',
      labelName: 'model',
      buckets: SECONDS_BUCKETS,
      registers,
    })
    this.#loadSeconds = new Histogram({
      name: 'inferpool_model_load_seconds',
      help: "Loads and reloads of repository models, from the request to the new versions serving (or the failure), by model and outcome ('ok' or 'failed').",
      labelNames: ['model', 'outcome'],
      buckets: LOAD_BUCKETS,
      registers,
    })
    this.#unloadSeconds = new Histogram({
      name: 'inferpool_model_unload_seconds',
      help: 'Unloads of repository models, from the request to their pools closed (the requests in flight answered first).',
      labelNames: ['model'],
      buckets: LOAD_BUCKETS,
      registers,
    })
    const states = (): Iterable<ModelVersionState> => this.#states()
    new Gauge<'model' | 'version' | 'state'>({
      name: 'inferpool_model_state',
      help: "1 for the state each served model version is in ('loading', 'ready' or 'failed').",
      labelNames: ['model', 'version', 'state'],
      registers,
      collect() {
        this.reset()
        for (const { model, version, state } of states()) this.set({ model, version, state }, 1)
      },
    })
    this.#processing = new Histogram({
      name: 'inferpool_batch_processing_seconds',
      help: 'Per batch, time from dispatch to settlement on a worker.',
      labelNames: ['model'],
      buckets: SECONDS_BUCKETS,
      registers,
    })

    this.#idleCollections = new Counter({
      name: 'inferpool_idle_collections_total',
      help: 'Full garbage collections run once the server went idle after serving requests (ServerOptions.idleCollectMs).',
      registers,
    })

    this.#statsGauge('inferpool_queue_length', 'Rows waiting in the queue now.', (s) => s.queued)
    this.#statsGauge('inferpool_batches_in_flight', 'Batches running on workers now.', (s) => s.inFlight)
    this.#statsGauge(
      'inferpool_batch_slots_utilization_ratio',
      'Fraction of time the batch slots (replicas x concurrency) were busy since the pool started.',
      (s) => s.utilization,
      // Across the processes of `inferpool serve --processes n` a ratio is averaged; every other metric here is summed.
      'average',
    )
    this.#statsGauge('inferpool_replicas', 'Worker threads of the pool.', (s) => s.replicas.length)
    this.#statsGauge(
      'inferpool_replicas_ready',
      'Replicas whose session is loaded and serving (the others are loading, failed or down).',
      replicasReady,
    )
    this.#statsGauge(
      'inferpool_model_degraded',
      'Whether some replica of the model is not ready (loading, failed, overdue or down): 1, else 0. The model stays ready while one replica is.',
      (s) => (isDegraded(s) ? 1 : 0),
    )
    this.#statsCounter('inferpool_rows_submitted_total', 'Rows accepted by the pool.', (s) => s.submitted)
    this.#statsCounter('inferpool_rows_completed_total', 'Rows resolved with a result.', (s) => s.completed)
    this.#statsCounter('inferpool_rows_failed_total', 'Rows failed by their batch or their own error.', (s) => s.failed)
    this.#statsCounter('inferpool_rows_rejected_total', 'Rows refused at submission (queue full, too large, closed).', (s) => s.rejected)
    this.#statsCounter('inferpool_rows_timed_out_total', 'Rows that timed out.', (s) => s.timedOut)
    this.#statsCounter('inferpool_rows_cancelled_total', 'Rows aborted or timed out.', (s) => s.cancelled)
    this.#statsCounter('inferpool_worker_restarts_total', 'Worker threads replaced after a crash.', (s) => s.restarts)
    this.#statsCounter(
      'inferpool_pool_rebuilds_total',
      'Thread pools rebuilt because a replacement thread died while loading.',
      (s) => s.rebuilds,
    )
    this.#replicaMetrics()
    this.#latencyMetrics()
  }

  /**
   * The pool's latency model (`pool.stats.latencyEstimates`): the estimated run time of
   * a batch at sizes 1, 2, 4, … and the effective max batch size. A size is left out
   * until a batch has been measured. Across processes, the slowest estimate is kept.
   */
  #latencyMetrics(): void {
    const all = (): Generator<[string, PoolStats]> => this.#stats()
    new Gauge<'model' | 'batch_size'>({
      name: 'inferpool_batch_latency_estimate_seconds',
      help: "Estimated run time of a batch of batch_size rows on the pool's replicas (p99 of recent runs; larger sizes extrapolated conservatively).",
      labelNames: ['model', 'batch_size'],
      aggregator: 'max',
      registers: [this.registry],
      collect() {
        this.reset()
        for (const [model, stats] of all()) {
          for (const e of stats.latencyEstimates) if (e.ms !== undefined) this.set({ model, batch_size: String(e.size) }, e.ms / 1000)
        }
      },
    })
  }

  /**
   * Per replica, for process-isolated pools (`isolation: 'process'`): each replica
   * process's resident memory and its restarts by cause. Label values stay bounded:
   * replica ids are 0..replicas-1, and causes are signal names, `exit N`, `timeout`
   * or `memory`. Thread pools report neither (their replicas share the process RSS).
   */
  #replicaMetrics(): void {
    const all = (): Generator<[string, PoolStats]> => this.#stats()
    new Gauge<'model' | 'replica'>({
      name: 'inferpool_replica_resident_memory_bytes',
      help: "A replica process's resident set size, as it last reported it (isolation: 'process').",
      labelNames: ['model', 'replica'],
      registers: [this.registry],
      collect() {
        // Reset first: a replica that is down has no process, and no figure.
        this.reset()
        for (const [model, stats] of all()) {
          for (const r of stats.replicas) if (r.rssBytes !== undefined) this.set({ model, replica: String(r.id) }, r.rssBytes)
        }
      },
    })
    new Counter<'model' | 'replica' | 'cause'>({
      name: 'inferpool_replica_restarts_total',
      help: "Replica processes replaced, by cause: a signal name (SIGSEGV, SIGABRT, SIGKILL), 'exit N', 'timeout' (batchTimeoutMs) or 'memory' (processes.maxRssMb).",
      labelNames: ['model', 'replica', 'cause'],
      registers: [this.registry],
      collect() {
        this.reset()
        for (const [model, stats] of all()) {
          for (const r of stats.replicas) {
            for (const [cause, count] of Object.entries(r.restartCauses ?? {})) this.inc({ model, replica: String(r.id), cause }, count)
          }
        }
      },
    })
    new Counter<'model' | 'replica'>({
      name: 'inferpool_replica_idle_collections_total',
      help: "Full garbage collections a replica's processes ran once quiet after batches (isolation: 'process'; processes.idleCollectMs).",
      labelNames: ['model', 'replica'],
      registers: [this.registry],
      collect() {
        this.reset()
        for (const [model, stats] of all()) {
          for (const r of stats.replicas) if (r.idleCollections !== undefined) this.inc({ model, replica: String(r.id) }, r.idleCollections)
        }
      },
    })
  }

  /** Every pool's stats now: live for local pools, the last `refresh()` for remote ones. */
  *#stats(): Generator<[string, PoolStats]> {
    for (const [key, { model, pool }] of this.#pools) {
      const stats = pool.stats ?? this.#readStats.get(key)
      if (stats !== undefined) yield [model, stats]
    }
  }

  #statsGauge(name: string, help: string, read: (stats: PoolStats) => number, aggregator: Aggregator = 'sum'): void {
    const all = (): Generator<[string, PoolStats]> => this.#stats()
    new Gauge<Labels>({
      name,
      help,
      labelNames: ['model'],
      aggregator,
      registers: [this.registry],
      collect() {
        // Several versions of a model: summed, or averaged for a ratio.
        const byModel = new Map<string, number[]>()
        for (const [model, stats] of all()) byModel.set(model, [...(byModel.get(model) ?? []), read(stats)])
        this.reset()
        for (const [model, values] of byModel) {
          const sum = values.reduce((a, b) => a + b, 0)
          this.set({ model }, aggregator === 'average' ? sum / values.length : sum)
        }
      },
    })
  }

  #statsCounter(name: string, help: string, read: (stats: PoolStats) => number): void {
    const all = (): Generator<[string, PoolStats]> => this.#stats()
    new Counter<Labels>({
      name,
      help,
      labelNames: ['model'],
      registers: [this.registry],
      collect() {
        // The pool keeps the running total; mirror it (reset + inc is prom-client's way
        // to set a counter from an external source at scrape time).
        this.reset()
        for (const [model, stats] of all()) this.inc({ model }, read(stats))
      },
    })
  }

  /**
   * Reads the stats of pools that only offer them asynchronously (remote pools); the
   * `/metrics` route calls it before every scrape. A pool that cannot answer is left
   * out of that scrape rather than failing it.
   */
  async refresh(): Promise<void> {
    await Promise.all(
      [...this.#pools].map(async ([key, { pool }]) => {
        if (pool.stats !== undefined || typeof pool.readStats !== 'function') return
        try {
          this.#readStats.set(key, await pool.readStats())
        } catch {
          this.#readStats.delete(key)
        }
      }),
    )
  }

  /** Starts collecting the metrics of a loaded pool, `version` of `model`; returns the unsubscribe function. */
  attach(model: string, version: string, pool: ServedPool): () => void {
    const key = `${model}/${version}`
    this.#pools.set(key, { model, pool })
    const unsubscribe =
      pool.observe?.({
        onDispatch: (event) => {
          this.#batchSize.observe({ model }, event.size)
          const max = pool.metadata.maxBatchSize
          if (max > 0) this.#batchFill.observe({ model }, Math.min(1, event.size / max))
          this.#queueWait.observeAll(model, event.queueWaitsMs, 1000)
        },
        onSettle: (event) => {
          this.#processing.observe({ model }, event.processingMs / 1000)
        },
      }) ?? (() => {})
    return () => {
      unsubscribe()
      this.#pools.delete(key)
      this.#readStats.delete(key)
    }
  }

  /** Where `inferpool_model_state` reads the served versions from (the served models, once). */
  readStatesFrom(states: () => Iterable<ModelVersionState>): void {
    this.#states = states
  }

  /** Records a load or reload of `model` that took `seconds` and succeeded or not. */
  modelLoaded(model: string, seconds: number, ok: boolean): void {
    this.#loadSeconds.observe({ model, outcome: ok ? 'ok' : 'failed' }, seconds)
  }

  /** Records an unload of `model` that took `seconds`. */
  modelUnloaded(model: string, seconds: number): void {
    this.#unloadSeconds.observe({ model }, seconds)
  }

  /** Counts one idle garbage collection (`IdleCollection` of @inferpool/worker). */
  idleCollected(): void {
    this.#idleCollections.inc()
  }

  /**
   * The request metrics of `version` of `model`, resolved once for it (the served
   * models keep them with the version): recording a request is then arithmetic on its
   * own series, with no label set built or hashed.
   */
  requestsOf(model: string, version: string): VersionRequestMetrics {
    return new VersionRequestMetrics(model, version, this.#requests, this.#requestErrors, this.#requestSeconds, this.#requestRows)
  }
}

/** One served version's request metrics, its series per protocol resolved at once and per status or code on first use. */
export class VersionRequestMetrics {
  readonly #labels: { readonly model: string; readonly version: string }
  readonly #requests: SeriesCounter<'model' | 'version' | 'protocol' | 'status'>
  readonly #errors: SeriesCounter<'model' | 'version' | 'protocol' | 'code'>
  readonly #seconds: Readonly<Record<RequestProtocol, HistogramSeries>>
  readonly #rows: Readonly<Record<RequestProtocol, HistogramSeries>>
  readonly #byStatus: Readonly<Record<RequestProtocol, Map<number | string, CounterSeries>>> = { http: new Map(), grpc: new Map() }
  readonly #byCode: Readonly<Record<RequestProtocol, Map<string, CounterSeries>>> = { http: new Map(), grpc: new Map() }

  constructor(
    model: string,
    version: string,
    requests: SeriesCounter<'model' | 'version' | 'protocol' | 'status'>,
    errors: SeriesCounter<'model' | 'version' | 'protocol' | 'code'>,
    seconds: SeriesHistogram<'model' | 'version' | 'protocol'>,
    rows: SeriesHistogram<'model' | 'version' | 'protocol'>,
  ) {
    this.#labels = { model, version }
    this.#requests = requests
    this.#errors = errors
    this.#seconds = {
      http: seconds.series({ model, version, protocol: 'http' }),
      grpc: seconds.series({ model, version, protocol: 'grpc' }),
    }
    this.#rows = { http: rows.series({ model, version, protocol: 'http' }), grpc: rows.series({ model, version, protocol: 'grpc' }) }
  }

  /**
   * Records one answered inference request: `status` is the HTTP status for HTTP, the
   * gRPC status name for gRPC (a stream counts each request); `code` when it failed with one.
   */
  record(protocol: RequestProtocol, status: number | string, seconds: number, rows: number, code: string | undefined): void {
    const statuses = this.#byStatus[protocol]
    let requests = statuses.get(status)
    if (requests === undefined) {
      requests = this.#requests.series({ ...this.#labels, protocol, status: String(status) })
      statuses.set(status, requests)
    }
    requests.inc()
    this.#seconds[protocol].observe(seconds)
    if (rows > 0) this.#rows[protocol].observe(rows)
    if (code !== undefined) {
      const codes = this.#byCode[protocol]
      let errors = codes.get(code)
      if (errors === undefined) {
        errors = this.#errors.series({ ...this.#labels, protocol, code })
        codes.set(code, errors)
      }
      errors.inc()
    }
  }
}
