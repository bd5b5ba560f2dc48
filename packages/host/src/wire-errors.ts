/**
 * How an error crosses a thread or process boundary (a replica's answer, the comlink
 * bridge of `exposePool`/`connectPool`) and comes back in its own class. The pool's side
 * of the one error vocabulary: which classes can be rebuilt, by `code`. What each code
 * means on HTTP and gRPC is the server's registry (@inferpool/server), which describes
 * these same classes and imports them from here and from @inferpool/core.
 */
import {
  BatchSizeMismatchError,
  BatcherClosedError,
  DeadlineExceededError,
  DeadlineUnattainableError,
  ItemTooLargeError,
  QueueFullError,
  RequestTooLargeError,
  TimeoutError,
} from '@inferpool/core'
import type { InferpoolError, SerializedError } from '@inferpool/core'
import {
  BatchTimeoutError,
  InferenceError,
  InvalidInputError,
  ModelLoadError,
  ProviderUnavailableError,
  RemoteWorkerError,
  StartupTimeoutError,
  WorkerCrashedError,
} from './errors.js'
import { RemoteConnectTimeoutError, RemotePoolClosedError } from './remote/errors.js'

/** An error class that declares its stable `code`. */
export type CodedErrorClass = (abstract new (...args: never[]) => InferpoolError) & { readonly code: string }

/**
 * Every error class with a fixed code that the pool (and the batcher under it) raises:
 * what a replica, a remote pool or a process can send back by code. (`RemoteWorkerError`
 * carries a user worker's own code: it is what any other code becomes.)
 */
export const POOL_ERROR_CLASSES: readonly CodedErrorClass[] = Object.freeze([
  InvalidInputError,
  ItemTooLargeError,
  RequestTooLargeError,
  QueueFullError,
  TimeoutError,
  DeadlineExceededError,
  DeadlineUnattainableError,
  BatcherClosedError,
  BatchSizeMismatchError,
  BatchTimeoutError,
  InferenceError,
  WorkerCrashedError,
  ModelLoadError,
  ProviderUnavailableError,
  StartupTimeoutError,
  RemotePoolClosedError,
  RemoteConnectTimeoutError,
])

const BY_CODE: ReadonlyMap<string, CodedErrorClass> = new Map(POOL_ERROR_CLASSES.map((cls) => [cls.code, cls]))

/**
 * The one serialized shape of an error crossing a thread or process boundary
 * (structured-clone and JSON safe): what `InferpoolError.toJSON()` gives, plus the stack.
 */
export function toWire(error: Error & { code: string }): SerializedError {
  const details = (error as { details?: unknown }).details
  const wire: SerializedError = { code: error.code, message: error.message, name: error.name }
  if (error.stack !== undefined) wire.stack = error.stack
  if (cloneable(details)) wire.details = details as Record<string, unknown>
  return wire
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
 * Rebuilds an error that crossed a boundary into its own class, found by `code`,
 * without calling its constructor (constructors take failure-specific arguments, not a
 * message): `instanceof`, `name`, `code`, `message`, `details` and the far side's stack
 * all survive. A code the pool does not raise becomes a `RemoteWorkerError` with that code.
 */
export function fromWire(wire: SerializedError): InferpoolError {
  const cls = BY_CODE.get(wire.code) ?? RemoteWorkerError
  const name = wire.name ?? (cls === RemoteWorkerError ? 'RemoteWorkerError' : cls.name)
  const error = Object.create(cls.prototype as object) as InferpoolError
  Object.defineProperties(error, {
    name: { value: name, writable: true, configurable: true },
    message: { value: wire.message, writable: true, configurable: true },
    code: { value: wire.code, enumerable: true },
    details: { value: wire.details, enumerable: true },
    stack: { value: wire.stack ?? `${name}: ${wire.message}`, writable: true, configurable: true },
  })
  return error
}
