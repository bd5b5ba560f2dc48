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
 */
import { statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { Pool } from '@inferpool/host'
import type { ModelControl, RepositoryIndexEntry } from '../protocol/model-control.js'
import type { ServedModels } from '../protocol/served-models.js'
import type { ServedPool } from '../protocol/served-pool.js'
import { parseModelConfigJson } from './config-file.js'
import { ModelControlPollingError, ModelRepositoryLayoutError, ModelUploadDisabledError, ModelUploadError } from './errors.js'
import { modelNames, readModel } from './layout.js'
import type { RepositoryModel } from './layout.js'
import { interpretModelConfig } from './model-config.js'
import { ignoredFieldsLine } from './repositories.js'
import { removeUpload, writeUpload } from './uploads.js'
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
   * Where the private directories of uploaded model files are made.
   * @default os.tmpdir()
   */
  readonly uploadDirectory?: string
  /**
   * Who decides what serves. `'explicit'`: the load and unload calls (and {@link
   * ModelRepository.poll} when the embedding application calls it). `'poll'`: the
   * repository's scans ({@link ModelRepository.poll}) alone; load and unload calls are
   * refused with `ERR_MODEL_CONTROL_POLLING` (503 / `UNAVAILABLE`), as Triton refuses
   * them when polling is enabled, since the next scan would undo them (and with several
   * server processes a call would reach only one). The index is served in both.
   * @default 'explicit'
   */
  readonly mode?: 'explicit' | 'poll'
}

type LoadState =
  { readonly state: 'LOADING' | 'READY'; readonly versions: readonly string[] } | { readonly state: 'UNAVAILABLE'; readonly reason: string }

/**
 * The files a model is read from (its config, model files and warmup data), with their
 * sizes and modification times: a change to any of them changes it.
 */
