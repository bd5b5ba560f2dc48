import { TimeoutError } from './errors.js'
import type { Group } from './group.js'
import { noop, QUEUED, TAKEN, type QueueNode } from './queue.js'

/**
 * Lifecycle of one submitted item. Every entry ends in SETTLED exactly once. QUEUED,
 * TAKEN and REMOVED are the queue's own states (queue.ts): an entry is live in its key
 * queue exactly while QUEUED; `take` marks it TAKEN, which for an entry means running
 * (so forming a batch marks its items running in the same pass that takes them), and
 * `remove` marks it REMOVED on its way to SETTLED.
 */
export const WAITING = 0 // waiting for room in a full queue (whenFull: 'wait')
export { QUEUED } from './queue.js'
export const RUNNING = TAKEN // in a running batch
export const RETRY = 3 // its batch failed; waiting for a re-run (isolateFailures)
export const SETTLED = 4
/** Out of every queue and list, about to be settled by close({ drain: false }) / destroy(). */
export const DETACHED = 5

/** Keeps the callback off the batcher's public surface. */
export const kCancel: unique symbol = Symbol('inferpool.cancel')

/** The part of the batcher an entry calls back into (abort, timeout). */
/** Keeps the delay callback off the batcher's public surface. */
export const kDelay: unique symbol = Symbol('inferpool.delay')

export interface EntryOwner {
  [kCancel](entry: Entry, reason: unknown, timedOut: boolean): void
  /** Its timeout passed with `delayedPriority`: move it there instead of rejecting it. */
  [kDelay](entry: Entry, priority: number): void
}

/**
 * One submitted item that can leave early or needs more than a plain record (see
 * queue.ts): one with a `signal` or `timeoutMs`, a member of a `submitMany` request,
 * one waiting for room, and every item under deadline formation. A plain item has no
 * Entry: a class instance's fields are each a shape transition in optimised code
 * (docs/runtime-facts.md#v8-on-the-hot-path). Its fields are still few, since they are
 * initialised on every such submit and copied by every scavenge: what only some of
 * these items have lives elsewhere: the abort listener and the timer of an item
 * submitted with a `signal` or `timeoutMs` in its `Guard`, the request of a
 * `submitMany` item in `group` (its slot in the results is `seq - group.firstSeq`:
 * members get consecutive `seq`s), its key queue is found again by `key` when it is
 * cancelled, and its running batch by looking through the few running batches
 * (cancelling a running item is rare; a pointer per item would be written for every
 * item of every batch).
 */
export class Entry implements QueueNode {
  // Fields are `declare`d and set in the constructor only: a class field with an
  // initializer (or a parameter property) is emitted as a field definition that V8 runs
  // in a separate initializer function before the constructor's own assignments —
  // twice the stores, and the initializer was not inlined into `submit` in profiles of
  // the core-overhead bench.
  declare state: number
  declare resolve: (value: unknown) => void
  declare reject: (reason: unknown) => void
  /** The `submitMany` request this item belongs to. */
  declare group: Group | undefined
  /** Abort listener and timer of a single item with a `signal` or `timeoutMs`. */
  declare guard: Guard | undefined
  declare readonly item: unknown
  declare readonly key: unknown
  declare readonly cost: number
  /** Set at creation, and changed only while it waits for room (`delayedPriority`): a queue reads it at push. */
  declare priority: number
  declare readonly seq: number
  declare readonly stamp: Stamp

  constructor(item: unknown, key: unknown, cost: number, priority: number, seq: number, stamp: Stamp) {
    this.state = QUEUED
    this.resolve = noop
    this.reject = noop
    this.group = undefined
    this.guard = undefined
    this.item = item
    this.key = key
    this.cost = cost
    this.priority = priority
    this.seq = seq
    this.stamp = stamp
  }

  /** Clock reading by which its result is due (see `deadlineOf`): what a `Formation` reads (`QueuedItem`). */
  get deadline(): number {
    return deadlineOf(this)
  }

  /** Clock reading at which it was submitted (`QueuedItem`). */
  get enqueuedAt(): number {
    return this.stamp.at
  }
}

/** One clock reading, shared by the entries submitted in the same turn (see `stamp()`). */
export class Stamp {
  constructor(readonly at: number) {}
}

/**
 * The abort listener (`handleEvent`: EventTarget calls it on listener objects) and the
 * timer of one item. Its timeout callback is a module-level function receiving it as
 * an argument, so an item with a signal or a timeout costs no closure.
 */
export class Guard {
  timer: ReturnType<typeof setTimeout> | undefined = undefined

  constructor(
    readonly owner: EntryOwner,
    readonly entry: Entry,
    readonly signal: AbortSignal | undefined,
    readonly timeoutMs: number,
    /** Clock reading by which the result is due: enqueued at + `timeoutMs` (Infinity: none). */
    readonly deadline: number,
    /** Where the entry moves when `timeoutMs` passes (undefined: it is rejected). */
    readonly delayedPriority: number | undefined = undefined,
  ) {}

  handleEvent(): void {
    this.owner[kCancel](this.entry, (this.signal as AbortSignal).reason, false)
  }

  /** Releases the timer and the listener. Call once, when the entry settles. */
  release(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    if (this.signal !== undefined) this.signal.removeEventListener('abort', this)
  }
}

/** Clock reading by which an entry's result is due (its own `timeoutMs`, or its request's), Infinity when none. */
export function deadlineOf(entry: Entry): number {
  if (entry.guard !== undefined) return entry.guard.deadline
  if (entry.group !== undefined) return entry.group.deadline
  return Infinity
}

/** `setTimeout(onGuardTimeout, ms, guard)`: no closure per item. */
export function onGuardTimeout(guard: Guard): void {
  guard.timer = undefined
  if (guard.delayedPriority !== undefined) guard.owner[kDelay](guard.entry, guard.delayedPriority)
  else guard.owner[kCancel](guard.entry, new TimeoutError(guard.timeoutMs), true)
}
