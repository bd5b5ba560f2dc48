/**
 * The rate at which rows reach the door, over the last few requests only: a load
 * signal for deadline formation (see `DeadlineFormation`) that turns within as many
 * arrivals, not over a time constant.
 *
 * Why not a rate decaying over time: a window of overload often starts after a pause
 * (an on/off burst, a quiet spell), and a rate decaying over 100 ms (or even 10 ms)
 * still read light for the first tens of milliseconds of the burst, long enough for
 * batches sized as for light load to be answered late (measured on the heavy MLP at 2×
 * capacity with 20 ms deadlines: late rows in 5 of 7 one-second windows). Kept by
 * count, the span of the last `kept` requests is a few milliseconds at 2× capacity; and
 * read against the clock of the step that asks (not the last arrival's), a pause makes
 * it fall at once too.
 */
export class RecentArrivals {
  /** When each kept request arrived, and its rows (a ring of `kept` slots). */
  private readonly at: Float64Array
  private readonly rows: Float64Array
  private next = 0
  private count = 0

  constructor(private readonly kept: number) {
    this.at = new Float64Array(kept)
    this.rows = new Float64Array(kept)
  }

  /** A request of `n` rows arrived at `now`. */
  add(now: number, n: number): void {
    if (this.count < this.kept) this.count++
    this.at[this.next] = now
    this.rows[this.next] = n
    this.next = this.next + 1 === this.kept ? 0 : this.next + 1
  }

  /**
   * Rows per ms from the oldest of the newest `requests` kept (all of them by default)
   * to `now`, that request's own rows left out (they mark the start of the span). 0
   * before two requests have arrived; Infinity when they all arrived at `now` (as many
   * as that, at once, is no light load).
   */
  rowsPerMs(now: number, requests = this.kept): number {
    const n = requests < this.count ? requests : this.count
    if (n < 2) return 0
    let oldest = this.next - n
    if (oldest < 0) oldest += this.kept
    let rows = 0
    for (let i = 1, slot = oldest; i < n; i++) {
      slot = slot + 1 === this.kept ? 0 : slot + 1
      rows += this.rows[slot]
    }
    const span = now - this.at[oldest]
    return span > 0 ? rows / span : Infinity
  }
}
