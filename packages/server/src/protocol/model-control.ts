/**
 * The model repository extension's operations, protocol-neutral: what the HTTP routes
 * (`/v2/repository/...`) and the gRPC RPCs ask of the server's model repository. The
 * repository module implements it (src/repository/manager.ts); the served models hold
 * it (`ServedModels.control`) with the token its calls take.
 */

/** One row of the repository index: a model, or one version of it. */
export interface RepositoryIndexEntry {
  readonly name: string
  /** Omitted for a model that is not loaded. */
  readonly version?: string
  /** `READY`, `LOADING` or `UNAVAILABLE`, as Triton names them. */
  readonly state: string
  /** Why it is in that state ('' when ready). */
  readonly reason: string
  /**
   * With on-demand loading or a memory budget (HTTP's index only: gRPC's message has no
   * field for it): how the model has fared in the cache.
   */
  readonly cache?: RepositoryCacheFields
}

/** The cache fields of an index row. */
export interface RepositoryCacheFields {
  /** Loads that succeeded (on demand or asked for). */
  readonly loads: number
  /** Evictions to make room under the memory budget. */
  readonly evictions: number
  /** Its measured size while loaded under a budget: the server's PSS change across its load. */
  readonly memory_bytes?: number
  /** When its last request was answered (ISO 8601), once it has served one. */
  readonly last_used?: string
  /** Never evicted (config.pbtxt `inferpool_pinned`), while loaded. */
  readonly pinned?: true
}

export interface ModelControl {
  /** Every model of the repositories, loaded or not (`readyOnly`: the ready ones only). */
  index(readyOnly: boolean): RepositoryIndexEntry[]
  /**
   * Loads `name`, or reloads it beside the version serving; `config` (JSON) replaces its
   * config.pbtxt; `files` (content by `<version>/<name>`, the `file:` parameters) make
   * its model directory, refused unless uploads are allowed. Resolves once the new
   * versions serve; rejects with the reason, the old versions still serving.
   */
  load(name: string, config: string | undefined, files?: ReadonlyMap<string, Uint8Array>): Promise<void>
  /**
   * Stops serving `name`: no new request, the admitted ones answered, then its pools
   * closed; a load of it in progress is aborted. Rejects with `ModelNotFoundError` for a
   * name the control does not know.
   */
  unload(name: string): Promise<void>
  /**
   * On-demand loading (`--model-control-mode on-demand`): whether a request for `name`,
   * which no version of serves, loads it (a model directory of the repository). Asked on
   * every such request: cheap, and `false` for a name the repository does not have.
   */
  loadsOnDemand?(name: string): boolean
  /**
   * Loads `name` for the requests waiting for it: every caller shares one load, and a
   * load that failed a moment ago is not tried again before its back-off ends (its error
   * is given at once). Resolves once the model serves; rejects with the load's error.
   */
  demand?(name: string): Promise<void>
  /**
   * A shutdown begins: loads in progress end now (their callers get an error, the pools
   * they were starting are destroyed), and no new one starts. The server calls it as it
   * stops accepting, so a load's request does not hold the shutdown up.
   */
  abort?(): void
  /** Releases what the control holds (its pools, upload directories) once the server has closed. */
  close?(): Promise<void>
}
