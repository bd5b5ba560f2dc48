/**
 * `inferpool serve --nats <url>`: bulk requests from NATS JetStream, consumed by
 * `@inferpool/consume` in the pools that serve HTTP and gRPC, behind every online row.
 *
 * The server does not depend on `@inferpool/consume` (which depends on the server, and
 * brings the NATS client): the package is found at run time, beside this one or in the
 * working directory, as `inferpool consume` finds it (bin/inferpool.js), and only when
 * `--nats` is given. The types below are the part of its API this module uses.
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { PoolOptions } from '@inferpool/host'
import type { Registry } from 'prom-client'
import type { ServedPool } from '../protocol/served-pool.js'

/** The package `--nats` needs, named in the error when it is absent. */
export const CONSUME_PACKAGE = '@inferpool/consume'

/** `priority` of bulk rows in a pool without levels: online rows have 0, so bulk rows wait behind all of them. */
const BULK_PRIORITY = -1

/** The consume flags `serve` takes beside `--nats` (unset: the consumer's defaults). */
export interface NatsFlags {
  nats?: string[]
  requestsSubject?: string
  resultsSubject?: string
  deadSubject?: string
  requestsStream?: string
  resultsStream?: string
  deadStream?: string
  durablePrefix?: string
  streamReplicas?: number
  maxDeliver?: number
  ackWaitMs?: number
  maxAckPending?: number
  retryDelayMs?: number
  duplicateWindowMs?: number
}

/** The flags of `NatsFlags` but `nats`, as commander names them: meaningful with `--nats` only. */
export const NATS_ONLY_FLAGS = [
  'requestsSubject',
  'resultsSubject',
  'deadSubject',
  'requestsStream',
  'resultsStream',
  'deadStream',
  'durablePrefix',
  'streamReplicas',
  'maxDeliver',
  'ackWaitMs',
  'maxAckPending',
  'retryDelayMs',
  'duplicateWindowMs',
] as const satisfies readonly (keyof NatsFlags)[]

/** What `serve` uses of a consumer (`InferpoolConsumer`). */
export interface BulkConsumer {
  start(): Promise<void>
  close(): Promise<void>
  destroy(): Promise<void>
  readonly stats: object
}

interface ConsumeModule {
  createConsumer(
    options: NatsFlags & {
      pools: ReadonlyMap<string, Promise<ServedPool>>
      nats: readonly string[]
      subjects: { requests?: string; results?: string; dead?: string }
      streams: { requests?: string; results?: string; dead?: string }
      timeoutMs: number
      priorityLevel: ReadonlyMap<string, number>
      priority: ReadonlyMap<string, number>
      logger: { info(line: string): void; warn(line: string): void }
      connectionName: string
    },
    registry: Registry,
  ): BulkConsumer
}

/**
 * Imports `@inferpool/consume`, found beside this package or from the working directory;
 * rejects with an error that names the package when it is in neither.
 */
export async function loadConsume(): Promise<ConsumeModule> {
  const find = (from: string): string | undefined => {
    try {
      return createRequire(from).resolve(CONSUME_PACKAGE)
    } catch {
      return undefined
    }
  }
  const entry = find(import.meta.url) ?? find(pathToFileURL(`${process.cwd()}/`).href)
  if (entry === undefined) {
    throw new Error(`--nats needs the ${CONSUME_PACKAGE} package, which is not installed: npm install ${CONSUME_PACKAGE}`)
  }
  return (await import(pathToFileURL(entry).href)) as ConsumeModule
}

/**
 * Where bulk rows go in a pool created with `options`: the lowest of its priority levels
 * when it has levels (Triton's `priority_levels`, from a model's config.pbtxt), else
 * `priority` -1, behind the online rows' 0. Either way a batch takes every online row
 * queued before any bulk row, and bulk rows fill what is left of it.
 */
export function bulkPlace(options: Pick<PoolOptions, 'priorityLevels'>): { priorityLevel: number } | { priority: number } {
  const levels = options.priorityLevels ?? 0
  return levels > 0 ? { priorityLevel: levels } : { priority: BULK_PRIORITY }
}

/**
 * A consumer of `pools` (one per model name) with `flags`, its series in `registry` (the
 * server's `/metrics`), its requests at each pool's `places` entry.
 */
export function createBulkConsumer(
  consume: ConsumeModule,
  pools: ReadonlyMap<string, Promise<ServedPool>>,
  places: ReadonlyMap<string, { priorityLevel: number } | { priority: number }>,
  flags: NatsFlags & { nats: string[]; timeoutMs: number },
  registry: Registry,
  out: { log(line: string): void; error(line: string): void },
): BulkConsumer {
  const priorityLevel = new Map<string, number>()
  const priority = new Map<string, number>()
  for (const [model, place] of places) {
    if ('priorityLevel' in place) priorityLevel.set(model, place.priorityLevel)
    else priority.set(model, place.priority)
  }
  return consume.createConsumer(
    {
      pools,
      nats: flags.nats,
      // An unset flag is left out, not given as `undefined`: the consumer spreads these over its defaults.
      subjects: defined({ requests: flags.requestsSubject, results: flags.resultsSubject, dead: flags.deadSubject }),
      streams: defined({ requests: flags.requestsStream, results: flags.resultsStream, dead: flags.deadStream }),
      durablePrefix: flags.durablePrefix,
      streamReplicas: flags.streamReplicas,
      maxDeliver: flags.maxDeliver,
      ackWaitMs: flags.ackWaitMs,
      maxAckPending: flags.maxAckPending,
      retryDelayMs: flags.retryDelayMs,
      duplicateWindowMs: flags.duplicateWindowMs,
      timeoutMs: flags.timeoutMs,
      priorityLevel,
      priority,
      logger: { info: out.log, warn: out.error },
      connectionName: 'inferpool-serve',
    },
    registry,
  )
}

function defined<T extends Record<string, string | undefined>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}

/**
 * Stops `consumer` for a graceful shutdown: no more pulling, the requests it holds get
 * their results and acks. Past `timeoutMs` it stops at once (those requests are
 * delivered again after the ack wait), so the server's own drain still comes.
 */
export async function stopBulkConsumer(
  consumer: BulkConsumer,
  timeoutMs: number,
  out: { log(line: string): void; error(line: string): void },
): Promise<void> {
  out.log('inferpool: NATS consumer stopping: finishing the requests it holds')
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)))
  const ended = await Promise.race([consumer.close().then(() => 'closed' as const), late]).finally(() => clearTimeout(timer))
  if (ended === 'late') {
    out.error(`inferpool: NATS consumer still draining after ${timeoutMs} ms: stopping it now; its requests will be delivered again`)
    await consumer.destroy()
    return
  }
  out.log(`inferpool: NATS consumer stopped (${JSON.stringify(consumer.stats)})`)
}
