/**
 * `createServer` / `serve`: a `node:http` server around `createRequestHandler`, with
 * bounded connections (header, body and idle timeouts) and a graceful shutdown:
 *
 *   (first `beforeClose`, while everything still serves: `serve --nats` stops its consumer;)
 *   0. report not-ready and keep serving for `drainDelayMs`, so load balancers stop
 *      sending new connections before the listener closes (connections still in the
 *      kernel's accept queue when it closes are reset by the kernel);
 *   1. stop accepting connections; requests that arrive from now on get 503 and
 *      `Connection: close`; every request whose headers (a gRPC call's) arrived before
 *      is accepted work, served as Go's `Server.Shutdown` and nginx do: one whose body
 *      is still arriving is read (a stalled one gets its 408 at the body timeout), one
 *      parked at the door waits for room as the queue drains; a connection accepted but
 *      without a request yet gets a short grace to send it (connections.ts), so it is
 *      answered rather than reset;
 *   2. wait until every request in progress has handed its rows to its pool;
 *   3. close the pools with `drain: true` (queued rows run now, partial batches included);
 *   4. wait until every response is written;
 *   steps 1–4 bounded by one `shutdownTimeoutMs` deadline, after which the shutdown is
 *   forced, as by `close({ drain: false })`: with `closePools`, the pools are closed
 *   without draining (queued rows fail with 503) and every request still in progress
 *   is answered 503 `ERR_SHUTTING_DOWN`; then the remaining connections are closed.
 *   `lost` counts the admitted requests (rows in a pool) cut off that way.
 * The order of these steps, and of `destroy()`, is the lifecycle state machine's
 * (../lifecycle.ts), shared with the pool, the handler and the remote client.
 *
 * With `grpcPort`, the gRPC service (src/grpc) listens beside it on the same served
 * models (served-models.ts): its calls pass through the same gates and readiness, so the
 * same steps drain both; the gRPC server refuses new calls from step 1 on and ends open
 * streams once idle.
 *
 * Signal handling is opt-in (`handleSignals`), so an embedding application keeps
 * control of its process; the CLI turns it on.
 */
