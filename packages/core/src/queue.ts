/**
 * Queues of the batcher.
 *
 * Invariants (lazy deletion):
 *   - A node is "live" while `node.state` is QUEUED. Removing a node in the middle
 *     (abort, timeout) only flips the flag and adjusts the counters: O(1), no splice.
 *   - Dead nodes stay in their FIFO until they reach the head (dropped by `shift`/`peek`)
 *     or until dead nodes outnumber live ones, when the FIFOs are compacted. Memory is
 *     therefore bounded by twice the live size (plus a small constant), even when the
 *     head never moves (e.g. every slot is held by a hung batch while callers time out).
 *
 *     head                                  tail
 *     [ dead | live | dead | dead | live | live ]   size = 3 live, dead = 3
 */

/** `node.state` while the node is live in a queue (set by `push`). */
export const QUEUED = 1
/** `node.state` once `take` has taken the node out. */
export const TAKEN = 2
/** `node.state` once `remove` has taken the node out. */
export const REMOVED = 6

/**
 * FIFO with amortised O(1) `push`/`shift`: an array plus a head and a tail index.
 * Slots from `tail` to the array's end are room made in advance (see `cut`).
 */
export class Fifo<T> {
  private items: Array<T | undefined> = []
  private head = 0
  private tail = 0

  /** Entries stored, live or dead. */
  get length(): number {
    return this.tail - this.head
  }

  push(value: T): void {
    this.items[this.tail++] = value
  }

  /** The i-th stored entry from the head (no bounds check beyond `length`). */
  at(i: number): T | undefined {
    return this.items[this.head + i]
  }

  peek(): T | undefined {
    return this.head < this.tail ? this.items[this.head] : undefined
  }

  shift(): T | undefined {
    if (this.head >= this.tail) return undefined
    const items = this.items
    const value = items[this.head]
    items[this.head++] = undefined
    this.consumed()
    return value
  }

  /**
   * Removes the first `k` stored entries (`0 < k <= length`) and returns them as an
   * array: when that is everything stored, the FIFO's own array, handed over as it is,
   * else a copy of that stretch. Handing over leaves the FIFO a new array with room for
   * as many entries as it handed over: a queue drained batch after batch then fills
   * one array of about the right size per batch, instead of growing one from empty
   * (17, 41, 77, 131... slots, each growth a copy and garbage).
   */
  cut(k: number): T[] {
    const items = this.items
    if (this.head === 0 && k === this.tail) {
      items.length = k
      this.items = new Array<T | undefined>(k < MAX_ROOM ? k : MAX_ROOM)
      this.tail = 0
      return items as T[]
    }
    const out = items.slice(this.head, this.head + k) as T[]
    this.drop(k)
    return out
  }

  /** Removes the first `k` stored entries (`k <= length`) in one step. */
  drop(k: number): void {
    if (k === 0) return
    const head = this.head + k
    // Release the references (a consumed slot must not keep an item alive).
    if (head < this.tail) this.items.fill(undefined, this.head, head)
    this.head = head
    this.consumed()
  }

  private consumed(): void {
    const items = this.items
    if (this.head === this.tail) {
      // Empty: reset in place (`length = 0` also gives back the backing store).
      items.length = 0
      this.head = 0
      this.tail = 0
    } else if (this.head >= 1024 && this.head * 2 >= this.tail) {
      // The consumed prefix dominates: move the tail down once (amortised O(1)).
      items.copyWithin(0, this.head, this.tail)
      this.tail -= this.head
      items.length = this.tail
      this.head = 0
    }
  }

  /** Keeps only the entries for which `keep` is true, in order. O(length). */
  retain(keep: (value: T) => boolean): void {
    const items = this.items
    let w = 0
    for (let r = this.head; r < this.tail; r++) {
      const v = items[r] as T
      if (keep(v)) items[w++] = v
    }
    items.length = w
    this.head = 0
    this.tail = w
  }
}

/** Most slots a FIFO makes room for in advance (see `Fifo.cut`). */
const MAX_ROOM = 4096

/** What the priority queue needs from a queued entry. */
export interface QueueNode {
  /** Higher goes first. */
  readonly priority: number
  /** Global submission order; breaks ties between queues. */
  readonly seq: number
  readonly cost: number
  /** Clock reading at enqueue, for `maxWaitMs`. */
  readonly enqueuedAt: number
  /** What `take` hands over for the node, beside the node itself. */
  readonly item: unknown
  /**
   * QUEUED while the node is live in a queue; `take` and `remove` set it to TAKEN and
   * REMOVED. The owner of the nodes uses other values for its own states.
   */
  state: number
}

