/**
 * The clock a batch's deadlines travel on, host to replica: read alike by every thread
 * and every process of the machine, so a deadline the host wrote means the same instant
 * in a worker thread or a replica process (docs/runtime-facts.md#clocks-across-threads-and-processes).
 */

/**
 * Milliseconds on the machine's monotonic clock (`process.hrtime`: CLOCK_MONOTONIC on
 * Linux, the same in every thread and process), not the time of day. Not
 * `performance.timeOrigin + performance.now()`: that adds the time of day at each
 * thread's or process's start, so two of them disagree by however far the wall clock
 * was stepped between their starts.
 */
export function sharedClockMs(): number {
  const [seconds, nanoseconds] = process.hrtime()
  return seconds * 1e3 + nanoseconds / 1e6
}

/**
 * The rows (indices, ascending) whose deadline falls before `endsAt`, or `undefined`
 * when none does: those a run that ends at `endsAt` would answer too late.
 */
export function lateRows(deadlines: readonly number[], endsAt: number): number[] | undefined {
  let late: number[] | undefined
  for (let i = 0; i < deadlines.length; i++) if ((deadlines[i] as number) < endsAt) (late ??= []).push(i)
  return late
}
