/**
 * Queues of the batcher.
 *
 * An item is queued in one of two forms. A plain item (the common case: no signal, no
 * timeout, not part of a request) has a `Plain` record: its promise's two functions,
 * its cost, its submission order and its clock reading, and no state. An item that can
 * leave early (cancelled, timed out, moved to another priority) or belongs to a
 * request is a node, with a `state`. Each priority level keeps the items and their
 * records in two parallel arrays; a level taken whole hands its arrays over to the
 * batch as they are, so the items array `processBatch` gets is the one they were
 * stored in.
 *
 * Invariants (lazy deletion, for nodes):
 *   - A node is "live" while `node.state` is QUEUED. Removing a node in the middle
 *     (abort, timeout) only flips the flag and adjusts the counters: O(1), no splice.
 *   - Dead nodes stay in their level until they reach the head (dropped there) or until
 *     dead nodes outnumber live items, when the levels are compacted. Memory is therefore
 *     bounded by twice the live size (plus a small constant), even when the head never
 *     moves (e.g. every slot is held by a hung batch while callers time out).
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

/** A clock reading, shared by the items submitted in one turn (see the batcher's `stamp()`). */
export interface Reading {
  readonly at: number
}

/** A plain item's promise functions. */
export type Resolve = (value: unknown) => void
export type Reject = (reason: unknown) => void

/**
 * What the queue keeps of a plain item beside the item itself: how to settle it, and
 * what batches are cut and ordered by. Made as an object literal of five fields: V8
 * allocates it with its final shape in one step, where a class whose constructor
 * assigns its fields moves the object through a shape per field (see Entry).
 */
export interface Plain {
  resolve: Resolve
  reject: Reject
  readonly cost: number
  /** Global submission order; breaks ties between queues. */
  readonly seq: number
  /** Clock reading at enqueue, for `maxWaitMs` and queue waits. */
  readonly stamp: Reading
}

/** What the priority queue needs from a queued node: an item that may leave early. */
export interface QueueNode extends Plain {
  /** Higher goes first. */
  readonly priority: number
  /** What `take` hands over for the node. */
  readonly item: unknown
  /**
   * QUEUED while the node is live in a queue; `take` and `remove` set it to TAKEN and
   * REMOVED. The owner of the nodes uses other values for its own states. A plain
   * item has no state: it is live until taken.
   */
  state: number
}

/** Whether a queued record is a node rather than a plain item's. */
export function isNode<N extends QueueNode>(record: Plain | N): record is N {
  return (record as Partial<QueueNode>).state !== undefined
}

/** Whether a queued record is still live: a plain item's always is, a node's while QUEUED. */
function isLive<N extends QueueNode>(record: Plain | N): boolean {
  return !isNode(record) || record.state === QUEUED
}

/**
 * The items of a batch (or of a level's stretch), as parallel arrays: `items[i]` is
 * the item, `records[i]` its plain record or its node.
 */
export class Slots<N extends QueueNode> {
  /**
   * Whether the records that share a clock reading stand next to each other: true for
   * a stretch of one level that held plain items only (see `Level.cut`). Statistics
   * then find each reading's run by a search instead of visiting every record.
   */
  ordered = false
  /**
   * Whether every record is a plain item's (no node): the batcher then settles the
   * batch without asking each record what it is.
   */
  plain = false

  constructor(
    /** The items, in take order: the array handed to `processBatch`. */
    readonly items: unknown[],
    readonly records: Array<Plain | N>,
  ) {}

  get length(): number {
    return this.items.length
  }

  /** These slots followed by `other`'s (a batch cut from several levels). */
  concat(other: Slots<N>): Slots<N> {
    const out = new Slots(this.items.concat(other.items), this.records.concat(other.records))
    out.plain = this.plain && other.plain
    return out
  }

  /** The slots `i` for which `keep(i)` is true, in order (a copy). */
  filter(keep: (i: number) => boolean): Slots<N> {
    const out = new Slots<N>([], [])
    for (let i = 0; i < this.items.length; i++) if (keep(i)) out.copy(this, i)
    return out
  }

  /** Appends slot `i` of `from`. */
  copy(from: Slots<N>, i: number): void {
    this.items.push(from.items[i])
    this.records.push(from.records[i])
  }
}

/** Most slots a level makes room for in advance (see `Level.cut`). */
const MAX_ROOM = 4096

/**
 * The items of one priority, oldest first: two parallel arrays (the items, and their
 * records) with a head and a tail index. Slots from `tail` to the arrays' end are room
 * made in advance (see `cut`).
 */
