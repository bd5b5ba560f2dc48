/**
 * Options of the request handler and the server: defaults in one object, each option
 * validated once, at construction, with a message naming the option and echoing the
 * bad value.
 */
import type { Registry } from 'prom-client'

export interface RequestHandlerOptions {
  /**
   * Bearer token. When set, every route except `/v2/health/*` answers 401 unless the
   * request has `Authorization: Bearer <apiKey>` (compared in constant time).
   * @default undefined (no authentication)
   */
  apiKey?: string
  /**
   * Largest request body in bytes. A longer body is answered with 413 as soon as the
   * limit is crossed (or at once from `Content-Length`); it is never buffered whole.
   * @default 16777216 (16 MiB)
   */
  maxBodyBytes?: number
  /**
   * Most rows (first dim of `shape`) one inference request may carry; each row is one
   * request to the pool.
   * @default 1024
   */
  maxRowsPerRequest?: number
  /**
   * Per-row timeout in ms passed to `pool.infer`; when it passes the request is
   * answered with 504. Overrides the pool's own `timeoutMs`.
   * @default undefined (the pool's `timeoutMs`)
   */
  timeoutMs?: number
  /**
   * Seconds sent in `Retry-After` with a 503 when the pool's queue is full.
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
  maxRowsPerRequest: 1024,
  retryAfterSeconds: 1,
  processMetrics: false,
} as const

function typeOf(value: unknown): string {
  return value === null ? 'null' : typeof value
}

/** Throws unless `value` is an integer >= `min` (or `undefined` when optional). */
export function checkInteger(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`Expected \`${name}\` to be an integer >= ${min}, got \`${String(value)}\` (${typeOf(value)})`)
  }
  if (value < min) throw new RangeError(`Expected \`${name}\` to be an integer >= ${min}, got \`${value}\``)
  return value
}

/** Throws unless `value` is a finite number > 0. */
export function checkPositive(name: string, value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`Expected \`${name}\` to be a finite number > 0, got \`${String(value)}\` (${typeOf(value)})`)
  }
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`Expected \`${name}\` to be a finite number > 0, got \`${value}\``)
  }
  return value
}

export interface ResolvedHandlerOptions {
  apiKey: string | undefined
  maxBodyBytes: number
  maxRowsPerRequest: number
  timeoutMs: number | undefined
  retryAfterSeconds: number
  registry: Registry | undefined
  processMetrics: boolean
  logger: Pick<Console, 'error'>
  collectMetrics: (registry: Registry) => Promise<string>
}

export function resolveHandlerOptions(options: RequestHandlerOptions = {}): ResolvedHandlerOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected \`options\` to be an object, got \`${String(options)}\` (${typeOf(options)})`)
  }
  const { apiKey, timeoutMs, registry, processMetrics, logger, collectMetrics } = options
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.length === 0)) {
    throw new TypeError(`Expected \`apiKey\` to be a non-empty string, got \`${String(apiKey)}\` (${typeOf(apiKey)})`)
  }
  if (processMetrics !== undefined && typeof processMetrics !== 'boolean') {
    throw new TypeError(`Expected \`processMetrics\` to be a boolean, got \`${String(processMetrics)}\` (${typeOf(processMetrics)})`)
  }
  if (logger !== undefined && (typeof logger !== 'object' || logger === null || typeof logger.error !== 'function')) {
    throw new TypeError(`Expected \`logger\` to have an \`error\` method, got \`${String(logger)}\` (${typeOf(logger)})`)
  }
  if (registry !== undefined && (typeof registry !== 'object' || registry === null || typeof registry.metrics !== 'function')) {
    throw new TypeError(`Expected \`registry\` to be a prom-client Registry, got \`${String(registry)}\` (${typeOf(registry)})`)
  }
  if (collectMetrics !== undefined && typeof collectMetrics !== 'function') {
    throw new TypeError(`Expected \`collectMetrics\` to be a function, got \`${String(collectMetrics)}\` (${typeOf(collectMetrics)})`)
  }
  return {
    apiKey,
    maxBodyBytes: checkInteger('maxBodyBytes', options.maxBodyBytes ?? HANDLER_DEFAULTS.maxBodyBytes, 1),
    maxRowsPerRequest: checkInteger('maxRowsPerRequest', options.maxRowsPerRequest ?? HANDLER_DEFAULTS.maxRowsPerRequest, 1),
    timeoutMs: timeoutMs === undefined ? undefined : checkPositive('timeoutMs', timeoutMs),
    retryAfterSeconds: checkInteger('retryAfterSeconds', options.retryAfterSeconds ?? HANDLER_DEFAULTS.retryAfterSeconds, 0),
    registry,
    processMetrics: processMetrics ?? HANDLER_DEFAULTS.processMetrics,
    logger: logger ?? console,
    collectMetrics: collectMetrics ?? ((own) => own.metrics()),
  }
}
