import type { FormationLimits } from './batch-formation.js'
import { Cancellation } from './cancellation.js'
import { DeadlineFormation } from './deadline-formation.js'
import { Entry, Guard, onGuardTimeout, QUEUED, RETRY, RUNNING, SETTLED, Stamp, DETACHED, deadlineOf } from './entry.js'
import { BatcherClosedError } from './errors.js'
import { CountFormation, type Formation } from './formation.js'
import { FormationDriver } from './formation-driver.js'
import { Group, onGroupTimeout } from './group.js'
import { DeadlineIndexedQueues, KeyedQueues } from './keyed-queues.js'
import type { LatencyModel } from './latency-model.js'
import {
  checkCost,
  describe,
  integerOption,
  MAX_TIMER_MS,
  numberOption,
  resolveClose,
  resolveOptions,
  resolveSubmit,
  resolveSubmitFields,
  type ResolvedOptions,
  type ResolvedSubmit,
} from './options.js'
import { isNode, Slots, type Plain, type PriorityQueue, type Reject, type Resolve } from './queue.js'
import { refusal } from './refusal.js'
import { Run, type PendingSplit } from './run.js'
import { Settlement } from './settling.js'
import { Statistics } from './stats.js'
import { Waiters } from './waiters.js'
import type {
  AdmissionState,
  BatchReason,
  BatcherObserver,
  BatcherStats,
  CloseOptions,
  DynamicBatcherOptions,
  ProcessBatch,
  SubmitOptions,
} from './types.js'

/**
 * Schedules the batcher's microtasks (`resolved.then(fn)`). Node's `queueMicrotask`
 * wraps every callback in an `AsyncResource` and a bound function; a reaction on a
 * settled promise is the same microtask queue, in the same order, at about half the
 * cost (docs/runtime-facts.md#v8-on-the-hot-path).
 */
const resolved = Promise.resolve()

/**
 * Groups concurrently submitted items into batches — by count, cost, time, priority
 * and key — and runs each batch with `processBatch`, handing every caller its own
 * result or error.
 *
 * ```ts
 * const batcher = new DynamicBatcher(async (texts: string[]) => model.embed(texts), { maxBatchSize: 64 })
 * const vector = await batcher.submit('hello', { timeoutMs: 1000 })
 * await batcher.close()
 * ```
 *
 * This class is the lifecycle of an item — the door, formation, running and settling —
 * over parts that each own one piece of state: `KeyedQueues` the queued items,
 * `Waiters` the callers waiting for room, `Run` a batch in progress, `Statistics` the
 * counters and samples, `refusal` every reason to refuse a request at the door, and
 * a `Formation` the choice of each batch (`CountFormation`, `DeadlineFormation`, or the
 * user's own).
 */
export class DynamicBatcher<Item, Result> implements AsyncDisposable {
  private readonly processBatch: ProcessBatch<Item, Result>
  private readonly options: ResolvedOptions<Item>
  private readonly limits: FormationLimits
  private readonly now: () => number
  private readonly maxConcurrent: number

  private readonly queues: KeyedQueues
  private readonly waiters = new Waiters()
  /** How items end, and the running batches and re-runs that involves (see `Settlement`). */
  private readonly settlement: Settlement
  /** The owner guards and requests call back into on an abort or a timeout. */
  private readonly cancellation: Cancellation

  private inFlight = 0
  /**
   * The queue's size from which a plain `submit` goes the long way (`enterAtDoor`):
   * `maxQueueSize` while only a full queue can stop it, else 0, so that every submit
   * does — while callers wait for room (a new one must not overtake them), once
   * closing, and with deadline formation (which works on entries). One compare on the
   * way in, where testing the queue's room, the waiters, closing and the formation
   * took four (~25 machine instructions per item on core-overhead, callgrind). Set by
   * `setDoor` wherever one of them changes.
   */
  private door = 0
  private seq = 0
  private batchSeq = 0
  private readonly statistics: Statistics
  /** Learns batch run times (every successful batch is recorded); read by deadline formation. */
  private readonly latency: LatencyModel
  /** Chooses each batch (see `Formation`). */
  private readonly formation: FormationDriver

  private pumpScheduled = false
  private pumping = false
  private readonly pumpBound = (): void => this.pump()
  private timer: ReturnType<typeof setTimeout> | undefined
  private timerDeadline = Infinity
  /**
   * Deadline of the wait timer that just fired. Formation treats the clock as at least
   * this value, so a timer never fires "early" against an injected clock that has not
   * moved quite as far (and never re-arms in a loop).
   */
  private firedDeadline = -Infinity
  private readonly clock = (): number => {
    const t = this.now()
    return t > this.firedDeadline ? t : this.firedDeadline
  }

