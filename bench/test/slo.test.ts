/**
 * The slo scenario on a tiny plan, through the built CLI as a child process: the shape of
 * its result, its charts and its arrival schedules. No figure is asserted — timing
 * belongs to the bench itself.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { arrivals, BURST_PERIOD_MS } from '../src/open-loop.js'
import type { BenchResult } from '../src/results.js'

const run = promisify(execFile)
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const dirs: string[] = []

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

describe('slo arrivals', () => {
  it('draw the same seeded schedule every time, ascending and inside the window', () => {
    const a = arrivals('poisson', 5_000, 1_000, 42)
    expect(a).toEqual(arrivals('poisson', 5_000, 1_000, 42))
    expect(a).not.toEqual(arrivals('poisson', 5_000, 1_000, 43))
    for (let i = 1; i < a.length; i++) expect(a[i]).toBeGreaterThanOrEqual(a[i - 1])
    expect(a[a.length - 1]).toBeLessThan(1_000)
  })

  it('send bursts in the first half of each period only', () => {
    const b = arrivals('burst', 5_000, 1_000, 42)
    expect(b.length).toBeGreaterThan(0)
    for (const t of b) expect(t % BURST_PERIOD_MS).toBeLessThan(BURST_PERIOD_MS / 2)
    for (let i = 1; i < b.length; i++) expect(b[i]).toBeGreaterThanOrEqual(b[i - 1])
  })
})

describe('pnpm bench --only slo --quick', () => {
  it('runs every policy at every point, with medians, targets and both charts', async () => {
    const out = await mkdtemp(join(tmpdir(), 'inferpool-bench-slo-'))
    dirs.push(out)
    const { stdout, stderr } = await run(process.execPath, [cli, '--only', 'slo', '--quick', '--json', '--out', out], {
      timeout: 150_000,
      maxBuffer: 64 * 2 ** 20,
    })
    expect(stderr.includes('FAILED') ? stderr : '').toBe('')
    const result = JSON.parse(stdout) as BenchResult
    expect(result.errors).toEqual([])
    expect(result.scenarios).toEqual(['slo'])
    const slo = result.slo!
    expect(slo.models.map((m) => [m.model, m.maxBatchSize])).toEqual([['heavy', 128]])
    expect(slo.models[0].capacityRowsPerSec).toBeGreaterThan(0)
    // The open-loop capacity search starts from the closed-loop capacity and steps down by
    // ×0.8 until a rate holds (or none does: the lowest tried); the loads are multiples of it.
    const { capacitySteps: steps, closedLoopRowsPerSec, capacityRowsPerSec } = slo.models[0]
    expect(steps[0].rowsPerSec).toBe(closedLoopRowsPerSec)
    steps.slice(1).forEach((step, i) => expect(step.rowsPerSec).toBeCloseTo(steps[i].rowsPerSec * 0.8, 6))
    expect(steps.slice(0, -1).every((step) => !step.ok)).toBe(true)
    expect(steps.at(-1)!.ok || steps.length === 10).toBe(true)
    expect(capacityRowsPerSec).toBe(steps.at(-1)!.rowsPerSec)
    for (const p of slo.points) expect(p.offeredPerSec).toBe(p.load * capacityRowsPerSec)
    expect(slo.models[0].latencyEstimates.map((e) => e.size)).toEqual([1, 2, 4, 8, 16, 32, 64, 128])
    // --quick: heavy model, Poisson, 20 ms, loads 0.5× and 2×, one round of the three policies (order rotating).
    expect(slo.points.map((p) => [p.model, p.pattern, p.deadlineMs, p.load, p.round])).toEqual(
      [0.5, 0.5, 0.5, 2, 2, 2].map((load) => ['heavy', 'poisson', 20, load, 1]),
    )
    expect(
      slo.points
        .slice(0, 3)
        .map((p) => p.policy)
        .sort(),
    ).toEqual(['count', 'deadline', 'max-queue-delay'])
    expect(
      slo.points
        .slice(3)
        .map((p) => p.policy)
        .sort(),
    ).toEqual(['count', 'deadline', 'max-queue-delay'])
    for (const p of slo.points) {
      expect(p.sent).toBeGreaterThan(0)
      const failed = Object.values(p.failed).reduce((a, b) => a + b, 0)
      // Every request settled: within the deadline, late, or failed.
      expect(p.withinDeadline + p.late + failed).toBe(p.sent)
      expect(p.attainment).toBe(p.withinDeadline / p.sent)
      expect(p.wastedRows).toBe(p.rowsRun - p.withinDeadline)
      expect(p.answeredMs.count).toBe(p.withinDeadline + p.late)
    }
    // Triton's default queue policy never times a request out in the queue: every request is answered.
    for (const p of slo.points.filter((x) => x.policy === 'max-queue-delay')) expect(p.failed).toEqual({})
    expect(slo.medians).toHaveLength(6)
    expect(slo.targets.map((t) => [t.id, t.model, t.pattern, t.deadlineMs])).toEqual([
      ['attainment-at-0.5x', 'heavy', 'poisson', 20],
      ['goodput-at-2x-20ms', 'heavy', 'poisson', 20],
      ['wasted-at-2x-20ms', 'heavy', 'poisson', 20],
    ])
    const files = await readdir(out)
    const jsonFile = files.find((f) => f.endsWith('-quick.json'))!
    expect(result.charts.sort()).toEqual(['slo-attainment', 'slo-goodput'].map((c) => jsonFile.replace(/\.json$/, `-${c}.svg`)))
    for (const chart of result.charts) {
      const svg = await readFile(join(out, chart), 'utf8')
      expect(svg.startsWith('<svg')).toBe(true)
      expect(svg).not.toContain('NaN')
    }
  }, 180_000)
})
