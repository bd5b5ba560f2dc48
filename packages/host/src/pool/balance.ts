/**
 * The replica choice, one rule for both transports (thread replicas through piscina's
 * load balancer, threads/piscina.ts; process replicas, process/process-transport.ts):
 * an idle replica first, else the least busy one with room below `capacity`
 * (`concurrency`: the batches a replica runs at once), the first of equals in the
 * transport's order. Only `eligible` replicas count (each transport says which: a
 * process replica only once it is ready; thread replicas in tiers, loaded ones first,
 * then loading, then failed, since piscina offers its balancer threads still loading).
 */

/**
 * The replica a batch goes to: `undefined` when no replica is eligible, `null` when some
 * are but none has room (the batch waits for one), else the chosen replica.
 */
export function leastBusy<R>(
  replicas: Iterable<R>,
  capacity: number,
  busy: (replica: R) => number,
  eligible: (replica: R) => boolean,
): R | null | undefined {
  let chosen: R | null | undefined
  let least = capacity
  for (const replica of replicas) {
    if (!eligible(replica)) continue
    // Some eligible replica exists: wait for it rather than report none.
    chosen ??= null
    const usage = busy(replica)
    if (usage === 0) return replica
    if (usage < least) {
      chosen = replica
      least = usage
    }
  }
  return chosen
}
