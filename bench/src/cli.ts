#!/usr/bin/env node
/**
 * `pnpm bench`: throughput runs of inferpool with baselines measured in the same run.
 * See bench/README.md for what each scenario and baseline means; `--help` for flags.
 * `pnpm bench compare <git-ref>`: A/B rounds of the ref against this working tree.
 */
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import cliProgress from 'cli-progress'
import { writeCharts } from './charts.js'
import { runCompare } from './compare/main.js'
import { directCallers, parseConfig, plannedPoints, UsageError, USAGE, waitCallers, type BenchConfig, type Scenario } from './config.js'
import { runCoreOverhead } from './core-overhead.js'
import { machineInfo } from './machine.js'
import { maxBatchFor, readModelInfo, type ModelInfo } from './model.js'
import { defaultResultsDir, defaultThirdPartyModel, demoModelPath } from './paths.js'
import { createTensorPool } from './pool-api.js'
import { formatReport } from './report.js'
import { RESULT_SCHEMA, type BenchResult } from './results.js'
import { runDirectRow, runPracticalLimit } from './scenarios/direct.js'
import { runGrpc } from './scenarios/grpc.js'
import { pythonBaselineMissing, runDoorRounds, runHttp, type HttpServerSpec } from './scenarios/http.js'
import { runIsolation } from './scenarios/isolation.js'
import { runMemory } from './scenarios/memory.js'
import { runOverload } from './scenarios/overload.js'
import { runRepository } from './scenarios/repository.js'
import { runProcesses } from './scenarios/processes.js'
import { runPoolConfig, type PoolPoint } from './scenarios/pool.js'
import { runShapeRounds } from './scenarios/shapes.js'
import { runSlo } from './scenarios/slo.js'
import { formatDeadlineGrid, runDeadlineGrid } from './scenarios/deadline-grid.js'
import { runBulk } from './scenarios/bulk.js'
import { runTargetRounds } from './scenarios/targets.js'
import { runThirdParty } from './scenarios/third-party.js'
import { summarize } from './summary.js'

const LIMIT_BATCH = 128
const HTTP_MODEL_NAME = 'bench'
/** Connections of the door rounds (issue 8's targets are stated at 64). */
const DOOR_CONNECTIONS = 64
/** Rows per request of the door's multi-row point. */
const DOOR_MULTI_ROWS = 64

