/**
 * `createPool`: a `DynamicBatcher` in front of piscina worker threads, each holding
 * one cached session. Runtime facts that shape it (docs/runtime-facts.md):
 * - piscina: `minThreads = maxThreads = replicas`, `idleTimeout: Infinity` (its
 *   defaults tear idle workers down with their sessions); the worker module is an
 *   async factory that never throws at load (see @inferpool/worker).
 * - no AbortSignal is passed to `piscina.run()` for cancellation: aborting a running
 *   piscina task terminates its worker and loses the session. Cancellation happens in
 *   the batcher. The one exception is `batchTimeoutMs`, where terminating the worker
 *   is the point (a `run` that never returns).
 * - each batch is packed into its own ArrayBuffer per input and transferred; outputs
 *   come back transferred too (only a top-level `Piscina.move()` transfers).
 * - a rejected `piscina.run()` means the worker thread died (the worker handler never
 *   throws), the task could not be cloned (a caller's input: `InvalidInputError`), or
 *   its piscina instance was retired. A crash re-runs the batch once on the
 *   replacement, then throws so the batcher's `isolateFailures` narrows it down to
 *   the rows that crash a worker alone.
 * - piscina stops replacing threads for good once a replacement dies before it is
 *   ready; `WorkerSupervisor` (supervisor.ts) then swaps in a new piscina instance
 *   and the batches it had queued are re-routed, not counted as crashes.
 */
import { BatchSizeMismatchError, BatcherClosedError, DynamicBatcher } from '@inferpool/core'
import type { BatchContext, BatcherObserver, DynamicBatcherOptions, SubmitOptions } from '@inferpool/core'
import type { LoadReport, OnnxWorkerOptions, SlotError, TaskResult, WorkerDescription } from '@inferpool/worker'
import { fromWire } from '../error-registry.js'
import { BatchTimeoutError, InferenceError, InvalidInputError, ProviderUnavailableError, WorkerCrashedError } from '../errors.js'
import type {
  InferOptions,
  Pool,
  PoolMetadata,
  PoolObserver,
  PoolOptions,
  PoolStats,
  RowInput,
  RowOutput,
  TensorInfo,
} from '../types.js'
import { BatchSizeProbe } from './batch-size-probe.js'
import type { ProbedRow } from './batch-size-probe.js'
import { buildModelShape } from './model-shape.js'
import type { ModelShape } from './model-shape.js'
import { resolvePoolOptions } from './options.js'
import type { ResolvedPoolOptions } from './options.js'
import { packBatch, unpackOutputs } from './pack.js'
import { ReplicaTable } from './replicas.js'
import { createPiscina, onnxWorkerPath, startWorkers } from './startup.js'
import { WorkerSupervisor } from './supervisor.js'
import type { PiscinaWorkerInterface } from './startup.js'
import { validateRow } from './validate-input.js'
import type { ValidRow } from './validate-input.js'

/** A queued request of a tensor pool: the validated row itself (no wrapper per request). */
interface TensorItem extends ProbedRow, ValidRow {}

/** `infer()` without options (shared: a default `{}` would be a new object per call). */
const NO_OPTIONS: InferOptions = Object.freeze({})

/** A queued request of a user-worker pool. */
interface UserItem {
  input: unknown
}

/** How long `close()` waits for the workers to release their sessions before terminating them. */
const DISPOSE_TIMEOUT_MS = 2_000

/** Times a batch is sent again because the threads it waited for were retired (see supervisor.ts). */
const MAX_REROUTES = 3

/** Codes a worker answers with when its thread's load failed. */
const LOAD_FAILURE_CODES: ReadonlySet<string> = new Set(['ERR_MODEL_LOAD', 'ERR_PROVIDER_UNAVAILABLE'])

function isSlotError(value: unknown): value is SlotError {
  return typeof value === 'object' && value !== null && '$inferpoolSlotError' in value
}

function defaultCost(input: unknown): number {
  const item = input as { estimateCost?: () => number; estimateTokens?: () => number } | null
  if (typeof item?.estimateCost === 'function') return item.estimateCost()
  if (typeof item?.estimateTokens === 'function') return item.estimateTokens()
  return 1
}

