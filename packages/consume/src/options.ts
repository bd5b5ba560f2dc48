/**
 * The consumer's options: defaults in one object, each option validated once, at
 * construction, naming the option and echoing the bad value.
 */
import { describeValue, integerOption, MAX_TIMER_MS } from '@inferpool/core/internal'
import type { ServedPool } from '@inferpool/server'
import { HANDLER_DEFAULTS } from '@inferpool/server'

/** Where requests come from and where results and dead letters go: subject prefixes, one subject per model under each. */
export interface ConsumeSubjects {
  /** Requests of model `m` arrive on `<requests>.m`. @default 'inferpool.requests' */
  readonly requests: string
  /** Results of model `m` go to `<results>.m`. @default 'inferpool.results' */
  readonly results: string
  /** Dead letters of model `m` go to `<dead>.m`. @default 'inferpool.dead' */
  readonly dead: string
}

/** The three JetStream streams (created when missing, checked when present). */
export interface ConsumeStreams {
  /** Work-queue stream of the requests. @default 'INFERPOOL_REQUESTS' */
  readonly requests: string
  /** Stream of the results, whose duplicate window drops a redelivered request's second result. @default 'INFERPOOL_RESULTS' */
  readonly results: string
  /** Stream of the dead letters. @default 'INFERPOOL_DEAD' */
  readonly dead: string
}

/** Lines the consumer logs (a consumer in a server logs through the server's logger). */
export interface ConsumeLogger {
  info(line: string): void
  warn(line: string): void
}

export interface ConsumerOptions {
  /**
   * The pools to consume for, by model name: a pool or the promise of one (a model still
   * loading is consumed once it has loaded). The consumer neither creates nor closes them:
   * `inferpool serve --nats` passes the pools that also serve HTTP and gRPC.
   */
  readonly pools: ReadonlyMap<string, ServedPool | Promise<ServedPool>>
  /** NATS server URLs (several for a cluster). */
  readonly nats: string | readonly string[]
  /** Subject prefixes. @default CONSUMER_DEFAULTS.subjects */
  readonly subjects?: Partial<ConsumeSubjects>
  /** Stream names. @default CONSUMER_DEFAULTS.streams */
  readonly streams?: Partial<ConsumeStreams>
  /** Prefix of each model's durable pull consumer name (`<prefix>_<model>`). @default 'inferpool' */
  readonly durablePrefix?: string
  /** Deliveries of a request before it is dead-lettered instead of run again. @default 5 */
  readonly maxDeliver?: number
  /** How long a delivered request may go without an ack (or `working()`) before it is redelivered. @default 30000 */
  readonly ackWaitMs?: number
  /**
   * Most requests of one model delivered and not yet acknowledged, over every consumer
   * process: the bound on what is in flight (and in memory).
   * @default each pool's replicas × max batch size × 2
   */
  readonly maxAckPending?: number
  /**
   * Most requests of one model this consumer holds while its pool also serves rows that
   * are not the consumer's (online requests, in `inferpool serve --nats`), instead of
   * `maxAckPending`: few bulk rows stand in an online row's way, and the main thread is
   * left to the online requests. The full `maxAckPending` again once no other row has
   * entered the pool for a second. A pool without synchronous `stats` is not watched.
   * @default each pool's max batch size ÷ 16, at least 1
   */
  readonly onlineMaxInFlight?: number
  /** Deadline of one request in the pool (a request's own `parameters.timeout` may shorten it). @default 30000 */
  readonly timeoutMs?: number
  /** Delay of a `nak` for a request that may succeed later (a full queue, a crashed replica, a timeout). @default 1000 */
  readonly retryDelayMs?: number
  /** Most rows one request may carry; a larger one is dead-lettered. @default HANDLER_DEFAULTS.maxRowsPerRequest (1024) */
  readonly maxRowsPerRequest?: number
  /**
   * Duplicate window of a results or dead-letter stream this consumer creates, and the
   * least it accepts of an existing one. It must outlast every redelivery of a request
   * that already has its result: `maxDeliver × (ackWaitMs + timeoutMs)` and no less.
   * @default maxDeliver × (ackWaitMs + timeoutMs)
   */
  readonly duplicateWindowMs?: number
  /**
   * The pool's priority level of these requests, for a pool with `priorityLevels` (Triton's
   * levels, 1 the highest): one for every model, or one per model name. `serve --nats`
   * gives each pool its lowest, so online requests go first. `undefined`: the request's own
   * `parameters.priority`, else the pool's default.
   * @default undefined
   */
  readonly priorityLevel?: number | ReadonlyMap<string, number>
  /**
   * The pool's `priority` of these requests, for a pool without `priorityLevels` (higher
   * first; online requests have 0): one for every model, or one per model name. `serve
   * --nats` gives -1 to such a pool, so bulk rows wait behind every online row. A pool
   * with levels refuses a `priority`: give it a `priorityLevel` instead.
   * @default undefined (0, as online requests)
   */
  readonly priority?: number | ReadonlyMap<string, number>
  /** Replicas of each stream this consumer creates (3 on a three-node JetStream cluster); an existing stream keeps its own. @default 1 */
  readonly streamReplicas?: number
  /** Where log lines go. @default console (info to stdout, warn to stderr) */
  readonly logger?: ConsumeLogger
  /** Name of the NATS connection, seen in the server's monitoring. @default 'inferpool-consume' */
  readonly connectionName?: string
}

