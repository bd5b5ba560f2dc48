import { readyAt, type FormationLimits } from './batch-formation.js'
import { deadlineOf, type Entry } from './entry.js'
import type { DoorRequest, Formation, FormationStep, FormationView, RunningBatch } from './formation.js'
import type { DeadlineIndexedQueues } from './keyed-queues.js'
import type { LatencyModel } from './latency-model.js'
import type { PriorityQueue } from './queue.js'

/**
 * After this long with no batch run (or as long as the latency model's floor of a batch
 * of one, if longer), a request the model calls hopeless runs anyway, alone, as a probe.
 * The model only learns from runs; if it ever estimates every batch too slow for the
 * deadlines in use (say it measured runs during a stall), it would refuse everything and
 * never run again to see that the stall is over. A probe costs at most one row per this
 * interval; not more often than the model's fastest batch of one, which would keep a
 * replica busy with probes by the model's own figures.
 */
const PROBE_AFTER_MS = 100

/**
 * Deadline formation (`formation: 'deadline'`): which batch to run, by the items'
 * deadlines and the latency model, and how long the queue takes to drain (for refusing
 * at the door). It decides; the batcher acts (takes, starts, fails).
 *
 * Three figures of the model, each for the decision it suits (see `LatencyModel`):
 * - a row fails, or a request is refused at the door, only when its deadline is out of
 *   reach even by the model's `floor` (the fastest the batch has been seen to go): a row
 *   the model is unsure of runs;
 * - a batch grows while its earliest deadline holds by the model's `bound`;
 * - when the bound cuts a batch short while more rows wait, the batch grows to the size
 *   that answers the most rows in time by the typical `estimate` (its own and those
 *   left for the next batch), though its head may then be late: batches sized to the head's slack by a pessimistic bound run fewer
 *   rows per turn, the queue grows, the slack shrinks, and the loop closes on itself
 *   (measured with 64 closed-loop clients of 8-row requests with 20 ms deadlines: ~8 rows
 *   a batch against count formation's ~110, and fewer answers in time).
 */
export class DeadlineFormation implements Formation {
  readonly readsDeadlines = true
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

  /** Whether to run a probe: nothing runs or waits for a re-run (`idle`), and nothing has settled for a while (`PROBE_AFTER_MS`). */
  private probeDue(now: number, idle: boolean): boolean {
    if (!idle) return false
    const floor = this.model.floor(1) ?? 0
    return now - this.lastSettledAt >= (floor > PROBE_AFTER_MS ? floor : PROBE_AFTER_MS)
  }

  next(view: FormationView): FormationStep {
    return this.step(view.first() as PriorityQueue<Entry>, view.now(), view.idle)
  }

  /**
   * One step, with a slot free, for the queue whose head goes first: fail the queued
   * items whose deadline is out of reach even by the model's floor of a batch of one,
   * else start the largest batch whose earliest deadline holds (see the class), unless
   * it may wait for `minBatchSize` (only while every deadline keeps its slack).
   *
   * @param idle Nothing runs and no re-run waits (see `probeDue`).
   */
  step(queue: PriorityQueue<Entry>, now: number, idle: boolean): FormationStep {
    const model = this.model
    const measured = model.measured
    // Unmeasured, a batch of one goes as a probe (trusted to fit), and nothing larger.
    const floor = measured ? (model.floor(1) as number) : 0

    // Items out of reach even alone fail now, not once their timer fires — wherever they
    // are in the queue (a short timeout deep behind longer ones too).
    const infeasible: Entry[] = []
    const earliest = this.queues.deadlines(queue).due(now + floor, infeasible, queue.size)
    if (infeasible.length > 0) {
      // Nothing has run for a while: the head runs alone, however late the model says it would be.
      if (this.probeDue(now, idle)) return { kind: 'start', queue, size: 1, reason: 'probe' }
      return { kind: 'fail', items: infeasible, endsAt: now + floor, batchSize: 1 }
    }

    const limits = this.limits
    let size = measured ? this.largestBatch(queue, now, model.bound.bind(model)) : 1
    if (measured && size < limits.maxBatchSize && size < queue.size) size = this.mostInTime(queue, now, size)

    // Waiting for `minBatchSize` (the count/time wish) only while every queued item
    // could still make its deadline in a batch of that size started later.
    if (size === queue.size) {
      const wish = readyAt(queue, limits)
      if (wish > now) {
        const target = limits.minBatchSize < limits.maxBatchSize ? limits.minBatchSize : limits.maxBatchSize
        const latest = earliest === Infinity ? Infinity : measured ? earliest - (model.bound(target) as number) : now
        const wake = wish < latest ? wish : latest
        if (wake > now) return { kind: 'wait', until: wake }
      }
    }
    return { kind: 'start', queue, size, reason: 'deadline' }
  }

