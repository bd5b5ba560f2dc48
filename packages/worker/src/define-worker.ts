import * as threads from 'node:worker_threads'
import { BroadcastChannel, threadId, workerData } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
import { Piscina } from 'piscina'
import { InferpoolError } from '@inferpool/core'
import { serializeError } from './errors.js'
import { lateRows, sharedClockMs } from './shared-clock.js'
import type {
  ControlMessage,
  LoadReport,
  SerializedError,
  ItemError,
  RunSuccess,
  TaskResult,
  WorkerBootData,
  WorkerDescription,
  WorkerTask,
} from './protocol.js'

/** What `load` receives besides the options. */
export interface LoadContext {
  /** `worker_threads.threadId` of this worker. */
  readonly threadId: number
}

/** What `run` receives besides the state and the batch. */
export interface RunContext {
  readonly threadId: number
  /** Id of the batch on the host (a re-run after a crash or a split gets a new one). */
  readonly batchId: number
  /**
   * Moves these buffers back to the host instead of copying them. Only buffers that
   * are part of the returned value and owned by it may be listed; they are detached
   * here once the result is posted. (piscina only transfers what is listed on the
   * top-level result, so `defineWorker` collects them and wraps the whole result.)
   */
  transfer(...buffers: ArrayBuffer[]): void
  /**
   * Hands buffers this run has finished with (its batch's inputs) back to the host, to
   * be freed there. A buffer moved into a worker thread belongs to the thread's isolate
   * and is freed only by that isolate's garbage collection, which an idle thread does
   * not run: a burst's inputs would otherwise stay allocated for as long as the thread
   * idles (docs/runtime-facts.md, "Memory after a burst"). Moved along with the result,
   * success or failure, they cost the host one unreferenced ArrayBuffer each, freed by
   * its next young-generation collection. Ignored in a process-mode replica, whose
   * buffers are its own process's memory and would be copied back. Only an `ArrayBuffer`
   * this thread received or allocated itself qualifies: shared and untransferable ones
   * are skipped, and so are buffers detached or empty by the time the result is posted.
   */
  release(...buffers: ArrayBuffer[]): void
}

/**
 * A worker thread's behaviour. `load` runs once per thread, before the thread takes
 * tasks; its result (the state, e.g. an ONNX Runtime session) is cached for the
 * thread's life and handed to every `run`.
 */
export interface WorkerDefinition<Options = unknown, State = unknown, Batch = unknown, Output = unknown> {
  /** Loads the state. A failure is reported to the host as `ERR_MODEL_LOAD` (never thrown at module load) and retried by the next task. */
  load(options: Options, context: LoadContext): State | Promise<State>
  /**
   * Runs one batch. For a user worker `batch` is the array of items and the result
   * must be an array of the same length; an `Error` in its place fails that item only.
   * Throwing fails the whole batch (the host then splits it to isolate the bad rows).
   */
  run(state: State, batch: Batch, context: RunContext): Output | Promise<Output>
  /**
   * The batch with only the rows `keep` (indices into the `rows` rows of the callers,
   * ascending, fewer than all of them), for leaving out rows too late for their deadline
   * (`formation: 'deadline'`); `undefined` when this batch cannot be taken apart (it then
   * runs whole, or not at all when every row is late). Buffers of `batch` it no longer
   * needs it hands to `context.release`. Without it, a batch that is an array of one
   * item per row (a user worker's) is taken apart by index.
   */
  select?(batch: Batch, keep: readonly number[], rows: number, context: RunContext): Batch | undefined
  /** Describes what the worker serves (model inputs and outputs) for `pool.metadata`. */
  describe?(state: State): WorkerDescription | null | Promise<WorkerDescription | null>
  /** Releases the state when the pool closes. */
  dispose?(state: State): void | Promise<void>
}

/** `worker_threads.isMarkedAsUntransferable` where Node has it (20.19 has not; 21 and later have). */
const untransferable: (buffer: ArrayBuffer) => boolean =
  (threads as { isMarkedAsUntransferable?: (value: object) => boolean }).isMarkedAsUntransferable ?? (() => false)

