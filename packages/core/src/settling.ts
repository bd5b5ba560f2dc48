import { deadlineOf, DETACHED, QUEUED, RETRY, RUNNING, SETTLED, WAITING, type Entry } from './entry.js'
import { BatchSizeMismatchError, DeadlineExceededError } from './errors.js'
import { Fifo } from './fifo.js'
import type { KeyedQueues } from './keyed-queues.js'
import { describeValue as describe } from './internal.js'
import { isNode, type Plain, type Slots } from './queue.js'
import type { PendingSplit, Run } from './run.js'
import type { Statistics } from './stats.js'
import type { Waiters } from './waiters.js'

/** What settling asks of the batcher it settles for. */
export interface SettlementHost {
  readonly statistics: Statistics
  readonly queues: KeyedQueues
  readonly waiters: Waiters
  /** `isolateFailures`: a failed batch is split in halves, each re-run. */
  readonly isolateFailures: boolean
  /** A batch has returned (`ok`: with one result per item): it leaves its slot. */
  finished(run: Run, ok: boolean): void
  /** After a batch settled: form the next ones. */
  afterRun(): void
  /** Room freed in the queue: let callers waiting for it in. */
  admitWaiters(): void
  /** The callers waiting for room changed. */
  setDoor(): void
}

/**
 * How every item ends: its result or its error delivered once, to its own caller or into
 * its request's results, and the running batches, the re-runs waiting (`isolateFailures`)
 * and the items in flight that this involves. The only owner of `running`,
 * `splitsPending` and `inFlightItems`; the batcher starts batches into them, and this
 * settles them.
 */
export class Settlement {
  /** Running batches, for `destroy()` and for cancelling a running item. */
  readonly running = new Set<Run>()
  /** Halves of failed batches; they go before any new batch (see the batcher's `pump`). */
  readonly splitsPending = new Fifo<PendingSplit>()
  /** Items in running batches or waiting for a re-run, not settled yet. */
  inFlightItems = 0

  constructor(private readonly host: SettlementHost) {}

  /** A batch returned `results`: each item gets its own, or its own error. */
  onResults(run: Run, results: unknown): void {
    const slots = run.slots
    const n = slots.length
    const ok = Array.isArray(results) && results.length === n
    this.host.finished(run, ok)
    if (run.dropped) {
      // destroy() settled every item already.
    } else if (!ok) {
      const error = Array.isArray(results)
        ? new BatchSizeMismatchError(n, results.length)
        : new TypeError(`Expected \`processBatch\` to return an array of ${n} results, got ${describe(results)}`)
      for (let i = 0; i < n; i++) this.failSlot(slots, i, error)
    } else {
      // `settle` and `resolveEntry` written out for the common case: this loop runs for
      // every item, and the counters are updated once per batch.
      const records = slots.records
      let completed = 0
      if (slots.plain) {
        // Plain items only: none has settled (they cannot leave before their batch), so
        // each is resolved or failed with no question asked of its record, and the
        // completed ones are counted as those that did not fail.
        let failed = 0
        for (let i = 0; i < n; i++) {
          const result = (results as unknown[])[i]
          if (result instanceof Error) {
            this.failSlot(slots, i, result)
            failed++
          } else (records[i] as Plain).resolve(result)
        }
        completed = n - failed
      } else {
        for (let i = 0; i < n; i++) {
          const record = records[i]
          const result = (results as unknown[])[i]
          if (result instanceof Error) {
            this.failSlot(slots, i, result)
            continue
          }
          if (!isNode(record)) {
            completed++
            record.resolve(result)
            continue
          }
          if (record.state !== RUNNING) continue // cancelled while running: result dropped
          completed++
          record.state = SETTLED
          if (record.guard !== undefined) record.guard.release()
          this.resolveEntry(record, result)
        }
      }
      this.inFlightItems -= completed
      this.host.statistics.completed += completed
    }
    this.host.afterRun()
  }

