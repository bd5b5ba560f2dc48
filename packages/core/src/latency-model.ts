import { integerOption, numberOption } from './internal.js'
import { quantile } from './quantile.js'

/** Options of `LatencyModel`. */
export interface LatencyModelOptions {
  /**
   * Recent runs kept per batch size. The estimate of a size is the p99 of its window,
   * as in Clockwork (OSDI'20): with 10 runs that is the slowest of the last 10, so one
   * slow run raises the estimate at once and a speed-up lowers it after 10 runs.
   * @default 10
   */
  window?: number
  /**
   * First runs of each batch size left out of its window: the first run of a new
   * shape pays one-off costs (ONNX Runtime allocates and plans for a new input shape)
   * that later runs do not.
   * @default 1
   */
  warmupRuns?: number
  /**
   * Runs of any size after which a size that has not run since is left out (while a
   * fresher size is known). Under load the sizes in use move: a size last run during a
   * stall (a blocked event loop, a warm-up burst) would otherwise hold its slow p99
   * forever — and, since no larger batch is estimated below it, the estimates of every
   * size above it — though it never runs again to correct it.
   * @default 100
   */
  staleAfterRuns?: number
  /**
   * Recent hand-off overheads kept (see `record`'s `overheadMs`); their median is
   * added to every estimate. The median, not a high percentile: the overhead of a
   * batch whose run was measured where it ran is the time the host took to send it
   * and to see its answer, and its slow tail is host-thread stalls (a busy event loop,
   * a GC pause) that come and go, not the cost of a batch of that size.
   * @default 64
   */
  overheadWindow?: number
  /**
   * Recent runs over which `bound` keeps its slow-down margin: a run slower than its
   * size's median scales the median of every size by as much (up to 2×), until
   * `driftWindow` more runs have gone by.
   * @default 16
   */
  driftWindow?: number
  /**
   * Share added to the run part of `bound`: runs of one size on a shared machine vary
   * by tens of percent, and the slowest of the last 10 is about their p90, not a bound
   * (measured on the heavy MLP on 2 cores: runs up to 1.3× the slowest of the 10 before).
   * @default 0.2
   */
  headroom?: number
  /**
   * Recent batches over which `bound` is calibrated against what really happened on the
   * host: each batch's time there — its hand-off (`record`'s `overheadMs`) and the wait
   * until its callers could see its answers (`delivered`) — beyond the hand-off part of
   * the bound it started by (the p90 hand-off as it stood before the batch was
   * recorded). `bound` adds the largest of these in the window, in milliseconds, and is
   * at most doubled by it. 0: no calibration.
   *
   * Why: the bound is built from its parts (the slowest recent run, the recent
   * slow-down, headroom, the p90 hand-off), and on a shared machine what happens end to
   * end still outruns it: measured on the heavy MLP at 2× capacity with 20 ms deadlines,
   * 1–2 % of the batches took 1.2–2.1× their bound, the host thread seeing the answer
   * milliseconds late, and every row of such a batch sized right up to its deadline was
   * answered late.
   *
   * Why milliseconds added, and not a ratio to the whole bound (as before): a late host
   * is late by milliseconds, whatever the batch; measured on the heavy MLP at 0.5× and
   * 2× capacity, 103 of the 118 batches that took twice their bound had run within it:
   * small ones (median 6 rows, a bound of ~2 ms) whose answers the host saw ~4 ms late,
   * and their ratio, held as a factor, doubled the bound of every size for the next 256
   * batches: at 0.5×, batches of ~20 rows that ran in ~3 ms were bound at ~15 ms, and
   * rows with 13–16 ms left were failed.
   * And why the run is left out: a run slower than the bound's run part is already in
   * it after it ran (its size's slowest run, and the slow-down of every size's median);
   * held as a ratio too, one stall counted twice.
   *
   * Why the largest, held whole over the window, and not one that forgets sooner:
   * measured side by side (heavy MLP, Poisson arrivals, 20 ms deadlines, one-second
   * windows, 2 cores), the largest ratio with its excess over 1 halving every 64
   * batches left rows answered late at 2× load in 22 of 48 windows, against 8 of 48
   * held whole (halving every 16 batches: 10 of 14; the p99 of the window: 9 of 14),
   * for the same goodput within a few percent, and no gain at 0.5× load.
   * @default 256
   */
  calibrationWindow?: number
}