class Level<N extends QueueNode> {
  items = room<unknown>(16)
  records = room<Plain | N>(16)
  head = 0
  tail = 0
  /**
   * Whether a node was stored since the arrays were last new. Plain items are stored
   * when they are submitted, in submission order, so the items of one clock reading
   * (one turn) stand next to each other; a node may be stored later than it was
   * submitted (it waited for room, or moved to another priority), so it may not.
   */
  mixed = false
  /**
   * Summed cost of the live slots: added as they are stored, less what leaves before
   * the level empties (a stretch cut, a node removed). While the head is at 0 and the
   * queue holds no tombstone, nothing has left since the arrays were new or compacted,
   * so it is exactly what summing the records' costs from the first would give: a
   * level taken whole then needs no pass over its records for its cost.
   */
  cost = 0

  constructor(readonly priority: number) {}

  /** Slots stored, live or dead. */
  get length(): number {
    return this.tail - this.head
  }

  /** Stores `item` and its record, whose cost is `cost` (see `PriorityQueue.add`). */
  add(item: unknown, record: Plain | N, cost: number): void {
    this.cost += cost
    const t = this.tail++
    const items = this.items
    // The same stores in both branches, on purpose: V8 keeps type feedback per store
    // site, and a site that has ever grown its array is compiled to check for growth on
    // every store. Within the room made in advance (both arrays have the same length)
    // the first pair never grows one, so it compiles to plain in-bounds stores (~11
    // machine instructions per item less on core-overhead); past the room, the second
    // pair grows the arrays (by a copy).
    if (t < items.length) {
      items[t] = item
      this.records[t] = record
    } else this.grow(t, item, record)
  }

  /**
   * `add` past the room: the stores that grow the arrays, in a function of their own
   * (its own store sites, and `add` small enough to be inlined; see `add`).
   */
  private grow(t: number, item: unknown, record: Plain | N): void {
    this.items[t] = item
    this.records[t] = record
  }

  /**
   * Removes the first `k` stored slots (`0 < k <= length`), whose live ones cost `cost`,
   * and returns them. When that
   * is everything stored, the level's own arrays are handed over as they are, and the
   * level gets new arrays with room for as many slots as these arrays stored (`tail`:
   * the batch just taken when the level went whole, all of its batches since the
   * arrays were new when it was cut in several): a level drained cycle after cycle
   * then fills arrays of the right size, instead of growing them from empty (17, 41,
   * 77, 131... slots, each growth a copy and a call into the runtime). Sized by the last
   * batch alone, a level that fills to 256 between two batches of 128 (256 callers
   * with `maxBatchSize` 128 and nothing else set) grew its arrays twice per cycle:
   * ~20 machine instructions per item (callgrind). Room for exactly that many, not
   * more: an array handed over must be cut to its items' count, and
   * `array.length = k` is a call into the runtime (~1,000 machine instructions each,
   * two per batch: ~16 per item on core-overhead, callgrind), where an array filled to
   * its end needs no cut at all. A level that fills past its room grows its arrays by
   * a copy, as any array does, and then ends exactly at its last item too.
   * Otherwise the stretch is copied out and the head moves past it: moving the rest to
   * the front at every cut cost a copy of the whole level per batch, which a deep queue
   * cut into many batches paid quadratically (64 requests of 64 rows over the binary
   * door took 1.35–1.62× the main thread's time per request in `pnpm bench compare`).
   */
  cut(k: number, cost: number): Slots<N> {
    const h = this.head
    const end = h + k
    const tail = this.tail
    if (end === tail) {
      let out: Slots<N>
      if (h === 0) {
        out = new Slots(this.items, this.records)
        shorten(out.items, k)
        shorten(out.records, k)
      } else out = this.slice(h, end)
      out.ordered = !this.mixed
      const n = tail < MAX_ROOM ? tail : MAX_ROOM
      this.items = room(n)
      this.records = room(n)
      this.head = 0
      this.tail = 0
      this.mixed = false
      this.cost = 0
      return out
    }
    const out = this.slice(h, end)
    out.ordered = !this.mixed
    this.cost -= cost
    this.consume(end)
    return out
  }

  /** Summed cost of the first `k` stored slots, in order (all live). */
  sum(k: number): number {
    const records = this.records
    let total = 0
    for (let i = this.head; i < this.head + k; i++) total += records[i].cost
    return total
  }

  /** Removes the front slot (a dead node). */
  dropFront(): void {
    this.consume(this.head + 1)
  }

