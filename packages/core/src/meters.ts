import type { Percentiles } from './types.js'

/**
 * The most recent `capacity` samples of one series, in a fixed `Float64Array` ring:
 * memory stays constant however long the batcher runs, and recording is one store.
 * Percentiles are computed only when `stats` is read.
 */
export class SampleWindow {
  private readonly samples: Float64Array
  private next = 0
  private count = 0

  constructor(readonly capacity: number) {
    this.samples = new Float64Array(capacity)
  }

  /** Samples currently held (at most `capacity`). */
  get size(): number {
    return this.count
  }

  record(value: number): void {
    this.samples[this.next] = value
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1
    if (this.count < this.capacity) this.count++
  }

  /** `record(value)` `k` times, as one fill. */
  recordRun(value: number, k: number): void {
    const capacity = this.capacity
    if (k >= capacity) {
      this.samples.fill(value)
      this.next = (this.next + k) % capacity
      this.count = capacity
      return
    }
    const end = this.next + k
    if (end <= capacity) {
      this.samples.fill(value, this.next, end)
      this.next = end === capacity ? 0 : end
    } else {
      this.samples.fill(value, this.next)
      this.samples.fill(value, 0, end - capacity)
      this.next = end - capacity
    }
    this.count = Math.min(capacity, this.count + k)
  }

  /**
   * Nearest-rank percentiles (the smallest sample such that at least p% of samples
   * are <= it), so every reported figure is a value that was actually observed.
   * All zeros when there are no samples.
   */
  percentiles(): Percentiles {
    const n = this.count
    if (n === 0) return { p50: 0, p95: 0, p99: 0 }
    const sorted = this.samples.slice(0, n).sort()
    return { p50: nearestRank(sorted, 50), p95: nearestRank(sorted, 95), p99: nearestRank(sorted, 99) }
  }
}

/** `sorted` ascending, non-empty; `p` in (0, 100]. */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.max(0, rank - 1)]
}

/**
 * Integral of "busy batch slots" over time, for `utilization`. Updated only when the
 * number of running batches changes, i.e. twice per batch, never per item.
 */
export class BusyTime {
  private busyMs = 0
  private lastAt: number
  private readonly startedAt: number

  constructor(now: number) {
    this.startedAt = now
    this.lastAt = now
  }

  /** Call just before the number of running batches changes from `running`. */
  advance(now: number, running: number): void {
    if (now > this.lastAt) {
      this.busyMs += (now - this.lastAt) * running
      this.lastAt = now
    }
  }

  /** Busy slot-time over available slot-time since construction, in [0, 1]. */
  utilization(now: number, running: number, slots: number): number {
    this.advance(now, running)
    const elapsed = now - this.startedAt
    if (elapsed <= 0 || !Number.isFinite(slots)) return 0
    return Math.min(1, this.busyMs / (elapsed * slots))
  }
}

/**
 * Events per second over roughly the last second: two one-second buckets, the older
 * one weighted by how much of it still falls inside the window. Two stores per
 * update, no allocation; used for the queue's drain rate (items dispatched per
 * second), which admission turns into a `Retry-After`.
 */
export class RateMeter {
  private bucketStart: number
  private current = 0
  private previous = 0

  constructor(now: number) {
    this.bucketStart = now
  }

  add(now: number, count: number): void {
    this.roll(now)
    this.current += count
  }

  /** Events per second. */
  rate(now: number): number {
    this.roll(now)
    const into = Math.min(1, Math.max(0, (now - this.bucketStart) / 1000))
    return this.previous * (1 - into) + this.current
  }

  private roll(now: number): void {
    const elapsed = now - this.bucketStart
    if (elapsed < 1000) return
    // One bucket later: the current bucket becomes the previous one; more: both empty.
    this.previous = elapsed < 2000 ? this.current : 0
    this.current = 0
    this.bucketStart = elapsed < 2000 ? this.bucketStart + 1000 : now
  }
}
