/**
 * replicas × concurrency, compared fairly: one pool per shape, all open at once, each
 * measured in turn, round after round, medians reported. A sweep visits each shape
 * once, minutes apart from the others; on a shared machine that compares moments more
 * than shapes. This is the evidence behind the `replicas` / `concurrency` defaults.
 */
import type { Pool } from '@inferpool/host'
import type { ModelInfo } from '../model.js'
import type { CreatePool } from '../pool-api.js'
import type { Window } from './direct.js'
import { median } from './targets.js'
import { measurePool, openPool, poolRows, type PoolConfig, type PoolPoint } from './pool.js'

export interface ShapeMedian {
  replicas: number
  concurrency: number
  maxBatchSize: number
  callers: number
  rowsPerSec: number
  p50Ms: number
  p99Ms: number
}

export interface ShapeRounds {
  maxBatchSize: number
  callers: number[]
  /** Every point of every round, in the order measured. */
  points: Array<PoolPoint & { round: number }>
  median: ShapeMedian[]
}

export async function runShapeRounds(
  createPool: CreatePool,
  info: ModelInfo,
  replicasList: number[],
  concurrencyList: number[],
  maxBatchSize: number,
  callersList: number[],
  roundCount: number,
  window: Window,
  onPoint: (label: string) => void,
): Promise<ShapeRounds> {
  const configs: PoolConfig[] = replicasList.flatMap((replicas) =>
    concurrencyList.map((concurrency) => ({ replicas, concurrency, maxBatchSize })),
  )
  const pools: Pool[] = []
  try {
    for (const config of configs) pools.push(await openPool(createPool, info, config))
    const rows = poolRows(info)
    const points: ShapeRounds['points'] = []
    for (let round = 1; round <= roundCount; round++) {
      for (let i = 0; i < configs.length; i++) {
        for (const callers of callersList) points.push({ ...(await measurePool(pools[i], rows, configs[i], callers, window, null)), round })
      }
      onPoint(`replicas × concurrency round ${round}/${roundCount}`)
    }
    const medians: ShapeMedian[] = []
    for (const c of configs) {
      for (const callers of callersList) {
        const mine = points.filter((p) => p.replicas === c.replicas && p.concurrency === c.concurrency && p.callers === callers)
        medians.push({
          replicas: c.replicas,
          concurrency: c.concurrency,
          maxBatchSize,
          callers,
          rowsPerSec: median(mine.map((p) => p.rowsPerSec)),
          p50Ms: median(mine.map((p) => p.latencyMs.p50)),
          p99Ms: median(mine.map((p) => p.latencyMs.p99)),
        })
      }
    }
    return { maxBatchSize, callers: callersList, points, median: medians }
  } finally {
    await Promise.all(pools.map((p) => p.close()))
  }
}