  /** Reused by every `submit` (validation writes into it; nothing is allocated). */
  private readonly submitOptions: ResolvedSubmit = {
    signal: undefined,
    timeoutMs: Infinity,
    priority: 0,
    cost: undefined,
    delayedPriority: undefined,
  }
  /**
   * Enqueue timestamps with the default clock are read once per turn of the event loop
   * (reset by a microtask): every item submitted in one synchronous burst gets the same
   * reading. Reading `performance.now()` per item costs ~50 ns — a third of the whole
   * per-item budget — while waits are in milliseconds. An injected clock (tests) is
   * read on every submit, so tests that move it between two submits stay exact.
   *
   * The reading is a shared `Stamp` object, not a number on each entry: a fractional
   * number in an object field is a heap-allocated box of its own in V8, so a number per
   * entry would cost an allocation per item; a shared object costs a pointer
   * (docs/runtime-facts.md#v8-on-the-hot-path).
   */
  private readonly coarseClock: boolean
  private currentStamp: Stamp | undefined = undefined
  private readonly resetStamp = (): void => {
    this.currentStamp = undefined
  }

  private closing = false
  private closePromise: Promise<void> | undefined
  private resolveClosed: (() => void) | undefined

  /**
   * @param processBatch Runs one batch: gets the items (and a `BatchContext`) and returns,
   *   or resolves to, one result per item in the same order. An `Error` in a slot fails
   *   that item only.
   * @param options See `DynamicBatcherOptions`; validated here, once.
   * @throws TypeError / RangeError naming the bad option and echoing its value.
   */
  constructor(processBatch: ProcessBatch<Item, Result>, options?: DynamicBatcherOptions<Item>) {
    if (typeof processBatch !== 'function') {
      throw new TypeError(`Expected \`processBatch\` to be a function, got ${describe(processBatch)}`)
    }
    this.processBatch = processBatch
    this.options = resolveOptions(options)
    const o = this.options
    this.limits = {
      maxBatchSize: o.maxBatchSize,
      minBatchSize: o.minBatchSize,
      maxWaitMs: o.maxWaitMs,
      maxBatchCost: o.maxBatchCost,
      flush: false,
    }
    this.now = o.now
    this.coarseClock = options?.now === undefined
    this.maxConcurrent = o.maxConcurrentBatches
    const keyed = o.batchKey !== undefined
    this.statistics = new Statistics(o.statsWindow, this.now())
    this.latency = o.latencyModel
    let formation: Formation
    if (o.formation === 'deadline') {
      const queues = new DeadlineIndexedQueues(keyed)
      this.queues = queues
      formation = new DeadlineFormation(this.latency, this.limits, this.maxConcurrent, this.now(), queues)
    } else {
      formation = o.formation === 'count' ? new CountFormation(this.limits) : o.formation
      this.queues = formation.readsDeadlines ? new DeadlineIndexedQueues(keyed) : new KeyedQueues(keyed)
    }
    this.settlement = new Settlement({
      statistics: this.statistics,
      queues: this.queues,
      waiters: this.waiters,
      isolateFailures: o.isolateFailures,
      finished: (run, ok) => this.finishRun(run, ok),
      afterRun: () => this.afterRun(),
      admitWaiters: () => this.admitWaiters(),
      setDoor: () => this.setDoor(),
    })
    this.cancellation = new Cancellation(
      {
        queues: this.queues,
        enqueue: (entry) => this.enqueue(entry),
        freed: () => {
          this.admitWaiters()
          if (this.closing) this.checkClosed()
        },
      },
      this.settlement,
    )
    this.formation = new FormationDriver(formation, typeof o.formation !== 'string', {
      limits: this.limits,
      queues: this.queues,
      running: this.settlement.running,
      now: this.clock,
      closing: () => this.closing,
      gauge: (gauges) => {
        gauges.idle = this.idle()
        gauges.lastSlot = this.inFlight + 1 >= this.maxConcurrent
        gauges.busy = this.inFlight >= this.maxConcurrent
      },
    })
    this.setDoor()
  }