async function main(argv: string[]): Promise<number> {
  // `pnpm bench compare <git-ref>`: the A/B regression gate (compare/main.ts).
  if (argv.filter((a) => a !== '--')[0] === 'compare') return runCompare(argv.filter((a) => a !== '--').slice(1))
  let config: BenchConfig | null
  try {
    config = parseConfig(argv)
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${USAGE}`)
      return 2
    }
    throw error
  }
  if (config === null) {
    console.log(USAGE)
    return 0
  }

  const started = performance.now()
  const startedAt = new Date().toISOString()
  const machine = machineInfo()
  const modelPath = resolve(config.model ?? demoModelPath())
  const thirdPartyPath = config.thirdPartyModel ? resolve(config.thirdPartyModel) : (defaultThirdPartyModel() ?? null)
  if (!existsSync(modelPath)) {
    console.error(`model not found: ${modelPath}`)
    return 2
  }
  const outDir = resolve(config.out ?? defaultResultsDir)
  await mkdir(outDir, { recursive: true })
  const stem = `bench-${startedAt.replace(/[:.]/g, '-').replace(/-\d{3}Z$/, 'Z')}${config.quick ? '-quick' : ''}`

  const errors: BenchResult['errors'] = []
  const result: Omit<BenchResult, 'summary'> = {
    schema: RESULT_SCHEMA,
    quick: config.quick,
    startedAt,
    durationSec: 0,
    machine,
    config,
    scenarios: config.scenarios,
    model: null,
    core: null,
    direct: null,
    pool: [],
    shapes: null,
    waits: [],
    targets: null,
    isolation: null,
    http: [],
    grpc: [],
    door: null,
    processes: [],
    thirdParty: null,
    memory: [],
    overload: null,
    repository: null,
    slo: null,
    bulk: null,
    deadlineGrid: null,
    errors,
    charts: [],
  }

  const planned = plannedPoints(config, thirdPartyPath !== null)
  const total = Object.values(planned).reduce((a, b) => a + b, 0)
  // cli-progress draws only on a TTY (stderr), so --json output and CI logs stay clean.
  const bar = new cliProgress.SingleBar(
    { format: 'bench [{bar}] {value}/{total} points | {elapsed}s | {label}', hideCursor: true, clearOnComplete: true, etaBuffer: 20 },
    cliProgress.Presets.shades_classic,
  )
  bar.start(total, 0, { label: 'loading model', elapsed: 0 })
  const step = (label: string) => bar.increment(1, { label, elapsed: Math.round((performance.now() - started) / 1000) })
  const say = (label: string) => bar.update({ label, elapsed: Math.round((performance.now() - started) / 1000) })

  /** Runs one scenario; a failure is recorded and the run goes on with the others. */
  const scenario = async (name: Scenario, fn: () => Promise<void>): Promise<void> => {
    if (!config.scenarios.includes(name)) return
    say(name)
    try {
      await fn()
    } catch (error) {
      errors.push({ scenario: name, message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
    }
  }

  let info: ModelInfo | undefined
  try {
    info = await readModelInfo(modelPath, config.dims)
    result.model = info
  } catch (error) {
    bar.stop()
    console.error(`cannot read model ${modelPath}: ${error instanceof Error ? error.message : String(error)}`)
    return 2
  }
  const model = info

  await scenario('core', async () => {
    result.core = await runCoreOverhead(config.core)
    step('core overhead')
  })

  await scenario('direct', async () => {
    const row = await runDirectRow(model, directCallers(config), config.window, step)
    result.direct = { row, practicalLimit: null }
    result.direct.practicalLimit = await runPracticalLimit(model, maxBatchFor(model, LIMIT_BATCH), config.window, step)
  })
  const limit = () => result.direct?.practicalLimit?.rowsPerSec ?? null

  await scenario('pool', async () => {
    const create = createTensorPool
    for (const replicas of config.replicas)
      for (const concurrency of config.concurrency)
        for (const maxBatchSize of config.maxBatchSize)
          result.pool.push(
            ...(await runPoolConfig(create, model, { replicas, concurrency, maxBatchSize }, config.callers, config.window, limit(), step)),
          )
  })

  // The pool shape the later scenarios use: the best at the most callers — replicas ×
  // concurrency from the interleaved shape rounds when they ran, else from the sweep.
  const bestShape = (): { replicas: number; concurrency: number; maxBatchSize: number } => {
    const most = Math.max(...result.pool.map((p) => p.callers))
    const atMost = result.pool.filter((p) => p.callers === most)
    const best = atMost.reduce<PoolPoint | undefined>((a, b) => (!a || b.rowsPerSec > a.rowsPerSec ? b : a), undefined)
    const shapes = result.shapes?.median.filter((m) => m.callers === Math.max(...result.shapes!.callers))
    const bestShapeMedian = shapes?.reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a))
    if (bestShapeMedian)
      return { replicas: bestShapeMedian.replicas, concurrency: bestShapeMedian.concurrency, maxBatchSize: bestShapeMedian.maxBatchSize }
    return best
      ? { replicas: best.replicas, concurrency: best.concurrency, maxBatchSize: best.maxBatchSize }
      : { replicas: config.replicas.at(-1)!, concurrency: config.concurrency[0], maxBatchSize: config.maxBatchSize.at(-1)! }
  }

  await scenario('shapes', async () => {
    const batch = bestShape().maxBatchSize
    const callers = [...new Set([1, config.callers.at(-1)!])]
    result.shapes = await runShapeRounds(
      createTensorPool,
      model,
      config.replicas,
      config.concurrency,
      batch,
      callers,
      config.shapeRounds,
      config.window,
      step,
    )
  })

  await scenario('waits', async () => {
    const create = createTensorPool
    const shape = bestShape()
    for (const policy of config.policies) {
      // A policy can never ask for a bigger minimum than the batch size allows.
      const minBatchSize = Math.min(policy.minBatchSize, shape.maxBatchSize)
      result.waits.push(
        ...(await runPoolConfig(create, model, { ...shape, ...policy, minBatchSize }, waitCallers(config), config.window, limit(), step)),
      )
    }
  })

  await scenario('targets', async () => {
    result.targets = await runTargetRounds(
      createTensorPool,
      model,
      bestShape(),
      maxBatchFor(model, LIMIT_BATCH),
      config.callers.at(-1)!,
      config.targetRounds,
      config.targetWindow,
      step,
    )
  })

  await scenario('isolation', async () => {
    result.isolation = await runIsolation(
      createTensorPool,
      model,
      bestShape(),
      config.callers.at(-1)!,
      config.isolationRounds,
      config.targetWindow,
      step,
    )
  })

  // Efficiency = rows/s ÷ the practical limit; the interleaved rounds give the steadier
  // limit, so every pool point is expressed against it once known.
  const finalLimit = result.targets?.median.practicalLimitRowsPerSec ?? limit()
  if (finalLimit) for (const p of [...result.pool, ...result.waits]) p.efficiency = p.rowsPerSec / finalLimit

  await scenario('http', async () => {
    const shape = bestShape()
    const batchedSize = Math.max(shape.maxBatchSize, 2)
    const specs: HttpServerSpec[] = [
      { server: 'batched', config: { kind: 'pool', model: modelPath, modelName: HTTP_MODEL_NAME, ...shape, maxBatchSize: batchedSize } },
      { server: 'batching-off', config: { kind: 'pool', model: modelPath, modelName: HTTP_MODEL_NAME, ...shape, maxBatchSize: 1 } },
      { server: 'plain-node-http', config: { kind: 'plain', model: modelPath, modelName: HTTP_MODEL_NAME } },
    ]
    // The naive Python server of issue 11 (FastAPI + onnxruntime per request), when python3 has its packages.
    const pythonMissing = await pythonBaselineMissing()
    if (pythonMissing === null)
      specs.push({ server: 'python-fastapi', config: { kind: 'python', model: modelPath, modelName: HTTP_MODEL_NAME } })
    else console.error(`bench: the naive Python baseline (python-fastapi) is skipped: ${pythonMissing}`)
    // One server failing (say, the pool server) must not cost the other servers' figures.
    const { points, failures } = await runHttp(model, specs, config.connections, config.httpWindow, config.httpRounds, step)
    result.http.push(...points)
    // The door rounds: what the HTTP door lets through, JSON and binary, against a no-op
    // server that parses the same bodies and answers without inference.
    try {
      result.door = await runDoorRounds(
        model,
        { kind: 'pool', model: modelPath, modelName: HTTP_MODEL_NAME, ...shape, maxBatchSize: batchedSize },
        { kind: 'noop', model: modelPath, modelName: HTTP_MODEL_NAME },
        DOOR_CONNECTIONS,
        config.doorRounds,
        DOOR_MULTI_ROWS,
        config.doorWindow,
        step,
      )
    } catch (error) {
      failures.push(`door: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    }
    if (failures.length) throw new Error(failures.join('\n'))
  })

  await scenario('grpc', async () => {
    const shape = bestShape()
    const pool = { replicas: shape.replicas, concurrency: shape.concurrency, maxBatchSize: Math.max(shape.maxBatchSize, 2) }
    const options = {
      model: modelPath,
      modelName: HTTP_MODEL_NAME,
      pool,
      connections: config.grpcConnections,
      rounds: config.grpcRounds,
      window: config.grpcWindow,
    }
    result.grpc.push(...(await runGrpc(model, options, step)))
  })

  await scenario('processes', async () => {
    result.processes = await runProcesses(model, modelPath, config.connections, config.httpWindow, step)
  })

  await scenario('third-party', async () => {
    if (!thirdPartyPath) throw new Error('no third-party model: pass --third-party-model <path>')
    const tp = await readModelInfo(thirdPartyPath)
    result.thirdParty = await runThirdParty(createTensorPool, tp, config.thirdPartyReplicas, config.thirdPartyCallers, config.window, step)
  })

  await scenario('memory', async () => {
    result.memory.push(...(await runMemory(modelPath, config.memoryReplicas, step)))
    if (thirdPartyPath) result.memory.push(...(await runMemory(thirdPartyPath, config.memoryReplicas, step)))
  })

  await scenario('overload', async () => {
    const o = config.overload
    result.overload = await runOverload(
      model,
      modelPath,
      {
        comfortable: o.comfortable,
        rowsPerRequest: o.rowsPerRequest,
        encodings: o.encodings,
        warmupMs: o.window.warmupMs,
        durationMs: o.window.durationMs,
        rounds: o.rounds,
        serveArgs: [...(o.timeoutMs === null ? [] : ['--timeout-ms', String(o.timeoutMs)]), ...o.serveArgs],
        bin: o.bin,
        allocator: o.allocator,
      },
      step,
    )
  })

  await scenario('repository', async () => {
    const o = config.repository
    result.repository = await runRepository(
      model,
      modelPath,
      {
        connections: o.connections,
        warmupMs: o.window.warmupMs,
        durationMs: o.window.durationMs,
        rounds: o.rounds,
        reloadEveryMs: o.reloadEveryMs,
        cycles: o.cycles,
        requestsPerCycle: o.requestsPerCycle,
        settleMs: o.settleMs,
      },
      step,
    )
  })

  await scenario('slo', async () => {
    result.slo = await runSlo(createTensorPool, config.slo, step)
  })

  await scenario('bulk', async () => {
    result.bulk = await runBulk(model, config.bulk, step)
  })

  await scenario('deadline-grid', async () => {
    result.deadlineGrid = await runDeadlineGrid({ ...config.deadlineGrid, model: config.deadlineGrid.model ?? modelPath }, step)
    if (!config.json) console.error(formatDeadlineGrid(result.deadlineGrid))
  })

  bar.stop()
  result.durationSec = (performance.now() - started) / 1000
  const full: BenchResult = { ...result, summary: summarize(result) }
  if (config.charts) {
    try {
      full.charts = await writeCharts(full, outDir, stem)
    } catch (error) {
      errors.push({ scenario: 'charts', message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
    }
  }
  const jsonPath = join(outDir, `${stem}.json`)
  const json = JSON.stringify(full, null, 2)
  await writeFile(jsonPath, `${json}\n`)

  if (config.json) {
    process.stdout.write(`${json}\n`)
    for (const e of errors) console.error(`FAILED ${e.scenario}: ${e.message}`)
    console.error(`results: ${jsonPath}`)
  } else {
    console.log(formatReport(full))
    console.log(
      `\nresults: ${jsonPath}${full.charts.length ? `\ncharts:  ${full.charts.map((c) => join(outDir, c)).join('\n         ')}` : ''}`,
    )
  }
  return errors.length ? 1 : 0
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
    // Everything was closed, so the process should end by itself; if a native handle
    // (a session, a worker) lingers, end it anyway rather than hang. unref: this timer
    // alone does not keep the process alive.
    setTimeout(() => {
      console.error('bench: handles still open 10 s after the run ended; exiting')
      process.exit(code)
    }, 10_000).unref()
  },
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)
