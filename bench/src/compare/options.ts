/**
 * `pnpm bench compare <git-ref>` flags → the plan of one comparison, validated once;
 * every message echoes the bad value.
 */
import { parseArgs } from 'node:util'
import { UsageError } from '../config.js'
import type { Window } from '../scenarios/direct.js'
import { FULL_PROBES, QUICK_PROBES, probeId, type Probe } from './probes.js'

export interface CompareOptions {
  /** The git ref measured as side A (the baseline); side B is the working tree. */
  ref: string
  quick: boolean
  /** Interleaved rounds: every probe runs A then B once per round. */
  rounds: number
  /** Warm-up and measured window of every probe, per side, per round. */
  window: Window
  probes: readonly Probe[]
  /** Run even when the machine's 1-minute load is at or above MAX_LOAD (the table then says so loudly). */
  allowLoad: boolean
}

/** Rounds and window of a full run: ~13 probes × 2 sides × 2.5 s × 5 rounds ≈ 6 minutes. */
const FULL = { rounds: 5, window: { warmupMs: 500, durationMs: 2000 } }
/** `--quick`: a smoke run of about a minute after the ref's build. */
const QUICK = { rounds: 3, window: { warmupMs: 200, durationMs: 700 } }

export const COMPARE_USAGE = `Usage: pnpm bench compare <git-ref> [options]

Builds <git-ref> in a temporary git worktree (pnpm install --offline, pnpm build; removed
afterwards) and measures it (A) against this working tree (B) in interleaved rounds:
A, B, A, B, ... Prints one table: median and spread (min-max) per side, the ratio B/A,
and a flag on every row that got worse by more than 5 % with spreads that do not overlap.

Options:
  --quick             a smoke run: ${QUICK.rounds} rounds of ${QUICK.window.durationMs} ms, ${QUICK_PROBES.length} probes
  --rounds <n>        interleaved rounds, >= 2 (default ${FULL.rounds}; --quick ${QUICK.rounds})
  --warmup-ms <ms>    warm-up before each window, >= 0 (default ${FULL.window.warmupMs}; --quick ${QUICK.window.warmupMs})
  --duration-ms <ms>  measured window per probe, >= 100 (default ${FULL.window.durationMs}; --quick ${QUICK.window.durationMs})
  --only <ids>        only the probes whose id contains one of these comma-separated words,
                      e.g. --only door-json,traced (ids: ${FULL_PROBES.map(probeId).join(', ')})
  --allow-load        run even when the 1-minute load average is >= 2 (the table is marked)
  -h, --help          this text`

function fail(message: string): never {
  throw new UsageError(message)
}

function integerFlag(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (value.trim() === '' || !Number.isInteger(n) || n < min) fail(`--${flag} expects an integer >= ${min}, got "${value}"`)
  return n
}

/**
 * `--only a,b`: the probes whose id contains `a` or `b`. A word that matches no probe is a
 * usage error, so a typo cannot silently measure nothing.
 */
function selectProbes(probes: readonly Probe[], only: string | undefined): readonly Probe[] {
  if (only === undefined) return probes
  const words = only.split(',').map((w) => w.trim())
  if (words.some((w) => w === '')) fail(`--only expects comma-separated probe ids or parts of them, got "${only}"`)
  for (const word of words)
    if (!probes.some((p) => probeId(p).includes(word)))
      fail(`--only "${word}" matches no probe; the ids are ${probes.map(probeId).join(', ')}`)
  return probes.filter((p) => words.some((w) => probeId(p).includes(w)))
}

/** Parses the arguments after `compare`. Returns `null` for `--help`. */
export function parseCompareOptions(argv: string[]): CompareOptions | null {
  const args = argv.filter((a) => a !== '--')
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      'warmup-ms': { type: 'string' },
      'duration-ms': { type: 'string' },
      'allow-load': { type: 'boolean', default: false },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) return null
  if (positionals.length === 0) fail('compare needs the git ref to measure against, e.g. `pnpm bench compare main`')
  if (positionals.length > 1) fail(`compare takes one git ref, got ${positionals.length}: ${positionals.map((p) => `"${p}"`).join(' ')}`)
  const ref = positionals[0]
  // A ref starting with "-" would be read by git as an option.
  if (ref.trim() === '' || ref.startsWith('-')) fail(`not a git ref: "${ref}"`)
  const base = values.quick ? QUICK : FULL
  return {
    ref,
    quick: values.quick,
    rounds: integerFlag('rounds', values.rounds, 2) ?? base.rounds,
    window: {
      warmupMs: integerFlag('warmup-ms', values['warmup-ms'], 0) ?? base.window.warmupMs,
      durationMs: integerFlag('duration-ms', values['duration-ms'], 100) ?? base.window.durationMs,
    },
    probes: selectProbes(values.quick ? QUICK_PROBES : FULL_PROBES, values.only),
    allowLoad: values['allow-load'],
  }
}