function signatureOf(model: RepositoryModel): string {
  const files = [
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

  constructor(options: ModelRepositoryOptions) {
    this.#options = options
  }

  /**
   * The served models the repository's versions go to: given once the server exists
   * (the server takes the repository as its `modelControl` option, so it is made first).
   */
  serveInto(served: ServedModels): void {
    this.#served = served
  }

  get #servedModels(): ServedModels {
    if (this.#served === undefined) throw new Error('ModelRepository.serveInto(served) was not called')
    return this.#served
  }

  /** The repository directory holding model `name` (the first, in the order given). */
  #repositoryOf(name: string): string {
    for (const repository of this.#options.repositories) if (modelNames(repository).includes(name)) return repository
    throw new ModelRepositoryLayoutError(name, `no model directory by that name in ${this.#options.repositories.join(', ')}`)
  }

  index(readyOnly: boolean): RepositoryIndexEntry[] {
    const names = new Set(this.#options.repositories.flatMap((repository) => modelNames(repository)))
    for (const name of this.#states.keys()) names.add(name)
    const entries: RepositoryIndexEntry[] = []
    for (const name of [...names].sort()) {
      const state = this.#states.get(name)
      if (state === undefined || state.state === 'UNAVAILABLE') {
        if (!readyOnly) entries.push({ name, state: 'UNAVAILABLE', reason: state?.state === 'UNAVAILABLE' ? state.reason : 'not loaded' })
        continue
      }
      if (readyOnly && state.state !== 'READY') continue
      for (const version of [...state.versions].reverse()) entries.push({ name, version, state: state.state, reason: '' })
    }
    return entries
  }

  load(name: string, config?: string, files?: ReadonlyMap<string, Uint8Array>): Promise<void> {
    if (this.#options.mode === 'poll') return Promise.reject(new ModelControlPollingError(name, 'load'))
    return this.#loadCounted(name, config, files)
  }

  unload(name: string): Promise<void> {
    if (this.#options.mode === 'poll') return Promise.reject(new ModelControlPollingError(name, 'unload'))
    return this.#unloadNow(name)
  }

  /** Loads `name` after the operation before it on the same model, recording the load's time and outcome. */
  #loadCounted(name: string, config?: string, files?: ReadonlyMap<string, Uint8Array>): Promise<void> {
    return this.#serial(name, async () => {
      const started = performance.now()
      const metrics = this.#servedModels.metrics
      try {
        await this.#load(name, config, files)
      } catch (error) {
        metrics.modelLoaded(name, (performance.now() - started) / 1000, false)
        throw error
      }
      metrics.modelLoaded(name, (performance.now() - started) / 1000, true)
    })
  }

  #unloadNow(name: string): Promise<void> {
    return this.#serial(name, async () => {
      const started = performance.now()
      const retired = await this.#servedModels.replace(name, new Map())
      this.#states.set(name, { state: 'UNAVAILABLE', reason: 'unloaded' })
      await this.#close(retired)
      this.#forgetUpload(name)
      this.#servedModels.metrics.modelUnloaded(name, (performance.now() - started) / 1000)
    })
  }

  /**
   * One scan of the repositories (`--repository-poll-secs`): a model whose directory is
   * new or whose files changed since its last load attempt is (re)loaded, one whose
   * directory is gone is unloaded. A model that cannot be read right now (a file still
   * being written, say) is logged and left as it is, to be tried at the next scan.
   * Resolves once every load and unload it started has settled.
   */
  async poll(): Promise<void> {
    const present = new Set<string>()
    const steps: Array<Promise<void>> = []
    for (const repository of this.#options.repositories) {
      for (const name of modelNames(repository)) {
        if (present.has(name)) continue
        present.add(name)
        let signature: string
        try {
          signature = signatureOf(readModel(repository, name))
        } catch (error) {
          this.#options.logger.warn(`model '${name}' not (re)loaded at this scan: ${(error as Error).message}`)
          continue
        }
        if (this.#attempted.get(name) === signature) continue
        steps.push(
          this.#loadCounted(name).catch((error: unknown) =>
            this.#options.logger.warn(`model '${name}' failed to load: ${(error as Error).message}`),
          ),
        )
      }
    }
    for (const name of [...this.#attempted.keys()]) {
      if (present.has(name)) continue
      this.#attempted.delete(name)
      steps.push(this.#unloadNow(name))
    }
    await Promise.all(steps)
  }

  /** Closes every pool the repository created (the server's shutdown, once requests are answered). */
  async close(): Promise<void> {
    await Promise.all([...this.#queue.values()].map((op) => op.catch(() => {})))
    await this.#close([...this.#pools])
    for (const name of [...this.#uploads.keys()]) this.#forgetUpload(name)
  }

  /** Removes the upload directory model `name` served from, if any (its pools are closed). */
  #forgetUpload(name: string, keep?: string): void {
    const root = this.#uploads.get(name)
    if (root === undefined || root === keep) return
    this.#uploads.delete(name)
    removeUpload(root)
  }

  #serial(name: string, step: () => Promise<void>): Promise<void> {
    const run = (this.#queue.get(name) ?? Promise.resolve()).catch(() => {}).then(step)
    this.#queue.set(name, run)
    return run
  }

  async #load(name: string, configJson: string | undefined, files: ReadonlyMap<string, Uint8Array> | undefined): Promise<void> {
    const before = this.#states.get(name)
    const uploading = files !== undefined && files.size > 0
    if (uploading && this.#options.allowModelUpload !== true) throw new ModelUploadDisabledError(name)
    // Triton's rule: files come with the config of the model directory they make.
    if (uploading && configJson === undefined)
      throw new ModelUploadError(name, 'config', 'must be given with model files (the config of the model directory they make)')
    // A load request's config replaces the config.pbtxt: its version policy and model file name included.
    const override =
      configJson === undefined
        ? undefined
        : interpretModelConfig(name, parseModelConfigJson(configJson, `the load request's config of model '${name}'`))
    const repository = uploading ? writeUpload(name, files, this.#options.uploadDirectory ?? tmpdir()) : this.#repositoryOf(name)
    try {
      await this.#loadFrom(repository, name, before, override)
    } catch (error) {
      if (uploading) removeUpload(repository)
      throw error
    }
    // The versions serving now came from `repository`: an upload directory they no longer use goes.
    this.#forgetUpload(name, repository)
    if (uploading) this.#uploads.set(name, repository)
  }

  async #loadFrom(
    repository: string,
    name: string,
    before: LoadState | undefined,
    override: ReturnType<typeof interpretModelConfig> | undefined,
  ): Promise<void> {
    const model = readModel(repository, name, undefined, override)
    this.#attempted.set(name, signatureOf(model))
    const line = ignoredFieldsLine(model)
    if (line !== undefined) this.#options.logger.warn(line)
    if (before === undefined || before.state === 'UNAVAILABLE')
      this.#states.set(name, { state: 'LOADING', versions: model.versions.map((v) => v.version) })
    const started = await Promise.allSettled(model.versions.map((v) => this.#start(model, v.file)))
    const pools = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    try {
      const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected')
      if (failed !== undefined) throw failed.reason
      // Warm-up (`model_warmup`, else one zero-filled row) through each new pool before it takes requests.
      await Promise.all(pools.map((pool) => warmUp(name, model.directory, model.config.warmup, pool)))
    } catch (error) {
      await this.#close(pools)
      // A model serving keeps serving its versions; one that was not is unavailable, with the reason.
      this.#states.set(name, before?.state === 'READY' ? before : { state: 'UNAVAILABLE', reason: (error as Error).message })
      throw error
    }
    const versions = new Map<string, ServedPool>(model.versions.map((v, i) => [v.version, pools[i]]))
    this.#states.set(name, { state: 'READY', versions: model.versions.map((v) => v.version) })
    const retired = await this.#servedModels.replace(name, versions)
    this.#options.logger.info(`model '${name}' serves version${versions.size === 1 ? '' : 's'} ${[...versions.keys()].join(', ')}`)
    await this.#close(retired)
  }

  async #start(model: RepositoryModel, file: string): Promise<Pool> {
    const pool = await this.#options.createPool(model, file)
    this.#pools.add(pool)
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
