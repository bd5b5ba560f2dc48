/**
 * `PoolOptions` → the values the pool runs with: defaults in one object, each option
 * validated once, by a helper that names the option and echoes the bad value
 * (dataloader's `getValidMaxBatchSize`, p-queue's messages).
 */
import { availableParallelism } from 'node:os'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ResourceLimits } from 'node:worker_threads'
import { integerOption, invalidOption, MAX_TIMER_MS, numberOption, oneOfOption } from '@inferpool/core/internal'
import type { OnnxSessionConfig } from '@inferpool/worker'
import type { BatchingOptions, PaddingOptions, PoolOptions } from '../types.js'
import { resolveQueuePolicies, type QueuePolicies } from './queue-policy.js'

/**
 * Defaults of the pool (the batcher's own options default in @inferpool/core).
 * - `replicas`: 1 per core up to 2. On the 2-core machines this was measured on, two
 *   replicas with one intra-op thread each beat one replica with two threads (the two
 *   sessions overlap one batch's packing/transfer with the other's compute), and each
 *   replica costs a copy of the weights, so more than 2 is opt-in.
 * - `concurrency`: 1. `session.run()` is a synchronous native call: a second batch in
 *   the same worker waits for the first, and only adds queueing inside the worker
 *   while the host could have given that batch to an idle replica.
 * - `maxBatchSize`: 128. Pull-based batching (`maxWaitMs: 0`) forms batches from what
 *   queued while the replicas were busy, so below the cap a batch is only as big as the
 *   queue and a higher cap costs nothing at low load. At 256 callers the bench measured
 *   128 ahead of 64 in every replicas × concurrency shape (e.g. 200k vs 164k rows/s),
 *   with no worse p99. Models much heavier per row should lower it to keep one batch
 *   within their latency budget.
 * - `hostSession`: on. A lone request on a light model costs more in its hand-off to a
 *   sleeping thread than in its run (threads/host-session.ts); a heavy model releases it.
 * See packages/host/README.md and bench/README.md for the figures.
 */
export const POOL_DEFAULTS = {
  replicas: Math.max(1, Math.min(2, availableParallelism())),
  concurrency: 1,
  maxBatchSize: 128,
  maxWaitMs: 0,
  isolateFailures: true,
  startupTimeoutMs: 60_000,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all' as const,
  allowSpinning: false,
  // Errors ORT would log reach callers as typed errors already (see SessionOptions).
  logSeverityLevel: 4,
  // As the server's own (SERVER_DEFAULTS.idleCollectMs): soon after a burst, long after a batch.
  idleCollectMs: 1_000,
  hostSession: true,
} as const

/**
 * Default `session.intraOpNumThreads`: the cores shared out between every session that
 * runs at once on the machine — `replicas` per pool, in each of `processes` server
 * processes (`inferpool serve --processes`). Each session sizes its intra-op pool to all
 * cores by default; several sessions with that default fight over them
 * (docs/runtime-facts.md#onnxruntime-node-in-worker-threads: 831 vs 1,393 runs/s on 2 cores).
 */
export function defaultIntraOpThreads(shape: { cores: number; replicas: number; processes?: number }): number {
  return Math.max(1, Math.floor(shape.cores / (shape.replicas * (shape.processes ?? 1))))
}