function crashReason(err: unknown, withName = false): string {
  if (!(err instanceof Error)) return String(err)
  return withName ? `${err.name}: ${err.message}` : err.message
}

/** A `postMessage` that failed on what it was given to send (structured clone). */
function isCloneError(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'DataCloneError'
}

/**
 * Starts a pool: `replicas` worker threads, each with one cached ONNX Runtime
 * session (or a user worker's state), behind a dynamic batcher. Resolves when every
 * replica has loaded; rejects with `ModelLoadError`, `ProviderUnavailableError`,
 * `WorkerCrashedError` or `StartupTimeoutError` otherwise, leaving no thread running
 * — except that an ONNX thread still inside its native load when `StartupTimeoutError`
 * fires is terminated only once that load returns (terminating it mid-load aborts the
 * process; see startup.ts), in the background, with the process held open until then.
 * Options are validated first (TypeError/RangeError naming the option).
 */
export function createPool<In = unknown, Out = unknown>(options: PoolOptions & { worker: string | URL }): Promise<Pool<In, Out>>
// Kept last: `Parameters<typeof createPool>` / `ReturnType` read the last overload.
export function createPool(options: PoolOptions): Promise<Pool<RowInput, RowOutput>>
export async function createPool(options: PoolOptions): Promise<Pool<unknown, unknown>> {
  const resolved = resolvePoolOptions(options)
  try {
    return await startPool(resolved, options.cost)
  } catch (err) {
    // ORT does not fall back along a provider list, so the fallback is an explicit
    // second attempt, announced, never silent.
    if (err instanceof ProviderUnavailableError && resolved.fallback === 'cpu' && resolved.session.executionProvider === 'cuda') {
      resolved.logger.warn(`inferpool: ${err.message} Falling back to the CPU execution provider (fallback: 'cpu').`)
      const cpu: ResolvedPoolOptions = { ...resolved, session: { ...resolved.session, executionProvider: 'cpu' }, deviceIds: [] }
      delete cpu.session.deviceId
      return await startPool(cpu, options.cost)
    }
    throw err
  }
}

function workerOptionsFor(options: ResolvedPoolOptions): unknown {
  if (options.worker !== null) return options.workerOptions
  const onnx: OnnxWorkerOptions = {
    model: options.model,
    session: options.session,
    deviceIds: options.deviceIds,
    deviceCounter: new Int32Array(new SharedArrayBuffer(4)),
  }
  return onnx
}

function tensorInfos(list: WorkerDescription['inputs'] | undefined): TensorInfo[] {
  return (list ?? []).map((i) => ({ name: i.name, type: i.type, dims: [...i.dims] }))
}

