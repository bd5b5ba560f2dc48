import { InferpoolError } from '@inferpool/core'
import type { SerializedError, WorkerErrorCode } from './protocol.js'

/**
 * An error raised inside a worker with a chosen code. A user worker throws one (or
 * puts one in an item's place of a result) to make the host rebuild a specific error class;
 * anything else thrown by `run` reaches the caller as `ERR_INFERENCE`.
 */
export class WorkerError extends InferpoolError {
  constructor(code: WorkerErrorCode | (string & {}), message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(code, message, options)
  }
}

/**
 * Turns anything thrown into the plain `{ code, message, details }` that crosses the
 * thread boundary. An `InferpoolError` keeps its code and details; anything else
 * (an ONNX Runtime error, a user's exception) gets `fallbackCode`, with its original
 * name and code kept in `details` so nothing about the failure is lost.
 */
export function serializeError(err: unknown, fallbackCode: string, extraDetails?: Record<string, unknown>): SerializedError {
  if (err instanceof InferpoolError) {
    return { code: err.code, message: err.message, name: err.name, details: { ...err.details, ...extraDetails } }
  }
  const message = err instanceof Error ? err.message : String(err)
  const details: Record<string, unknown> = { ...extraDetails, name: err instanceof Error ? err.name : typeof err }
  const ownCode = (err as { code?: unknown } | null)?.code
  if (typeof ownCode === 'string' || typeof ownCode === 'number') details.originalCode = ownCode
  return { code: fallbackCode, message, name: 'Error', details }
}
