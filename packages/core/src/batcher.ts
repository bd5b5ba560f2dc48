import { chooseQueue, type FormationLimits } from './batch-formation.js'
import { Entry, Guard, Stamp, kCancel, onGuardTimeout, QUEUED, RETRY, RUNNING, SETTLED, WAITING, type EntryOwner } from './entry.js'
import { BatchSizeMismatchError, BatcherClosedError, ItemTooLargeError, QueueFullError, RequestTooLargeError } from './errors.js'
import { Group, kCancelGroup, onGroupTimeout, type GroupOwner } from './group.js'
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
import { Fifo, PriorityQueue } from './queue.js'
import { BusyTime, RateMeter, SampleWindow } from './stats.js'
import type {
  AdmissionState,
  BatchContext,
  BatcherObserver,
  BatcherStats,
  BatchDispatchEvent,
  BatchSettleEvent,
  CloseOptions,
  DynamicBatcherOptions,
  ProcessBatch,
  SubmitOptions,
} from './types.js'

type AnyEntry = Entry

/** `BatchContext` handed to `processBatch`. The AbortController is made only if read. */
class Context implements BatchContext {
  private controller: AbortController | undefined
  aborted = false
  private reason: unknown

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

  abort(reason: unknown): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason
    this.controller?.abort(reason)
  }
}

/** One call of `processBatch` in progress. */
class Run {
  /** Entries not yet settled (cancellation settles them early). */
  live: number
  readonly context: Context

  constructor(
    readonly entries: AnyEntry[],
    readonly startedAt: number,
    batchId: number,
    key: unknown,
    readonly cost: number,
    readonly splitDepth: number,
  ) {
    this.live = entries.length
    this.context = new Context(batchId, key, cost, splitDepth)
  }

  abort(reason: unknown): void {
    this.context.abort(reason)
  }
}

/** Half of a failed batch waiting to be re-run (`isolateFailures`). */
interface PendingSplit {
  entries: AnyEntry[]
  key: unknown
  splitDepth: number
}

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
 */
export class DynamicBatcher<Item, Result> implements AsyncDisposable, EntryOwner, GroupOwner {
  private readonly processBatch: ProcessBatch<Item, Result>
  private readonly options: ResolvedOptions<Item>
  private readonly limits: FormationLimits
  private readonly now: () => number
  private readonly maxConcurrent: number

  /** One priority queue per batch key (one in all without `batchKey`). */
  private readonly queues = new Map<unknown, PriorityQueue<AnyEntry>>()
  private lastKey: unknown
  private lastQueue: PriorityQueue<AnyEntry> | undefined
  private queuedCount = 0
  /** `submit` calls waiting for room (whenFull: 'wait'); cancelled ones are tombstones. */
  private readonly waiters = new Fifo<AnyEntry>()
  private waitingCount = 0
  private waitersDead = 0
  /** Halves of failed batches; they go before any new batch (see `pump`). */
  private readonly splitsPending = new Fifo<PendingSplit>()

  private inFlight = 0
  /** Running batches, for `destroy()`. */
  private readonly running = new Set<Run>()
  private inFlightItems = 0
  private seq = 0
  private batchSeq = 0

