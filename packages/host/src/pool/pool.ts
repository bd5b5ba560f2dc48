/**
 * `createPool`: the facade. It wires the parts, each of which has its own home:
 * - the replica transport (transport.ts; worker threads: threads/) starts the
 *   replicas and carries batches to them;
 * - the codec (codecs/) admits requests and packs and decodes batches;
 * - the retry policy (retry-policy.ts) applies the per-batch retry/reroute/crash/timeout policy;
 * - `PoolDescription` (metadata.ts) owns the metadata and the effective `maxBatchSize`;
 * - the batcher (@inferpool/core) forms the batches;
 * - the lifecycle (../lifecycle.ts) orders `close` and `destroy`.
 * Cancellation happens in the batcher, never by aborting a running task: aborting a
 * running piscina task terminates its thread (docs/runtime-facts.md#piscina-5).
 */
import { BatcherClosedError, DynamicBatcher, LatencyModel } from '@inferpool/core'
import type { BatchContext, BatcherObserver, DynamicBatcherOptions, SubmitOptions } from '@inferpool/core'
import { performance } from 'node:perf_hooks'
import type { OnnxWorkerOptions, RunTiming, TensorBatchOutput } from '@inferpool/worker'
import { ProviderUnavailableError } from '../errors.js'
import { Lifecycle } from '../lifecycle.js'
import type {
  BatchTimingsEvent,
  BlockInput,
  BlockOutput,
  InferOptions,
  Pool,
  PoolObserver,
  PoolOptions,
  PoolStats,
  RowInput,
  RowOutput,
} from '../types.js'
import type { Codec, PackedTask } from './codecs/codec.js'
import { tensorCodec } from './codecs/tensor.js'
import { userCodec } from './codecs/user.js'
import { DeadlineHandOff } from './hand-off.js'
import type { SendPlan } from './hand-off.js'
import { RetryPolicy } from './retry-policy.js'
import { PoolDescription } from './metadata.js'
import { readModelBytes, withoutUnneededBytes } from './model-bytes.js'
import { buildModelShape } from './model-shape.js'
import { resolvePoolOptions } from './options.js'
import type { ResolvedPoolOptions } from './options.js'
import { createProcessTransport } from './process/index.js'
import { HostSessionTransport, hostSessionFits } from './threads/host-session.js'
import { ThreadTransport, workerOptionsFor } from './threads/transport.js'
import type { ReplicaTransport, ReplicaTransportFactory } from './transport.js'
import { PoolTracing } from './tracing.js'
import type { BatchTrace } from './tracing.js'

/** `infer()` without options (shared: a default `{}` would be a new object per call). */
const NO_OPTIONS: InferOptions = Object.freeze({})

/** `rows` without the indices `left` (ascending). */
function without(rows: readonly unknown[], left: readonly number[]): unknown[] {
  const kept: unknown[] = []
  for (let i = 0, j = 0; i < rows.length; i++) {
    if (left[j] === i) j++
    else kept.push(rows[i])
  }
  return kept
}

/** The one result of a request of one row queued through `submitMany`. */
function first(results: unknown[]): unknown {
  return results[0]
}

/** Thread replicas, with a session on the host thread for the batch that finds them all idle (threads/host-session.ts). */
const threadTransport: ReplicaTransportFactory = (options, events) => {
  const threads = new ThreadTransport(options, events)
  if (!hostSessionFits(options)) return threads
  return new HostSessionTransport(threads, workerOptionsFor(options) as OnnxWorkerOptions, (level, message) => {
    try {
      options.logger[level](`inferpool: ${options.modelLabel}: ${message}`)
    } catch {
      // A logger never breaks the pool.
    }
  })
}

/**
 * Starts a pool: `replicas` worker threads, each with one cached ONNX Runtime
 * session (or a user worker's state), behind a dynamic batcher. Resolves when every
 * replica has loaded; rejects with `ModelLoadError`, `ProviderUnavailableError`,
 * `WorkerCrashedError` or `StartupTimeoutError` otherwise, leaving no thread running
 * — except that an ONNX thread still inside its native load when `StartupTimeoutError`
 * fires is ended only once that load returns (threads/ledger.ts), in the background,
 * with the process held open until then. Options are validated first (TypeError/RangeError naming the option).
 */