/** One size's estimate, as shown in statistics. */
export interface LatencyEstimate {
  /** Rows in the batch. */
  readonly size: number
  /** Estimated run time (ms); `undefined` until any run has been measured. */
  readonly ms: number | undefined
}

/**
 * The recent run times of one batch size (a ring of `window` slots), and their figures,
 * worked out again only after a run of this size was recorded: the model's tables are
 * rebuilt after every batch from every size's figures, and sorting every size's window
 * each time was most of that rebuild. Not at `add` either: `record` runs for every
 * batch, whatever the formation, and count formation reads the model only for stats.
 */
class SizeWindow {
  readonly samples: number[] = []
  next = 0
  /** Runs seen, warm-up ones included. */
  runs = 0
  /** The model's run count at this size's latest measured run. */
  lastRecord = 0
  /** The p99 of `samples`, their slowest, their median (the lower middle one) and their fastest, once `figure()`d. */
  p99 = NaN
  slowest = NaN
  typical = NaN
  fastest = NaN
  /** `samples` changed since the figures were worked out. */
  private changed = false

  add(ms: number, window: number): void {
    this.samples[this.next] = ms
    this.next = (this.next + 1) % window
    this.changed = true
  }

  clear(): void {
    this.samples.length = 0
    this.next = 0
    this.changed = true
  }

  /** Works out the figures again if the samples changed. */
  figure(): void {
    if (!this.changed) return
    this.changed = false
    const sorted = this.samples.slice().sort((a, b) => a - b)
    this.p99 = sorted[Math.ceil(0.99 * sorted.length) - 1] as number
    this.slowest = sorted[sorted.length - 1] as number
    this.typical = sorted[(sorted.length - 1) >> 1] as number
    this.fastest = sorted[0] as number
  }
}

/**
 * Largest slow-down `bound` applies: a stall of the machine (a GC pause, a descheduled
 * replica) can make one run 25× its median; believed whole, it would fail every queued
 * request as hopeless until `driftWindow` runs go by, and with none starting, none would.
 */
const MAX_DRIFT = 2

/** Largest factor by which the calibration raises `bound` (see `LatencyModelOptions.calibrationWindow`), for the reason of `MAX_DRIFT`. */
const MAX_CALIBRATION = 2

/** Fills a table by size from per-size figures (NaN where a size has none), as `LatencyModel` describes. */
function fillTable(p: Float64Array, typical: Float64Array, largest: number): Float64Array {
  // Backward: a size without runs takes the next measured size above it (a batch does
  // not get slower by holding fewer rows)...
  const table = new Float64Array(largest + 1)
  let above = p[largest]
  let hi = largest
  for (let n = largest; n >= 1; n--) {
    if (p[n] === p[n]) {
      above = p[n]
      hi = n
    }
    table[n] = above
  }
  // ...or, between two measured sizes, less when the one below says so: its time
  // scaled in proportion to the rows (the bound of any `t = a·n + b`, b >= 0, through
  // it), or the straight line between the two if that is higher (a time per row that
  // grows with the rows). Why: after a spell of full batches, the sizes still fresh
  // are few and far apart (8, 64, 128), and every size between took the one above: a
  // batch of 9 rows bound like 64. At half the capacity right after such a spell
  // (heavy MLP, 20 ms deadlines), formation could not grow a batch past 8 rows, the
  // replica ran 8 rows per 3 ms turn against 15 arriving, the queue grew, and its rows
  // failed as hopeless: 14 % of the window's requests lost.
  let lo = 0
  for (let n = 1; n <= largest; n++) {
    if (p[n] === p[n]) {
      lo = n
      continue
    }
    if (lo === 0) continue
    while (hi <= n || p[hi] !== p[hi]) hi++
    const line = p[lo] + ((p[hi] - p[lo]) * (n - lo)) / (hi - lo)
    const scaled = (p[lo] * n) / lo
    const between = line > scaled ? line : scaled
    if (between < table[n]) table[n] = between
  }
  // Forward: never below a smaller size's typical (median) run. Not its p99: one stall
  // of the host thread at a small size would hold every larger size's estimate up
  // (measured on the demo model: 94 ms for every size from a run of 2 rows).
  let floor = 0
  for (let n = 1; n <= largest; n++) {
    if (typical[n] > floor) floor = typical[n]
    if (table[n] < floor) table[n] = floor
  }
  return table
}

