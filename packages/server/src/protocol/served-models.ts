/**
 * `ServedModels`: the one home of what a server knows about the models it serves,
 * whatever the protocol a request came by. The HTTP handler and the gRPC service both
 * take it and only translate their wire format; every fact both protocols are asked
 * comes from one function here, so their answers cannot drift:
 *
 * - the models by name, each with one or more versions, and each version's state
 *   (loading, ready, failed); a request that names no version reaches the newest ready
 *   one (`model`), as Triton does;
 * - readiness (`isReady`, `isModelReady`): false while loading, during a drain
 *   (`drain()`, before the listeners close) and once closed;
 * - lookup (`model`, `poolOf`), the bearer-token decision (`authorized`);
 * - each pool's state while it serves: its door (door.ts: the room, the parked requests,
 *   the row estimates) and its Triton statistics (triton/stats.ts), made when it loads;
 * - the counts a shutdown waits on: `active`, `admitting` (entered and left by each
 *   request's exchange, exchange.ts), `admitted`;
 * - request metrics and Triton's statistics (`recordRequest`, `statistics`);
 * - with on-demand loading (`ModelControl.demand`), a request for a repository model
 *   that is not loaded finds it `unloaded` (`model`), and its exchange waits for the
 *   load (`untilLoaded`); each model's last use (`usage`) tells the repository which one
 *   to evict.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { Registry } from 'prom-client'
import { servesAny } from '@inferpool/host/internal'
import { performance } from 'node:perf_hooks'
import { TimeoutError } from '@inferpool/core'
import { MAX_TIMER_MS } from '@inferpool/core/internal'
import { Door } from './door.js'
import { echo, ModelNotFoundError, ModelNotReadyError, ShuttingDownError } from './errors.js'
import { isModelName, isVersionName, MODEL_NAME_RULE } from './model-names.js'
import { MODEL_VERSION, SERVER_EXTENSIONS } from './metadata.js'
import { PendingBodyBytes } from './pending-body-bytes.js'
import { ServerMetrics } from './metrics.js'
import type { RequestProtocol, VersionRequestMetrics } from './metrics.js'
import type { ModelControl } from './model-control.js'
import { resolveHandlerOptions } from './options.js'
import type { RequestHandlerOptions, ResolvedHandlerOptions } from './options.js'
import type { ServedPool } from './served-pool.js'
import { shorterTimeout } from './timeout.js'
import { TritonStatsCollector } from './triton/stats.js'
import type { ModelStatistics } from './triton/stats.js'

/** A pool, or a promise of one still loading (the server reports not-ready until it resolves). */
export type PoolSource = ServedPool | PromiseLike<ServedPool>

/**
 * The versions of one model: pools by version (a positive integer, as in Triton's
 * repository layout), the `{version}` of `/v2/models/{name}/versions/{version}/...` and
 * gRPC's `model_version`.
 */
export type ModelVersions = ReadonlyMap<string, PoolSource>

/**
 * Pools by model name: the name is the `{name}` of `/v2/models/{name}/...` and gRPC's
 * `model_name`. A model given as one pool serves it as version `MODEL_VERSION` ('1');
 * one given as `ModelVersions` serves each of its versions.
 */
export type PoolsByModel = Readonly<Record<string, PoolSource | ModelVersions>> | ReadonlyMap<string, PoolSource | ModelVersions>

/**
 * Where a served model is in its life. `unloaded`: a repository model that loads on its
 * first request (on-demand mode); its exchange waits for it (`untilLoaded`).
 */
export type ModelState =
  | { readonly kind: 'unloaded' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly pool: ServedPool }
  | { readonly kind: 'failed'; readonly error: unknown }

/** One served version of a model. */
export interface ServedModel {
  readonly name: string
  readonly version: string
  readonly state: ModelState
}

/** What the server keeps of one pool while it serves it (one per pool, whatever names serve it). */
interface PoolState {
  readonly door: Door
  readonly stats: TritonStatsCollector
}

interface ModelEntry extends ServedModel {
  /** A served version has a pool or the promise of one: never `unloaded`. */
  state: Exclude<ModelState, { readonly kind: 'unloaded' }>
  /** Its pool's state, once loaded (read on every request: no lookup). */
  pooled: PoolState | undefined
  /** Settles (never rejects) once the model's pool has loaded or failed to. */
  readonly loaded: Promise<void>
  /** Inference requests that looked this version up and are not answered yet (`hold`). */
  readonly users: RequestCount
  /** Stops feeding the metrics from this version's pool (set once it has loaded). */
  unsubscribe?: () => void
  /** This version's request metrics, resolved once (a request only feeds them). */
  readonly requests: VersionRequestMetrics
}

