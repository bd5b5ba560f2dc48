/**
 * What a parsed config.pbtxt asks of inferpool, field by field. Three outcomes for
 * each field the file sets:
 * - honoured: it becomes a pool option (`RepositoryModelConfig`);
 * - an error (`UnsupportedModelConfigError`): it would change what the model computes
 *   or how requests flow, and inferpool cannot do it (a sequence batcher, an ensemble,
 *   another platform, decoupled responses, batch inputs, custom op libraries);
 * - ignored, by name (`ignored`, logged once by the loader): it tunes something
 *   inferpool does not have (TensorRT, pinned memory, rate limiter, response cache…),
 *   so a real Triton repository loads. Nothing is dropped silently.
 *
 * Triton's defaults when a field is absent: one replica, the newest version, no
 * batching delay; `max_batch_size` and the inputs and outputs come from the model file
 * (Triton's auto-complete for ONNX).
 */
import { MAX_TIMER_MS } from '@inferpool/core/internal'
import type { QueuePolicy } from '@inferpool/host'
import type { ModelConfigObject } from './config-file.js'
import { UnsupportedModelConfigError } from './errors.js'
import { warmupSamplesOf } from './warmup.js'
import type { WarmupSample } from './warmup.js'

/** Which versions of a model are served (`version_policy`). */
export type VersionPolicy =
  | { readonly kind: 'latest'; readonly count: number }
  | { readonly kind: 'all' }
  | { readonly kind: 'specific'; readonly versions: readonly string[] }

/** Where the replicas run (`instance_group.kind` and `gpus`). */
export type Placement = { readonly kind: 'cpu' } | { readonly kind: 'gpu'; readonly gpus: readonly number[] }

export interface RepositoryModelConfig {
  /** `max_batch_size` when > 0; 0 becomes 1 (one request per run); `undefined`: from the model file. */
  readonly maxBatchSize: number | undefined
  readonly versionPolicy: VersionPolicy
  /** From `dynamic_batching`. */
  readonly batching: {
    /** `max_queue_delay_microseconds`, in ms. */
    readonly maxWaitMs?: number
    /** The largest `preferred_batch_size`: a smaller batch waits up to `maxWaitMs` for more rows. */
    readonly minBatchSize?: number
    /** `default_queue_policy.max_queue_size` (rows; 0 is Triton's "no limit": the pool's default). */
    readonly maxQueueSize?: number
  }
  /** `default_queue_policy.default_timeout_microseconds`, in ms. */
  readonly timeoutMs?: number
  /**
   * Triton's queue policies, when the config sets more of them than `max_queue_size` and
   * `default_timeout_microseconds` (which alone stay `batching.maxQueueSize` and
   * `timeoutMs`): `timeout_action`, `allow_timeout_override`, `priority_levels`,
   * `default_priority_level` or `priority_queue_policy`. The pool options of the same names.
   */
  readonly queue?: {
    readonly queuePolicy: QueuePolicy
    readonly priorityLevels?: number
    readonly defaultPriorityLevel?: number
    readonly priorityQueuePolicy?: Readonly<Record<number, QueuePolicy>>
  }
  /** The sum of the `instance_group` counts (each defaults to 1); `undefined` without groups. */
  readonly replicas: number | undefined
  readonly placement: Placement
  /** From `parameters` and `optimization.graph.level`. */
  readonly session: {
    readonly intraOpNumThreads?: number
    readonly interOpNumThreads?: number
    readonly graphOptimizationLevel?: 'basic' | 'extended' | 'all'
  }
  /** The model file of each version directory (`default_model_filename`). */
  readonly modelFilename: string
  /** `model_warmup`: the samples a new version runs before it serves (none: one zero-filled row). */
  readonly warmup: readonly WarmupSample[]
  /**
   * How the model sits in the cache of on-demand loading, from `parameters`:
   * `inferpool_pinned: "true"` — never evicted to make room under a memory budget;
   * `inferpool_eager: "true"` — loaded as the server starts rather than on its first request.
   */
  readonly cache: { readonly pinned: boolean; readonly eager: boolean }
  /** Fields set in the file that inferpool does not honour, as `a.b.c` paths. */
  readonly ignored: readonly string[]
}

type Obj = Record<string, unknown>

const PLATFORMS = new Set(['', 'onnxruntime_onnx'])
const BACKENDS = new Set(['', 'onnxruntime'])

