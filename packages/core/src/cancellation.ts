import { Entry, Guard, kCancel, kDelay, QUEUED, SETTLED, WAITING, type EntryOwner } from './entry.js'
import { kCancelGroup, kDelayGroup, type Group, type GroupOwner } from './group.js'
import type { KeyedQueues } from './keyed-queues.js'
import type { Settlement } from './settling.js'

/** What cancelling and delaying ask of the batcher. */
export interface CancellationHost {
  readonly queues: KeyedQueues
  /** Queues an entry (and forms a batch when a slot is free). */
  enqueue(entry: Entry): void
  /** Room freed in the queue: let callers waiting for it in (and finish a close once all is done). */
  freed(): void
}

/**
 * The owner every guard and request calls back into (`EntryOwner`, `GroupOwner`): an
 * abort or a timeout settles an entry or a whole `submitMany` request at once, whatever
 * its state; a timeout with `delayedPriority` moves it to that priority instead
 * (Triton's DELAY).
 */
export class Cancellation implements EntryOwner, GroupOwner {
  constructor(
    private readonly host: CancellationHost,
    private readonly settlement: Settlement,
  ) {}

  /** Abort listener / timeout of an entry: settles it at once, whatever its state. */
  [kCancel](entry: Entry, reason: unknown, timedOut: boolean): void {
    if (entry.state === SETTLED) return
    this.settlement.cancel(entry, reason, timedOut)
    this.host.freed()
  }

  /** Abort listener / timeout of a `submitMany` request: settles all of it at once. */
  [kCancelGroup](group: Group, reason: unknown, timedOut: boolean): void {
    if (group.settled) return
    group.release()
    group.reject(reason)
    for (const member of group.members) if (member.state !== SETTLED) this.settlement.cancel(member, reason, timedOut)
    this.host.freed()
  }

  /** A timeout with `delayedPriority`: the entry moves there, with no timeout (Triton's DELAY). */
  [kDelay](entry: Entry, priority: number): void {
    if (entry.state === SETTLED) return
    const guard = entry.guard as Guard
    guard.release()
    const moved = this.delay(entry, priority)
    // Only a signal still guards it (on the entry now in the queue).
    if (guard.signal === undefined) moved.guard = undefined
    else {
      const next = new Guard(this, moved, guard.signal, Infinity, Infinity)
      moved.guard = next
      guard.signal.addEventListener('abort', next)
    }
  }

  /** A `submitMany` request's timeout with `delayedPriority`: its unsettled members move there. */
  [kDelayGroup](group: Group): void {
    if (group.settled) return
    group.deadline = Infinity
    const members = group.members
    for (let i = 0; i < members.length; i++) {
      if (members[i].state !== SETTLED) members[i] = this.delay(members[i], group.delayedPriority as number)
    }
  }

  /**
   * Moves an unsettled entry to `priority`: one waiting for room is re-prioritised in
   * place (a queue reads the priority when it takes it in); a queued one leaves its queue
   * and a new entry for the same item, age (`seq`) and promise joins at `priority` (the
   * queues drop removed entries lazily, so the same object cannot be queued twice).
   * Running entries and re-runs are left as they are. Returns the entry now in place.
   */
  private delay(entry: Entry, priority: number): Entry {
    if (entry.state === WAITING) {
      entry.priority = priority
      return entry
    }
    if (entry.state !== QUEUED) return entry
    this.host.queues.remove(entry)
    const moved = new Entry(entry.item, entry.key, entry.cost, priority, entry.seq, entry.stamp)
    moved.resolve = entry.resolve
    moved.reject = entry.reject
    moved.group = entry.group
    this.host.enqueue(moved)
    return moved
  }
}