  /** A batch threw or rejected with `error`: its items fail with it, or are re-run in halves (`isolateFailures`). */
  onFailure(run: Run, error: unknown): void {
    this.host.finished(run, false)
    const slots = run.slots
    if (run.dropped) {
      // destroy() settled every item already.
    } else if (this.host.isolateFailures && slots.length > 1) {
      // Split what is still live in halves, each re-run on its own; recursion ends at
      // single items, which then fail with their own error.
      const live = slots.filter((i) => {
        const entry = slots.records[i]
        if (!isNode(entry)) return true
        if (entry.state !== RUNNING) return false
        entry.state = RETRY
        return true
      })
      if (live.length > 0) {
        const mid = Math.ceil(live.length / 2)
        const splitDepth = run.splitDepth + 1
        const key = run.context.key
        this.splitsPending.push({ slots: live.filter((i) => i < mid), key, splitDepth })
        if (mid < live.length) this.splitsPending.push({ slots: live.filter((i) => i >= mid), key, splitDepth })
      }
    } else {
      for (let i = 0; i < slots.length; i++) this.failSlot(slots, i, error)
    }
    this.host.afterRun()
  }

  /**
   * Fails the item in slot `i` of a batch (`ran`), or of what close/destroy took out of
   * the queues, unless it has settled (a plain item never settles before its batch).
   */
  failSlot(slots: Slots<Entry>, i: number, error: unknown, ran = true): void {
    const record = slots.records[i]
    if (isNode(record)) {
      if (record.state !== SETTLED) this.fail(record, error)
      return
    }
    this.host.statistics.failed++
    if (ran) this.inFlightItems--
    record.reject(error)
  }

  fail(entry: Entry, error: unknown): void {
    this.host.statistics.failed++
    this.settle(entry)
    this.rejectEntry(entry, error)
  }

  /**
   * Fails a queued, re-run or left-out (DETACHED) entry that cannot make its deadline at
   * `now`: a batch of `batchSize` holding it would end at `endsAt`.
   */
  expire(entry: Entry, now: number, endsAt: number, batchSize?: number): void {
    const error = new DeadlineExceededError(deadlineOf(entry) - now, endsAt - now, batchSize)
    if (entry.state === QUEUED) {
      this.cancel(entry, error, true)
      return
    }
    // RETRY or DETACHED: out of every queue already.
    this.host.statistics.cancelled++
    this.host.statistics.timedOut++
    this.settle(entry)
    this.rejectEntry(entry, error)
  }

  /**
   * The entries of a batch about to start whose deadline has passed at `now`, marked
   * DETACHED (left out of it: see the batcher's `start`), or undefined when none.
   */
  lateIn(slots: Slots<Entry>, now: number): Entry[] | undefined {
    let late: Entry[] | undefined
    const records = slots.records
    for (let i = 0; i < records.length; i++) {
      const record = records[i]
      if (isNode(record) && record.state === RUNNING && deadlineOf(record) < now) {
        record.state = DETACHED
        ;(late ??= []).push(record)
      }
    }
    return late
  }

  /** Unlinks an unsettled entry from wherever it is, counts it cancelled and rejects it. */
  cancel(entry: Entry, reason: unknown, timedOut: boolean): void {
    switch (entry.state) {
      case WAITING:
        this.host.waiters.remove(entry)
        this.host.setDoor()
        break
      case QUEUED:
        this.host.queues.remove(entry)
        break
      case RUNNING: {
        // Its batch keeps running; the result in its slot will be dropped. When every
        // item of the batch is gone, tell the processor it may stop. (Not found: its
        // batch has just returned, and is settling its items.)
        const run = this.runOf(entry)
        if (run !== undefined && --run.live === 0) run.abort(reason)
        break
      }
      // RETRY: nothing to unlink; the pending split skips settled entries.
      // DETACHED: out of everything already (close({ drain: false }), destroy(), left out late).
    }
    this.host.statistics.cancelled++
    if (timedOut) this.host.statistics.timedOut++
    this.settle(entry)
    this.rejectEntry(entry, reason)
  }

  /** Marks an entry settled and releases its timer and listener. Call once. */
  private settle(entry: Entry): void {
    if (entry.state === RUNNING || entry.state === RETRY) this.inFlightItems--
    entry.state = SETTLED
    if (entry.guard !== undefined) entry.guard.release()
  }

  /** The running batch holding a RUNNING entry: a look through the few running batches. */
  private runOf(entry: Entry): Run | undefined {
    for (const run of this.running) if (run.entries.includes(entry)) return run
    return undefined
  }

  /** Delivers an entry's result: to its own caller, or into its request's results. */
  private resolveEntry(entry: Entry, value: unknown): void {
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
  private rejectEntry(entry: Entry, reason: unknown): void {
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
    this.host.admitWaiters()
  }
}
