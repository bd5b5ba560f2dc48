/**
 * Failure modes that belong to serving. Each has its own class and stable `code`; what
 * each means on HTTP and gRPC (status, headers) is in the error registry
 * (error-registry.ts), with every other error class.
 */
import { InferpoolError } from '@inferpool/core'

/** Longest piece of a client's input an error message repeats. */
export const ECHO_MAX_CHARS = 256

/**
 * `text` whole when it has at most `maxChars` characters, else its first `maxChars`, an
 * ellipsis and its length: how a message that could grow with a client's input is cut.
 */
export function bounded(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}… (${text.length} characters)`
}

/**
 * A value from the client (a model name, a path) as an error repeats it. A message goes
 * back to the client (a gRPC status message travels in a trailer, which past about
 * 100 KB is never sent) and into the log, so neither may grow with the input.
 */
export function echo(value: string): string {
  return bounded(value, ECHO_MAX_CHARS)
}

/** No model with this name is served. */
export class ModelNotFoundError extends InferpoolError {
  static readonly code = 'ERR_MODEL_NOT_FOUND'
  constructor(name: string, versionName?: string) {
    const model = echo(name)
    const version = versionName === undefined ? undefined : echo(versionName)
    super(ModelNotFoundError.code, version === undefined ? `Unknown model '${model}'` : `Unknown model '${model}' version '${version}'`, {
      details: version === undefined ? { model } : { model, version },
    })
  }
}

/** The model is served but its pool has not finished loading (or failed to load). */
export class ModelNotReadyError extends InferpoolError {
  static readonly code = 'ERR_MODEL_NOT_READY'
  constructor(name: string, cause?: unknown, versionName?: string) {
    const model = echo(name)
    const version = versionName === undefined ? undefined : echo(versionName)
    super(
      ModelNotReadyError.code,
      version === undefined ? `Model '${model}' is not ready` : `Model '${model}' version '${version}' is not ready`,
      {
        details: version === undefined ? { model } : { model, version },
        cause,
      },
    )
  }
}

/** No route matches the path. */
export class RouteNotFoundError extends InferpoolError {
  static readonly code = 'ERR_NOT_FOUND'
  constructor(requestPath: string) {
    const path = echo(requestPath)
    super(RouteNotFoundError.code, `No route for ${path}`, { details: { path } })
  }
}

/** The route exists but not for this HTTP method. */
export class MethodNotAllowedError extends InferpoolError {
  static readonly code = 'ERR_METHOD_NOT_ALLOWED'
  readonly allowed: readonly string[]
  constructor(requestMethod: string, allowed: readonly string[]) {
    const method = echo(requestMethod)
    super(MethodNotAllowedError.code, `Method ${method} not allowed; use ${allowed.join(', ')}`, {
      details: { method, allowed },
    })
    this.allowed = allowed
  }
}

/** `apiKey` is set and the request has no valid `Authorization: Bearer` header. */
export class UnauthorizedError extends InferpoolError {
  static readonly code = 'ERR_UNAUTHORIZED'
  constructor() {
    super(UnauthorizedError.code, 'Missing or invalid bearer token')
  }
}

/**
 * The request body (or gRPC message) is longer than the server takes: `maxBodyBytes`, or
 * alone more than the whole `maxPendingBodyBytes` budget (it could never be taken).
 */
export class PayloadTooLargeError extends InferpoolError {
  static readonly code = 'ERR_PAYLOAD_TOO_LARGE'
  constructor(limit: number) {
    super(PayloadTooLargeError.code, `Request body exceeds the limit of ${limit} bytes`, { details: { limit } })
  }
}

/**
 * The request's body did not arrive within the server's body timeout (a stalled or
 * very slow client). Answered with 408 and the connection is closed.
 */
export class RequestTimeoutError extends InferpoolError {
  static readonly code = 'ERR_REQUEST_TIMEOUT'
  constructor(timeoutMs: number) {
    super(RequestTimeoutError.code, `The request body did not arrive within ${timeoutMs} ms`, { details: { timeoutMs } })
  }
}

/** The request body is not valid JSON (or not UTF-8). */
export class MalformedJsonError extends InferpoolError {
  static readonly code = 'ERR_MALFORMED_JSON'
  constructor(reason: string) {
    // The parser's reason quotes the body around the fault.
    super(MalformedJsonError.code, `Request body is not valid JSON: ${echo(reason)}`)
  }
}

/** The request body is compressed or otherwise encoded; only identity bodies are read. */
export class UnsupportedMediaTypeError extends InferpoolError {
  static readonly code = 'ERR_UNSUPPORTED_MEDIA_TYPE'
  constructor(what: string) {
    super(UnsupportedMediaTypeError.code, `Unsupported ${what}; send an uncompressed application/json body`)
  }
}

/**
 * A body of the binary tensor data extension whose framing does not add up: an
 * `Inference-Header-Content-Length` that is not a length or runs past the body, binary
 * sizes that do not match the bytes after the JSON header (short or trailing), or a
 * tensor whose byte size is not its shape × its datatype's size.
 */
export class MalformedBinaryError extends InferpoolError {
  static readonly code = 'ERR_MALFORMED_BINARY'
  constructor(reason: string, details?: Record<string, unknown>) {
    super(MalformedBinaryError.code, `Malformed binary tensor data: ${reason}`, details === undefined ? undefined : { details })
  }
}

/**
 * An output holds NaN or ±Infinity and was asked for as JSON, which has no way to write
 * them (writing `null` would silently change the datatype's meaning). Binary tensor data
 * carries them exactly.
 */
export class NonFiniteOutputError extends InferpoolError {
  static readonly code = 'ERR_NON_FINITE_OUTPUT'
  constructor(output: string) {
    super(
      NonFiniteOutputError.code,
      `Output "${output}" holds NaN or Infinity, which JSON cannot represent; ask for it as binary tensor data ` +
        `(outputs[].parameters.binary_data: true, or parameters.binary_data_output: true) to receive it exactly`,
      { details: { output } },
    )
  }
}

/** The server is shutting down and takes no new inference requests. */
export class ShuttingDownError extends InferpoolError {
  static readonly code = 'ERR_SHUTTING_DOWN'
  constructor() {
    super(ShuttingDownError.code, 'Server is shutting down')
  }
}

/** The model's outputs for the rows of one request cannot be put into one tensor. */
export class OutputShapeMismatchError extends InferpoolError {
  static readonly code = 'ERR_OUTPUT_SHAPE_MISMATCH'
  constructor(output: string, first: readonly number[], other: readonly number[], row: number) {
    super(
      OutputShapeMismatchError.code,
      `Output "${output}" has row dims [${first.join(', ')}] for row 0 but [${other.join(', ')}] for row ${row}`,
      { details: { output, row } },
    )
  }
}

/**
 * Taking this request's bytes would make the request bodies (HTTP) and messages (gRPC)
 * still arriving hold more than `maxPendingBodyBytes` at once. The request is refused
 * (503 / UNAVAILABLE) rather than held: the budget is what bounds the memory clients
 * can pin by sending slowly.
 */
export class PendingBodyBytesFullError extends InferpoolError {
  static readonly code = 'ERR_PENDING_BODY_BYTES_FULL'
  constructor(limit: number) {
    super(PendingBodyBytesFullError.code, `Requests still arriving hold the server's limit of ${limit} bytes; retry later`, {
      details: { limit },
    })
  }
}
