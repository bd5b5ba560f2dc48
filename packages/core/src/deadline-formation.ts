import { readyAt, type FormationLimits } from './batch-formation.js'
import { deadlineOf, type Entry } from './entry.js'
import type { DeadlineIndexedQueues } from './keyed-queues.js'
import type { LatencyModel } from './latency-model.js'
import type { PriorityQueue } from './queue.js'
import type { Run } from './run.js'

/**
 * After this long with no batch run, a request the latency model calls hopeless runs
 * anyway, alone, as a probe. The model only learns from runs; if it ever estimates
 * every batch too slow for the deadlines in use (say it measured runs during a stall),
 * it would refuse everything and never run again to see that the stall is over. A
 * probe costs at most one row per this interval.
 */
const PROBE_AFTER_MS = 100

/**
 * What deadline formation decided for a queue (see `DeadlineFormation.step`): exactly
 * one of — fail `expire` now, start a batch of `size` from the queue's head, or look
 * again at `wake`.
 */
interface DeadlineStep {
  /** Queued items that cannot make their deadline: they fail now (`DeadlineExceededError`). */
  readonly expire: readonly Entry[]
  /** When a batch holding them would end, by the estimate (for the error's figures). */
  readonly endsAt: number
  /** How many items that batch holds (for the error's figures). */
  readonly batchSize?: number
  /** Items to take from the head and start now (0: none). */
  readonly size: number
  /** When to look again, when nothing fails or starts (Infinity: when something happens). */
  readonly wake: number
  /** The batch (of one) is a probe: it runs although the latency model calls it hopeless (see `PROBE_AFTER_MS`). */
  readonly probe?: boolean
}

const NONE: readonly Entry[] = []

/**
 * Deadline formation (`formation: 'deadline'`): which batch to run, by the items'
 * deadlines and the latency model's estimates, and how long the queue takes to drain
 * (for refusing at the door). It decides; the batcher acts (takes, starts, fails).
 */
export class DeadlineFormation {
  /** When the last batch settled (or the batcher was made): a probe goes after `PROBE_AFTER_MS` idle. */
  private lastSettledAt: number

  constructor(
    private readonly model: LatencyModel,
    private readonly limits: FormationLimits,
    /** Batch slots (`maxConcurrentBatches`). */
    private readonly slots: number,
    now: number,
    /** The batcher's queues, whose deadline index each step reads. */
    private readonly queues: DeadlineIndexedQueues,
  ) {
    this.lastSettledAt = now
  }

  /** A batch settled at `now`. */
  settled(now: number): void {
    this.lastSettledAt = now
  }

  /** Whether to run a probe: nothing runs or waits for a re-run (`idle`), and nothing has settled for `PROBE_AFTER_MS`. */
  probeDue(now: number, idle: boolean): boolean {
    return idle && now - this.lastSettledAt >= PROBE_AFTER_MS
  }

  /**
   * One step, with a slot free, for the queue whose head goes first: fail the queued
   * items that cannot make their deadline even in a batch of one, else start the
   * largest batch whose earliest deadline its estimated run time still meets, unless it
   * may wait for `minBatchSize` (only while every deadline keeps its slack).
   *
   * @param idle Nothing runs and no re-run waits (see `probeDue`).
   * @param lastSlot Starting a batch now takes the last free slot.
   */
  step(queue: PriorityQueue<Entry>, now: number, idle: boolean, lastSlot: boolean): DeadlineStep {
    const model = this.model
    const measured = model.measured
    // Unmeasured, a batch of one goes as a probe (trusted to fit), and nothing larger.
    // A batch starts by the model's `bound`, not its `estimate`: see `LatencyModel`.
    const one = measured ? (model.bound(1) as number) : 0

    // Items that cannot make it even alone fail now, not once their timer fires —
    // wherever they are in the queue (a short timeout deep behind longer ones too).
    const infeasible: Entry[] = []
    const earliest = this.queues.deadlines(queue).due(now + one, infeasible, queue.size)
    if (infeasible.length > 0) {
      // Nothing has run for a while: the head runs alone, however late the model says it would be.
      if (this.probeDue(now, idle)) return { expire: NONE, endsAt: NaN, size: 1, wake: NaN, probe: true }
      return { expire: infeasible, endsAt: now + one, batchSize: 1, size: 0, wake: NaN }
    }

    // The largest batch, in take order, whose earliest deadline holds with its estimate.
    const limits = this.limits
    let size = 0
    let cost = 0
    let due = Infinity
    queue.scan((entry) => {
      if (size >= limits.maxBatchSize || (size > 0 && cost + entry.cost > limits.maxBatchCost)) return false
      const d = deadlineOf(entry)
      const min = d < due ? d : due
      if (size > 0) {
        const ms = measured ? (model.bound(size + 1) as number) : Infinity
        if (now + ms > min) return false
      }
      due = min
      cost += entry.cost
      size++
      return true
    })

    // Overload: the head's slack cut the batch short while more items wait. When
    // dropping the items ahead of a fuller batch answers more of the queue in time,
    // they fail at once and the fuller batch goes (with other slots free, the head's
    // small batch is no loss: they take the rest).
    if (measured && size < queue.size && size < limits.maxBatchSize && lastSlot) {
      const sacrificed = this.sacrificeForFullerBatch(queue, size, now)
      if (sacrificed !== undefined) return sacrificed
    }

    // Waiting for `minBatchSize` (the count/time wish) only while every queued item
    // could still make its deadline in a batch of that size started later.
    if (size === queue.size) {
      const wish = readyAt(queue, limits)
      if (wish > now) {
        const target = limits.minBatchSize < limits.maxBatchSize ? limits.minBatchSize : limits.maxBatchSize
        const latest = earliest === Infinity ? Infinity : measured ? earliest - (model.bound(target) as number) : now
        const wake = wish < latest ? wish : latest
        if (wake > now) return { expire: NONE, endsAt: NaN, size: 0, wake }
      }
    }
    return { expire: NONE, endsAt: NaN, size, wake: NaN }
  }