/** The options the pool runs with, all resolved. */
export interface ResolvedPoolOptions {
  /**
   * The model as given; `createPool` replaces it with the bytes it read once (over a
   * SharedArrayBuffer, model-bytes.ts) before any replica starts, for the built-in worker.
   */
  model: string | Uint8Array
  /** `model` as stated in messages and `pool.metadata.model`. */
  modelLabel: string
  /** How traces name the model (`PoolOptions.labels`, resolved). */
  labels: { model: string; version: string | undefined }
  /** SHA-256 of the model bytes every replica runs, once `createPool` has read them (built-in worker only). */
  modelSha256: string | undefined
  replicas: number
  concurrency: number
  batching: BatchingOptions & { maxBatchSize: number; isolateFailures: boolean }
  session: OnnxSessionConfig & { executionProvider: 'cpu' | 'cuda' }
  deviceIds: number[]
  padding: Record<string, Required<Pick<PaddingOptions, 'axis'>> & PaddingOptions>
  timeoutMs: number | undefined
  /** Triton's queue policies (`queuePolicy`, priority levels); given, they decide each request's timeout and priority. */
  queuePolicies: QueuePolicies | undefined
  fallback: 'cpu' | undefined
  /** Worker module file path (`null`: the built-in ONNX tensor worker). */
  worker: string | null
  workerOptions: unknown
  startupTimeoutMs: number
  batchTimeoutMs: number | undefined
  logger: Pick<Console, 'warn' | 'info'>
  resourceLimits: ResourceLimits | undefined
  isolation: 'thread' | 'process'
  /** `PoolOptions.hostSession`, resolved. */
  hostSession: boolean
  /** Process mode: each replica's extra environment (replica `i` takes entry `i % length`). */
  processEnv: Array<Readonly<Record<string, string>>>
  /** Process mode: recycle a replica above this RSS (bytes). */
  maxRssBytes: number | undefined
  /** Process mode: quiet ms after a replica's last batch before it collects its garbage (0: never). */
  idleCollectMs: number
}

/** `PoolOptions.labels` with its defaults: the model file's name without `.onnx`. */
function resolveLabels(labels: PoolOptions['labels'], model: string | Uint8Array): ResolvedPoolOptions['labels'] {
  if (labels !== undefined && (typeof labels !== 'object' || labels === null)) invalid('type', 'labels', 'an object', labels)
  for (const key of ['model', 'version'] as const) {
    const value = labels?.[key]
    if (value !== undefined && typeof value !== 'string') invalid('type', `labels.${key}`, 'a string', value)
  }
  return {
    model: labels?.model ?? (typeof model === 'string' ? basename(model).replace(/\.onnx$/, '') : 'model'),
    version: labels?.version,
  }
}

/** The keys of `BatchingOptions`: the only place outside the type that lists them. */
const BATCHING_KEYS = [
  'maxBatchSize',
  'minBatchSize',
  'maxWaitMs',
  'maxQueueSize',
  'whenFull',
  'maxBatchCost',
  'isolateFailures',
  'statsWindow',
  'formation',
  'latencyModel',
] as const satisfies ReadonlyArray<keyof BatchingOptions>
/** Fails to compile when `BatchingOptions` gains a key that `BATCHING_KEYS` lacks. */
type Unlisted = Exclude<keyof BatchingOptions, (typeof BATCHING_KEYS)[number]>
const everyBatchingKeyListed: [Unlisted] extends [never] ? true : never = true
void everyBatchingKeyListed

/** ``Expected `name` to be …, got `value` (type)``: the one message style of every option (@inferpool/core/internal). */
function invalid(kind: 'type' | 'range', name: string, expected: string, value: unknown): never {
  invalidOption(kind, name, expected, value)
}

/** An integer >= `min`, or `fallback` when not given. */
function integerAtLeast(name: string, value: unknown, min: number, fallback: number): number {
  return value === undefined ? fallback : integerOption(name, value, min)
}

/** A finite number >= `min`, or `undefined` when not given. */
function finiteAtLeast(name: string, value: unknown, min: number): number | undefined {
  return value === undefined ? undefined : numberOption(name, value, min)
}

const oneOf = oneOfOption