  /**
   * Queues one item; resolves with its result or rejects with its own error.
   *
   * Rejects with `BatcherClosedError` after `close()`, `ItemTooLargeError` when its cost
   * exceeds `maxBatchCost`, `QueueFullError` when the queue is full and `whenFull` is
   * `'reject'`, `TimeoutError` after `timeoutMs`, the signal's reason when aborted, and a
   * TypeError/RangeError for bad arguments. Never throws synchronously.
   */
  submit(item: Item, options?: SubmitOptions): Promise<Result> {
    // Small on purpose, with the work in `enter`: V8 then inlines `submit` into the
    // caller, where the fields of an options literal such as `{ priority }` are read
    // right where the literal is made, so the literal itself need not be allocated.
    if (options === undefined) return this.enter(item, undefined)
    if (options === null || typeof options !== 'object') return this.rejectOptions(options)
    let signal: unknown, timeoutMs: unknown, priority: unknown, cost: unknown, delayed: unknown
    try {
      signal = options.signal
      timeoutMs = options.timeoutMs
      priority = options.priority
      cost = options.cost
      delayed = options.delayedPriority
    } catch (error) {
      return Promise.reject(error) // a throwing getter
    }
    // Tested here, where a literal's absent fields are known to be undefined, so the
    // tests fold away in the caller and `enter` gets two arguments, not five.
    if (signal === undefined && timeoutMs === undefined && cost === undefined && delayed === undefined) {
      return this.enter(item, priority)
    }
    return this.enterGuarded(item, signal, timeoutMs, priority, cost, delayed)
  }

  /**
   * `submit` with nothing but a priority, if anything, not validated yet: the common
   * case, kept lean. A signal, a timeout or a cost go through `enterGuarded`, out of
   * this function's way.
   */
  private enter(item: Item, priorityOption: unknown): Promise<Result> {
    let priority = 0
    if (priorityOption !== undefined) {
      if (typeof priorityOption !== 'number' || !Number.isFinite(priorityOption)) {
        return this.enterGuarded(item, undefined, undefined, priorityOption, undefined)
      }
      priority = priorityOption
    }
    let cost: number
    let key: unknown
    try {
      cost = this.costOf(item)
      key = this.keyOf(item)
    } catch (error) {
      // The user's `cost`/`batchKey` threw: this call never entered.
      return Promise.reject(error)
    }
    // Whatever could refuse it, make it wait or make it an entry, tested at once (see
    // `door`); `enterAtDoor` sorts it out, out of line. Inlined, `refusal` took 187 of
    // the ~920 bytes of bytecode V8 inlines into one optimised function, and the queue
    // push no longer fit: ~60 machine instructions per item (cachegrind, core-overhead).
    if (this.queues.size >= this.door || cost > this.options.maxBatchCost) {
      const entered = this.enterAtDoor(item, key, cost, priority)
      if (entered !== undefined) return entered
    }
    // Counted as submitted by its `seq` (see `Statistics.abortedAtDoor`).
    const seq = ++this.seq
    const stamp = this.stamp()
    // A plain item: a record of five fields, no Entry (see queue.ts). The promise
    // first, then the record with its functions: made the other way round, optimised
    // code stored every field of the record twice (placeholders, then values), and the
    // functions a third time.
    let resolveItem!: Resolve
    let rejectItem!: Reject
    const promise = new Promise<Result>((resolve, reject) => {
      resolveItem = resolve as Resolve
      rejectItem = reject
    })
    const record: Plain = { resolve: resolveItem, reject: rejectItem, cost, seq, stamp }
    this.queues.add(key, item, record, priority, cost)
    // `pumpScheduled` first: it is true for every item of a turn but the first.
    if (this.pumpScheduled !== true && this.inFlight < this.maxConcurrent) this.schedulePump()
    return promise
  }

  /**
   * `enter` past the door (see `door`): the promise of an item refused, waiting for
   * room, or queued as an entry for deadline formation; undefined when it goes on as a
   * plain item after all.
   */
  private enterAtDoor(item: Item, key: unknown, cost: number, priority: number): Promise<Result> | undefined {
    const full = this.mustWait(1)
    const refused = refusal(1, cost, full, this.closing, this.options)
    if (refused !== undefined) return this.refuse(1, refused)
    if (!full && !this.formation.readsDeadlines) return undefined
    // Counted as submitted by its `seq` (see `Statistics.abortedAtDoor`).
    return this.admit(new Entry(item, key, cost, priority, ++this.seq, this.stamp()), full)
  }

  /** `enter` with a signal, a timeout or a cost (or bad options): validated, and guarded by a timer or listener. */
  private enterGuarded(
    item: Item,
    signalOption: unknown,
    timeoutOption: unknown,
    priorityOption: unknown,
    costOption: unknown,
    delayedOption?: unknown,
  ): Promise<Result> {
    const s = this.submitOptions
    let cost: number
    let key: unknown
    try {
      resolveSubmitFields(signalOption, timeoutOption, priorityOption, costOption, s, delayedOption)
      cost = s.cost ?? this.costOf(item)
      key = this.keyOf(item)
    } catch (error) {
      // Bad arguments, or the user's `cost`/`batchKey` threw: this call never entered.
      return Promise.reject(error)
    }
    const { signal, timeoutMs, priority } = s
    const full = this.mustWait(1)
    const refused = refusal(1, cost, full, this.closing, this.options, timeoutMs, this.drainMs(1, timeoutMs))
    if (refused !== undefined) return this.refuse(1, refused)
    if (signal?.aborted) {
      this.statistics.abortedAtDoor++
      this.statistics.cancelled++
      return Promise.reject(signal.reason)
    }
    const stamp = this.stamp()
    const entry = new Entry(item, key, cost, priority, ++this.seq, stamp)
    // The guard (and with it the entry's deadline) before it is queued: the queue's
    // deadline index reads the deadline when the entry goes in.
    const guard =
      signal !== undefined || timeoutMs !== Infinity
        ? new Guard(this.cancellation, entry, signal, timeoutMs, stamp.at + timeoutMs, s.delayedPriority)
        : undefined
    entry.guard = guard
    const promise = this.admit(entry, full)
    if (guard !== undefined) {
      if (signal !== undefined) signal.addEventListener('abort', guard)
      if (timeoutMs !== Infinity) guard.timer = setTimeout(onGuardTimeout, timeoutMs, guard)
    }
    return promise
  }

