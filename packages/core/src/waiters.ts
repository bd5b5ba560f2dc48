import { DETACHED, WAITING, type Entry } from './entry.js'
import type { KeyedQueues } from './keyed-queues.js'
import { Fifo } from './fifo.js'

/**
 * Callers waiting for room in a full queue (`whenFull: 'wait'`), first come first
 * served. A `submitMany` request waits as one: its members are contiguous and are
 * admitted together, once there is room for all of them.
 *
 * Invariants (lazy deletion, as in queue.ts):
 *   - An entry is live here exactly while its state is WAITING. A waiter that settles
 *     early (abort, timeout, a sibling's failure) leaves a tombstone: O(1), no splice.
 *   - Tombstones at the head are dropped as admission reaches them; once more than 64
 *     of them outnumber the living, the list is compacted. Memory therefore stays
 *     bounded by about twice the live waiters, even when the head never moves.
 */
export class Waiters {
  private readonly fifo = new Fifo<Entry>()
  /** Live waiters. */
  count = 0
  private dead = 0

  /** Waiters stored, live or tombstones (for tests of bounded memory). */
  get length(): number {
    return this.fifo.length
  }

  /** Parks an entry until there is room (it becomes WAITING). */
  push(entry: Entry): void {
    entry.state = WAITING
    this.fifo.push(entry)
    this.count++
  }

  /**
   * A WAITING entry leaves early (it is about to be settled): it stays behind as a
   * tombstone, DETACHED, until admission reaches it or the list is compacted.
   */
  remove(entry: Entry): void {
    entry.state = DETACHED
    this.count--
    if (++this.dead > 64 && this.dead > this.count) {
      this.fifo.retain(isWaiting)
      this.dead = 0
    }
  }

  /**
   * Moves waiters into `queues`, first come first served, while the queues hold fewer
   * than `maxQueueSize`; a request goes in whole or waits on. Returns how many went in.
   */
  admit(queues: KeyedQueues, maxQueueSize: number): number {
    let admitted = 0
    while (this.count > 0 && queues.size < maxQueueSize) {
      const entry = this.fifo.peek() as Entry
      if (entry.state !== WAITING) {
        this.fifo.shift()
        this.dead--
        continue
      }
      const size = entry.group === undefined ? 1 : entry.group.members.length
      if (queues.size + size > maxQueueSize) break
      for (let i = 0; i < size; i++) queues.push(this.fifo.shift() as Entry)
      this.count -= size
      admitted += size
    }
    return admitted
  }

  /** Takes every live waiter out (close({ drain: false }), destroy()), marked DETACHED, into `out`. */
  takeAll(out: Entry[]): void {
    for (let entry = this.fifo.shift(); entry !== undefined; entry = this.fifo.shift()) {
      if (entry.state !== WAITING) continue
      entry.state = DETACHED
      out.push(entry)
    }
    this.count = 0
    this.dead = 0
  }
}

function isWaiting(entry: Entry): boolean {
  return entry.state === WAITING
}