/**
 * The lower table (`LatencyModel.floor`) from each measured size's fastest run (NaN where
 * a size has none): a batch is not faster by holding more rows, so a size is at least
 * the fastest run of any measured size at or below it; below every measured size, the
 * smallest one's time in proportion to the rows (the least any `t = a·n + b`, b >= 0,
 * through it allows).
 */
function fillFloor(fastest: Float64Array, largest: number): Float64Array {
  const table = new Float64Array(largest + 1)
  let smallest = 0
  for (let n = 1; n <= largest && smallest === 0; n++) if (fastest[n] === fastest[n]) smallest = n
  let floor = 0
  for (let n = 1; n <= largest; n++) {
    if (fastest[n] > floor) floor = fastest[n]
    table[n] = n < smallest ? (fastest[smallest] * n) / smallest : floor
  }
  return table
}

/**
 * How long a batch of n rows takes, learned online from the batches that ran: the
 * p99 of the last `window` runs of each size (warm-up runs excluded), made
 * conservative for sizes with no run of their own:
 *
 * - it is never below the typical (median) run of any measured size below n (a batch
 *   does not get faster by holding more rows) — the median, not the p99, so that one
 *   slow run at a small size does not raise every larger size;
 * - a size between two measured sizes gets the next measured size above it, or less
 *   when the size below says so: its time in proportion to the rows (or the straight
 *   line between the two, if higher), so that a batch can grow past the sizes in use
 *   by steps, not only to the next size measured far above them;
 * - a size below every measured one gets the smallest measured size;
 * - a size beyond every measured one is extrapolated in proportion to its rows from
 *   the largest measured size's time per row — an upper bound of any `t = a·n + b`
 *   line (b >= 0) through that point, since the fixed part `b` is scaled up, not away.
 *   (Not the highest time per row of any size: that is nearly always size 1's, whose
 *   fixed part dominates, and batches would then grow a row at a time.)
 * - a size not run in the last `staleAfterRuns` runs is forgotten, so the
 *   estimates follow the sizes in use;
 * - before any run has been measured, nothing is known: `estimate` answers
 *   `undefined`, and a scheduler runs a probe (a batch of one) to learn.
 *
 * A run is best measured where it runs (a replica's own `session.run`), apart from the
 * hand-off around it (sending the batch, seeing its answer): measured from dispatch to
 * settle on a busy host thread, a run of 0.1 ms reads as tens of ms whenever the
 * thread was late to see its answer, and those stalls, held as a size's p99, refuse
 * requests that would have made it. So `record` takes the hand-off apart
 * (`overheadMs`), and an estimate is the p99 of the runs plus the median hand-off.
 *
 * Three figures per size, for decisions that err in different directions:
 *
 * - `estimate`, the typical case — the p99 of the runs plus the median hand-off: what
 *   deadline formation counts rows answered in time by when it weighs a batch larger
 *   than the bound allows;
 * - `bound`, for starting a batch: a batch whose answer comes late wastes a replica's
 *   time on every row in it, so formation uses a bound — the slowest run in the size's
 *   window, or its median times the largest slow-down of the last `driftWindow` runs
 *   (a recent run's time over its size's median, at most 2×), whichever is larger, with
 *   `headroom`, plus the p90 hand-off — and, for calibration, plus the largest time, over
 *   the last `calibrationWindow` batches, that a batch spent on the host (hand-off and
 *   callers' wait) beyond the hand-off part of the bound it started by (at most as much
 *   again as the rest).
 *   Measured on the heavy MLP at 2× capacity with 20 ms deadlines, batches sized by the
 *   estimate ran past it often enough that 309 rows a second were run for late answers.
 * - `floor`, for deciding that a deadline is out of reach — failing a queued row, or
 *   refusing a request at the door: the fastest the batch has been seen to go (the
 *   fastest run in the size's window, plus the fastest recent hand-off), with no margin.
 *   A row is given up only when even that misses its deadline; where the figures
 *   disagree, the row runs. Why: on a busy machine the hand-off's median and tail grow
 *   with the host thread's load, and a door or a drop decided by them turned a
 *   closed loop of 64 clients into a loop of refusals (every refusal answered at once,
 *   sent again at once, keeping the host busy, keeping the figures high): 0 requests
 *   answered in time against ~10,000 with count formation. The floor follows the machine
 *   back at once: one fast run is enough.
 *
 * Pure and dependency-free: it is told each run's size and duration (`record`) by
 * whoever measured it, on whatever clock; it reads no clock itself.
 */
