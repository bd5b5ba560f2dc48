/**
 * Deadline grid: how many requests `formation: 'deadline'` answers in time against
 * `formation: 'count'`, over HTTP, as a user runs them (`createPool` + `serve` in a child
 * process, one per formation, both started and warmed before any point), with
 * autocannon's closed loop in the bench process: `connections` connections, each posting
 * `rows`-row KServe v2 JSON requests with `parameters.timeout` of the deadline, one
 * outstanding per connection. Every point runs both formations in `rounds` interleaved
 * rounds, the order rotating from round to round.
 *
 * Per run: answers within the deadline (200s whose client-side time is at most the
 * deadline), late 200s, 504s (`ERR_DEADLINE_EXCEEDED`: the row was not run), 503s
 * (refused at the door) and anything else; per point, deadline ÷ count of the first
 * figure in each round. The load generator shares the machine with the server: on 2
 * cores the figures are a lower bound of both, alike.
 *
 * Standalone: `node bench/dist/scenarios/deadline-grid.js --rows 8 --connections 64
 * --deadline-ms 20 --rounds 5 --duration-ms 6000 [--json out.json]` (lists accepted:
 * `--rows 1,8,64`).
 */
import { fork, type ChildProcess } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { readModelInfo, type ModelInfo } from '../model.js'
import { demoModelPath, distFile } from '../paths.js'
import type { DeadlineServerConfig } from '../servers/deadline-server.js'
import type { ServerMessage } from '../servers/protocol.js'
import { stopChild } from '../serve-cli.js'
import { closedLoop, doorRequest } from './http.js'
import { median } from './targets.js'

export type GridFormation = DeadlineServerConfig['formation']

export interface DeadlineGridOptions {
  rows: number[]
  connections: number[]
  deadlinesMs: number[]
  rounds: number
  warmupMs: number
  durationMs: number
  replicas: number
  maxBatchSize: number
  /** The model; null: the demo MLP. */
  model: string | null
}

export interface DeadlineGridRun {
  formation: GridFormation
  rows: number
  connections: number
  deadlineMs: number
  round: number
  windowMs: number
  /** 200s within the deadline (client-side time). */
  inTime: number
  late: number
  status504: number
  status503: number
  other: number
  /** Slowest 200 (ms, client-side). */
  maxOkMs: number
  /** The server's batcher over the run: batches run, rows answered, rows timed out or failed for their deadline, rows refused at the door. */
  batches: number
  rowsPerBatch: number
  timedOut: number
  refused: number
  /** The latency model's floor, estimate and bound (ms) of batches of 1, 8 and 64 rows at the run's end. */
  model: Record<string, number[]>
}

/** The batcher counters the grid's server reports (servers/deadline-server.ts). */
interface ServerCounters {
  batches: number
  completed: number
  timedOut: number
  rejected: number
  model: Record<string, number[]>
}

function counters(server: GridServer): Promise<ServerCounters> {
  return new Promise((resolve) => {
    const onMessage = (m: { type?: string } & ServerCounters) => {
      if (m?.type !== 'stats') return
      server.child.off('message', onMessage)
      resolve(m)
    }
    server.child.on('message', onMessage)
    server.child.send({ type: 'stats' })
  })
}

export interface DeadlineGridPoint {
  rows: number
  connections: number
  deadlineMs: number
  /** In-time answers per round, by formation. */
  deadline: number[]
  count: number[]
  /** deadline ÷ count per round (NaN where count answered none). */
  ratios: number[]
  medianRatio: number
}

export interface DeadlineGridResult {
  options: DeadlineGridOptions
  runs: DeadlineGridRun[]
  points: DeadlineGridPoint[]
}

const FORMATIONS: readonly GridFormation[] = ['deadline', 'count']
const SERVER_START_TIMEOUT_MS = 60_000

interface GridServer {
  child: ChildProcess
  url: string
}

async function startGridServer(config: DeadlineServerConfig): Promise<GridServer> {
  const child = fork(distFile('servers', 'deadline-server.js'), [JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  let stderrTail = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-2000)
  })
  try {
    const message = await new Promise<ServerMessage>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`deadline server did not start within ${SERVER_START_TIMEOUT_MS} ms`)),
        SERVER_START_TIMEOUT_MS,
      )
      child.once('message', (m: ServerMessage) => {
        clearTimeout(timer)
        resolve(m)
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`deadline server exited with code ${code} during start-up: ${stderrTail}`))
      })
    })
    if (message.type !== 'listening') throw new Error(`deadline server failed to start: ${JSON.stringify(message)}`)
    return { child, url: `http://127.0.0.1:${message.port}/v2/models/${config.modelName}/infer` }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

/** A rows-row JSON request with `parameters.timeout` of `deadlineMs` (Triton's microseconds). */
function requestBody(info: ModelInfo, rows: number, deadlineMs: number): string {
  const body = JSON.parse(doorRequest(info, 'json', rows).body as string) as Record<string, unknown>
  body.parameters = { timeout: Math.round(deadlineMs * 1000) }
  return JSON.stringify(body)
}