/** Told when a count turns non-zero (`busy`) and zero again (`idle`). */
export interface RequestCountWatcher {
  busy(): void
  idle(): void
}

/** A count of requests in some stage, with waiters for it to reach zero. */
export class RequestCount {
  #count = 0
  #waiters: Array<() => void> = []
  #watcher: RequestCountWatcher | undefined
  get count(): number {
    return this.#count
  }
  /** One watcher (the server's idle collection), told of the transitions only. */
  watch(watcher: RequestCountWatcher | undefined): void {
    this.#watcher = watcher
  }
  enter(): void {
    if (this.#count++ === 0) this.#watcher?.busy()
  }
  leave(): void {
    this.#count--
    if (this.#count === 0) {
      this.#watcher?.idle()
      for (const wake of this.#waiters.splice(0)) wake()
    }
  }
  empty(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve))
  }
}

const UNLOADED: ModelState = Object.freeze({ kind: 'unloaded' })

/** How recently a model was used: `busy` while a request holds one of its versions. */
export interface ModelUsage {
  readonly busy: boolean
  /** When its last request was answered, in ms since the epoch (now while busy); `undefined` if none was. */
  readonly lastUsed: number | undefined
}

/** Versions newest first. */
function byNewest(a: string, b: string): number {
  return Number(b) - Number(a)
}

