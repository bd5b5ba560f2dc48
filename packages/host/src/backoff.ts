/**
 * Delay before replacing something that died before it was ready (a server process of
 * the cluster, a replica process whose load failed): 250 ms, doubling with each such
 * death in a row, up to 30 s. One that became ready resets the count.
 */
export function restartDelayMs(failuresBeforeReady: number): number {
  return Math.min(30_000, 250 * 2 ** Math.min(failuresBeforeReady, 10))
}
