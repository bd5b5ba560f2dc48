/**
 * Options of the request handler and the server: defaults in one object, each option
 * validated once, at construction, with a message naming the option and echoing the
 * bad value.
 */
import {
  booleanOption,
  functionOption,
  integerOption,
  invalidOption,
  MAX_TIMER_MS,
  numberOption,
  stringOption,
} from '@inferpool/core/internal'
import type { Registry } from 'prom-client'
import type { ModelControl } from './model-control.js'

export interface RequestHandlerOptions {
  /**
   * Bearer token. When set, every route except `/v2/health/*` answers 401 unless the
   * request has `Authorization: Bearer <apiKey>` (compared in constant time).
   * @default undefined (no authentication)
   */
  apiKey?: string
  /**
   * The model repository extension (`POST /v2/repository/...`, the gRPC Repository*
   * RPCs): served, and listed as `model_repository` in the server metadata, only when
   * set. With it the server may start with no model (they are loaded through it).
   * @default undefined (the extension is off)
   */
  modelControl?: ModelControl
  /**
   * Bearer token of the model repository calls, apart from `apiKey` (which they then do
   * not accept): loading a model is running code on the server.
   * @default undefined (the repository calls take `apiKey`, or no token without one; keep the server on 127.0.0.1)
   */
  repositoryToken?: string
  /**
   * Largest request body in bytes. A longer body is answered with 413 as soon as the
   * limit is crossed (or at once from `Content-Length`); it is never buffered whole.
   * @default 16777216 (16 MiB)
   */
  maxBodyBytes?: number
  /**
   * Most bytes that all requests still arriving may hold at once, HTTP bodies and gRPC
   * messages together (a body gives its bytes back once complete, a gRPC message once past the door). A
   * request whose next bytes would pass it is refused with 503 / UNAVAILABLE
   * (`ERR_PENDING_BODY_BYTES_FULL`) instead of being held: with `bodyTimeoutMs`, it bounds
   * the memory slow or stalled clients can pin. A request larger than the whole budget
   * (set below `maxBodyBytes` or gRPC's `maxMessageBytes`) could never be taken: it gets
   * 413 / RESOURCE_EXHAUSTED (`ERR_PAYLOAD_TOO_LARGE`), not a retry hint.
   * @default 134217728 (128 MiB: eight bodies of the default `maxBodyBytes`)
   */
  maxPendingBodyBytes?: number
  /**
   * Most rows (first dim of `shape`) one inference request may carry; each row is one
   * request to the pool.
   * @default 1024
   */
  maxRowsPerRequest?: number
  /**
   * Deadline of an inference request in ms, counted from its arrival (body read
   * included): past it the request is answered with 504 and its rows leave the queue
   * together. Overrides the pool's own `timeoutMs` (which counts from queueing).
   * @default undefined (the pool's `timeoutMs`)
   */
  timeoutMs?: number
  /**
   * Longest time in ms for a request's body to arrive once its headers have (a wait
   * for room at the door, body unread, does not count); a stalled or very slow body is
   * answered with 408 and its connection closed.
   * @default 30000
   */
  bodyTimeoutMs?: number
  /**
   * After answering a request whose body was not read to the end with a connection
   * close (body over `maxBodyBytes`, a timeout, a shutdown), the longest time in ms the
   * server keeps reading and discarding it, so the client sees the answer instead of a
   * reset. Shorter bodies are discarded and the connection kept.
   * @default 2000
   */
  lingerMs?: number
  /**
   * With `whenFull: 'reject'`, how long in ms a request whose rows do not fit the queue
   * waits for room, with its body unread (held by TCP flow control, at no CPU cost),
   * first come first served, before it gets 503. Bounds the refusals a client that
   * retries at once can cause to about one per wait; 0 refuses at once. (With
   * `whenFull: 'wait'` a request waits until its deadline.)
   * @default 1000
   */
  admissionWaitMs?: number
  /**
   * Seconds sent in `Retry-After` with a 503 for lack of room when the pool has
   * measured no drain rate yet (otherwise the rate decides: the time for the queue to
   * free room for the request, 1–60 s).
   * @default 1
   */
  retryAfterSeconds?: number
  /**
   * Registry the metrics are registered in. Give one to add your own metrics next to
   * inferpool's; by default each handler has its own (never prom-client's global).
   * @default new Registry()
   */
  registry?: Registry
  /**
   * Also collect prom-client's default Node process metrics (CPU, memory, event loop
   * lag, GC) in the registry.
   * @default false
   */
  processMetrics?: boolean
  /**
   * Where unexpected (500) errors are logged.
   * @default console
   */
  logger?: Pick<Console, 'error'>
  /**
   * What `GET /metrics` answers, given this handler's registry (Prometheus text format).
   * `inferpool serve --processes n` sets it to the aggregate of every server process.
   * @default (registry) => registry.metrics()
   */
  collectMetrics?: (registry: Registry) => Promise<string>
}

