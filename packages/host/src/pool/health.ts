/**
 * What a pool's replica states say about its model, read from `pool.stats` by whoever
 * reports health (the servers' readiness routes and metrics), so that every report
 * draws the same line: a model is *ready* while at least one replica is, and
 * *degraded* while some replica is not.
 */
import type { PoolStats } from '../types.js'

/** Replicas whose session is loaded and serving. */
export function replicasReady(stats: Pick<PoolStats, 'replicas'>): number {
  let ready = 0
  for (const replica of stats.replicas) if (replica.state === 'ready') ready++
  return ready
}

/** Some replica is not ready (loading, failed, overdue or down): the model runs on fewer than it should. */
export function isDegraded(stats: Pick<PoolStats, 'replicas'>): boolean {
  return replicasReady(stats) < stats.replicas.length
}

/**
 * Whether a pool can serve a batch now: some replica of it is ready. A pool that keeps
 * no stats (a remote handle) or lists no replica (a pool of the user's own making)
 * cannot say, and counts as serving once loaded.
 */
export function servesAny(pool: { readonly stats?: Pick<PoolStats, 'replicas'> }): boolean {
  const stats = pool.stats
  return stats === undefined || stats.replicas.length === 0 || replicasReady(stats) > 0
}