/** The function piscina calls for each task. */
export type WorkerHandler = (task: WorkerTask) => Promise<TaskResult>

type LoadOutcome<State> = { ok: true; state: State; description: WorkerDescription | null } | { ok: false; error: SerializedError }

/** A worker definition bound to its options: the handler plus its start-up. */
export interface WorkerRuntime {
  /** The piscina handler: {@link WorkerRuntime.run} with the transfers wrapped in `Piscina.move()`. */
  handler: WorkerHandler
  /**
   * Runs one task. Never rejects. `transfer`: buffers of the result to move rather than
   * copy; `release`: buffers the run has finished with, not part of the result (see
   * {@link RunContext.release}).
   */
  run(task: WorkerTask): Promise<{ result: TaskResult; transfer: ArrayBuffer[]; release: ArrayBuffer[] }>
  /** Loads (and reports on the pool's channel). Never rejects. */
  start(): Promise<LoadReport & { type: 'loaded' }>
  /** Disposes the state, if loaded. Never rejects. */
  dispose(): Promise<void>
}

/**
 * Set on `globalThis` by the process-mode child entry (process-child.ts) before it
 * imports the worker module, so that the module's unchanged `defineWorker(...)` hands
 * its runtime to the child instead of reading piscina's `workerData`. A registered
 * symbol, so it is found even when the worker module resolves another copy of this
 * package.
 */
export const PROCESS_HOST: unique symbol = Symbol.for('inferpool.worker.processHost') as never

/** What the process-mode child puts under {@link PROCESS_HOST}. */
export interface ProcessHost {
  readonly boot: WorkerBootData
  adopt(runtime: WorkerRuntime): void
}

/** `attempt`, or an `ERR_MODEL_LOAD` failure if it has not settled within `ms`. */
function withTimeout<State>(attempt: Promise<LoadOutcome<State>>, ms: number): Promise<LoadOutcome<State>> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<LoadOutcome<State>>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          error: {
            code: 'ERR_MODEL_LOAD',
            name: 'Error',
            message: `Worker failed to load: a retried load did not finish within ${ms} ms`,
            details: { timeoutMs: ms },
          },
        }),
      ms,
    )
    timer.unref()
  })
  return Promise.race([attempt, timeout]).finally(() => clearTimeout(timer))
}

function loadFailureMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/**
 * Binds a definition to its boot data without touching piscina or the thread: the
 * testable core of {@link defineWorker}.
 */
