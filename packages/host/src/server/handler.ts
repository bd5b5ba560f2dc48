/**
 * `createRequestHandler`: the Open Inference Protocol (KServe v2 REST) over one pool per
 * model, as a plain `(req, res)` handler for `node:http` — it mounts as is in Express
 * or Connect (unmatched paths go to `next`) and in Fastify through `reply.raw`.
 *
 * Routes:
 *   GET  /v2/health/live                       always 200 while the process answers
 *   GET  /v2/health/ready                      200 once every pool has loaded, 503 before / while closing
 *   GET  /v2                                   server metadata
 *   GET  /v2/models/{name}[/versions/1]        model metadata
 *   GET  /v2/models/{name}[/versions/1]/ready  200 / 503
 *   POST /v2/models/{name}[/versions/1]/infer  inference; each row goes through the pool on its own
 *   GET  /metrics                              Prometheus text format
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import { performance } from 'node:perf_hooks'
import { Registry } from 'prom-client'
import type { RowOutput } from '../types.js'
import { ClientGoneError, parseJson, readBody } from './body.js'
import { protocolDatatype } from './datatypes.js'
import { decodeInferRequest } from './decode.js'
import { MODEL_VERSION, encodeInferResponse } from './encode.js'
import {
  INTERNAL_ERROR_CODE,
  MethodNotAllowedError,
  ModelNotFoundError,
  ModelNotReadyError,
  RouteNotFoundError,
  ShuttingDownError,
  UnauthorizedError,
  httpStatusOf,
} from './errors.js'
import { invalidInput } from './invalid-input.js'
import { ServerMetrics } from './metrics.js'
import { resolveHandlerOptions } from './options.js'
import type { RequestHandlerOptions, ResolvedHandlerOptions } from './options.js'
import type { ServedPool } from './served-pool.js'

/** A pool, or a promise of one still loading (the server reports not-ready until it resolves). */
export type PoolSource = ServedPool | PromiseLike<ServedPool>

/** Pools by model name: the name is the `{name}` of `/v2/models/{name}/...`. */
export type PoolsByModel = Readonly<Record<string, PoolSource>> | ReadonlyMap<string, PoolSource>

/** The `(req, res)` handler, with the state a server built around it needs. */
export interface InferpoolRequestHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void
  /** The registry `/metrics` serves. */
  readonly registry: Registry
  /** Served model names. */
  readonly models: readonly string[]
  /** Requests being answered now (every route). */
  readonly activeRequests: number
  /** Resolves once every pool has loaded; rejects with the first load failure. */
  ready(): Promise<void>
  /**
   * Stops taking inference requests (they get 503 `ERR_SHUTTING_DOWN` and
   * `Connection: close`), reports not-ready, and resolves once every request in
   * progress has been answered. Does not close the pools. A second call returns the
   * same promise.
   */
  close(): Promise<void>
}

type ModelState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly pool: ServedPool }
  | { readonly kind: 'failed'; readonly error: unknown }

interface ModelEntry {
  readonly name: string
  state: ModelState
  readonly loaded: Promise<void>
}

const SERVER_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version
const GET = ['GET', 'HEAD'] as const
const POST = ['POST'] as const

function isPromiseLike(value: PoolSource): value is PromiseLike<ServedPool> {
  return typeof (value as { then?: unknown }).then === 'function'
}

function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** Waiters for a counter to reach zero. */
class Gate {
  #count = 0
  #waiters: Array<() => void> = []
  get count(): number {
    return this.#count
  }
  enter(): void {
    this.#count++
  }
  leave(): void {
    this.#count--
    if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake()
  }
  empty(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve))
  }
}

class Handler {
  readonly options: ResolvedHandlerOptions
  readonly metrics: ServerMetrics
  readonly models = new Map<string, ModelEntry>()
  /** Every request being answered. */
  readonly active = new Gate()
  /**
   * Inference requests that have not yet handed their rows to the pool (still reading
   * or checking the body). A graceful shutdown waits for these before closing the
   * pools, so no request that arrived in time meets a closed pool.
   */
  readonly admitting = new Gate()
  readonly #apiKeyDigest: Buffer | undefined
  readonly #detach: Array<() => void> = []
  /** The error code each failed response carried, for the request metrics. */
  readonly #errorCodes = new WeakMap<ServerResponse, string>()
  #closing: Promise<void> | undefined

