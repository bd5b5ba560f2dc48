/**
 * `createServer` / `serve`: a `node:http` server around `createRequestHandler`, with
 * bounded connections (header, body and idle timeouts) and a graceful shutdown:
 *
 *   0. report not-ready and keep serving for `drainDelayMs`, so load balancers stop
 *      sending new connections before the listener closes (connections still in the
 *      kernel's accept queue when it closes are reset by the kernel);
 *   1. stop accepting connections; new requests get 503 and `Connection: close`;
 *      requests whose body is still arriving get 503 at once (they are not waited
 *      for); a connection accepted but without a request yet gets a short grace to
 *      send it (connections.ts), so it is answered rather than reset;
 *   2. wait until every request in progress has handed its rows to its pool;
 *   3. close the pools with `drain: true` (queued rows run now, partial batches included);
 *   4. wait until every response is written;
 *   steps 1–4 bounded by one `shutdownTimeoutMs` deadline, after which the pools are
 *   closed hard (queued rows fail with 503) and the remaining connections are closed.
 *   `lost` counts the admitted requests (rows in a pool) cut off that way.
 *
 * Signal handling is opt-in (`handleSignals`), so an embedding application keeps
 * control of its process; the CLI turns it on.
 */
import { createServer as createHttpServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ConnectionTracker } from './connections.js'
import { createRequestHandler, handlerInternals } from './handler.js'
import type { InferpoolRequestHandler, PoolsByModel } from './handler.js'
import { checkInteger } from './options.js'
import type { RequestHandlerOptions } from './options.js'
import type { ServedPool } from './served-pool.js'

export interface ServerOptions extends RequestHandlerOptions {
  /**
   * TCP port; 0 picks a free one (read it from `url`).
   * @default 8000
   */
  port?: number
  /**
   * Address to bind. The default only accepts local connections; use `'0.0.0.0'` or
   * `'::'` to serve other machines (and set `apiKey`).
   * @default '127.0.0.1'
   */
  host?: string
  /**
   * Longest time `close()` waits for requests in progress and queued rows, in ms.
   * After it, queued rows fail (503) and open connections are closed.
   * @default 30000
   */
  shutdownTimeoutMs?: number
  /**
   * Longest time in ms for a request's headers to arrive, from its first byte; a
   * client past it (a slowloris) gets 408 and its connection is closed.
   * @default 20000
   */
  headersTimeoutMs?: number
  /**
   * Longest time in ms a keep-alive connection may stay idle between requests.
   * @default 30000
   */
  idleTimeoutMs?: number
  /**
   * On `close()`, how long readiness reports 503 while requests are still served, before
   * the listener closes: time for a load balancer to stop sending new connections.
   * @default 0
   */
  drainDelayMs?: number
  /**
   * Close the pools when the server closes. Set `false` when the pools outlive the
   * server (for example pools shared with other servers).
   * @default true
   */
  closePools?: boolean
  /**
   * On SIGTERM or SIGINT, shut down gracefully and exit the process: code 0 when every
   * admitted request was answered, 1 when the timeout cut some off (`lost` > 0). A
   * second signal exits at once with code 1. Off by default so embedding applications keep control
   * of their process.
   * @default false
   */
  handleSignals?: boolean
  /**
   * Where shutdown progress and unexpected errors are logged.
   * @default console
   */
  logger?: Pick<Console, 'error' | 'info'>
}

export const SERVER_DEFAULTS = {
  port: 8000,
  host: '127.0.0.1',
  shutdownTimeoutMs: 30_000,
  headersTimeoutMs: 20_000,
  idleTimeoutMs: 30_000,
  drainDelayMs: 0,
  closePools: true,
  handleSignals: false,
} as const

/** How a shutdown went. */
export interface ShutdownResult {
  /** `true` when the timeout passed and requests still in progress were cut off. */
  readonly forced: boolean
  /** Admitted requests (rows handed to a pool) that were cut off without their answer. */
  readonly lost: number
}

export interface InferpoolServer {
  /** The underlying `node:http` server. */
  readonly server: Server
  readonly handler: InferpoolRequestHandler
  /** `http://host:port` once listening, else `undefined`. */
  readonly url: string | undefined
  /** Starts listening on `options.port`/`options.host`; resolves with the URL. */
  listen(): Promise<string>
  /** Graceful shutdown (see the module comment). A second call returns the same promise. */
  close(): Promise<ShutdownResult>
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const

/**
 * Before the listener closes, it waits until no connection has arrived for this long
 * (at most `ACCEPT_QUIET_MAX_MS`), so that a burst in flight is accepted first.
 */
const ACCEPT_QUIET_MS = 50
const ACCEPT_QUIET_MAX_MS = 1_000

function formatUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}

