/**
 * `createRequestHandler`: the Open Inference Protocol (KServe v2 REST) over one pool per
 * model, as a plain `(req, res)` handler for `node:http` — it mounts as is in Express
 * or Connect (unmatched paths go to `next`) and in Fastify through `reply.raw`.
 *
 * Routes:
 *   GET  /v2/health/live                       always 200 while the process answers
 *   GET  /v2/health/ready                      200 once every pool has loaded and has a replica ready, 503 before / while closing
 *   GET  /v2                                   server metadata, with the extensions served
 *   GET  /v2/models/{name}[/versions/1]        model metadata
 *   GET  /v2/models/{name}[/versions/1]/ready  200 / 503
 *   GET  /v2/models/{name}[/versions/1]/config Triton's model configuration (triton/config.ts)
 *   GET  /v2/models[/{name}[/versions/1]]/stats Triton's statistics (triton/stats.ts)
 *   POST /v2/models/{name}[/versions/1]/infer  inference, JSON or binary tensor data (binary.ts);
 *                                              its rows enter the pool together (submit-rows.ts)
 *   GET  /metrics                              Prometheus text format
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { Registry } from 'prom-client'
import { RequestTooLargeError, TimeoutError } from '@inferpool/core'
import { MAX_TIMER_MS } from '@inferpool/core/internal'
import { Lifecycle } from '../lifecycle.js'
import type { CloseOptions } from '../lifecycle.js'
import type { BlockOutput, RowOutput } from '../types.js'
import { doorOf, retryAfterSeconds } from './admission.js'
import type { AdmissionTicket } from './admission.js'
import { BINARY_CONTENT_TYPE, declaredRows, HEADER_LENGTH_HEADER, headerLengthOf, readBinaryHeader } from './binary.js'
import type { BinaryBody } from './binary.js'
import { BodyReader, ClientGoneError } from './body.js'
import { checkRowCount, decodeInferRequest } from './decode.js'
import { MODEL_VERSION, encodeInferResponse } from './encode.js'
import { SERVER_EXTENSIONS, SERVER_NAME, SERVER_VERSION, modelMetadata } from './metadata.js'
import { errorCodeOf, httpHeadersOf, httpStatusOf, INTERNAL_ERROR_CODE, publicErrorOf } from '../error-registry.js'
import {
  MethodNotAllowedError,
  ModelNotFoundError,
  ModelNotReadyError,
  RequestTimeoutError,
  RouteNotFoundError,
  ShuttingDownError,
  UnauthorizedError,
} from './errors.js'
import { servesAny } from '../pool/health.js'
import { bodyUnread, lingerOnUnreadBody } from './linger.js'
import { submitRequest } from './submit-rows.js'
import { ServerMetrics } from './metrics.js'
import { resolveHandlerOptions } from './options.js'
import type { RequestHandlerOptions, ResolvedHandlerOptions } from './options.js'
import type { ServedPool } from './served-pool.js'
import { PendingBodyBytes } from './pending-body-bytes.js'
import { modelConfigOf } from './triton/config.js'
import { statsCollectorOf } from './triton/stats.js'

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
  /**
   * The bytes requests still arriving hold now (HTTP bodies and gRPC messages together),
   * the `maxPendingBodyBytes` limit, and how many requests were refused for it: a snapshot.
   */
  readonly pendingBodyBytes: { readonly held: number; readonly limit: number; readonly refused: number }
  /** Resolves once every pool has loaded; rejects with the first load failure. */
  ready(): Promise<void>
  /**
   * Stops taking inference requests (they get 503 `ERR_SHUTTING_DOWN` and
   * `Connection: close`), reports not-ready, and resolves once every request in
   * progress has been answered. With `drain: false` the requests in progress are
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

type ModelState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly pool: ServedPool }
  | { readonly kind: 'failed'; readonly error: unknown }

interface ModelEntry {
  readonly name: string
  state: ModelState
  readonly loaded: Promise<void>
}

/**
 * The largest binary-request JSON header read before admission. A header of a few
 * inputs' names, types and shapes is well under 1 KiB; a larger one carries JSON
 * `data`, and reading and parsing it is the expense the door exists to avoid — so such
 * a request is counted like a JSON body, from its Content-Length, and its header is read
 * once admitted. It also bounds what a connection parked at the door holds in memory.
 */
