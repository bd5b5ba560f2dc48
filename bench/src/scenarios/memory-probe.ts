/**
 * Child process of the memory scenario: loads a pool with N replicas, runs a few
 * requests so every session has allocated its buffers, and reports the process's
 * resident memory. Worker threads share the process, so `rss` covers all replicas.
 * N = 0 measures Node with @inferpool/host and onnxruntime-node loaded, without a pool.
 */
import { randomRows, readModelInfo } from '../model.js'
import { createTensorPool as createPool } from '../pool-api.js'
import { poolRows } from './pool.js'

export interface MemoryProbeConfig {
  model: string
  replicas: number
  /** @default 'thread' */
  isolation?: 'thread' | 'process'
}

export type MemoryProbeMessage =
  | {
      type: 'done'
      rssAfterLoadBytes: number
      rssAfterRunBytes: number
      heapUsedBytes: number
      /** Process mode: each replica process's RSS after the requests (its own report, `stats.replicas[].rssBytes`). */
      replicaRssBytes?: number[]
    }
  | { type: 'error'; message: string }

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as MemoryProbeConfig
  const info = await readModelInfo(config.model)
  randomRows(info, 1)
  if (config.replicas === 0) {
    const rss = process.memoryUsage().rss
    process.send?.({
      type: 'done',
      rssAfterLoadBytes: rss,
      rssAfterRunBytes: rss,
      heapUsedBytes: process.memoryUsage().heapUsed,
    } satisfies MemoryProbeMessage)
    return
  }
  const pool = await createPool({
    model: config.model,
    replicas: config.replicas,
    concurrency: 1,
    isolation: config.isolation ?? 'thread',
    logger: { warn: () => {}, info: () => {} },
  })
  const rssAfterLoadBytes = process.memoryUsage().rss
  const rows = poolRows(info, 8)
  // Enough concurrent requests that every replica runs batches.
  await Promise.all(Array.from({ length: 64 * config.replicas }, (_, i) => pool.infer(rows[i & 7])))
  const rssAfterRunBytes = process.memoryUsage().rss
  const heapUsedBytes = process.memoryUsage().heapUsed
  const replicaRssBytes = config.isolation === 'process' ? pool.stats.replicas.map((r) => r.rssBytes ?? 0) : undefined
  await pool.close()
  process.send?.({
    type: 'done',
    rssAfterLoadBytes,
    rssAfterRunBytes,
    heapUsedBytes,
    ...(replicaRssBytes ? { replicaRssBytes } : {}),
  } satisfies MemoryProbeMessage)
}

main().catch((error: unknown) => {
  process.send?.({
    type: 'error',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  } satisfies MemoryProbeMessage)
})
