/**
 * inferpool over HTTP and gRPC at once, embedded: one handler owns the pools, the gRPC
 * service is built on it, so rows from both protocols share batches and one shutdown
 * drains both.
 *
 *   pnpm --filter @inferpool/examples grpc        (PORT=8000, GRPC_PORT=8001 by default)
 *   pnpm --filter @inferpool/examples grpc-client (in another shell)
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server, ServerCredentials } from '@grpc/grpc-js'
import { createPool } from '@inferpool/host'
import { createGrpcService, createRequestHandler } from '@inferpool/server'
import { demoModelPath } from './demo-model.js'

const pool = await createPool({ model: process.env.MODEL ?? demoModelPath(), batching: { maxBatchSize: 64, maxQueueSize: 4096 } })
const handler = createRequestHandler({ demo: pool })
// The same served models on both protocols: one readiness, one door, one set of metrics.
const service = createGrpcService(handler.served)

const http = createServer(handler)
// Your own grpc-js server: add your services beside inferpool's.
const grpc = new Server({ 'grpc.max_receive_message_length': 16 * 2 ** 20 })
grpc.addService(service.definition, service.implementation)

http.listen(Number(process.env.PORT ?? 8000), '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo
  grpc.bindAsync(`127.0.0.1:${process.env.GRPC_PORT ?? 8001}`, ServerCredentials.createInsecure(), (error, grpcPort) => {
    if (error) throw error
    console.log(`listening on http://127.0.0.1:${port} and grpc://127.0.0.1:${grpcPort}`)
  })
})

// Graceful shutdown: refuse new work, answer what is in progress (HTTP and gRPC), then
// free the workers. (`serve({ …, grpcPort })` does all of this for you.)
async function shutdown(): Promise<void> {
  http.close()
  const grpcDone = new Promise<void>((resolve) => grpc.tryShutdown(() => resolve()))
  await Promise.all([handler.close(), service.close(), grpcDone])
  await pool.close()
}
process.once('SIGTERM', () => void shutdown())
process.once('SIGINT', () => void shutdown())
