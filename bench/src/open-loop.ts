/**
 * Open-loop load: requests arrive on a schedule fixed in advance, whether or not the
 * earlier ones were answered — the shape of many independent clients, where a slow
 * server does not slow the arrivals down (a closed loop would, and so hide overload).
 *
 * Two arrival patterns at the same mean rate: Poisson (exponential gaps), and on/off
 * bursts (Poisson at twice the rate during the on half of each period, nothing during
 * the off half). Schedules are seeded, so every policy sees the same arrivals.
 */
import { mulberry32 } from '@inferpool/model-builder'
import { LatencyRecorder, type LatencySummary } from './latency.js'

export type ArrivalPattern = 'poisson' | 'burst'

/** On/off period of the burst pattern (ms): on for the first half, off for the second. */
export const BURST_PERIOD_MS = 100

/**
 * Arrival times (ms from the start, ascending) of a window of `durationMs` at a mean
 * rate of `perSec`, for `pattern`, from a seeded generator.
 */
export function arrivals(pattern: ArrivalPattern, perSec: number, durationMs: number, seed: number): Float64Array {
  const rng = mulberry32(seed)
  const times: number[] = []
  const half = BURST_PERIOD_MS / 2
  // The burst pattern draws Poisson arrivals at twice the rate on "on" time only, then
  // lays that time out with the off halves in between: the mean rate stays `perSec`.
  const rate = pattern === 'poisson' ? perSec / 1000 : (2 * perSec) / 1000
  const span = pattern === 'poisson' ? durationMs : durationMs / 2
  let t = 0
  for (;;) {
    // 1 - rng() is in (0, 1]: the log is finite.
    t += -Math.log(1 - rng()) / rate
    if (t >= span) break
    times.push(pattern === 'poisson' ? t : Math.floor(t / half) * BURST_PERIOD_MS + (t % half))
  }
  return Float64Array.from(times)
}

export interface OpenLoopOptions {
  /** Arrival times (ms from the start), ascending, all below `durationMs`. */
  times: Float64Array
  /** Length of the schedule (ms). */
  durationMs: number
  /** Sends one request; its promise settles with the answer or a typed error. */
  send: (index: number) => Promise<unknown>
  /** Answers later than this (ms from sending) are late. */
  deadlineMs: number
  /** Longest wait for the last answers after the last arrival, before the run is declared hung. @default 60000 */
  drainTimeoutMs?: number
  /**
   * Longest the generator sends in one turn of the event loop (ms of its own clock):
   * when it is behind its schedule, the overdue arrivals go out in slices of about this
   * long, with the event loop's other work (the replicas' answers, timers) in between.
   * See {@link DEFAULT_SLICE_MS}.
   * @default DEFAULT_SLICE_MS
   */
  sliceMs?: number
  now?: () => number
}

/**
 * The generator's default slice (see `OpenLoopOptions.sliceMs`). Sent in one go, a
 * backlog of overdue arrivals is one long task of the host thread, and the answers of
 * the batches that finished meanwhile wait for its end: on the demo MLP at 2× capacity
 * with 20 ms deadlines, turns of up to 7,310–9,827 arrivals lasted 34–39 ms (the
 * replica idle, the next batch's deadlines running out). In slices of 0.5 ms the
 * longest turn was 6 ms, and 3–16 % more answers came within their deadline, at the
 * same schedule.
 */
export const DEFAULT_SLICE_MS = 0.5

export interface OpenLoopResult {
  sent: number
  /** The schedule's length (ms), or longer when the generator sent its last request late. */
  windowMs: number
  /** Answers within the deadline, answers after it. */
  withinDeadline: number
  late: number
  /** Failed requests, by error code (`ERR_…`; `other` for an error without one). */
  failed: Record<string, number>
  /** Latency of every answer (within the deadline or not). */
  answeredMs: LatencySummary
  /** How far behind the schedule requests were sent (ms): the generator's own lag. */
  sendLagMs: LatencySummary
}

/**
 * Sends a request at each arrival time (a timer wakes the generator for the next
 * arrival; everything due by then goes, in slices of `sliceMs` with the event loop's
 * other work in between) and waits until every request settled. Latency counts from
 * when a request was sent.
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { times, send, deadlineMs } = options
  const now = options.now ?? (() => performance.now())
  const drainTimeoutMs = options.drainTimeoutMs ?? 60_000
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS
  const answered = new LatencyRecorder()
  const lag = new LatencyRecorder()
  const failed: Record<string, number> = {}
  let withinDeadline = 0
  let late = 0
  let outstanding = 0
  let next = 0
  let lastSent = 0
  let allSent: () => void = () => {}
  let allSettled: () => void = () => {}
  const sentAll = new Promise<void>((resolve) => (allSent = resolve))
  const settledAll = new Promise<void>((resolve) => (allSettled = resolve))

  const start = now()
  const settle = (): void => {
    if (--outstanding === 0 && next === times.length) allSettled()
  }
  const fire = (index: number, at: number): void => {
    outstanding++
    const sentAt = now()
    lag.record(sentAt - at)
    send(index).then(
      () => {
        const ms = now() - sentAt
        answered.record(ms)
        if (ms <= deadlineMs) withinDeadline++
        else late++
        settle()
      },
      (error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code
        const key = typeof code === 'string' ? code : 'other'
        failed[key] = (failed[key] ?? 0) + 1
        settle()
      },
    )
  }
  const tick = (): void => {
    const began = now()
    const elapsed = began - start
    while (next < times.length && times[next] <= elapsed) {
      fire(next, start + times[next])
      next++
      // Behind schedule for longer than a slice: the rest goes after the event loop's other work.
      if (next < times.length && times[next] <= elapsed && now() - began >= sliceMs) {
        setImmediate(tick)
        return
      }
    }
    lastSent = now() - start
    if (next === times.length) {
      allSent()
      if (outstanding === 0) allSettled()
      return
    }
    setTimeout(tick, Math.max(0, times[next] - (now() - start)))
  }
  tick()
  await sentAll
  let guard: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => {
    guard = setTimeout(
      () => reject(new Error(`open loop: ${outstanding} request(s) unsettled ${drainTimeoutMs} ms after the last arrival`)),
      drainTimeoutMs,
    )
  })
  try {
    await Promise.race([settledAll, hung])
  } finally {
    clearTimeout(guard)
  }
  return {
    sent: times.length,
    windowMs: Math.max(options.durationMs, lastSent),
    withinDeadline,
    late,
    failed,
    answeredMs: answered.summary(),
    sendLagMs: lag.summary(),
  }
}