export function createWorkerRuntime<Options, State, Batch, Output>(
  definition: WorkerDefinition<Options, State, Batch, Output>,
  boot: WorkerBootData | null,
  /** The clock a task's `deadlines` are on (tests inject one). @default sharedClockMs */
  clock: () => number = sharedClockMs,
): WorkerRuntime {
  const options = (boot?.options ?? undefined) as Options
  let loaded: (LoadOutcome<State> & { ok: true }) | undefined
  let loading: Promise<LoadOutcome<State>> | undefined
  let attempts = 0
  const retryTimeoutMs = boot?.loadTimeoutMs

  // A failed load is not cached: each later task tries again (the file may have been
  // fixed, a device freed). A successful one is cached for the thread's life.
  function ensureLoaded(): Promise<LoadOutcome<State>> {
    if (loaded) return Promise.resolve(loaded)
    if (loading) return loading
    const attempt = (async (): Promise<LoadOutcome<State>> => {
      try {
        const state = await definition.load(options, { threadId })
        const description = definition.describe ? await definition.describe(state) : null
        loaded = { ok: true, state, description }
        return loaded
      } catch (err) {
        const error = serializeError(err, 'ERR_MODEL_LOAD')
        // An InferpoolError (e.g. from createSession) already names the model path.
        if (!(err instanceof InferpoolError)) error.message = `Worker failed to load: ${loadFailureMessage(err)}`
        return { ok: false, error }
      }
    })()
    // A retry runs inside a task: bound it, or a retry that hangs holds that task (and
    // every later one on this thread) forever. The stuck attempt may still finish later;
    // if it succeeds, its state is used from then on.
    const bounded = attempts++ > 0 && retryTimeoutMs !== undefined ? withTimeout(attempt, retryTimeoutMs) : attempt
    // Cleared once settled — not in a `finally` inside the attempt: a load that throws
    // synchronously would settle before `loading` is even assigned, and stay cached.
    loading = bounded
    void bounded.then(() => {
      if (loading === bounded) loading = undefined
    })
    return loading
  }

  const NONE: ArrayBuffer[] = []
  const run: WorkerRuntime['run'] = async (task) => {
    const started = performance.now()
    const facts = () => ({ threadId, busyMs: performance.now() - started })
    const outcome = await ensureLoaded()
    if (!outcome.ok) return { result: { ok: false, error: outcome.error, ...facts() }, transfer: NONE, release: NONE }
    if (task.kind === 'describe')
      return { result: { ok: true, kind: 'describe', description: outcome.description, ...facts() }, transfer: NONE, release: NONE }

    const transfers: ArrayBuffer[] = []
    const releases: ArrayBuffer[] = []
    const context: RunContext = {
      threadId,
      batchId: task.batchId,
      transfer: (...buffers) => void transfers.push(...buffers),
      release: (...buffers) => {
        // A SharedArrayBuffer cannot be transferred (nor needs to be), nor can a buffer
        // Node marked untransferable (its Buffer pool): from Node 21 either in a transfer
        // list fails the post, and a failed post ends the thread.
        for (const buffer of buffers) if (buffer instanceof ArrayBuffer && !untransferable(buffer)) releases.push(buffer)
      },
    }
    // The last look at the deadlines, right before the run: the batch may have waited
    // since the host formed it (a busy host thread, a descheduled replica, a re-send).
    let batch = task.payload as Batch
    let dropped: number[] | undefined
    if (task.deadlines !== undefined) {
      const late = lateRows(task.deadlines, clock() + (task.runMs ?? 0))
      if (late !== undefined && late.length === task.deadlines.length) {
        // Nothing is run; the batch's buffers are done with all the same.
        definition.select?.(batch, [], task.deadlines.length, context)
        return { result: { ok: true, kind: 'run', value: undefined, dropped: late, ...facts() }, transfer: NONE, release: releases }
      }
      if (late !== undefined) {
        const keep = keptRows(task.deadlines.length, late)
        const fewer = definition.select
          ? definition.select(batch, keep, task.deadlines.length, context)
          : selectItems(batch, keep, task.deadlines.length)
        if (fewer !== undefined) {
          batch = fewer
          dropped = late
        }
      }
    }
    let value: unknown
    try {
      value = await definition.run(outcome.state, batch, context)
    } catch (err) {
      return {
        result: { ok: false, error: serializeError(err, 'ERR_INFERENCE', { batchId: task.batchId }), ...facts() },
        transfer: NONE,
        release: releases,
      }
    }
    if (Array.isArray(value)) {
      // Errors do not survive structured cloning with their code: send them as data.
      value = value.map((item: unknown): unknown =>
        item instanceof Error ? ({ $inferpoolItemError: serializeError(item, 'ERR_INFERENCE') } satisfies ItemError) : item,
      )
    }
    const result: RunSuccess = { ok: true, kind: 'run', value, ...facts() }
    if (dropped !== undefined) result.dropped = dropped
    return { result, transfer: transfers, release: releases }
  }

  const handler: WorkerHandler = async (task) => {
    const { result, transfer, release } = await run(task)
    if (transfer.length === 0 && release.length === 0) return result
    // A transfer list may name a buffer once only; released buffers ride along unreferenced
    // (the host's side gets ArrayBuffers nothing points to).
    // A buffer detached since, or empty, frees nothing: left out.
    const list = release.length === 0 ? transfer : [...new Set([...transfer, ...release.filter((b) => b.byteLength > 0)])]
    if (list.length === 0) return result
    // Only a move() of the top-level return value transfers (piscina ignores nested ones).
    return Piscina.move({
      [Piscina.transferableSymbol]: list,
      [Piscina.valueSymbol]: result,
    } as never) as unknown as TaskResult
  }

  return {
    handler,
    run,
    async start() {
      const outcome = await ensureLoaded()
      return outcome.ok
        ? { type: 'loaded', threadId, ok: true, description: outcome.description }
        : { type: 'loaded', threadId, ok: false, error: outcome.error }
    },
    async dispose() {
      const state = loaded?.state
      loaded = undefined
      if (state !== undefined && definition.dispose) {
        try {
          await definition.dispose(state)
        } catch {
          // The thread is about to be terminated; a failing dispose must not keep it.
        }
      }
    },
  }
}