export const HANDLER_DEFAULTS = {
  maxBodyBytes: 16 * 1024 * 1024,
  maxPendingBodyBytes: 128 * 1024 * 1024,
  maxRowsPerRequest: 1024,
  bodyTimeoutMs: 30_000,
  lingerMs: 2_000,
  admissionWaitMs: 1_000,
  retryAfterSeconds: 1,
  processMetrics: false,
} as const

/** An integer >= `min` (the one validator set: @inferpool/core/internal). */
export function checkInteger(name: string, value: unknown, min: number, max = Infinity): number {
  return integerOption(name, value, min, false, max)
}

/**
 * A duration in ms that becomes a timer: an integer in [`min`, 2^31 − 1]. `setTimeout`
 * fires a longer delay after 1 ms (with a warning), so an unbounded option would be
 * accepted here and then fail every request.
 */
export function checkTimerMs(name: string, value: unknown, min: number): number {
  return integerOption(name, value, min, false, MAX_TIMER_MS)
}

export interface ResolvedHandlerOptions {
  apiKey: string | undefined
  modelControl: ModelControl | undefined
  repositoryToken: string | undefined
  maxBodyBytes: number
  maxPendingBodyBytes: number
  maxRowsPerRequest: number
  timeoutMs: number | undefined
  bodyTimeoutMs: number
  lingerMs: number
  admissionWaitMs: number
  retryAfterSeconds: number
  registry: Registry | undefined
  processMetrics: boolean
  logger: Pick<Console, 'error'>
  collectMetrics: (registry: Registry) => Promise<string>
}

export function resolveHandlerOptions(options: RequestHandlerOptions = {}): ResolvedHandlerOptions {
  if (typeof options !== 'object' || options === null) invalidOption('type', 'options', 'an object', options)
  const { timeoutMs, registry, logger, collectMetrics } = options
  const apiKey = stringOption('apiKey', options.apiKey)
  const repositoryToken = stringOption('repositoryToken', options.repositoryToken)
  const modelControl = options.modelControl
  if (
    modelControl !== undefined &&
    (typeof modelControl !== 'object' ||
      modelControl === null ||
      typeof modelControl.load !== 'function' ||
      typeof modelControl.index !== 'function')
  ) {
    invalidOption('type', 'modelControl', 'an object with index, load and unload methods', modelControl)
  }
  const processMetrics = booleanOption('processMetrics', options.processMetrics, HANDLER_DEFAULTS.processMetrics)
  if (logger !== undefined && (typeof logger !== 'object' || logger === null || typeof logger.error !== 'function')) {
    invalidOption('type', 'logger', 'an object with an `error` method', logger)
  }
  if (registry !== undefined && (typeof registry !== 'object' || registry === null || typeof registry.metrics !== 'function')) {
    invalidOption('type', 'registry', 'a prom-client Registry', registry)
  }
  const collect = functionOption<(registry: Registry) => Promise<string>>('collectMetrics', collectMetrics)
  return {
    apiKey,
    modelControl,
    repositoryToken,
    maxBodyBytes: checkInteger('maxBodyBytes', options.maxBodyBytes ?? HANDLER_DEFAULTS.maxBodyBytes, 1),
    maxPendingBodyBytes: checkInteger('maxPendingBodyBytes', options.maxPendingBodyBytes ?? HANDLER_DEFAULTS.maxPendingBodyBytes, 1),
    maxRowsPerRequest: checkInteger('maxRowsPerRequest', options.maxRowsPerRequest ?? HANDLER_DEFAULTS.maxRowsPerRequest, 1),
    // A fraction of a ms is a deadline too (the pool takes one); only the timer's bound matters.
    timeoutMs: timeoutMs === undefined ? undefined : numberOption('timeoutMs', timeoutMs, 0, { exclusive: true, max: MAX_TIMER_MS }),
    bodyTimeoutMs: checkTimerMs('bodyTimeoutMs', options.bodyTimeoutMs ?? HANDLER_DEFAULTS.bodyTimeoutMs, 1),
    lingerMs: checkTimerMs('lingerMs', options.lingerMs ?? HANDLER_DEFAULTS.lingerMs, 0),
    admissionWaitMs: checkTimerMs('admissionWaitMs', options.admissionWaitMs ?? HANDLER_DEFAULTS.admissionWaitMs, 0),
    retryAfterSeconds: checkInteger('retryAfterSeconds', options.retryAfterSeconds ?? HANDLER_DEFAULTS.retryAfterSeconds, 0),
    registry,
    processMetrics,
    logger: logger ?? console,
    collectMetrics: collect ?? ((own) => own.metrics()),
  }
}
