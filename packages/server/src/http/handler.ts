/**
 * `createRequestHandler`: the Open Inference Protocol (KServe v2 REST) over one pool per
 * model, as a plain `(req, res)` handler for `node:http` — it mounts as is in Express
 * or Connect (unmatched paths go to `next`) and in Fastify through `reply.raw`.
 *
 * Routes (declared in routes.ts, each with who may call it: the health checks are open,
 * the repository extension takes the repository token, every other route the bearer):
 *   GET  /v2/health/live                       always 200 while the process answers
 *   GET  /v2/health/ready                      200 once every pool has loaded, 503 before / while closing
 *   GET  /v2                                   server metadata, with the extensions served
 *   GET  /v2/models/{name}[/versions/{v}]        model metadata (no version: the newest ready one)
 *   GET  /v2/models/{name}[/versions/{v}]/ready  200 / 400 (as Triton)
 *   GET  /v2/models/{name}[/versions/{v}]/config Triton's model configuration (protocol/triton/)
 *   GET  /v2/models[/{name}[/versions/{v}]]/stats Triton's statistics (protocol/triton/)
 *   POST /v2/models/{name}[/versions/{v}]/infer  inference, JSON or binary tensor data (binary.ts);
 *                                              its rows enter the pool together (protocol/submit-rows.ts)
 *   POST /v2/repository/index, /v2/repository/models/{name}/load|unload
 *                                              the model repository extension, when on (repository-routes.ts)
 *   GET  /metrics                              Prometheus text format
 */
import { context } from '@opentelemetry/api'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import { Lifecycle } from '@inferpool/host/internal'
import type { CloseOptions } from '@inferpool/host/internal'
import type { BodyReader } from './body.js'
import { RequestSignals } from './request-signals.js'
import { ShuttingDownError } from '../protocol/errors.js'
import type { RequestHandlerOptions, ResolvedHandlerOptions } from '../protocol/options.js'
import { ServedModels } from '../protocol/served-models.js'
import type { PoolsByModel, ServedModel } from '../protocol/served-models.js'
import { HttpExchange } from './infer-exchange.js'
import type { HttpExchangeContext } from './infer-exchange.js'
import { ResponseWriter } from './response-writer.js'
import { checkRoute, HTTP_ROUTES, routeTable } from './routes.js'
import type { RequestState, RouteContext, RouteTable } from './routes.js'

/** The `(req, res)` handler, with the state a server built around it needs. */
export interface InferpoolRequestHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void
  /** The served models (shared with a gRPC service over the same pools: `createGrpcService(handler.served)`). */
  readonly served: ServedModels
  /** The registry `/metrics` serves. */
  readonly registry: Registry
  /** Served model names. */
  readonly models: readonly string[]
  /** Requests being answered now (every route). */
  readonly activeRequests: number
  /**
   * The bytes requests still arriving hold now (HTTP bodies and gRPC messages together),
   * the `maxPendingBodyBytes` limit, and how many requests were refused for it: a snapshot.
   */
  readonly pendingBodyBytes: { readonly held: number; readonly limit: number; readonly refused: number }
  /** Resolves once every pool has loaded; rejects with the first load failure. */
  ready(): Promise<void>
  /**
   * Stops taking inference requests (those arriving from now on get 503
   * `ERR_SHUTTING_DOWN` and `Connection: close`), reports not-ready, and resolves once
   * every request in progress has been answered: one whose body is still arriving or
   * that waits at the door for room arrived before, and is served. With `drain: false` the requests in progress are
   * answered at once with 503 `ERR_SHUTTING_DOWN` (their rows leave the pools' queues).
   * Does not close the pools. A second call returns the same promise; a later
   * `close({ drain: false })` or `destroy()` takes over at once.
   */
  close(options?: CloseOptions): Promise<void>
  /** As `close({ drain: false })`, at once, also after a draining `close()`. */
  destroy(error?: Error): Promise<void>
  /** `close()` or `destroy()` was called. */
  readonly closed: boolean
  /** `destroy()` was called. */
  readonly destroyed: boolean
}

class Handler implements RouteContext {
  readonly served: ServedModels
  readonly options: ResolvedHandlerOptions
  /** Aborts the body reads in progress when the handler is closed without draining. */
  readonly #reads = new Set<BodyReader>()
  /** The abort controllers of requests (of their connections), those in progress cut short (503) by aborting them. */
  readonly #signals = new RequestSignals()
  readonly writer: ResponseWriter
  readonly #routes: RouteTable
  /** What every inference exchange shares (made once). */
  readonly #exchanges: HttpExchangeContext
  readonly lifecycle = new Lifecycle({
    // A draining close refuses only the requests that arrive from now on: one whose headers
    // came before is accepted work, served whether it is parked at the door or its body is
    // still arriving (a stalled body still gets its 408 at the body timeout), as Go's
    // Server.Shutdown and nginx finish every request whose headers arrived. Headers that
    // reached the process before the close but are not read yet (the event loop was busy:
    // they wait in the socket) count as arrived: the served models close after this
    // round's reads (`untilReadsDone`).
    drain: async () => {
      await untilReadsDone()
      this.served.close()
      return this.served.active.empty()
    },
    abandon: () => this.#cutShort(),
    release: () => {
      this.served.detach()
      return Promise.resolve()
    },
    destroy: async () => {
      await this.#cutShort()
      this.served.detach()
    },
  })

