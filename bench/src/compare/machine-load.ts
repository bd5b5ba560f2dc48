/**
 * The machine's 1-minute load average, read from `uptime` as a user would, and whether a
 * comparison may run under it. On the 2-core machines the bench is run on, a load of 2
 * means another process holds a core on average: A/B ratios taken then say more about
 * the neighbour than about the code.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

/** At or above this 1-minute load, `compare` refuses to run unless `--allow-load` is given. */
export const MAX_LOAD = 2

/**
 * The 1-minute figure of `uptime`'s "load average: 1.23, 0.98, 0.77" (BSD and macOS
 * print "load averages:"; some locales print decimal commas: "load average: 1,23, 0,98, 0,77").
 */
export function parseLoadAverage(uptime: string): number {
  const match = /load averages?:\s*(\d+)[.,](\d+)/.exec(uptime)
  if (!match) throw new Error(`cannot read the load average from uptime's output: "${uptime.trim()}"`)
  return Number(`${match[1]}.${match[2]}`)
}

export async function loadAverage(): Promise<number> {
  const { stdout } = await promisify(execFile)('uptime', [], { timeout: 10_000 })
  return parseLoadAverage(stdout)
}

/** What to do at `load`: go on, refuse, or go on with a warning in the table (`--allow-load`). */
export function loadVerdict(load: number, allowLoad: boolean): { run: boolean; warning: string | null } {
  if (load < MAX_LOAD) return { run: true, warning: null }
  const warning = `the 1-minute load was ${load.toFixed(2)} (>= ${MAX_LOAD}) when this run started: other work shares the cores, read every figure as indicative only`
  return { run: allowLoad, warning }
}