/** Creates (but does not start) a server for one pool per model name. */
export function createServer(pools: PoolsByModel, options: ServerOptions = {}): InferpoolServer {
  const { port = SERVER_DEFAULTS.port, host = SERVER_DEFAULTS.host } = options
  checkInteger('port', port, 0)
  if (port > 65535) throw new RangeError(`Expected \`port\` to be an integer in [0, 65535], got \`${port}\``)
  if (typeof host !== 'string' || host.length === 0) {
    throw new TypeError(`Expected \`host\` to be a non-empty string, got \`${String(host)}\``)
  }
  const shutdownTimeoutMs = checkInteger(
    'shutdownTimeoutMs',
    options.shutdownTimeoutMs ?? SERVER_DEFAULTS.shutdownTimeoutMs,
    0,
  )
  for (const flag of ['closePools', 'handleSignals'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') {
      throw new TypeError(`Expected \`${flag}\` to be a boolean, got \`${String(options[flag])}\``)
    }
  }
  const headersTimeoutMs = checkInteger('headersTimeoutMs', options.headersTimeoutMs ?? SERVER_DEFAULTS.headersTimeoutMs, 1)
  const idleTimeoutMs = checkInteger('idleTimeoutMs', options.idleTimeoutMs ?? SERVER_DEFAULTS.idleTimeoutMs, 1)
  const drainDelayMs = checkInteger('drainDelayMs', options.drainDelayMs ?? SERVER_DEFAULTS.drainDelayMs, 0)
  const closePools = options.closePools ?? SERVER_DEFAULTS.closePools
  const handleSignals = options.handleSignals ?? SERVER_DEFAULTS.handleSignals
  const logger = options.logger ?? console

  const handler = createRequestHandler(pools, options)
  const inner = handlerInternals(handler)
  const server = createHttpServer(
    {
      headersTimeout: headersTimeoutMs,
      // A backstop behind the handler's own body timeout (which answers 408 itself).
      requestTimeout: headersTimeoutMs + inner.options.bodyTimeoutMs + 1_000,
      keepAliveTimeout: idleTimeoutMs,
      // How often Node checks the two timeouts above (its default, 30 s, would let a
      // stalled client stay up to 30 s longer than configured).
      connectionsCheckingInterval: 1_000,
    },
    handler,
  )
  const connections = new ConnectionTracker(server)
  let url: string | undefined
  let closing: Promise<ShutdownResult> | undefined

  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing !== undefined) {
      logger.error(`inferpool: ${signal} again, exiting now`)
      process.exit(1)
    }
    logger.info(`inferpool: ${signal} received, finishing requests in progress (up to ${shutdownTimeoutMs} ms)`)
    close().then(
      ({ forced, lost }) => {
        logger.info(
          lost > 0
            ? `inferpool: shutdown timed out; ${lost} admitted request${lost === 1 ? ' was' : 's were'} cut off`
            : forced
              ? 'inferpool: shutdown timed out; no admitted request was lost'
              : 'inferpool: shut down cleanly',
        )
        process.exit(lost > 0 ? 1 : 0)
      },
      (error: unknown) => {
        logger.error('inferpool: shutdown failed', error)
        process.exit(1)
      },
    )
  }
  if (handleSignals) for (const signal of SIGNALS) process.on(signal, onSignal)

  const closeLoadedPools = (drain: boolean): Promise<unknown> =>
    Promise.all(
      [...inner.models.values()].map((entry) =>
        entry.loaded.then(() => (entry.state.kind === 'ready' ? closePool(entry.state.pool, drain) : undefined)),
      ),
    )

  function close(): Promise<ShutdownResult> {
    closing ??= (async () => {
      if (server.listening) {
        // Not ready, still serving: new connections keep being answered meanwhile.
        inner.draining = true
        if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs))
        // Connections that were on their way when the shutdown began are accepted (and
        // so answered) rather than left in the accept queue for the kernel to reset.
        await connections.acceptQuiet(ACCEPT_QUIET_MS, ACCEPT_QUIET_MAX_MS)
      }
      let forced = false
      let lost = 0
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          forced = true
          lost = inner.admitted.count
          resolve()
        }, shutdownTimeoutMs)
      })
      const within = (step: Promise<unknown>): Promise<unknown> => Promise.race([step, deadline])

      const handlerClosed = handler.close()
      const serverClosed = connections.stopAccepting(server, inner.options.lingerMs)
      try {
        await within(inner.admitting.empty())
        if (closePools && !forced) await within(closeLoadedPools(true))
        if (!forced) await within(handlerClosed)
        if (forced) {
          if (closePools) closeLoadedPools(false).catch((error: unknown) => logger.error('inferpool: closing pools failed', error))
          connections.destroyAll()
        }
        await within(serverClosed)
        // Connections whose client never closes its side are not waited for past the deadline.
        connections.destroyAll()
        await serverClosed
        // http.Server's own close: stops its timeout checks (every connection is gone).
        if (server.listening === false) server.close()
      } finally {
        clearTimeout(timer)
        if (handleSignals) for (const signal of SIGNALS) process.off(signal, onSignal)
      }
      return { forced, lost }
    })()
    return closing
  }

  return {
    server,
    handler,
    get url() {
      return url
    },
    listen() {
      return new Promise<string>((resolve, reject) => {
        const onError = (error: Error): void => {
          server.off('listening', onListening)
          reject(error)
        }
        const onListening = (): void => {
          server.off('error', onError)
          url = formatUrl(server.address() as AddressInfo)
          resolve(url)
        }
        server.once('error', onError)
        server.once('listening', onListening)
        server.listen(port, host)
      })
    },
    close,
  }
}

async function closePool(pool: ServedPool, drain: boolean): Promise<void> {
  if (typeof pool.close === 'function') await pool.close({ drain })
}

/** Creates a server and starts listening; resolves once it accepts connections. */
export async function serve(pools: PoolsByModel, options: ServerOptions = {}): Promise<InferpoolServer> {
  const server = createServer(pools, options)
  await server.listen()
  return server
}
