/**
 * How the handler writes its answers: JSON, text, binary tensor data and errors. The
 * usual answer is one `writeHead` of a flat header list and one write; an answer given
 * before its request's body was read lingers (linger.ts) so it reaches the client; while
 * the server closes, keep-alive connections are closed after their answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { httpHeadersOf, httpStatusOf, publicErrorOf } from '../error-registry.js'
import { RequestTimeoutError } from '../protocol/errors.js'
import type { ResolvedHandlerOptions } from '../protocol/options.js'
import type { ServedModels } from '../protocol/served-models.js'
import { BINARY_CONTENT_TYPE, HEADER_LENGTH_HEADER } from './binary.js'
import type { BinaryBody } from './binary.js'
import { ClientGoneError } from './body.js'
import { bodyUnread, lingerOnUnreadBody } from './linger.js'

/** The content type of every JSON answer. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * The largest response body written in the same write as its head (one string or one
 * buffer, joined from its pieces); larger ones are written piece by piece under `cork`,
 * so their data is not copied once more. A single-row answer is a few hundred bytes.
 */
const ONE_WRITE_MAX_BYTES = 16 * 1024

export class ResponseWriter {
  readonly #served: ServedModels
  readonly #options: ResolvedHandlerOptions

  constructor(served: ServedModels) {
    this.#served = served
    this.#options = served.options
  }

  json(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
    this.send(req, res, status, JSON.stringify(body))
  }

  /**
   * Writes an answer of `body` (a string, or pieces written together). `stalled`: the
   * request's body stalled (a 408): its connection is closed after the answer.
   */
  send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: string | readonly string[],
    contentType = JSON_CONTENT_TYPE,
    headers?: Record<string, string>,
    stalled = false,
  ): void {
    if (res.headersSent || res.destroyed) return
    let length = 0
    if (typeof body === 'string') length = Buffer.byteLength(body)
    else for (const piece of body) length += Buffer.byteLength(piece)
    const unread = bodyUnread(req)
    const closing = this.#served.closed
    if (headers === undefined && !unread && !closing) {
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
        lingerOnUnreadBody(req, res, {
          maxBytes: this.#options.maxBodyBytes,
          lingerMs: this.#options.lingerMs,
          close: closing || stalled,
        })
      } else if (closing) {
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

  /** A 200 carrying binary tensor data: the header's length in its own header; a small body in one write. */
  binary(req: IncomingMessage, res: ServerResponse, body: BinaryBody): void {
    if (res.headersSent || res.destroyed) return
    const headers = [
      'content-type',
      BINARY_CONTENT_TYPE,
      HEADER_LENGTH_HEADER,
      String(body.headerLength),
      'content-length',
      String(body.totalLength),
    ]
    if (this.#served.closed) headers.push('connection', 'close')
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

  /**
   * Answers a failure with its status and `{"error": "<message>", "code": "<code>"}`;
   * returns the code answered (for the request metrics), `undefined` when nobody is left
   * to answer. `retryAfterSeconds`: a refusal for lack of room's hint, from the pool's
   * drain rate.
   */
  error(req: IncomingMessage, res: ServerResponse, error: unknown, retryAfterSeconds: number | undefined): string | undefined {
    // The client left (its rows were aborted on the way): nobody is left to answer.
    if (error instanceof ClientGoneError || res.destroyed) return undefined
    const { code, message, internal } = publicErrorOf(error)
    const status = internal ? 500 : httpStatusOf(code)
    // A 500 with an `ERR_` code is one of ours (a worker crash, a bad batch) and is
    // reported as is; anything else is an unexpected failure whose text stays in the log.
    if (status === 500) this.#options.logger.error('inferpool: request failed', error)
    const headers = httpHeadersOf(error, retryAfterSeconds ?? this.#options.retryAfterSeconds)
    if (res.headersSent) {
      res.destroy()
      return code
    }
    // The protocol's error body is `{"error": "<message>"}` (Triton's clients read it as a
    // string); our stable code stands beside it.
    this.send(req, res, status, JSON.stringify({ error: message, code }), undefined, headers, code === RequestTimeoutError.code)
    return code
  }
}
