/**
 * Starting the worker threads: piscina with the settings a model server needs, and
 * the wait until every replica has loaded its session.
 */
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { BroadcastChannel } from 'node:worker_threads'
import type { Worker } from 'node:worker_threads'
import { Piscina } from 'piscina'
import type { LoadReport, WorkerBootData, WorkerDescription } from '@inferpool/worker'
import { InferpoolError } from '@inferpool/core'
import { fromWire } from '../error-registry.js'
import { StartupTimeoutError, WorkerCrashedError } from '../errors.js'
import type { ResolvedPoolOptions } from './options.js'

export interface StartedWorkers {
  piscina: Piscina
  channel: BroadcastChannel
  /** The channel's name (a later generation of threads reports on it too). */
  channelName: string
  description: WorkerDescription | null
}

/** The piscina worker interface as `workerCreate` passes it. */
export interface PiscinaWorkerInterface {
  readonly id: number
  readonly currentUsage: number
}

/** Where the built-in ONNX tensor worker's built `.js` lives. */
export function onnxWorkerPath(): string {
  return fileURLToPath(import.meta.resolve('@inferpool/worker/onnx-worker'))
}

/** The Node `Worker` behind a piscina worker interface (for exit codes and errors). */
export function threadOf(piscina: Piscina, threadId: number): Worker | undefined {
  return piscina.threads.find((t) => t.threadId === threadId)
}

/**
 * Creates the piscina pool:
 * - `minThreads = maxThreads = replicas` and `idleTimeout: Infinity`: piscina's
 *   defaults (half the cores, idle workers torn down) would drop cached sessions.
 * - `concurrentTasksPerWorker = concurrency`.
 * - `atomics: 'async'`: between tasks a worker keeps its event loop running (with
 *   'sync' it blocks in `Atomics.wait()`), so it hears the pool's dispose message and
 *   a user worker's timers keep working.
 * The pool's channel name, the worker's options and the bound of a retried load
 * (`startupTimeoutMs`) travel in `workerData`.
 */
export function createPiscina(options: ResolvedPoolOptions, filename: string, workerOptions: unknown, channelName: string): Piscina {
  const workerData: WorkerBootData = { channel: channelName, options: workerOptions, loadTimeoutMs: options.startupTimeoutMs }
  return new Piscina({
    filename,
    minThreads: options.replicas,
    maxThreads: options.replicas,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: options.concurrency,
    atomics: 'async',
    workerData,
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
  })
}

/**
 * Starts the workers and waits until `replicas` distinct threads have reported a
 * successful load on the pool's channel. Rejects with the first load failure (rebuilt
 * into its class: `ModelLoadError`, `ProviderUnavailableError`), with
 * `WorkerCrashedError` if a thread exits while loading, or with `StartupTimeoutError`.
 *
 * The threads are destroyed on every failure, but not always before the promise
 * settles: terminating a thread while it is inside onnxruntime's native session
 * creation aborts the whole process ("terminate called after throwing an instance of
 * 'Napi::Error'"). So when `StartupTimeoutError` fires while a thread of the built-in
 * ONNX worker is still loading, the promise rejects on time and the threads are
 * destroyed in the background as soon as every one of them has reported its load (or
 * exited) — a slow native load delays that, never the rejection. Meanwhile the
 * channel is ref'd, so the process cannot exit (which would terminate the threads
 * mid-load just the same). A user worker's load is plain JS and is terminated at once.
 */