  /**
   * The batch size, at least `size` (the bound's), that answers the most rows in time by
   * the typical `estimate`, counting the rows it leaves behind as one batch after it
   * (once it ends, even with another slot free: batches side by side share the
   * machine's cores with each other and with the host thread), and among equals the most by the
   * model's floor: where the model is unsure (the bound cuts the batch short where the
   * estimate or the floor would not), the rows run. Tried at `size`, at the powers of two
   * above it and at the most the queue and the limits allow; a tie keeps the smaller.
   */
  private mostInTime(queue: PriorityQueue<Entry>, now: number, size: number): number {
    const limits = this.limits
    const model = this.model
    const deadlines: number[] = []
    let cost = 0
    queue.scan((entry) => {
      if (deadlines.length >= limits.maxBatchSize || (deadlines.length > 0 && cost + entry.cost > limits.maxBatchCost)) return false
      cost += entry.cost
      deadlines.push(deadlineOf(entry))
      return true
    })
    const most = deadlines.length
    // Rows from `from` to `to` answered by `endsAt`.
    const inTime = (from: number, to: number, endsAt: number): number => {
      let n = 0
      for (let i = from; i < to; i++) if (deadlines[i] >= endsAt) n++
      return n
    }
    // Rows in time with a batch of `k` now and the rest after it, by `ms`.
    const plan = (k: number, ms: (n: number) => number | undefined): number => {
      const first = ms(k) as number
      const rest = k < most ? inTime(k, most, now + first + (ms(most - k) as number)) : 0
      return inTime(0, k, now + first) + rest
    }
    const score = (k: number): number => plan(k, model.estimate.bind(model)) * (most + 1) + plan(k, model.floor.bind(model))
    let best = size
    let bestScore = score(size)
    for (let k = 2; ; k *= 2) {
      const candidate = k < most ? k : most
      if (candidate > best) {
        const n = score(candidate)
        if (n > bestScore) {
          best = candidate
          bestScore = n
        }
      }
      if (candidate === most) return best
    }
  }

  /** The largest batch from the head, in take order, whose earliest deadline holds by `ms` (at least the head). */
  private largestBatch(queue: PriorityQueue<Entry>, now: number, ms: (size: number) => number | undefined): number {
    const limits = this.limits
    let size = 0
    let cost = 0
    let due = Infinity
    queue.scan((entry) => {
      if (size >= limits.maxBatchSize || (size > 0 && cost + entry.cost > limits.maxBatchCost)) return false
      const d = deadlineOf(entry)
      const min = d < due ? d : due
      if (size > 0 && now + (ms(size + 1) as number) > min) return false
      due = min
      cost += entry.cost
      size++
      return true
    })
    return size
  }

  /**
   * Estimated time (ms) until a request that arrives now would have run, by the
   * model's floor (a request is refused only when its deadline is out of reach): the
   * wait for a slot when all are busy, then the queue ahead of it and itself, in rounds
   * of full batches over every slot. 0 (never refused) before a batch has been measured.
   */
  admissionMs(request: DoorRequest, view: FormationView): number {
    const model = this.model
    if (!model.measured) return 0
    const { ahead, n, timeoutMs } = request
    const max = this.limits.maxBatchSize
    const batch = ahead < max ? ahead : max
    const rounds = Math.ceil(ahead / (max * this.slots))
    let drain = rounds * (model.floor(batch) as number)
    // With every slot busy, the queue starts only when the first running batch ends.
    if (view.busy) drain += this.firstFreeInMs(view.running(), view.now())
    // An idle batcher lets a request in as a probe (see PROBE_AFTER_MS).
    if (drain > timeoutMs && ahead === n && this.probeDue(view.now(), view.idle)) return 0
    return drain
  }

  /** Floor of the ms from `now` until the first of `runs` ends, (0 if one is already overdue). */
  private firstFreeInMs(runs: Iterable<RunningBatch>, now: number): number {
    let first = Infinity
    for (const run of runs) {
      const end = run.startedAt + (this.model.floor(run.size) as number)
      if (end < first) first = end
    }
    return first === Infinity || first < now ? 0 : first - now
  }

  /**
   * When a re-run of `size` items (a half of a failed batch) started at `now` would end
   * at the soonest, by the model's floor: nothing out of reach is re-run either, so its
   * items whose deadline comes before fail instead.
   */
  rerunEndsAt(now: number, size: number): number {
    return now + (this.model.floor(size) ?? 0)
  }
}