export class LatencyModel {
  private readonly window: number
  private readonly warmupRuns: number
  private readonly staleAfterRuns: number
  /** Measured runs recorded, of every size. */
  private records = 0
  private readonly sizes = new Map<number, SizeWindow>()
  /** Estimates by size, rebuilt lazily after a `record`; index 0 unused. */
  private table: Float64Array = new Float64Array(0)
  private dirty = false
  /** Largest measured size, and its p99 per row. */
  private largest = 0
  private perRow = 0
  /** `bound`'s tables (slowest runs, median runs; index 0 unused) and their times per row past the largest size. */
  private high: Float64Array = new Float64Array(0)
  private highPerRow = 0
  private mid: Float64Array = new Float64Array(0)
  private midPerRow = 0
  /** The p90 hand-off, which `bound` adds. */
  private overheadHigh = 0
  /** `floor`'s table (fastest runs; index 0 unused), and the fastest recent hand-off it adds. */
  private low: Float64Array = new Float64Array(0)
  private overheadLow = 0
  private readonly driftWindow: number
  /**
   * The last `driftWindow` measured runs (a ring of sizes and times), and their largest
   * slow-down against their size's median (1..MAX_DRIFT), worked out in `rebuild`: `record`
   * is called for every batch, whatever the formation, so it only stores.
   */
  private readonly recentSizes: number[] = []
  private readonly recentMs: number[] = []
  private nextRecent = 0
  private drift = 1
  private readonly headroom: number
  private readonly overheadWindow: number
  /** Recent hand-off overheads (a ring of `overheadWindow` slots), and their median. */
  private readonly overheads: number[] = []
  private nextOverhead = 0
  private overhead = 0
  private readonly calibrationWindow: number
  /**
   * Each batch recorded since the tables were last rebuilt: its time on the host (its
   * hand-off, and its callers' wait once `delivered` tells it), waiting to be set against
   * the hand-off part of the bound it started by: `record` only stores (it runs for
   * every batch, whatever the formation), and `rebuild` sets each against the p90
   * hand-off as it was before it. At most `calibrationWindow` kept.
   */
  private readonly pendingHostMs: number[] = []
  /**
   * Recent batches' time on the host beyond the hand-off part of their bound (ms; a
   * ring of `calibrationWindow` slots), and the largest of them (>= 0), which `bound` adds.
   */
  private readonly hostExcess: number[] = []
  private nextExcess = 0
  private hostMargin = 0
  /**
   * The latest counted batches (pending or in `hostExcess`) whose callers' wait
   * `delivered` has not been told of yet: several may settle in one turn of the event
   * loop, and each gets that turn's wait.
   */
  private undelivered = 0

  constructor(options: LatencyModelOptions = {}) {
    this.window = options.window === undefined ? 10 : integerOption('window', options.window, 1)
    this.warmupRuns = options.warmupRuns === undefined ? 1 : integerOption('warmupRuns', options.warmupRuns, 0)
    this.staleAfterRuns = options.staleAfterRuns === undefined ? 100 : integerOption('staleAfterRuns', options.staleAfterRuns, 1)
    this.overheadWindow = options.overheadWindow === undefined ? 64 : integerOption('overheadWindow', options.overheadWindow, 1)
    this.driftWindow = options.driftWindow === undefined ? 16 : integerOption('driftWindow', options.driftWindow, 1)
    this.headroom = options.headroom === undefined ? 0.2 : numberOption('headroom', options.headroom, 0)
    this.calibrationWindow =
      options.calibrationWindow === undefined ? 256 : integerOption('calibrationWindow', options.calibrationWindow, 0)
  }

  /**
   * Forgets every run and hand-off measured so far, as if none had been (each size's
   * warm-up stays done): for when a run has shown them out of date — a probe that
   * answered in time where the model said no batch could. Until the next `record`,
   * `measured` is false.
   */
  forget(): void {
    for (const sw of this.sizes.values()) sw.clear()
    this.overheads.length = 0
    this.nextOverhead = 0
    this.recentSizes.length = 0
    this.recentMs.length = 0
    this.nextRecent = 0
    this.pendingHostMs.length = 0
    this.hostExcess.length = 0
    this.nextExcess = 0
    this.hostMargin = 0
    this.undelivered = 0
    // The tables go too, not only at the next rebuild: that rebuild would otherwise set
    // the next batch against the forgotten tables' bound.
    this.largest = 0
    this.dirty = true
  }