  /** The promise of an entry let in: it goes into the queue, or waits for room when `full`. */
  private admit(entry: Entry, full: boolean): Promise<Result> {
    // A closure per promise, not a shared executor reading the entry from a module-level
    // variable: that variable lives in old space, so writing a fresh entry into it costs
    // a write barrier on every submit, which measured ~7% slower than the closure
    // (docs/runtime-facts.md#v8-on-the-hot-path).
    const promise = new Promise<Result>((resolve, reject) => {
      entry.resolve = resolve as (value: unknown) => void
      entry.reject = reject
    })
    if (full) {
      this.waiters.push(entry)
      this.setDoor()
    } else this.enqueue(entry)
    return promise
  }

  /**
   * Whether a request of `n` items has to wait for room: the queue cannot take it, or
   * callers already wait (a new request must not overtake them).
   */
  private mustWait(n: number): boolean {
    return this.queues.size + n > this.options.maxQueueSize || this.waiters.count > 0
  }

  /** Sets `door` from what it stands for: to be called whenever one of them changes. */
  private setDoor(): void {
    this.door = this.closing || this.formation.readsDeadlines || this.waiters.count > 0 ? 0 : this.options.maxQueueSize
  }

  /** Refuses a request of `n` items at the door (see `refusal`): counted as `rejected`. */
  private refuse(n: number, error: Error): Promise<never> {
    this.statistics.rejected += n
    return Promise.reject(error)
  }

  /** `submit` with options that are not an object: rejects with the validator's own TypeError. */
  private rejectOptions(options: unknown): Promise<never> {
    try {
      resolveSubmit(options as SubmitOptions, this.submitOptions)
    } catch (error) {
      return Promise.reject(error)
    }
    // resolveSubmit throws for every non-object; reaching here would be a validator bug.
    return Promise.reject(new TypeError(`Expected \`options\` to be an object, got ${describe(options)}`))
  }

  /**
   * Queues the items of one request all together, or none of them: resolves with one
   * result per item, in order, or rejects with the first error. Admission is all or
   * nothing — with `whenFull: 'reject'` the request is refused with `QueueFullError`
   * unless the queue has room for every item; with `'wait'` it waits until it has.
   * Once any item fails (its own error, or its batch's), or the request is aborted or
   * times out, every other item is cancelled at once: removed from the queue if it has
   * not started, its result dropped if it is running. The request costs one abort
   * listener and one timer, whatever its size.
   *
   * `options` apply to the whole request (`cost`, when given, to each item). Rejects
   * with `RequestTooLargeError` when it holds more items than `maxQueueSize` (it could
   * never be admitted), and otherwise like `submit`. An empty request resolves to `[]`.
   * Never throws synchronously.
   */
  submitMany(items: readonly Item[], options?: SubmitOptions): Promise<Result[]> {
    if (!Array.isArray(items)) {
      return Promise.reject(new TypeError(`Expected \`items\` to be an array, got ${describe(items)}`))
    }
    const n = items.length
    const s: ResolvedSubmit = { signal: undefined, timeoutMs: Infinity, priority: 0, cost: undefined, delayedPriority: undefined }
    const costs = new Array<number>(n)
    const keys = this.options.batchKey === undefined ? undefined : new Array<unknown>(n)
    // The first cost over the budget, if any (the request is then refused whole).
    let tooLarge = 0
    try {
      if (options !== undefined) resolveSubmit(options, s)
      for (let i = 0; i < n; i++) {
        const cost = s.cost ?? this.costOf(items[i])
        if (cost > this.options.maxBatchCost) {
          tooLarge = cost
          break
        }
        costs[i] = cost
        if (keys !== undefined) keys[i] = (this.options.batchKey as (item: Item) => unknown)(items[i])
      }
    } catch (error) {
      return Promise.reject(error)
    }
    const full = this.mustWait(n)
    const refused = refusal(n, tooLarge, full, this.closing, this.options, s.timeoutMs, this.drainMs(n, s.timeoutMs))
    if (refused !== undefined) return this.refuse(n, refused)
    if (n === 0) return Promise.resolve([])
    const signal = s.signal
    if (signal?.aborted) {
      this.statistics.abortedAtDoor += n
      this.statistics.cancelled += n
      return Promise.reject(signal.reason)
    }

    const group = new Group(this.cancellation, n, this.seq + 1, signal, s.timeoutMs, s.delayedPriority)
    const promise = new Promise<Result[]>((resolve, reject) => {
      group.resolve = resolve as (value: unknown) => void
      group.reject = reject
    })
    const stamp = this.stamp()
    group.deadline = stamp.at + s.timeoutMs
    for (let i = 0; i < n; i++) {
      // Consecutive `seq`s: member i has `seq === group.firstSeq + i`.
      const entry = new Entry(items[i], keys?.[i], costs[i], s.priority, ++this.seq, stamp)
      entry.group = group
      group.members.push(entry)
      if (full) this.waiters.push(entry)
      else this.enqueue(entry)
    }
    if (full) this.setDoor()
    if (signal !== undefined) signal.addEventListener('abort', group)
    if (s.timeoutMs !== Infinity) group.timer = setTimeout(onGroupTimeout, s.timeoutMs, group)
    return promise
  }