async function startPool(options: ResolvedPoolOptions, cost: PoolOptions['cost']): Promise<Pool<unknown, unknown>> {
  const replicas = new ReplicaTable(options.replicas)
  const observers = new Set<PoolObserver>()
  let closing = false
  const onWorkerCreate = (worker: PiscinaWorkerInterface): void => {
    // Exits are watched by the supervisor (for threads that never became ready too).
    replicas.attach(worker.id, () => worker.currentUsage)
  }

  const filename = options.worker ?? onnxWorkerPath()
  const workerOptions = workerOptionsFor(options)
  const started = await startWorkers(options, filename, workerOptions, (_piscina, worker) => onWorkerCreate(worker))
  const { piscina, channel, description } = started

  let shape: ModelShape | null = null
  try {
    if (options.worker === null) shape = buildModelShape(description as WorkerDescription, options)
  } catch (err) {
    channel.close()
    await piscina.destroy()
    throw err
  }

  const fixedBatchSize = shape?.fixedBatchSize ?? null
  const configured = options.batching.maxBatchSize
  const metadata: PoolMetadata = {
    inputs: tensorInfos(description?.inputs),
    outputs: tensorInfos(description?.outputs),
    maxBatchSize: fixedBatchSize === null ? configured : Math.min(configured, fixedBatchSize),
    fixedBatchSize,
    replicas: options.replicas,
    concurrency: options.concurrency,
    executionProvider: options.session.executionProvider,
    model: options.modelLabel,
  }
  if (fixedBatchSize !== null && fixedBatchSize < configured) {
    metadata.maxBatchSizeReason = `the model's batch dimension is fixed to ${fixedBatchSize}`
  }

  let batcher: DynamicBatcher<TensorItem | UserItem, unknown>

  const probe = new BatchSizeProbe((failure) => {
    const from = metadata.maxBatchSize
    const reason =
      `batches of more than one row failed while each of their rows succeeded alone: the model declares a dynamic ` +
      `batch axis but only runs batch 1 (last failure: ${failure})`
    metadata.maxBatchSize = 1
    metadata.maxBatchSizeReason = reason
    batcher.setMaxBatchSize(1)
    options.logger.warn(`inferpool: lowering maxBatchSize of ${options.modelLabel} from ${from} to 1: ${reason}`)
    for (const observer of observers) {
      try {
        observer.onMaxBatchSizeLowered?.({ from, to: 1, reason })
      } catch {
        // An observer never breaks the pool.
      }
    }
  })

  /**
   * Runs one batch on some worker, re-running it once if the worker thread dies.
   * `makeTask` is called per attempt: a transferred buffer is detached after the
   * first send, so a re-run packs the rows again from the callers' arrays.
   */
  async function runOnWorker(
    ctx: BatchContext,
    rows: number,
    makeTask: () => { payload: unknown; transfer: ArrayBuffer[]; dims?: Record<string, number[]> },
  ): Promise<TaskResult> {
    let reroutes = 0
    let loadRetries = 0
    const loadDeathsBefore = supervisor.loadDeaths
    for (let attempt = 1; ; ) {
      const { payload, transfer, dims = {} } = makeTask()
      // No caller's signal here, on purpose: aborting a running piscina task kills its
      // worker. Only `batchTimeoutMs` does that, deliberately.
      const deadline = options.batchTimeoutMs === undefined ? undefined : new AbortController()
      const timer = deadline && setTimeout(() => deadline.abort(), options.batchTimeoutMs).unref()
      const { generation, result: pending } = supervisor.run({ kind: 'run', batchId: ctx.batchId, payload }, transfer, deadline?.signal)
      if (observers.size > 0) {
        for (const observer of observers) {
          try {
            observer.onBatchSent?.({ batchId: ctx.batchId, rows, buffers: transfer, dims })
          } catch {
            // An observer never breaks the pool.
          }
        }
      }
      let result: TaskResult
      try {
        result = await pending
      } catch (err) {
        if (closing && piscinaDestroyed) throw new BatcherClosedError('Pool was destroyed while the batch was running')
        // piscina terminated the thread running it and starts a replacement. Not re-run
        // at this size: the batcher splits it, so only rows that time out alone fail.
        if (deadline?.signal.aborted) throw new BatchTimeoutError(options.batchTimeoutMs as number, rows)
        // piscina could not post the task (a user worker's input holding a function, a
        // symbol…): no thread died, so not a crash. Typed as the caller's error; the
        // batcher splits the batch until the item that cannot be cloned is alone.
        if (isCloneError(err)) {
          throw new InvalidInputError(`The request could not be sent to the worker thread (${crashReason(err, true)})`, {
            cause: err,
            details: { reason: crashReason(err) },
          })
        }
        // Rejected because its generation was retired (piscina had stopped replacing
        // threads): not this batch's fault, send it to the new threads. Bounded, in
        // case generations keep failing.
        if (supervisor.isRetired(generation) && reroutes < MAX_REROUTES) {
          reroutes++
          continue
        }
        // No thread at all (replacements die while loading): already typed, and a
        // re-run could only fail the same way.
        if (err instanceof WorkerCrashedError) throw countCrashed(err, rows)
        if (attempt++ < 2) continue
        // Crashed twice: throw, so the batcher splits the batch and only rows that
        // crash a worker on their own end up failing. If replacement threads died
        // while loading meanwhile, that is the likelier cause: say so.
        const loadDeath = supervisor.loadDeaths > loadDeathsBefore ? supervisor.lastLoadDeath : undefined
        const reason = crashReason(err) + (loadDeath === undefined ? '' : `; replacement threads died while loading: ${loadDeath}`)
        throw countCrashed(
          new WorkerCrashedError(`The worker thread died twice running ${rows === 1 ? 'this row' : `a batch of ${rows} rows`} (${reason})`, {
            cause: err,
            details: { rows, reason, ...(loadDeath === undefined ? {} : { loadDeath }) },
          }),
          rows,
        )
      } finally {
        clearTimeout(timer)
      }
      const loadFailure = !result.ok && LOAD_FAILURE_CODES.has(result.error.code) ? result.error.message : undefined
      noteLoad(result.threadId, loadFailure)
      // A thread whose load failed (a replacement after a crash) retries its load on
      // each task (@inferpool/worker never caches a failed load): give the batch one
      // more go, which retries the load there or lands on a healthy replica.
      if (loadFailure !== undefined && loadRetries++ < 1) continue
      replicas.record(result.threadId, rows, result.busyMs)
      return result
    }
  }

  /** Counts rows that finally fail with `WorkerCrashedError` (once: after splitting, only single rows). */
  function countCrashed(err: WorkerCrashedError, rows: number): WorkerCrashedError {
    if (rows === 1 || !options.batching.isolateFailures) replicas.crashed += rows
    return err
  }

  async function processTensorBatch(items: TensorItem[], ctx: BatchContext): Promise<Array<RowOutput | Error>> {
    const model = shape as ModelShape
    const rows = items
    // A model with a fixed batch size > 1 gets its batch filled up with zero rows.
    const batchRows = model.fixedBatchSize !== null && model.fixedBatchSize > 1 ? model.fixedBatchSize : rows.length
    const result = await runOnWorker(ctx, rows.length, () => {
      const packed = packBatch(rows, model, batchRows)
      const dims: Record<string, number[]> = {}
      for (const [name, wire] of Object.entries(packed.batch.inputs)) dims[name] = wire.dims
      return { payload: packed.batch, transfer: packed.transfer, dims }
    })
    if (!result.ok) {
      const error = fromWire(result.error)
      probe.failed(items, error.code, error.message)
      throw error
    }
    if (result.kind !== 'run') throw new InferenceError('The worker answered a run task with a describe result')
    const outputs = unpackOutputs((result.value as { outputs?: never } | null)?.outputs, rows, model, batchRows)
    probe.succeeded(items)
    return outputs
  }

  async function processUserBatch(items: UserItem[], ctx: BatchContext): Promise<unknown[]> {
    const result = await runOnWorker(ctx, items.length, () => ({ payload: items.map((i) => i.input), transfer: [] }))
    if (!result.ok) throw fromWire(result.error)
    if (result.kind !== 'run') throw new InferenceError('The worker answered a run task with a describe result')
    const value = result.value
    if (!Array.isArray(value)) {
      throw new InferenceError(`The worker's run() must return an array with one result per item, got ${value === null ? 'null' : typeof value}`)
    }
    if (value.length !== items.length) throw new BatchSizeMismatchError(items.length, value.length)
    return value.map((slot: unknown) => (isSlotError(slot) ? fromWire(slot.$inferpoolSlotError) : slot))
  }

  const batcherOptions: DynamicBatcherOptions<TensorItem | UserItem> = {
    ...options.batching,
    maxBatchSize: metadata.maxBatchSize,
    maxConcurrentBatches: options.replicas * options.concurrency,
  }
  if (shape?.keyed) batcherOptions.batchKey = (item) => (item as TensorItem).key
  if (shape === null) {
    const costOf = cost ?? defaultCost
    batcherOptions.cost = (item) => costOf((item as UserItem).input)
  } else if (cost) {
    // `infer` passes each row's cost explicitly; `inferMany` stores it on the row.
    batcherOptions.cost = (item) => (item as TensorItem & { cost?: number }).cost ?? 1
  }

  try {
    batcher = new DynamicBatcher<TensorItem | UserItem, unknown>(
      (items, ctx) =>
        // Every item of a batch has already settled (aborted or timed out): skip the work.
        // (`ctx.aborted`, not `ctx.signal.aborted`: the signal costs an AbortController per batch.)
        ctx.aborted
          ? items.map(() => ctx.signal.reason as Error)
          : shape === null
            ? processUserBatch(items as UserItem[], ctx)
            : processTensorBatch(items as TensorItem[], ctx),
      batcherOptions,
    )
  } catch (err) {
    channel.close()
    await piscina.destroy()
    throw err
  }

  let piscinaDestroyed = false
  let closed: Promise<void> | undefined
  let onChannelChange: (() => void) | undefined

  for (const thread of piscina.threads) replicas.loaded(thread.threadId, true)
  const supervisor = new WorkerSupervisor(
    piscina,
    () => createPiscina(options, filename, workerOptions, started.channelName),
    {
      onGeneration(generation) {
        generation.piscina.on('workerCreate', onWorkerCreate)
      },
      onRebuild(event) {
        // Called from a thread's 'exit' listener: a logger that throws there would be
        // an uncaught exception in the host, ending every caller's process.
        try {
          options.logger.warn(
            `inferpool: worker threads of ${options.modelLabel} stopped being replaced (${event.reason}); started a new set of ${options.replicas}`,
          )
        } catch {
          // A logger never breaks the pool.
        }
        for (const observer of observers) {
          try {
            observer.onRebuild?.(event)
          } catch {
            // An observer never breaks the pool.
          }
        }
      },
      onThreadExit({ threadId, code, error, loaded, expected }) {
        const restart = !expected && !closing
        const replica = replicas.detach(threadId, restart)
        // close() may be waiting for this thread to settle or to dispose.
        onChannelChange?.()
        if (!restart || replica === undefined) return
        const reason = (error ? error.message : `worker thread exited with code ${code}`) + (loaded ? '' : ' (while loading)')
        for (const observer of observers) {
          try {
            observer.onWorkerRestart?.({ replica, reason })
          } catch {
            // An observer never breaks the pool.
          }
        }
      },
    },
    // Only the built-in ONNX worker loads natively (a user worker's load is plain JS).
    { replicas: options.replicas, startupTimeoutMs: options.startupTimeoutMs, deferWhileLoading: options.worker === null },
    piscina.threads.map((t) => t.threadId),
  )

  /** Records what a thread's report or task result says about its load. */
  function noteLoad(threadId: number, failure: string | undefined): void {
    replicas.loaded(threadId, failure ?? true)
    supervisor.noteLoaded(threadId, failure === undefined)
  }

  // Threads whose start-up load has settled. A replacement thread (after a crash)
  // reports here too; close() waits for it, because terminating a thread inside
  // ORT's native session creation aborts the whole process.
  const settledThreads = new Set<number>(piscina.threads.map((t) => t.threadId))
  const disposedThreads = new Set<number>()
  channel.onmessage = (event: unknown) => {
    const report = (event as { data: LoadReport }).data
    if (report?.type === 'loaded') {
      settledThreads.add(report.threadId)
      noteLoad(report.threadId, report.ok ? undefined : report.error.message)
    } else if (report?.type === 'disposed') disposedThreads.add(report.threadId)
    onChannelChange?.()
  }

  /**
   * Resolves when `done()` holds (checked on each channel message and thread exit), or
   * after `ms`. With `ms` Infinity the channel is ref'd meanwhile: the process must not
   * exit (terminating the threads) while close() waits for a native load.
   */
  function waitFor(done: () => boolean, ms: number): Promise<void> {
    if (done()) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer)
        if (timer === undefined) channel.unref()
        onChannelChange = undefined
        resolve()
      }
      const timer = Number.isFinite(ms) ? setTimeout(finish, ms) : undefined
      if (timer === undefined) channel.ref()
      onChannelChange = () => {
        if (done()) finish()
      }
    })
  }

  async function disposeWorkers(): Promise<void> {
    // Every generation's threads: a retiring one's loading threads report on this
    // channel too, and it is closed right after. An ONNX thread is never terminated
    // inside its load (that aborts the process), so the wait for loads is unbounded
    // there: a native load returns, a slow one delays close() by as much.
    const loading = () => supervisor.allThreads.map((t) => t.threadId)
    await waitFor(() => loading().every((id) => settledThreads.has(id)), options.worker === null ? Infinity : options.startupTimeoutMs)
    const threads = () => supervisor.threads.map((t) => t.threadId)
    const live = threads()
    if (live.length === 0) return
    // A thread that exits instead (a dispose that calls process.exit) is done too.
    const done = waitFor(() => {
      const running = new Set(threads())
      return live.every((id) => disposedThreads.has(id) || !running.has(id))
    }, DISPOSE_TIMEOUT_MS)
    channel.postMessage({ type: 'dispose' })
    await done
  }

  const pool: Pool<unknown, unknown> = {
    infer(input: unknown, inferOptions: InferOptions = NO_OPTIONS): Promise<unknown> {
      let item: TensorItem | UserItem
      try {
        item = shape === null ? { input } : validateRow(input as RowInput, shape)
      } catch (err) {
        return Promise.reject(err)
      }
      const timeoutMs = inferOptions.timeoutMs ?? options.timeoutMs
      const itemCost = inferOptions.cost ?? (shape !== null && cost ? cost(input) : undefined)
      // Once per request: no options object for the batcher unless there is something in it.
      if (inferOptions.signal === undefined && timeoutMs === undefined && inferOptions.priority === undefined && itemCost === undefined) {
        return batcher.submit(item)
      }
      const submit: SubmitOptions = {}
      if (inferOptions.signal !== undefined) submit.signal = inferOptions.signal
      if (timeoutMs !== undefined) submit.timeoutMs = timeoutMs
      if (inferOptions.priority !== undefined) submit.priority = inferOptions.priority
      if (itemCost !== undefined) submit.cost = itemCost
      return batcher.submit(item, submit)
    },
    inferMany(inputs: readonly unknown[], inferOptions: InferOptions = NO_OPTIONS): Promise<unknown[]> {
      if (!Array.isArray(inputs)) {
        return Promise.reject(new TypeError(`Expected \`inputs\` to be an array, got ${inputs === null ? 'null' : typeof inputs}`))
      }
      const items = new Array<TensorItem | UserItem>(inputs.length)
      try {
        // Every row is checked before any is queued: a bad row refuses the whole request.
        for (let i = 0; i < inputs.length; i++) {
          items[i] = shape === null ? { input: inputs[i] } : validateRow(inputs[i] as RowInput, shape)
          if (shape !== null && cost !== undefined && inferOptions.cost === undefined) {
            ;(items[i] as TensorItem & { cost?: number }).cost = cost(inputs[i])
          }
        }
      } catch (err) {
        return Promise.reject(err)
      }
      const timeoutMs = inferOptions.timeoutMs ?? options.timeoutMs
      const submit: SubmitOptions = {}
      if (inferOptions.signal !== undefined) submit.signal = inferOptions.signal
      if (timeoutMs !== undefined) submit.timeoutMs = timeoutMs
      if (inferOptions.priority !== undefined) submit.priority = inferOptions.priority
      if (inferOptions.cost !== undefined) submit.cost = inferOptions.cost
      return batcher.submitMany(items, submit)
    },
    get admission() {
      return batcher.admission
    },
    get metadata() {
      return metadata
    },
    get stats(): PoolStats {
      return {
        ...batcher.stats,
        replicas: replicas.snapshot(),
        restarts: replicas.restarts,
        crashed: replicas.crashed,
        rebuilds: supervisor.rebuilds,
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
    close(closeOptions?: { drain?: boolean }): Promise<void> {
      closed ??= (async () => {
        // Drain (or reject) the queue and let running batches settle first; only then
        // release the sessions and end the threads, so nothing in flight is lost.
        await batcher.close(closeOptions)
        closing = true
        const { piscina: current, retired } = supervisor.stop()
        await disposeWorkers()
        channel.close()
        piscinaDestroyed = true
        await Promise.all([current.destroy(), retired])
      })()
      return closed
    },
    [Symbol.asyncDispose](): Promise<void> {
      return pool.close()
    },
  }
  return pool
}
