/**
 * Errors across a `MessagePort`: the failure mode of the bridge itself, and how any
 * inferpool error keeps its class, `code` and `details` on the way over.
 */
import {
  BatchSizeMismatchError,
  BatcherClosedError,
  InferpoolError,
  ItemTooLargeError,
  QueueFullError,
  TimeoutError,
} from '@inferpool/core'
import {
  InferenceError,
  InvalidInputError,
  ModelLoadError,
  ProviderUnavailableError,
  StartupTimeoutError,
  WorkerCrashedError,
  BatchTimeoutError,
} from '../errors.js'
import {
  MalformedJsonError,
  MethodNotAllowedError,
  ModelNotFoundError,
  ModelNotReadyError,
  OutputShapeMismatchError,
  PayloadTooLargeError,
  RouteNotFoundError,
  ShuttingDownError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '../server/errors.js'

/**
 * The remote handle was closed, or the port to the thread that owns the pool closed
 * (that thread ended or released it): the call cannot be answered.
 */
export class RemotePoolClosedError extends InferpoolError {
  static readonly code = 'ERR_REMOTE_CLOSED'
  constructor(reason = 'The remote pool handle is closed') {
    super(RemotePoolClosedError.code, reason)
  }
}

/** `connectPool` got no answer from the other end of the port within `connectTimeoutMs`. */
export class RemoteConnectTimeoutError extends InferpoolError {
  static readonly code = 'ERR_REMOTE_CONNECT_TIMEOUT'
  constructor(timeoutMs: number) {
    super(
      RemoteConnectTimeoutError.code,
      `No pool answered on the port within ${timeoutMs} ms; call exposePool(pool, port) on the other end`,
      { details: { timeoutMs } },
    )
  }
}

type ErrorClass = (abstract new (...args: never[]) => InferpoolError) & { readonly code: string }

const CLASSES: ReadonlyMap<string, ErrorClass> = new Map(
  (
    [
      QueueFullError,
      BatchSizeMismatchError,
      ItemTooLargeError,
      BatcherClosedError,
      TimeoutError,
      ModelLoadError,
      ProviderUnavailableError,
      InvalidInputError,
      InferenceError,
      WorkerCrashedError,
      StartupTimeoutError,
      BatchTimeoutError,
      ModelNotFoundError,
      ModelNotReadyError,
      RouteNotFoundError,
      MethodNotAllowedError,
      UnauthorizedError,
      PayloadTooLargeError,
      MalformedJsonError,
      UnsupportedMediaTypeError,
      ShuttingDownError,
      OutputShapeMismatchError,
      RemotePoolClosedError,
      RemoteConnectTimeoutError,
    ] satisfies ErrorClass[]
  ).map((cls) => [cls.code, cls]),
)

/** An error as it crosses the port (structured-clone safe). */
export interface WireError {
  readonly code: string
  readonly message: string
  readonly name: string
  readonly stack: string | undefined
  readonly details: Record<string, unknown> | undefined
}

export function toWireError(error: Error & { code: string }): WireError {
  const details = (error as { details?: unknown }).details
  return {
    code: error.code,
    message: error.message,
    name: error.name,
    stack: error.stack,
    details: cloneable(details) ? (details as Record<string, unknown>) : undefined,
  }
}

function cloneable(value: unknown): boolean {
  if (value === undefined || value === null || typeof value !== 'object') return false
  try {
    structuredClone(value)
    return true
  } catch {
    return false
  }
}

/**
 * Rebuilds the error's own class from its `code` without calling its constructor
 * (constructors take failure-specific arguments, not a message), so `instanceof`,
 * `name`, `code`, `message`, `details` and the remote stack all survive. Unknown codes
 * become a plain `InferpoolError` with that code.
 */
export function fromWireError(wire: WireError): InferpoolError {
  const cls = CLASSES.get(wire.code)
  const options = wire.details === undefined ? undefined : { details: wire.details }
  if (cls === undefined) {
    const error = new InferpoolError(wire.code, wire.message, options)
    error.name = wire.name
    return error
  }
  const error = Object.create(cls.prototype as object) as InferpoolError
  Object.defineProperties(error, {
    name: { value: wire.name, writable: true, configurable: true },
    message: { value: wire.message, writable: true, configurable: true },
    code: { value: wire.code, enumerable: true },
    details: { value: wire.details, enumerable: true },
    stack: { value: wire.stack ?? `${wire.name}: ${wire.message}`, writable: true, configurable: true },
  })
  return error
}
