/**
 * Errors the pool raises, one class per failure mode, each with a stable `code`
 * (the batcher's own — `ERR_QUEUE_FULL`, `ERR_TIMEOUT`, `ERR_BATCHER_CLOSED`,
 * `ERR_BATCH_SIZE_MISMATCH`, `ERR_ITEM_TOO_LARGE` — come from @inferpool/core).
 * Errors raised inside a worker travel as `{ code, message, details }` and are rebuilt
 * by `fromWire` (wire-errors.ts); what each means on HTTP and gRPC is the server's registry.
 */
import { InferpoolError } from '@inferpool/core'

type ErrorOptions = { cause?: unknown; details?: Record<string, unknown> }

/** The model (or a user worker's `load`) failed to load in a worker. */
export class ModelLoadError extends InferpoolError {
  static readonly code = 'ERR_MODEL_LOAD'
  constructor(message: string, options?: ErrorOptions) {
    super(ModelLoadError.code, message, options)
  }
}

/** The requested execution provider (CUDA) is not installed or cannot be loaded. */
export class ProviderUnavailableError extends InferpoolError {
  static readonly code = 'ERR_PROVIDER_UNAVAILABLE'
  constructor(message: string, options?: ErrorOptions) {
    super(ProviderUnavailableError.code, message, options)
  }
}

/** A request does not match the model's inputs; rejected before it is queued. */
export class InvalidInputError extends InferpoolError {
  static readonly code = 'ERR_INVALID_INPUT'
  constructor(message: string, options?: ErrorOptions) {
    super(InvalidInputError.code, message, options)
  }
}

/** ONNX Runtime (or a user worker's `run`) failed on this row, alone. */
export class InferenceError extends InferpoolError {
  static readonly code = 'ERR_INFERENCE'
  constructor(message: string, options?: ErrorOptions) {
    super(InferenceError.code, message, options)
  }
}

/** The worker thread died while running this row, twice, even alone in its batch. */
export class WorkerCrashedError extends InferpoolError {
  static readonly code = 'ERR_WORKER_CRASHED'
  constructor(message: string, options?: ErrorOptions) {
    super(WorkerCrashedError.code, message, options)
  }
}

/** Not every replica loaded within `startupTimeoutMs`. */
export class StartupTimeoutError extends InferpoolError {
  static readonly code = 'ERR_STARTUP_TIMEOUT'
  constructor(timeoutMs: number, loaded: number, replicas: number) {
    super(StartupTimeoutError.code, `Only ${loaded} of ${replicas} replicas loaded within startupTimeoutMs (${timeoutMs} ms)`, {
      details: { timeoutMs, loaded, replicas },
    })
  }
}

/** A batch did not finish within `batchTimeoutMs`; its replica is taken out of service and replaced (an ONNX thread once its native run returns). */
export class BatchTimeoutError extends InferpoolError {
  static readonly code = 'ERR_BATCH_TIMEOUT'
  /** @param consequence what became of the replica running it (a thread inside a native call is only replaced once the call returns). */
  constructor(timeoutMs: number, rows: number, consequence = 'the worker thread running it was terminated') {
    super(BatchTimeoutError.code, `The batch did not finish within batchTimeoutMs (${timeoutMs} ms); ${consequence}`, {
      details: { timeoutMs, rows },
    })
  }
}

/** An error code from a worker (or across a port) that no registered class has: a user worker's own code. */
export class RemoteWorkerError extends InferpoolError {
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}
