import {
  booleanOption,
  describeValue as describe,
  finiteOption,
  functionOption,
  integerOption,
  invalidOption,
  MAX_TIMER_MS,
  numberOption,
} from './internal.js'
import { LatencyModel } from './latency-model.js'
import type { Formation } from './formation.js'
import type { CloseOptions, DynamicBatcherOptions, SubmitOptions } from './types.js'

/**
 * Defaults of every option, in one place. Why each value:
 * - `maxBatchSize: 32` — big enough to amortise a model call (per-call overhead of an
 *   ONNX session run and a thread hop is tens of µs), small enough that one batch of
 *   tabular/embedding rows stays in cache and tail latency stays low. Callers with a
 *   measured sweet spot set their own; the bench issue revisits it.
 * - `minBatchSize: 1`, `maxWaitMs: 0` — never add latency by default. With pull-based
 *   formation, batches grow on their own while a slot is busy (items queue up behind
 *   a running batch), so waiting is only worth it when slots are idle and requests
 *   trickle in; that is a deliberate trade a user opts into.
 * - `maxBatchCost: Infinity` — no cost budget unless the caller has a cost model.
 * - `maxQueueSize: Infinity`, `whenFull: 'reject'` — the batcher does not invent a
 *   capacity; once a bound is set, failing fast (`QueueFullError`, e.g. HTTP 503) is
 *   the safer default for a server than letting callers pile up.
 * - `maxConcurrentBatches: 1` — one batch at a time is the right shape for a single
 *   model instance; a pool of N replicas sets N (or N × per-replica concurrency).
 * - `isolateFailures: false` — splitting re-runs work; it is for processors whose
 *   failures are caused by single bad items.
 * - `statsWindow: 1024` — 3 × 8 KiB of samples; enough for a stable p99.
 * - `formation: 'count'` — costs nothing per item and needs no deadlines; `'deadline'`
 *   pays a walk of the queue per batch, worth it only when requests carry deadlines.
 */
export const defaults = {
  maxBatchSize: 32,
  minBatchSize: 1,
  maxWaitMs: 0,
  maxBatchCost: Infinity,
  maxQueueSize: Infinity,
  whenFull: 'reject' as 'wait' | 'reject',
  maxConcurrentBatches: 1,
  isolateFailures: false,
  statsWindow: 1024,
  formation: 'count' as 'count' | 'deadline',
} as const

export { MAX_TIMER_MS }

/** Options after validation and defaulting. */
export interface ResolvedOptions<Item> {
  maxBatchSize: number
  minBatchSize: number
  maxWaitMs: number
  maxBatchCost: number
  cost: ((item: Item) => number) | undefined
  maxQueueSize: number
  whenFull: 'wait' | 'reject'
  maxConcurrentBatches: number
  batchKey: ((item: Item) => unknown) | undefined
  isolateFailures: boolean
  now: () => number
  statsWindow: number
  formation: 'count' | 'deadline' | Formation
  latencyModel: LatencyModel
}

// The validators are shared with @inferpool/host (the `./internal` subpath).
export { describeValue as describe, integerOption, numberOption } from './internal.js'

function fail(name: string, expected: string, value: unknown, Kind: typeof TypeError | typeof RangeError): never {
  invalidOption(Kind === TypeError ? 'type' : 'range', name, expected, value)
}

const defaultNow = (): number => performance.now()