/** The rows of `0..rows-1` not in `late` (both ascending). */
function keptRows(rows: number, late: readonly number[]): number[] {
  const keep: number[] = []
  for (let i = 0, j = 0; i < rows; i++) {
    if (late[j] === i) j++
    else keep.push(i)
  }
  return keep
}

/** A batch that is an array of one item per row, with only the rows `keep`; `undefined` for any other batch. */
function selectItems<Batch>(batch: Batch, keep: readonly number[], rows: number): Batch | undefined {
  if (!Array.isArray(batch) || batch.length !== rows) return undefined
  return keep.map((i) => batch[i] as unknown) as Batch
}

/**
 * Defines an inferpool worker. Use the result as the default export of the worker
 * module (a built `.js` file: piscina cannot load `.ts`):
 *
 * ```ts
 * export default defineWorker({ load: (opts) => createSession(opts.model), run: (s, items) => ... })
 * ```
 *
 * It is an async factory: piscina awaits the exported promise before the worker takes
 * its first task, so the load finishes before any task runs (with piscina's default
 * `atomics: 'sync'` a load started without awaiting would freeze between tasks). The
 * promise never rejects: a module that throws while loading makes piscina stop
 * replacing workers and later tasks hang, so a failed load is reported on the pool's
 * channel and in each task's result instead.
 */
export function defineWorker<Options, State, Batch, Output>(
  definition: WorkerDefinition<Options, State, Batch, Output>,
): Promise<WorkerHandler> {
  // In a process-mode replica the child entry drives the runtime itself (its boot data
  // came over IPC, its reports go back there): see process-child.ts.
  const processHost = (globalThis as Record<symbol, unknown>)[PROCESS_HOST] as ProcessHost | undefined
  if (processHost) {
    const runtime = createWorkerRuntime(definition, processHost.boot)
    processHost.adopt(runtime)
    return Promise.resolve(runtime.handler)
  }
  const boot = (workerData ?? null) as WorkerBootData | null
  const runtime = createWorkerRuntime(definition, boot)
  // Tell the host once the worker's module is fully loaded: it ends no thread before
  // (ending one inside its import aborts the process; docs/runtime-facts.md). This call
  // runs while the module is evaluated, its imports (onnxruntime-node's addon among
  // them) done, but the loader still has work after the evaluation (piscina `require`s
  // an ES module, and Node then builds its facade): the next turn of the loop is past it.
  const channel = boot?.channel ? new BroadcastChannel(boot.channel) : undefined
  if (channel !== undefined) setImmediate(() => channel.postMessage({ type: 'booted', threadId } satisfies LoadReport))
  return (async () => {
    const report = await runtime.start()
    if (channel !== undefined) {
      channel.onmessage = (event: unknown) => {
        const message = (event as { data?: ControlMessage }).data
        if (message?.type === 'dispose') {
          void runtime.dispose().then(() => channel.postMessage({ type: 'disposed', threadId } satisfies LoadReport))
        }
      }
      channel.postMessage(report satisfies LoadReport)
    }
    return runtime.handler
  })()
}
