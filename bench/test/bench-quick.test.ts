/**
 * Keeps `pnpm bench` from rotting: runs the built CLI with `--quick` on a tiny
 * configuration, as a child process, and checks the exit code and the structure of the
 * result JSON and charts. No figure is asserted — timing belongs to the bench itself.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import type { BenchResult } from '../src/results.js'
import { pythonBaselineMissing } from '../src/scenarios/http.js'

const run = promisify(execFile)
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const dirs: string[] = []

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

async function bench(args: string[]): Promise<{ code: number; stdout: string; stderr: string; out: string }> {
  const out = await mkdtemp(join(tmpdir(), 'inferpool-bench-'))
  dirs.push(out)
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args, '--out', out], { timeout: 150_000, maxBuffer: 64 * 2 ** 20 })
    return { code: 0, stdout, stderr, out }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '', out }
  }
}

describe('pnpm bench --quick', () => {
  it('runs every scenario on a tiny configuration, exits 0 and writes a complete result JSON with charts', async () => {
    const { code, stdout, stderr, out } = await bench([
      '--quick',
      '--json',
      '--callers',
      '1,8',
      '--connections',
      '4',
      '--warmup-ms',
      '50',
      '--duration-ms',
      '200',
    ])
    expect(stderr.includes('FAILED') ? stderr : '').toBe('')
    expect(code).toBe(0)

    const printed = JSON.parse(stdout) as BenchResult
    const files = await readdir(out)
    const jsonFile = files.find((f) => f.endsWith('-quick.json'))
    expect(jsonFile).toBeDefined()
    const result = JSON.parse(await readFile(join(out, jsonFile!), 'utf8')) as BenchResult
    expect(result).toEqual(printed)

    expect(result.schema).toBe(1)
    expect(result.quick).toBe(true)
    expect(result.errors).toEqual([])
    expect(result.scenarios).toEqual(['core', 'direct', 'pool', 'targets', 'isolation', 'http', 'grpc', 'third-party', 'memory'])
    expect(result.machine.cores).toBeGreaterThanOrEqual(1)
    expect(result.machine.onnxruntime).toMatch(/^\d+\.\d+\.\d+/)
    expect(result.machine.node).toBe(process.version)
    expect(result.model?.inputs.map((i) => [i.name, i.type, i.rowDims])).toEqual([['input', 'float32', [256]]])
    expect(result.model?.fixedBatchSize).toBeNull()

    expect(result.core?.ratio).toBeGreaterThan(0)

    expect(result.direct?.row.map((p) => p.callers)).toEqual([1, 8])
    expect(result.direct?.practicalLimit?.variants.map((v) => [v.name, v.batchSize])).toEqual([
      ['worker-threads', 128],
      ['one-session', 128],
    ])

    // --quick sweeps replicas 1 × concurrency 1 × maxBatchSize {1, 128}; --callers 1,8.
    expect(result.pool.map((p) => [p.replicas, p.concurrency, p.maxBatchSize, p.callers])).toEqual([
      [1, 1, 1, 1],
      [1, 1, 1, 8],
      [1, 1, 128, 1],
      [1, 1, 128, 8],
    ])
    for (const p of result.pool) {
      expect(p.calls).toBeGreaterThan(0)
      expect(p.latencyMs.count).toBe(p.calls)
      expect(p.latencyMs.p50).toBeLessThanOrEqual(p.latencyMs.p99)
      expect(p.meanBatchSize).toBeGreaterThanOrEqual(1)
      expect(p.meanBatchSize).toBeLessThanOrEqual(p.effectiveMaxBatchSize)
      expect(p.efficiency).toBeGreaterThan(0)
    }
    // Batching off means exactly one row per batch.
    expect(result.pool.filter((p) => p.maxBatchSize === 1).map((p) => p.meanBatchSize)).toEqual([1, 1])

    // One interleaved target round on the best swept shape, at the most callers: which shape
    // wins is a measurement, so the rule is checked, not a winner.
    const best = result.pool.filter((p) => p.callers === 8).reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a))
    expect(result.targets?.shape).toEqual({ replicas: 1, concurrency: 1, maxBatchSize: best.maxBatchSize })
    expect(result.targets?.callers).toBe(8)
    expect(result.targets?.rounds).toHaveLength(1)
    expect(result.targets?.rounds[0].batchingOff.meanBatchSize).toBe(1)
    expect(result.summary.practicalLimitRowsPerSec).toBe(result.targets?.median.practicalLimitRowsPerSec)

    // One interleaved isolation round on the same shape: both modes at 8 callers and 1, then memory.
    expect(result.isolation?.shape).toEqual({ replicas: 1, concurrency: 1, maxBatchSize: best.maxBatchSize })
    expect(result.isolation?.rounds.map((x) => [x.thread.callers, x.process.callers, x.thread1.callers, x.process1.callers])).toEqual([
      [8, 8, 1, 1],
    ])
    expect(result.isolation?.rounds[0].process.calls).toBeGreaterThan(0)
    expect(result.isolation?.memory?.processReplicaMiB).toHaveLength(1)
    expect(result.isolation?.memory?.processReplicaMiB[0]).toBeGreaterThan(0)

    // The naive Python server runs only where python3 has its packages.
    const python = (await pythonBaselineMissing()) === null
    expect(result.http.map((p) => [p.server, p.connections])).toEqual([
      ['batched', 4],
      ['batching-off', 4],
      ['plain-node-http', 4],
      ...(python ? [['python-fastapi', 4]] : []),
    ])
    for (const p of result.http) expect(p.requests).toBeGreaterThan(0)
    // The door rounds: inferpool and the no-op server, JSON and binary, one round, then 64-row requests.
    expect(result.door?.points.map((p) => [p.server, p.encoding, p.rowsPerRequest])).toEqual([
      ['inferpool', 'json', 1],
      ['noop', 'json', 1],
      ['inferpool', 'binary', 1],
      ['noop', 'binary', 1],
      ['inferpool', 'json', 64],
      ['inferpool', 'binary', 64],
    ])
    // (A 64-row JSON request may not complete inside a 200 ms window on a loaded machine: only single rows are required.)
    for (const p of result.door?.points ?? []) if (p.rowsPerRequest === 1) expect(p.requestsPerSec).toBeGreaterThan(0)

    // One gRPC round of the five variants, then the 64-row streaming point.
    expect(result.grpc.map((p) => [p.variant, p.round, p.rowsPerRequest])).toEqual([
      ['noop-grpc-unary', 1, 1],
      ['noop-grpc-stream', 1, 1],
      ['grpc-unary', 1, 1],
      ['grpc-stream', 1, 1],
      ['http-json', 1, 1],
      ['grpc-stream', 1, 64],
    ])
    for (const p of result.grpc) {
      expect(p.requests).toBeGreaterThan(0)
      expect(p.serverCpuUsPerRow).toBeGreaterThan(0)
    }
    expect(result.summary.grpc?.streamVsJson).toBeGreaterThan(0)

    expect(result.thirdParty?.fixedBatchSize).toBe(1)
    expect(result.thirdParty?.rounds.map((round) => round.map((p) => p.replicas))).toEqual([
      [1, 2],
      [1, 2],
    ])
    expect(result.thirdParty?.pool.map((p) => [p.replicas, p.effectiveMaxBatchSize, p.meanBatchSize])).toEqual([
      [1, 1, 1],
      [2, 1, 1],
    ])

    expect(result.memory.map((p) => [p.model, p.replicas])).toEqual([
      ['demo-mlp.onnx', 0],
      ['demo-mlp.onnx', 1],
      ['light_squeezenet.onnx', 0],
      ['light_squeezenet.onnx', 1],
    ])

    expect(result.summary.targets.map((t) => t.id)).toEqual([
      'core-vs-dataloader',
      'pool-vs-practical-limit',
      'pool-vs-batching-off',
      'p50-at-1-caller',
      'host-cpu-per-row',
      'process-vs-thread',
      'process-p50-at-1-caller',
      'grpc-stream-vs-json',
      'door-json-vs-noop',
      'door-binary-vs-json',
    ])
    for (const t of result.summary.targets) expect(t.actual).not.toBeNull()
    expect(result.summary.suggested?.replicas).toBe(1)

    expect(result.charts.sort()).toEqual(
      ['heatmap', 'http', 'latency', 'replicas', 'throughput'].map((c) => jsonFile!.replace(/\.json$/, `-${c}.svg`)),
    )
    for (const chart of result.charts) {
      const svg = await readFile(join(out, chart), 'utf8')
      expect(svg.startsWith('<svg')).toBe(true)
      expect(svg).not.toContain('NaN')
    }
  }, 180_000)

  it('runs the tuning scenarios (shapes, waits) when asked, with the shape chosen from the interleaved rounds', async () => {
    const { code, stdout, stderr } = await bench([
      '--quick',
      '--json',
      '--only',
      'pool,shapes,waits',
      '--no-charts',
      '--replicas',
      '1,2',
      '--concurrency',
      '1',
      '--max-batch-size',
      '8',
      '--callers',
      '1,4',
      '--warmup-ms',
      '20',
      '--duration-ms',
      '100',
    ])
    expect(stderr.includes('FAILED') ? stderr : '').toBe('')
    expect(code).toBe(0)
    const result = JSON.parse(stdout) as BenchResult
    expect(result.scenarios).toEqual(['pool', 'shapes', 'waits'])
    expect(result.charts).toEqual([])
    // One round: each shape at 1 and at the most callers, one median per (shape, callers).
    expect(result.shapes?.points.map((p) => [p.round, p.replicas, p.concurrency, p.callers])).toEqual([
      [1, 1, 1, 1],
      [1, 1, 1, 4],
      [1, 2, 1, 1],
      [1, 2, 1, 4],
    ])
    expect(result.shapes?.median.map((m) => [m.replicas, m.callers])).toEqual([
      [1, 1],
      [1, 4],
      [2, 1],
      [2, 4],
    ])
    const atMost = result.shapes!.median.filter((m) => m.callers === 4)
    const winner = atMost.reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a))
    expect(result.summary.suggested).toMatchObject({ replicas: winner.replicas, concurrency: 1, maxBatchSize: 8 })
    // The batching-policy points run on that shape: (1, 0) and (16 capped at maxBatchSize 8, 1)
    // at 1 and 4 callers.
    expect(result.waits.map((p) => [p.replicas, p.minBatchSize, p.maxWaitMs, p.callers])).toEqual([
      [winner.replicas, 1, 0, 1],
      [winner.replicas, 1, 0, 4],
      [winner.replicas, 8, 1, 1],
      [winner.replicas, 8, 1, 4],
    ])
  }, 120_000)

  it('rejects an unknown scenario with exit code 2 and names it', async () => {
    const { code, stderr } = await bench(['--only', 'pool,nope'])
    expect(code).toBe(2)
    expect(stderr).toContain('unknown scenario "nope"')
  })

  it('rejects a malformed list with exit code 2 and echoes it', async () => {
    const { code, stderr } = await bench(['--callers', '1,x'])
    expect(code).toBe(2)
    expect(stderr).toContain('--callers expects a comma-separated list of integers >= 1, got "1,x"')
  })
})
