/**
 * The one module that speaks the Open Inference Protocol, through @inferpool/server's
 * HTTP body codec and its submit step: a request message's body and its
 * `Inference-Header-Content-Length` in, the response body and its headers out. When the
 * server's protocol-neutral exchange lands (issue 34), this module switches to it and
 * nothing else in the package changes.
 */
import type { ServedPool } from '@inferpool/server'
import { JetStreamSettingError, MaxDeliverError } from './errors.js'
import {
  decodeInferRequest,
  encodeInferResponse,
  errorSpecOf,
  headerLengthOf,
  INTERNAL_ERROR_CODE,
  httpStatusOf,
  isRetryable,
  publicErrorOf,
  submitRequest,
} from '@inferpool/server'

/** The header that marks a binary body and gives its JSON header's length. */
export const HEADER_LENGTH_HEADER = 'Inference-Header-Content-Length'

export interface ExchangeOptions {
  /** Most rows one request may carry. */
  readonly maxRows: number
  /** The request's deadline in ms (the request's own `parameters.timeout` when shorter). */
  readonly timeoutMs: number | undefined
  /** Cancels the request (a hard stop). */
  readonly signal: AbortSignal
  /** The pool's priority level for these requests; `undefined`: the request's own, or the pool's default. */
  readonly priorityLevel: number | undefined
  /** The pool's `priority` for these requests (a pool without levels); `undefined`: the pool's default. */
  readonly priority: number | undefined
  /** Told the request's row count as its rows are queued. */
  readonly queued: (rows: number) => void
}

export interface ExchangeResult {
  /** The request's `id`, if it gave one. */
  readonly id: string | undefined
  readonly body: Uint8Array
  /** `Inference-Header-Content-Length` of a binary response; `undefined` for JSON. */
  readonly headerLength: number | undefined
}

/** Runs one request message's body through `pool`. Rejects with the error of whatever failed. */
export async function exchange(
  pool: ServedPool,
  modelName: string,
  modelVersion: string,
  body: Uint8Array,
  headerField: string | undefined,
  options: ExchangeOptions,
): Promise<ExchangeResult> {
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const headerLength = headerLengthOf(headerField, buffer.length)
  const request = decodeInferRequest(buffer, headerLength, pool.metadata, { maxRows: options.maxRows })
  const timeoutMs = shorter(options.timeoutMs, request.timeoutMs)
  const level = options.priorityLevel
  const submitted: typeof request =
    level === undefined
      ? request
      : {
          id: request.id,
          rowCount: request.rowCount,
          block: request.block,
          outputs: request.outputs,
          priorityLevel: level,
          // Split into rows only when the pool asks (as the decoded request does).
          get rows() {
            return request.rows
          },
        }
  options.queued(request.rowCount)
  const results = await submitRequest(pool, submitted, { signal: options.signal, timeoutMs, priority: options.priority })
  const response = encodeInferResponse(modelName, modelVersion, request.id, request.outputs, results)
  if (response.kind === 'json') return { id: request.id, body: Buffer.from(response.pieces.join(''), 'utf8'), headerLength: undefined }
  const { chunks, headerLength: responseHeaderLength, totalLength } = response.body
  return { id: request.id, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, totalLength), headerLength: responseHeaderLength }
}

function shorter(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b
  return b === undefined ? a : Math.min(a, b)
}

/** What becomes of a request that failed. */
export interface Failure {
  /** `dead`: the request itself is wrong, and will be wrong on every delivery; `retry`: it may succeed later. */
  readonly verdict: 'dead' | 'retry'
  /** The stable code, and the message when the error is one of ours. */
  readonly code: string
  readonly message: string
  /** A transient refusal (a full queue, a model not ready): retried after a delay without blame. */
  readonly transient: boolean
  /** Not raised on purpose (a bug, an unexpected error): its text is for the log, not the dead letter. */
  readonly internal: boolean
  /** `code` as a metric label (`codeLabel`). */
  readonly label: string
}

const OWN_CODES: ReadonlySet<string> = new Set([MaxDeliverError.code, JetStreamSettingError.code])

/**
 * A failure's verdict, read from the server's one error registry: what HTTP answers
 * with a 4xx (a request that does not match the model, a body that does not parse, a
 * NaN asked for as JSON) is the request's fault and goes to the dead letters at once;
 * everything else (a full queue, a crashed replica, a timeout) is retried.
 */
export function failureOf(error: unknown): Failure {
  const { code, message, internal } = publicErrorOf(error)
  const status = httpStatusOf(code)
  return {
    verdict: status >= 400 && status < 500 ? 'dead' : 'retry',
    code,
    message,
    transient: isRetryable(code),
    label: codeLabel(code),
    internal,
  }
}

/** A code as a metric label: a registered code or the consumer's own, else `ERR_OTHER` (a worker's codes are not bounded). */
export function codeLabel(code: string): string {
  return errorSpecOf(code) !== undefined || OWN_CODES.has(code) || code === INTERNAL_ERROR_CODE ? code : 'ERR_OTHER'
}
