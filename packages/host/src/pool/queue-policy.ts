/**
 * Triton's queue policies (`ModelQueuePolicy`, priority levels) → the batcher's options
 * for each request: its priority, its timeout, what its timeout does (reject, or move
 * it behind the rows still in time: `delayedPriority`), and the bound on its level.
 *
 * Levels map onto the batcher's numeric priorities (higher first): level L is -2L, and
 * its delayed rows -2L - 1 — behind the rows of level L still in time, ahead of level
 * L + 1, as Triton orders them. Without levels, a delayed row goes to its priority
 * minus one half: behind its own priority, ahead of the next lower integer one.
 */
import { QueueFullError, type SubmitOptions } from '@inferpool/core'
import { integerOption, invalidOption } from '@inferpool/core/internal'
import type { InferOptions } from '../types.js'

/** One level's policy, resolved. */
export interface LevelPolicy {
  /** `default_timeout_microseconds` in ms (undefined: none). */
  timeoutMs: number | undefined
  /** `allow_timeout_override`: a request may shorten the timeout (never lengthen it). */
  override: boolean
  /** `timeout_action: DELAY`. */
  delay: boolean
  /** `max_queue_size` (undefined: unbounded). */
  maxQueueSize: number | undefined
}

/** Validates one `QueuePolicy` (`name` for messages) into its level policy. */
export function resolveLevelPolicy(name: string, value: unknown): LevelPolicy {
  if (value === undefined) value = {}
  if (typeof value !== 'object' || value === null) invalidOption('type', name, 'an object', value)
  const policy = value as Record<string, unknown>
  const action = policy.timeoutAction ?? 'reject'
  if (action !== 'reject' && action !== 'delay') invalidOption('range', `${name}.timeoutAction`, "'reject' or 'delay'", action)
  const timeoutUs =
    policy.defaultTimeoutMicroseconds === undefined
      ? 0
      : integerOption(`${name}.defaultTimeoutMicroseconds`, policy.defaultTimeoutMicroseconds, 0)
  const override = policy.allowTimeoutOverride ?? false
  if (typeof override !== 'boolean') invalidOption('type', `${name}.allowTimeoutOverride`, 'a boolean', override)
  const bound = policy.maxQueueSize === undefined ? 0 : integerOption(`${name}.maxQueueSize`, policy.maxQueueSize, 0)
  return {
    timeoutMs: timeoutUs === 0 ? undefined : timeoutUs / 1000,
    override,
    delay: action === 'delay',
    maxQueueSize: bound === 0 ? undefined : bound,
  }
}

/**
 * The queue policies of a pool with Triton's `priority_levels`, `default_priority_level`,
 * `priority_queue_policy` and `default_queue_policy`, or its `default_queue_policy` alone
 * (`levels` 0). Made once per pool; asked once per request.
 */
export class QueuePolicies {
  /** Rows of each level not answered yet (only levels with a `maxQueueSize` count them). */
  private readonly pending: number[]

  constructor(
    /** `priority_levels` (0: none). */
    readonly levels: number,
    /** `default_priority_level` (0 without levels). */
    readonly defaultLevel: number,
    /** Index 0: the policy without levels; 1..levels: each level's. */
    private readonly policies: readonly LevelPolicy[],
  ) {
    this.pending = new Array<number>(policies.length).fill(0)
  }

  /** The level of a request (0 without levels): out-of-range and 0 mean the default, as in Triton. */
  levelOf(inferOptions: InferOptions): number {
    if (this.levels === 0) return 0
    const level = inferOptions.priorityLevel
    if (level === undefined || level === 0) return this.defaultLevel
    if (!Number.isInteger(level) || level < 0) invalidOption('type', 'priorityLevel', 'an integer >= 0', level)
    return level > this.levels ? this.defaultLevel : level
  }

  /** The batcher's options for a request of `level`. */
  submitOptions(inferOptions: InferOptions, level: number): SubmitOptions {
    const policy = this.policies[level]
    if (this.levels > 0 && inferOptions.priority !== undefined) {
      invalidOption('type', 'priority', 'unset with `priorityLevels` (give `priorityLevel`)', inferOptions.priority)
    }
    const own = inferOptions.timeoutMs
    // Triton: an override may shorten the default timeout, never lengthen it.
    const timeoutMs =
      policy.override && own !== undefined
        ? policy.timeoutMs === undefined || own < policy.timeoutMs
          ? own
          : policy.timeoutMs
        : policy.timeoutMs
    const priority = this.levels === 0 ? (inferOptions.priority ?? 0) : -2 * level
    const submit: SubmitOptions = { priority }
    if (inferOptions.signal !== undefined) submit.signal = inferOptions.signal
    if (inferOptions.cost !== undefined) submit.cost = inferOptions.cost
    if (timeoutMs !== undefined) {
      submit.timeoutMs = timeoutMs
      if (policy.delay) submit.delayedPriority = this.levels === 0 ? priority - 0.5 : priority - 1
    }
    return submit
  }

