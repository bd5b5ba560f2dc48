/**
 * piscina with the settings a model server needs, and the load balancer through which
 * the thread ledger sees which thread runs which task.
 */
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import type { WorkerBootData } from '@inferpool/worker'
import { leastBusy } from '../balance.js'
import type { ResolvedPoolOptions } from '../options.js'
import type { ThreadLoad } from './ledger.js'

/** The piscina worker interface as `workerCreate` and the load balancer get it. */
export interface PiscinaWorkerInterface {
  /** The thread's `threadId`. */
  readonly id: number
  readonly currentUsage: number
}

/**
 * Rides on a task (under `Piscina.queueOptionsSymbol`, a symbol key, so structured
 * clone leaves it behind) to the load balancer, which fills in the thread it chose.
 */
export interface Ticket {
  threadId: number | undefined
  /** Run it on this thread if it is still there (a retried load: threads/transport.ts). */
  target?: number
}

/** Where the built-in ONNX tensor worker's built `.js` lives. */
export function onnxWorkerPath(): string {
  return fileURLToPath(import.meta.resolve('@inferpool/worker/onnx-worker'))
}

/**
 * Chooses a thread for a task by the pools' one replica rule (../balance.ts `leastBusy`:
 * an idle thread first, else the least used one below `concurrency`), skipping threads that `accepts` refuses
 * (overdue ones: out of service), and telling `started` which thread got which task.
 * Threads are chosen in tiers of `loadState`: a loaded thread whenever one exists, busy
 * or not (the batch waits for its room); a thread still loading only while none has
 * loaded; a thread whose load failed only while none has loaded or is loading (the
 * batch then retries its load, and fails with the load's error if that fails again).
 * piscina hands its balancer every thread, ready or not (`_onWorkerAvailable`), so
 * without the tiers a replacement still loading would take a batch that then waits for
 * its whole load (and fails with it) while a loaded thread had room.
 */
export function balancer(
  concurrency: number,
  accepts: (threadId: number) => boolean,
  started: (threadId: number, ticket: Ticket | undefined) => void,
  loadState: (threadId: number) => ThreadLoad = () => 'loaded',
): (task: object, workers: PiscinaWorkerInterface[]) => PiscinaWorkerInterface | null {
  const usage = (worker: PiscinaWorkerInterface): number => worker.currentUsage
  // Made once, not per task: one predicate per tier.
  const inTier =
    (state: ThreadLoad) =>
    (worker: PiscinaWorkerInterface): boolean =>
      accepts(worker.id) && loadState(worker.id) === state
  const tiers = [inTier('loaded'), inTier('loading'), inTier('failed')]
  return (task, workers) => {
    const ticket = (task as { [Piscina.queueOptionsSymbol]?: Ticket })[Piscina.queueOptionsSymbol]
    if (ticket?.target !== undefined) {
      const target = workers.find((w) => w.id === ticket.target)
      // Gone since, or out of service (overdue): any thread may answer it (a describe task
      // harms none), so it never waits for good. Returning null for it would also end
      // piscina's distribution round (`_onWorkerAvailable` stops at the first task its
      // balancer places nowhere): the batches queued behind it would wait for the next
      // worker event although other threads had room.
      if (target !== undefined && accepts(target.id)) {
        if (target.currentUsage >= concurrency) return null
        started(target.id, ticket)
        return target
      }
    }
    // The first tier with an eligible thread decides: wait for it rather than fall back.
    let candidate: PiscinaWorkerInterface | null | undefined
    for (const tier of tiers) {
      candidate = leastBusy(workers, concurrency, usage, tier)
      if (candidate !== undefined) break
    }
    if (candidate === undefined || candidate === null) return null
    started(candidate.id, ticket)
    return candidate
  }
}

/**
 * Creates the piscina pool (docs/runtime-facts.md#piscina-5):
 * - `minThreads = maxThreads = replicas` and `idleTimeout: Infinity`: piscina's
 *   defaults (half the cores, idle workers torn down) would drop cached sessions.
 * - `concurrentTasksPerWorker = concurrency`; our balancer in place of piscina's.
 * - `atomics: 'async'`: between tasks a worker keeps its event loop running (with
 *   'sync' it blocks in `Atomics.wait()`), so it hears the pool's dispose message and
 *   a user worker's timers keep working. What 'sync' would save is small: a round trip
 *   to a sleeping worker that does nothing took p50 17.4 µs with 'sync', 19.8 µs with
 *   'async', 18.5 µs with 'disabled' (bench/scripts/handoff.mjs, a shared 2-core
 *   machine: indicative), against the pool's +0.17 ms over a direct run at 1 caller.
 * - `recordTiming: false`: piscina's own wait/run histograms cost a clock read and a
 *   record per task on the host thread; nothing reads them (the batcher keeps the
 *   pool's timings).
 * The pool's channel name, the worker's options and the bound of a retried load
 * (`startupTimeoutMs`) travel in `workerData`.
 */
export function createPiscina(
  options: ResolvedPoolOptions,
  filename: string,
  workerOptions: unknown,
  channelName: string,
  loadBalancer: ReturnType<typeof balancer>,
): Piscina {
  const workerData: WorkerBootData = { channel: channelName, options: workerOptions, loadTimeoutMs: options.startupTimeoutMs }
  return new Piscina({
    filename,
    minThreads: options.replicas,
    maxThreads: options.replicas,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: options.concurrency,
    atomics: 'async',
    recordTiming: false,
    workerData,
    loadBalancer: loadBalancer as never,
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
  })
}