  /**
   * Whether a request could be queued now, and how fast the queue drains — cheap
   * enough to read per request (no percentiles), for admission control in front of
   * `submitMany`.
   */
  get admission(): AdmissionState {
    return {
      queued: this.queues.size,
      waitingForRoom: this.waiters.count,
      maxQueueSize: this.options.maxQueueSize,
      whenFull: this.options.whenFull,
      drainRate: this.statistics.drainRate(this.now()),
      closing: this.closing,
    }
  }

  /**
   * Stops accepting items (`submit` rejects with `BatcherClosedError`). With `drain: true`
   * (default) everything queued — and every caller still waiting for room — is run,
   * without waiting for `minBatchSize`; with `drain: false` those are rejected with
   * `BatcherClosedError`. Either way it resolves once running batches have settled. A
   * second call returns the first call's promise (a `drain: false` call still rejects
   * what is queued at that moment, turning a draining close into a hard one).
   */
  close(options?: CloseOptions): Promise<void> {
    let drain: boolean
    try {
      drain = resolveClose(options)
    } catch (error) {
      return Promise.reject(error)
    }
    if (!drain) this.rejectPending(new BatcherClosedError('Batcher was closed before this item was processed'))
    return this.beginClose()
  }

  /**
   * Stops hard: rejects every item not yet settled — queued, waiting for room, running
   * or awaiting a re-run — with `error` (default: `BatcherClosedError` "Batcher was
   * destroyed"), and aborts the `context.signal` of running batches so processors may
   * stop early. Results that arrive later are dropped. Resolves, like `close()`, once
   * the running `processBatch` calls have settled (they are never left dangling).
   */
  destroy(error: unknown = new BatcherClosedError('Batcher was destroyed')): Promise<void> {
    this.rejectPending(error)
    for (let split = this.settlement.splitsPending.shift(); split !== undefined; split = this.settlement.splitsPending.shift()) {
      for (let i = 0; i < split.slots.length; i++) this.settlement.failSlot(split.slots, i, error)
    }
    for (const run of this.settlement.running) {
      if (run.dropped) continue
      for (let i = 0; i < run.slots.length; i++) this.settlement.failSlot(run.slots, i, error)
      run.dropped = true
      run.abort(error)
    }
    return this.beginClose()
  }

  private beginClose(): Promise<void> {
    if (this.closePromise === undefined) {
      this.closing = true
      this.setDoor()
      this.limits.flush = true
      this.closePromise = new Promise<void>((resolve) => {
        this.resolveClosed = resolve
      })
      this.schedulePump()
      this.checkClosed()
    }
    return this.closePromise
  }

  /** `await using batcher = new DynamicBatcher(...)` drains on scope exit. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  /** Changes `maxBatchSize` for batches formed from now on (running ones are untouched). */
  setMaxBatchSize(maxBatchSize: number): void {
    this.limits.maxBatchSize = integerOption('maxBatchSize', maxBatchSize, 1)
    this.schedulePump()
  }

  /** Changes `maxWaitMs`; applies to the items already queued too. */
  setMaxWaitMs(maxWaitMs: number): void {
    this.limits.maxWaitMs = numberOption('maxWaitMs', maxWaitMs, 0, { allowInfinity: true })
    this.clearTimer()
    this.schedulePump()
  }

