/**
 * `ModelRepository`: the models of one or more repository directories, loaded,
 * reloaded and unloaded while the server runs (the model repository extension and the
 * control modes). It owns the pools it creates; the served models only route requests
 * to them.
 *
 * A (re)load never drops a request:
 * 1. the new versions' pools start beside the ones serving;
 * 2. each is warmed with the config's `model_warmup` samples, else one zero-filled
 *    row, so its first request meets a session that has run (warmup.ts);
 * 3. `ServedModels.replace` switches new requests to them in one step;
 * 4. the old pools are closed once every request that had reached them is answered.
 * A load that fails at any step before 3 closes what it started and leaves the old
 * versions serving; the caller gets the reason. Operations on one model run one after
 * the other.
 *
 * A load can be aborted: by an unload of its model and by the server's shutdown
 * (`abort`, then `close`). Its callers get `ModelLoadAbortedError` at once, and the pools
 * it was creating or warming are destroyed (one still being created, as soon as it is).
 *
 * Only names the repository can serve are kept: a load or unload of a name that is not a
 * model directory of a repository (nor an upload serving) is refused before anything is
 * recorded, so a client cannot grow the index or the metrics with names of its own. A
 * model the server was given as a pool (`--model`) is not the repository's: its load and
 * unload are refused (`ModelNotInRepositoryError`); it serves until the server stops.
 *
 * On demand (mode `'on-demand'`), every model of the repositories is listed and loads on
 * its first request (`demand`): the requests that come while it loads share that one
 * load, and one that fails is remembered and tried again only after a back-off
 * (load-backoff.ts), its error given at once to the requests meanwhile.
 *
 * Under a memory budget (`memoryBudget`), the loads run one at a time, each measured: the
 * change of the server's PSS across it (process-memory.ts: the server and its replica
 * processes) is the model's size. Before a load, the least recently used models are
 * evicted until the reading plus the model's size (known from an earlier load, else the
 * largest size measured) fits (model-cache.ts says which may go); a model that alone does
 * not fit fails with `ModelOverBudgetError`. The room freed is counted as the evicted
 * models' measured sizes, not read again: memory a thread replica's allocator keeps after
 * its session is gone would otherwise make every model look evictable.
 */
import { realpathSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { Pool } from '@inferpool/host'
import type { ModelControl, RepositoryCacheFields, RepositoryIndexEntry } from '../protocol/model-control.js'
import type { ServedModels } from '../protocol/served-models.js'
import type { ServedPool } from '../protocol/served-pool.js'
import { parseModelConfigJson } from './config-file.js'
import { echo, ModelNotFoundError } from '../protocol/errors.js'
import {
  ModelControlPollingError,
  ModelLoadAbortedError,
  ModelNotInRepositoryError,
  ModelOverBudgetError,
  ModelRepositoryLayoutError,
  ModelUploadDisabledError,
  ModelUploadError,
} from './errors.js'
import { isModelName } from '../protocol/model-names.js'
import { checkModelName, modelNames, readModel, repositoryEntries } from './layout.js'
import type { RepositoryModel } from './layout.js'
import { interpretModelConfig } from './model-config.js'
import { ignoredFieldsLine, refusedLinksLine } from './repositories.js'
import { integerOption } from '@inferpool/core/internal'
import { LoadBackoff } from './load-backoff.js'
import { CacheMetrics } from './cache-metrics.js'
import { evictionOrder } from './model-cache.js'
import type { CachedModel, EvictionCandidate } from './model-cache.js'
import { memoryUnmeasurable, processTreePss } from './process-memory.js'
import { checkUploadCount, removeUpload, sweepUploads, writeUpload } from './uploads.js'
import { warmUp, warmupFiles } from './warmup.js'

export interface ModelRepositoryOptions {
  /** The repository directories, searched in this order. */
  readonly repositories: readonly string[]
  /** Creates the pool of one version (`createPool`, with the server's defaults and the config on top). */
  readonly createPool: (model: RepositoryModel, file: string) => Promise<Pool>
  readonly logger: { warn(message: string): void; info(message: string): void }
  /**
   * Takes model files in a load request (`file:<version>/<name>`, with its `config`),
   * served from a private temporary directory removed when they stop serving. A model
   * file is code the server runs: off unless asked for (`--allow-model-upload`).
   * @default false
   */
  readonly allowModelUpload?: boolean
  /**
   * Where the private directories of uploaded model files are made. With uploads allowed,
   * the directories there that a server killed outright left behind (their owner process
   * gone) are removed as the repository is created.
   * @default os.tmpdir()
   */
  readonly uploadDirectory?: string
  /**
   * Most bytes of one `model_warmup` sample's rows together: a bigger sample fails its
   * load (`ERR_MODEL_CONFIG_UNSUPPORTED`) before any of it is built. The server's body
   * limit (`--max-body-bytes`) is a fitting bound: no request could be larger.
   * @default 16 MiB
   */
  readonly maxWarmupBytes?: number
  /**
   * Who decides what serves. `'explicit'`: the load and unload calls (and {@link
   * ModelRepository.poll} when the embedding application calls it). `'poll'`: the
   * repository's scans ({@link ModelRepository.poll}) alone; load and unload calls are
   * refused with `ERR_MODEL_CONTROL_POLLING` (503 / `UNAVAILABLE`), as Triton refuses
   * them when polling is enabled, since the next scan would undo them (and with several
   * server processes a call would reach only one). `'none'`: the server was given the
   * repository's models at start (`--model-control-mode none`); the repository only
   * answers the index, from the served models, and refuses load and unload calls as
   * poll mode does (Triton serves the index in every mode). `'on-demand'`: as
   * `'explicit'`, and a request for a repository model that is not loaded loads it
   * (`demand`). The index is served in all.
   * @default 'explicit'
   */
  readonly mode?: 'explicit' | 'poll' | 'none' | 'on-demand'
  /**
   * The clock of the back-off of failed on-demand loads and of the name list's refresh,
   * in ms (tests inject one).
   * @default performance.now
   */
  readonly now?: () => number
  /**
   * Most bytes of memory the server may hold, as the PSS of its process and its replica
   * processes (`--model-memory-budget`): a load that would pass it first evicts the least
   * recently used repository models (not one with requests queued or running, not one
   * younger than `minEvictionAgeMs`, not a pinned one). Linux only (/proc).
   * @default undefined (no budget: nothing is evicted)
   */
  readonly memoryBudget?: number
  /**
   * Youngest a model may be when it is evicted to make room, in ms of the `now` clock: a
   * model that just loaded gets its chance to serve before it can go (churn guard).
   * @default 10_000
   */
  readonly minEvictionAgeMs?: number
}

/** The default of `minEvictionAgeMs`. */
const DEFAULT_MIN_EVICTION_AGE_MS = 10_000

/** How long the list of model names that load on demand is trusted before the repositories are read again, in ms. */
const NAMES_TTL_MS = 1000

/** The default of `maxWarmupBytes`: the server's default body limit. */
const DEFAULT_MAX_WARMUP_BYTES = 16 * 1024 * 1024

/** One load in progress: aborted by an unload of its model or the shutdown. */
interface LoadAttempt {
  readonly controller: AbortController
  /** The pools it started, destroyed when it is aborted. */
  readonly pools: Set<Pool>
}

/** One loaded model in `ModelRepository.memory()`. */
export interface CachedModelView {
  readonly name: string
  /** Its measured size: the server's PSS change across its load. */
  readonly bytes: number
  /** When it loaded, in ms since the epoch. */
  readonly loadedAt: number
  /** When its last request was answered, in ms since the epoch; `undefined` if none was. */
  readonly lastUsed: number | undefined
  readonly pinned: boolean
}

type LoadState =
  { readonly state: 'LOADING' | 'READY'; readonly versions: readonly string[] } | { readonly state: 'UNAVAILABLE'; readonly reason: string }

/**
 * The files a model is read from (its config, model files and warmup data), with their
 * sizes and modification times: a change to any of them changes it.
 */
function signatureOf(model: RepositoryModel): string {
  // The directory as resolved too: a link swapped to another directory is a change.
  const files = [
    realpathSync(model.directory),
    ...(model.configFile === undefined ? [] : [model.configFile]),
    ...model.versions.map((v) => v.file),
    ...warmupFiles(model.directory, model.config.warmup),
  ]
  return JSON.stringify(
    files.map((file) => {
      // A warmup file not there (yet) is part of the signature too: the load says what is missing.
      const stat = statSync(file, { throwIfNoEntry: false })
      return [file, stat?.size, stat?.mtimeMs]
    }),
  )
}

export class ModelRepository implements ModelControl {
  readonly #options: ModelRepositoryOptions
  readonly #states = new Map<string, LoadState>()
  /** The last operation on each model: the next one waits for it. */
  readonly #queue = new Map<string, Promise<unknown>>()
  /** The pools created and not yet closed. */
  readonly #pools = new Set<Pool>()
  #served: ServedModels | undefined
  /** What each model's files looked like at its last load attempt (`poll` reloads when they change). */
  readonly #attempted = new Map<string, string>()
  /** The upload directory of each model serving versions loaded from files sent in its load request. */
  readonly #uploads = new Map<string, string>()
  /** The loads in progress, by model. */
  readonly #loading = new Map<string, LoadAttempt>()
  /** The sweep of upload directories left by servers killed outright (with uploads allowed). */
  readonly #swept: Promise<void>
  /** Per repository, the refused-links line its last scan logged: a scan logs it again only when it changes. */
  readonly #refusedLogged = new Map<string, string | undefined>()
  /** The on-demand loads in progress, by model: every request for the model waits on the same one. */
  readonly #demands = new Map<string, Promise<void>>()
  /** The failed on-demand loads, each refused until its back-off ends. */
  readonly #backoff: LoadBackoff
  readonly #now: () => number
  /** The names of the repositories' model directories, as last read, and when (`now()`). */
  #names: { readonly names: ReadonlySet<string>; readonly at: number } | undefined
  /** The memory budget in bytes, if any. */
  readonly #budget: number | undefined
  readonly #minEvictionAgeMs: number
  /** The repository models loaded under the budget, by name. */
  readonly #cached = new Map<string, CachedModel>()
  /** The size each model measured at its last load (kept once it is evicted: its next load makes that room first). */
  readonly #sizes = new Map<string, number>()
  /** The loads under a budget, one after the other: two at once would mix their measurements. */
  #loadTurn: Promise<unknown> = Promise.resolve()
  /** Operations queued or running on each model (`#serial`): a model with one is not evicted. */
  readonly #ops = new Map<string, number>()
  /** Loads and evictions of each model (on-demand mode or a budget), for the index. */
  readonly #counts = new Map<string, { loads: number; evictions: number }>()
  /** The metrics of on-demand loading and the budget (made with the served models' registry). */
  #metrics: CacheMetrics | undefined
  #closed = false

  constructor(options: ModelRepositoryOptions) {
    this.#options = options
    this.#now = options.now ?? (() => performance.now())
    this.#backoff = new LoadBackoff(this.#now)
    this.#budget = options.memoryBudget === undefined ? undefined : integerOption('memoryBudget', options.memoryBudget, 1)
    this.#minEvictionAgeMs = integerOption('minEvictionAgeMs', options.minEvictionAgeMs ?? DEFAULT_MIN_EVICTION_AGE_MS, 0)
    if (this.#budget !== undefined) {
      const unmeasurable = memoryUnmeasurable()
      if (unmeasurable !== undefined) throw new Error(`memoryBudget: the server's memory cannot be measured here: ${unmeasurable}`)
    }
    this.#swept = options.allowModelUpload === true ? sweepUploads(this.#uploadDirectory) : Promise.resolve()
  }

  get #uploadDirectory(): string {
    return this.#options.uploadDirectory ?? tmpdir()
  }

  /**
   * The served models the repository's versions go to: given once the server exists
   * (the server takes the repository as its `modelControl` option, so it is made first).
   */
  serveInto(served: ServedModels): void {
    this.#served = served
    if (this.#cacheKept) {
      this.#metrics = new CacheMetrics(served.metrics.registry, {
        budget: this.#budget,
        used: () => (this.#budget === undefined ? undefined : processTreePss()),
        models: () => this.#loadedModels(),
      })
    }
  }

  /** On-demand mode or a budget: the repository keeps counts, sizes and uses of its models (index and metrics). */
  get #cacheKept(): boolean {
    return this.#options.mode === 'on-demand' || this.#budget !== undefined
  }

  /** The repository models serving, each with its measured size (under a budget) and last use. */
  *#loadedModels(): Generator<{ name: string; bytes: number | undefined; lastUsed: number | undefined }> {
    for (const [name, state] of this.#states) {
      if (state.state !== 'READY') continue
      yield { name, bytes: this.#cached.get(name)?.bytes, lastUsed: this.#servedModels.usage(name).lastUsed }
    }
  }

  #count(name: string, what: 'loads' | 'evictions'): void {
    if (!this.#cacheKept) return
    const counts = this.#counts.get(name) ?? { loads: 0, evictions: 0 }
    counts[what]++
    this.#counts.set(name, counts)
  }

  get #servedModels(): ServedModels {
    if (this.#served === undefined) throw new Error('ModelRepository.serveInto(served) was not called')
    return this.#served
  }

  /** The repository directory holding model `name` (the first, in the order given), if any. */
  #findRepository(name: string): string | undefined {
    for (const repository of this.#options.repositories) if (modelNames(repository).includes(name)) return repository
    return undefined
  }

  /** The repository directory holding model `name`; else the layout error naming the repositories. */
  #repositoryOf(name: string): string {
    const repository = this.#findRepository(name)
    if (repository !== undefined) return repository
    throw new ModelRepositoryLayoutError(name, `no model directory by that name in ${this.#options.repositories.join(', ')}`)
  }

  /**
   * Whether a request for `name` loads it (on-demand mode): a model directory of the
   * repositories. Asked for every request naming a model that does not serve, so the
   * directories are read at most once a second, however many unknown names arrive.
   */
  loadsOnDemand(name: string): boolean {
    if (this.#options.mode !== 'on-demand') return false
    const now = this.#now()
    if (this.#names === undefined || now - this.#names.at >= NAMES_TTL_MS) {
      const names = new Set<string>()
      for (const repository of this.#options.repositories) for (const n of namesIfListed(repository)) names.add(n)
      this.#names = { names, at: now }
    }
    return this.#names.names.has(name)
  }

  /**
   * Loads `name` for the requests that found it not loaded (on-demand mode): one load
   * shared by all of them, after the operation before it on the model (a load already
   * under way, an unload); none when the model serves by then. A load that fails is
   * remembered: until its back-off ends (load-backoff.ts) its error is given at once,
   * with no new attempt. An aborted load (shutdown, unload) is not a failure of the model.
   */
  demand(name: string): Promise<void> {
    const waiting = this.#demanded(name)
    const metrics = this.#metrics
    if (metrics === undefined) return waiting
    const started = performance.now()
    waiting.then(
      () => metrics.cacheMiss((performance.now() - started) / 1000, true),
      () => metrics.cacheMiss((performance.now() - started) / 1000, false),
    )
    return waiting
  }

  /** `demand`'s load: the one in flight, a remembered failure, or a new one. */
  #demanded(name: string): Promise<void> {
    const flight = this.#demands.get(name)
    if (flight !== undefined) return flight
    if (this.#closed) return Promise.reject(new ModelLoadAbortedError(name, 'shutdown'))
    if (!this.loadsOnDemand(name)) return Promise.reject(new ModelNotFoundError(echo(name)))
    const refused = this.#backoff.refusal(name)
    if (refused !== undefined) return Promise.reject(refused)
    const load = this.#serial(name, async () => {
      if (this.#states.get(name)?.state === 'READY') return
      try {
        await this.#loadTimed(name)
      } catch (error) {
        if (!(error instanceof ModelLoadAbortedError)) this.#backoff.failed(name, error as Error)
        throw error
      }
      this.#backoff.forget(name)
    })
    const shared = load.finally(() => {
      if (this.#demands.get(name) === shared) this.#demands.delete(name)
    })
    this.#demands.set(name, shared)
    return shared
  }

  /**
   * The memory budget's view: the budget, the server's PSS now (its replica processes
   * included), and each loaded repository model's measured size, its load time and last
   * use (ms since the epoch). `budget` is `undefined` without one (then nothing is measured).
   */
  memory(): { budget: number | undefined; used: number | undefined; models: CachedModelView[] } {
    if (this.#budget === undefined) return { budget: undefined, used: undefined, models: [] }
    const models = [...this.#cached.values()]
      .map((cached) => ({
        name: cached.name,
        bytes: cached.bytes,
        loadedAt: cached.loadedAtEpoch,
        lastUsed: this.#servedModels.usage(cached.name).lastUsed,
        pinned: cached.pinned,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
    return { budget: this.#budget, used: processTreePss(), models }
  }

  /** The repository models whose config marks them eager (`inferpool_eager`): loaded as the server starts. Unreadable ones are left to their first request. */
  eagerModels(): string[] {
    const names: string[] = []
    for (const repository of this.#options.repositories) {
      for (const name of namesIfListed(repository)) {
        try {
          if (readModel(repository, name).config.cache.eager && !names.includes(name)) names.push(name)
        } catch {
          // Its load (on its first request) says what is wrong.
        }
      }
    }
    return names
  }

  index(readyOnly: boolean): RepositoryIndexEntry[] {
    const names = new Set<string>()
    for (const repository of this.#options.repositories) for (const name of namesIfListed(repository)) names.add(name)
    for (const name of this.#states.keys()) names.add(name)
    const entries: RepositoryIndexEntry[] = []
    for (const name of [...names].sort()) {
      const served = this.#states.has(name) ? undefined : this.#servedIndex(name)
      if (served !== undefined) {
        entries.push(...served.filter((entry) => !readyOnly || entry.state === 'READY'))
        continue
      }
      const state = this.#states.get(name)
      if (state === undefined || state.state === 'UNAVAILABLE') {
        if (!readyOnly) entries.push({ name, state: 'UNAVAILABLE', reason: state?.state === 'UNAVAILABLE' ? state.reason : 'not loaded' })
        continue
      }
      if (readyOnly && state.state !== 'READY') continue
      for (const version of [...state.versions].reverse()) entries.push({ name, version, state: state.state, reason: '' })
    }
    return this.#cacheKept ? entries.map((entry) => ({ ...entry, cache: this.#cacheOf(entry.name) })) : entries
  }

  /** The index's `cache` field of model `name`. */
  #cacheOf(name: string): RepositoryCacheFields {
    const counts = this.#counts.get(name)
    const bytes = this.#states.get(name)?.state === 'READY' ? this.#cached.get(name)?.bytes : undefined
    const lastUsed = this.#served?.usage(name).lastUsed
    return {
      loads: counts?.loads ?? 0,
      evictions: counts?.evictions ?? 0,
      ...(bytes === undefined ? {} : { memory_bytes: bytes }),
      ...(lastUsed === undefined ? {} : { last_used: new Date(lastUsed).toISOString() }),
      ...(this.#cached.get(name)?.pinned === true ? { pinned: true } : {}),
    }
  }

  /**
   * The index rows of a model the server was given as pools (mode `'none'`: the
   * repository's models, loaded by the server at start), from the served models; `undefined`
   * when none by that name serves.
   */
  #servedIndex(name: string): RepositoryIndexEntry[] | undefined {
    const served = this.#served
    if (served === undefined || !served.names.includes(name)) return undefined
    const newest = served.model(name, undefined)
    return served
      .versionsOf(newest)
      .reverse()
      .map((version): RepositoryIndexEntry => {
        const state = served.model(name, version).state
        if (state.kind === 'ready') return { name, version, state: 'READY', reason: '' }
        if (state.kind === 'loading') return { name, version, state: 'LOADING', reason: '' }
        if (state.kind === 'unloaded') return { name, version, state: 'UNAVAILABLE', reason: 'not loaded' }
        return { name, version, state: 'UNAVAILABLE', reason: (state.error as Error | undefined)?.message ?? 'failed to load' }
      })
  }

  load(name: string, config?: string, files?: ReadonlyMap<string, Uint8Array>): Promise<void> {
    try {
      this.#checkCall(name, 'load')
      checkModelName(name)
      const uploading = files !== undefined && files.size > 0
      if (uploading) {
        if (this.#options.allowModelUpload !== true) throw new ModelUploadDisabledError(name)
        checkUploadCount(name, files.size)
      } else if (!this.#states.has(name)) {
        // A name the repository has no directory for is refused before anything (a metric, a state) is kept of it.
        this.#repositoryOf(name)
      }
    } catch (error) {
      return Promise.reject(error)
    }
    // An operator's load tries now, whatever the back-off of the model's failed on-demand loads.
    this.#backoff.forget(name)
    return this.#loadCounted(name, config, files)
  }

  unload(name: string): Promise<void> {
    try {
      this.#checkCall(name, 'unload')
      // Only a model the repository knows: one it has loaded, is loading, or has a directory for.
      if (!isModelName(name) || (!this.#states.has(name) && this.#findRepository(name) === undefined)) {
        throw new ModelNotFoundError(echo(name))
      }
    } catch (error) {
      return Promise.reject(error)
    }
    // A load of the model in progress ends now: the unload is the newer word.
    this.#loading.get(name)?.controller.abort(new ModelLoadAbortedError(name, 'unload'))
    return this.#unloadNow(name)
  }

  /** What every load and unload call checks first: the mode, the shutdown, and that the model is the repository's. */
  #checkCall(name: string, action: 'load' | 'unload'): void {
    const mode = this.#options.mode ?? 'explicit'
    if (mode !== 'explicit' && mode !== 'on-demand') throw new ModelControlPollingError(name, action, mode)
    if (this.#closed) throw new ModelLoadAbortedError(name, 'shutdown')
    // Served, and neither loaded by the repository nor loading: a pool the server was given (`--model`).
    if (this.#served?.names.includes(name) === true && !this.#states.has(name)) throw new ModelNotInRepositoryError(name, action)
  }

  /** Loads `name` after the operation before it on the same model, recording the load's time and outcome. */
  #loadCounted(name: string, config?: string, files?: ReadonlyMap<string, Uint8Array>): Promise<void> {
    return this.#serial(name, () => this.#loadTimed(name, config, files))
  }

  /** Loads `name` now (the caller keeps the order of operations on it), recording the load's time and outcome. */
  async #loadTimed(name: string, config?: string, files?: ReadonlyMap<string, Uint8Array>): Promise<void> {
    const started = performance.now()
    const metrics = this.#servedModels.metrics
    try {
      await this.#load(name, config, files)
    } catch (error) {
      metrics.modelLoaded(name, (performance.now() - started) / 1000, false)
      throw error
    }
    metrics.modelLoaded(name, (performance.now() - started) / 1000, true)
    this.#count(name, 'loads')
  }

  #unloadNow(name: string): Promise<void> {
    return this.#serial(name, async () => {
      const started = performance.now()
      const retired = await this.#servedModels.replace(name, new Map())
      this.#cached.delete(name)
      // A model with no directory in the repository (an upload) leaves the index with its files.
      if (this.#findRepository(name) === undefined) {
        this.#states.delete(name)
        this.#attempted.delete(name)
      } else {
        this.#states.set(name, { state: 'UNAVAILABLE', reason: 'unloaded' })
      }
      await this.#close(retired)
      await this.#forgetUpload(name)
      this.#servedModels.metrics.modelUnloaded(name, (performance.now() - started) / 1000)
    })
  }

  /**
   * One scan of the repositories (`--repository-poll-secs`): a model whose directory is
   * new or whose files changed since its last load attempt is (re)loaded, one whose
   * directory is gone is unloaded. A model that cannot be read right now (a file still
   * being written, say) is logged and left as it is, to be tried at the next scan.
   * A repository that cannot be listed (renamed away for a moment, an NFS hiccup) fails
   * the scan: it is logged, nothing is loaded or unloaded (the models serving keep
   * serving), and the next scan tries again. Resolves once every load and unload it
   * started has settled; never rejects.
   */
  async poll(): Promise<void> {
    if (this.#closed) return
    const present = new Set<string>()
    const steps: Array<Promise<void>> = []
    const listed: Array<{ repository: string; names: string[] }> = []
    for (const repository of this.#options.repositories) {
      try {
        const { names, refusedLinks } = repositoryEntries(repository)
        const refused = refusedLinksLine(refusedLinks)
        if (refused !== undefined && this.#refusedLogged.get(repository) !== refused) this.#options.logger.warn(refused)
        this.#refusedLogged.set(repository, refused)
        listed.push({ repository, names })
      } catch (error) {
        this.#options.logger.warn(`repository scan failed, retried at the next scan (the models serve on): ${(error as Error).message}`)
        return
      }
    }
    for (const { repository, names } of listed) {
      for (const name of names) {
        if (present.has(name)) continue
        present.add(name)
        let signature: string
        try {
          signature = signatureOf(readModel(repository, name))
        } catch (error) {
          this.#options.logger.warn(`model '${echo(name)}' not (re)loaded at this scan: ${(error as Error).message}`)
          continue
        }
        if (this.#attempted.get(name) === signature) continue
        steps.push(
          this.#loadCounted(name).catch((error: unknown) =>
            this.#options.logger.warn(`model '${echo(name)}' failed to load: ${(error as Error).message}`),
          ),
        )
      }
    }
    for (const name of [...this.#attempted.keys()]) {
      if (present.has(name)) continue
      this.#attempted.delete(name)
      steps.push(
        this.#unloadNow(name).catch((error: unknown) =>
          this.#options.logger.warn(`model '${echo(name)}' failed to unload: ${(error as Error).message}`),
        ),
      )
    }
    await Promise.all(steps)
  }

  /**
   * Aborts every load in progress (the server's shutdown begins: a load could take as
   * long as its warm-up, and its caller is a request the shutdown waits for). Their
   * callers get `ModelLoadAbortedError`, the pools they started are destroyed; loads and
   * unloads asked for from now on are refused. Idempotent.
   */
  abort(): void {
    this.#closed = true
    for (const [name, attempt] of this.#loading) attempt.controller.abort(new ModelLoadAbortedError(name, 'shutdown'))
  }

  /** Aborts the loads in progress, then closes every pool the repository created (the server's shutdown, once requests are answered). */
  async close(): Promise<void> {
    this.abort()
    await Promise.all([...this.#queue.values()].map((op) => op.catch(() => {})))
    await this.#close([...this.#pools])
    await Promise.all([...this.#uploads.keys()].map((name) => this.#forgetUpload(name)))
    await this.#swept
  }

  /** Removes the upload directory model `name` served from, if any (its pools are closed). */
  async #forgetUpload(name: string, keep?: string): Promise<void> {
    const root = this.#uploads.get(name)
    if (root === undefined || root === keep) return
    this.#uploads.delete(name)
    await removeUpload(root)
  }

  #serial(name: string, step: () => Promise<void>): Promise<void> {
    this.#ops.set(name, (this.#ops.get(name) ?? 0) + 1)
    const run = (this.#queue.get(name) ?? Promise.resolve())
      .catch(() => {})
      .then(step)
      .finally(() => {
        const left = (this.#ops.get(name) ?? 1) - 1
        if (left === 0) this.#ops.delete(name)
        else this.#ops.set(name, left)
      })
    this.#queue.set(name, run)
    return run
  }

  /** Runs `step` after every load under the budget started before it. */
  #oneLoadAtATime(step: () => Promise<void>): Promise<void> {
    const queued = performance.now()
    const turn = this.#loadTurn.then(() => {
      this.#metrics?.loadQueued((performance.now() - queued) / 1000)
      return step()
    })
    this.#loadTurn = turn.catch(() => {})
    return turn
  }

  /** What the server holds without its models: `used` less the measured sizes of the models loaded. */
  #serverBytes(used: number): number {
    let models = 0
    for (const cached of this.#cached.values()) models += cached.bytes
    return Math.max(0, used - models)
  }

  /**
   * Before a load under the budget: refuses a model known (from an earlier load) not to fit
   * even alone, evicts what it needs, and returns the server's PSS as its load begins.
   */
  async #makeRoom(name: string): Promise<number> {
    const budget = this.#budget as number
    const known = this.#sizes.get(name)
    const used = processTreePss()
    if (known !== undefined) {
      const server = this.#serverBytes(used)
      if (server + known > budget) throw new ModelOverBudgetError(name, known, server, budget)
    }
    // A model never loaded is taken to be as large as the largest one measured.
    const needed = known ?? Math.max(0, ...this.#sizes.values())
    if (used + needed > budget) {
      await this.#evictFor(used + needed - budget, name)
      return processTreePss()
    }
    return used
  }

  /**
   * The model's size after its load under the budget: the change of the server's PSS
   * since `before`. `ModelOverBudgetError` when it could not fit even alone.
   */
  #measure(name: string, before: number): number {
    const budget = this.#budget as number
    const bytes = Math.max(0, processTreePss() - before)
    this.#sizes.set(name, bytes)
    const server = this.#serverBytes(before)
    if (server + bytes > budget) throw new ModelOverBudgetError(name, bytes, server, budget)
    return bytes
  }

  /** Evicts the least recently used models that may go (model-cache.ts), other than `keep`, until `excess` bytes are freed. */
  async #evictFor(excess: number, keep: string): Promise<void> {
    const candidates: EvictionCandidate[] = []
    for (const cached of this.#cached.values()) {
      if (cached.name === keep) continue
      const usage = this.#servedModels.usage(cached.name)
      const busy = usage.busy || this.#ops.has(cached.name)
      candidates.push({ ...cached, busy, lastUsed: usage.lastUsed })
    }
    const victims: string[] = []
    let left = excess
    for (const candidate of evictionOrder(candidates, this.#now(), this.#minEvictionAgeMs)) {
      if (left <= 0) break
      victims.push(candidate.name)
      left -= candidate.bytes
    }
    if (left > 0) {
      this.#options.logger.warn(
        `memory budget: ${Math.ceil(left / 1024 / 1024)} MiB over as '${echo(keep)}' loads; the other models are busy, pinned ` +
          'or too young to evict, so it loads over the budget (the excess is evicted at the next load)',
      )
    }
    await Promise.all(victims.map((victim) => this.#serial(victim, () => this.#evict(victim))))
  }

  /** Evicts `name` (no request holds it, nothing else is done to it): it stops serving, its pools close once idle. */
  async #evict(name: string): Promise<void> {
    const cached = this.#cached.get(name)
    if (cached === undefined || this.#states.get(name)?.state !== 'READY') return
    this.#cached.delete(name)
    const now = performance.timeOrigin + performance.now()
    this.#metrics?.evicted(name, (now - (this.#servedModels.usage(name).lastUsed ?? cached.loadedAtEpoch)) / 1000)
    this.#count(name, 'evictions')
    this.#states.set(name, { state: 'UNAVAILABLE', reason: 'evicted to make room under the memory budget' })
    const retired = await this.#servedModels.replace(name, new Map())
    await this.#close(retired)
    this.#options.logger.info(`model '${name}' evicted to make room under the memory budget`)
  }

  async #load(name: string, configJson: string | undefined, files: ReadonlyMap<string, Uint8Array> | undefined): Promise<void> {
    const before = this.#states.get(name)
    const uploading = files !== undefined && files.size > 0
    if (uploading && this.#options.allowModelUpload !== true) throw new ModelUploadDisabledError(name)
    if (this.#closed) throw new ModelLoadAbortedError(name, 'shutdown')
    // Triton's rule: files come with the config of the model directory they make.
    if (uploading && configJson === undefined)
      throw new ModelUploadError(name, 'config', 'must be given with model files (the config of the model directory they make)')
    // A load request's config replaces the config.pbtxt: its version policy and model file name included.
    const override =
      configJson === undefined
        ? undefined
        : interpretModelConfig(name, parseModelConfigJson(configJson, `the load request's config of model '${name}'`))
    const attempt: LoadAttempt = { controller: new AbortController(), pools: new Set() }
    this.#loading.set(name, attempt)
    try {
      if (uploading) await this.#swept
      const repository = uploading ? await writeUpload(name, files, this.#uploadDirectory) : this.#repositoryOf(name)
      try {
        const loading = (): Promise<void> => this.#loadFrom(repository, name, before, override, attempt, uploading)
        await (this.#budget === undefined ? loading() : this.#oneLoadAtATime(loading))
      } catch (error) {
        if (uploading) {
          hideUploadPath(error, repository)
          await removeUpload(repository)
        }
        // An upload that never served, of a name the repository has no directory for, leaves nothing behind (its caller has the reason).
        if (uploading && before === undefined && this.#findRepository(name) === undefined) {
          this.#states.delete(name)
          this.#attempted.delete(name)
        }
        throw error
      }
      // The versions serving now came from `repository`: an upload directory they no longer use goes.
      await this.#forgetUpload(name, repository)
      if (uploading) this.#uploads.set(name, repository)
    } finally {
      this.#loading.delete(name)
    }
  }

  async #loadFrom(
    repository: string,
    name: string,
    before: LoadState | undefined,
    override: ReturnType<typeof interpretModelConfig> | undefined,
    attempt: LoadAttempt,
    uploaded: boolean,
  ): Promise<void> {
    const model = readModel(repository, name, undefined, override)
    this.#attempted.set(name, signatureOf(model))
    for (const line of [ignoredFieldsLine(model), refusedLinksLine(model.refusedLinks)])
      if (line !== undefined) this.#options.logger.warn(line)
    if (before === undefined || before.state === 'UNAVAILABLE')
      this.#states.set(name, { state: 'LOADING', versions: model.versions.map((v) => v.version) })
    const signal = attempt.controller.signal
    const pools: Pool[] = []
    /** The model's size under a budget, once measured. */
    let measured: number | undefined
    try {
      // Aborted while its files were written: no pool is started for nothing.
      signal.throwIfAborted()
      // Under a budget: room made first, the memory read as the load begins.
      const pssBefore = this.#budget === undefined ? undefined : await this.#makeRoom(name)
      signal.throwIfAborted()
      const started = await untilAborted(Promise.allSettled(model.versions.map((v) => this.#start(model, v.file, attempt))), signal)
      pools.push(...started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])))
      const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
      if (failed !== undefined) throw failed.reason
      // Warm-up (`model_warmup`, else a zero-filled batch of the smallest size) through each new pool before it takes requests.
      const maxBytes = this.#options.maxWarmupBytes ?? DEFAULT_MAX_WARMUP_BYTES
      await untilAborted(
        Promise.all(
          pools.map((pool) =>
            warmUp(name, model.directory, model.config.warmup, pool, {
              maxBytes,
              signal,
              minBatchSize: model.config.batching.minBatchSize,
            }),
          ),
        ),
        signal,
      )
      if (pssBefore !== undefined) measured = this.#measure(name, pssBefore)
    } catch (error) {
      if (signal.aborted) {
        // Aborted: what the pools were running (a warm-up) is not waited for.
        for (const pool of attempt.pools) this.#pools.delete(pool)
        await Promise.all([...attempt.pools].map((pool) => pool.destroy(signal.reason as Error).catch(() => undefined)))
      } else {
        await this.#close(pools)
      }
      if (uploaded) hideUploadPath(error, repository)
      // A model serving keeps serving its versions; one that was not is unavailable, with the reason.
      this.#states.set(name, before?.state === 'READY' ? before : { state: 'UNAVAILABLE', reason: (error as Error).message })
      throw error
    }
    const versions = new Map<string, ServedPool>(model.versions.map((v, i) => [v.version, pools[i]]))
    this.#states.set(name, { state: 'READY', versions: model.versions.map((v) => v.version) })
    const retired = await this.#servedModels.replace(name, versions)
    this.#options.logger.info(`model '${name}' serves version${versions.size === 1 ? '' : 's'} ${[...versions.keys()].join(', ')}`)
    // Uploaded files are not the repository's: such a model could not load again, so it is never evicted.
    if (measured !== undefined && !uploaded) {
      this.#cached.set(name, {
        name,
        bytes: measured,
        loadedAt: this.#now(),
        loadedAtEpoch: performance.timeOrigin + performance.now(),
        pinned: model.config.cache.pinned,
      })
    }
    await this.#close(retired)
    // Past the budget now (a model larger than its estimate, or nothing could go before): what may go, goes.
    if (measured !== undefined) {
      const excess = processTreePss() - (this.#budget as number)
      if (excess > 0) await this.#evictFor(excess, name)
    }
  }

  /** Creates one version's pool for `attempt`; one that arrives after the attempt was aborted is destroyed at once. */
  async #start(model: RepositoryModel, file: string, attempt: LoadAttempt): Promise<Pool> {
    const pool = await this.#options.createPool(model, file)
    const signal = attempt.controller.signal
    if (signal.aborted) {
      await pool.destroy(signal.reason as Error).catch(() => undefined)
      throw signal.reason
    }
    this.#pools.add(pool)
    attempt.pools.add(pool)
    return pool
  }

  /** Closes `pools` (those this repository created), letting what they hold finish. */
  async #close(pools: readonly ServedPool[]): Promise<void> {
    await Promise.all(
      pools.map(async (pool) => {
        if (!this.#pools.delete(pool as Pool)) return
        await pool.close?.()
      }),
    )
  }
}

/** The model names of `repository`; none when it cannot be listed right now (see `poll`: its models are known by their states). */
function namesIfListed(repository: string): string[] {
  try {
    return modelNames(repository)
  } catch {
    return []
  }
}

/**
 * Replaces the private directory of an upload (`root`) in the message of `error` with
 * `<upload>`: a load error reaches the client (and the index's reason), and the server's
 * temporary paths are none of its business. The paths under it (`m/1/model.onnx`) stay.
 */
function hideUploadPath(error: unknown, root: string): void {
  if (error instanceof Error && error.message.includes(root)) error.message = error.message.split(root).join(UPLOAD_PLACEHOLDER)
}

const UPLOAD_PLACEHOLDER = '<upload>'

/** `step`, or the reason of `signal` as soon as it is aborted (`step` then runs on, its outcome ignored). */
function untilAborted<T>(step: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error)
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    step.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error as Error)
      },
    )
  })
}
