/**
 * The server-process side of `inferpool serve --processes n`: what a process forked by
 * the primary (./primary.ts) does differently from a lone server.
 * - It drains and exits when the primary says so, and ignores SIGTERM/SIGINT itself (a
 *   terminal's Ctrl-C reaches every process of the group; the primary decides).
 * - Its `/metrics` answers with the aggregate the primary builds from every process.
 * - It answers the primary's requests for its own metrics.
 * - It tells the primary when it is ready, with the banner lines a lone server prints.
 */
import type { Registry } from 'prom-client'
import type { InferpoolServer } from '../server/serve.js'
import { COLLECT_TIMEOUT_MS, isOurs } from './messages.js'
import type { ToPrimary, ToServer } from './messages.js'

/** Longest wait for the primary's aggregate: it waits up to COLLECT_TIMEOUT_MS for each process, in parallel. */
const AGGREGATE_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 2_000

export interface ClusterMember {
  /** For the handler's `collectMetrics`: every process's metrics, aggregated by the primary. */
  collectMetrics(registry: Registry): Promise<string>
  /** Serves `registry` to the primary's scrapes and drains `server` when the primary says so. */
  attach(server: InferpoolServer, registry: Registry): void
  /** `true` once the primary asked this process to shut down. */
  readonly stopping: boolean
  /** Tells the primary this process listens and serves (and where gRPC listens, when it does). */
  ready(url: string, banner: string[], grpcAddress?: string): void
}

function send(message: ToPrimary): void {
  // The channel is gone only when the primary is; node:cluster then ends this process.
  if (process.connected) process.send?.(message)
}

/** Joins the cluster as a server process. Call once, in a process forked by the primary. */
export function joinCluster(): ClusterMember {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => {})

  let nextId = 0
  const aggregates = new Map<number, { resolve(text: string): void; reject(error: Error): void }>()
  let server: InferpoolServer | undefined
  let registry: Registry | undefined
  let stopping = false

  const shutdown = (): void => {
    if (stopping) return
    stopping = true
    const closing = server?.close() ?? Promise.resolve({ forced: false })
    closing.then(
      ({ forced }) => process.exit(forced ? 1 : 0),
      () => process.exit(1),
    )
  }

  process.on('message', (message: unknown) => {
    if (!isOurs<ToServer>(message)) return
    switch (message.type) {
      case 'inferpool:shutdown':
        return shutdown()
      case 'inferpool:collect': {
        if (registry === undefined) return
        void registry.getMetricsAsJSON().then((metrics) => send({ type: 'inferpool:own-metrics', id: message.id, metrics }))
        return
      }
      case 'inferpool:aggregated': {
        const waiting = aggregates.get(message.id)
        aggregates.delete(message.id)
        if ('text' in message) waiting?.resolve(message.text)
        else waiting?.reject(new Error(`the cluster's metrics could not be aggregated: ${message.error}`))
        return
      }
    }
  })

  return {
    collectMetrics() {
      const id = nextId++
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          aggregates.delete(id)
          reject(new Error(`the primary did not answer for the cluster's metrics within ${AGGREGATE_TIMEOUT_MS} ms`))
        }, AGGREGATE_TIMEOUT_MS)
        aggregates.set(id, {
          resolve: (text) => (clearTimeout(timer), resolve(text)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        })
        send({ type: 'inferpool:aggregate', id })
      })
    },
    attach(attached, own) {
      server = attached
      registry = own
    },
    get stopping() {
      return stopping
    },
    ready(url, banner, grpcAddress) {
      send({ type: 'inferpool:ready', url, banner, ...(grpcAddress === undefined ? {} : { grpcAddress }) })
    },
  }
}