function resolveProvider(value: unknown): { provider: 'cpu' | 'cuda'; deviceIds: number[] } {
  if (value === undefined) return { provider: 'cpu', deviceIds: [] }
  if (!Array.isArray(value)) invalid('type', 'session.executionProviders', "an array such as ['cpu'] or ['cuda']", value)
  if (value.length !== 1) {
    // ORT does not fall back along a list (['cuda', 'cpu'] fails when CUDA is missing),
    // so accepting one would promise something that does not happen.
    invalid(
      'range',
      'session.executionProviders',
      "exactly one provider ('cpu', 'cuda' or { name: 'cuda', deviceId }); for a CPU fallback set `fallback: 'cpu'`",
      value,
    )
  }
  const entry: unknown = value[0]
  if (entry === 'cpu') return { provider: 'cpu', deviceIds: [] }
  if (entry === 'cuda') return { provider: 'cuda', deviceIds: [0] }
  if (typeof entry === 'object' && entry !== null && (entry as { name?: unknown }).name === 'cuda') {
    const deviceId = (entry as { deviceId?: unknown }).deviceId
    const ids = deviceId === undefined ? [0] : Array.isArray(deviceId) ? deviceId : [deviceId]
    if (ids.length === 0) invalid('range', 'session.executionProviders[0].deviceId', 'a device id or a non-empty array of them', deviceId)
    for (const id of ids) integerAtLeast('session.executionProviders[0].deviceId', id, 0, 0)
    return { provider: 'cuda', deviceIds: ids as number[] }
  }
  return invalid('range', 'session.executionProviders[0]', "'cpu', 'cuda' or { name: 'cuda', deviceId }", entry)
}

function resolveWorker(value: unknown): string | null {
  if (value === undefined) return null
  let path: string
  if (value instanceof URL) path = fileURLToPath(value)
  else if (typeof value === 'string') path = value.startsWith('file:') ? fileURLToPath(value) : value
  else return invalid('type', 'worker', 'a path or file URL of a built .js worker module', value)
  // piscina cannot load TypeScript (ERR_UNKNOWN_FILE_EXTENSION, and Node 20 has no
  // type stripping in workers): fail here with the fix instead of at the first task.
  if (!/\.(c|m)?js$/.test(path)) invalid('range', 'worker', 'a built .js/.mjs/.cjs worker module (build TypeScript workers first)', value)
  return path
}

function resolvePadding(value: unknown): ResolvedPoolOptions['padding'] {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid('type', 'padding', 'an object of padding options by input name', value)
  }
  const out: ResolvedPoolOptions['padding'] = {}
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null) invalid('type', `padding.${name}`, 'an object { value?, axis? }', raw)
    const opts = raw as PaddingOptions
    const axis = integerAtLeast(`padding.${name}.axis`, opts.axis, 0, 0)
    if (opts.value !== undefined && typeof opts.value !== 'number' && typeof opts.value !== 'bigint') {
      invalid('type', `padding.${name}.value`, 'a number or a bigint', opts.value)
    }
    if (opts.outputAxes !== undefined) {
      if (typeof opts.outputAxes !== 'object' || opts.outputAxes === null) {
        invalid('type', `padding.${name}.outputAxes`, 'an object of row axes by output name', opts.outputAxes)
      }
      for (const [output, outAxis] of Object.entries(opts.outputAxes)) integerAtLeast(`padding.${name}.outputAxes.${output}`, outAxis, 0, 0)
    }
    out[name] = { ...opts, axis }
  }
  return out
}

function resolveEnv(value: unknown): Array<Readonly<Record<string, string>>> {
  if (value === undefined) return [{}]
  const list = Array.isArray(value) ? value : [value]
  if (list.length === 0) invalid('range', 'processes.env', 'an object of variables or a non-empty array of them', value)
  list.forEach((env: unknown, i) => {
    const name = Array.isArray(value) ? `processes.env[${i}]` : 'processes.env'
    if (typeof env !== 'object' || env === null || Array.isArray(env)) invalid('type', name, 'an object of environment variables', env)
    for (const [key, v] of Object.entries(env)) {
      if (typeof v !== 'string') invalid('type', `${name}.${key}`, 'a string', v)
    }
  })
  return list as Array<Record<string, string>>
}