export async function startWorkers(
  options: ResolvedPoolOptions,
  filename: string,
  workerOptions: unknown,
  onWorkerCreate: (piscina: Piscina, worker: PiscinaWorkerInterface) => void,
): Promise<StartedWorkers> {
  const channelName = `inferpool:${process.pid}:${randomUUID()}`
  const channel = new BroadcastChannel(channelName)
  // The channel must not keep the process alive on its own (piscina's threads are unref'd too).
  channel.unref()
  /** Only the built-in ONNX worker loads natively; see above. */
  const deferWhileLoading = options.worker === null
  const loaded = new Map<number, WorkerDescription | null>()
  /** Threads whose start-up has settled (loaded, failed to load, or exited). */
  const settled = new Set<number>()
  /** Threads whose exit is watched (replacements piscina starts are found by scanning). */
  const watched = new WeakSet<Worker>()
  let failure: Error | undefined
  let piscina: Piscina | undefined
  let timer: NodeJS.Timeout | undefined
  /** Re-checked whenever a thread settles: first the start-up promise, then a deferred destroy. */
  let onSettled = (): void => undefined

  const watch = (pool: Piscina, thread: Worker): void => {
    if (watched.has(thread)) return
    watched.add(thread)
    // Read now: a Worker's threadId turns to -1 once it has exited.
    const threadId = thread.threadId
    let lastError: Error | undefined
    thread.on('error', (err) => (lastError = err))
    thread.once('exit', (code) => {
      // piscina's own exit listener ran first: a replacement it started is in `threads`.
      for (const t of pool.threads) watch(pool, t)
      if (settled.has(threadId)) return onSettled()
      failure ??= new WorkerCrashedError(
        `A worker thread exited while loading ${options.modelLabel} (${lastError ? lastError.message : `exit code ${code}`})`,
        { details: { model: options.modelLabel, exitCode: code, message: lastError?.message } },
      )
      settled.add(threadId)
      onSettled()
    })
  }

  try {
    const description = await new Promise<WorkerDescription | null>((resolve, reject) => {
      // On a failure, wait until every thread has settled before destroying them
      // (terminating one inside ORT's session creation aborts the process). Loads
      // settle quickly either way; the timeout still bounds the wait.
      onSettled = (): void => {
        if (settled.size < options.replicas) return
        if (failure) reject(failure)
        else resolve(loaded.values().next().value ?? null)
      }
      channel.onmessage = (event: unknown) => {
        const report = (event as { data: LoadReport }).data
        if (report?.type !== 'loaded') return
        if (report.ok) loaded.set(report.threadId, report.description)
        else failure ??= fromWire(report.error)
        settled.add(report.threadId)
        onSettled()
      }
      timer = setTimeout(() => reject(failure ?? new StartupTimeoutError(options.startupTimeoutMs, loaded.size, options.replicas)), options.startupTimeoutMs)
      piscina = createPiscina(options, filename, workerOptions, channelName)
      const pool = piscina
      pool.on('error', (err: unknown) => {
        failure ??= err instanceof Error ? err : new Error(String(err))
      })
      for (const thread of pool.threads) watch(pool, thread)
      pool.on('workerCreate', (worker: PiscinaWorkerInterface) => {
        onWorkerCreate(pool, worker)
        const thread = threadOf(pool, worker.id)
        if (thread) watch(pool, thread)
      })
    })
    clearTimeout(timer)
    channel.onmessage = () => undefined
    return { piscina: piscina as Piscina, channel, channelName, description }
  } catch (err) {
    clearTimeout(timer)
    const error =
      err instanceof InferpoolError
        ? err
        : new WorkerCrashedError(`A worker thread failed while loading ${options.modelLabel}: ${(err as Error).message}`, { cause: err })
    const pool = piscina
    const allSettled = (): boolean => pool === undefined || pool.threads.every((t) => settled.has(t.threadId))
    if (pool && deferWhileLoading && !allSettled()) {
      // Reject now, destroy once no thread is inside a native load (see above). The
      // channel keeps hearing load reports and holds the process open until then.
      channel.ref()
      void new Promise<void>((resolve) => {
        onSettled = () => {
          if (allSettled()) resolve()
        }
        onSettled()
      })
        .then(() => pool.destroy())
        .catch(() => undefined)
        .finally(() => {
          channel.onmessage = () => undefined
          channel.close()
        })
      throw error
    }
    channel.onmessage = () => undefined
    channel.close()
    if (pool) await pool.destroy().catch(() => undefined)
    throw error
  }
}