interface Level<N> {
  readonly priority: number
  readonly fifo: Fifo<N>
}

const isQueued = (node: QueueNode): boolean => node.state === QUEUED
const isTaken = (node: QueueNode): boolean => node.state === TAKEN

/** A batch taken from a queue (see `PriorityQueue.take`). */
export interface Taken<N> {
  /** The nodes, in order: an array the queue no longer holds. */
  readonly nodes: N[]
  /** Their items, in the same order (empty unless asked for). */
  readonly items: unknown[]
  /** Summed cost of the nodes. */
  readonly cost: number
  /** Whether it stopped at a limit (count or cost) rather than at the end of the queue. */
  readonly full: boolean
}

/**
 * Items of one batch key: FIFO per priority level, levels in descending priority.
 * The number of distinct priorities in use is small in practice, so levels live in a
 * sorted array searched linearly; the level used last is cached, so a stream of
 * same-priority pushes never searches at all. Empty levels are kept (a level that
 * empties with every batch would otherwise be re-created with every batch) until
 * more than `MAX_LEVELS` exist, when the empty ones are pruned.
 */
export class PriorityQueue<N extends QueueNode> {
  /** Live nodes. */
  size = 0
  /** Summed cost of live nodes. */
  cost = 0
  private dead = 0
  private levels: Array<Level<N>> = []
  private last: Level<N> | undefined

  constructor(readonly key: unknown) {}

  /** Nodes held, live or dead (for tests of bounded memory). */
  get stored(): number {
    let n = 0
    for (const level of this.levels) n += level.fifo.length
    return n
  }

  push(node: N): void {
    let level = this.last
    if (level === undefined || level.priority !== node.priority) level = this.find(node.priority)
    node.state = QUEUED
    level.fifo.push(node)
    this.size++
    this.cost += node.cost
  }

  /** O(1) removal of a live node: a tombstone, reclaimed later. */
  remove(node: N): void {
    if (node.state !== QUEUED) return
    node.state = REMOVED
    this.size--
    this.cost = this.size === 0 ? 0 : this.cost - node.cost
    this.dead++
    if (this.dead > 64 && this.dead > this.size) this.compact()
  }

  /** The first live node: highest priority, oldest within it. */
  peek(): N | undefined {
    const levels = this.levels
    for (let i = 0; i < levels.length; i++) {
      const node = this.frontOf(levels[i])
      if (node !== undefined) return node
    }
    return undefined
  }

  /** Earliest `enqueuedAt` among live nodes (each level's front is its oldest). */
  oldestEnqueuedAt(): number {
    let oldest = Infinity
    for (let i = 0; i < this.levels.length; i++) {
      const node = this.frontOf(this.levels[i])
      if (node !== undefined && node.enqueuedAt < oldest) oldest = node.enqueuedAt
    }
    return oldest
  }

