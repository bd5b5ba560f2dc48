/**
 * The pool under closed-loop single-row load: one pool per (replicas, concurrency,
 * maxBatchSize, batching policy), swept over the caller counts in ascending order.
 */
import type { BatchingOptions, Pool, PoolStats, RowInput } from '@inferpool/host'
import { runClosedLoop, type ClosedLoopResult } from '../closed-loop.js'
import { randomRows, type ModelInfo } from '../model.js'
import type { CreatePool } from '../pool-api.js'
import { cpuPerRow, readThreadCpu, type ThreadCpuReading } from '../thread-cpu.js'
import type { Window } from './direct.js'

export interface PoolConfig {
  replicas: number
  concurrency: number
  maxBatchSize: number
  minBatchSize?: number
  maxWaitMs?: number
  /** @default 'thread' */
  isolation?: 'thread' | 'process'
}

export interface PoolPoint extends ClosedLoopResult {
  kind: 'pool'
  replicas: number
  concurrency: number
  /** maxBatchSize asked for. */
  maxBatchSize: number
  /** maxBatchSize the pool applies (capped by a fixed batch axis). */
  effectiveMaxBatchSize: number
  minBatchSize: number | null
  maxWaitMs: number | null
  /** Rows per batch in the window, from `pool.stats` (completed ÷ batches). */
  meanBatchSize: number
  /** rows/s ÷ the practical limit's rows/s (null without a practical limit). */
  efficiency: number | null
  /**
   * CPU µs per row over the window of the host thread (the callers run there, as a
   * server's handlers would) and of V8's and libuv's platform threads (thread-cpu.ts);
   * null where per-thread CPU cannot be read.
   */
  hostCpuUsPerRow: number | null
  platformCpuUsPerRow: number | null
}

/** Single-row inputs for `pool.infer`, built once: a typed array per input, or `{ data, dims }` for dynamic row axes. */
export function poolRows(info: ModelInfo, count = 64): RowInput[] {
  return randomRows(info, count).map((row) =>
    Object.fromEntries(
      info.inputs.map((t) => {
        const fixedRow = t.dims.slice(1).every((d) => typeof d === 'number' && d > 0)
        return [t.name, fixedRow ? row[t.name] : { data: row[t.name], dims: t.rowDims }]
      }),
    ),
  )
}

export function configLabel(c: {
  replicas: number
  concurrency: number
  maxBatchSize: number
  minBatchSize?: number | null
  maxWaitMs?: number | null
}): string {
  let label = `r${c.replicas} c${c.concurrency} b${c.maxBatchSize}`
  if ((c.minBatchSize ?? null) !== null || (c.maxWaitMs ?? null) !== null) label += ` min${c.minBatchSize ?? '-'} wait${c.maxWaitMs ?? '-'}`
  return label
}

/** Starts a pool for `config` (warnings silenced: the bench reports its own figures). */
export function openPool(createPool: CreatePool, info: Pick<ModelInfo, 'path'>, config: PoolConfig): Promise<Pool> {
  const batching: BatchingOptions = { maxBatchSize: config.maxBatchSize }
  if (config.minBatchSize !== undefined) batching.minBatchSize = config.minBatchSize
  if (config.maxWaitMs !== undefined) batching.maxWaitMs = config.maxWaitMs
  return createPool({
    model: info.path,
    replicas: config.replicas,
    concurrency: config.concurrency,
    batching,
    ...(config.isolation ? { isolation: config.isolation } : {}),
    logger: { warn: () => {}, info: () => {} },
  })
}

/** One closed-loop point against an open pool; the mean batch size comes from `pool.stats` over the window. */
export async function measurePool(
  pool: Pool,
  rows: RowInput[],
  config: PoolConfig,
  callers: number,
  window: Window,
  practicalLimit: number | null,
): Promise<PoolPoint> {
  let before: PoolStats | undefined
  let after: PoolStats | undefined
  let cpuBefore: ThreadCpuReading = null
  let cpuAfter: ThreadCpuReading = null
  let next = 0
  const mask = rows.length - 1 // rows.length is a power of two
  const result = await runClosedLoop({
    callers,
    ...window,
    call: () => pool.infer(rows[next++ & mask]),
    onWindowStart: () => {
      before = pool.stats
      cpuBefore = readThreadCpu()
    },
    onWindowEnd: () => {
      cpuAfter = readThreadCpu()
      after = pool.stats
    },
  })
  const cpu = cpuPerRow(cpuBefore, cpuAfter, result.rows)
  const batches = after && before ? after.batches - before.batches : 0
  const completed = after && before ? after.completed - before.completed : 0
  return {
    kind: 'pool',
    replicas: config.replicas,
    concurrency: config.concurrency,
    maxBatchSize: config.maxBatchSize,
    effectiveMaxBatchSize: pool.metadata.maxBatchSize,
    minBatchSize: config.minBatchSize ?? null,
    maxWaitMs: config.maxWaitMs ?? null,
    meanBatchSize: batches > 0 ? completed / batches : 0,
    efficiency: practicalLimit ? result.rowsPerSec / practicalLimit : null,
    hostCpuUsPerRow: cpu?.hostUsPerRow ?? null,
    platformCpuUsPerRow: cpu?.platformUsPerRow ?? null,
    ...result,
  }
}

/** Runs every caller count, ascending, against one pool built from `config`. */
export async function runPoolConfig(
  createPool: CreatePool,
  info: ModelInfo,
  config: PoolConfig,
  callersList: number[],
  window: Window,
  practicalLimit: number | null,
  onPoint: (label: string) => void,
): Promise<PoolPoint[]> {
  const pool = await openPool(createPool, info, config)
  const points: PoolPoint[] = []
  try {
    const rows = poolRows(info)
    for (const callers of [...callersList].sort((a, b) => a - b)) {
      points.push(await measurePool(pool, rows, config, callers, window, practicalLimit))
      onPoint(`pool ${configLabel(config)}, ${callers} caller(s)`)
    }
  } finally {
    await pool.close()
  }
  return points
}