  /**
   * Registers an observer of batch events (e.g. to feed histograms). Returns a
   * function that unsubscribes it. Observers run synchronously; one that throws is
   * ignored and never affects a batch.
   */
  observe(observer: BatcherObserver): () => void {
    if (observer === null || typeof observer !== 'object') {
      throw new TypeError(`Expected \`observer\` to be an object, got ${describe(observer)}`)
    }
    return this.statistics.observe(observer)
  }

  /** A plain snapshot of counters, gauges and recent percentiles. */
  get stats(): BatcherStats {
    return this.statistics.snapshot(
      {
        lastSeq: this.seq,
        queued: this.queues.size,
        inFlight: this.inFlight,
        inFlightItems: this.settlement.inFlightItems,
        waitingForRoom: this.waiters.count,
        maxBatchSize: this.limits.maxBatchSize,
        maxWaitMs: this.limits.maxWaitMs,
        slots: this.maxConcurrent,
        latencyEstimates: this.latency.estimates(estimateSizes(this.limits.maxBatchSize)),
      },
      this.now(),
    )
  }

  // ---------------------------------------------------------------- internals

  private costOf(item: Item): number {
    const cost = this.options.cost
    if (cost !== undefined) {
      // `checkCost`'s fast path written out: this runs for every item, and optimised
      // code checks an imported function's binding at every call to it
      // (docs/runtime-facts.md#v8-on-the-hot-path).
      const value = cost(item)
      return typeof value === 'number' && value >= 0 && value !== Infinity ? value : checkCost(value, 'cost(item)')
    }
    // Out of line: `costOf` is inlined into `submit`'s caller, within V8's budget of
    // bytecode, and the estimators' tests would take 80 bytes of it.
    return this.estimateCost(item)
  }

  /** The cost of an item without a `cost` option: its own estimate, if it has one, else 1. */
  private estimateCost(item: Item): number {
    if (item !== null && typeof item === 'object') {
      const estimator = item as { estimateCost?: unknown; estimateTokens?: unknown }
      if (typeof estimator.estimateCost === 'function') {
        return checkCost(estimator.estimateCost(), 'item.estimateCost()')
      }
      if (typeof estimator.estimateTokens === 'function') {
        return checkCost(estimator.estimateTokens(), 'item.estimateTokens()')
      }
    }
    return 1
  }

  private keyOf(item: Item): unknown {
    const batchKey = this.options.batchKey
    return batchKey === undefined ? undefined : batchKey(item)
  }

  private stamp(): Stamp {
    // A turn's first reading out of line: `stamp` is inlined into `submit`'s caller,
    // within V8's budget of bytecode (docs/runtime-facts.md#v8-on-the-hot-path).
    const stamp = this.currentStamp
    return stamp !== undefined ? stamp : this.readClock()
  }

  /** A new clock reading, shared by the rest of the turn with the default clock (see `coarseClock`). */
  private readClock(): Stamp {
    const stamp = new Stamp(this.now())
    if (this.coarseClock) {
      this.currentStamp = stamp
      void resolved.then(this.resetStamp)
    }
    return stamp
  }

  private enqueue(entry: Entry): void {
    this.queues.push(entry)
    if (this.inFlight < this.maxConcurrent) this.schedulePump()
  }

  /** Moves callers waiting for room into the queue while there is room (see `Waiters.admit`). */
  private admitWaiters(): void {
    if (this.waiters.count === 0) return
    const admitted = this.waiters.admit(this.queues, this.options.maxQueueSize)
    if (admitted === 0) return
    this.setDoor()
    if (this.inFlight < this.maxConcurrent) this.schedulePump()
  }

  private schedulePump(): void {
    // Formation runs in a microtask, not inside `submit`: items submitted in the same
    // synchronous burst (or the same round of promise continuations) end up in one
    // batch instead of the first one going alone.
    // `=== true`, not a truth test: this runs for every item, with `pumpScheduled` true
    // for all but a turn's first, and optimised code tested the field as any value could
    // be (false, '', undetectable, number, bigint) before it reached `true`.
    if (this.pumpScheduled === true || this.pumping === true) return
    this.pumpScheduled = true
    void resolved.then(this.pumpBound)
  }

