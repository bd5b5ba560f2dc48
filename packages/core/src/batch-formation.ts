import type { PriorityQueue, QueueNode } from './queue.js'

/** The limits batch formation works with (current values; some change at run time). */
export interface FormationLimits {
  maxBatchSize: number
  minBatchSize: number
  maxWaitMs: number
  maxBatchCost: number
  /** Closing with drain: no more items will come, so never wait for them. */
  flush: boolean
}

/** What `chooseQueue` decided. */
export interface Choice<N extends QueueNode> {
  /** Queue whose batch goes now, or `undefined` when none is ready. */
  queue: PriorityQueue<N> | undefined
  /** Earliest time a not-ready queue becomes ready by `maxWaitMs` (Infinity: none). */
  deadline: number
}

/**
 * When the batch formed from `queue` may go: `-Infinity` when it may go now, else the
 * time its oldest item will have waited `maxWaitMs`.
 *
 * A batch goes at once when it would hold >= `minBatchSize` items or cannot grow (full
 * by count or by cost). The live size and summed cost of the queue are enough to tell
 * without walking it: if the whole queue is smaller than `minBatchSize` (itself
 * <= `maxBatchSize`), a batch from it stops early only by cost, and that happens exactly
 * when the queue's summed cost reaches the budget.
 */
export function readyAt<N extends QueueNode>(queue: PriorityQueue<N>, limits: FormationLimits): number {
  const min = limits.minBatchSize < limits.maxBatchSize ? limits.minBatchSize : limits.maxBatchSize
  if (queue.size >= min || queue.cost >= limits.maxBatchCost || limits.flush) return -Infinity
  return queue.oldestEnqueuedAt() + limits.maxWaitMs
}

/** Head order across key queues: higher priority first, then earlier submission. */
function before<N extends QueueNode>(a: PriorityQueue<N>, b: PriorityQueue<N>): boolean {
  const pa = a.headPriority()
  const pb = b.headPriority()
  return pa > pb || (pa === pb && a.headSeq() < b.headSeq())
}

/**
 * Picks the key queue to form the next batch from. Among the queues that are ready,
 * the one whose head item comes first (priority, then submission order) wins. A
 * queue that is not ready yet (waiting for `minBatchSize`) does not hold back a ready
 * queue of another key: the free slot is used, and the waiting queue goes when it
 * fills or its deadline passes.
 *
 * `now` is read lazily: only when some queue's readiness depends on the clock.
 */
export function chooseQueue<N extends QueueNode>(
  queues: Iterable<PriorityQueue<N>>,
  limits: FormationLimits,
  now: () => number,
): Choice<N> {
  let best: PriorityQueue<N> | undefined
  let deadline = Infinity
  let t = NaN
  for (const queue of queues) {
    if (queue.size === 0) continue
    const at = readyAt(queue, limits)
    if (at !== -Infinity) {
      if (t !== t) t = now() // NaN check: read the clock once
      if (at > t) {
        if (at < deadline) deadline = at
        continue
      }
    }
    if (best === undefined || before(queue, best)) best = queue
  }
  return { queue: best, deadline }
}
