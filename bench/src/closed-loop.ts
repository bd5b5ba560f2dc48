/**
 * Closed-loop load: N callers, each submits one call, awaits it, and submits the next
 * at once — the shape of N concurrent clients that each wait for their answer. Unlike
 * an open loop (fixed arrival rate), throughput here is what the system sustains with
 * N requests outstanding, which is what `callers` means in every bench table.
 */
import { LatencyRecorder, type LatencySummary } from './latency.js'

export interface ClosedLoopOptions {
  /** Concurrent callers (requests outstanding at any time). */
  callers: number
  /** Run this long before measuring; nothing in the warm-up counts. */
  warmupMs: number
  /** Length of the measurement window. */
  durationMs: number
  /** End the window early after this many completed calls (a count bound). @default Infinity */
  maxCalls?: number
  /**
   * Keep the window open past `durationMs` until this many calls completed in it, so a
   * slow model (one call longer than the window) still yields a figure. @default 1
   */
  minCalls?: number
  /** Rows each call carries, to report rows/s. @default 1 */
  rowsPerCall?: number
  /**
   * Extra time granted after the window for in-flight calls to settle before the run
   * is declared hung. A hang is a bug in the system under test; the bench must still end.
   * @default 30000
   */
  drainTimeoutMs?: number
  /** Clock (ms) of the phases and latencies. Inject one in tests. @default performance.now */
  now?: () => number
  /** One call; `caller` is the caller's index (0..callers-1). */
  call: (caller: number) => Promise<unknown>
  /** Called synchronously as the window opens (e.g. to snapshot pool stats). */
  onWindowStart?: () => void
  /** Called synchronously as the window closes. */
  onWindowEnd?: () => void
}

export interface ClosedLoopResult {
  callers: number
  /** Calls completed inside the window. */
  calls: number
  rows: number
  windowMs: number
  rowsPerSec: number
  callsPerSec: number
  latencyMs: LatencySummary
}

export class ClosedLoopHungError extends Error {
  constructor(
    readonly outstanding: number,
    readonly waitedMs: number,
  ) {
    super(`closed loop: ${outstanding} call(s) still outstanding ${Math.round(waitedMs)} ms after the window closed`)
    this.name = 'ClosedLoopHungError'
  }
}

export async function runClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const { callers, warmupMs, durationMs, call } = options
  const maxCalls = options.maxCalls ?? Infinity
  const minCalls = options.minCalls ?? 1
  const rowsPerCall = options.rowsPerCall ?? 1
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000
  const now = options.now ?? (() => performance.now())
  if (!Number.isInteger(callers) || callers < 1) throw new RangeError(`callers must be an integer >= 1, got ${callers}`)

  const latency = new LatencyRecorder()
  let phase: 'warmup' | 'measure' | 'done' = 'warmup'
  // Read through a function after an await: other callers change the phase meanwhile,
  // which TypeScript's narrowing cannot see.
  const currentPhase = () => phase
  const startedAt = now()
  const warmupEnd = startedAt + warmupMs
  let windowStart = 0
  let windowEnd = Infinity
  let windowClosedAt = 0
  let calls = 0
  let outstanding = 0
  let failure: { error: unknown } | undefined

  // Phases are advanced by the callers themselves, from the clock, each time a call
  // settles — no timer has to fire, so a loop whose calls settle on microtasks
  // cannot starve the transition.
  const advance = (t: number): void => {
    if (phase === 'warmup' && t >= warmupEnd) {
      phase = 'measure'
      windowStart = t
      windowEnd = t + durationMs
      options.onWindowStart?.()
    }
    if (phase === 'measure' && ((t >= windowEnd && calls >= minCalls) || calls >= maxCalls)) {
      phase = 'done'
      windowClosedAt = t
      options.onWindowEnd?.()
    }
  }

  const loop = async (index: number): Promise<void> => {
    for (;;) {
      const t0 = now()
      advance(t0)
      if (phase === 'done') return
      outstanding++
      try {
        await call(index)
      } catch (error) {
        // Any failed call makes the figures meaningless: stop every caller and report it.
        failure ??= { error }
        if (currentPhase() !== 'done') {
          phase = 'done'
          windowClosedAt = now()
        }
        return
      } finally {
        outstanding--
      }
      // Every completion while the window is open counts, including calls that started
      // in the warm-up: at steady state that is the sustained rate. The window closes at
      // the clock reading of a completion, so every counted call lies inside it.
      if (currentPhase() === 'measure') {
        latency.record(now() - t0)
        calls++
      }
    }
  }

  const all = Promise.all(Array.from({ length: callers }, (_, i) => loop(i)))
  let guard: NodeJS.Timeout | undefined
  const hung = new Promise<never>((_, reject) => {
    guard = setTimeout(
      () => {
        reject(new ClosedLoopHungError(outstanding, now() - (windowClosedAt || startedAt)))
      },
      warmupMs + durationMs + drainTimeoutMs,
    )
    guard.unref()
  })
  try {
    await Promise.race([all, hung])
  } finally {
    clearTimeout(guard)
  }
  if (failure) throw failure.error
  const windowMs = windowClosedAt - windowStart
  return {
    callers,
    calls,
    rows: calls * rowsPerCall,
    windowMs,
    rowsPerSec: windowMs > 0 ? (calls * rowsPerCall * 1000) / windowMs : 0,
    callsPerSec: windowMs > 0 ? (calls * 1000) / windowMs : 0,
    latencyMs: latency.summary(),
  }
}
