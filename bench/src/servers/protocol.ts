import type { Server } from 'node:http'

/** Messages from a bench server child process to the bench (over the fork IPC channel). */
export type ServerMessage =
  | { type: 'listening'; port: number; rssBytes: number; grpcPort?: number }
  | { type: 'error'; message: string }
  /**
   * The answer to a `{ type: 'cpu', id }` request: the child's `process.cpuUsage()` (all
   * its threads), in µs, with the request's id.
   */
  | { type: 'cpu'; id: number; user: number; system: number }

/**
 * Answers `{ type: 'cpu' }` from the bench with the process's CPU time so far, so a
 * point can report the server's CPU per row — a figure a busy shared machine blurs far
 * less than throughput.
 */
export function answerCpuRequests(): void {
  process.on('message', (message: { type?: string; id?: number }) => {
    if (message?.type === 'cpu') process.send?.({ type: 'cpu', id: message.id ?? 0, ...process.cpuUsage() } satisfies ServerMessage)
  })
}

/** The child's configuration, passed as one JSON argument. */
export interface PlainServerConfig {
  kind: 'plain'
  model: string
  modelName: string
}

export interface PoolServerConfig {
  kind: 'pool'
  model: string
  modelName: string
  replicas: number
  concurrency: number
  maxBatchSize: number
  minBatchSize?: number
  maxWaitMs?: number
}

/** The inferpool server with gRPC beside HTTP (`serve` with `grpcPort`), one pool behind both. */
export interface GrpcServerConfig extends Omit<PoolServerConfig, 'kind'> {
  kind: 'grpc'
}

/** A gRPC server that decodes each ModelInferRequest and answers zeros: no inference. */
export interface GrpcNoopServerConfig {
  kind: 'grpc-noop'
  model: string
  modelName: string
}

/** The no-op door: parses and answers like the inferpool server, without inference. */
export interface NoopServerConfig {
  kind: 'noop'
  model: string
  modelName: string
}

/** The naive Python baseline (bench/python/naive_server.py): FastAPI + onnxruntime, one run per request. */
export interface PythonServerConfig {
  kind: 'python'
  model: string
  modelName: string
}

export type ServerConfig =
  PlainServerConfig | PoolServerConfig | NoopServerConfig | PythonServerConfig | GrpcServerConfig | GrpcNoopServerConfig

/** Reports a start-up failure to the parent and exits non-zero. */
export function reportStartupFailure(error: unknown): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
  if (process.send) process.send({ type: 'error', message } satisfies ServerMessage, () => process.exit(1))
  else {
    console.error(message)
    process.exit(1)
  }
}

/**
 * Listens on an ephemeral 127.0.0.1 port, tells the parent the port and the resident
 * memory once listening, and stops on SIGTERM or when the parent goes away: closes the
 * server and its keep-alive connections, runs `release` (the session or the pool), then
 * exits 0.
 */
export function listenAndReport(server: Server, release: () => Promise<unknown>): void {
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => {
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    process.send?.({ type: 'listening', port, rssBytes: process.memoryUsage().rss } satisfies ServerMessage)
  })
  const stop = () => {
    server.close()
    server.closeAllConnections()
    void release().finally(() => process.exit(0))
  }
  process.once('SIGTERM', stop)
  process.once('disconnect', stop)
}