function isPromiseLike(value: PoolSource): value is PromiseLike<ServedPool> {
  return typeof (value as { then?: unknown }).then === 'function'
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

/** Whether an `Authorization` value carries the bearer token whose digest is `expected` (any value when `undefined`). */
function bearerMatches(header: unknown, expected: Buffer | undefined): boolean {
  if (expected === undefined) return true
  if (typeof header !== 'string' || header.slice(0, 7).toLowerCase() !== 'bearer ') return false
  // Both sides hashed to 32 bytes: the comparison takes the same time whatever the
  // token's length or content.
  return timingSafeEqual(sha256(header.slice(7).trim()), expected)
}

/** Refuses a model name, version or pool that cannot be served, naming it. */
function checkVersion(name: string, version: string, source: PoolSource): void {
  if (!isModelName(name)) {
    throw new TypeError(`Expected model names of ${MODEL_NAME_RULE}, got \`${echo(String(name))}\``)
  }
  if (!isVersionName(version)) {
    throw new TypeError(`Expected the versions of \`pools.${name}\` to be positive integers, got \`${String(version)}\``)
  }
  if (source === null || typeof source !== 'object') {
    throw new TypeError(`Expected \`pools.${name}\` to be a pool or a promise of one, got \`${String(source)}\``)
  }
}

/** The served models of a server, shared by its HTTP handler and its gRPC service. */
export class ServedModels {
  readonly options: ResolvedHandlerOptions
  readonly metrics: ServerMetrics
  /** Every request being answered, on either protocol. */
  readonly active = new RequestCount()
  /**
   * Inference requests that have not yet handed their rows to the pool (still reading,
   * waiting at the door or decoding). A graceful shutdown waits for these before
   * closing the pools, so no request that arrived in time meets a closed pool.
   */
  readonly admitting = new RequestCount()
  /** Requests whose rows are in a pool: what a forced shutdown would lose. */
  readonly admitted = new RequestCount()
  /** Bytes held by HTTP bodies and gRPC messages still arriving, bounded by `maxPendingBodyBytes`. */
  readonly pendingBodyBytes: PendingBodyBytes
  /** Versions by model name, each map ordered newest version first. */
  readonly #models = new Map<string, Map<string, ModelEntry>>()
  readonly #apiKeyDigest: Buffer | undefined
  readonly #repositoryTokenDigest: Buffer | undefined
  readonly #detach = new Set<() => void>()
  /** The state of each pool served (a shutdown refuses the requests parked at their doors). */
  readonly #pools = new Map<ServedPool, PoolState>()
  /** With on-demand loading: when each model's last request was answered (kept across its reloads). */
  readonly #lastUsed = new Map<string, number>()
  #draining = false
  #closed = false

  constructor(pools: PoolsByModel, options?: RequestHandlerOptions) {
    if (pools === null || typeof pools !== 'object') {
      throw new TypeError(`Expected \`pools\` to be an object or a Map of pools by model name, got \`${String(pools)}\``)
    }
    this.options = resolveHandlerOptions(options)
    this.pendingBodyBytes = new PendingBodyBytes(this.options.maxPendingBodyBytes)
    const entries = pools instanceof Map ? [...pools.entries()] : Object.entries(pools as Record<string, PoolSource>)
    // A server whose models are loaded through the repository extension may start with none.
    if (entries.length === 0 && this.options.modelControl === undefined) {
      throw new TypeError('Expected `pools` to hold at least one model, got none')
    }
    this.metrics = new ServerMetrics({
      registry: this.options.registry ?? new Registry(),
      processMetrics: this.options.processMetrics,
    })
    this.metrics.readStatesFrom(() =>
      [...this.#entries()].map((entry) => ({ model: entry.name, version: entry.version, state: entry.state.kind })),
    )
    for (const [name, source] of entries) {
      if (source instanceof Map) {
        const versions = [...(source as ModelVersions).entries()]
        if (versions.length === 0) throw new TypeError(`Expected \`pools.${name}\` to hold at least one version, got none`)
        for (const [version, pool] of versions) this.#add(name, version, pool)
      } else {
        this.#add(name, MODEL_VERSION, source as PoolSource)
      }
    }
    this.#apiKeyDigest = this.options.apiKey === undefined ? undefined : sha256(this.options.apiKey)
    this.#repositoryTokenDigest = this.options.repositoryToken === undefined ? undefined : sha256(this.options.repositoryToken)
  }

  #add(name: string, version: string, source: PoolSource): void {
    checkVersion(name, version, source)
    const versions = this.#models.get(name) ?? new Map<string, ModelEntry>()
    versions.set(version, this.#entry(name, version, source))
    this.#models.set(name, new Map([...versions].sort(([a], [b]) => byNewest(a, b))))
  }

  /** A served version of `name` for `source` (checked), not yet served. */
  #entry(name: string, version: string, source: PoolSource): ModelEntry {
    const entry: ModelEntry = {
      name,
      version,
      pooled: undefined,
      users: new RequestCount(),
      requests: this.metrics.requestsOf(name, version),
      state: { kind: 'loading' },
      // Settles (never rejects) so a failed load is never an unhandled rejection; the
      // failure is kept in `state` and reported by readiness and inference.
      loaded: Promise.resolve(source).then(
        (pool) => {
          entry.state = { kind: 'ready', pool }
          // Made (and the statistics subscribed) now, so they cover every batch from the start.
          entry.pooled = this.#stateOf(pool)
          const unsubscribe = this.metrics.attach(name, version, pool)
          entry.unsubscribe = unsubscribe
          this.#detach.add(unsubscribe)
        },
        (error: unknown) => {
          entry.state = { kind: 'failed', error }
        },
      ),
    }
    if (!isPromiseLike(source)) {
      entry.state = { kind: 'ready', pool: source }
      entry.pooled = this.#stateOf(source)
    }
    // The eviction order of on-demand loading: stamped as its request count falls to zero,
    // not per request (Date.now() once per quiet spell).
    if (this.options.modelControl?.demand !== undefined) {
      entry.users.watch({ busy() {}, idle: () => this.#lastUsed.set(name, performance.timeOrigin + performance.now()) })
    }
    return entry
  }

  /** The state of `pool`, made on its first use (its statistics then subscribed to its events). */
  #stateOf(pool: ServedPool): PoolState {
    let state = this.#pools.get(pool)
    if (state === undefined) {
      const stats = new TritonStatsCollector()
      pool.observe?.(stats.observer)
      state = { door: new Door(pool, this.options), stats }
      this.#pools.set(pool, state)
    }
    return state
  }

  /**
   * Serves `versions` (pools that have loaded) as the versions of `name` from now on,
   * in one step: a request looks up either the versions before or these, never a mix
   * and never none. The versions replaced stop being found at once; resolves with their
   * pools once every request that had looked them up is answered, so the caller can
   * close them with nothing in flight. An empty `versions` removes the model.
   */
  async replace(name: string, versions: ReadonlyMap<string, ServedPool>): Promise<ServedPool[]> {
    // Every version checked before anything changes: a replace that throws leaves the
    // versions serving as they were.
    if (!(versions instanceof Map))
      throw new TypeError(`Expected \`versions\` to be a Map of pools by version, got \`${String(versions)}\``)
    for (const [version, pool] of versions) checkVersion(name, version, pool)
    const before = this.#models.get(name)
    const entries = [...versions]
      .sort(([a], [b]) => byNewest(a, b))
      .map(([version, pool]): [string, ModelEntry] => [version, this.#entry(name, version, pool)])
    if (entries.length === 0) this.#models.delete(name)
    else this.#models.set(name, new Map(entries))
    return this.#retire([...(before?.values() ?? [])])
  }

  /** Waits for the requests holding `entries` to be answered, detaches their metrics, and gives their pools back. */
  async #retire(entries: readonly ModelEntry[]): Promise<ServedPool[]> {
    await Promise.all(entries.map((entry) => entry.users.empty()))
    const pools: ServedPool[] = []
    for (const entry of entries) {
      if (entry.unsubscribe !== undefined) {
        entry.unsubscribe()
        this.#detach.delete(entry.unsubscribe)
      }
      if (entry.state.kind === 'ready') pools.push(entry.state.pool)
    }
    // No request holds these versions now, so none waits at their doors: the server lets go
    // of their pools (unless another version still serves one).
    const serving = new Set<ServedPool>()
    for (const entry of this.#entries()) if (entry.state.kind === 'ready') serving.add(entry.state.pool)
    for (const pool of pools) if (!serving.has(pool)) this.#pools.delete(pool)
    return pools
  }

  /**
   * Marks an inference request to `model` as using it until the returned function is
   * called (once it is answered): a version replaced or removed meanwhile keeps its
   * pool open for it.
   */
  hold(model: ServedModel): () => void {
    const users = (model as ModelEntry).users
    users.enter()
    let held = true
    return () => {
      if (!held) return
      held = false
      users.leave()
    }
  }

  /** Served model names. */
  get names(): string[] {
    return [...this.#models.keys()]
  }

  /** Every served version of every model. */
  *#entries(): Generator<ModelEntry> {
    for (const versions of this.#models.values()) yield* versions.values()
  }

  /** The versions served of `model`'s name, oldest first (the `versions` of its metadata). */
  versionsOf(model: ServedModel): string[] {
    return [...(this.#models.get(model.name)?.keys() ?? [])].reverse()
  }

  /** Resolves once every pool has loaded; rejects with the first load failure. */
  async ready(): Promise<void> {
    await Promise.all([...this.#entries()].map((entry) => entry.loaded))
    for (const entry of this.#entries()) {
      if (entry.state.kind === 'failed') throw entry.state.error
    }
  }

  /** No new inference request is taken (`close()` was called). */
  get closed(): boolean {
    return this.#closed
  }

  /**
   * Whether the server is ready: every version of every model ready, not draining, not
   * closed. Both protocols answer this.
   */
  isReady(): boolean {
    if (this.#closed || this.#draining) return false
    for (const entry of this.#entries()) if (!this.#serving(entry)) return false
    return true
  }

  /** Loaded, and at least one replica can take a batch (a degraded model still serves). */
  #serving(model: ServedModel): boolean {
    return model.state.kind === 'ready' && servesAny(model.state.pool)
  }

  /**
   * Whether the model version `name` and `version` name (`undefined`: the newest) is ready
   * to serve, as both protocols answer it. An unknown or unloaded one is not ready, not an
   * error: Triton's `InferenceServer::ModelIsReady` (gRPC `ready: false`, HTTP 400).
   */
  isModelReady(name: string, version: string | undefined): boolean {
    if (this.#closed || this.#draining) return false
    let model: ServedModel
    try {
      model = this.model(name, version)
    } catch (error) {
      if (error instanceof ModelNotFoundError) return false
      throw error
    }
    return this.#serving(model)
  }

  /**
   * Reports not-ready from now on while requests are still served: the time a load
   * balancer needs to stop sending new ones before the server stops taking them.
   */
  drain(): void {
    this.#draining = true
  }

  /**
   * Stops taking new inference requests (they get `ShuttingDownError`). Does not close
   * the pools, nor refuse the requests parked at the doors (`refuseParked`). Idempotent.
   */
  close(): void {
    this.#closed = true
  }

  /**
   * Refuses the requests waiting for room at the doors (`ShuttingDownError`): a forced
   * shutdown's step. A draining one leaves them parked: they arrived before it began, so
   * they are accepted work, served as the queues drain (the server closes its pools only
   * once no request is still being admitted).
   */
  refuseParked(): void {
    const shuttingDown = new ShuttingDownError()
    for (const state of this.#pools.values()) state.door.refuseParked(shuttingDown)
  }

  /** Stops feeding the metrics from the pools (the registry is done with). */
  detach(): void {
    for (const detach of this.#detach) detach()
    this.#detach.clear()
  }

  /**
   * The model `name` at `version`; with no version, the newest version ready to serve
   * (the newest of all when none is, so its state says why); `ModelNotFoundError` when
   * there is no such model or version.
   */
  model(name: string, version: string | undefined): ServedModel {
    const versions = this.#models.get(name)
    if (versions === undefined) {
      // A repository model not loaded (on-demand mode): the request loads it (`untilLoaded`).
      // A version that cannot be one is refused now, before a load is started for it.
      if ((version === undefined || isVersionName(version)) && this.options.modelControl?.loadsOnDemand?.(name) === true) {
        return this.#unloaded(name, version)
      }
      throw new ModelNotFoundError(name, version)
    }
    if (version !== undefined) {
      const entry = versions.get(version)
      if (entry === undefined) throw new ModelNotFoundError(name, version)
      return entry
    }
    // The newest loaded version. Replica health (#serving) is not asked here: it reads the
    // pool's whole stats snapshot, far too dear for every request; readiness asks it.
    let newest: ModelEntry | undefined
    for (const entry of versions.values()) {
      if (entry.state.kind === 'ready') return entry
      newest ??= entry
    }
    return newest as ModelEntry
  }

  /**
   * A stand-in for model `name`, not loaded, that its request holds while it waits for the
   * load. Not kept: nothing is recorded of it (`recordRequest`), so a client naming
   * versions cannot grow the metrics.
   */
  #unloaded(name: string, version: string | undefined): ServedModel {
    const entry: ServedModel & Pick<ModelEntry, 'users'> = { name, version: version ?? '', state: UNLOADED, users: new RequestCount() }
    return entry
  }

  /**
   * Waits for model `model` names (found `unloaded`) to load, for a request that arrived
   * at `started` (`performance.now()`), and returns the version it then serves. The wait
   * is bounded by the server's `timeoutMs` from the arrival and by the client's
   * `deadline` (ms since the epoch): past either, `TimeoutError`; by `signal` (the client
   * left): its reason. Every waiter shares one load (`ModelControl.demand`), whose error
   * reaches each of them.
   */
  async untilLoaded(model: ServedModel, signal: AbortSignal, started: number, deadline: number | undefined): Promise<ServedModel> {
    const control = this.options.modelControl
    if (control?.demand === undefined) return model
    const budgetMs = this.options.timeoutMs
    const version = model.version === '' ? undefined : model.version
    for (;;) {
      let waitMs = budgetMs === undefined ? undefined : budgetMs - (performance.now() - started)
      if (deadline !== undefined && deadline !== Infinity) waitMs = shorterTimeout(waitMs, deadline - Date.now())
      await boundedWait(control.demand(model.name), signal, waitMs, budgetMs)
      const loaded = this.model(model.name, version)
      // Evicted again between the load and this lookup (another load needed the room): wait for the next.
      if (loaded.state.kind !== 'unloaded') return loaded
    }
  }

  /** How recently model `name` was used (its versions together), for the repository's choice of what to evict. */
  usage(name: string): ModelUsage {
    for (const entry of this.#models.get(name)?.values() ?? []) {
      if (entry.users.count > 0) return { busy: true, lastUsed: performance.timeOrigin + performance.now() }
    }
    return { busy: false, lastUsed: this.#lastUsed.get(name) }
  }

  /** The model's pool once loaded; else `ModelNotReadyError` (with the load failure, if any). */
  poolOf(model: ServedModel): ServedPool {
    const state = model.state
    if (state.kind === 'ready') return state.pool
    throw new ModelNotReadyError(model.name, state.kind === 'failed' ? state.error : undefined, model.version)
  }

  /**
   * Runs `step` on every model's pool that loaded, or once it has (not on one that
   * failed: it never served). A ready pool gets its step now, before anything else runs:
   * a forced step must reach its queue first.
   */
  eachPool(step: (pool: ServedPool) => Promise<void> | undefined): Promise<unknown> {
    return Promise.all(
      [...this.#entries()].map((entry) =>
        entry.state.kind === 'ready'
          ? step(entry.state.pool)
          : entry.loaded.then(() => (entry.state.kind === 'ready' ? step(entry.state.pool) : undefined)),
      ),
    )
  }

  /**
   * Whether an `Authorization` value (HTTP header or gRPC metadata) carries the bearer
   * token, or no token is required.
   */
  authorized(header: unknown): boolean {
    return bearerMatches(header, this.#apiKeyDigest)
  }

  /** The protocol extensions served (the server metadata's `extensions`): `model_repository` only when it is on. */
  get extensions(): readonly string[] {
    return this.control === undefined ? SERVER_EXTENSIONS : [...SERVER_EXTENSIONS, 'model_repository']
  }

  /** The model repository extension, when it is on. */
  get control(): ModelControl | undefined {
    return this.options.modelControl
  }

  /**
   * Whether an `Authorization` value may make the model repository calls: the repository
   * token (`repositoryToken`), not the inference bearer, when one is set; without one, the
   * inference bearer (`apiKey`), so that a server guarded by a key never opens its
   * management calls to anyone; with neither, no token.
   */
  authorizedControl(header: unknown): boolean {
    return bearerMatches(header, this.#repositoryTokenDigest ?? this.#apiKeyDigest)
  }

  /** The door of `pool` (door.ts). */
  door(pool: ServedPool): Door {
    return this.#stateOf(pool).door
  }

  /** The door of `model`'s pool, which has loaded (`poolOf` did not throw). */
  doorOf(model: ServedModel): Door {
    return ((model as ModelEntry).pooled as PoolState).door
  }

  /**
   * Counts an answered inference request in its version's metrics (`status`: the HTTP status or
   * the gRPC status name; `errorCode` when it failed with one) and, once its model's
   * pool was reached, in Triton's statistics.
   */
  recordRequest(
    model: ServedModel,
    pool: ServedPool | undefined,
    protocol: RequestProtocol,
    status: number | string,
    ok: boolean,
    elapsedMs: number,
    rows: number,
    errorCode: string | undefined,
  ): void {
    // A request that never reached a loaded version (an on-demand load failed or timed out) is counted by the repository's metrics.
    if (model.state.kind === 'unloaded') return
    const entry = model as ModelEntry
    entry.requests.record(protocol, status, elapsedMs / 1000, rows, errorCode)
    // The version's own pool state, read without a lookup (its pool is the one passed).
    if (pool !== undefined) (entry.pooled ?? this.#stateOf(pool)).stats.request({ ok, rows, durationNs: elapsedMs * 1e6 })
  }

  /**
   * Triton's statistics of `model`, or of every model that has loaded when none is
   * named (Triton lists the models it has loaded).
   */
  statistics(model?: ServedModel): ModelStatistics[] {
    if (model !== undefined) return [this.#stateOf(this.poolOf(model)).stats.snapshot(model.name, model.version)]
    const stats: ModelStatistics[] = []
    for (const entry of this.#entries()) {
      if (entry.state.kind === 'ready') stats.push(this.#stateOf(entry.state.pool).stats.snapshot(entry.name, entry.version))
    }
    return stats
  }
}

/**
 * Waits for `step` for at most `waitMs` (none: no bound) and until `signal` aborts. Past
 * `waitMs`, `TimeoutError` naming the request's whole timeout (`budgetMs`) when that was
 * the bound. `step` runs on either way: other requests may be waiting for it.
 */
function boundedWait(step: Promise<void>, signal: AbortSignal, waitMs: number | undefined, budgetMs: number | undefined): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  if (waitMs !== undefined && waitMs <= 0) return Promise.reject(new TimeoutError(budgetMs ?? 0))
  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    let done = false
    const settle = (end: () => void): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      end()
    }
    const onAbort = (): void => settle(() => reject(signal.reason as Error))
    signal.addEventListener('abort', onAbort, { once: true })
    // A far deadline is capped at what Node's timers take (a longer delay would fire at once).
    if (waitMs !== undefined)
      timer = setTimeout(() => settle(() => reject(new TimeoutError(budgetMs ?? Math.ceil(waitMs)))), Math.min(waitMs, MAX_TIMER_MS))
    step.then(
      () => settle(resolve),
      (error: unknown) => settle(() => reject(error as Error)),
    )
  })
}