  /** Whether any run has been measured (past its size's warm-up). */
  get measured(): boolean {
    if (this.dirty) this.rebuild()
    return this.largest > 0
  }

  /**
   * Records that a batch of `size` rows ran in `ms`, and, when the run was measured
   * where it ran, that handing it over and back took `overheadMs` more (the time from
   * dispatch to settle minus `ms`). Ignores sizes < 1 and durations that are not finite
   * and >= 0 (an overhead that is not is left out alone: clocks of two threads may
   * disagree by a rounding).
   */
  record(size: number, ms: number, overheadMs?: number): void {
    if (!(size >= 1) || !(ms >= 0) || ms === Infinity) return
    const handOff = overheadMs !== undefined && overheadMs >= 0 && overheadMs !== Infinity ? overheadMs : undefined
    if (handOff !== undefined) {
      this.overheads[this.nextOverhead] = handOff
      this.nextOverhead = (this.nextOverhead + 1) % this.overheadWindow
      this.dirty = true
    }
    size = Math.floor(size)
    let sw = this.sizes.get(size)
    if (sw === undefined) {
      sw = new SizeWindow()
      this.sizes.set(size, sw)
    }
    if (++sw.runs <= this.warmupRuns) return
    if (this.calibrationWindow > 0 && this.pendingHostMs.length < this.calibrationWindow) {
      this.pendingHostMs.push(handOff === undefined ? 0 : handOff)
      if (this.undelivered < this.calibrationWindow) this.undelivered++
    }
    this.recentSizes[this.nextRecent] = size
    this.recentMs[this.nextRecent] = ms
    this.nextRecent = (this.nextRecent + 1) % this.driftWindow
    sw.add(ms, this.window)
    sw.lastRecord = ++this.records
    this.dirty = true
  }

  /**
   * Estimated run time (ms) of a batch of `size` rows, hand-off included, never below what was measured
   * for any size <= `size` (see the class); `undefined` while nothing is measured.
   */
  estimate(size: number): number | undefined {
    if (this.dirty) this.rebuild()
    if (this.largest === 0) return undefined
    const n = size < 1 ? 1 : Math.ceil(size)
    if (n <= this.largest) return this.table[n] + this.overhead
    return this.perRow * n + this.overhead
  }

  /**
   * The least time (ms) a batch of `size` rows has been seen to take, hand-off included:
   * the fastest run of its window (or of a smaller measured size), plus the fastest recent
   * hand-off. A deadline closer than this is out of reach; `undefined` while nothing is
   * measured. Never above `estimate(size)`.
   */
  floor(size: number): number | undefined {
    if (this.dirty) this.rebuild()
    if (this.largest === 0) return undefined
    const n = size < 1 ? 1 : Math.ceil(size)
    return (n <= this.largest ? this.low[n] : this.low[this.largest]) + this.overheadLow
  }

  /**
   * An upper bound (ms) of the run of a batch of `size` rows, hand-off included, for
   * deciding whether a batch may start (see the class): never below `estimate(size)`;
   * `undefined` while nothing is measured.
   */
  bound(size: number): number | undefined {
    if (this.dirty) this.rebuild()
    if (this.largest === 0) return undefined
    const uncalibrated = this.uncalibrated(size < 1 ? 1 : Math.ceil(size))
    const bound = uncalibrated + this.hostMargin
    const most = MAX_CALIBRATION * uncalibrated
    return bound < most ? bound : most
  }

  /** `bound` of `n` rows (>= 1) by the tables as they are, before calibration. */
  private uncalibrated(n: number): number {
    const slowest = n <= this.largest ? this.high[n] : this.highPerRow * n
    const drifted = (n <= this.largest ? this.mid[n] : this.midPerRow * n) * this.drift
    return (slowest > drifted ? slowest : drifted) * (1 + this.headroom) + this.overheadHigh
  }

  /**
   * Sets the batches recorded since the last rebuild against the hand-off part of the
   * bound they started by (the p90 hand-off before the tables change), and works out
   * the margin again.
   */
  private calibrate(): void {
    const pending = this.pendingHostMs.length
    if (pending === 0) return
    // Nothing was measured before them: no bound to set them against.
    if (this.largest === 0) this.undelivered = 0
    else {
      for (let i = 0; i < pending; i++) {
        this.hostExcess[this.nextExcess] = this.pendingHostMs[i] - this.overheadHigh
        this.nextExcess = (this.nextExcess + 1) % this.calibrationWindow
      }
    }
    this.pendingHostMs.length = 0
    this.hostMargin = 0
    for (const excess of this.hostExcess) this.hold(excess)
  }

