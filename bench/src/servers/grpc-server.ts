/**
 * The inferpool server as `inferpool serve --grpc-port` runs it: `serve()` with HTTP and
 * gRPC on ephemeral 127.0.0.1 ports over one pool, so the bench can load either door of
 * the same pool. `node grpc-server.js '<GrpcServerConfig JSON>'`.
 */
import { serve } from '@inferpool/server'
import { createTensorPool } from '../pool-api.js'
import { openPool } from '../scenarios/pool.js'
import { answerCpuRequests, reportStartupFailure, type GrpcServerConfig, type ServerMessage } from './protocol.js'

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as GrpcServerConfig
  const pool = await openPool(createTensorPool, { path: config.model }, config)
  const quiet = { error: () => {}, info: () => {} }
  const server = await serve({ [config.modelName]: pool }, { port: 0, grpcPort: 0, logger: quiet, shutdownTimeoutMs: 5_000 })
  const port = Number(new URL(server.url as string).port)
  const grpcPort = Number((server.grpcAddress as string).split(':').pop())
  answerCpuRequests()
  process.send?.({ type: 'listening', port, grpcPort, rssBytes: process.memoryUsage().rss } satisfies ServerMessage)
  const stop = (): void => {
    void server.close().finally(() => process.exit(0))
  }
  process.once('SIGTERM', stop)
  process.once('disconnect', stop)
}

main().catch(reportStartupFailure)