  constructor(served: ServedModels) {
    this.served = served
    this.options = served.options
    this.writer = new ResponseWriter(served)
    this.#routes = routeTable(HTTP_ROUTES, served)
    this.#exchanges = {
      options: served.options,
      limits: { maxRows: served.options.maxRowsPerRequest },
      reads: this.#reads,
      signals: this.#signals,
      writer: this.writer,
    }
  }

  /** Answers every inference request in progress with 503 now; resolves once every request is answered. */
  #cutShort(): Promise<void> {
    // No new inference request (on either protocol: the served models close); those
    // parked at the door, those whose body is still arriving and those in the pools, all
    // answered 503 now.
    this.served.close()
    this.served.refuseParked()
    const shuttingDown = new ShuttingDownError()
    for (const reader of this.#reads) reader.abort(shuttingDown)
    this.#signals.abortInFlight(shuttingDown)
    return this.served.active.empty()
  }

  handle(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void {
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const path = query === -1 ? url : url.slice(0, query)
    // Mounted in a framework, paths that are not ours go on to the next handler.
    if (next !== undefined && path !== '/metrics' && path !== '/v2' && !path.startsWith('/v2/')) return next()
    const active = this.served.active
    active.enter()
    // The one 'close' listener of the request (res emits 'close' once: `on`, not the
    // costlier `once`); an inference request's exchange records it there.
    const state: RequestState = { exchange: undefined, name: '', version: undefined }
    res.on('close', () => {
      active.leave()
      state.exchange?.closed()
    })
    this.#route(req, res, path, state).catch((error: unknown) => this.#sendError(req, res, error, state))
  }

  /** The request's route (routes.ts): matched, its caller and method checked, the model it names looked up, answered. */
  async #route(req: IncomingMessage, res: ServerResponse, path: string, state: RequestState): Promise<void> {
    const route = this.#routes.match(path, state)
    checkRoute(route, req, this.served)
    // Looked up once the caller is known to be allowed: an unknown model's 404 tells nothing to one who is not.
    const model = state.name === '' || route.lookup === false ? undefined : this.served.model(state.name, state.version)
    await route.handler(this, req, res, state, model, path)
  }

  /** An inference request: its exchange (infer-exchange.ts) does it all, from the door to the answer. */
  infer(req: IncomingMessage, res: ServerResponse, entry: ServedModel, state: RequestState): Promise<void> {
    const exchange = new HttpExchange(this.served, this.#exchanges, req, res)
    state.exchange = exchange
    return exchange.run({ model: entry, signal: exchange.controller.signal })
  }

  #sendError(req: IncomingMessage, res: ServerResponse, error: unknown, state: RequestState): void {
    const exchange = state.exchange
    const traced = exchange?.traceContext
    // Traced, the line logged for a 500 carries the request's trace and span ids.
    const code =
      traced === undefined
        ? this.writer.error(req, res, error, exchange?.retryAfterSeconds)
        : context.with(traced, () => this.writer.error(req, res, error, exchange?.retryAfterSeconds))
    if (exchange !== undefined) exchange.errorCode = code
  }
}

/**
 * Resolves once the event loop has read what its sockets held when this was called: after
 * one whole poll phase (which reads them) begun after the call. An immediate runs after
 * this round's poll, whose ready sockets may have been collected before the call (when it
 * is made from an I/O callback); an immediate queued from it runs after the next round's
 * poll. A draining close takes the requests those reads bring as arrived before it.
 */
export function untilReadsDone(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
}

/**
 * Creates the Open Inference Protocol handler over one pool per model name, or over
 * served models shared with a gRPC service (`createGrpcService(handler.served)` serves
 * the same ones).
 *
 * ```ts
 * const pool = await createPool({ model: 'model.onnx' })
 * http.createServer(createRequestHandler({ mymodel: pool })).listen(8000, '127.0.0.1')
 * ```
 */
export function createRequestHandler(pools: PoolsByModel | ServedModels, options?: RequestHandlerOptions): InferpoolRequestHandler {
  if (pools instanceof ServedModels && options !== undefined) {
    throw new TypeError('Expected no `options` with served models: they were given to `new ServedModels(pools, options)`')
  }
  const inner = new Handler(pools instanceof ServedModels ? pools : new ServedModels(pools, options))
  const handler = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) =>
    inner.handle(req, res, next)) as InferpoolRequestHandler
  const served = inner.served
  Object.defineProperties(handler, {
    served: { value: served, enumerable: true },
    registry: { value: served.metrics.registry, enumerable: true },
    models: { value: Object.freeze(served.names), enumerable: true },
    activeRequests: { get: () => served.active.count, enumerable: true },
    pendingBodyBytes: {
      get: () => ({ held: served.pendingBodyBytes.held, limit: served.pendingBodyBytes.limit, refused: served.pendingBodyBytes.refused }),
      enumerable: true,
    },
    ready: { value: () => served.ready() },
    close: { value: (options?: CloseOptions) => inner.lifecycle.close(options) },
    destroy: { value: (error?: Error) => inner.lifecycle.destroy(error) },
    closed: { get: () => inner.lifecycle.closed, enumerable: true },
    destroyed: { get: () => inner.lifecycle.destroyed, enumerable: true },
  })
  return handler
}
