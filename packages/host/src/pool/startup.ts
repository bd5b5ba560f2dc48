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
import { deserializeError, StartupTimeoutError, WorkerCrashedError } from '../errors.js'
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
 * `WorkerCrashedError` if a thread exits while loading, or with `StartupTimeoutError`;
 * in every failure case the threads are destroyed before the promise settles.
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
  const loaded = new Map<number, WorkerDescription | null>()
  /** Threads whose start-up has settled (loaded, failed to load, or exited). */
  const settled = new Set<number>()
  let failure: Error | undefined
  let piscina: Piscina | undefined
  let timer: NodeJS.Timeout | undefined

  try {
    const description = await new Promise<WorkerDescription | null>((resolve, reject) => {
      // On a failure, wait until every thread has settled before destroying them:
      // terminating a thread while it is inside ORT's native session creation aborts
      // the whole process ("terminate called after throwing an instance of
      // 'Napi::Error'"). Loads settle quickly either way; the timeout still bounds it.
      const check = (): void => {
        if (settled.size < options.replicas) return
        if (failure) reject(failure)
        else resolve(loaded.values().next().value ?? null)
      }
      channel.onmessage = (event: unknown) => {
        const report = (event as { data: LoadReport }).data
        if (report?.type !== 'loaded') return
        if (report.ok) loaded.set(report.threadId, report.description)
        else failure ??= deserializeError(report.error)
        settled.add(report.threadId)
        check()
      }
      timer = setTimeout(() => reject(failure ?? new StartupTimeoutError(options.startupTimeoutMs, loaded.size, options.replicas)), options.startupTimeoutMs)
      piscina = createPiscina(options, filename, workerOptions, channelName)
      const pool = piscina
      pool.on('error', (err: unknown) => {
        failure ??= err instanceof Error ? err : new Error(String(err))
      })
      pool.on('workerCreate', (worker: PiscinaWorkerInterface) => {
        onWorkerCreate(pool, worker)
        const threadId = worker.id
        const thread = threadOf(pool, threadId)
        let lastError: Error | undefined
        thread?.on('error', (err) => (lastError = err))
        thread?.once('exit', (code) => {
          if (settled.has(threadId)) return
          failure ??= new WorkerCrashedError(
            `A worker thread exited while loading ${options.modelLabel} (${lastError ? lastError.message : `exit code ${code}`})`,
            { details: { model: options.modelLabel, exitCode: code, message: lastError?.message } },
          )
          settled.add(threadId)
          check()
        })
      })
    })
    clearTimeout(timer)
    channel.onmessage = () => undefined
    return { piscina: piscina as Piscina, channel, channelName, description }
  } catch (err) {
    clearTimeout(timer)
    channel.onmessage = () => undefined
    channel.close()
    if (piscina) await piscina.destroy().catch(() => undefined)
    if (err instanceof InferpoolError) throw err
    throw new WorkerCrashedError(`A worker thread failed while loading ${options.modelLabel}: ${(err as Error).message}`, { cause: err })
  }
}