  /**
   * Runs `submit` for `rows` rows of `level`, unless that level's bound would be passed
   * (then `QueueFullError`). Without levels the bound is the batcher's own `maxQueueSize`.
   */
  admit<T>(level: number, rows: number, submit: () => Promise<T>): Promise<T> {
    const bound = level === 0 ? undefined : this.policies[level].maxQueueSize
    if (bound === undefined) return submit()
    if (this.pending[level] + rows > bound) return Promise.reject(new QueueFullError(bound))
    this.pending[level] += rows
    const done = (): void => {
      this.pending[level] -= rows
    }
    const promise = submit()
    promise.then(done, done)
    return promise
  }
}

/**
 * The pool's queue policies from its options, or `undefined` when it has none (then
 * `timeoutMs` and `batching.maxQueueSize` apply as they are). A policy replaces those two:
 * giving either as well is refused.
 */
export function resolveQueuePolicies(
  options: {
    queuePolicy?: unknown
    priorityLevels?: unknown
    defaultPriorityLevel?: unknown
    priorityQueuePolicy?: unknown
  },
  timeoutMs: unknown,
  maxQueueSize: unknown,
): { policies: QueuePolicies; maxQueueSize: number | undefined } | undefined {
  const { queuePolicy, priorityLevels, defaultPriorityLevel, priorityQueuePolicy } = options
  if (
    queuePolicy === undefined &&
    priorityLevels === undefined &&
    defaultPriorityLevel === undefined &&
    priorityQueuePolicy === undefined
  ) {
    return undefined
  }
  if (timeoutMs !== undefined) {
    invalidOption('type', 'timeoutMs', 'unset with `queuePolicy` (its defaultTimeoutMicroseconds)', timeoutMs)
  }
  if (maxQueueSize !== undefined)
    invalidOption('type', 'batching.maxQueueSize', 'unset with `queuePolicy` (its maxQueueSize)', maxQueueSize)
  const base = resolveLevelPolicy('queuePolicy', queuePolicy)
  const levels = priorityLevels === undefined ? 0 : integerOption('priorityLevels', priorityLevels, 0)
  if (levels === 0) {
    if (defaultPriorityLevel !== undefined && defaultPriorityLevel !== 0) {
      invalidOption('range', 'defaultPriorityLevel', 'unset (or 0) without `priorityLevels`', defaultPriorityLevel)
    }
    if (priorityQueuePolicy !== undefined && Object.keys(priorityQueuePolicy as object).length > 0) {
      invalidOption('range', 'priorityQueuePolicy', 'unset without `priorityLevels`', priorityQueuePolicy)
    }
    // The one queue's bound is the batcher's own (queued rows, as Triton counts them).
    return { policies: new QueuePolicies(0, 0, [base]), maxQueueSize: base.maxQueueSize }
  }
  const defaultLevel = integerOption('defaultPriorityLevel', defaultPriorityLevel, 1, false, levels)
  const policies: LevelPolicy[] = [base]
  for (let level = 1; level <= levels; level++) policies.push(base)
  if (priorityQueuePolicy !== undefined) {
    if (typeof priorityQueuePolicy !== 'object' || priorityQueuePolicy === null || Array.isArray(priorityQueuePolicy)) {
      invalidOption('type', 'priorityQueuePolicy', 'an object of queue policies by level', priorityQueuePolicy)
    }
    for (const [key, value] of Object.entries(priorityQueuePolicy)) {
      const level = Number(key)
      if (!Number.isInteger(level) || level < 1 || level > levels) {
        invalidOption('range', 'priorityQueuePolicy', `levels in [1, ${levels}] (priorityLevels) as keys`, key)
      }
      policies[level] = resolveLevelPolicy(`priorityQueuePolicy[${level}]`, value)
    }
  }
  return { policies: new QueuePolicies(levels, defaultLevel, policies), maxQueueSize: undefined }
}