/** Fields that change what is computed or how requests flow: an error when set. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  sequence_batching: 'is not supported: inferpool has no sequence batcher (stateful models); remove it to serve the model statelessly',
  ensemble_scheduling: 'is not supported: inferpool serves no ensembles; serve each step as its own model',
  batch_input: 'is not supported: inferpool adds no batch inputs to a model',
  batch_output: 'is not supported: inferpool scatters no batch outputs',
  model_operations: 'is not supported: inferpool loads no custom op libraries',
}

/** The on-demand cache's markers (`parameters { key: "inferpool_pinned" value: { string_value: "true" } }`). */
const CACHE_PARAMETERS: Readonly<Record<string, 'pinned' | 'eager'>> = { inferpool_pinned: 'pinned', inferpool_eager: 'eager' }

/** Session parameters (`parameters { key: … }`) honoured, with the names of Triton's ONNX Runtime backend. */
const SESSION_PARAMETERS: Readonly<Record<string, 'intraOpNumThreads' | 'interOpNumThreads'>> = {
  intra_op_thread_count: 'intraOpNumThreads',
  inter_op_thread_count: 'interOpNumThreads',
}

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null ? (value as Obj) : {}
}

/** The keys of `value` not in `handled`, as `prefix.key` paths. */
function rest(prefix: string, value: unknown, handled: readonly string[]): string[] {
  return Object.keys(obj(value))
    .filter((key) => !handled.includes(key))
    .map((key) => `${prefix}${key}`)
}

