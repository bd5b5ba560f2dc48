import { TimeoutError } from './errors.js'
import type { Group } from './group.js'
import type { PriorityQueue, QueueNode } from './queue.js'

/** Lifecycle of one submitted item. Every entry ends in SETTLED exactly once. */
export const WAITING = 0 // waiting for room in a full queue (whenFull: 'wait')
export const QUEUED = 1
export const RUNNING = 2 // in a running batch
export const RETRY = 3 // its batch failed; waiting for a re-run (isolateFailures)
export const SETTLED = 4

/** Keeps the callback off the batcher's public surface. */
export const kCancel: unique symbol = Symbol('inferpool.cancel')

/** The part of the batcher an entry calls back into (abort, timeout). */
export interface EntryOwner {
  [kCancel](entry: Entry, reason: unknown, timedOut: boolean): void
}

/**
 * One submitted item. It is also its own abort listener (`handleEvent`), and its
 * timeout callback is a module-level function receiving it as an argument, so an
 * item with a signal or a timeout costs no closure, and one without costs neither a
 * listener nor a timer.
 */
export class Entry implements QueueNode {
  state = QUEUED
  queued = false
  resolve: (value: unknown) => void = noop
  reject: (reason: unknown) => void = noop
  /** Key queue while QUEUED. */
  queue: PriorityQueue<Entry> | undefined = undefined
  /** Running batch while RUNNING. */
  batch: { live: number; abort(reason: unknown): void } | undefined = undefined
  timer: ReturnType<typeof setTimeout> | undefined = undefined
  /** The `submitMany` request this item belongs to, and its slot in the results. */
  group: Group | undefined = undefined
  index = 0

  constructor(
    readonly owner: EntryOwner,
    readonly item: unknown,
    readonly key: unknown,
    readonly cost: number,
    readonly priority: number,
    readonly seq: number,
    public enqueuedAt: number,
    readonly signal: AbortSignal | undefined,
    readonly timeoutMs: number,
  ) {}

  /** Abort listener (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    this.owner[kCancel](this, (this.signal as AbortSignal).reason, false)
  }
}

function noop(): void {}

/** `setTimeout(onEntryTimeout, ms, entry)`: no closure per item. */
export function onEntryTimeout(entry: Entry): void {
  entry.timer = undefined
  entry.owner[kCancel](entry, new TimeoutError(entry.timeoutMs), true)
}
