import { describe, expect, it } from 'vitest'
import { UsageError } from '../src/config.js'
import { loadVerdict, MAX_LOAD, parseLoadAverage } from '../src/compare/machine-load.js'
import { parseCompareOptions } from '../src/compare/options.js'
import { FULL_PROBES, probeId, QUICK_PROBES } from '../src/compare/probes.js'

describe('compare flags', () => {
  it('default to 5 rounds of 2 s windows over every probe: the door at 1 and 64 connections, gRPC streaming, the pool at 1 and 256 callers with thread and process replicas, core, the door traced', () => {
    const o = parseCompareOptions(['main'])!
    expect(o.ref).toBe('main')
    expect([o.quick, o.rounds, o.window, o.allowLoad]).toEqual([false, 5, { warmupMs: 500, durationMs: 2000 }, false])
    expect(o.probes.map(probeId)).toEqual([
      'door-json-1row-c1',
      'door-json-1row-c64',
      'door-json-64row-c1',
      'door-json-64row-c64',
      'door-binary-1row-c1',
      'door-binary-1row-c64',
      'door-binary-64row-c1',
      'door-binary-64row-c64',
      'grpc-stream-c1',
      'grpc-stream-c64',
      'pool-callers1',
      'pool-callers256',
      'pool-process-callers1',
      'pool-process-callers256',
      'core',
      'door-json-1row-c64-traced-always',
      'door-json-1row-c64-traced-ratio1pct',
    ])
    expect(o.probes).toBe(FULL_PROBES)
  })

  it('--quick: 3 short rounds of six probes', () => {
    const o = parseCompareOptions(['--quick', 'e6d65b7'])!
    expect([o.ref, o.quick, o.rounds, o.window]).toEqual(['e6d65b7', true, 3, { warmupMs: 200, durationMs: 700 }])
    expect(o.probes.map(probeId)).toEqual([
      'door-json-1row-c64',
      'door-binary-1row-c64',
      'grpc-stream-c64',
      'pool-callers1',
      'pool-callers256',
      'core',
    ])
    expect(o.probes).toBe(QUICK_PROBES)
  })

  it('takes rounds, windows and --allow-load as given, with --quick or without, and drops a `--` separator', () => {
    const o = parseCompareOptions(['--', 'HEAD~3', '--quick', '--rounds', '7', '--warmup-ms', '0', '--duration-ms', '100', '--allow-load'])!
    expect([o.ref, o.rounds, o.window, o.allowLoad]).toEqual(['HEAD~3', 7, { warmupMs: 0, durationMs: 100 }, true])
  })

  it('returns null for --help', () => {
    expect(parseCompareOptions(['--help'])).toBeNull()
    expect(parseCompareOptions(['main', '-h'])).toBeNull()
  })

  const bad: Array<[string[], string]> = [
    [[], 'compare needs the git ref to measure against, e.g. `pnpm bench compare main`'],
    [['main', 'e6d65b7'], 'compare takes one git ref, got 2: "main" "e6d65b7"'],
    [['main', '--rounds', '1'], '--rounds expects an integer >= 2, got "1"'],
    [['main', '--rounds', '3.5'], '--rounds expects an integer >= 2, got "3.5"'],
    [['main', '--rounds', ''], '--rounds expects an integer >= 2, got ""'],
    [['main', '--warmup-ms=-5'], '--warmup-ms expects an integer >= 0, got "-5"'],
    [['main', '--duration-ms', '99'], '--duration-ms expects an integer >= 100, got "99"'],
    [['main', '--duration-ms', '2s'], '--duration-ms expects an integer >= 100, got "2s"'],
    [[' '], 'not a git ref: " "'],
    [['main', '--only', 'door-json,'], '--only expects comma-separated probe ids or parts of them, got "door-json,"'],
  ]
  for (const [argv, message] of bad)
    it(`refuses ${JSON.stringify(argv)} with a message that echoes the bad value`, () => {
      expect(() => parseCompareOptions(argv)).toThrow(new UsageError(message))
    })

  it('--only keeps the probes whose id contains one of the words, in their usual order', () => {
    const o = parseCompareOptions(['main', '--only', 'traced,grpc'])!
    expect(o.probes.map(probeId)).toEqual([
      'grpc-stream-c1',
      'grpc-stream-c64',
      'door-json-1row-c64-traced-always',
      'door-json-1row-c64-traced-ratio1pct',
    ])
  })

  it('--only refuses a word that matches no probe, listing the ids', () => {
    expect(() => parseCompareOptions(['main', '--only', 'dor'])).toThrow(
      new UsageError(`--only "dor" matches no probe; the ids are ${FULL_PROBES.map(probeId).join(', ')}`),
    )
  })

  it('refuses an unknown flag, naming it', () => {
    expect(() => parseCompareOptions(['main', '--rows', '3'])).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION', message: expect.stringContaining("'--rows'") }),
    )
  })
})

describe("uptime's load average", () => {
  it('reads the 1-minute figure from Linux, BSD and decimal-comma outputs', () => {
    expect(parseLoadAverage(' 13:51:32 up 6 min,  0 user,  load average: 1.37, 0.89, 0.41\n')).toBe(1.37)
    expect(parseLoadAverage('14:02  up 3 days,  2:11, 2 users, load averages: 2.05 1.90 1.70')).toBe(2.05)
    expect(parseLoadAverage(' 09:00:01 up 1 day,  1 user,  load average: 0,52, 0,61, 0,70')).toBe(0.52)
  })

  it('says so, echoing the output, when it cannot read it', () => {
    expect(() => parseLoadAverage('up 3 days\n')).toThrow(new Error(`cannot read the load average from uptime's output: "up 3 days"`))
  })

  it(`runs below ${MAX_LOAD}, refuses at or above it, and with --allow-load runs with a warning`, () => {
    expect(loadVerdict(1.99, false)).toEqual({ run: true, warning: null })
    expect(loadVerdict(2, false).run).toBe(false)
    expect(loadVerdict(2.5, true)).toEqual({
      run: true,
      warning: 'the 1-minute load was 2.50 (>= 2) when this run started: other work shares the cores, read every figure as indicative only',
    })
  })
})