/** Interprets `config` (parsed from the config.pbtxt of model `name`; `{}` when there is none). */
export function interpretModelConfig(name: string, config: ModelConfigObject): RepositoryModelConfig {
  const fail = (field: string, reason: string): never => {
    throw new UnsupportedModelConfigError(name, field, reason)
  }
  const ignored: string[] = []

  if (config.name !== undefined && config.name !== name) fail('name', `is '${String(config.name)}', not the directory's name '${name}'`)
  const platform = String(config.platform ?? '')
  if (!PLATFORMS.has(platform)) fail('platform', `'${platform}' is not supported: inferpool serves ONNX models ('onnxruntime_onnx')`)
  const backend = String(config.backend ?? '')
  if (!BACKENDS.has(backend)) fail('backend', `'${backend}' is not supported: inferpool runs ONNX Runtime ('onnxruntime')`)
  for (const [field, reason] of Object.entries(UNSUPPORTED)) {
    const value = config[field]
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) fail(field, reason)
  }
  const transaction = obj(config.model_transaction_policy)
  if (transaction.decoupled === true) fail('model_transaction_policy.decoupled', 'is not supported: inferpool answers each request once')
  ignored.push(...rest('model_transaction_policy.', transaction, ['decoupled']))

  // max_batch_size: 0 is Triton's "no batching": one request per run. Below 0 Triton refuses the config.
  const rawMaxBatchSize = config.max_batch_size === undefined ? undefined : Number(config.max_batch_size)
  if (rawMaxBatchSize !== undefined && (!Number.isSafeInteger(rawMaxBatchSize) || rawMaxBatchSize < 0))
    fail('max_batch_size', `must be an integer >= 0, got ${String(config.max_batch_size)}`)
  const maxBatchSize = rawMaxBatchSize === undefined ? undefined : Math.max(1, rawMaxBatchSize)

  const versionPolicy = versionPolicyOf(obj(config.version_policy), fail)

  // A delay or timeout becomes a timer: past what Node's timers take (2^31 - 1 ms) it would fire
  // after 1 ms, or a warm-up row would wait for a batch that never fills. Refused, naming the field.
  const microseconds = (field: string, value: unknown): number => {
    const us = Number(value)
    if (!Number.isFinite(us) || us < 0 || us / 1000 > MAX_TIMER_MS)
      fail(field, `must be a number of microseconds in [0, ${MAX_TIMER_MS * 1000}], got ${String(value).slice(0, 40)}`)
    return us
  }
  const dynamic = obj(config.dynamic_batching)
  const batching: { maxWaitMs?: number; minBatchSize?: number; maxQueueSize?: number } = {}
  let timeoutMs: number | undefined
  let queue: RepositoryModelConfig['queue']
  if (config.dynamic_batching !== undefined) {
    if (dynamic.max_queue_delay_microseconds !== undefined)
      batching.maxWaitMs = microseconds('dynamic_batching.max_queue_delay_microseconds', dynamic.max_queue_delay_microseconds) / 1000
    const preferred = (dynamic.preferred_batch_size as number[] | undefined) ?? []
    for (const size of preferred) if (size < 1) fail('dynamic_batching.preferred_batch_size', `must hold sizes >= 1, got ${size}`)
    if (preferred.length > 0) batching.minBatchSize = Math.max(...preferred)
    const policy = obj(dynamic.default_queue_policy)
    if (policy.default_timeout_microseconds !== undefined)
      microseconds('dynamic_batching.default_queue_policy.default_timeout_microseconds', policy.default_timeout_microseconds)
    queue = queuePoliciesOf(dynamic)
    if (queue === undefined) {
      if (Number(policy.max_queue_size ?? 0) > 0) batching.maxQueueSize = Number(policy.max_queue_size)
      if (Number(policy.default_timeout_microseconds ?? 0) > 0) timeoutMs = Number(policy.default_timeout_microseconds) / 1000
    }
    ignored.push(...rest('dynamic_batching.default_queue_policy.', policy, QUEUE_POLICY_FIELDS))
    for (const [level, value] of Object.entries(obj(dynamic.priority_queue_policy))) {
      ignored.push(...rest(`dynamic_batching.priority_queue_policy[${level}].`, value, QUEUE_POLICY_FIELDS))
    }
    ignored.push(
      ...rest('dynamic_batching.', dynamic, [
        'max_queue_delay_microseconds',
        'preferred_batch_size',
        'default_queue_policy',
        'priority_levels',
        'default_priority_level',
        'priority_queue_policy',
      ]),
    )
  }

  const { replicas, placement } = instancesOf((config.instance_group as Obj[] | undefined) ?? [], fail, ignored)

  const session: { intraOpNumThreads?: number; interOpNumThreads?: number; graphOptimizationLevel?: 'basic' | 'extended' | 'all' } = {}
  const cache = { pinned: false, eager: false }
  for (const [key, parameter] of Object.entries(obj(config.parameters))) {
    const flag = CACHE_PARAMETERS[key]
    if (flag !== undefined) {
      const text = String(obj(parameter).string_value ?? '').trim()
      if (text !== 'true' && text !== 'false') fail(`parameters.${key}`, `must be 'true' or 'false', got '${text}'`)
      cache[flag] = text === 'true'
      continue
    }
    const option = SESSION_PARAMETERS[key]
    if (option === undefined) {
      ignored.push(`parameters.${key}`)
      continue
    }
    const text = String(obj(parameter).string_value ?? '')
    const n = Number(text)
    if (!/^\d+$/.test(text.trim()) || n < 1) fail(`parameters.${key}`, `must be an integer >= 1, got '${text}'`)
    session[option] = n
  }
  const optimization = obj(config.optimization)
  const level = obj(optimization.graph).level
  if (level !== undefined) {
    // Triton's ONNX Runtime backend: -1 basic only, 1 basic and extended, else all.
    session.graphOptimizationLevel = level === -1 ? 'basic' : level === 1 ? 'extended' : 'all'
  }
  ignored.push(...rest('optimization.', optimization, ['graph']))

  const handled = [
    'name',
    'platform',
    'backend',
    'max_batch_size',
    'version_policy',
    'dynamic_batching',
    'instance_group',
    'parameters',
    'optimization',
    'model_transaction_policy',
    'default_model_filename',
    'model_warmup',
    ...Object.keys(UNSUPPORTED),
  ]
  ignored.push(...rest('', config, handled))
  const modelFilename = String(config.default_model_filename ?? '') || 'model.onnx'
  if (modelFilename.includes('/') || modelFilename.includes('\\') || modelFilename === '..') {
    fail('default_model_filename', `must be a file name in the version directory, got '${modelFilename}'`)
  }
  const warmup = warmupSamplesOf((config.model_warmup as unknown[] | undefined) ?? [], rawMaxBatchSize, fail)
  return {
    maxBatchSize,
    versionPolicy,
    batching,
    timeoutMs,
    ...(queue === undefined ? {} : { queue }),
    replicas,
    placement,
    session,
    modelFilename,
    warmup,
    cache,
    ignored: [...new Set(ignored)],
  }
}

/** The `ModelQueuePolicy` fields honoured (`QueuePolicy`'s). */
const QUEUE_POLICY_FIELDS = ['timeout_action', 'default_timeout_microseconds', 'allow_timeout_override', 'max_queue_size']

/** A config's `ModelQueuePolicy` as the pool's `QueuePolicy` (only the fields it sets). */
function queuePolicyOf(value: unknown): QueuePolicy {
  const policy = obj(value)
  const out: { -readonly [K in keyof QueuePolicy]: QueuePolicy[K] } = {}
  // protobufjs gives enums by name; an unknown name is refused by the pool's own validation.
  if (policy.timeout_action !== undefined) out.timeoutAction = String(policy.timeout_action).toLowerCase() as 'reject' | 'delay'
  if (policy.default_timeout_microseconds !== undefined) out.defaultTimeoutMicroseconds = Number(policy.default_timeout_microseconds)
  if (policy.allow_timeout_override !== undefined) out.allowTimeoutOverride = policy.allow_timeout_override === true
  if (policy.max_queue_size !== undefined) out.maxQueueSize = Number(policy.max_queue_size)
  return out
}