  /** Raises the host margin to `excess` (ms) if that is larger. */
  private hold(excess: number): void {
    if (excess > this.hostMargin) this.hostMargin = excess
  }

  /**
   * Records that the answers of the batches recorded since the last `delivered` reached
   * their callers `ms` after the first of them was recorded (they settled in one turn of
   * the event loop), and counts that time in each one's calibration (see
   * `LatencyModelOptions.calibrationWindow`). Ignored unless finite and >= 0; batches
   * not counted (calibration off, a warm-up run, nothing measured before them, more
   * than `calibrationWindow` recorded with no read between) get nothing.
   *
   * Why: `record` is told when the batch settled, and its callers see their answers
   * only after what the host does next at that moment (forming and sending the next
   * batch, failing the queued rows that can no longer make it): measured on the heavy MLP
   * at 2× capacity with 20 ms deadlines, 0.3–0.5 ms typically, up to 7.7 ms, and rows
   * were answered late by that alone.
   */
  delivered(ms: number): void {
    if (this.undelivered === 0 || !(ms >= 0) || ms === Infinity) return
    let left = this.undelivered
    this.undelivered = 0
    // The newest are still pending (set against their bound at the next rebuild)...
    const pending = this.pendingHostMs.length
    for (let i = pending - 1; i >= 0 && left > 0; i--, left--) this.pendingHostMs[i] += ms
    // ...the others were set against it already, in the slots before `nextExcess`.
    const window = this.calibrationWindow
    for (let slot = (this.nextExcess - 1 + window) % window; left > 0 && slot < this.hostExcess.length; left--) {
      this.hold((this.hostExcess[slot] += ms))
      slot = (slot - 1 + window) % window
    }
  }

  /** The estimates at `sizes`, for statistics. */
  estimates(sizes: readonly number[]): LatencyEstimate[] {
    return sizes.map((size) => ({ size, ms: this.estimate(size) }))
  }

  private rebuild(): void {
    this.dirty = false
    this.calibrate()
    // The latest run is always fresh, so some size is always kept once any is measured.
    const fresh = (sw: SizeWindow) => sw.samples.length > 0 && this.records - sw.lastRecord < this.staleAfterRuns
    let largest = 0
    for (const [size, sw] of this.sizes) if (fresh(sw) && size > largest) largest = size
    this.largest = largest
    this.perRow = 0
    this.highPerRow = 0
    this.midPerRow = 0
    const overheads = this.overheads.slice().sort((a, b) => a - b)
    this.overhead = quantile(overheads, 0.5)
    this.overheadHigh = quantile(overheads, 0.9)
    this.overheadLow = overheads.length > 0 ? (overheads[0] as number) : 0
    this.drift = 1
    if (largest === 0) return
    const p = new Float64Array(largest + 1).fill(NaN)
    const slowest = new Float64Array(largest + 1).fill(NaN)
    const typical = new Float64Array(largest + 1).fill(NaN)
    const fastest = new Float64Array(largest + 1).fill(NaN)
    for (const [size, sw] of this.sizes) {
      if (!fresh(sw)) continue
      sw.figure()
      p[size] = sw.p99
      slowest[size] = sw.slowest
      typical[size] = sw.typical
      fastest[size] = sw.fastest
    }
    // How much slower than its size's median each recent run was.
    let drift = 1
    for (let i = 0; i < this.recentSizes.length; i++) {
      const usual = this.recentSizes[i] <= largest ? typical[this.recentSizes[i]] : NaN
      if (usual > 0 && this.recentMs[i] > usual * drift) drift = this.recentMs[i] / usual
    }
    this.drift = drift < MAX_DRIFT ? drift : MAX_DRIFT
    this.table = fillTable(p, typical, largest)
    this.high = fillTable(slowest, typical, largest)
    this.mid = fillTable(typical, typical, largest)
    this.low = fillFloor(fastest, largest)
    // From the largest size's figure, not its own p99: past it, never below it either.
    this.perRow = this.table[largest] / largest
    this.highPerRow = this.high[largest] / largest
    this.midPerRow = this.mid[largest] / largest
  }
}
