/**
 * HTTP's side of an inference request's exchange (../protocol/exchange.ts): reading the
 * body (a binary request's JSON header first, for the door), waiting parked while the
 * client stays, decoding, encoding and writing the answer, and recording the request
 * once its response has closed. The exchange does the rest, in the order both protocols
 * share.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { INTERNAL_ERROR_CODE } from '../error-registry.js'
import type { DecodeLimits, DecodedInferRequest } from '../protocol/decode.js'
import { MAX_DOOR_HEADER_BYTES } from '../protocol/door.js'
import type { Door } from '../protocol/door.js'
import { RequestTimeoutError } from '../protocol/errors.js'
import { InferenceExchange } from '../protocol/exchange.js'
import type { ResolvedHandlerOptions } from '../protocol/options.js'
import type { ServedModel, ServedModels } from '../protocol/served-models.js'
import type { ServedPool } from '../protocol/served-pool.js'
import type { BlockOutput, RowOutput } from '@inferpool/host'
import { afterParse } from './after-parse.js'
import { declaredRows, HEADER_LENGTH_HEADER, headerLengthOf, readBinaryHeader } from './binary.js'
import { BodyReader, ClientGoneError } from './body.js'
import { decodeInferRequest } from './decode-body.js'
import { encodeInferResponse } from './encode-body.js'
import type { RequestSignals } from './request-signals.js'
import type { ResponseWriter } from './response-writer.js'

/** What every HTTP exchange of one handler shares (made once). */
export interface HttpExchangeContext {
  readonly options: ResolvedHandlerOptions
  /** The decoder's limits: the same for every request. */
  readonly limits: DecodeLimits
  /** Body reads waiting for bytes now: a forced shutdown aborts them. */
  readonly reads: Set<BodyReader>
  /** The abort controllers of the requests in progress (a forced shutdown aborts them). */
  readonly signals: RequestSignals
  readonly writer: ResponseWriter
}

export class HttpExchange extends InferenceExchange<void> {
  readonly reader: BodyReader
  /** The code of the error answered, for the request metrics (set by the handler as it answers one). */
  errorCode: string | undefined
  readonly #req: IncomingMessage
  readonly #res: ServerResponse
  readonly #context: HttpExchangeContext
  /**
   * Aborts the rows still queued when the client leaves (their answer could no longer be
   * sent), and cuts the request short with ERR_SHUTTING_DOWN when the handler is closed
   * without draining. One signal for the whole request: its connection's (request-signals.ts).
   */
  readonly controller: AbortController
  /** What is left of `bodyTimeoutMs` for reading (a wait at the door between two reads does not count). */
  #leftMs: number
  /** A binary request's JSON header, parsed at the door (so it is parsed once). */
  #header: unknown

  constructor(served: ServedModels, context: HttpExchangeContext, req: IncomingMessage, res: ServerResponse) {
    super(served)
    this.#req = req
    this.#res = res
    this.#context = context
    this.#leftMs = context.options.bodyTimeoutMs
    this.reader = new BodyReader(req, context.options.maxBodyBytes, served.pendingBodyBytes)
    const controller = context.signals.of(req)
    this.controller = controller
    context.signals.enter(controller)
  }

  /** `traceparent` / `tracestate` from the request's headers. */
  override traceHeader(name: string): string | undefined {
    const value = this.#req.headers[name]
    return typeof value === 'string' ? value : undefined
  }