const MAX_DOOR_HEADER_BYTES = 64 * 1024

const GET = ['GET', 'HEAD'] as const
const POST = ['POST'] as const

/** Per-model routes after `/v2/models/{name}[/versions/{version}]`. */
const MODEL_ACTIONS: ReadonlySet<string> = new Set(['metadata', 'ready', 'infer', 'config', 'stats'])

function isPromiseLike(value: PoolSource): value is PromiseLike<ServedPool> {
  return typeof (value as { then?: unknown }).then === 'function'
}

/** Waiters for a counter to reach zero. */
/** Told when a gate turns non-empty (`busy`) and empty again (`idle`). */
export interface GateWatcher {
  busy(): void
  idle(): void
}

class Gate {
  #count = 0
  #waiters: Array<() => void> = []
  #watcher: GateWatcher | undefined
  get count(): number {
    return this.#count
  }
  /** One watcher (the server's idle collection), told of the transitions only. */
  watch(watcher: GateWatcher | undefined): void {
    this.#watcher = watcher
  }
  enter(): void {
    if (this.#count++ === 0) this.#watcher?.busy()
  }
  leave(): void {
    this.#count--
    if (this.#count === 0) {
      this.#watcher?.idle()
      for (const wake of this.#waiters.splice(0)) wake()
    }
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
  /**
   * Requests whose rows are in a pool: what a forced shutdown would lose. Requests
   * still reading their body are not counted — a shutdown answers them 503 at once.
   */
  readonly admitted = new Gate()
  /** Bytes held by request bodies (and gRPC messages) still arriving, bounded by `maxPendingBodyBytes`. */
  readonly pendingBodyBytes: PendingBodyBytes
  /** Aborts the body reads in progress when the handler closes. */
  readonly #reads = new Set<BodyReader>()
  /** Set while the server is about to close: readiness reports 503, requests are still served. */
  draining = false
  readonly #apiKeyDigest: Buffer | undefined
  readonly #detach: Array<() => void> = []
  /** The error code each failed response carried, for the request metrics. */
  readonly #errorCodes = new WeakMap<ServerResponse, string>()
  /** Inference requests in progress, each cut short (503) by aborting its controller. */
  readonly #inFlight = new Set<AbortController>()
  /** Pools this handler has admitted requests to (their doors are shared: admission.ts). */
  readonly #admittedTo = new Set<ServedPool>()
  /** `Retry-After` seconds of a 503 for lack of room, from the pool's drain rate. */
  readonly #retryAfter = new WeakMap<ServerResponse, number>()
  readonly lifecycle = new Lifecycle({
    drain: () => {
      this.#stopReading({ refuseParked: false })
      return this.active.empty()
    },
    abandon: () => this.#cutShort(),
    release: () => {
      for (const detach of this.#detach.splice(0)) detach()
      return Promise.resolve()
    },
    destroy: async () => {
      await this.#cutShort()
      for (const detach of this.#detach.splice(0)) detach()
    },
  })

  constructor(pools: PoolsByModel, options: RequestHandlerOptions | undefined) {
    this.options = resolveHandlerOptions(options)
    this.pendingBodyBytes = new PendingBodyBytes(this.options.maxPendingBodyBytes)
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
    return this.lifecycle.closed
  }

  /** Answers every inference request in progress with 503 now; resolves once every request is answered. */
  #cutShort(): Promise<void> {
    this.#stopReading({ refuseParked: true })
    for (const controller of this.#inFlight) controller.abort(new ShuttingDownError())
    return this.active.empty()
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
          // Subscribed now, so the statistics cover every batch from the start.
          statsCollectorOf(pool)
        },
        (error: unknown) => {
          entry.state = { kind: 'failed', error }
        },
      ),
    }
    if (!isPromiseLike(source)) {
      entry.state = { kind: 'ready', pool: source }
      statsCollectorOf(source)
    }
    this.models.set(name, entry)
  }

  async ready(): Promise<void> {
    await Promise.all([...this.models.values()].map((entry) => entry.loaded))
    for (const entry of this.models.values()) {
      if (entry.state.kind === 'failed') throw entry.state.error
    }
  }

  /**
   * Bodies still on the wire are not waited for: those requests get 503 now. A request
   * parked at the door (it arrived before the shutdown; its body waits unread for room)
   * is accepted work: a draining close leaves it parked, to be served as the queue
   * drains (the server closes its pools only once no request is still being admitted);
   * a forced one (`refuseParked`) refuses it too.
   */
  #stopReading({ refuseParked }: { refuseParked: boolean }): void {
    const shuttingDown = new ShuttingDownError()
    for (const reader of this.#reads) reader.abort(shuttingDown)
    if (refuseParked) for (const pool of this.#admittedTo) doorOf(pool).gate.refuseParked(shuttingDown)
  }

  #authorized(req: IncomingMessage): boolean {
    return this.authorizedBearer(req.headers.authorization)
  }

  /**
   * Whether an `Authorization` value (HTTP header or gRPC metadata) carries the bearer
   * token, or no token is required.
   */
  authorizedBearer(header: unknown): boolean {
    const expected = this.#apiKeyDigest
    if (expected === undefined) return true
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
        const ready =
          !this.closing && !this.draining && [...this.models.values()].every((e) => e.state.kind === 'ready' && servesAny(e.state.pool))
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
        this.#sendJson(req, res, 200, { name: SERVER_NAME, version: SERVER_VERSION, extensions: SERVER_EXTENSIONS }),
      )
    }
    if (path === '/v2/models/stats') {
      // Every loaded model (Triton lists the models it has loaded).
      return this.#only(req, GET, () => {
        const stats = [...this.models.values()].flatMap((entry) =>
          entry.state.kind === 'ready' ? [statsCollectorOf(entry.state.pool).snapshot(entry.name, MODEL_VERSION)] : [],
        )
        this.#sendJson(req, res, 200, { model_stats: stats })
      })
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
    if (name === '' || action === undefined || !MODEL_ACTIONS.has(action)) {
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
        const ready = !this.closing && !this.draining && entry.state.kind === 'ready' && servesAny(entry.state.pool)
        return this.#sendJson(req, res, ready ? 200 : 503, { name, ready })
      }
      const pool = this.poolOf(entry)
      if (action === 'config') return this.#sendJson(req, res, 200, modelConfigOf(name, pool))
      if (action === 'stats') {
        return this.#sendJson(req, res, 200, { model_stats: [statsCollectorOf(pool).snapshot(name, MODEL_VERSION)] })
      }
      const metadata = pool.metadata
      this.#sendJson(req, res, 200, {
        ...modelMetadata(name, metadata),
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