export function createPool<In = unknown, Out = unknown>(options: PoolOptions & { worker: string | URL }): Promise<Pool<In, Out>>
// Kept last: `Parameters<typeof createPool>` / `ReturnType` read the last overload.
export function createPool(options: PoolOptions): Promise<Pool<RowInput, RowOutput>>
export async function createPool(options: PoolOptions): Promise<Pool<unknown, unknown>> {
  const resolved = await withModelBytes(resolvePoolOptions(options))
  const transport = resolved.isolation === 'process' ? createProcessTransport : threadTransport
  try {
    return await startPool(resolved, options.cost, transport)
  } catch (err) {
    // ORT does not fall back along a provider list, so the fallback is an explicit
    // second attempt, announced, never silent.
    if (err instanceof ProviderUnavailableError && resolved.fallback === 'cpu' && resolved.session.executionProvider === 'cuda') {
      resolved.logger.warn(`inferpool: ${err.message} Falling back to the CPU execution provider (fallback: 'cpu').`)
      const cpu: ResolvedPoolOptions = { ...resolved, session: { ...resolved.session, executionProvider: 'cpu' }, deviceIds: [] }
      delete cpu.session.deviceId
      return await startPool(cpu, options.cost, transport)
    }
    throw err
  }
}

/**
 * The built-in worker's options with the model read once (model-bytes.ts): from here
 * on, every replica of this pool loads these bytes, never the file again. A user
 * worker loads what its own `workerOptions` say.
 */
async function withModelBytes(resolved: ResolvedPoolOptions): Promise<ResolvedPoolOptions> {
  if (resolved.worker !== null) return resolved
  const { bytes, sha256 } = await readModelBytes(resolved.model)
  return { ...resolved, model: bytes, modelSha256: sha256 }
}

/** Calls each observer's hook; an observer that throws never breaks the pool. */
function notify<K extends keyof PoolObserver>(
  observers: ReadonlySet<PoolObserver>,
  hook: K,
  event: Parameters<NonNullable<PoolObserver[K]>>[0],
): void {
  for (const observer of observers) {
    try {
      ;(observer[hook] as ((e: typeof event) => void) | undefined)?.(event)
    } catch {
      // An observer never breaks the pool.
    }
  }
}

/** How a successful batch's time divides, for `PoolObserver.onBatchTimings`. */
function batchTimings(batchId: number, rows: number, startedMs: number, timing: RunTiming): BatchTimingsEvent {
  const endedMs = performance.timeOrigin + performance.now()
  // Clocks of two threads (or processes) agree to well under a ms; clamp what rounding could make negative.
  return {
    batchId,
    rows,
    inputMs: Math.max(0, timing.runStartMs - startedMs),
    inferMs: Math.max(0, timing.runEndMs - timing.runStartMs),
    outputMs: Math.max(0, endedMs - timing.runEndMs),
  }
}