  protected override answer(decoded: DecodedInferRequest, model: ServedModel, results: RowOutput[] | BlockOutput): void {
    const response = encodeInferResponse(model.name, model.version, decoded.id, decoded.outputs, results)
    const writer = this.#context.writer
    if (response.kind === 'json') writer.send(this.#req, this.#res, 200, response.pieces)
    else writer.binary(this.#req, this.#res, response.body)
  }

  protected override ended(): void {
    this.#context.signals.leave(this.controller)
    // What is left of a body not read to the end is discarded, not held (linger.ts).
    this.reader.release()
  }

  /**
   * At the response's 'close': a client gone before its answer aborts what is left of
   * the request (a body still arriving and a wait at the door see the same 'close'
   * themselves and end as ClientGoneError); the request is recorded, 499 (nginx's
   * "client closed request") when the client left before the answer.
   */
  closed(): void {
    const res = this.#res
    const finished = res.writableFinished
    if (!finished) this.controller.abort(new ClientGoneError())
    const status = finished ? res.statusCode : 499
    const code = status >= 400 && status !== 499 ? (this.errorCode ?? INTERNAL_ERROR_CODE) : undefined
    this.finish('http', status, status === 200, code)
  }

  /**
   * This runs inside Node's 'request' event, before its parser has pushed the body that
   * came with the headers; after the round's parse, such a body is complete and is read
   * at once (BodyReader.readBuffered), with no timer, listener or promise.
   */
  protected override untilReadable(): Promise<void> {
    return afterParse()
  }

  /**
   * A binary request (`Inference-Header-Content-Length`) has its JSON header read first —
   * alone, as far as the socket's chunks allow — and the rows its inputs' `shape`
   * declares are counted (refused here when no wait could ever admit them), so a request
   * that does not fit is refused before its tensor bytes are read. A JSON body's rows
   * are estimated from its `Content-Length`, without a promise.
   */
  protected override doorRows(door: Door): number | Promise<number> {
    const req = this.#req
    const declaredLength = Number(req.headers['content-length'])
    const headerField = req.headers[HEADER_LENGTH_HEADER]
    // A chunked body has no length to count from (nor to check a header length against:
    // the body reader's limit answers a body that grows too large).
    if (headerField === undefined || !Number.isFinite(declaredLength)) return door.rowsOfLength(declaredLength)
    const headerLength = headerLengthOf(headerField, declaredLength) as number
    // The raw form (no JSON header) is one row.
    if (headerLength === 0) return 1
    if (headerLength > MAX_DOOR_HEADER_BYTES) return door.rowsOfLength(declaredLength)
    return this.#declaredRows(door, headerLength)
  }

  async #declaredRows(door: Door, headerLength: number): Promise<number> {
    const reader = this.reader
    const arriving = this.#read(headerLength)
    if (arriving !== undefined) await arriving
    // A body shorter than its header is refused by the decode, with the lengths.
    if (reader.length < headerLength) return 1
    const header = readBinaryHeader(reader.bytes(headerLength), headerLength)
    this.#header = header
    const declared = declaredRows(header)
    return door.declaredRows(declared?.rows ?? 0, declared?.input ?? '')
  }

  /** Waits for room at the door; a client that leaves meanwhile gives its place up. */
  protected override async parked(admission: Promise<void>): Promise<void> {
    const res = this.#res
    let gone = false
    const onClose = (): void => {
      gone = true
    }
    res.once('close', onClose)
    try {
      await admission
      // The exchange gives the room back as it fails.
      if (gone) throw new ClientGoneError()
    } finally {
      res.off('close', onClose)
    }
  }

  protected override decode(door: Door, signal: AbortSignal): DecodedInferRequest | Promise<DecodedInferRequest> {
    const arriving = this.#read(Infinity)
    if (arriving === undefined) return this.#decodeBody(door)
    return arriving.then(() => {
      if (signal.aborted) throw signal.reason
      return this.#decodeBody(door)
    })
  }

  #decodeBody(door: Door): DecodedInferRequest {
    const reader = this.reader
    const headerLength = headerLengthOf(this.#req.headers[HEADER_LENGTH_HEADER], reader.length)
    const body = reader.bytes(headerLength)
    const request = decodeInferRequest(body, headerLength, (this.pool as ServedPool).metadata, this.#context.limits, this.#header)
    // Bytes per row of JSON bodies only: binary tensors are far denser.
    if (headerLength === undefined) door.rowSize.observe(body.length, request.rowCount)
    return request
  }

  /**
   * Reads the body up to `upTo` bytes: at once (`undefined`) when all of it has arrived
   * already, else within what is left of `bodyTimeoutMs` (time spent waiting at the door
   * between two reads does not count: the server was not reading then); a forced
   * shutdown ends the read at once.
   */
  #read(upTo: number): Promise<void> | undefined {
    if (this.reader.readBuffered()) return undefined
    return this.#readArriving(upTo)
  }

  /** `#read` of a body still arriving: a timer for the body timeout, the reader registered for a shutdown. */
  async #readArriving(upTo: number): Promise<void> {
    const reader = this.reader
    const reads = this.#context.reads
    const timeoutMs = this.#context.options.bodyTimeoutMs
    const started = performance.now()
    const timer = setTimeout(() => reader.abort(new RequestTimeoutError(timeoutMs)), Math.max(0, this.#leftMs))
    reads.add(reader)
    try {
      await reader.read(upTo)
    } finally {
      clearTimeout(timer)
      reads.delete(reader)
      this.#leftMs -= performance.now() - started
    }
  }
}
