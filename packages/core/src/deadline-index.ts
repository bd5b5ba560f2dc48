import { deadlineOf, QUEUED, type Entry } from './entry.js'

/**
 * The queued entries of one key queue that have a deadline, in a binary min-heap by
 * deadline: deadline formation asks at every formation which of them cannot make it
 * even in a batch of one, and which deadline comes first among the rest. Scanning the
 * whole queue for that cost O(queue) per batch; under overload, with thousands queued,
 * it was a few percent of the host thread (3.9% + 1.7% of its samples at 2× capacity
 * on the demo model). With the heap it costs O(k log n) for k hopeless entries, and the
 * earliest deadline is the top.
 *
 * Lazy deletion, as in the queues (queue.ts): an entry that leaves its queue (taken,
 * cancelled, failed) stays in the heap until it reaches the top, and the heap is rebuilt
 * from the live entries once it holds more than twice as many entries as its queue
 * (plus 64) — checked as entries are added and at every formation, so the dead ones a
 * batch took (which hold their items and their callers' promises) are let go soon. A key is never above its entry's
 * deadline: a deadline only ever moves to Infinity (a `submitMany` request whose timeout
 * moved it to `delayedPriority`), so a key that no longer matches is put right when it
 * reaches the top.
 *
 * Invariants: `keys[i] <= keys[2i+1]` and `keys[i] <= keys[2i+2]`; `keys[i]` is the
 * deadline `entries[i]` had when it was added, never above its deadline now.
 */
export class DeadlineIndex {
  private readonly keys: number[] = []
  private readonly entries: Entry[] = []

  /** Entries held, live or dead (for tests of bounded memory). */
  get stored(): number {
    return this.keys.length
  }

  /**
   * Indexes an entry just queued (QUEUED), if it has a deadline. `live` is how many
   * entries its queue holds now: when the heap holds more than twice as many (plus a
   * constant), the dead ones are dropped in one O(n) rebuild.
   */
  add(entry: Entry, live: number): void {
    const deadline = deadlineOf(entry)
    if (deadline === Infinity) return
    if (this.keys.length > 2 * live + 64) this.rebuild()
    this.push(entry, deadline)
  }

  /**
   * The live entries whose deadline comes before `horizon` (appended to `out`, ordered
   * as `take` would take them: higher priority first, then earlier submission), and the
   * earliest deadline among the other live entries (Infinity: none; exact only when
   * nothing was appended, which is the only case deadline formation reads it). `live`
   * is how many entries the queue holds now (see `add`).
   */
  due(horizon: number, out: Entry[], live: number): number {
    if (this.keys.length > 2 * live + 64) this.rebuild()
    this.settleTop()
    const keys = this.keys
    if (keys.length === 0) return Infinity
    if (keys[0] >= horizon) return keys[0]
    // Every entry keyed below `horizon`: a walk of the heap that stops at keys at or past
    // it (their children are no earlier), so O(k) for k such entries. Keys are never
    // above deadlines, so none that is due is missed; dead and re-keyed ones are skipped.
    const stack = [0]
    while (stack.length > 0) {
      const i = stack.pop() as number
      if (i >= keys.length || keys[i] >= horizon) continue
      const entry = this.entries[i]
      if (entry.state === QUEUED && deadlineOf(entry) < horizon) out.push(entry)
      stack.push(2 * i + 1, 2 * i + 2)
    }
    if (out.length > 1) out.sort(takeOrder)
    return Infinity
  }

  /** Pops dead entries off the top and re-keys a top whose deadline has moved, until the top is live and keyed right. */
  private settleTop(): void {
    const keys = this.keys
    while (keys.length > 0) {
      const entry = this.entries[0]
      if (entry.state !== QUEUED) {
        this.pop()
        continue
      }
      const deadline = deadlineOf(entry)
      if (deadline === keys[0]) return
      this.pop()
      if (deadline !== Infinity) this.push(entry, deadline)
    }
  }

  private push(entry: Entry, key: number): void {
    const keys = this.keys
    const entries = this.entries
    let i = keys.length
    keys.push(key)
    entries.push(entry)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (keys[parent] <= key) break
      keys[i] = keys[parent]
      entries[i] = entries[parent]
      i = parent
    }
    keys[i] = key
    entries[i] = entry
  }

  private pop(): void {
    const keys = this.keys
    const entries = this.entries
    const key = keys.pop() as number
    const entry = entries.pop() as Entry
    if (keys.length > 0) this.siftDown(0, key, entry)
  }

  /** Puts `key`/`entry` at `i` or below, moving smaller children up. */
  private siftDown(i: number, key: number, entry: Entry): void {
    const keys = this.keys
    const entries = this.entries
    const n = keys.length
    for (;;) {
      let child = 2 * i + 1
      if (child >= n) break
      if (child + 1 < n && keys[child + 1] < keys[child]) child++
      if (keys[child] >= key) break
      keys[i] = keys[child]
      entries[i] = entries[child]
      i = child
    }
    keys[i] = key
    entries[i] = entry
  }

  /** Keeps only the live entries with a deadline, keyed by it now, and restores the heap order (O(n)). */
  private rebuild(): void {
    const keys = this.keys
    const entries = this.entries
    let w = 0
    for (let r = 0; r < keys.length; r++) {
      const entry = entries[r]
      if (entry.state !== QUEUED) continue
      const deadline = deadlineOf(entry)
      if (deadline === Infinity) continue
      keys[w] = deadline
      entries[w++] = entry
    }
    keys.length = w
    entries.length = w
    for (let i = (w >> 1) - 1; i >= 0; i--) this.siftDown(i, keys[i], entries[i])
  }
}

/** The order in which `take` takes entries of one queue: higher priority first, then earlier submission. */
function takeOrder(a: Entry, b: Entry): number {
  return b.priority - a.priority || a.seq - b.seq
}
