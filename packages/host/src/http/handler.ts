/**
 * `createRequestHandler`: the Open Inference Protocol (KServe v2 REST) over one pool per
 * model, as a plain `(req, res)` handler for `node:http` — it mounts as is in Express
 * or Connect (unmatched paths go to `next`) and in Fastify through `reply.raw`.
 *
 * Routes:
 *   GET  /v2/health/live                       always 200 while the process answers
 *   GET  /v2/health/ready                      200 once every pool has loaded, 503 before / while closing
 *   GET  /v2                                   server metadata, with the extensions served
 *   GET  /v2/models/{name}[/versions/{v}]        model metadata (no version: the newest ready one)
 *   GET  /v2/models/{name}[/versions/{v}]/ready  200 / 503
 *   GET  /v2/models/{name}[/versions/{v}]/config Triton's model configuration (protocol/triton/)
 *   GET  /v2/models[/{name}[/versions/{v}]]/stats Triton's statistics (protocol/triton/)
 *   POST /v2/models/{name}[/versions/{v}]/infer  inference, JSON or binary tensor data (binary.ts);
 *                                              its rows enter the pool together (protocol/submit-rows.ts)
 *   POST /v2/repository/index, /v2/repository/models/{name}/load|unload
 *                                              the model repository extension, when on (repository-routes.ts)
 *   GET  /metrics                              Prometheus text format
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { Registry } from 'prom-client'
import { TimeoutError } from '@inferpool/core'
import { Lifecycle } from '../lifecycle.js'
import type { CloseOptions } from '../lifecycle.js'
import type { BlockOutput, RowOutput } from '../types.js'
import { BINARY_CONTENT_TYPE, declaredRows, HEADER_LENGTH_HEADER, headerLengthOf, readBinaryHeader } from './binary.js'
import type { BinaryBody } from './binary.js'
import { afterParse } from './after-parse.js'
import { BodyReader, ClientGoneError } from './body.js'
import { decodeInferRequest } from './decode-body.js'
import type { DecodeLimits } from '../protocol/decode.js'
import { encodeInferResponse } from './encode-body.js'
import { SERVER_NAME, SERVER_VERSION, modelMetadata } from '../protocol/metadata.js'
import { REPOSITORY_PREFIX, repositoryRoute } from './repository-routes.js'
import { RequestSignals } from './request-signals.js'
import { errorCodeOf, httpHeadersOf, httpStatusOf, INTERNAL_ERROR_CODE, publicErrorOf } from '../error-registry.js'
import { MethodNotAllowedError, RequestTimeoutError, RouteNotFoundError, ShuttingDownError, UnauthorizedError } from '../protocol/errors.js'
import { bodyUnread, lingerOnUnreadBody } from './linger.js'
import { submitRequest } from '../protocol/submit-rows.js'
import { shorterTimeout } from '../protocol/timeout.js'
import type { RequestHandlerOptions, ResolvedHandlerOptions } from '../protocol/options.js'
import { DoorPass, ServedModels } from '../protocol/served-models.js'
import type { PoolsByModel, ServedModel } from '../protocol/served-models.js'
import type { ServedPool } from '../protocol/served-pool.js'
import { modelConfigOf } from '../protocol/triton/config.js'

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

/**
 * The largest binary-request JSON header read before admission. A header of a few
 * inputs' names, types and shapes is well under 1 KiB; a larger one carries JSON
 * `data`, and reading and parsing it is the expense the door exists to avoid — so such
 * a request is counted like a JSON body, from its Content-Length, and its header is read
 * once admitted. It also bounds what a connection parked at the door holds in memory.
 */
const MAX_DOOR_HEADER_BYTES = 64 * 1024

/** What a request's one 'close' listener runs besides the route-wide bookkeeping. */
interface Exchange {
  closed: (() => void) | undefined
}

/** The content type of every JSON answer. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * The largest response body written in the same write as its head (one string or one
 * buffer, joined from its pieces); larger ones are written piece by piece under `cork`,
 * so their data is not copied once more. A single-row answer is a few hundred bytes.
 */
const ONE_WRITE_MAX_BYTES = 16 * 1024

const GET = ['GET', 'HEAD'] as const
const POST = ['POST'] as const

/** Per-model routes after `/v2/models/{name}[/versions/{version}]`. */
const MODEL_ACTIONS: ReadonlySet<string> = new Set(['metadata', 'ready', 'infer', 'config', 'stats'])