  /**
   * Pull-based formation: while a batch slot is free, form a batch and start it.
   * Halves of failed batches (isolateFailures) go before new batches: they hold items
   * that have already waited for a whole batch run, and letting new work overtake them
   * would make their latency unbounded under load. Re-entrancy: a processor that
   * returns synchronously settles inside this loop; `pumping` keeps that from
   * scheduling or nesting another pump, and the loop simply continues.
   */
  private pump(): void {
    this.pumpScheduled = false
    if (this.pumping) return
    this.pumping = true
    let deadline = Infinity
    try {
      while (this.inFlight < this.maxConcurrent) {
        if (this.settlement.splitsPending.length > 0) {
          this.startSplit(this.settlement.splitsPending.shift() as PendingSplit)
          continue
        }
        if (this.queues.size === 0) break
        const step = this.formation.next()
        if (step.kind === 'wait') {
          deadline = step.until
          break
        }
        if (step.kind === 'fail') {
          const now = this.clock()
          // Only queued entries of this batcher: a user's formation may name anything.
          for (const item of step.items)
            if (item instanceof Entry && item.state === QUEUED) this.settlement.expire(item, now, step.endsAt, step.batchSize)
          this.admitWaiters()
          continue
        }
        // The batch comes out as ready-made arrays: its items, handed to `processBatch`,
        // and how to settle each, entries marked running (see `PriorityQueue.take`).
        const queue = step.queue as PriorityQueue<Entry>
        const before = queue.size
        const max = this.limits.maxBatchSize
        const taken = this.queues.take(queue, step.size < max ? step.size : max, this.limits.maxBatchCost)
        this.admitWaiters()
        const reason = step.reason ?? this.reasonOf(before, taken.slots.length, queue.size)
        this.start(taken.slots, queue.key, taken.cost, 0, reason, reason === 'probe')
      }
    } finally {
      this.pumping = false
      this.firedDeadline = -Infinity
    }
    if (deadline !== Infinity) this.armTimer(deadline)
    else if (this.queues.size === 0) this.clearTimer()
    if (this.closing) this.checkClosed()
  }

  /**
   * Estimated time (ms) until a request of `n` items that arrives now would have run
   * (`Formation.admissionMs`); 0, never refused, without a `timeoutMs` or a formation
   * that reads deadlines and estimates it.
   */
  private drainMs(n: number, timeoutMs: number): number {
    return this.formation.admissionMs(n, this.queues.size + this.waiters.count + n, timeoutMs)
  }

  /** Nothing runs and no re-run waits (deadline formation probes only then). */
  private idle(): boolean {
    return this.inFlight === 0 && this.settlement.splitsPending.length === 0
  }

