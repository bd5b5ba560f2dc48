/** Messages from a bench server child process to the bench (over the fork IPC channel). */
export type ServerMessage =
  | { type: 'listening'; port: number; rssBytes: number }
  | { type: 'error'; message: string }

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

export type ServerConfig = PlainServerConfig | PoolServerConfig

/** Reports a start-up failure to the parent and exits non-zero. */
export function reportStartupFailure(error: unknown): void {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
  if (process.send) process.send({ type: 'error', message } satisfies ServerMessage, () => process.exit(1))
  else {
    console.error(message)
    process.exit(1)
  }
}