function resolveProcesses(options: PoolOptions): Pick<ResolvedPoolOptions, 'isolation' | 'processEnv' | 'maxRssBytes' | 'idleCollectMs'> {
  const isolation = oneOf('isolation', options.isolation, ['thread', 'process'] as const, 'thread')
  const processes = options.processes
  if (processes === undefined) return { isolation, processEnv: [{}], maxRssBytes: undefined, idleCollectMs: POOL_DEFAULTS.idleCollectMs }
  if (typeof processes !== 'object' || processes === null) invalid('type', 'processes', 'an object', processes)
  // Silently ignoring them would leave a user believing their replicas are capped or pinned.
  if (isolation !== 'process') invalid('range', 'processes', "unset unless `isolation` is 'process'", processes)
  const maxRssMb = finiteAtLeast('processes.maxRssMb', processes.maxRssMb, 1)
  return {
    isolation,
    processEnv: resolveEnv(processes.env),
    maxRssBytes: maxRssMb === undefined ? undefined : maxRssMb * 1024 * 1024,
    idleCollectMs:
      processes.idleCollectMs === undefined
        ? POOL_DEFAULTS.idleCollectMs
        : integerOption('processes.idleCollectMs', processes.idleCollectMs, 0, false, MAX_TIMER_MS),
  }
}