  private submitted = 0
  private completed = 0
  private failed = 0
  private cancelled = 0
  private timedOut = 0
  private rejected = 0
  private batches = 0
  private splits = 0
  private itemsDispatched = 0
  private readonly batchSizes: SampleWindow
  private readonly queueWaits: SampleWindow
  private readonly processingTimes: SampleWindow
  private readonly busy: BusyTime
  private readonly drained: RateMeter
  private observers: readonly BatcherObserver[] = []

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
  private readonly submitOptions: ResolvedSubmit = { signal: undefined, timeoutMs: Infinity, priority: 0, cost: undefined }
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
    this.batchSizes = new SampleWindow(o.statsWindow)
    this.queueWaits = new SampleWindow(o.statsWindow)
    this.processingTimes = new SampleWindow(o.statsWindow)
    this.busy = new BusyTime(this.now())
    this.drained = new RateMeter(this.now())
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
    if (options === undefined || this.closing) return this.enter(item, undefined, undefined, undefined, undefined)
    if (options === null || typeof options !== 'object') return this.rejectOptions(options)
    let signal: unknown, timeoutMs: unknown, priority: unknown, cost: unknown
    try {
      signal = options.signal
      timeoutMs = options.timeoutMs
      priority = options.priority
      cost = options.cost
    } catch (error) {
      return Promise.reject(error) // a throwing getter
    }
    return this.enter(item, signal, timeoutMs, priority, cost)
  }

  /** `submit` with its options read off the object, not validated yet. */
  private enter(item: Item, signalOption: unknown, timeoutOption: unknown, priorityOption: unknown, costOption: unknown): Promise<Result> {
    if (this.closing) {
      this.rejected++
      return Promise.reject(new BatcherClosedError())
    }
    let signal: AbortSignal | undefined
    let timeoutMs = Infinity
    let priority = 0
    let cost: number
    let key: unknown
    try {
      if (
        signalOption === undefined &&
        timeoutOption === undefined &&
        costOption === undefined &&
        (priorityOption === undefined || (typeof priorityOption === 'number' && Number.isFinite(priorityOption)))
      ) {
        // The common case (nothing but a valid priority, if anything): nothing to copy.
        if (priorityOption !== undefined) priority = priorityOption
        cost = this.costOf(item)
      } else {
        const s = this.submitOptions
        resolveSubmitFields(signalOption, timeoutOption, priorityOption, costOption, s)
        signal = s.signal
        timeoutMs = s.timeoutMs
        priority = s.priority
        cost = s.cost ?? this.costOf(item)
      }
      if (this.options.batchKey !== undefined) key = this.options.batchKey(item)
    } catch (error) {
      // Bad arguments, or the user's `cost`/`batchKey` threw: this call never entered.
      return Promise.reject(error)
    }
    if (cost > this.options.maxBatchCost) {
      this.rejected++
      return Promise.reject(new ItemTooLargeError(cost, this.options.maxBatchCost))
    }
    // Waiters go first: a new item must not overtake a caller already waiting for room.
    const full = this.queuedCount >= this.options.maxQueueSize || this.waitingCount > 0
    if (full && this.options.whenFull === 'reject') {
      this.rejected++
      return Promise.reject(new QueueFullError(this.options.maxQueueSize))
    }
    this.submitted++
    if (signal?.aborted) {
      this.cancelled++
      return Promise.reject(signal.reason)
    }

    const entry = new Entry(item, key, cost, priority, ++this.seq, this.stamp())
    // A closure per promise, not a shared executor reading the entry from a module-level
    // variable: that variable lives in old space, so writing a fresh entry into it costs
    // a write barrier on every submit, which measured ~7% slower than the closure
    // (docs/runtime-facts.md#v8-on-the-hot-path).
    const promise = new Promise<Result>((resolve, reject) => {
      entry.resolve = resolve as (value: unknown) => void
      entry.reject = reject
    })
    if (signal !== undefined || timeoutMs !== Infinity) {
      const guard = new Guard(this, entry, signal, timeoutMs)
      entry.guard = guard
      if (signal !== undefined) signal.addEventListener('abort', guard)
      if (timeoutMs !== Infinity) guard.timer = setTimeout(onGuardTimeout, timeoutMs, guard)
    }
    if (full) {
      entry.state = WAITING
      this.waiters.push(entry)
      this.waitingCount++
    } else {
      this.enqueue(entry)
    }
    return promise
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
    if (this.closing) {
      this.rejected += n
      return Promise.reject(new BatcherClosedError())
    }
    const s: ResolvedSubmit = { signal: undefined, timeoutMs: Infinity, priority: 0, cost: undefined }
    const costs = new Array<number>(n)
    const keys = this.options.batchKey === undefined ? undefined : new Array<unknown>(n)
    try {
      if (options !== undefined) resolveSubmit(options, s)
      for (let i = 0; i < n; i++) {
        const cost = s.cost ?? this.costOf(items[i])
        if (cost > this.options.maxBatchCost) {
          this.rejected += n
          return Promise.reject(new ItemTooLargeError(cost, this.options.maxBatchCost))
        }
        costs[i] = cost
        if (keys !== undefined) keys[i] = (this.options.batchKey as (item: Item) => unknown)(items[i])
      }
    } catch (error) {
      return Promise.reject(error)
    }
    if (n === 0) return Promise.resolve([])
    const maxQueueSize = this.options.maxQueueSize
    if (n > maxQueueSize) {
      this.rejected += n
      return Promise.reject(new RequestTooLargeError(n, maxQueueSize))
    }
    const full = this.queuedCount + n > maxQueueSize || this.waitingCount > 0
    if (full && this.options.whenFull === 'reject') {
      this.rejected += n
      return Promise.reject(new QueueFullError(maxQueueSize))
    }
    this.submitted += n
    const signal = s.signal
    if (signal?.aborted) {
      this.cancelled += n
      return Promise.reject(signal.reason)
    }

    const group = new Group(this, n, this.seq + 1, signal, s.timeoutMs)
    const promise = new Promise<Result[]>((resolve, reject) => {
      group.resolve = resolve as (value: unknown) => void
      group.reject = reject
    })
    const stamp = this.stamp()
    for (let i = 0; i < n; i++) {
      // Consecutive `seq`s: member i has `seq === group.firstSeq + i`.
      const entry = new Entry(items[i], keys?.[i], costs[i], s.priority, ++this.seq, stamp)
      entry.group = group
      group.members.push(entry)
      if (full) {
        entry.state = WAITING
        this.waiters.push(entry)
      } else {
        this.enqueue(entry)
      }
    }
    if (full) this.waitingCount += n
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
      queued: this.queuedCount,
      waitingForRoom: this.waitingCount,
      maxQueueSize: this.options.maxQueueSize,
      whenFull: this.options.whenFull,
      drainRate: this.drained.rate(this.now()),
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
    for (let split = this.splitsPending.shift(); split !== undefined; split = this.splitsPending.shift()) {
      for (const entry of split.entries) if (entry.state === RETRY) this.fail(entry, error)
    }
    for (const run of this.running) {
      for (const entry of run.entries) if (entry.state === RUNNING) this.fail(entry, error)
      run.abort(error)
    }
    return this.beginClose()
  }

  private beginClose(): Promise<void> {
    if (this.closePromise === undefined) {
      this.closing = true
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
    // Copy on write: an observer that unsubscribes during an event does not disturb
    // the iteration in progress.
    this.observers = [...this.observers, observer]
    return () => {
      this.observers = this.observers.filter((o) => o !== observer)
    }
  }

  /** A plain snapshot of counters, gauges and recent percentiles. */
  get stats(): BatcherStats {
    const now = this.now()
    return {
      submitted: this.submitted,
      completed: this.completed,
      failed: this.failed,
      cancelled: this.cancelled,
      timedOut: this.timedOut,
      rejected: this.rejected,
      batches: this.batches,
      splits: this.splits,
      queued: this.queuedCount,
      inFlight: this.inFlight,
      inFlightItems: this.inFlightItems,
      waitingForRoom: this.waitingCount,
      avgBatchSize: this.batches === 0 ? 0 : this.itemsDispatched / this.batches,
      utilization: this.busy.utilization(now, this.inFlight, this.maxConcurrent),
      batchSize: this.batchSizes.percentiles(),
      queueWaitMs: this.queueWaits.percentiles(),
      processingMs: this.processingTimes.percentiles(),
      maxBatchSize: this.limits.maxBatchSize,
      maxWaitMs: this.limits.maxWaitMs,
      drainRate: this.drained.rate(now),
    }
  }

  /** Abort listener / timeout of an entry: settles it at once, whatever its state. */
  [kCancel](entry: AnyEntry, reason: unknown, timedOut: boolean): void {
    if (entry.state === SETTLED) return
    this.cancel(entry, reason, timedOut)
    this.admitWaiters()
    if (this.closing) this.checkClosed()
  }

  /** Abort listener / timeout of a `submitMany` request: settles all of it at once. */
  [kCancelGroup](group: Group, reason: unknown, timedOut: boolean): void {
    if (group.settled) return
    group.release()
    group.reject(reason)
    for (const member of group.members) if (member.state !== SETTLED) this.cancel(member, reason, timedOut)
    this.admitWaiters()
    if (this.closing) this.checkClosed()
  }

  /** Unlinks an unsettled entry from wherever it is, counts it cancelled and rejects it. */
  private cancel(entry: AnyEntry, reason: unknown, timedOut: boolean): void {
    switch (entry.state) {
      case WAITING:
        this.waitingCount--
        if (++this.waitersDead > 64 && this.waitersDead > this.waitingCount) {
          this.waiters.retain(isWaiting)
          this.waitersDead = 0
        }
        break
      case QUEUED: {
        // Not `queued` any more: already taken out (by a pump about to start it, or by
        // rejectPending); only the state is left to settle.
        if (!entry.queued) break
        const queue = this.queueOf(entry.key) as PriorityQueue<AnyEntry>
        queue.remove(entry)
        this.queuedCount--
        if (queue.size === 0) this.dropQueue(queue)
        break
      }
      case RUNNING: {
        // Its batch keeps running; the result in its slot will be dropped. When every
        // item of the batch is gone, tell the processor it may stop.
        const run = entry.batch as Run
        if (--run.live === 0) run.abort(reason)
        break
      }
      // RETRY: nothing to unlink; the pending split skips settled entries.
    }
    this.cancelled++
    if (timedOut) this.timedOut++
    this.settle(entry)
    this.rejectEntry(entry, reason)
  }

  /** Delivers an entry's result: to its own caller, or into its request's results. */
  private resolveEntry(entry: AnyEntry, value: unknown): void {
    const group = entry.group
    if (group === undefined) {
      entry.resolve(value)
      return
    }
    if (group.settled) return
    group.results[entry.seq - group.firstSeq] = value
    if (--group.remaining === 0) {
      group.release()
      group.resolve(group.results)
    }
  }

  /**
   * Delivers an entry's error. For a member of a request, the first error settles the
   * request, and every sibling still unsettled is cancelled with the same reason: its
   * caller is gone, so it must not be computed (or its result is dropped if running).
   */
  private rejectEntry(entry: AnyEntry, reason: unknown): void {
    const group = entry.group
    if (group === undefined) {
      entry.reject(reason)
      return
    }
    if (group.settled) return
    group.release()
    group.reject(reason)
    for (const member of group.members) if (member.state !== SETTLED) this.cancel(member, reason, false)
    // Room freed by the cancelled siblings goes to callers waiting for it.
    this.admitWaiters()
  }

  // ---------------------------------------------------------------- internals

  private costOf(item: Item): number {
    const cost = this.options.cost
    if (cost !== undefined) return checkCost(cost(item), 'cost(item)')
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

  private stamp(): Stamp {
    let stamp = this.currentStamp
    if (stamp === undefined) {
      stamp = new Stamp(this.now())
      if (this.coarseClock) {
        this.currentStamp = stamp
        queueMicrotask(this.resetStamp)
      }
    }
    return stamp
  }

  private enqueue(entry: AnyEntry): void {
    const key = entry.key
    let queue = this.lastQueue
    // Cache of the last key's queue: a stream of same-key items never touches the Map.
    if (queue === undefined || !sameKey(key, this.lastKey)) {
      queue = this.queues.get(key)
      if (queue === undefined) {
        queue = new PriorityQueue<AnyEntry>(key)
        this.queues.set(key, queue)
      }
      this.lastKey = key
      this.lastQueue = queue
    }
    entry.state = QUEUED
    queue.push(entry)
    this.queuedCount++
    if (this.inFlight < this.maxConcurrent) this.schedulePump()
  }

  /** The key queue holding `key`'s items (a live QUEUED entry's queue always exists). */
  private queueOf(key: unknown): PriorityQueue<AnyEntry> | undefined {
    return this.lastQueue !== undefined && sameKey(key, this.lastKey) ? this.lastQueue : this.queues.get(key)
  }

  private dropQueue(queue: PriorityQueue<AnyEntry>): void {
    // With `batchKey`, keys come and go: forget empty queues so the Map stays bounded.
    // Without it there is one queue for ever.
    if (this.options.batchKey === undefined) return
    this.queues.delete(queue.key)
    if (this.lastQueue === queue) this.lastQueue = undefined
  }

  /**
   * Moves callers waiting for room into the queue while there is room, first come
   * first served. A request of several items (`submitMany`) goes in whole, once there
   * is room for all of it; its members are contiguous in `waiters`.
   */
  private admitWaiters(): void {
    const max = this.options.maxQueueSize
    while (this.waitingCount > 0 && this.queuedCount < max) {
      const entry = this.waiters.peek() as AnyEntry
      if (entry.state !== WAITING) {
        this.waiters.shift()
        this.waitersDead--
        continue
      }
      const size = entry.group === undefined ? 1 : entry.group.members.length
      if (this.queuedCount + size > max) return
      for (let i = 0; i < size; i++) {
        const member = this.waiters.shift() as AnyEntry
        this.waitingCount--
        this.enqueue(member)
      }
    }
  }

  private schedulePump(): void {
    // Formation runs in a microtask, not inside `submit`: items submitted in the same
    // synchronous burst (or the same round of promise continuations) end up in one
    // batch instead of the first one going alone.
    if (this.pumpScheduled || this.pumping) return
    this.pumpScheduled = true
    queueMicrotask(this.pumpBound)
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
        if (this.splitsPending.length > 0) {
          this.startSplit(this.splitsPending.shift() as PendingSplit)
          continue
        }
        if (this.queuedCount === 0) break
        const choice = chooseQueue(this.queues.values(), this.limits, this.clock)
        const queue = choice.queue
        if (queue === undefined) {
          deadline = choice.deadline
          break
        }
        const entries: AnyEntry[] = []
        const { cost } = queue.take(this.limits.maxBatchSize, this.limits.maxBatchCost, entries)
        this.queuedCount -= entries.length
        if (queue.size === 0) this.dropQueue(queue)
        this.admitWaiters()
        this.start(entries, queue.key, cost, 0)
      }
    } finally {
      this.pumping = false
      this.firedDeadline = -Infinity
    }
    if (deadline !== Infinity) this.armTimer(deadline)
    else if (this.queuedCount === 0) this.clearTimer()
    if (this.closing) this.checkClosed()
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
    const entries: AnyEntry[] = []
    let cost = 0
    for (const entry of split.entries) {
      if (entry.state !== RETRY) continue // settled (aborted/timed out) meanwhile
      entries.push(entry)
      cost += entry.cost
    }
    if (entries.length > 0) this.start(entries, split.key, cost, split.splitDepth)
  }

  /** Starts one batch in a free slot and routes its outcome. */
  private start(entries: AnyEntry[], key: unknown, cost: number, splitDepth: number): void {
    const now = this.now()
    const n = entries.length
    this.busy.advance(now, this.inFlight)
    this.inFlight++
    const run = new Run(entries, now, ++this.batchSeq, key, cost, splitDepth)
    this.running.add(run)
    const items = new Array<Item>(n)
    for (let i = 0; i < n; i++) {
      const entry = entries[i]
      entry.state = RUNNING
      entry.batch = run
      items[i] = entry.item as Item
    }
    // Queue waits are recorded for first runs only: a re-run's wait is the failed run.
    if (splitDepth === 0) recordWaits(this.queueWaits, entries, now)
    this.batches++
    this.itemsDispatched += n
    this.batchSizes.record(n)
    if (splitDepth === 0) {
      this.inFlightItems += n
      this.drained.add(now, n)
    } else this.splits++
    if (this.observers.length > 0) this.emitDispatch(run, now)

    let out: ReturnType<ProcessBatch<Item, Result>>
    let thenable: boolean
    try {
      out = this.processBatch(items, run.context)
      // Inside the try: a hostile `then` getter counts as the processor throwing.
      thenable = out !== null && typeof out === 'object' && typeof (out as PromiseLike<unknown>).then === 'function'
    } catch (error) {
      this.onFailure(run, error)
      return
    }
    if (thenable) {
      // Both outcomes are handled here, so a processor that rejects after all of its
      // items were cancelled never surfaces as an unhandled rejection. Neither handler
      // throws (observers are guarded), so the derived promise never rejects either.
      Promise.resolve(out).then(
        (results) => this.onResults(run, results),
        (error: unknown) => this.onFailure(run, error),
      )
    } else {
      this.onResults(run, out)
    }
  }

  private onResults(run: Run, results: unknown): void {
    const entries = run.entries
    const n = entries.length
    const ok = Array.isArray(results) && results.length === n
    this.finishRun(run, ok)
    if (!ok) {
      const error = Array.isArray(results)
        ? new BatchSizeMismatchError(n, results.length)
        : new TypeError(`Expected \`processBatch\` to return an array of ${n} results, got ${describe(results)}`)
      for (const entry of entries) if (entry.state === RUNNING) this.fail(entry, error)
    } else {
      for (let i = 0; i < n; i++) {
        const entry = entries[i]
        if (entry.state !== RUNNING) continue // cancelled while running: result dropped
        const result = (results as unknown[])[i]
        if (result instanceof Error) {
          this.fail(entry, result)
        } else {
          this.completed++
          this.settle(entry)
          this.resolveEntry(entry, result)
        }
      }
    }
    this.afterRun()
  }

  private onFailure(run: Run, error: unknown): void {
    this.finishRun(run, false)
    const entries = run.entries
    if (this.options.isolateFailures && entries.length > 1) {
      // Split what is still live in halves, each re-run on its own; recursion ends at
      // single items, which then fail with their own error.
      const live: AnyEntry[] = []
      for (const entry of entries) {
        if (entry.state !== RUNNING) continue
        entry.state = RETRY
        entry.batch = undefined
        live.push(entry)
      }
      if (live.length > 0) {
        const mid = Math.ceil(live.length / 2)
        const splitDepth = run.splitDepth + 1
        this.splitsPending.push({ entries: live.slice(0, mid), key: run.context.key, splitDepth })
        if (mid < live.length) this.splitsPending.push({ entries: live.slice(mid), key: run.context.key, splitDepth })
      }
    } else {
      for (const entry of entries) if (entry.state === RUNNING) this.fail(entry, error)
    }
    this.afterRun()
  }

  private finishRun(run: Run, ok: boolean): void {
    const now = this.now()
    this.busy.advance(now, this.inFlight)
    this.inFlight--
    this.running.delete(run)
    const processingMs = now - run.startedAt
    this.processingTimes.record(processingMs)
    if (this.observers.length > 0) {
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
  }

  private afterRun(): void {
    // Inside a pump (synchronous processor) the loop continues by itself.
    if (!this.pumping) this.pump()
  }

  private emitDispatch(run: Run, now: number): void {
    const entries = run.entries
    const queueWaitsMs = new Array<number>(entries.length)
    for (let i = 0; i < entries.length; i++) queueWaitsMs[i] = now - entries[i].enqueuedAt
    const event: BatchDispatchEvent = {
      batchId: run.context.batchId,
      size: entries.length,
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

  private fail(entry: AnyEntry, error: unknown): void {
    this.failed++
    this.settle(entry)
    this.rejectEntry(entry, error)
  }

  /** Marks an entry settled and releases its timer, listener and links. Call once. */
  private settle(entry: AnyEntry): void {
    if (entry.state === RUNNING || entry.state === RETRY) this.inFlightItems--
    entry.state = SETTLED
    if (entry.guard !== undefined) entry.guard.release()
    entry.batch = undefined
  }

  /** close({ drain: false }) / destroy(): rejects everything queued or waiting for room. */
  private rejectPending(error: unknown): void {
    const pending: AnyEntry[] = []
    for (const queue of this.queues.values()) queue.take(Infinity, Infinity, pending)
    this.queues.clear()
    this.lastQueue = undefined
    this.queuedCount = 0
    for (let entry = this.waiters.shift(); entry !== undefined; entry = this.waiters.shift()) {
      if (entry.state !== WAITING) continue
      // Out of `waiters` now: as a taken-out queued entry (`queued` false), cancelling it
      // with its request's siblings below unlinks nothing and counts nothing twice.
      entry.state = QUEUED
      pending.push(entry)
    }
    this.waitingCount = 0
    this.waitersDead = 0
    this.clearTimer()
    // A member's failure cancels its siblings, which may be further on in `pending`.
    for (const entry of pending) if (entry.state !== SETTLED) this.fail(entry, error)
  }

  private checkClosed(): void {
    if (
      this.resolveClosed !== undefined &&
      this.queuedCount === 0 &&
      this.waitingCount === 0 &&
      this.inFlight === 0 &&
      this.splitsPending.length === 0
    ) {
      this.clearTimer()
      const resolve = this.resolveClosed
      this.resolveClosed = undefined
      resolve()
    }
  }
}

function isWaiting(entry: AnyEntry): boolean {
  return entry.state === WAITING
}

/**
 * The Map's own key equality (SameValueZero), inline: `Object.is` is a call into a
 * builtin on every submit.
 */
function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b)
}

/**
 * Records the queue wait of every entry of a batch. Entries submitted in the same turn
 * share a `Stamp`, so a batch is a few runs of equal waits: each run is one `recordRun`
 * (a typed-array fill) instead of a `record` per item. Same samples, same order.
 */
function recordWaits(waits: SampleWindow, entries: readonly AnyEntry[], now: number): void {
  let stamp = entries[0].stamp
  let count = 0
  for (let i = 0; i < entries.length; i++) {
    const next = entries[i].stamp
    if (next !== stamp) {
      waits.recordRun(now - stamp.at, count)
      stamp = next
      count = 0
    }
    count++
  }
  waits.recordRun(now - stamp.at, count)
}