  /** Moves the head to `head` (`<= tail`), past slots taken or dropped. */
  private consume(head: number): void {
    if (head === this.tail) {
      // Empty: reset in place (`length = 0` also gives back the backing stores).
      this.resize(0)
      return
    }
    // The consumed slots let go of their items (a consumed slot must not keep one alive).
    this.items.fill(undefined, this.head, head)
    this.records.fill(VACANT, this.head, head)
    this.head = head
    // The consumed prefix dominates: move the rest down once (amortised O(1) per slot).
    if (head >= 1024 && head * 2 >= this.tail) this.keep(() => true)
  }

  /** Keeps only the stored records for which `keep` is true, in order, from index 0. */
  keep(keep: (record: Plain | N) => boolean): void {
    const { items, records } = this
    let w = 0
    let cost = 0
    for (let i = this.head; i < this.tail; i++) {
      if (!keep(records[i])) continue
      // Live ones only: a tombstone kept (moving the rest down) left the level's cost when it died.
      if (isLive(records[i])) cost += records[i].cost
      items[w] = items[i]
      records[w++] = records[i]
    }
    this.resize(w)
    this.cost = cost
  }

  private slice(from: number, to: number): Slots<N> {
    return new Slots(this.items.slice(from, to), this.records.slice(from, to))
  }

  private resize(n: number): void {
    this.items.length = n
    this.records.length = n
    this.head = 0
    this.tail = n
    if (n === 0) {
      this.mixed = false
      this.cost = 0
    }
  }
}

/**
 * An array of `n` empty slots, made in the elements kind every level array ends in
 * (holes and any values): `new Array(n)` starts as small integers only, and a level's
 * store of its first item would change the kind of each new array, batch after batch.
 * Arrays of several kinds at one store site made it megamorphic: a call into V8's
 * generic keyed store per item (~75 machine instructions per item on core-overhead,
 * callgrind).
 */
function room<T>(n: number): T[] {
  const array = new Array<T>(n)
  array[0] = undefined as T
  return array
}

/**
 * Cuts `array` (of at least `k` slots) to its first `k`. A few slots are popped, which
 * optimised code does inline; setting `length` is a call into the runtime, worth it
 * only when many slots go.
 */
function shorten(array: unknown[], k: number): void {
  let excess = array.length - k
  if (excess > 32) array.length = k
  else while (excess-- > 0) array.pop()
}

/** A promise function not set yet. */
export function noop(): void {}

/** What a consumed slot holds: nothing live, nothing kept alive. */
const VACANT: Plain = {
  resolve: noop,
  reject: noop,
  cost: 0,
  seq: 0,
  stamp: { at: 0 },
}

/** A batch taken from a queue (see `PriorityQueue.take`). */
export interface Taken<N extends QueueNode> {
  /** The items and how to settle each, in take order: arrays the queue no longer holds. */
  readonly slots: Slots<N>
  /** Summed cost of the items. */
  readonly cost: number
  /** Whether it stopped at a limit (count or cost) rather than at the end of the queue. */
  readonly full: boolean
}

/**
 * Items of one batch key: FIFO per priority level, levels in descending priority.
 * The number of distinct priorities in use is small in practice, so levels live in a
 * sorted array searched linearly; the levels of priorities 0 to 15 are also found by a
 * table, and the level of any other priority used last is cached, so pushes of the
 * common priorities never search at all (see `levelOf`). Empty levels are kept (a level that
 * empties with every batch would otherwise be re-created with every batch) until
 * more than `MAX_LEVELS` exist, when the empty ones are pruned.
 */
export class PriorityQueue<N extends QueueNode> {
  /** Live nodes among them (0: every slot holds a plain item, and `take` checks none). */
  private nodes = 0
  private dead = 0
  private levels: Array<Level<N>> = []
  /**
   * The levels of the priorities 0 to `DENSE_LEVELS - 1`, by priority (the common ones:
   * Triton's priority levels are small integers too), found with one read whatever
   * order they come in; `last` caches the level of any other priority.
   */
  private readonly dense: Array<Level<N> | undefined> = new Array<Level<N> | undefined>(DENSE_LEVELS).fill(undefined)
  private last: Level<N> | undefined

  constructor(readonly key: unknown) {}

  /** Slots held, live or dead (for tests of bounded memory). */
  get stored(): number {
    let n = 0
    for (const level of this.levels) n += level.length
    return n
  }

  /**
   * Live items: the slots stored less the dead ones. Counted when read (per batch, and
   * per entry indexed by deadline formation), not kept as a count of its own, which every
   * submit would bump (~8 machine instructions per item on core-overhead, callgrind).
   */
  get size(): number {
    const levels = this.levels
    let n = -this.dead
    for (let i = 0; i < levels.length; i++) n += levels[i].length
    return n
  }