/** Validates and resolves every option. Throws TypeError/RangeError naming the option. */
export function resolvePoolOptions(options: PoolOptions, cores = availableParallelism()): ResolvedPoolOptions {
  if (typeof options !== 'object' || options === null) invalid('type', 'options', 'an object', options)
  const { model } = options
  if (typeof model === 'string') {
    if (model.length === 0) invalid('range', 'model', 'a path to an .onnx file or its bytes', model)
  } else if (!(model instanceof Uint8Array)) {
    invalid('type', 'model', 'a path to an .onnx file or its bytes (Uint8Array)', model)
  } else if (model.byteLength === 0) {
    invalid('range', 'model', 'non-empty bytes', `<${model.byteLength} bytes>`)
  }
  const modelLabel = typeof model === 'string' ? model : '<bytes>'

  const replicas = integerAtLeast('replicas', options.replicas, 1, POOL_DEFAULTS.replicas)
  const concurrency = integerAtLeast('concurrency', options.concurrency, 1, POOL_DEFAULTS.concurrency)

  const batching = options.batching ?? {}
  if (typeof batching !== 'object' || batching === null) invalid('type', 'batching', 'an object', batching)
  // Batching options belong under `batching`. Given at the top level they would be
  // ignored, and the pool would run with the defaults while its user believes otherwise.
  for (const key of BATCHING_KEYS) {
    if (key in options)
      invalid('type', key, `given under \`batching\` (batching: { ${key}: … })`, (options as unknown as Record<string, unknown>)[key])
  }
  const maxBatchSize = integerAtLeast('batching.maxBatchSize', batching.maxBatchSize, 1, POOL_DEFAULTS.maxBatchSize)
  if (batching.isolateFailures !== undefined && typeof batching.isolateFailures !== 'boolean') {
    invalid('type', 'batching.isolateFailures', 'a boolean', batching.isolateFailures)
  }
  // The rest of `batching` is validated by DynamicBatcher itself, once, with the same style of message.

  const session = options.session ?? {}
  if (typeof session !== 'object' || session === null) invalid('type', 'session', 'an object', session)
  const { provider, deviceIds } = resolveProvider(session.executionProviders)
  const intraOpNumThreads = integerAtLeast(
    'session.intraOpNumThreads',
    session.intraOpNumThreads,
    1,
    defaultIntraOpThreads({ cores, replicas }),
  )
  const interOpNumThreads = integerAtLeast('session.interOpNumThreads', session.interOpNumThreads, 1, POOL_DEFAULTS.interOpNumThreads)
  const graphOptimizationLevel = oneOf(
    'session.graphOptimizationLevel',
    session.graphOptimizationLevel,
    ['disabled', 'basic', 'extended', 'all'] as const,
    POOL_DEFAULTS.graphOptimizationLevel,
  )
  if (session.allowSpinning !== undefined && typeof session.allowSpinning !== 'boolean') {
    invalid('type', 'session.allowSpinning', 'a boolean', session.allowSpinning)
  }

  const logSeverityLevel = integerAtLeast('session.logSeverityLevel', session.logSeverityLevel, 0, POOL_DEFAULTS.logSeverityLevel)
  if (logSeverityLevel > 4) invalid('range', 'session.logSeverityLevel', 'an integer from 0 (verbose) to 4 (fatal)', logSeverityLevel)

  const policy = resolveQueuePolicies(options, options.timeoutMs, batching.maxQueueSize)
  const timeoutMs = policy === undefined ? finiteAtLeast('timeoutMs', options.timeoutMs, 0) : undefined
  if (options.fallback !== undefined && options.fallback !== 'cpu') invalid('range', 'fallback', "'cpu' or undefined", options.fallback)
  const startupTimeoutMs = integerAtLeast('startupTimeoutMs', options.startupTimeoutMs, 1, POOL_DEFAULTS.startupTimeoutMs)
  const batchTimeoutMs = options.batchTimeoutMs === undefined ? undefined : integerAtLeast('batchTimeoutMs', options.batchTimeoutMs, 1, 1)
  const logger = options.logger ?? console
  if (typeof logger !== 'object' || logger === null || typeof logger.warn !== 'function' || typeof logger.info !== 'function') {
    invalid('type', 'logger', 'an object with warn() and info()', logger)
  }
  if (options.resourceLimits !== undefined && (typeof options.resourceLimits !== 'object' || options.resourceLimits === null)) {
    invalid('type', 'resourceLimits', 'an object of worker_threads ResourceLimits', options.resourceLimits)
  }
  const processes = resolveProcesses(options)
  if (options.hostSession !== undefined && typeof options.hostSession !== 'boolean') {
    invalid('type', 'hostSession', 'a boolean', options.hostSession)
  }
  const labels = resolveLabels(options.labels, model)
  if (processes.isolation === 'process' && options.resourceLimits !== undefined) {
    invalid(
      'range',
      'resourceLimits',
      "unset with `isolation: 'process'` (limits of worker threads; cap a process with `processes.maxRssMb`)",
      options.resourceLimits,
    )
  }

  return {
    model,
    modelLabel,
    labels,
    modelSha256: undefined,
    replicas,
    concurrency,
    batching: {
      ...batching,
      ...(policy?.maxQueueSize === undefined ? {} : { maxQueueSize: policy.maxQueueSize }),
      maxBatchSize,
      maxWaitMs: batching.maxWaitMs ?? POOL_DEFAULTS.maxWaitMs,
      isolateFailures: batching.isolateFailures ?? POOL_DEFAULTS.isolateFailures,
    },
    session: {
      executionProvider: provider,
      intraOpNumThreads,
      interOpNumThreads,
      graphOptimizationLevel,
      allowSpinning: session.allowSpinning ?? POOL_DEFAULTS.allowSpinning,
      logSeverityLevel: logSeverityLevel as 0 | 1 | 2 | 3 | 4,
    },
    deviceIds,
    padding: resolvePadding(options.padding),
    timeoutMs,
    queuePolicies: policy?.policies,
    fallback: options.fallback,
    worker: resolveWorker(options.worker),
    workerOptions: options.workerOptions,
    startupTimeoutMs,
    batchTimeoutMs,
    logger,
    resourceLimits: options.resourceLimits,
    hostSession: options.hostSession ?? POOL_DEFAULTS.hostSession,
    ...processes,
  }
}
