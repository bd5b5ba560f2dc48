import type { LatencyEstimate } from './latency-model.js'
import type { Plain } from './queue.js'
import { BusyTime, RateMeter, SampleWindow } from './meters.js'
import type { Run } from './run.js'
import type { BatcherObserver, BatcherStats, BatchDispatchEvent, BatchSettleEvent } from './types.js'

/** What the batcher knows now, beside what `Statistics` counts (see `snapshot`). */
export interface Gauges {
  /** The last submission order (`seq`) handed out: how many items got one. */
  lastSeq: number
  queued: number
  inFlight: number
  inFlightItems: number
  waitingForRoom: number
  maxBatchSize: number
  maxWaitMs: number
  /** Batch slots (`maxConcurrentBatches`), for utilization. */
  slots: number
  /** The latency model's estimates (see `BatcherStats.latencyEstimates`). */
  latencyEstimates: LatencyEstimate[]
}

/**
 * The batcher's statistics: counters, recent sample windows, busy time, drain rate,
 * and the observers of batch events. The batcher tells it what happened (`dispatched`,
 * `settled`, and the counters it bumps directly); it never decides anything.
 */
export class Statistics {
  /**
   * Items submitted that got no submission order (`seq`): refused at the door by a
   * signal aborted already. Every other submitted item has its `seq`, so `submitted` is
   * the last `seq` handed out plus these (see `snapshot`), and a submit counts nothing.
   */
  abortedAtDoor = 0
  completed = 0
  failed = 0
  cancelled = 0
  timedOut = 0
  rejected = 0
  batches = 0
  splits = 0
  private itemsDispatched = 0
  private readonly batchSizes: SampleWindow
  private readonly queueWaits: SampleWindow
  private readonly processingTimes: SampleWindow
  private readonly busy: BusyTime
  private readonly drained: RateMeter
  private observers: readonly BatcherObserver[] = []

  constructor(window: number, now: number) {
    this.batchSizes = new SampleWindow(window)
    this.queueWaits = new SampleWindow(window)
    this.processingTimes = new SampleWindow(window)
    this.busy = new BusyTime(now)
    this.drained = new RateMeter(now)
  }

  /** A batch starts at `now`, while `running` batches were running. */
  dispatched(run: Run, now: number, running: number): void {
    const n = run.entries.length
    this.busy.advance(now, running)
    this.batches++
    this.itemsDispatched += n
    this.batchSizes.record(n)
    // Queue waits and the drain rate count first runs only: a re-run's wait is the failed run.
    if (run.splitDepth === 0) {
      recordWaits(this.queueWaits, run.entries, now, run.slots.ordered)
      this.drained.add(now, n)
    } else this.splits++
    if (this.observers.length > 0) this.emitDispatch(run, now)
  }

  /** A batch's `processBatch` call settled at `now`, while `running` batches were running (it included). */
  settled(run: Run, now: number, running: number, ok: boolean): void {
    this.busy.advance(now, running)
    const processingMs = now - run.startedAt
    this.processingTimes.record(processingMs)
    if (this.observers.length === 0) return
    const event: BatchSettleEvent = {
      batchId: run.context.batchId,
      size: run.entries.length,
      splitDepth: run.splitDepth,
      processingMs,
      ok,
    }
    for (const observer of this.observers) {
      try {
        observer.onSettle?.(event)
      } catch {
        // Observers never affect batches (documented on BatcherObserver).
      }
    }
  }

  /** Items dispatched per second over about the last second (first runs only). */
  drainRate(now: number): number {
    return this.drained.rate(now)
  }

  /** Registers an observer; returns the function that unsubscribes it. */
  observe(observer: BatcherObserver): () => void {
    // Copy on write: an observer that unsubscribes during an event does not disturb
    // the iteration in progress.
    this.observers = [...this.observers, observer]
    return () => {
      this.observers = this.observers.filter((o) => o !== observer)
    }
  }

  /** A plain snapshot of counters, `gauges` and recent percentiles. */
  snapshot(gauges: Gauges, now: number): BatcherStats {
    return {
      submitted: gauges.lastSeq + this.abortedAtDoor,
      completed: this.completed,
      failed: this.failed,
      cancelled: this.cancelled,
      timedOut: this.timedOut,
      rejected: this.rejected,
      batches: this.batches,
      splits: this.splits,
      queued: gauges.queued,
      inFlight: gauges.inFlight,
      inFlightItems: gauges.inFlightItems,
      waitingForRoom: gauges.waitingForRoom,
      avgBatchSize: this.batches === 0 ? 0 : this.itemsDispatched / this.batches,
      utilization: this.busy.utilization(now, gauges.inFlight, gauges.slots),
      batchSize: this.batchSizes.percentiles(),
      queueWaitMs: this.queueWaits.percentiles(),
      processingMs: this.processingTimes.percentiles(),
      maxBatchSize: gauges.maxBatchSize,
      maxWaitMs: gauges.maxWaitMs,
      drainRate: this.drained.rate(now),
      latencyEstimates: gauges.latencyEstimates,
    }
  }

  private emitDispatch(run: Run, now: number): void {
    const records = run.entries
    const queueWaitsMs = new Array<number>(records.length)
    for (let i = 0; i < records.length; i++) queueWaitsMs[i] = now - records[i].stamp.at
    const event: BatchDispatchEvent = {
      batchId: run.context.batchId,
      size: records.length,
      cost: run.cost,
      splitDepth: run.splitDepth,
      queueWaitsMs,
    }
    for (const observer of this.observers) {
      try {
        observer.onDispatch?.(event)
      } catch {
        // Observers never affect batches.
      }
    }
  }
}

/**
 * Records the queue wait of every item of a batch, from their clock readings. Items
 * submitted in the same turn share a reading, so a batch is a few runs of equal waits:
 * each run is one `recordRun` (a typed-array fill) instead of a `record` per item. Same
 * samples, same order.
 *
 * When the records of each reading stand next to each other (`ordered`, see
 * `Slots.ordered`), each run's end is found by a galloping search: a batch of one turn
 * (the common case under load) costs a handful of reads instead of one per item (the
 * loop over every record was ~17 machine instructions per item on core-overhead,
 * callgrind), and a batch whose every item has a reading of its own costs one read per
 * item, as before.
 */
export function recordWaits(waits: SampleWindow, records: readonly Plain[], now: number, ordered: boolean): void {
  const n = records.length
  if (ordered) {
    let i = 0
    while (i < n) {
      const stamp = records[i].stamp
      // records[lo] has `stamp`; records[hi] (or the end) does not.
      let lo = i
      let hi = n
      for (let step = 1; lo + step < n; step *= 2) {
        if (records[lo + step].stamp !== stamp) {
          hi = lo + step
          break
        }
        lo += step
      }
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1
        if (records[mid].stamp === stamp) lo = mid
        else hi = mid
      }
      waits.recordRun(now - stamp.at, lo + 1 - i)
      i = lo + 1
    }
    return
  }
  let stamp = records[0].stamp
  let count = 0
  for (let i = 0; i < n; i++) {
    const next = records[i].stamp
    if (next !== stamp) {
      waits.recordRun(now - stamp.at, count)
      stamp = next
      count = 0
    }
    count++
  }
  waits.recordRun(now - stamp.at, count)
}