  private armTimer(deadline: number): void {
    if (this.timer !== undefined && this.timerDeadline === deadline) return
    this.clearTimer()
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, deadline - this.now()))
    this.timerDeadline = deadline
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.timerDeadline = Infinity
      this.firedDeadline = deadline
      this.pump()
    }, delay)
  }

  private clearTimer(): void {
    if (this.timer === undefined) return
    clearTimeout(this.timer)
    this.timer = undefined
    this.timerDeadline = Infinity
  }

  private startSplit(split: PendingSplit): void {
    const from = split.slots
    const slots = new Slots<Entry>([], [])
    let cost = 0
    // Nothing out of reach is re-run either: a half is cut short to the items whose
    // deadline its run could still meet (by the formation's figure; else not passed yet).
    const now = this.clock()
    const endsAt = this.formation.formation.rerunEndsAt?.(now, from.length) ?? now
    for (let i = 0; i < from.length; i++) {
      const entry = from.records[i]
      if (isNode(entry)) {
        if (entry.state !== RETRY) continue // settled (aborted/timed out) meanwhile
        if (deadlineOf(entry) < endsAt) {
          this.settlement.expire(entry, now, endsAt, from.length)
          continue
        }
        entry.state = RUNNING
      }
      slots.copy(from, i)
      cost += entry.cost
    }
    if (slots.length > 0) this.start(slots, split.key, cost, split.splitDepth, 'split')
  }

  /**
   * Why a batch of count formation went (`BatchReason`), from the queue's size before
   * and after the batch was taken: a few comparisons, once per batch.
   */
  private reasonOf(before: number, taken: number, left: number): BatchReason {
    const limits = this.limits
    // Items left behind: the batch stopped at its count or its cost budget.
    if (left > 0 || taken >= limits.maxBatchSize) return 'full'
    const min = limits.minBatchSize < limits.maxBatchSize ? limits.minBatchSize : limits.maxBatchSize
    if (before >= min) return min > 1 ? 'min' : 'idle'
    return this.closing ? 'drain' : 'timer'
  }

  /**
   * Starts one batch, its entries already marked running, in a free slot and routes its
   * outcome. Nothing late runs, whatever the formation: an entry whose deadline has
   * passed is left out and fails with `DeadlineExceededError` (a probe excepted: it runs
   * to learn, however late).
   */
  private start(slots: Slots<Entry>, key: unknown, cost: number, splitDepth: number, reason: BatchReason, probe?: boolean): void {
    const now = this.now()
    let late: Entry[] | undefined
    if (!slots.plain && !probe) {
      late = this.settlement.lateIn(slots, now)
      if (late !== undefined) {
        const from = slots
        slots = from.filter((i) => (from.records[i] as Entry).state !== DETACHED)
        cost = 0
        for (const record of slots.records) cost += record.cost
      }
    }
    if (slots.length > 0) this.run(slots, key, cost, splitDepth, reason, now, probe)
    // Failed once the others are running: a late member's request fails whole, and its
    // siblings in this batch are then found running (their results dropped).
    // A late sibling may have settled with the first of them: each fails once.
    if (late !== undefined)
      for (const entry of late) if (entry.state === DETACHED) this.settlement.expire(entry, now, now, slots.length + late.length)
  }

  /** Runs one batch (see `start`). */
  private run(
    slots: Slots<Entry>,
    key: unknown,
    cost: number,
    splitDepth: number,
    reason: BatchReason,
    now: number,
    probe?: boolean,
  ): void {
    const running = this.inFlight++
    const items = slots.items
    const run = new Run(slots, now, ++this.batchSeq, key, cost, splitDepth, reason, probe)
    this.settlement.running.add(run)
    if (splitDepth === 0) this.settlement.inFlightItems += items.length
    this.statistics.dispatched(run, now, running)

    let out: ReturnType<ProcessBatch<Item, Result>>
    let thenable: boolean
    try {
      out = this.processBatch(items as Item[], run.context)
      // Inside the try: a hostile `then` getter counts as the processor throwing.
      thenable = out !== null && typeof out === 'object' && typeof (out as PromiseLike<unknown>).then === 'function'
    } catch (error) {
      this.settlement.onFailure(run, error)
      return
    }
    if (thenable) {
      // Both outcomes are handled here, so a processor that rejects after all of its
      // items were cancelled never surfaces as an unhandled rejection. Neither handler
      // throws (observers are guarded), so the derived promise never rejects either.
      Promise.resolve(out).then(
        (results) => this.settlement.onResults(run, results),
        (error: unknown) => this.settlement.onFailure(run, error),
      )
    } else {
      this.settlement.onResults(run, out)
    }
  }

  private finishRun(run: Run, ok: boolean): void {
    const now = this.now()
    this.formation.formation.settled?.(now)
    const running = this.inFlight--
    this.settlement.running.delete(run)
    // A batch whose items had all gone before it ran (`context.aborted`) did no real work.
    if (ok && !run.context.aborted) {
      // A probe answered in time although the model called it hopeless: what the model
      // remembers (a stall's runs and hand-offs) is out of date. Nothing else would
      // correct it: with every queued row hopeless by it, nothing else runs, and one
      // probe's sample would not move a p90 of 64 hand-offs.
      if (run.probe && deadlineOf(run.entries[0] as Entry) >= now) this.latency.forget()
      const elapsed = now - run.startedAt
      const ran = run.context.runMs
      // Measured where it ran (`reportRunMs`): the run, and the hand-off around it apart.
      // Not above the elapsed time: clocks of two threads may disagree by a rounding.
      if (ran >= 0 && ran <= elapsed) this.latency.record(run.entries.length, ran, elapsed - ran)
      else this.latency.record(run.entries.length, elapsed)
    }
    this.statistics.settled(run, now, running, ok)
  }

  private afterRun(): void {
    // Inside a pump (synchronous processor) the loop continues by itself.
    if (!this.pumping) this.pump()
  }

  /** close({ drain: false }) / destroy(): rejects everything queued or waiting for room. */
  private rejectPending(error: unknown): void {
    const queued = this.queues.takeAll()
    const waiting: Entry[] = []
    this.waiters.takeAll(waiting)
    this.setDoor()
    this.clearTimer()
    if (queued !== undefined) {
      // Taken out of the queues, the entries are marked as running: they never ran.
      for (const entry of queued.records) if (isNode(entry)) entry.state = DETACHED
      // A member's failure cancels its siblings, which may be further on.
      for (let i = 0; i < queued.length; i++) this.settlement.failSlot(queued, i, error, false)
    }
    for (const entry of waiting) if (entry.state !== SETTLED) this.settlement.fail(entry, error)
  }

  private checkClosed(): void {
    if (
      this.resolveClosed !== undefined &&
      this.queues.size === 0 &&
      this.waiters.count === 0 &&
      this.inFlight === 0 &&
      this.settlement.splitsPending.length === 0
    ) {
      this.clearTimer()
      const resolve = this.resolveClosed
      this.resolveClosed = undefined
      resolve()
    }
  }
}

/** Sizes at which `stats.latencyEstimates` shows the model: 1, 2, 4, … and `maxBatchSize`. */
function estimateSizes(maxBatchSize: number): number[] {
  const sizes: number[] = []
  for (let size = 1; size < maxBatchSize; size *= 2) sizes.push(size)
  sizes.push(maxBatchSize)
  return sizes
}