/** One closed-loop run of `durationMs` against `url`, its answers sorted by status and time. */
async function loadOnce(
  url: string,
  body: string,
  connections: number,
  durationMs: number,
  deadlineMs: number,
): Promise<
  Omit<
    DeadlineGridRun,
    'formation' | 'rows' | 'connections' | 'deadlineMs' | 'round' | 'batches' | 'rowsPerBatch' | 'timedOut' | 'refused' | 'model'
  >
> {
  const counts = { inTime: 0, late: 0, status504: 0, status503: 0, other: 0, maxOkMs: 0 }
  const started = performance.now()
  await closedLoop(url, body, connections, durationMs, { 'content-type': 'application/json' }, (status, ms) => {
    if (status === 200) {
      if (ms <= deadlineMs) counts.inTime++
      else counts.late++
      if (ms > counts.maxOkMs) counts.maxOkMs = ms
    } else if (status === 504) counts.status504++
    else if (status === 503) counts.status503++
    else counts.other++
  })
  return { ...counts, windowMs: performance.now() - started }
}

/** Runs the grid: every point, both formations, in `rounds` interleaved rounds. */
export async function runDeadlineGrid(
  options: DeadlineGridOptions,
  onPoint: (label: string) => void = () => {},
): Promise<DeadlineGridResult> {
  const model = options.model ?? demoModelPath()
  const info = await readModelInfo(model)
  const servers = new Map<GridFormation, GridServer>()
  const runs: DeadlineGridRun[] = []
  const points: DeadlineGridPoint[] = []
  try {
    for (const formation of FORMATIONS) {
      servers.set(
        formation,
        await startGridServer({ model, modelName: 'm', formation, replicas: options.replicas, maxBatchSize: options.maxBatchSize }),
      )
    }
    for (const rows of options.rows) {
      for (const deadlineMs of options.deadlinesMs) {
        const body = requestBody(info, rows, deadlineMs)
        for (const connections of options.connections) {
          // Each server warmed at this point's load, so neither starts its rounds cold.
          for (const formation of FORMATIONS) {
            await loadOnce((servers.get(formation) as GridServer).url, body, connections, options.warmupMs, deadlineMs)
          }
          const point: DeadlineGridPoint = { rows, connections, deadlineMs, deadline: [], count: [], ratios: [], medianRatio: NaN }
          for (let round = 1; round <= options.rounds; round++) {
            const order = round % 2 === 1 ? FORMATIONS : [...FORMATIONS].reverse()
            for (const formation of order) {
              onPoint(`deadline-grid ${rows} rows, ${connections} connections, ${deadlineMs} ms, ${formation}, round ${round}`)
              const server = servers.get(formation) as GridServer
              const before = await counters(server)
              const run = await loadOnce(server.url, body, connections, options.durationMs, deadlineMs)
              const after = await counters(server)
              const batches = after.batches - before.batches
              runs.push({
                formation,
                rows,
                connections,
                deadlineMs,
                round,
                ...run,
                batches,
                rowsPerBatch: batches > 0 ? (after.completed - before.completed) / batches : 0,
                timedOut: after.timedOut - before.timedOut,
                refused: after.rejected - before.rejected,
                model: after.model,
              })
              point[formation].push(run.inTime)
            }
            const c = point.count[round - 1]
            point.ratios.push(c > 0 ? point.deadline[round - 1] / c : NaN)
          }
          point.medianRatio = median(point.ratios.filter((r) => r === r))
          points.push(point)
        }
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((s) => stopChild(s.child, 10_000)))
  }
  return { options, runs, points }
}

/** The grid's table: one line per point, deadline ÷ count in each round. */
export function formatDeadlineGrid(result: DeadlineGridResult): string {
  const lines = [
    '| rows | connections | deadline | in time, deadline | in time, count | deadline ÷ count (median) |',
    '| --- | --- | --- | --- | --- | --- |',
  ]
  for (const p of result.points) {
    lines.push(
      `| ${p.rows} | ${p.connections} | ${p.deadlineMs} ms | ${p.deadline.join(', ')} | ${p.count.join(', ')} | ${p.medianRatio.toFixed(2)} |`,
    )
  }
  return lines.join('\n')
}

const list = (s: string): number[] => s.split(',').map(Number)

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '8' },
      connections: { type: 'string', default: '64' },
      'deadline-ms': { type: 'string', default: '20' },
      rounds: { type: 'string', default: '5' },
      'warmup-ms': { type: 'string', default: '2000' },
      'duration-ms': { type: 'string', default: '6000' },
      replicas: { type: 'string', default: '2' },
      'max-batch-size': { type: 'string', default: '128' },
      model: { type: 'string' },
      json: { type: 'string' },
    },
  })
  const result = await runDeadlineGrid(
    {
      rows: list(values.rows),
      connections: list(values.connections),
      deadlinesMs: list(values['deadline-ms']),
      rounds: Number(values.rounds),
      warmupMs: Number(values['warmup-ms']),
      durationMs: Number(values['duration-ms']),
      replicas: Number(values.replicas),
      maxBatchSize: Number(values['max-batch-size']),
      model: values.model ?? null,
    },
    (label) => process.stderr.write(`${label}\n`),
  )
  for (const run of result.runs) process.stderr.write(`${JSON.stringify(run)}\n`)
  console.log(formatDeadlineGrid(result))
  if (values.json !== undefined) await writeFile(values.json, JSON.stringify(result, null, 2))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
