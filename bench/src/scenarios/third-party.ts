/**
 * A real third-party model with a fixed batch dimension of 1 (most exported vision
 * models): batching is impossible, so what remains is what replicas alone buy. The
 * pools of each replica count stay open and are measured in alternation, round after
 * round (best round kept), so machine-load drift does not decide the comparison.
 */
import type { Pool } from '@inferpool/host'
import { THIRD_PARTY_ROUNDS } from '../config.js'
import type { CreatePool } from '../pool-api.js'
import type { ModelInfo } from '../model.js'
import { runDirectRow, type DirectRowPoint, type Window } from './direct.js'
import { measurePool, openPool, poolRows, type PoolConfig, type PoolPoint } from './pool.js'

export interface ThirdPartyResult {
  model: string
  input: { name: string; dims: Array<number | string> }
  fixedBatchSize: number | null
  direct: DirectRowPoint[]
  /** Per replica count, the best of its rounds. */
  pool: PoolPoint[]
  /** Every round: rounds[r][i] is replica count i in round r. */
  rounds: PoolPoint[][]
  /** rows/s of the most replicas ÷ rows/s of one replica. */
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
  // Ask for batches of 128: the pool must cap them at the model's fixed batch size.
  const configs: PoolConfig[] = replicasList.map((replicas) => ({ replicas, concurrency: 1, maxBatchSize: 128 }))
  const pools: Pool[] = []
  try {
    for (const config of configs) pools.push(await openPool(createPool, info, config))
    const rows = poolRows(info, 8)
    const rounds: PoolPoint[][] = []
    for (let r = 0; r < THIRD_PARTY_ROUNDS; r++) {
      const round: PoolPoint[] = []
      for (let i = 0; i < configs.length; i++) {
        round.push(await measurePool(pools[i], rows, configs[i], callers, window, null))
        onPoint(`third-party pool, ${configs[i].replicas} replica(s), round ${r + 1}`)
      }
      rounds.push(round)
    }
    const pool = configs.map((_, i) => rounds.map((round) => round[i]).reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a)))
    const one = pool[0]
    const most = pool[pool.length - 1]
    return {
      model: info.path,
      input: { name: info.inputs[0].name, dims: info.inputs[0].dims },
      fixedBatchSize: info.fixedBatchSize,
      direct,
      pool,
      rounds,
      replicaSpeedup: pool.length > 1 && one.rowsPerSec > 0 ? most.rowsPerSec / one.rowsPerSec : null,
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()))
  }
}
