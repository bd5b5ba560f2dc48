import type { FormationLimits } from './batch-formation.js'
import type { BatchReason } from './types.js'

/** One queued item as a formation reads it (`FormationQueue.scan`). */
export interface QueuedItem {
  /** Clock reading (the batcher's `now`) by which its answer is due; Infinity: none. */
  readonly deadline: number
  readonly cost: number
  readonly priority: number
  /** Clock reading at which it was submitted. */
  readonly enqueuedAt: number
}

/** One key's queue as a formation reads it; it changes only through the steps the formation returns. */
export interface FormationQueue {
  /** The `batchKey` of its items (undefined without `batchKey`). */
  readonly key: unknown
  /** Items queued. */
  readonly size: number
  /** Their summed cost. */
  readonly cost: number
  /** When its oldest item was submitted (Infinity: empty). */
  oldestEnqueuedAt(): number
  /**
   * Visits the queued items in the order a batch takes them (priority, then age) until
   * `visit` returns false. Only a formation that `readsDeadlines` sees every item: the
   * others' queues may hold items submitted without options, which are not visited.
   */
  scan(visit: (item: QueuedItem) => boolean): void
}

/** What a formation decides at one step (see `Formation.next`). */
export type FormationStep =
  /** Start a batch of the first `size` items of `queue` (at most `maxBatchSize`; fewer if `maxBatchCost` cuts it). */
  | { readonly kind: 'start'; readonly queue: FormationQueue; readonly size: number; readonly reason?: BatchReason }
  /**
   * Fail these queued items now with `DeadlineExceededError` (504): a batch of
   * `batchSize` holding them would end at `endsAt` (for the error's figures), after
   * their deadline. Items no longer queued are passed over.
   */
  | { readonly kind: 'fail'; readonly items: readonly QueuedItem[]; readonly endsAt: number; readonly batchSize: number }
  /** Nothing to do before `until` (a clock reading; Infinity: until something happens). */
  | { readonly kind: 'wait'; readonly until: number }

/** A batch running (see `FormationView.running`). */
export interface RunningBatch {
  /** Items in it. */
  readonly size: number
  /** Clock reading at which it started. */
  readonly startedAt: number
}

/** The batcher's state as a formation reads it at a step. */
export interface FormationView {
  /** The limits in force (`maxBatchSize` and `maxWaitMs` may change at run time; `flush` once closing). */
  readonly limits: Readonly<FormationLimits>
  /** The batcher's clock (never behind a wait timer that fired). */
  now(): number
  /**
   * The queue whose batch may go now by count and time (`minBatchSize`, `maxWaitMs`),
   * or, when none may yet, when the first one will (`Choice.deadline`).
   */
  ready(): { readonly queue: FormationQueue | undefined; readonly deadline: number }
  /** The non-empty queue whose head goes first (priority, then age), whatever the wait options. */
  first(): FormationQueue
  /** Nothing runs and no re-run of a failed batch waits. */
  readonly idle: boolean
  /** Starting a batch now takes the last free slot. */
  readonly lastSlot: boolean
  /** Every slot is busy (read at the door; `next` is asked only with a slot free). */
  readonly busy: boolean
  /** The batches running now. */
  running(): Iterable<RunningBatch>
}

/** A request at the door (see `Formation.admissionMs`). */
export interface DoorRequest {
  /** Its items. */
  readonly n: number
  /** Items queued or waiting for room ahead of it, its own included. */
  readonly ahead: number
  /** Its `timeoutMs` (finite). */
  readonly timeoutMs: number
}

/**
 * How batches are formed: the batcher asks `next` whenever a slot is free and items
 * are queued, and acts on the step it returns (starts the batch, fails the items, or
 * arms a timer). The built-in ones are `'count'` (by count and time) and `'deadline'`
 * (by the items' deadlines and the latency model); an object of this shape is used as it
 * is. A formation decides and never changes the queues itself.
 *
 * A step that cannot be acted on (not one of the three kinds, a `start` of a queue that is
 * not the batcher's or of fewer than 1 item, a `fail` of no queued item) or a `next` that
 * throws is taken as the count formation's step, so that a faulty formation never
 * strands the queue.
 */
export interface Formation {
  /**
   * Whether it reads the items' deadlines (`QueuedItem.deadline`): every item is then
   * queued with its deadline — a cost per item that the count formation does not pay.
   */
  readonly readsDeadlines: boolean
  /** The next step, with a slot free and at least one item queued. */
  next(view: FormationView): FormationStep
  /**
   * Estimated ms until a request that arrives now would have run, for refusing at the
   * door (`DeadlineUnattainableError`) one whose `timeoutMs` is shorter. Asked only of a
   * formation that `readsDeadlines`, for requests with a `timeoutMs`. Omitted: none refused.
   */
  admissionMs?(request: DoorRequest, view: FormationView): number
  /** A batch ended at `now` (answered or failed). */
  settled?(now: number): void
  /**
   * The soonest a re-run of `size` items (a half of a failed batch, `isolateFailures`)
   * started at `now` could end: its items whose deadline comes before fail instead.
   * Omitted: `now` (only items whose deadline has passed fail).
   */
  rerunEndsAt?(now: number, size: number): number
}

/** The count formation (`formation: 'count'`): a batch goes when the count/time options let it, as large as they allow. */
export class CountFormation implements Formation {
  readonly readsDeadlines = false
  /** Reused by every step: one step per batch, read at once by the batcher. */
  private readonly step: { kind: 'start' | 'wait'; queue: FormationQueue; size: number; until: number }

  constructor(private readonly limits: FormationLimits) {
    this.step = { kind: 'wait', queue: undefined as unknown as FormationQueue, size: 0, until: Infinity }
  }

  next(view: FormationView): FormationStep {
    const choice = view.ready()
    const step = this.step
    if (choice.queue === undefined) {
      step.kind = 'wait'
      step.until = choice.deadline
    } else {
      step.kind = 'start'
      step.queue = choice.queue
      step.size = this.limits.maxBatchSize
    }
    return step as FormationStep
  }
}