  /**
   * Summed cost of live items: the levels' sums, added when read (per batch), not kept
   * as a sum of its own beside theirs, which every submit would add to (~8 machine
   * instructions per item on core-overhead, callgrind). 0 when no item is live.
   */
  get cost(): number {
    const levels = this.levels
    let n = -this.dead
    let cost = 0
    for (let i = 0; i < levels.length; i++) {
      n += levels[i].length
      cost += levels[i].cost
    }
    return n === 0 ? 0 : cost
  }

  /**
   * Queues a plain item: settled through its record, never removed before it is taken.
   * `cost` is the record's, passed by a caller that has it at hand: read from the record
   * (just made by the batcher's submit), optimised code checked the record's shape
   * again, here and in `Level.add` (~6 machine instructions per item on core-overhead).
   */
  add(item: unknown, record: Plain, priority: number, cost: number): void {
    // The dense table's hit tested here, the rest out of line (see `KeyedQueues.add`).
    const level = priority >>> 0 === priority && priority < DENSE_LEVELS ? this.dense[priority] : undefined
    ;(level === undefined ? this.levelOf(priority) : level).add(item, record, cost)
  }

  /** Queues a node (it becomes QUEUED). */
  push(node: N): void {
    const level = this.levelOf(node.priority)
    node.state = QUEUED
    level.add(node.item, node, node.cost)
    level.mixed = true
    this.nodes++
  }

  /** O(1) removal of a live node: a tombstone, reclaimed later. */
  remove(node: N): void {
    if (node.state !== QUEUED) return
    node.state = REMOVED
    // A live node is in the level of its priority.
    this.levelOf(node.priority).cost -= node.cost
    this.nodes--
    if (++this.dead > 64 && this.dead > this.size) this.compact()
  }

  /** The first live item (highest priority, oldest within it), or undefined. */
  peekItem(): unknown {
    const level = this.front()
    return level === undefined ? undefined : level.items[level.head]
  }

  /** Priority and submission order of the first live item (the queue must not be empty). */
  headPriority(): number {
    return (this.front() as Level<N>).priority
  }

  headSeq(): number {
    const level = this.front() as Level<N>
    return level.records[level.head].seq
  }

  /** Earliest clock reading among live items (each level's front is its oldest). */
  oldestEnqueuedAt(): number {
    let oldest = Infinity
    for (let i = 0; i < this.levels.length; i++) {
      const level = this.levels[i]
      if (!this.liveFront(level)) continue
      const at = level.records[level.head].stamp.at
      if (at < oldest) oldest = at
    }
    return oldest
  }

  /**
   * Takes live items in order while the count stays <= `maxCount` and the summed cost
   * <= `maxCost`, and marks the nodes among them TAKEN. Stops at the first item that
   * does not fit the remaining budget: that item stays at the head for the next batch.
   * We deliberately do not skip ahead to smaller items behind it — that would starve
   * large items (the FIFO complaint against Ray Serve's batcher). The first item is
   * always taken, so a batch is never empty (`submit` refuses items costlier than the
   * budget).
   *
   * The batch comes out as ready-made arrays: a level taken whole hands over its own
   * arrays (no copy). Its items are visited once more only to sum their cost when the
   * level has not summed it already (a stretch cut after its head moved, or among
   * tombstones; see `Level.cost`), and, when the queue holds nodes, to mark those TAKEN.
   */
  take(maxCount: number, maxCost: number): Taken<N> {
    let slots: Slots<N> | undefined
    let cost = 0
    let taken = 0
    let full = false
    const levels = this.levels
    // No tombstones, and the whole queue within the budget: every stored slot is live
    // and none can stop the batch by cost, so a level's stretch is cut with no test per
    // item. That is every batch of the core-overhead bench. `this.cost` is a running
    // sum of numbers that may be fractional: the margin keeps its rounding from letting
    // a batch through that the per-item sums below would stop.
    const fits = this.dead === 0 && this.cost * (1 + 1e-9) <= maxCost
    for (let i = 0; i < levels.length && !full; i++) {
      const level = levels[i]
      const stored = level.length
      let skipped = 0
      let r = 0
      let chunkCost = 0
      if (fits) {
        r = stored < maxCount - taken ? stored : maxCount - taken
        taken += r
        // Stopped before the level's end: by count.
        if (r < stored) full = true
      } else {
        for (; r < stored; r++) {
          if (taken >= maxCount) {
            full = true
            break
          }
          const record = level.records[level.head + r]
          if (!isLive(record)) {
            skipped++
            continue
          }
          const c = record.cost
          if (taken > 0 && cost + chunkCost + c > maxCost) {
            full = true
            break
          }
          chunkCost += c
          taken++
        }
      }
      if (r === 0) continue
      // Taken whole from its first slot, with no tombstone: its cost is summed already,
      // in the same order as `sum` would sum it (see `Level.cost`). Both read before the
      // cut, which starts the level afresh, or takes the stretch's cost off the level's.
      const whole = fits && r === stored && level.head === 0
      if (fits) chunkCost = whole ? level.cost : level.sum(r)
      let chunk = level.cut(r, chunkCost)
      if (skipped > 0) {
        this.dead -= skipped
        const records = chunk.records
        chunk = chunk.filter((s) => isLive(records[s]))
      }
      cost += chunkCost
      if (this.nodes > 0) {
        const nodes = markTaken(chunk.records)
        this.nodes -= nodes
        chunk.plain = nodes === 0
      } else chunk.plain = true
      slots = slots === undefined ? chunk : slots.concat(chunk)
    }
    return {
      slots: slots ?? new Slots<N>([], []),
      cost,
      full: full || taken >= maxCount || cost >= maxCost,
    }
  }