async function startPool(
  options: ResolvedPoolOptions,
  cost: PoolOptions['cost'],
  makeTransport: ReplicaTransportFactory,
): Promise<Pool<unknown, unknown>> {
  const observers = new Set<PoolObserver>()
  // The batcher's latency model, shared with the hand-off of deadline formation (hand-off.ts).
  const latencyModel = options.batching.latencyModel ?? new LatencyModel()
  const handOff = options.batching.formation === 'deadline' ? new DeadlineHandOff(latencyModel) : undefined
  const transport: ReplicaTransport = makeTransport(options, {
    onReplicaRestart: (event) => notify(observers, 'onWorkerRestart', event),
    onRebuild: (event) => notify(observers, 'onRebuild', event),
  })
  const description = await transport.start()
  // What the pool keeps for its life holds no model bytes that no replica will read again.
  options = withoutUnneededBytes(options)

  let codec: Codec<unknown>
  let about: PoolDescription
  let batcher: DynamicBatcher<unknown, unknown>
  try {
    codec = (
      options.worker === null
        ? tensorCodec(buildModelShape(description as NonNullable<typeof description>, options), cost, (failure) =>
            about.lower(
              1,
              `batches of more than one row failed while each of their rows succeeded alone: the model declares a dynamic ` +
                `batch axis but only runs batch 1 (last failure: ${failure})`,
            ),
          )
        : userCodec(description, cost)
    ) as Codec<unknown>
    about = new PoolDescription(codec, options)
    const retryPolicy = new RetryPolicy(
      transport,
      { batchTimeoutMs: options.batchTimeoutMs, isolateFailures: options.batching.isolateFailures },
      observers,
    )
    // Process replicas take a batch's rows as they are, written straight into a transfer file.
    const asPieces = transport.takesPieces === true
    const tracing = new PoolTracing({ model: options.labels.model, version: options.labels.version, kind: options.isolation, latencyModel })
    const runBatch = async (items: unknown[], ctx: BatchContext, traced: BatchTrace | undefined): Promise<unknown[]> => {
      // On the clock the worker's run timing uses too (see TensorBatchOutput.timing).
      const startedMs = observers.size > 0 || handOff !== undefined || traced !== undefined ? performance.timeOrigin + performance.now() : 0
      // With deadline formation, each send carries its rows' deadlines (hand-off.ts), and
      // may leave rows out: `sent` are the rows of the last send, `plan` what it carried.
      let sent: unknown[] = items
      let plan: SendPlan | undefined
      let sends = 0
      const pack = (): PackedTask => {
        if (handOff === undefined) return codec.pack(items, asPieces)
        plan = handOff.plan(items, sends++ === 0)
        // A re-send in which no row can make it any more: not sent (see `ran` below).
        if (plan?.keep?.length === 0) throw handOff.lateError(items[0], plan.boundMs, items.length)
        sent = plan?.keep === undefined ? items : plan.keep.map((i) => items[i])
        const packed = codec.pack(sent, asPieces)
        if (plan !== undefined) {
          packed.deadlines = plan.deadlines
          packed.runMs = plan.runMs
        }
        return packed
      }
      const result = await retryPolicy.run(ctx, items.length, pack)
      if (traced !== undefined) traced.ran(result, startedMs)
      const dropped = result.ok && result.kind === 'run' ? result.dropped : undefined
      // The rows that ran: the replica leaves out rows too late for their deadline.
      const ran = dropped === undefined ? sent : without(sent, dropped)
      if (ran.length === 0) {
        // Nothing ran. Thrown, not answered row by row: a batch answered counts as a run
        // in the latency model, and this one's time is no run's.
        throw (handOff as DeadlineHandOff).lateError(sent[0], (plan as SendPlan).boundMs, items.length)
      }
      const outputs = codec.decode(result, ran)
      if (result.ok && result.kind === 'run') {
        const timing = (result.value as Partial<TensorBatchOutput> | null)?.timing
        if (timing !== undefined) {
          // The latency model learns the model's run where it ran, apart from the hand-off:
          // measured on this thread, every stall of it would read as a slow model.
          ctx.reportRunMs(timing.runEndMs - timing.runStartMs)
          handOff?.noteSend(timing.runStartMs - startedMs)
          handOff?.answered()
          if (observers.size > 0) notify(observers, 'onBatchTimings', batchTimings(ctx.batchId, ran.length, startedMs, timing))
        }
      }
      if (ran === items) return outputs
      // Rows left out (on the host or by the replica) fail; the others get their outputs.
      // `ran` is a subsequence of `items` (each row its own object).
      const results = new Array<unknown>(items.length)
      for (let i = 0, j = 0; i < items.length; i++) {
        results[i] =
          items[i] === ran[j] ? outputs[j++] : (handOff as DeadlineHandOff).lateError(items[i], (plan as SendPlan).boundMs, items.length)
      }
      return results
    }
    // Only a batch holding a traced request is looked at (`traced`: none while no SDK is registered).
    const processBatch = (items: unknown[], ctx: BatchContext): Promise<unknown[]> => {
      const tracer = tracing.traced === 0 ? undefined : tracing.tracer()
      const traced = tracer === undefined ? undefined : tracing.batch(tracer, items, ctx)
      if (traced === undefined) return runBatch(items, ctx, undefined)
      return runBatch(items, ctx, traced).then(
        (outputs) => {
          traced.end(outputs)
          return outputs
        },
        (error: unknown) => {
          traced.fail(error)
          throw error
        },
      )
    }
    const batcherOptions: DynamicBatcherOptions<unknown> = {
      ...options.batching,
      maxBatchSize: about.maxBatchSize,
      maxConcurrentBatches: options.replicas * options.concurrency,
      latencyModel,
    }
    if (codec.batchKey !== undefined) batcherOptions.batchKey = codec.batchKey
    if (codec.cost !== undefined) batcherOptions.cost = codec.cost
    batcher = new DynamicBatcher<unknown, unknown>(
      // Every item of a batch has already settled (aborted or timed out): skip the work.
      // (`ctx.aborted`, not `ctx.signal.aborted`: the signal costs an AbortController per batch.)
      (items, ctx) => (ctx.aborted ? items.map(() => ctx.signal.reason as Error) : processBatch(items, ctx)),
      batcherOptions,
    )
    about.onLowered = (event) => {
      batcher.setMaxBatchSize(event.to)
      options.logger.warn(`inferpool: lowering maxBatchSize of ${options.modelLabel} from ${event.from} to ${event.to}: ${event.reason}`)
      notify(observers, 'onMaxBatchSizeLowered', event)
    }
    return facade(options, codec, about, batcher, retryPolicy, transport, observers, handOff, tracing)
  } catch (err) {
    await transport.destroy()
    throw err
  }
}

