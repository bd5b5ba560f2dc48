import type { Entry } from './entry.js'
import { TimeoutError } from './errors.js'

/** Keeps the group callback off the batcher's public surface. */
export const kCancelGroup: unique symbol = Symbol('inferpool.cancelGroup')

/** The part of the batcher a group calls back into (abort, timeout). */
export const kDelayGroup: unique symbol = Symbol('inferpool.delayGroup')

export interface GroupOwner {
  [kCancelGroup](group: Group, reason: unknown, timedOut: boolean): void
  /** Its timeout passed with `delayedPriority`: move its unsettled members there. */
  [kDelayGroup](group: Group): void
}

/**
 * The items of one `submitMany` call: admitted together, settled together.
 *
 * Invariants:
 * - Members are created, queued (or parked waiting for room) and cancelled together:
 *   they are all WAITING, or none is. Their slots in the waiters FIFO are contiguous.
 * - The group owns the signal listener and the timer (one of each per request, never
 *   per item); members have neither.
 * - The first member to fail (or the group's abort/timeout) settles the group; every
 *   member not yet settled is then cancelled at once — removed from the queue if it
 *   has not started, its result dropped if it is running.
 */
export class Group {
  readonly members: Entry[] = []
  readonly results: unknown[]
  /** Members still to deliver a result. */
  remaining: number
  settled = false
  resolve: (value: unknown) => void = noop
  reject: (reason: unknown) => void = noop
  timer: ReturnType<typeof setTimeout> | undefined = undefined
  /** Clock reading by which the results are due: enqueued at + `timeoutMs` (Infinity: none). */
  deadline = Infinity

  constructor(
    readonly owner: GroupOwner,
    size: number,
    /** `seq` of the first member; a member's slot in `results` is `seq - firstSeq`. */
    readonly firstSeq: number,
    readonly signal: AbortSignal | undefined,
    readonly timeoutMs: number,
    /** Where the members move when `timeoutMs` passes (undefined: the request is rejected). */
    readonly delayedPriority: number | undefined = undefined,
  ) {
    this.results = new Array<unknown>(size)
    this.remaining = size
  }

  /** Abort listener (EventTarget calls `handleEvent` on listener objects). */
  handleEvent(): void {
    this.owner[kCancelGroup](this, (this.signal as AbortSignal).reason, false)
  }

  /** Releases the timer and the listener. Call once, when the group settles. */
  release(): void {
    this.settled = true
    if (this.timer !== undefined) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    if (this.signal !== undefined) this.signal.removeEventListener('abort', this)
  }
}

function noop(): void {}

/** `setTimeout(onGroupTimeout, ms, group)`: no closure per request. */
export function onGroupTimeout(group: Group): void {
  group.timer = undefined
  if (group.delayedPriority !== undefined) group.owner[kDelayGroup](group)
  else group.owner[kCancelGroup](group, new TimeoutError(group.timeoutMs), true)
}
