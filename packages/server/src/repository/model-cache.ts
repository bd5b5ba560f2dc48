/**
 * What the memory budget of on-demand loading knows of each loaded repository model, and
 * which of them to evict (`evictionOrder`): the least recently used first, never one with
 * requests queued or running, never one younger than the minimum age (a model that just
 * loaded is evicted only once it has had its chance to serve: ModelMesh's churn guard),
 * never a pinned one (config.pbtxt `parameters { key: "inferpool_pinned" … "true" }`).
 */

/** One loaded model, as the cache sees it. */
export interface CachedModel {
  readonly name: string
  /** The server's PSS change across its load (its replica processes included), in bytes. */
  readonly bytes: number
  /** When it loaded, on the repository's clock (`now()`). */
  readonly loadedAt: number
  /** When it loaded, in ms since the epoch (its last use until a request uses it). */
  readonly loadedAtEpoch: number
  readonly pinned: boolean
}

/** A loaded model with how it is being used now. */
export interface EvictionCandidate extends CachedModel {
  /** A request holds one of its versions (queued, running or being answered), or an operation on it is under way. */
  readonly busy: boolean
  /** Its last request's answer, in ms since the epoch; `undefined` if it has served none. */
  readonly lastUsed: number | undefined
}

/** The models that may be evicted at `now`, least recently used first. */
export function evictionOrder(candidates: Iterable<EvictionCandidate>, now: number, minAgeMs: number): EvictionCandidate[] {
  const eligible: EvictionCandidate[] = []
  for (const model of candidates) if (!model.busy && !model.pinned && now - model.loadedAt >= minAgeMs) eligible.push(model)
  return eligible.sort((a, b) => (a.lastUsed ?? a.loadedAtEpoch) - (b.lastUsed ?? b.loadedAtEpoch))
}