/**
 * The batcher's options for one request, or `undefined` when it has none: made once per
 * request, and not at all in the common case (no signal, timeout, priority or cost).
 */
function submitOptions(inferOptions: InferOptions, poolTimeoutMs: number | undefined): SubmitOptions | undefined {
  const timeoutMs = inferOptions.timeoutMs ?? poolTimeoutMs
  if (
    inferOptions.signal === undefined &&
    timeoutMs === undefined &&
    inferOptions.priority === undefined &&
    inferOptions.cost === undefined
  ) {
    return undefined
  }
  const submit: SubmitOptions = {}
  if (inferOptions.signal !== undefined) submit.signal = inferOptions.signal
  if (timeoutMs !== undefined) submit.timeoutMs = timeoutMs
  if (inferOptions.priority !== undefined) submit.priority = inferOptions.priority
  if (inferOptions.cost !== undefined) submit.cost = inferOptions.cost
  return submit
}

function facade(
  options: ResolvedPoolOptions,
  codec: Codec<unknown>,
  about: PoolDescription,
  batcher: DynamicBatcher<unknown, unknown>,
  retryPolicy: RetryPolicy,
  transport: ReplicaTransport,
  observers: Set<PoolObserver>,
  handOff: DeadlineHandOff | undefined,
  tracing: PoolTracing,
): Pool<unknown, unknown> {
  const lifecycle = new Lifecycle({
    // Drain (or fail) the queue and let running batches settle first; only then
    // release the sessions and end the replicas, so nothing in flight is lost.
    drain: () => batcher.close({ drain: true }),
    abandon: () => batcher.close({ drain: false }),
    release: () => transport.close(),
    // The transport settles running batches at once (their callers fail with `error`
    // through the batcher) and ends the replicas as soon as that is safe.
    destroy: async (error) => {
      const closed = batcher.destroy(error ?? new BatcherClosedError('Pool was destroyed'))
      await transport.destroy()
      await closed
    },
  })

  const policies = options.queuePolicies
  /** Queues admitted rows all or none: `inferMany`'s rows and `inferBlock`'s alike. */
  /**
   * Deadline formation: the rows carry their request's deadline to the replica
   * (hand-off.ts). Not a timeout that only lowers the request's priority (a queue
   * policy's DELAY): that is no deadline.
   */
  const stamp = (items: unknown[], submit: SubmitOptions | undefined): void => {
    if (handOff !== undefined && submit?.timeoutMs !== undefined && submit.delayedPriority === undefined) {
      for (const item of items) handOff.stamp(item, submit.timeoutMs)
    }
  }
  const submitMany = (items: unknown[], inferOptions: InferOptions): Promise<unknown[]> => {
    const tracer = tracing.tracer()
    const traced = tracer === undefined ? undefined : tracing.begin(tracer, items, inferOptions, options.timeoutMs, batcher.admission)
    const pending = submitUntraced(items, inferOptions)
    return traced === undefined ? pending : tracing.settle(traced, pending)
  }
  const submitUntraced = (items: unknown[], inferOptions: InferOptions): Promise<unknown[]> => {
    if (policies === undefined) {
      const submit = submitOptions(inferOptions, options.timeoutMs)
      stamp(items, submit)
      return batcher.submitMany(items, submit)
    }
    let level: number
    let submit: SubmitOptions
    try {
      level = policies.levelOf(inferOptions)
      submit = policies.submitOptions(inferOptions, level)
    } catch (err) {
      return Promise.reject(err)
    }
    stamp(items, submit)
    return policies.admit(level, items.length, () => batcher.submitMany(items, submit))
  }

  const submitOne = (item: unknown, inferOptions: InferOptions): Promise<unknown> => {
    const submit = submitOptions(inferOptions, options.timeoutMs)
    if (submit === undefined) return batcher.submit(item)
    if (handOff !== undefined && submit.timeoutMs !== undefined) handOff.stamp(item, submit.timeoutMs)
    return batcher.submit(item, submit)
  }

  const pool: Pool<unknown, unknown> = {
    infer(input: unknown, inferOptions: InferOptions = NO_OPTIONS): Promise<unknown> {
      let item: unknown
      try {
        item = codec.admit(input)
      } catch (err) {
        return Promise.reject(err)
      }
      if (policies !== undefined) return submitMany([item], inferOptions).then(first)
      const tracer = tracing.tracer()
      if (tracer !== undefined) {
        const traced = tracing.begin(tracer, [item], inferOptions, options.timeoutMs, batcher.admission)
        if (traced !== undefined) return tracing.settle(traced, submitOne(item, inferOptions))
      }
      return submitOne(item, inferOptions)
    },
    inferMany(inputs: readonly unknown[], inferOptions: InferOptions = NO_OPTIONS): Promise<unknown[]> {
      if (!Array.isArray(inputs)) {
        return Promise.reject(new TypeError(`Expected \`inputs\` to be an array, got ${inputs === null ? 'null' : typeof inputs}`))
      }
      const items = new Array<unknown>(inputs.length)
      try {
        // Every row is checked before any is queued: a bad row refuses the whole request.
        for (let i = 0; i < inputs.length; i++) items[i] = codec.admit(inputs[i])
      } catch (err) {
        return Promise.reject(err)
      }
      return submitMany(items, inferOptions)
    },
    inferBlock: inferBlockOf(codec, submitMany),
    get admission() {
      return batcher.admission
    },
    get metadata() {
      return about.metadata
    },
    get stats(): PoolStats {
      return {
        ...batcher.stats,
        replicas: transport.replicas,
        restarts: transport.restarts,
        crashed: retryPolicy.crashed,
        rebuilds: transport.rebuilds,
      }
    },
    observe(observer: PoolObserver): () => void {
      const unsubscribe = batcher.observe(observer as BatcherObserver)
      observers.add(observer)
      return () => {
        unsubscribe()
        observers.delete(observer)
      }
    },
    close: (closeOptions) => lifecycle.close(closeOptions),
    destroy: (error) => lifecycle.destroy(error),
    get closed() {
      return lifecycle.closed
    },
    get destroyed() {
      return lifecycle.destroyed
    },
    [Symbol.asyncDispose]: () => lifecycle.close(),
  }
  return pool
}

/**
 * `pool.inferBlock` where the codec takes blocks (block.ts): the block is checked and
 * made into rows at once (a bad block queues nothing), queued all or none like
 * `inferMany`'s rows, and its outputs joined from the rows' results.
 */
function inferBlockOf(
  codec: Codec<unknown>,
  submitMany: (items: unknown[], inferOptions: InferOptions) => Promise<unknown[]>,
): Pool['inferBlock'] {
  const { admitBlock, joinBlock } = codec
  if (admitBlock === undefined || joinBlock === undefined) return undefined
  return (inputs: BlockInput, inferOptions: InferOptions = NO_OPTIONS): Promise<BlockOutput> => {
    let items: unknown[]
    try {
      items = admitBlock(inputs)
    } catch (err) {
      return Promise.reject(err)
    }
    return submitMany(items, inferOptions).then(joinBlock)
  }
}
