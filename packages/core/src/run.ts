import type { Entry } from './entry.js'
import type { BatchContext } from './types.js'

/** `BatchContext` handed to `processBatch`. The AbortController is made only if read. */
export class Context implements BatchContext {
  private controller: AbortController | undefined
  aborted = false
  private reason: unknown
  /** What the processor reported with `reportRunMs` (NaN: nothing). */
  runMs = NaN

  constructor(
    readonly batchId: number,
    readonly key: unknown,
    readonly cost: number,
    readonly splitDepth: number,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController()
      if (this.aborted) this.controller.abort(this.reason)
    }
    return this.controller.signal
  }

  reportRunMs(ms: number): void {
    this.runMs = ms
  }

  abort(reason: unknown): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    this.controller?.abort(reason)
  }
}

/**
 * One call of `processBatch` in progress: its entries, and their items as the array
 * handed to `processBatch` — both made while the batch is taken from its queue, in one
 * pass (see `PriorityQueue.take`), so starting a batch visits no item again.
 */
export class Run {
  /** Entries not yet settled (cancellation settles them early). */
  live: number
  readonly context: Context

  constructor(
    readonly entries: Entry[],
    readonly items: unknown[],
    readonly startedAt: number,
    batchId: number,
    key: unknown,
    readonly cost: number,
    readonly splitDepth: number,
    /** Deadline formation's probe (see `DeadlineStep.probe`). */
    readonly probe = false,
  ) {
    this.live = entries.length
    this.context = new Context(batchId, key, cost, splitDepth)
  }

  abort(reason: unknown): void {
    this.context.abort(reason)
  }
}

/** Half of a failed batch waiting to be re-run (`isolateFailures`). */
export interface PendingSplit {
  entries: Entry[]
  key: unknown
  splitDepth: number
}
