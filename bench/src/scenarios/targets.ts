/**
 * The points the targets compare, measured again in interleaved rounds: practical
 * limit, best pool shape and the same shape with batching off at the most callers,
 * direct onnxruntime and the pool at 1 caller — one after the other, round after
 * round, medians reported. On a shared machine the load drifts over a run; a ratio of
 * two points taken minutes apart measures the drift as much as the code. Interleaving
 * exposes both sides of each ratio to the same conditions.
 */
import type { Pool } from '@inferpool/host'
import ort from 'onnxruntime-node'
import { runClosedLoop } from '../closed-loop.js'
import { randomRows, rowFeeds, type ModelInfo } from '../model.js'
import type { CreatePool } from '../pool-api.js'
import { runPracticalLimit, type DirectRowPoint, type PracticalLimit, type Window } from './direct.js'
import { measurePool, openPool, poolRows, type PoolConfig, type PoolPoint } from './pool.js'

export interface TargetRound {
  practicalLimit: PracticalLimit
  /** Best pool shape at the most callers. */
  pool: PoolPoint
  /** Same shape, maxBatchSize 1, at the most callers. */
  batchingOff: PoolPoint
  /** Direct onnxruntime-node, one row per run(), 1 caller. */
  direct1: DirectRowPoint
  /** Best pool shape at 1 caller. */
  pool1: PoolPoint
}

export interface TargetRounds {
  shape: { replicas: number; concurrency: number; maxBatchSize: number }
  callers: number
  rounds: TargetRound[]
  /** Medians over the rounds. */
  median: {
    practicalLimitRowsPerSec: number
    poolRowsPerSec: number
    batchingOffRowsPerSec: number
    directP50Ms: number
    poolP50MsAt1: number
    /** Host-thread CPU µs per row of the pool at the most callers (null: not readable here). */
    hostCpuUsPerRow: number | null
    /** The platform threads' (mostly garbage collection) CPU µs per row, same points. */
    platformCpuUsPerRow: number | null
  }
}

function medianOrNull(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null)
  return known.length === values.length && known.length > 0 ? median(known) : null
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

export async function runTargetRounds(
  createPool: CreatePool,
  info: ModelInfo,
  shape: { replicas: number; concurrency: number; maxBatchSize: number },
  limitBatch: number,
  callers: number,
  roundCount: number,
  window: Window,
  onPoint: (label: string) => void,
): Promise<TargetRounds> {
  const bestConfig: PoolConfig = { ...shape }
  const offConfig: PoolConfig = { ...shape, maxBatchSize: 1 }
  // Both pools stay open across rounds; an idle pool's threads sleep (spinning is off).
  const opened = await Promise.allSettled([openPool(createPool, info, bestConfig), openPool(createPool, info, offConfig)])
  const failed = opened.find((o) => o.status === 'rejected')
  if (failed) {
    // Close whichever pool did start before reporting the failure: no thread left behind.
    await Promise.all(opened.map((o) => (o.status === 'fulfilled' ? o.value.close() : undefined)))
    throw failed.reason
  }
  const [best, off] = opened.map((o) => (o as PromiseFulfilledResult<Pool>).value)
  const session = await ort.InferenceSession.create(info.path).catch(async (error: unknown) => {
    await Promise.all([best.close(), off.close()])
    throw error
  })
  try {
    const rows = poolRows(info)
    const directRows = randomRows(info, 64)
    const rounds: TargetRound[] = []
    for (let r = 1; r <= roundCount; r++) {
      const practicalLimit = await runPracticalLimit(info, limitBatch, window, () => {})
      const pool = await measurePool(best, rows, bestConfig, callers, window, practicalLimit.rowsPerSec)
      const batchingOff = await measurePool(off, rows, offConfig, callers, window, practicalLimit.rowsPerSec)
      let next = 0
      const direct = await runClosedLoop({ callers: 1, ...window, call: () => session.run(rowFeeds(info, directRows[next++ & 63])) })
      const pool1 = await measurePool(best, rows, bestConfig, 1, window, practicalLimit.rowsPerSec)
      rounds.push({ practicalLimit, pool, batchingOff, direct1: { kind: 'direct-row', ...direct }, pool1 })
      onPoint(`target round ${r}/${roundCount}`)
    }
    return {
      shape,
      callers,
      rounds,
      median: {
        practicalLimitRowsPerSec: median(rounds.map((x) => x.practicalLimit.rowsPerSec)),
        poolRowsPerSec: median(rounds.map((x) => x.pool.rowsPerSec)),
        batchingOffRowsPerSec: median(rounds.map((x) => x.batchingOff.rowsPerSec)),
        directP50Ms: median(rounds.map((x) => x.direct1.latencyMs.p50)),
        poolP50MsAt1: median(rounds.map((x) => x.pool1.latencyMs.p50)),
        hostCpuUsPerRow: medianOrNull(rounds.map((x) => x.pool.hostCpuUsPerRow)),
        platformCpuUsPerRow: medianOrNull(rounds.map((x) => x.pool.platformCpuUsPerRow)),
      },
    }
  } finally {
    await Promise.all([best.close(), off.close(), session.release()])
  }
}