import { createServer as createHttpServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { booleanOption, invalidOption } from '@inferpool/core/internal'
import { IdleCollection, youngGenerationGrown } from '@inferpool/worker'
import { createGrpcServer } from '../grpc/server.js'
import type { InferpoolGrpcServer } from '../grpc/server.js'
import { createGrpcService } from '../grpc/service.js'
import { Lifecycle } from '@inferpool/host/internal'
import type { CloseOptions } from '@inferpool/host/internal'
import { ConnectionTracker } from '../http/connections.js'
import { createRequestHandler, untilReadsDone } from '../http/handler.js'
import type { InferpoolRequestHandler } from '../http/handler.js'
import { checkInteger, checkTimerMs } from '../protocol/options.js'
import type { RequestHandlerOptions } from '../protocol/options.js'
import type { PoolsByModel } from '../protocol/served-models.js'

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
   * Also serve gRPC (`inference.GRPCInferenceService`) on this port, on `host`, over
   * the same pools; 0 picks a free one (read it from `grpcAddress`).
   * @default undefined (no gRPC; the CLI's `--grpc-port` defaults to 8001)
   */
  grpcPort?: number
  /**
   * Largest gRPC message received or sent, in bytes.
   * @default maxBodyBytes
   */
  maxMessageBytes?: number
  /**
   * Most gRPC calls one HTTP/2 connection may have open at once.
   * @default 100
   */
  maxConcurrentStreams?: number
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
   * Once no request has been in progress for this long (ms) after serving some, run one
   * full garbage collection, so that what a burst left behind (dead request buffers, a
   * grown heap) is freed now rather than at the next traffic; and, still idle 5.2 s
   * later, one more, at which V8 gives back the young generation it grew under load.
   * Whether resident memory then falls depends on the allocator: see the host README's
   * "Memory after a burst". Needs `collectGarbage`. 0 turns it off.
   * @default 1000
   */
  idleCollectMs?: number
  /**
   * Runs one full garbage collection, for `idleCollectMs`. The CLI passes V8's `gc`.
   * @default globalThis.gc (defined when node runs with `--expose-gc`; without it there is no idle collection)
   */
  collectGarbage?: () => void
  /**
   * Where shutdown progress and unexpected errors are logged.
   * @default console
   */
  logger?: Pick<Console, 'error' | 'info'>
  /**
   * Awaited as the first step of a graceful close, while HTTP and gRPC still serve (and
   * before `drainDelayMs`): `inferpool serve --nats` stops its NATS consumer there (no
   * more pulling; the requests it holds get their results and acks) before the pools
   * drain. It bounds itself: the shutdown timeout starts after it. A forced close
   * (`destroy()`, `close({ drain: false })`) does not wait for it.
   * @default undefined
   */
  beforeClose?: () => Promise<void>
  /**
   * Awaited as the last step of closing, before a signal's shutdown exits the process:
   * `inferpool serve` exports the spans still buffered there (a failure is logged).
   * @default undefined
   */
  afterClose?: () => Promise<void>
}

export const SERVER_DEFAULTS = {
  port: 8000,
  host: '127.0.0.1',
  shutdownTimeoutMs: 30_000,
  headersTimeoutMs: 20_000,
  idleTimeoutMs: 30_000,
  drainDelayMs: 0,
  idleCollectMs: 1_000,
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
  /** The gRPC server when `grpcPort` is set. */
  readonly grpc: InferpoolGrpcServer | undefined
  /** gRPC `host:port` once listening, else `undefined`. */
  readonly grpcAddress: string | undefined
  /** Starts listening on `options.port`/`options.host`; resolves with the URL. */
  listen(): Promise<string>
  /**
   * Graceful shutdown (see the module comment); `drain: false` skips straight to the
   * forced step. A second call returns the same promise; a later `close({ drain: false })`
   * or `destroy()` takes over at once.
   */
  close(options?: CloseOptions): Promise<ShutdownResult>
  /**
   * Forced shutdown at once, also during a graceful one: with `closePools`, the pools are
   * destroyed (queued and running rows fail, with `error` if given); every request in
   * progress is answered 503 `ERR_SHUTTING_DOWN`, then the connections are closed.
   */
  destroy(error?: Error): Promise<ShutdownResult>
  /** `close()` or `destroy()` was called. */
  readonly closed: boolean
  /** `destroy()` was called. */
  readonly destroyed: boolean
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
  checkInteger('port', port, 0, 65535)
  if (typeof host !== 'string' || host.length === 0) invalidOption('type', 'host', 'a non-empty string', host)
  const shutdownTimeoutMs = checkTimerMs('shutdownTimeoutMs', options.shutdownTimeoutMs ?? SERVER_DEFAULTS.shutdownTimeoutMs, 0)
  const closePools = booleanOption('closePools', options.closePools, SERVER_DEFAULTS.closePools)
  const handleSignals = booleanOption('handleSignals', options.handleSignals, SERVER_DEFAULTS.handleSignals)
  const headersTimeoutMs = checkTimerMs('headersTimeoutMs', options.headersTimeoutMs ?? SERVER_DEFAULTS.headersTimeoutMs, 1)
  const idleTimeoutMs = checkTimerMs('idleTimeoutMs', options.idleTimeoutMs ?? SERVER_DEFAULTS.idleTimeoutMs, 1)
  const drainDelayMs = checkTimerMs('drainDelayMs', options.drainDelayMs ?? SERVER_DEFAULTS.drainDelayMs, 0)
  const logger = options.logger ?? console
  const idleCollectMs = checkTimerMs('idleCollectMs', options.idleCollectMs ?? SERVER_DEFAULTS.idleCollectMs, 0)
  const collectGarbage = options.collectGarbage ?? (globalThis.gc as (() => void) | undefined)
  if (collectGarbage !== undefined && typeof collectGarbage !== 'function') {
    invalidOption('type', 'collectGarbage', 'a function', collectGarbage)
  }

  const handler = createRequestHandler(pools, options)
  const served = handler.served
  const server = createHttpServer(
    {
      headersTimeout: headersTimeoutMs,
      // A backstop behind the handler's own body timeout (which answers 408 itself).
      requestTimeout: headersTimeoutMs + served.options.bodyTimeoutMs + 1_000,
      keepAliveTimeout: idleTimeoutMs,
      // How often Node checks the two timeouts above (its default, 30 s, would let a
      // stalled client stay up to 30 s longer than configured).
      connectionsCheckingInterval: 1_000,
    },
    handler,
  )
  const connections = new ConnectionTracker(server)
  const idleCollection =
    idleCollectMs === 0 || collectGarbage === undefined
      ? undefined
      : new IdleCollection({
          afterMs: idleCollectMs,
          collect: collectGarbage,
          grown: youngGenerationGrown(),
          onCollected: () => served.metrics.idleCollected(),
          logger,
        })
  // Quiet means no request of any kind in progress; worth collecting, an inference since the last collection.
  served.active.watch(idleCollection)
  served.admitting.watch(idleCollection && { busy: () => idleCollection.inferenceStarted(), idle: () => {} })
  const grpc =
    options.grpcPort === undefined
      ? undefined
      : createGrpcServer(createGrpcService(served), {
          port: options.grpcPort,
          host,
          maxMessageBytes: options.maxMessageBytes ?? served.options.maxBodyBytes,
          maxConcurrentStreams: options.maxConcurrentStreams,
        })
  let url: string | undefined

  const onSignal = (signal: NodeJS.Signals): void => {
    if (lifecycle.closed) {
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

  const logFailure = (error: unknown): void => logger.error('inferpool: closing pools failed', error)

  let forced = false
  /** Admitted requests (rows in a pool) cut off by a forced step. */
  let lost = 0
  let markForced!: () => void
  /** Resolves when a forced step starts: the graceful steps stop waiting then. */
  const forcedStart = new Promise<void>((resolve) => {
    markForced = () => {
      if (!forced) lost = served.admitted.count
      forced = true
      resolve()
    }
  })
  const within = (step: Promise<unknown>): Promise<unknown> => Promise.race([step, forcedStart])
  let timer: NodeJS.Timeout | undefined
  let stopped: { handlerClosed: Promise<void>; serverClosed: Promise<void>; grpcClosed: Promise<void> } | undefined
  /**
   * Stops accepting (once): the server stops listening (answering, not resetting, the
   * connections it had accepted), the handler answers new requests 503, and the gRPC
   * server refuses new calls and ends open streams once idle.
   */
  const stopAccepting = (): NonNullable<typeof stopped> => {
    if (stopped !== undefined) return stopped
    idleCollection?.close()
    // A model load in progress ends now (its request is answered): it could outlast any shutdown timeout.
    served.control?.abort?.()
    const handlerClosed = handler.close()
    const serverClosed = connections.stopAccepting(server, served.options.lingerMs)
    const grpcClosed = grpc?.close() ?? Promise.resolve()
    stopped = { handlerClosed, serverClosed, grpcClosed }
    return stopped
  }
  const finish = async (): Promise<void> => {
    await stopAccepting().serverClosed
    // http.Server's own close: stops its timeout checks (every connection is gone).
    if (!server.listening) server.close()
    // The model repository's own leftovers (pools not serving, upload directories).
    await served.control?.close?.().catch(logFailure)
    await options.afterClose?.().catch(logFailure)
    clearTimeout(timer)
    if (handleSignals) for (const signal of SIGNALS) process.off(signal, onSignal)
  }

  const lifecycle = new Lifecycle({
    async drain() {
      const before = options.beforeClose?.().catch((error: unknown) => logger.error('inferpool: the step before closing failed', error))
      if (before !== undefined) await within(before)
      if (server.listening) {
        // Not ready, still serving: new connections keep being answered meanwhile.
        served.drain()
        // A harder step (destroy, close({ drain: false })) ends the delay at once.
        if (drainDelayMs > 0) {
          let delay: NodeJS.Timeout | undefined
          await within(new Promise((resolve) => (delay = setTimeout(resolve, drainDelayMs))))
          clearTimeout(delay)
        }
        // Connections that were on their way when the shutdown began are accepted (and
        // so answered) rather than left in the accept queue for the kernel to reset.
        await connections.acceptQuiet(ACCEPT_QUIET_MS, ACCEPT_QUIET_MAX_MS)
      }
      // Past the deadline the shutdown is forced: an escalation like a caller's.
      timer = setTimeout(() => void lifecycle.close({ drain: false }).catch(logFailure), shutdownTimeoutMs)
      const { handlerClosed, grpcClosed } = stopAccepting()
      // The handler takes the requests this round's reads bring (they arrived before the
      // close) and closes after them: they are counted in `admitting` before it is waited on.
      await untilReadsDone()
      await within(served.admitting.empty())
      if (closePools) await within(served.eachPool((pool) => pool.close?.({ drain: true })))
      await within(handlerClosed)
      await within(grpcClosed)
    },
    async abandon() {
      markForced()
      stopAccepting()
      if (closePools) {
        // Queued rows fail now (503). Running batches may never end: not waited for.
        served.eachPool((pool) => pool.close?.({ drain: false })).catch(logFailure)
        // Every request still in progress is answered (503) before its connection closes.
        await handler.close({ drain: false })
      }
      connections.destroyAll()
      await grpc?.close({ force: true })
    },
    release: finish,
    async destroy(error) {
      markForced()
      stopAccepting()
      // The handler first: its requests are answered 503 (ERR_SHUTTING_DOWN), whatever
      // error the pools' rows then fail with.
      const answered = handler.destroy(error)
      if (closePools)
        served.eachPool((pool) => (pool.destroy !== undefined ? pool.destroy(error) : pool.close?.({ drain: false }))).catch(logFailure)
      await answered
      connections.destroyAll()
      await grpc?.close({ force: true })
      await finish()
    },
  })
  /** One `ShutdownResult` promise per lifecycle promise, so a repeated call gets the same one. */
  const results = new WeakMap<Promise<void>, Promise<ShutdownResult>>()
  const result = (ended: Promise<void>): Promise<ShutdownResult> => {
    let outcome = results.get(ended)
    if (outcome === undefined) {
      outcome = ended.then(() => ({ forced, lost }))
      results.set(ended, outcome)
    }
    return outcome
  }
  const close = (closeOptions?: CloseOptions): Promise<ShutdownResult> => result(lifecycle.close(closeOptions))

  return {
    server,
    handler,
    get url() {
      return url
    },
    grpc,
    get grpcAddress() {
      return grpc?.address
    },
    async listen() {
      const listening = await new Promise<string>((resolve, reject) => {
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
      await grpc?.listen()
      return listening
    },
    close,
    destroy: (error) => result(lifecycle.destroy(error)),
    get closed() {
      return lifecycle.closed
    },
    get destroyed() {
      return lifecycle.destroyed
    },
  }
}

/** Creates a server and starts listening; resolves once it accepts connections. */
export async function serve(pools: PoolsByModel, options: ServerOptions = {}): Promise<InferpoolServer> {
  const server = createServer(pools, options)
  await server.listen()
  return server
}