export const CONSUMER_DEFAULTS = {
  subjects: { requests: 'inferpool.requests', results: 'inferpool.results', dead: 'inferpool.dead' },
  streams: { requests: 'INFERPOOL_REQUESTS', results: 'INFERPOOL_RESULTS', dead: 'INFERPOOL_DEAD' },
  durablePrefix: 'inferpool',
  maxDeliver: 5,
  ackWaitMs: 30_000,
  timeoutMs: 30_000,
  retryDelayMs: 1_000,
  maxRowsPerRequest: HANDLER_DEFAULTS.maxRowsPerRequest,
  streamReplicas: 1,
  connectionName: 'inferpool-consume',
} as const

export interface ResolvedConsumerOptions {
  readonly pools: ReadonlyMap<string, ServedPool | Promise<ServedPool>>
  readonly servers: readonly string[]
  readonly subjects: ConsumeSubjects
  readonly streams: ConsumeStreams
  readonly durablePrefix: string
  readonly maxDeliver: number
  readonly ackWaitMs: number
  readonly maxAckPending: number | undefined
  readonly onlineMaxInFlight: number | undefined
  readonly timeoutMs: number
  readonly retryDelayMs: number
  readonly maxRowsPerRequest: number
  readonly duplicateWindowMs: number
  /** Where a model's requests go in its pool's queue. */
  queuePlace(model: string): QueuePlace
  readonly streamReplicas: number
  readonly logger: ConsumeLogger
  readonly connectionName: string
}

/** Where a request goes in its pool's queue: `InferOptions.priorityLevel` and `priority`, each unset when `undefined`. */
export interface QueuePlace {
  readonly priorityLevel: number | undefined
  readonly priority: number | undefined
}

/** Longest string echoed in a message (a subject or a name from a flag): the echo stays bounded. */
const MAX_ECHO = 100

/** The bad value, described as every option message of the project does (core's `describeValue`), a long string cut short. */
function describe(value: unknown): string {
  return describeValue(typeof value === 'string' && value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value)
}

/** An integer in [min, max]: the project's one option validator (@inferpool/core/internal), bounded to safe integers. */
function integer(name: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  return integerOption(name, value, min, false, max)
}

/** A subject prefix: dot-separated tokens, no wildcards, no whitespace. */
const SUBJECT = /^[^\s.*>]+(\.[^\s.*>]+)*$/
/** A stream or durable name: no dots, wildcards, path separators or whitespace. */
const NAME = /^[^\s.*>/\\]{1,64}$/

function subject(name: string, value: unknown): string {
  if (typeof value !== 'string' || !SUBJECT.test(value)) {
    throw new TypeError(`Expected \`${name}\` to be a NATS subject without wildcards (tokens joined by '.'), got ${describe(value)}`)
  }
  return value
}

function streamName(name: string, value: unknown): string {
  if (typeof value !== 'string' || !NAME.test(value)) {
    throw new TypeError(
      `Expected \`${name}\` to be a JetStream name (1 to 64 characters, no '.', '*', '>', '/', '\\' or whitespace), got ${describe(value)}`,
    )
  }
  return value
}

