import type { FormationLimits } from './batch-formation.js'
import { Entry, QUEUED } from './entry.js'
import { CountFormation, type Formation, type FormationStep, type FormationView, type RunningBatch } from './formation.js'
import type { KeyedQueues } from './keyed-queues.js'
import { PriorityQueue } from './queue.js'

/** The gauges a formation reads at each question, set by the batcher (`FormationHost.gauge`). */
export interface Gauges {
  idle: boolean
  lastSlot: boolean
  busy: boolean
}

/** What asking a formation needs of the batcher. */
export interface FormationHost {
  readonly limits: FormationLimits
  readonly queues: KeyedQueues
  readonly running: Iterable<RunningBatch>
  /** The batcher's clock (never behind a wait timer that fired). */
  now(): number
  /** Whether the batcher is closing (then no queue waits for more items). */
  closing(): boolean
  /** Sets the gauges as they are now. */
  gauge(gauges: Gauges): void
}

/**
 * Asks the batcher's `Formation` its questions (the next step, a request's drain at the
 * door) through one `FormationView`. A user's formation is not trusted: a step the
 * batcher cannot act on, or one that throws, is replaced by the count formation's, and
 * a bad drain by 0 (see `Formation`); the built-in ones are asked directly.
 */
export class FormationDriver {
  readonly readsDeadlines: boolean
  private readonly fallback: CountFormation
  private readonly view: FormationView & Gauges

  constructor(
    readonly formation: Formation,
    private readonly untrusted: boolean,
    private readonly host: FormationHost,
  ) {
    this.readsDeadlines = formation.readsDeadlines
    this.fallback = formation instanceof CountFormation ? formation : new CountFormation(host.limits)
    this.view = {
      limits: host.limits,
      now: () => host.now(),
      ready: () => host.queues.choose(host.limits, () => host.now()),
      first: () => this.first(),
      running: () => host.running,
      idle: true,
      lastSlot: false,
      busy: false,
    }
  }

  /** The formation's next step, with a slot free and an item queued. */
  next(): FormationStep {
    const view = this.gauged()
    if (!this.untrusted) return this.formation.next(view)
    let step: FormationStep | undefined
    try {
      step = this.formation.next(view)
    } catch {
      step = undefined
    }
    return step !== undefined && actionable(step) ? step : this.fallback.next(view)
  }

  /** Estimated ms until a request of `n` items with `timeoutMs` that arrives now would have run (0: never refused). */
  admissionMs(n: number, ahead: number, timeoutMs: number): number {
    const admissionMs = this.formation.admissionMs
    if (timeoutMs === Infinity || !this.readsDeadlines || admissionMs === undefined) return 0
    const request = { n, ahead, timeoutMs }
    if (!this.untrusted) return admissionMs.call(this.formation, request, this.gauged())
    try {
      const ms = admissionMs.call(this.formation, request, this.gauged())
      return typeof ms === 'number' && ms >= 0 ? ms : 0
    } catch {
      return 0
    }
  }

  /** The view with its gauges as they are now. */
  private gauged(): FormationView {
    this.host.gauge(this.view)
    return this.view
  }

  /** The non-empty queue whose head goes first, whatever the wait options (`FormationView.first`). */
  private first(): PriorityQueue<Entry> {
    const limits = this.host.limits
    limits.flush = true
    const queue = this.host.queues.choose(limits, () => this.host.now()).queue as PriorityQueue<Entry>
    limits.flush = this.host.closing()
    return queue
  }
}

/** Whether the batcher can act on a user formation's step (see `Formation`). */
function actionable(step: FormationStep): boolean {
  if (step === null || typeof step !== 'object') return false
  switch (step.kind) {
    case 'start':
      return step.queue instanceof PriorityQueue && step.queue.size > 0 && step.size >= 1
    case 'fail':
      return Array.isArray(step.items) && step.items.some((item) => item instanceof Entry && item.state === QUEUED)
    case 'wait':
      return typeof step.until === 'number' && step.until === step.until
    default:
      return false
  }
}
