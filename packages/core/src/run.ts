import type { Entry } from './entry.js'
import type { Plain, Slots } from './queue.js'
import type { BatchContext, BatchReason } from './types.js'

/** `BatchContext` handed to `processBatch`. The AbortController is made only if read. */
export class Context implements BatchContext {
  private controller: AbortController | undefined
  aborted = false
  private abortReason: unknown
  /** What the processor reported with `reportRunMs` (NaN: nothing). */
  runMs = NaN

  constructor(
    readonly batchId: number,
    readonly key: unknown,
    readonly cost: number,
    readonly splitDepth: number,
    readonly reason: BatchReason,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController()
      if (this.aborted) this.controller.abort(this.abortReason)
    }
    return this.controller.signal
  }

  reportRunMs(ms: number): void {
    this.runMs = ms
  }

  abort(reason: unknown): void {
    if (this.aborted) return
    this.aborted = true
    this.abortReason = reason
    this.controller?.abort(reason)
  }
}

/**
 * One call of `processBatch` in progress: its items and how to settle each, as the
 * arrays taken from its queue (see `PriorityQueue.take`): starting a batch visits no
 * item again.
 */
export class Run {
  /** Items not yet settled (cancellation settles entries early). */
  live: number
  /** destroy() has settled every item: results that come later are dropped. */
  dropped = false
  readonly context: Context
  /** Per item, its plain record or its `Entry` (`slots.records`); as many as the batch's items. */
  readonly entries: Array<Plain | Entry>

  constructor(
    readonly slots: Slots<Entry>,
    readonly startedAt: number,
    batchId: number,
    key: unknown,
    readonly cost: number,
    readonly splitDepth: number,
    reason: BatchReason,
    /** Deadline formation's probe: it ran though the latency model called it hopeless (reason `'probe'`). */
    readonly probe = false,
  ) {
    this.entries = slots.records
    this.live = slots.length
    this.context = new Context(batchId, key, cost, splitDepth, reason)
  }

  /** Items in the batch (`RunningBatch`). */
  get size(): number {
    return this.entries.length
  }

  abort(reason: unknown): void {
    this.context.abort(reason)
  }
}

/** Half of a failed batch waiting to be re-run (`isolateFailures`). */
export interface PendingSplit {
  slots: Slots<Entry>
  key: unknown
  splitDepth: number
}
