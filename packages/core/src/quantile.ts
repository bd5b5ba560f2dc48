/**
 * The `q` quantile (0..1) of samples sorted ascending, the lower of the two around it
 * (0 when empty; `q` 0.5 is the median, the lower middle one): of a few samples, not
 * their slowest (one host stall among four hand-offs is not their p90). The latency model
 * and the pool's hand-off read their percentiles with it.
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.floor(q * (sorted.length - 1))] as number
}