  /** The entry's pool once loaded; else ModelNotReadyError. Also used by the gRPC service. */
  poolOf(entry: ModelEntry): ServedPool {
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
    let pool: ServedPool | undefined
    res.once('close', () => {
      // 499 (nginx's "client closed request") when the client left before the answer.
      const status = res.writableFinished ? res.statusCode : 499
      const code = status >= 400 ? (this.#errorCodes.get(res) ?? INTERNAL_ERROR_CODE) : undefined
      const elapsedMs = performance.now() - started
      this.metrics.request(entry.name, 'http', status, elapsedMs / 1000, rows, status === 499 ? undefined : code)
      // Triton's statistics count the requests of a loaded model, answered or failed.
      if (pool !== undefined) statsCollectorOf(pool).request({ ok: status === 200, rows, durationNs: elapsedMs * 1e6 })
    })
    this.admitting.enter()
    let admitting = true
    const admitted = (): void => {
      if (admitting) {
        admitting = false
        this.admitting.leave()
      }
    }
    // Aborts the rows still queued when the client leaves (their answer could no longer
    // be sent), and cuts the request short with ERR_SHUTTING_DOWN when the handler is
    // closed without draining. One signal and one listener for the whole request.
    const controller = new AbortController()
    this.#inFlight.add(controller)
    let estimate = 1
    let ticket: AdmissionTicket | undefined
    let reader: BodyReader | undefined
    try {
      if (this.closing) throw new ShuttingDownError()
      const served = this.poolOf(entry)
      pool = served
      // Refuse what the queue cannot take before reading the body: under overload the
      // body's parse is the expensive part, not the refusal.
      const door = doorOf(served)
      this.#admittedTo.add(served)
      const limits = { maxRows: this.options.maxRowsPerRequest }
      reader = new BodyReader(req, this.options.maxBodyBytes, this.pendingBodyBytes.hold())
      const reading = { leftMs: this.options.bodyTimeoutMs }
      const headerField = req.headers[HEADER_LENGTH_HEADER]
      const counted = await this.#rowsAtTheDoor(req, served, reader, reading, limits)
      estimate = counted.rows
      // With 'wait' a request may wait for room until its deadline; with 'reject', for
      // `admissionWaitMs` at most.
      const deadlineMs = this.options.timeoutMs ?? MAX_TIMER_MS
      const waitMs = Math.min(served.admission?.whenFull === 'wait' ? MAX_TIMER_MS : this.options.admissionWaitMs, deadlineMs)
      const admission = door.gate.admit(estimate, waitMs)
      ticket = admission instanceof Promise ? await this.#parked(admission, res) : admission
      // Admitted during a draining close, it is served (it arrived before); a forced one cuts it short.
      if (controller.signal.aborted) throw controller.signal.reason

      await this.#read(reader, Infinity, reading)
      if (controller.signal.aborted) throw controller.signal.reason
      const headerLength = headerLengthOf(headerField, reader.length)
      const body = reader.bytes(headerLength)
      const request = decodeInferRequest(body, headerLength, served.metadata, limits, counted.header)
      rows = request.rowCount
      // Bytes per row of JSON bodies only: binary tensors are far denser.
      if (headerLength === undefined) door.rowSize.observe(body.length, rows)
      estimate = rows
      // The request's deadline counts from its arrival, body read included.
      const timeoutMs = this.options.timeoutMs === undefined ? undefined : this.options.timeoutMs - (performance.now() - started)
      if (timeoutMs !== undefined && timeoutMs <= 0) throw new TimeoutError(this.options.timeoutMs as number)

      const onClose = (): void => {
        if (!res.writableFinished) controller.abort(new ClientGoneError())
      }
      res.once('close', onClose)
      let results: RowOutput[] | BlockOutput
      this.admitted.enter()
      try {
        const pending = submitRequest(served, request, { signal: controller.signal, timeoutMs })
        // The rows are in the queue now (or refused): the room promised at the door is theirs.
        ticket.release()
        admitted()
        results = await pending
      } finally {
        this.admitted.leave()
        res.off('close', onClose)
      }
      const response = encodeInferResponse(entry.name, request.id, request.outputs, results)
      if (response.kind === 'json') this.#send(req, res, 200, response.pieces)
      else this.#sendBinary(req, res, response.body)
    } catch (error) {
      const code = errorCodeOf(error)
      if (code === 'ERR_QUEUE_FULL' && pool?.admission !== undefined) {
        this.#retryAfter.set(res, retryAfterSeconds(pool.admission, estimate, this.options.retryAfterSeconds))
      }
      // The rows were given what was left of the deadline; the client set the whole of it.
      if (code === 'ERR_TIMEOUT' && this.options.timeoutMs !== undefined) throw new TimeoutError(this.options.timeoutMs)
      throw error
    } finally {
      this.#inFlight.delete(controller)
      ticket?.release()
      // What is left of a body not read to the end is discarded, not held (linger.ts).
      reader?.release()
      admitted()
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
    limits: { maxRows: number },
  ): Promise<{ rows: number; header: unknown }> {
    const declaredLength = Number(req.headers['content-length'])
    const headerField = req.headers[HEADER_LENGTH_HEADER]
    // A chunked body has no length to count from (nor to check a header length against:
    // the body reader's limit answers a body that grows too large).
    if (!Number.isFinite(declaredLength)) return { rows: 1, header: undefined }
    const fromLength = { rows: doorOf(pool).rowSize.rows(declaredLength), header: undefined }
    if (headerField === undefined) return fromLength
    const headerLength = headerLengthOf(headerField, declaredLength) as number
    // The raw form (no JSON header) is one row.
    if (headerLength === 0) return { rows: 1, header: undefined }
    if (headerLength > MAX_DOOR_HEADER_BYTES) return fromLength
    await this.#read(reader, headerLength, reading)
    // A body shorter than its header is refused by the decode, with the lengths.
    if (reader.length < headerLength) return { rows: 1, header: undefined }
    const header = readBinaryHeader(reader.bytes(headerLength), headerLength)
    const declared = declaredRows(header)
    // Without a usable shape the decode refuses the request, saying what is wrong.
    if (declared === undefined) return { rows: 1, header }
    checkRowCount(declared.input, declared.rows, limits)
    const state = pool.admission
    if (state !== undefined && declared.rows > state.maxQueueSize) throw new RequestTooLargeError(declared.rows, state.maxQueueSize)
    return { rows: declared.rows, header }
  }

  /** Waits for room at the door; a client that leaves meanwhile gives its place up. */
  async #parked(admission: Promise<AdmissionTicket>, res: ServerResponse): Promise<AdmissionTicket> {
    let gone = false
    const onClose = (): void => {
      gone = true
    }
    res.once('close', onClose)
    try {
      const ticket = await admission
      if (gone) {
        ticket.release()
        throw new ClientGoneError()
      }
      return ticket
    } finally {
      res.off('close', onClose)
    }
  }

  /**
   * Reads the body up to `upTo` bytes within what is left of `bodyTimeoutMs` in
   * `reading` (time spent waiting at the door between two reads does not count: the
   * server was not reading then); a shutdown ends the read at once.
   */
  async #read(reader: BodyReader, upTo: number, reading: { leftMs: number }): Promise<void> {
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

  /** A 200 carrying binary tensor data: the header's length in its own header, the chunks written without joining. */
  #sendBinary(req: IncomingMessage, res: ServerResponse, body: BinaryBody): void {
    if (res.headersSent || res.destroyed) return
    res.statusCode = 200
    res.setHeader('content-type', BINARY_CONTENT_TYPE)
    res.setHeader(HEADER_LENGTH_HEADER, body.headerLength)
    res.setHeader('content-length', body.totalLength)
    if (this.closing) res.setHeader('connection', 'close')
    if (req.method === 'HEAD') {
      res.end()
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
    contentType = 'application/json; charset=utf-8',
    headers?: Record<string, string>,
  ): void {
    if (res.headersSent || res.destroyed) return
    res.statusCode = status
    res.setHeader('content-type', contentType)
    let length = 0
    if (typeof body === 'string') length = Buffer.byteLength(body)
    else for (const piece of body) length += Buffer.byteLength(piece)
    res.setHeader('content-length', length)
    if (headers !== undefined) for (const [key, value] of Object.entries(headers)) res.setHeader(key, value)
    if (bodyUnread(req)) {
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
    if (req.method === 'HEAD') res.end()
    else if (typeof body === 'string') res.end(body)
    else {
      // One write per piece, sent together (a data piece is never copied into a larger string).
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
    pendingBodyBytes: {
      get: () => ({ held: inner.pendingBodyBytes.held, limit: inner.pendingBodyBytes.limit, refused: inner.pendingBodyBytes.refused }),
      enumerable: true,
    },
    ready: { value: () => inner.ready() },
    close: { value: (options?: CloseOptions) => inner.lifecycle.close(options) },
    destroy: { value: (error?: Error) => inner.lifecycle.destroy(error) },
    closed: { get: () => inner.lifecycle.closed, enumerable: true },
    destroyed: { get: () => inner.lifecycle.destroyed, enumerable: true },
  })
  internals.set(handler, inner)
  return handler
}