  /**
   * Visits the live nodes in the order `take` takes them (priority, then age) until
   * `visit` returns false; plain items are passed over (a queue read this way holds
   * nodes only). Nothing is taken or changed; `visit` must not change the queue.
   */
  scan(visit: (node: N) => boolean): void {
    const levels = this.levels
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i]
      for (let r = level.head; r < level.tail; r++) {
        const record = level.records[r]
        if (isNode(record) && record.state === QUEUED && !visit(record)) return
      }
    }
  }

  /** The first level with a live item (dropping dead fronts on the way), or undefined. */
  private front(): Level<N> | undefined {
    const levels = this.levels
    for (let i = 0; i < levels.length; i++) if (this.liveFront(levels[i])) return levels[i]
    return undefined
  }

  /** Drops a level's dead front slots; whether a live one is left. */
  private liveFront(level: Level<N>): boolean {
    while (level.length > 0) {
      if (isLive(level.records[level.head])) return true
      level.dropFront()
      this.dead--
    }
    return false
  }

  /**
   * The level of `priority`, made if there is none. Items of mixed priorities arrive
   * interleaved, so a cache of the last level used misses about every other push: with
   * priorities 0 and 1 alternating (core-overhead), the miss, a scan of the levels and
   * the cache's update cost ~58 machine instructions per item against none at all
   * (callgrind); the dense table's read costs the same for every push.
   */
  private levelOf(priority: number): Level<N> {
    // `>>> 0` keeps an integer from 0 to 2^32 - 1 as it is (and -0 as 0).
    if (priority >>> 0 === priority && priority < DENSE_LEVELS) {
      const level = this.dense[priority]
      if (level !== undefined) return level
    } else {
      const level = this.last
      if (level !== undefined && level.priority === priority) return level
    }
    return this.find(priority)
  }

  /** A plain scan of the levels for `priority`, made if there is none. */
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
      level = new Level<N>(priority)
      // Levels are few (distinct priorities in use); this splice is on that tiny
      // array, never on the queue of items.
      levels.splice(i, 0, level)
    }
    if (priority >>> 0 === priority && priority < DENSE_LEVELS) this.dense[priority] = level
    else this.last = level
    return level
  }

  private pruneEmptyLevels(): void {
    this.levels = this.levels.filter((level) => this.liveFront(level))
    if (this.last !== undefined && !this.levels.includes(this.last)) this.last = undefined
    const dense = this.dense
    for (let p = 0; p < DENSE_LEVELS; p++) {
      const level = dense[p]
      if (level !== undefined && !this.levels.includes(level)) dense[p] = undefined
    }
  }

  private compact(): void {
    for (const level of this.levels) level.keep(isLive)
    this.dead = 0
    this.pruneEmptyLevels()
  }
}

/** Marks the nodes among `records` TAKEN; returns how many there were. */
function markTaken<N extends QueueNode>(records: Array<Plain | N>): number {
  let n = 0
  for (let i = 0; i < records.length; i++) {
    const record = records[i]
    if (isNode(record)) {
      record.state = TAKEN
      n++
    }
  }
  return n
}

/** Empty priority levels kept for reuse before pruning. */
const MAX_LEVELS = 16

/** Priorities from 0 below this have their levels in a table (see `PriorityQueue.levelOf`). */
const DENSE_LEVELS = 16