  constructor(pools: PoolsByModel, options: RequestHandlerOptions | undefined) {
    this.options = resolveHandlerOptions(options)
    const entries = pools instanceof Map ? [...pools.entries()] : Object.entries(pools as Record<string, PoolSource>)
    if (entries.length === 0) throw new TypeError('Expected `pools` to hold at least one model, got none')
    this.metrics = new ServerMetrics({
      registry: this.options.registry ?? new Registry(),
      processMetrics: this.options.processMetrics,
    })
    for (const [name, source] of entries) this.#addModel(name, source)
    this.#apiKeyDigest = this.options.apiKey === undefined ? undefined : sha256(this.options.apiKey)
  }

  get closing(): boolean {
    return this.#closing !== undefined
  }

  #addModel(name: string, source: PoolSource): void {
    if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(name)) {
      throw new TypeError(`Expected model names to match /^[A-Za-z0-9][A-Za-z0-9_.-]*$/, got \`${String(name)}\``)
    }
    if (source === null || typeof source !== 'object') {
      throw new TypeError(`Expected \`pools.${name}\` to be a pool or a promise of one, got \`${String(source)}\``)
    }
    const entry: ModelEntry = {
      name,
      state: { kind: 'loading' },
      // Settles (never rejects) so a failed load is never an unhandled rejection; the
      // failure is kept in `state` and reported by the ready/infer routes.
      loaded: Promise.resolve(source).then(
        (pool) => {
          entry.state = { kind: 'ready', pool }
          this.#detach.push(this.metrics.attach(name, pool))
        },
        (error: unknown) => {
          entry.state = { kind: 'failed', error }
        },
      ),
    }
    if (!isPromiseLike(source)) {
      entry.state = { kind: 'ready', pool: source }
    }
    this.models.set(name, entry)
  }

  async ready(): Promise<void> {
    await Promise.all([...this.models.values()].map((entry) => entry.loaded))
    for (const entry of this.models.values()) {
      if (entry.state.kind === 'failed') throw entry.state.error
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.active.empty().then(() => {
      for (const detach of this.#detach.splice(0)) detach()
    })
    return this.#closing
  }

  #authorized(req: IncomingMessage): boolean {
    const expected = this.#apiKeyDigest
    if (expected === undefined) return true
    const header = req.headers.authorization
    if (typeof header !== 'string' || header.slice(0, 7).toLowerCase() !== 'bearer ') return false
    // Both sides hashed to 32 bytes: the comparison takes the same time whatever the
    // token's length or content.
    return timingSafeEqual(sha256(header.slice(7).trim()), expected)
  }

  handle(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void {
    const url = req.url ?? '/'
    const query = url.indexOf('?')
    const path = query === -1 ? url : url.slice(0, query)
    // Mounted in a framework, paths that are not ours go on to the next handler.
    if (next !== undefined && path !== '/metrics' && path !== '/v2' && !path.startsWith('/v2/')) return next()
    this.active.enter()
    res.once('close', () => this.active.leave())
    this.#route(req, res, path).catch((error: unknown) => this.#sendError(req, res, error))
  }

  async #route(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const parts = path.split('/')
    const method = req.method ?? 'GET'

    if (path === '/v2/health/live') {
      return this.#only(req, GET, () => this.#sendJson(req, res, 200, { live: true }))
    }
    if (path === '/v2/health/ready') {
      return this.#only(req, GET, () => {
        const ready = !this.closing && [...this.models.values()].every((e) => e.state.kind === 'ready')
        this.#sendJson(req, res, ready ? 200 : 503, { ready })
      })
    }
    const isMetrics = path === '/metrics'
    const isModelRoute = parts[1] === 'v2' && (parts.length === 2 || parts[2] === 'models')
    if (!isMetrics && !isModelRoute) throw new RouteNotFoundError(path)
    if (!this.#authorized(req)) throw new UnauthorizedError()

    if (isMetrics) {
      return this.#only(req, GET, async () => {
        await this.metrics.refresh()
        const text = await this.options.collectMetrics(this.metrics.registry)
        this.#send(req, res, 200, text, this.metrics.registry.contentType)
      })
    }
    if (parts.length === 2) {
      return this.#only(req, GET, () =>
        this.#sendJson(req, res, 200, { name: 'inferpool', version: SERVER_VERSION, extensions: [] }),
      )
    }

    // /v2/models/{name}[/versions/{version}][/ready|/infer]
    let name: string
    let version: string | undefined
    try {
      name = decodeURIComponent(parts[3] ?? '')
      version = parts[4] === 'versions' ? decodeURIComponent(parts[5] ?? '') : undefined
    } catch {
      throw new RouteNotFoundError(path)
    }
    const rest = parts.slice(version === undefined ? 4 : 6)
    const action = rest.length === 0 ? 'metadata' : rest.length === 1 ? rest[0] : undefined
    if (name === '' || (action !== 'metadata' && action !== 'ready' && action !== 'infer')) {
      throw new RouteNotFoundError(path)
    }
    const entry = this.models.get(name)
    if (entry === undefined || (version !== undefined && version !== MODEL_VERSION)) {
      throw new ModelNotFoundError(name, version)
    }
    if (action === 'infer') {
      if (method !== 'POST') throw new MethodNotAllowedError(method, POST)
      return this.#infer(req, res, entry)
    }
    return this.#only(req, GET, () => {
      if (action === 'ready') {
        const ready = !this.closing && entry.state.kind === 'ready'
        return this.#sendJson(req, res, ready ? 200 : 503, { name, ready })
      }
      const pool = this.#poolOf(entry)
      const metadata = pool.metadata
      const tensor = (t: (typeof metadata.inputs)[number]): object => ({
        name: t.name,
        datatype: protocolDatatype(t.type),
        shape: t.dims.map((d) => (typeof d === 'number' && d >= 0 ? d : -1)),
      })
      this.#sendJson(req, res, 200, {
        name,
        versions: [MODEL_VERSION],
        platform: 'onnxruntime_onnx',
        inputs: metadata.inputs.map(tensor),
        outputs: metadata.outputs.map(tensor),
        parameters: {
          max_batch_size: metadata.maxBatchSize,
          fixed_batch_size: metadata.fixedBatchSize,
          replicas: metadata.replicas,
          concurrency: metadata.concurrency,
          execution_provider: metadata.executionProvider,
        },
      })
    })
  }

  #poolOf(entry: ModelEntry): ServedPool {
    const state = entry.state
    if (state.kind === 'ready') return state.pool
    throw new ModelNotReadyError(entry.name, state.kind === 'failed' ? state.error : undefined)
  }

  async #only(req: IncomingMessage, methods: readonly string[], answer: () => void | Promise<void>): Promise<void> {
    const method = req.method ?? 'GET'
    if (!methods.includes(method)) throw new MethodNotAllowedError(method, methods)
    await answer()
  }

  async #infer(req: IncomingMessage, res: ServerResponse, entry: ModelEntry): Promise<void> {
    const started = performance.now()
    let rows = 0
    res.once('close', () => {
      // 499 (nginx's "client closed request") when the client left before the answer.
      const status = res.writableFinished ? res.statusCode : 499
      const code = status >= 400 ? (this.#errorCodes.get(res) ?? INTERNAL_ERROR_CODE) : undefined
      this.metrics.request(entry.name, status, (performance.now() - started) / 1000, rows, status === 499 ? undefined : code)
    })
    this.admitting.enter()
    let admitted = true
    const admit = (): void => {
      if (admitted) {
        admitted = false
        this.admitting.leave()
      }
    }
    try {
      if (this.closing) throw new ShuttingDownError()
      const pool = this.#poolOf(entry)
      if (req.headers['inference-header-content-length'] !== undefined) {
        // The binary tensor data extension: a JSON header followed by raw tensor bytes.
        throw invalidInput('The binary tensor data extension is not supported; send tensor data as JSON')
      }
      const body = await readBody(req, this.options.maxBodyBytes)
      const request = decodeInferRequest(parseJson(body), pool.metadata, { maxRows: this.options.maxRowsPerRequest })
      rows = request.rows.length

      // Aborts the rows still queued when the client leaves or another row of this
      // request fails: their answer could no longer be sent.
      const controller = new AbortController()
      const onClose = (): void => {
        if (!res.writableFinished) controller.abort()
      }
      res.once('close', onClose)
      const inferOptions = { signal: controller.signal, timeoutMs: this.options.timeoutMs }
      let results: RowOutput[]
      try {
        const pending = request.rows.map((row) => {
          try {
            return pool.infer(row, inferOptions)
          } catch (error) {
            return Promise.reject(error)
          }
        })
        admit()
        results = await Promise.all(pending)
      } catch (error) {
        controller.abort()
        throw error
      } finally {
        res.off('close', onClose)
      }
      this.#send(req, res, 200, encodeInferResponse(entry.name, request.id, request.outputs, results))
    } finally {
      admit()
    }
  }

  #sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
    this.#send(req, res, status, JSON.stringify(body))
  }

  #send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: string,
    contentType = 'application/json; charset=utf-8',
    headers?: Record<string, string>,
  ): void {
    if (res.headersSent || res.destroyed) return
    res.statusCode = status
    res.setHeader('content-type', contentType)
    res.setHeader('content-length', Buffer.byteLength(body))
    if (headers !== undefined) for (const [key, value] of Object.entries(headers)) res.setHeader(key, value)
    // While draining, keep-alive connections are closed after their answer so the
    // server's close() can finish.
    if (this.closing) res.setHeader('connection', 'close')
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  #sendError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    // The client left (its rows were aborted on the way): nobody is left to answer.
    if (error instanceof ClientGoneError || res.destroyed) return
    const ownCode = errorCodeOf(error)
    const status = ownCode === undefined ? 500 : httpStatusOf(ownCode)
    // A 500 with an `ERR_` code is one of ours (a worker crash, a bad batch) and is
    // reported as is; anything else is an unexpected failure whose text stays in the log.
    const known = ownCode !== undefined && ownCode.startsWith('ERR_')
    const code = known ? ownCode : INTERNAL_ERROR_CODE
    const message = known && error instanceof Error ? error.message : 'Internal server error'
    if (status === 500) this.options.logger.error('inferpool: request failed', error)
    this.#errorCodes.set(res, code)
    const headers: Record<string, string> = {}
    if (code === 'ERR_QUEUE_FULL') headers['retry-after'] = String(this.options.retryAfterSeconds)
    if (error instanceof UnauthorizedError) headers['www-authenticate'] = 'Bearer'
    if (error instanceof MethodNotAllowedError) headers.allow = error.allowed.join(', ')
    // The body was not (fully) read: close the connection rather than read it to the end.
    if (code === 'ERR_PAYLOAD_TOO_LARGE' || code === 'ERR_UNSUPPORTED_MEDIA_TYPE') headers.connection = 'close'
    if (res.headersSent) {
      res.destroy()
      return
    }
    this.#send(req, res, status, JSON.stringify({ error: { code, message } }), undefined, headers)
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

const internals = new WeakMap<InferpoolRequestHandler, Handler>()

/** The handler's inner state, for `createServer`'s graceful shutdown. @internal */
export function handlerInternals(handler: InferpoolRequestHandler): Handler {
  const inner = internals.get(handler)
  if (inner === undefined) throw new TypeError('Expected a handler made by createRequestHandler')
  return inner
}

/**
 * Creates the Open Inference Protocol handler over one pool per model name.
 *
 * ```ts
 * const pool = await createPool({ model: 'model.onnx' })
 * http.createServer(createRequestHandler({ mymodel: pool })).listen(8000, '127.0.0.1')
 * ```
 */
export function createRequestHandler(pools: PoolsByModel, options?: RequestHandlerOptions): InferpoolRequestHandler {
  if (pools === null || typeof pools !== 'object') {
    throw new TypeError(`Expected \`pools\` to be an object or a Map of pools by model name, got \`${String(pools)}\``)
  }
  const inner = new Handler(pools, options)
  const handler = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) =>
    inner.handle(req, res, next)) as InferpoolRequestHandler
  Object.defineProperties(handler, {
    registry: { value: inner.metrics.registry, enumerable: true },
    models: { value: Object.freeze([...inner.models.keys()]), enumerable: true },
    activeRequests: { get: () => inner.active.count, enumerable: true },
    ready: { value: () => inner.ready() },
    close: { value: () => inner.close() },
  })
  internals.set(handler, inner)
  return handler
}