  /**
   * Goodput under overload (see `step`): whether dropping the items ahead of a fuller
   * batch answers more of the queue in time than serving them first. Both plans are
   * played out on the queue as it is (deadlines in take order, batches one after
   * another, each the largest its first item's deadline allows by the latency model);
   * when the plan that starts at a later item answers more, the items ahead of it are
   * to fail now (`DeadlineExceededError`) and the batcher forms again. Returns those
   * items, or undefined.
   */
  private sacrificeForFullerBatch(queue: PriorityQueue<Entry>, size: number, now: number): DeadlineStep | undefined {
    const model = this.model
    const max = this.limits.maxBatchSize
    // Deadlines in take order, far enough to find a full batch behind the head.
    const deadlines: number[] = []
    const entries: Entry[] = []
    const reach = 4 * max
    queue.scan((entry) => {
      deadlines.push(deadlineOf(entry))
      entries.push(entry)
      return deadlines.length < reach
    })
    const m = deadlines.length
    // The bound of every size, read once: the plans below try up to `max` starts of up to
    // `max` items each, and asked the model each time. Measured (2026-11-27, one
    // formation of a queue of 24 × maxBatchSize rows with 100 ms deadlines, the head's
    // batch cut short, 5 looks; the median of 6 warm repetitions): with maxBatchSize
    // 1024, 2.2 M calls of `bound`, 26.8 ms of the host thread, now 7.1 ms; with 128,
    // ~1.0 ms, now ~0.6 ms.
    const bounds = new Float64Array(max + 1)
    for (let k = 1; k <= max; k++) bounds[k] = model.bound(k) as number
    // Largest batch from item `i`, started at `t`, whose earliest deadline its estimate meets (as `step`).
    const batchFrom = (i: number, t: number): number => {
      let k = 0
      let due = Infinity
      while (k < max && i + k < m) {
        const d = deadlines[i + k] < due ? deadlines[i + k] : due
        if (t + bounds[k + 1] > d) break
        due = d
        k++
      }
      return k
    }
    // Items answered in time when the batches run back to back from item `from` on.
    const answered = (from: number): number => {
      let t = now
      let done = 0
      for (let i = from; i < m;) {
        const k = batchFrom(i, t)
        if (k === 0) {
          i++ // lost: it cannot make it even alone
          continue
        }
        done += k
        t += bounds[k]
        i += k
      }
      return done
    }
    // The later start (within one batch of the head) whose first batch is the largest.
    let best = size
    let start = 0
    for (let i = 1; i < m && i <= max && m - i > best; i++) {
      const k = batchFrom(i, now)
      if (k > best) {
        best = k
        start = i
      }
      if (k >= max) break
    }
    if (start === 0 || answered(start) <= answered(0)) return undefined
    return { expire: entries.slice(0, start), endsAt: now + bounds[best], batchSize: best, size: 0, wake: NaN }
  }

  /**
   * Estimated time (ms) until a request of `n` items that arrives now would have run:
   * the wait for a slot when all are busy, then the queue ahead of it and itself, in
   * rounds of full batches over every slot. 0 (never refused) unless the request has a
   * `timeoutMs` and a batch has been measured.
   *
   * @param ahead Items queued or waiting for room, the request's own included.
   * @param busy The running batches when every slot is busy, else undefined.
   * @param at The request's enqueue time (for the wait for a slot; read only when `busy`).
   * @param now The clock, read only when an idle batcher may let the request in as a probe.
   * @param idle Nothing runs and no re-run waits (see `probeDue`).
   */
  drainMs(
    ahead: number,
    n: number,
    timeoutMs: number,
    busy: Iterable<Run> | undefined,
    at: number,
    now: () => number,
    idle: boolean,
  ): number {
    if (timeoutMs === Infinity || !this.model.measured) return 0
    const max = this.limits.maxBatchSize
    const batch = ahead < max ? ahead : max
    const rounds = Math.ceil(ahead / (max * this.slots))
    let drain = rounds * (this.model.estimate(batch) as number)
    // With every slot busy, the queue starts only when the first running batch ends.
    if (busy !== undefined) drain += this.firstFreeInMs(busy, at)
    // An idle batcher lets a request in as a probe (see PROBE_AFTER_MS).
    if (drain > timeoutMs && ahead === n && this.probeDue(now(), idle)) return 0
    return drain
  }

  /** Estimated ms from `now` until the first of `runs` ends (0 if one is already overdue). */
  private firstFreeInMs(runs: Iterable<Run>, now: number): number {
    let first = Infinity
    for (const run of runs) {
      const end = run.startedAt + (this.model.estimate(run.entries.length) as number)
      if (end < first) first = end
    }
    return first === Infinity || first < now ? 0 : first - now
  }

  /**
   * When a re-run of `size` items (a half of a failed batch) started at `now` would
   * end, by the model's bound: nothing late is re-run either, so its items whose
   * deadline comes before fail instead.
   */
  rerunEndsAt(now: number, size: number): number {
    return now + (this.model.bound(size) ?? 0)
  }
}
