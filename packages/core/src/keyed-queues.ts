import { chooseQueue, type Choice, type FormationLimits } from './batch-formation.js'
import { DeadlineIndex } from './deadline-index.js'
import type { Entry } from './entry.js'
import { PriorityQueue, type Plain, type Slots, type Taken } from './queue.js'

/**
 * The queued items, one priority queue per batch key (one in all without `batchKey`),
 * and the count of them all. The only owner of the queue map: plain items go in with
 * `add`, entries with `push`; entries leave early with `remove`, and all leave in
 * batches with `take`.
 */
export class KeyedQueues {
  private readonly queues = new Map<unknown, PriorityQueue<Entry>>()
  /**
   * Cache of the last key's queue: a stream of same-key items never touches the Map.
   * `lastQueue` is undefined whenever that queue has left the Map.
   */
  private lastKey: unknown
  private lastQueue: PriorityQueue<Entry> | undefined
  /** Live entries in all queues. */
  size = 0

  /**
   * @param keyed Whether items have a `batchKey`. With keys, they come and go, so empty
   *   queues are forgotten, beyond a few, to keep the Map bounded; without, there is one
   *   queue for ever.
   */
  constructor(private readonly keyed: boolean) {}

  /** Queues a plain item under `key`, whose record's cost is `cost` (see `PriorityQueue.add`). */
  add(key: unknown, item: unknown, record: Plain, priority: number, cost: number): void {
    this.queueOf(key).add(item, record, priority, cost)
    this.size++
  }

  /** Queues an entry under its key (the entry becomes QUEUED); returns its queue. */
  push(entry: Entry): PriorityQueue<Entry> {
    const queue = this.queueOf(entry.key)
    queue.push(entry)
    this.size++
    return queue
  }

  /**
   * The queue of `key`, made if there is none. The cache's hit here, its miss out of
   * line: `add` is inlined into `submit`'s caller only while all it inlines fits V8's
   * budget of bytecode (docs/runtime-facts.md#v8-on-the-hot-path).
   */
  private queueOf(key: unknown): PriorityQueue<Entry> {
    const queue = this.lastQueue
    return queue !== undefined && key === this.lastKey ? queue : this.lookUp(key)
  }

  /** `queueOf` past the cache's `===` hit: a NaN key still hits it; else the Map, and the cache updated. */
  private lookUp(key: unknown): PriorityQueue<Entry> {
    let queue = this.lastQueue
    const last = this.lastKey
    // Not the Map's key equality (SameValueZero: `===`, but NaN is NaN), written out: a
    // call of a module's function checks its binding on every submit.
    if (queue === undefined || (key !== last && (key === key || last === last))) {
      queue = this.queues.get(key)
      if (queue === undefined) {
        queue = new PriorityQueue<Entry>(key)
        this.queues.set(key, queue)
      }
      this.lastKey = key
      this.lastQueue = queue
    }
    return queue
  }

  /** Takes a live QUEUED entry out of its queue (a tombstone; see queue.ts). */
  remove(entry: Entry): void {
    // A live QUEUED entry's queue always exists.
    const queue = (
      this.lastQueue !== undefined && sameKey(entry.key, this.lastKey) ? this.lastQueue : this.queues.get(entry.key)
    ) as PriorityQueue<Entry>
    queue.remove(entry)
    this.size--
    if (queue.size === 0) this.drop(queue)
  }

  /** The queue whose batch goes next, or when the first one will be ready (see `chooseQueue`). */
  choose(limits: FormationLimits, now: () => number): Choice<Entry> {
    return chooseQueue(this.queues.values(), limits, now)
  }

  /** Takes the next batch of `queue`, at most `maxCount` items costing at most `maxCost`: its items, the entries among them marked running. */
  take(queue: PriorityQueue<Entry>, maxCount: number, maxCost: number): Taken<Entry> {
    const taken = queue.take(maxCount, maxCost)
    this.size -= taken.slots.length
    if (queue.size === 0) this.drop(queue)
    return taken
  }

  /** Takes every queued item out (close({ drain: false }), destroy()), the entries among them marked running. */
  takeAll(): Slots<Entry> | undefined {
    let all: Slots<Entry> | undefined
    for (const queue of this.queues.values()) {
      const { slots } = queue.take(Infinity, Infinity)
      all = all === undefined ? slots : all.concat(slots)
    }
    this.queues.clear()
    this.lastQueue = undefined
    this.size = 0
    this.emptied(undefined)
    return all
  }

  /** `queue` has just emptied (undefined: every queue, by `takeAll`). */
  protected emptied(queue: PriorityQueue<Entry> | undefined): void {
    void queue
  }

  /**
   * An emptied queue: kept for its key's next items while few queues are held, else
   * forgotten. With keys, they come and go, and the Map must stay bounded; but a queue
   * forgotten as soon as it empties (every batch, with one key in use) is made again
   * for the next item, and its levels' arrays grown from empty with it: that growth
   * took ~55 machine instructions per item on core-overhead (callgrind).
   */
  private drop(queue: PriorityQueue<Entry>): void {
    this.emptied(queue)
    if (!this.keyed || this.queues.size <= MAX_IDLE_QUEUES) return
    this.queues.delete(queue.key)
    if (this.lastQueue === queue) this.lastQueue = undefined
  }
}

/** Queues kept, empty, for their keys' next items (see `KeyedQueues.drop`). */
const MAX_IDLE_QUEUES = 16

/**
 * The Map's own key equality (SameValueZero), inline: `Object.is` is a call into a
 * builtin on every submit.
 */
function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b)
}

/**
 * `KeyedQueues` that also keep each queue's entries with a deadline in a `DeadlineIndex`,
 * for deadline formation (which asks it at every formation). A class of its own, not a
 * branch in `push`: `push` is inlined into `submit` within V8's budget of bytecode, and
 * count formation's submits must not pay for the index (with the branch written into
 * `push`, it no longer fit: ~70 more machine instructions per item on core-overhead).
 */
export class DeadlineIndexedQueues extends KeyedQueues {
  private readonly indexes = new Map<PriorityQueue<Entry>, DeadlineIndex>()

  override push(entry: Entry): PriorityQueue<Entry> {
    const queue = super.push(entry)
    this.deadlines(queue).add(entry, queue.size)
    return queue
  }

  /** The deadline index of `queue`. */
  deadlines(queue: PriorityQueue<Entry>): DeadlineIndex {
    let index = this.indexes.get(queue)
    if (index === undefined) {
      index = new DeadlineIndex()
      this.indexes.set(queue, index)
    }
    return index
  }

  /** An emptied queue's index lets go of the (dead) entries it still holds. */
  protected override emptied(queue: PriorityQueue<Entry> | undefined): void {
    if (queue === undefined) this.indexes.clear()
    else this.indexes.delete(queue)
  }
}