/**
 * `dynamic_batching`'s queue policies, or `undefined` when it sets none beyond
 * `default_queue_policy`'s `max_queue_size` and `default_timeout_microseconds` (kept as
 * the pool's queue bound and default timeout, which a request's own timeout replaces).
 * Anything more maps the whole of it, with Triton's semantics (a request's own timeout
 * only with `allow_timeout_override`).
 */
function queuePoliciesOf(dynamic: Obj): RepositoryModelConfig['queue'] {
  const policy = obj(dynamic.default_queue_policy)
  const levels = Number(dynamic.priority_levels ?? 0)
  const perLevel = obj(dynamic.priority_queue_policy)
  const more =
    policy.timeout_action !== undefined ||
    policy.allow_timeout_override !== undefined ||
    levels > 0 ||
    dynamic.default_priority_level !== undefined ||
    Object.keys(perLevel).length > 0
  if (!more) return undefined
  const priorityQueuePolicy: Record<number, QueuePolicy> = {}
  for (const [level, value] of Object.entries(perLevel)) priorityQueuePolicy[Number(level)] = queuePolicyOf(value)
  return {
    queuePolicy: queuePolicyOf(policy),
    ...(levels > 0 ? { priorityLevels: levels } : {}),
    ...(dynamic.default_priority_level === undefined ? {} : { defaultPriorityLevel: Number(dynamic.default_priority_level) }),
    ...(Object.keys(priorityQueuePolicy).length > 0 ? { priorityQueuePolicy } : {}),
  }
}

function versionPolicyOf(policy: Obj, fail: (field: string, reason: string) => never): VersionPolicy {
  if (policy.all !== undefined) return { kind: 'all' }
  if (policy.specific !== undefined) {
    const versions = ((obj(policy.specific).versions as number[] | undefined) ?? []).map(Number)
    if (versions.length === 0) fail('version_policy.specific.versions', 'must name at least one version')
    for (const v of versions)
      if (!Number.isSafeInteger(v) || v < 1) fail('version_policy.specific.versions', `must be positive integers, got ${v}`)
    return { kind: 'specific', versions: versions.map(String) }
  }
  const count = Number(obj(policy.latest).num_versions ?? 1)
  return { kind: 'latest', count: count === 0 ? 1 : count }
}

function instancesOf(
  groups: readonly Obj[],
  fail: (field: string, reason: string) => never,
  ignored: string[],
): { replicas: number | undefined; placement: Placement } {
  if (groups.length === 0) return { replicas: undefined, placement: { kind: 'cpu' } }
  let replicas = 0
  const kinds = new Set<'cpu' | 'gpu'>()
  const gpus = new Set<number>()
  for (const group of groups) {
    const count = group.count === undefined ? 1 : Number(group.count)
    if (!Number.isSafeInteger(count) || count < 1) fail('instance_group.count', `must be an integer >= 1, got ${String(group.count)}`)
    // KIND_AUTO and KIND_MODEL run on the CPU here: inferpool never picks a GPU on its own.
    const kind = group.kind === 'KIND_GPU' ? 'gpu' : 'cpu'
    kinds.add(kind)
    const devices = (group.gpus as number[] | undefined) ?? []
    if (kind === 'cpu' && devices.length > 0)
      fail('instance_group.gpus', `is set on a ${String(group.kind ?? 'KIND_AUTO')} group, which runs on the CPU`)
    for (const device of devices) {
      if (!Number.isSafeInteger(device) || device < 0) fail('instance_group.gpus', `must be device ids >= 0, got ${device}`)
      gpus.add(device)
    }
    // Triton: `count` instances on each GPU listed.
    replicas += kind === 'gpu' ? count * Math.max(1, devices.length) : count
    ignored.push(...rest('instance_group.', group, ['count', 'kind', 'gpus', 'name']))
  }
  if (kinds.size > 1) fail('instance_group', 'mixes CPU and GPU groups: inferpool runs all replicas of a model on one kind of device')
  const placement: Placement = kinds.has('gpu')
    ? { kind: 'gpu', gpus: gpus.size === 0 ? [0] : [...gpus].sort((a, b) => a - b) }
    : { kind: 'cpu' }
  return { replicas, placement }
}
