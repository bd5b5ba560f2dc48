/**
 * The server of the deadline grid (scenarios/deadline-grid.ts): `createPool` + `serve`
 * on 127.0.0.1, as a user embeds them, with the formation under test. Run as a child
 * process so that the load generator does not share its event loop:
 * `node deadline-server.js '<DeadlineServerConfig JSON>'`; it answers
 * `{ type: 'listening', port }` over the fork IPC channel once it listens.
 */
import { LatencyModel } from '@inferpool/core'
import { createPool } from '@inferpool/host'
import { serve } from '@inferpool/server'
import { reportStartupFailure, type ServerMessage } from './protocol.js'

/** The child's configuration, passed as one JSON argument. */
export interface DeadlineServerConfig {
  model: string
  modelName: string
  formation: 'count' | 'deadline'
  replicas: number
  maxBatchSize: number
}

const quiet = { error() {}, info() {}, warn() {} }

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as DeadlineServerConfig
  // The pool's latency model, held here so that its figures can be reported with the counters.
  const latencyModel = new LatencyModel()
  const pool = await createPool({
    model: config.model,
    replicas: config.replicas,
    logger: quiet,
    batching: { formation: config.formation, maxBatchSize: config.maxBatchSize, latencyModel },
  })
  const server = await serve({ [config.modelName]: pool }, { port: 0, grpcPort: 0, logger: quiet })
  const port = Number(new URL(server.url as string).port)
  // The bench asks for the batcher's counters around each run (batches, rows, timed out).
  process.on('message', (message: { type?: string }) => {
    if (message?.type !== 'stats') return
    const { batches, completed, timedOut, rejected, cancelled } = pool.stats
    const figures = (n: number) => [latencyModel.floor(n), latencyModel.estimate(n), latencyModel.bound(n)]
    process.send?.({
      type: 'stats',
      batches,
      completed,
      timedOut,
      rejected,
      cancelled,
      model: { 1: figures(1), 8: figures(8), 64: figures(64) },
    })
  })
  process.send?.({ type: 'listening', port, rssBytes: process.memoryUsage().rss } satisfies ServerMessage)
  process.once('SIGTERM', () => {
    void server.close().then(() => process.exit(0))
  })
}

main().catch(reportStartupFailure)