export function resolveConsumerOptions(options: ConsumerOptions): ResolvedConsumerOptions {
  if (!(options.pools instanceof Map) || options.pools.size === 0) {
    throw new TypeError(`Expected \`pools\` to be a non-empty Map of model name to pool, got ${describe(options.pools)}`)
  }
  const servers = typeof options.nats === 'string' ? [options.nats] : [...(options.nats as readonly string[])]
  if (servers.length === 0 || servers.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError(`Expected \`nats\` to be a server URL or a non-empty list of them, got ${describe(options.nats)}`)
  }
  const subjects = { ...CONSUMER_DEFAULTS.subjects, ...options.subjects }
  const streams = { ...CONSUMER_DEFAULTS.streams, ...options.streams }
  for (const key of ['requests', 'results', 'dead'] as const) {
    subject(`subjects.${key}`, subjects[key])
    streamName(`streams.${key}`, streams[key])
  }
  if (new Set(Object.values(subjects)).size !== 3) {
    throw new RangeError(`Expected the three \`subjects\` to differ, got ${describe(Object.values(subjects).join(', '))}`)
  }
  if (new Set(Object.values(streams)).size !== 3) {
    throw new RangeError(`Expected the three \`streams\` to differ, got ${describe(Object.values(streams).join(', '))}`)
  }
  const maxDeliver = integer('maxDeliver', options.maxDeliver ?? CONSUMER_DEFAULTS.maxDeliver, 1, 1000)
  const ackWaitMs = integer('ackWaitMs', options.ackWaitMs ?? CONSUMER_DEFAULTS.ackWaitMs, 1000, MAX_TIMER_MS)
  const timeoutMs = integer('timeoutMs', options.timeoutMs ?? CONSUMER_DEFAULTS.timeoutMs, 1, MAX_TIMER_MS)
  const leastWindowMs = maxDeliver * (ackWaitMs + timeoutMs)
  const duplicateWindowMs = integer('duplicateWindowMs', options.duplicateWindowMs ?? leastWindowMs, leastWindowMs)
  return {
    pools: options.pools,
    servers,
    subjects,
    streams,
    durablePrefix: streamName('durablePrefix', options.durablePrefix ?? CONSUMER_DEFAULTS.durablePrefix),
    maxDeliver,
    ackWaitMs,
    maxAckPending: options.maxAckPending === undefined ? undefined : integer('maxAckPending', options.maxAckPending, 1),
    onlineMaxInFlight: options.onlineMaxInFlight === undefined ? undefined : integer('onlineMaxInFlight', options.onlineMaxInFlight, 1),
    timeoutMs,
    retryDelayMs: integer('retryDelayMs', options.retryDelayMs ?? CONSUMER_DEFAULTS.retryDelayMs, 0, MAX_TIMER_MS),
    maxRowsPerRequest: integer('maxRowsPerRequest', options.maxRowsPerRequest ?? CONSUMER_DEFAULTS.maxRowsPerRequest, 1),
    duplicateWindowMs,
    queuePlace: queuePlaces(options),
    streamReplicas: integer('streamReplicas', options.streamReplicas ?? CONSUMER_DEFAULTS.streamReplicas, 1, 5),
    logger: options.logger ?? { info: (line) => console.log(line), warn: (line) => console.error(line) },
    connectionName: options.connectionName ?? CONSUMER_DEFAULTS.connectionName,
  }
}

/** `priorityLevel` and `priority`, each one value or one per model (a model without an entry gets none), checked once. */
function queuePlaces(options: ConsumerOptions): (model: string) => QueuePlace {
  const byModel = (
    name: string,
    given: number | ReadonlyMap<string, number> | undefined,
    check: (label: string, value: unknown) => number,
  ) => {
    if (given === undefined) return () => undefined
    if (!(given instanceof Map)) {
      const value = check(name, given)
      return () => value
    }
    for (const [model, value] of given as ReadonlyMap<string, number>) check(`${name}.get('${model}')`, value)
    return (model: string) => (given as ReadonlyMap<string, number>).get(model)
  }
  const levelOf = byModel('priorityLevel', options.priorityLevel, (label, value) => integer(label, value, 0))
  const priorityOf = byModel('priority', options.priority, (label, value) => {
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new RangeError(`Expected \`${label}\` to be a finite number, got ${describe(value)}`)
    return value
  })
  return (model) => ({ priorityLevel: levelOf(model), priority: priorityOf(model) })
}

/**
 * A model's durable consumer name: `<prefix>_<model>`, with the model name's '.' (not
 * allowed in a JetStream name) and '_' escaped so that two names never meet.
 */
export function durableName(prefix: string, model: string): string {
  return `${prefix}_${model.replace(/[_.]/g, (c) => (c === '_' ? '_5F' : '_2E'))}`
}