/** A path segment with its percent-escapes decoded (most have none: returned as it is). */
function decodePathPart(part: string): string {
  return part.includes('%') ? decodeURIComponent(part) : part
}

class Handler {
  readonly served: ServedModels
  readonly options: ResolvedHandlerOptions
  /** Aborts the body reads in progress when the handler closes. */
  readonly #reads = new Set<BodyReader>()
  /** The error code each failed response carried, for the request metrics. */
  readonly #errorCodes = new WeakMap<ServerResponse, string>()
  /** The abort controllers of requests (of their connections), those in progress cut short (503) by aborting them. */
  readonly #signals = new RequestSignals()
  /** `Retry-After` seconds of a 503 for lack of room, from the pool's drain rate. */
  readonly #retryAfter = new WeakMap<ServerResponse, number>()
  readonly lifecycle = new Lifecycle({
    // A draining close refuses only the requests that arrive from now on: one whose headers
    // came before is accepted work, served whether it is parked at the door or its body is
    // still arriving (a stalled body still gets its 408 at the body timeout), as Go's
    // Server.Shutdown and nginx finish every request whose headers arrived.
    drain: () => {
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

  /** The decoder's limits: the same for every request, so made once. */
  readonly #limits: DecodeLimits

  constructor(served: ServedModels) {
    this.served = served
    this.options = served.options
    this.#limits = { maxRows: served.options.maxRowsPerRequest }
  }

  get closing(): boolean {
    return this.served.closed
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
    // costlier `once`); an inference request adds its own ending to it (`exchange`).
    const exchange: Exchange = { closed: undefined }
    res.on('close', () => {
      active.leave()
      exchange.closed?.()
    })
    this.#route(req, res, path, exchange).catch((error: unknown) => this.#sendError(req, res, error))
  }

  async #route(req: IncomingMessage, res: ServerResponse, path: string, exchange: Exchange): Promise<void> {
    const parts = path.split('/')
    const method = req.method ?? 'GET'

    if (path === '/v2/health/live') {
      return this.#only(req, GET, () => this.#sendJson(req, res, 200, { live: true }))
    }
    if (path === '/v2/health/ready') {
      return this.#only(req, GET, () => {
        const ready = this.served.isReady()
        this.#sendJson(req, res, ready ? 200 : 503, { ready })
      })
    }
    if (path.startsWith(REPOSITORY_PREFIX)) {
      const answer = await repositoryRoute(this.served, req, path)
      return this.#sendJson(req, res, answer.status, answer.body)
    }
    const isMetrics = path === '/metrics'
    const isModelRoute = parts[1] === 'v2' && (parts.length === 2 || parts[2] === 'models')
    if (!isMetrics && !isModelRoute) throw new RouteNotFoundError(path)
    if (!this.served.authorized(req.headers.authorization)) throw new UnauthorizedError()

    if (isMetrics) {
      return this.#only(req, GET, async () => {
        const metrics = this.served.metrics
        await metrics.refresh()
        const text = await this.options.collectMetrics(metrics.registry)
        this.#send(req, res, 200, text, metrics.registry.contentType)
      })
    }
    if (parts.length === 2) {
      return this.#only(req, GET, () =>
        this.#sendJson(req, res, 200, { name: SERVER_NAME, version: SERVER_VERSION, extensions: this.served.extensions }),
      )
    }
    if (path === '/v2/models/stats') {
      // Every loaded model (Triton lists the models it has loaded).
      return this.#only(req, GET, () => {
        const stats = this.served.statistics()
        this.#sendJson(req, res, 200, { model_stats: stats })
      })
    }

    // /v2/models/{name}[/versions/{version}][/ready|/infer]
    let name: string
    let version: string | undefined
    try {
      name = decodePathPart(parts[3] ?? '')
      version = parts[4] === 'versions' ? decodePathPart(parts[5] ?? '') : undefined
    } catch {
      throw new RouteNotFoundError(path)
    }
    const after = version === undefined ? 4 : 6
    const action = parts.length === after ? 'metadata' : parts.length === after + 1 ? parts[after] : undefined
    if (name === '' || action === undefined || !MODEL_ACTIONS.has(action)) {
      throw new RouteNotFoundError(path)
    }
    const entry = this.served.model(name, version)
    if (action === 'infer') {
      if (method !== 'POST') throw new MethodNotAllowedError(method, POST)
      return this.#infer(req, res, entry, exchange)
    }
    return this.#only(req, GET, () => {
      if (action === 'ready') {
        const ready = this.served.isModelReady(entry)
        return this.#sendJson(req, res, ready ? 200 : 503, { name, ready })
      }
      if (action === 'stats') return this.#sendJson(req, res, 200, { model_stats: this.served.statistics(entry) })
      const pool = this.served.poolOf(entry)
      if (action === 'config') return this.#sendJson(req, res, 200, modelConfigOf(name, pool))
      const metadata = pool.metadata
      this.#sendJson(req, res, 200, {
        ...modelMetadata(name, this.served.versionsOf(entry), metadata),
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

  async #only(req: IncomingMessage, methods: readonly string[], answer: () => void | Promise<void>): Promise<void> {
    const method = req.method ?? 'GET'
    if (!methods.includes(method)) throw new MethodNotAllowedError(method, methods)
    await answer()
  }

  async #infer(req: IncomingMessage, res: ServerResponse, entry: ServedModel, exchange: Exchange): Promise<void> {
    const started = performance.now()
    // The version looked up stays open for this request until it is answered, even if reloaded meanwhile.
    const release = this.served.hold(entry)
    let rows = 0
    let pool: ServedPool | undefined
    // Aborts the rows still queued when the client leaves (their answer could no longer
    // be sent), and cuts the request short with ERR_SHUTTING_DOWN when the handler is
    // closed without draining. One signal for the whole request: its connection's.
    const controller = this.#signals.of(req)
    // At the request's 'close': the version is let go, the request's metrics recorded,
    // and a client gone before its answer aborts what is left of it (a body still
    // arriving and a wait at the door see the same 'close' themselves and end as
    // ClientGoneError).
    exchange.closed = () => {
      release()
      // 499 (nginx's "client closed request") when the client left before the answer.
      const finished = res.writableFinished
      if (!finished) controller.abort(new ClientGoneError())
      const status = finished ? res.statusCode : 499
      const code = status >= 400 ? (this.#errorCodes.get(res) ?? INTERNAL_ERROR_CODE) : undefined
      const elapsedMs = performance.now() - started
      this.served.recordRequest(entry, pool, 'http', status, status === 200, elapsedMs, rows, status === 499 ? undefined : code)
    }
    const pass = new DoorPass(this.served)
    this.#signals.enter(controller)
    let estimate = 1
    let reader: BodyReader | undefined
    /** The request's whole timeout (ms), once its body is decoded. */
    let budgetMs: number | undefined
    try {
      if (this.closing) throw new ShuttingDownError()
      const served = this.served.poolOf(entry)
      pool = served
      // Refuse what the queue cannot take before reading the body: under overload the
      // body's parse is the expensive part, not the refusal.
      const door = this.served.door(served)
      reader = new BodyReader(req, this.options.maxBodyBytes, this.served.pendingBodyBytes)
      const reading = { leftMs: this.options.bodyTimeoutMs }
      // This runs inside Node's 'request' event, before its parser has pushed the body
      // that came with the headers; after the round's parse, such a body is complete and
      // is read at once (BodyReader.readBuffered), with no timer, listener or promise.
      await afterParse()
      const headerField = req.headers[HEADER_LENGTH_HEADER]
      // A binary request's JSON header is read (and awaited) first; a JSON body's rows are
      // counted from its length at once, without a promise.
      const counted =
        headerField === undefined ? this.#rowsFromLength(req, served) : await this.#rowsAtTheDoor(req, served, reader, reading)
      estimate = counted.rows
      const parked = pass.admit(served, estimate)
      if (parked !== undefined) await this.#parked(parked, res)
      // Admitted during a draining close, it is served (it arrived before); a forced one cuts it short.
      if (controller.signal.aborted) throw controller.signal.reason

      const arriving = this.#read(reader, Infinity, reading)
      if (arriving !== undefined) await arriving
      if (controller.signal.aborted) throw controller.signal.reason
      const headerLength = headerLengthOf(headerField, reader.length)
      const body = reader.bytes(headerLength)
      const request = decodeInferRequest(body, headerLength, served.metadata, this.#limits, counted.header)
      rows = request.rowCount
      // Bytes per row of JSON bodies only: binary tensors are far denser.
      if (headerLength === undefined) door.rowSize.observe(body.length, rows)
      estimate = rows
      // The request's deadline counts from its arrival, body read included: the server's
      // `timeoutMs`, or the request's own `parameters.timeout` when that is shorter.
      budgetMs = shorterTimeout(this.options.timeoutMs, request.timeoutMs)
      const timeoutMs = budgetMs === undefined ? undefined : budgetMs - (performance.now() - started)
      if (timeoutMs !== undefined && timeoutMs <= 0) throw new TimeoutError(budgetMs as number)

      let results: RowOutput[] | BlockOutput
      const admitted = this.served.admitted
      admitted.enter()
      try {
        const pending = submitRequest(served, request, { signal: controller.signal, timeoutMs })
        // The rows are in the queue now (or refused): the room promised at the door is theirs.
        pass.through()
        results = await pending
      } finally {
        admitted.leave()
      }
      const response = encodeInferResponse(entry.name, entry.version, request.id, request.outputs, results)
      if (response.kind === 'json') this.#send(req, res, 200, response.pieces)
      else this.#sendBinary(req, res, response.body)
    } catch (error) {
      const code = errorCodeOf(error)
      if (code === 'ERR_QUEUE_FULL') this.#retryAfter.set(res, this.served.retryAfter(error, pool, estimate))
      // The rows were given what was left of the deadline; the client set the whole of it.
      if (code === 'ERR_TIMEOUT' && budgetMs !== undefined) throw new TimeoutError(budgetMs)
      throw error
    } finally {
      this.#signals.leave(controller)
      pass.through()
      // What is left of a body not read to the end is discarded, not held (linger.ts).
      reader?.release()
    }
  }

  /**
   * The rows the door counts for a request before its body is read. A binary request
   * (`Inference-Header-Content-Length`) has its JSON header read first — alone, as far
   * as the socket's chunks allow — and the rows its inputs' `shape` declares are
   * counted (refused here when no wait could ever admit them), so a request that does
   * not fit is refused before its tensor bytes are read; the parsed header is returned
   * so it is parsed once. A JSON body's rows are estimated from its `Content-Length`.
   */
  async #rowsAtTheDoor(
    req: IncomingMessage,
    pool: ServedPool,
    reader: BodyReader,
    reading: { leftMs: number },
  ): Promise<{ rows: number; header: unknown }> {
    const declaredLength = Number(req.headers['content-length'])
    const headerField = req.headers[HEADER_LENGTH_HEADER]
    const fromLength = this.#rowsFromLength(req, pool)
    // A chunked body has no length to count from (nor to check a header length against:
    // the body reader's limit answers a body that grows too large).
    if (!Number.isFinite(declaredLength) || headerField === undefined) return fromLength
    const headerLength = headerLengthOf(headerField, declaredLength) as number
    // The raw form (no JSON header) is one row.
    if (headerLength === 0) return { rows: 1, header: undefined }
    if (headerLength > MAX_DOOR_HEADER_BYTES) return fromLength
    const arriving = this.#read(reader, headerLength, reading)
    if (arriving !== undefined) await arriving
    // A body shorter than its header is refused by the decode, with the lengths.
    if (reader.length < headerLength) return { rows: 1, header: undefined }
    const header = readBinaryHeader(reader.bytes(headerLength), headerLength)
    const declared = declaredRows(header)
    return { rows: this.served.declaredRows(pool, declared?.rows ?? 0, declared?.input ?? ''), header }
  }

  /**
   * The rows a body's `Content-Length` suggests (the pool's bytes per JSON row); 1 for a
   * chunked body, which has no length to count from.
   */
  #rowsFromLength(req: IncomingMessage, pool: ServedPool): { rows: number; header: undefined } {
    const declaredLength = Number(req.headers['content-length'])
    if (!Number.isFinite(declaredLength)) return { rows: 1, header: undefined }
    return { rows: this.served.door(pool).rowSize.rows(declaredLength), header: undefined }
  }

  /** Waits for room at the door; a client that leaves meanwhile gives its place up. */
  async #parked(admission: Promise<void>, res: ServerResponse): Promise<void> {
    let gone = false
    const onClose = (): void => {
      gone = true
    }
    res.once('close', onClose)
    try {
      await admission
      // The request's door pass gives the room back as it fails.
      if (gone) throw new ClientGoneError()
    } finally {
      res.off('close', onClose)
    }
  }

  /**
   * Reads the body up to `upTo` bytes: at once (`undefined`) when all of it has arrived
   * already, else within what is left of `bodyTimeoutMs` in `reading` (time spent waiting
   * at the door between two reads does not count: the server was not reading then); a
   * shutdown ends the read at once.
   */
  #read(reader: BodyReader, upTo: number, reading: { leftMs: number }): Promise<void> | undefined {
    if (reader.readBuffered()) return undefined
    return this.#readArriving(reader, upTo, reading)
  }

  /** `#read` of a body still arriving: a timer for the body timeout, the reader registered for a shutdown. */
  async #readArriving(reader: BodyReader, upTo: number, reading: { leftMs: number }): Promise<void> {
    const timeoutMs = this.options.bodyTimeoutMs
    const started = performance.now()
    const timer = setTimeout(() => reader.abort(new RequestTimeoutError(timeoutMs)), Math.max(0, reading.leftMs))
    this.#reads.add(reader)
    try {
      await reader.read(upTo)
    } finally {
      clearTimeout(timer)
      this.#reads.delete(reader)
      reading.leftMs -= performance.now() - started
    }
  }

  /** A 200 carrying binary tensor data: the header's length in its own header; a small body in one write. */
  #sendBinary(req: IncomingMessage, res: ServerResponse, body: BinaryBody): void {
    if (res.headersSent || res.destroyed) return
    const headers = [
      'content-type',
      BINARY_CONTENT_TYPE,
      HEADER_LENGTH_HEADER,
      String(body.headerLength),
      'content-length',
      String(body.totalLength),
    ]
    if (this.closing) headers.push('connection', 'close')
    res.writeHead(200, headers)
    if (req.method === 'HEAD') {
      res.end()
      return
    }
    // A small body is one chunk already (binary.ts `binaryBody`).
    if (body.chunks.length === 1) {
      res.end(body.chunks[0])
      return
    }
    res.cork()
    for (const chunk of body.chunks) res.write(chunk)
    res.end()
    res.uncork()
  }

  #sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
    this.#send(req, res, status, JSON.stringify(body))
  }

  #send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: string | readonly string[],
    contentType = JSON_CONTENT_TYPE,
    headers?: Record<string, string>,
  ): void {
    if (res.headersSent || res.destroyed) return
    let length = 0
    if (typeof body === 'string') length = Buffer.byteLength(body)
    else for (const piece of body) length += Buffer.byteLength(piece)
    const unread = bodyUnread(req)
    if (headers === undefined && !unread && !this.closing) {
      // The usual answer: its headers in one `writeHead` of a flat list (no header object is built).
      res.writeHead(status, ['content-type', contentType, 'content-length', String(length)])
    } else {
      res.statusCode = status
      res.setHeader('content-type', contentType)
      res.setHeader('content-length', length)
      if (headers !== undefined) for (const [key, value] of Object.entries(headers)) res.setHeader(key, value)
      if (unread) {
        // Answered before the body was read (a refusal, a timeout, a shutdown): make sure
        // the answer reaches the client (linger.ts).
        const stalled = this.#errorCodes.get(res) === RequestTimeoutError.code
        lingerOnUnreadBody(req, res, {
          maxBytes: this.options.maxBodyBytes,
          lingerMs: this.options.lingerMs,
          close: this.closing || stalled,
        })
      } else if (this.closing) {
        // While closing, keep-alive connections are closed after their answer so the
        // server's close() can finish.
        res.setHeader('connection', 'close')
      }
    }
    if (req.method === 'HEAD') res.end()
    else if (typeof body === 'string') res.end(body)
    // A small body goes in the same write as the head (`end` sends a string body with it).
    else if (length <= ONE_WRITE_MAX_BYTES) res.end(body.length === 1 ? body[0] : body.join(''))
    else {
      // One write per piece, sent together (a large data piece is never copied into a larger string).
      res.cork()
      for (const piece of body) res.write(piece)
      res.end()
      res.uncork()
    }
  }

  #sendError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    // The client left (its rows were aborted on the way): nobody is left to answer.
    if (error instanceof ClientGoneError || res.destroyed) return
    const { code, message, internal } = publicErrorOf(error)
    const status = internal ? 500 : httpStatusOf(code)
    // A 500 with an `ERR_` code is one of ours (a worker crash, a bad batch) and is
    // reported as is; anything else is an unexpected failure whose text stays in the log.
    if (status === 500) this.options.logger.error('inferpool: request failed', error)
    this.#errorCodes.set(res, code)
    const headers = httpHeadersOf(error, this.#retryAfter.get(res) ?? this.options.retryAfterSeconds)
    if (res.headersSent) {
      res.destroy()
      return
    }
    // The protocol's error body is `{"error": "<message>"}` (Triton's clients read it as a
    // string); our stable code stands beside it.
    this.#send(req, res, status, JSON.stringify({ error: message, code }), undefined, headers)
  }
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
