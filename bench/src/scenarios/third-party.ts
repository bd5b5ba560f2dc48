/**
 * A real third-party model with a fixed batch dimension of 1 (most exported vision
 * models): batching is impossible, so what remains is what replicas alone buy.
 */
import type { CreatePool } from '../pool-api.js'
import type { ModelInfo } from '../model.js'
import { runDirectRow, type DirectRowPoint, type Window } from './direct.js'
import { runPoolConfig, type PoolPoint } from './pool.js'

export interface ThirdPartyResult {
  model: string
  input: { name: string; dims: Array<number | string> }
  fixedBatchSize: number | null
  direct: DirectRowPoint[]
  pool: PoolPoint[]
  /** rows/s of the most replicas ÷ rows/s of one replica, at the most callers. */
  replicaSpeedup: number | null
}

export async function runThirdParty(
  createPool: CreatePool,
  info: ModelInfo,
  replicasList: number[],
  callers: number,
  window: Window,
  onPoint: (label: string) => void,
): Promise<ThirdPartyResult> {
  const direct = await runDirectRow(info, [1, callers], window, (l) => onPoint(`third-party ${l}`))
  const pool: PoolPoint[] = []
  for (const replicas of replicasList) {
    // Ask for batches of 128: the pool must cap them at the model's fixed batch size.
    pool.push(...(await runPoolConfig(createPool, info, { replicas, concurrency: 1, maxBatchSize: 128 }, [callers], window, null, (l) => onPoint(`third-party ${l}`))))
  }
  const one = pool.find((p) => p.replicas === Math.min(...replicasList))
  const most = pool.find((p) => p.replicas === Math.max(...replicasList))
  return {
    model: info.path,
    input: { name: info.inputs[0].name, dims: info.inputs[0].dims },
    fixedBatchSize: info.fixedBatchSize,
    direct,
    pool,
    replicaSpeedup: one && most && one.rowsPerSec > 0 && one !== most ? most.rowsPerSec / one.rowsPerSec : null,
  }
}