/** Validates every option once, at construction; throws TypeError/RangeError naming it. */
export function resolveOptions<Item>(options: DynamicBatcherOptions<Item> | undefined): ResolvedOptions<Item> {
  if (options === undefined) options = {}
  else if (options === null || typeof options !== 'object') fail('options', 'an object', options, TypeError)
  const o = options

  const maxBatchSize = o.maxBatchSize === undefined ? defaults.maxBatchSize : integerOption('maxBatchSize', o.maxBatchSize, 1)
  const minBatchSize = o.minBatchSize === undefined ? defaults.minBatchSize : integerOption('minBatchSize', o.minBatchSize, 1)
  if (minBatchSize > maxBatchSize) {
    throw new RangeError(`Expected \`minBatchSize\` to be <= \`maxBatchSize\` (${maxBatchSize}), got ${describe(minBatchSize)}`)
  }
  const whenFull = o.whenFull === undefined ? defaults.whenFull : o.whenFull
  if (whenFull !== 'wait' && whenFull !== 'reject') fail('whenFull', `'wait' or 'reject'`, whenFull, TypeError)
  const formation = o.formation === undefined ? defaults.formation : o.formation
  if (formation !== 'count' && formation !== 'deadline') checkFormation(formation)
  const latencyModel = o.latencyModel === undefined ? new LatencyModel() : o.latencyModel
  if (!(latencyModel instanceof LatencyModel)) fail('latencyModel', 'a LatencyModel', latencyModel, TypeError)

  return {
    maxBatchSize,
    minBatchSize,
    maxWaitMs: o.maxWaitMs === undefined ? defaults.maxWaitMs : numberOption('maxWaitMs', o.maxWaitMs, 0, { allowInfinity: true }),
    maxBatchCost:
      o.maxBatchCost === undefined
        ? defaults.maxBatchCost
        : numberOption('maxBatchCost', o.maxBatchCost, 0, { allowInfinity: true, exclusive: true }),
    cost: functionOption('cost', o.cost),
    maxQueueSize: o.maxQueueSize === undefined ? defaults.maxQueueSize : integerOption('maxQueueSize', o.maxQueueSize, 1, true),
    whenFull,
    maxConcurrentBatches:
      o.maxConcurrentBatches === undefined
        ? defaults.maxConcurrentBatches
        : integerOption('maxConcurrentBatches', o.maxConcurrentBatches, 1),
    batchKey: functionOption('batchKey', o.batchKey),
    isolateFailures: booleanOption('isolateFailures', o.isolateFailures, defaults.isolateFailures),
    now: functionOption<() => number>('now', o.now) ?? defaultNow,
    statsWindow: o.statsWindow === undefined ? defaults.statsWindow : integerOption('statsWindow', o.statsWindow, 1),
    formation,
    latencyModel,
  }
}

/** A user's `Formation`: checked once, at construction, for the members the batcher calls. */
function checkFormation(formation: unknown): asserts formation is Formation {
  const expected = `'count', 'deadline' or a Formation (an object with a \`next\` function and a boolean \`readsDeadlines\`)`
  if (formation === null || typeof formation !== 'object') fail('formation', expected, formation, TypeError)
  const f = formation as Record<string, unknown>
  if (typeof f.next !== 'function' || typeof f.readsDeadlines !== 'boolean') fail('formation', expected, formation, TypeError)
  for (const name of ['admissionMs', 'settled', 'rerunEndsAt']) {
    if (f[name] !== undefined && typeof f[name] !== 'function') fail(`formation.${name}`, 'a function', f[name], TypeError)
  }
}

/** Validated `submit()` options. `cost` is `undefined` when the caller gave none. */
export interface ResolvedSubmit {
  signal: AbortSignal | undefined
  timeoutMs: number
  priority: number
  cost: number | undefined
  /** `delayedPriority`: where a timed-out item moves (undefined: a timeout rejects). */
  delayedPriority: number | undefined
}

function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function' &&
    typeof (value as AbortSignal).removeEventListener === 'function'
  )
}

/**
 * Validates one `submit()` call's options into `out` (reused by the caller: this runs
 * per item, so it allocates nothing). Throws TypeError/RangeError naming the option.
 */
export function resolveSubmit(options: SubmitOptions, out: ResolvedSubmit): void {
  if (options === null || typeof options !== 'object') fail('options', 'an object', options, TypeError)
  resolveSubmitFields(options.signal, options.timeoutMs, options.priority, options.cost, out, options.delayedPriority)
}

/** `resolveSubmit` for option values already read off the object. */
export function resolveSubmitFields(
  signal: unknown,
  timeoutMs: unknown,
  priority: unknown,
  cost: unknown,
  out: ResolvedSubmit,
  delayedPriority?: unknown,
): void {
  if (signal !== undefined && !isAbortSignal(signal)) fail('signal', 'an AbortSignal', signal, TypeError)
  out.signal = signal
  out.timeoutMs =
    timeoutMs === undefined || timeoutMs === Infinity ? Infinity : numberOption('timeoutMs', timeoutMs, 0, { max: MAX_TIMER_MS })
  out.priority =
    priority === undefined ? 0 : typeof priority === 'number' && Number.isFinite(priority) ? priority : finiteOption('priority', priority)
  out.cost = cost === undefined ? undefined : checkCost(cost, 'cost')
  out.delayedPriority =
    delayedPriority === undefined
      ? undefined
      : typeof delayedPriority === 'number' && Number.isFinite(delayedPriority)
        ? delayedPriority
        : finiteOption('delayedPriority', delayedPriority)
}

/** Validates a cost computed by the `cost` option or the item's own estimator. */
export function checkCost(value: unknown, source: string): number {
  // Fast path first: this runs once per item.
  if (typeof value === 'number' && value >= 0 && value !== Infinity) return value
  return numberOption(source, value, 0)
}

export function resolveClose(options: CloseOptions | undefined): boolean {
  if (options === undefined) return true
  if (options === null || typeof options !== 'object') fail('options', 'an object', options, TypeError)
  return booleanOption('drain', options.drain, true)
}