  /**
   * Takes live nodes in order while the count stays <= `maxCount` and the summed cost
   * <= `maxCost`, and marks them TAKEN. Stops at the first node that does not fit the
   * remaining budget: that node stays at the head for the next batch. We deliberately
   * do not skip ahead to smaller nodes behind it — that would starve large items (the
   * FIFO complaint against Ray Serve's batcher). The first node is always taken, so a
   * batch is never empty (`submit` refuses items costlier than the budget).
   *
   * The batch comes out as ready-made arrays, in one pass over its nodes: a level taken
   * whole hands over its own array (no copy), and the items array, when asked for, is
   * allocated once at its final size and filled in the same pass that marks the nodes.
   */
  take(maxCount: number, maxCost: number, withItems = false): Taken<N> {
    const bound = maxCount < this.size ? maxCount : this.size
    const items: unknown[] = withItems ? new Array<unknown>(bound) : []
    let nodes: N[] | undefined
    let cost = 0
    let taken = 0
    let full = false
    const levels = this.levels
    // No tombstones, and the whole queue within the budget: every stored node is live
    // and none can stop the batch by cost, so nodes are taken with no state or budget
    // test each. That is every batch of the core-overhead bench, where it took ~20
    // machine instructions per item out of `take` (callgrind, steady state,
    // docs/runtime-facts.md#v8-on-the-hot-path). `this.cost` is a running sum of
    // numbers that may be fractional: the margin keeps its rounding from letting a batch
    // through that the per-node sums below would stop.
    const fits = this.dead === 0 && this.cost * (1 + 1e-9) <= maxCost
    // Reads each level's FIFO in place and cuts the consumed prefix once, instead of a
    // peek + shift per node.
    for (let i = 0; i < levels.length && !full; i++) {
      const fifo = levels[i].fifo
      const stored = fifo.length
      let skipped = 0
      let r = 0
      if (fits) {
        const end = stored < maxCount - taken ? stored : maxCount - taken
        for (; r < end; r++) {
          const node = fifo.at(r) as N
          node.state = TAKEN
          cost += node.cost
          if (withItems) items[taken] = node.item
          taken++
        }
        // Stopped before the level's end: by count.
        if (r < stored) full = true
      } else {
        for (; r < stored; r++) {
          if (taken >= maxCount) {
            full = true
            break
          }
          const node = fifo.at(r) as N
          if (node.state !== QUEUED) {
            skipped++
            continue
          }
          if (taken > 0 && cost + node.cost > maxCost) {
            full = true
            break
          }
          node.state = TAKEN
          cost += node.cost
          if (withItems) items[taken] = node.item
          taken++
        }
      }
      if (r === 0) continue
      let chunk = fifo.cut(r)
      if (skipped > 0) {
        this.dead -= skipped
        chunk = chunk.filter(isTaken)
      }
      nodes = nodes === undefined ? chunk : nodes.concat(chunk)
    }
    if (withItems && taken < bound) items.length = taken
    this.size -= taken
    this.cost = this.size === 0 ? 0 : this.cost - cost
    return { nodes: nodes ?? [], items, cost, full: full || taken >= maxCount || cost >= maxCost }
  }

  /**
   * Visits the live nodes in the order `take` takes them (priority, then age) until
   * `visit` returns false. Nothing is taken or changed; `visit` must not change the queue.
   */
  scan(visit: (node: N) => boolean): void {
    const levels = this.levels
    for (let i = 0; i < levels.length; i++) {
      const fifo = levels[i].fifo
      for (let r = 0; r < fifo.length; r++) {
        const node = fifo.at(r) as N
        if (node.state === QUEUED && !visit(node)) return
      }
    }
  }

  /** Front live node of a level (dropping dead fronts); undefined when it is empty. */
  private frontOf(level: Level<N>): N | undefined {
    const fifo = level.fifo
    for (;;) {
      const node = fifo.peek()
      if (node === undefined || node.state === QUEUED) return node
      fifo.shift()
      this.dead--
    }
  }

  /**
   * The level of `priority`. A plain scan first, small enough to be inlined into `push`:
   * items of mixed priorities arrive interleaved, so the `last` cache misses about
   * every other push, and a call into `level` each time took ~3% of a CPU profile of the
   * core-overhead bench.
   */
  private find(priority: number): Level<N> {
    const levels = this.levels
    for (let i = 0; i < levels.length; i++) {
      if (levels[i].priority === priority) return (this.last = levels[i])
    }
    return this.level(priority)
  }

  private level(priority: number): Level<N> {
    let levels = this.levels
    if (levels.length >= MAX_LEVELS) {
      this.pruneEmptyLevels()
      levels = this.levels
    }
    let i = 0
    while (i < levels.length && levels[i].priority > priority) i++
    let level = levels[i]
    if (level === undefined || level.priority !== priority) {
      level = { priority, fifo: new Fifo<N>() }
      // Levels are few (distinct priorities in use); this splice is on that tiny
      // array, never on the queue of items.
      levels.splice(i, 0, level)
    }
    this.last = level
    return level
  }

  private pruneEmptyLevels(): void {
    this.levels = this.levels.filter((level) => this.frontOf(level) !== undefined)
    if (this.last !== undefined && !this.levels.includes(this.last)) this.last = undefined
  }

  private compact(): void {
    for (const level of this.levels) level.fifo.retain(isQueued)
    this.dead = 0
    this.pruneEmptyLevels()
  }
}

/** Empty priority levels kept for reuse before pruning. */
const MAX_LEVELS = 16
