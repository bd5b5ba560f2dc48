/**
 * One class per failure mode, each with a stable `code` (as undici's
 * `lib/core/errors.js`). Callers branch on `err.code`, never on message text.
 * Other packages extend `InferpoolError` with their own codes.
 */

/** Plain, structured-clone-safe form of an error, for crossing thread boundaries. */
export interface SerializedError {
  code: string
  message: string
  name?: string
  /** The far side's stack, when it is worth keeping (not sent to clients). */
  stack?: string
  details?: Record<string, unknown>
}

/** Base class of every error inferpool raises on purpose. */
export class InferpoolError extends Error {
  /** Stable machine-readable identifier, e.g. `ERR_QUEUE_FULL`. */
  readonly code: string
  /** Structured facts about the failure (the values involved). */
  readonly details: Record<string, unknown> | undefined

  /**
   * `options.stack: false` leaves the stack trace out: for the errors that shed load
   * (refused, timed out, cannot make its deadline), made once per request under
   * overload, when capturing a trace is most of a refused request's cost and it only
   * points into the batcher (docs/runtime-facts.md#v8-on-the-hot-path).
   */
  constructor(code: string, message: string, options?: { cause?: unknown; details?: Record<string, unknown>; stack?: false }) {
    const limit = Error.stackTraceLimit
    if (options?.stack === false) Error.stackTraceLimit = 0
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    Error.stackTraceLimit = limit
    this.name = new.target.name
    this.code = code
    this.details = options?.details
  }

  toJSON(): SerializedError {
    return { code: this.code, message: this.message, name: this.name, details: this.details }
  }
}

/** The queue holds `maxQueueSize` items and `whenFull` is `'reject'`. */
export class QueueFullError extends InferpoolError {
  static readonly code = 'ERR_QUEUE_FULL'
  constructor(maxQueueSize: number) {
    super(QueueFullError.code, `Queue is full (maxQueueSize: ${maxQueueSize})`, { details: { maxQueueSize }, stack: false })
  }
}

/** `processBatch` returned a result array whose length differs from the batch's. */
export class BatchSizeMismatchError extends InferpoolError {
  static readonly code = 'ERR_BATCH_SIZE_MISMATCH'
  constructor(expected: number, actual: number, what = 'results') {
    super(BatchSizeMismatchError.code, `Expected ${expected} ${what} for a batch of ${expected} items, got ${actual}`, {
      details: { expected, actual },
    })
  }
}

/** An item's cost exceeds `maxBatchCost`: it could never fit a batch. */
export class ItemTooLargeError extends InferpoolError {
  static readonly code = 'ERR_ITEM_TOO_LARGE'
  constructor(cost: number, maxBatchCost: number) {
    super(ItemTooLargeError.code, `Item cost ${cost} exceeds maxBatchCost ${maxBatchCost}`, {
      details: { cost, maxBatchCost },
    })
  }
}

/** The batcher is closing or closed and accepts no more items. */
export class BatcherClosedError extends InferpoolError {
  static readonly code = 'ERR_BATCHER_CLOSED'
  constructor(message = 'Batcher is closed') {
    super(BatcherClosedError.code, message)
  }
}

/** The request's `timeoutMs` passed before its result arrived. */
export class TimeoutError extends InferpoolError {
  static readonly code = 'ERR_TIMEOUT'
  constructor(timeoutMs: number) {
    super(TimeoutError.code, `Request timed out after ${timeoutMs} ms`, { details: { timeoutMs }, stack: false })
  }
}

/**
 * A `submitMany` request holds more items than the whole queue (`maxQueueSize`): it
 * could never be admitted, however long the caller retried.
 */
export class RequestTooLargeError extends InferpoolError {
  static readonly code = 'ERR_REQUEST_TOO_LARGE'
  constructor(items: number, maxQueueSize: number) {
    super(RequestTooLargeError.code, `Request of ${items} items exceeds the whole queue (maxQueueSize: ${maxQueueSize})`, {
      details: { items, maxQueueSize },
    })
  }
}

/**
 * The request will not meet its deadline, found before it ran (`formation: 'deadline'`),
 * so it is failed at once instead of being run late or left to time out in the queue.
 * The figures (`estimatedMs`, `batchSize`) are those of the batch that decided it: a
 * batch of one, when even alone it would be late; its own batch, when the replica (or a
 * re-send) left it out right before the run; or, under overload, the fuller batch that
 * goes instead of the head of the queue, when dropping the head answers more in time.
 */
export class DeadlineExceededError extends InferpoolError {
  static readonly code = 'ERR_DEADLINE_EXCEEDED'
  constructor(leftMs: number, estimatedMs: number, batchSize = 1) {
    super(
      DeadlineExceededError.code,
      `Request cannot meet its deadline: ${round(leftMs)} ms left, a batch of ${batchSize === 1 ? 'one' : batchSize} is estimated to end in ${round(estimatedMs)} ms`,
      { details: { leftMs, estimatedMs, batchSize }, stack: false },
    )
  }
}

/**
 * Refused at the door (`formation: 'deadline'`): the request's `timeoutMs` is shorter
 * than the estimated time to drain the queue ahead of it and run it, so it would only
 * time out in the queue. Retrying later (or elsewhere) may succeed.
 */
export class DeadlineUnattainableError extends InferpoolError {
  static readonly code = 'ERR_DEADLINE_UNATTAINABLE'
  constructor(timeoutMs: number, drainMs: number) {
    super(
      DeadlineUnattainableError.code,
      `Request refused: its timeout of ${round(timeoutMs)} ms is shorter than the queue's estimated drain of ${round(drainMs)} ms`,
      { details: { timeoutMs, drainMs }, stack: false },
    )
  }
}

/** Milliseconds as shown in messages: 3 significant decimals at most. */
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000
}
