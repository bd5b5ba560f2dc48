/**
 * The `bulk` scenario (issue 37): bulk inference from NATS JetStream, against a
 * nats-server -js of its own (a free port, a temporary store, stopped at the end).
 *
 * (a) Throughput: single-row binary requests published ahead into the work queue, then
 *     `inferpool consume` started on them; rows per second while it drains the middle
 *     80 % of the backlog (results counted in the results stream), ÷ the in-process pool
 *     at the same replicas, batch size and rows in flight (replicas × batch × 2 callers,
 *     the consumer's default max ack pending). Rounds interleave the two. Target ≥ 0.9×.
 *     On three models, because the ratio is a matter of what a row costs: each row through
 *     NATS costs the consumer and nats-server a fixed ~0.1 ms of CPU beside the pool's,
 *     which the demo MLP's row (µs) cannot hide and a bulk model's row (ms) does. The
 *     backlog of each round is the pool's rows/s of that round × `DRAIN_SECONDS`.
 * (b) Online beside bulk: `inferpool serve --nats` (one process: HTTP and the consumer
 *     in the same pool, bulk rows behind online ones), single-row JSON requests over HTTP
 *     at a fixed rate (open loop, Poisson), with no backlog and with a backlog of
 *     thousands of requests published just before the window; the p99 of the online
 *     answers with ÷ without. Rounds interleave the two. Target ≤ 1.1×. The backlog
 *     left at the end of each window shows it lasted the whole window.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { RetentionPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream'
import { connect, headers, type NatsConnection } from '@nats-io/transport-node'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createPool, defaultIntraOpThreads } from '@inferpool/host'
import { buildMlp, mlpWeights, serializeModel } from '@inferpool/model-builder'
import type { LatencySummary } from '../latency.js'
import { createRng, randomArray, randomRows, readModelInfo, KSERVE_DATATYPE, type ModelInfo } from '../model.js'
import { startNatsServer } from '@inferpool/consume/nats-server'
import { arrivals, runOpenLoop } from '../open-loop.js'
import { serverBin } from '../paths.js'
import { HEAVY_MLP_SIZES } from '../slo-plan.js'
import { startServeCli, stopChild, stopServeCli } from '../serve-cli.js'
import { v2RequestBody } from './http.js'

const MODEL_NAME = 'bench'
const REQUESTS_STREAM = 'INFERPOOL_REQUESTS'
const RESULTS_STREAM = 'INFERPOOL_RESULTS'
const SUBJECT = `inferpool.requests.${MODEL_NAME}`
/** Publishes in flight at once while filling the stream. */
const PUBLISH_WINDOW = 512
/** How often the results stream is read while `consume` drains (ms). */
const POLL_MS = 50
/** A consume round's backlog: what its pool round did in this many seconds (within `throughputRequests`). */
const DRAIN_SECONDS = 5
/** The least backlog of a consume round, so that its middle 80 % spans many polls. */
const MIN_REQUESTS = 2_000
/** A bulk-inference row: an MLP whose row costs ~1.7 ms on one thread (64 MiB of weights), as an embedding or scoring model's rows cost milliseconds. */
const BULK_MLP_SIZES: readonly number[] = [256, 4096, 4096, 16]

export interface BulkOptions {
  /** Replicas of the pool, the consumer's and the server's. */
  replicas: number
  maxBatchSize: number
  /** Interleaved rounds of each half. */
  rounds: number
  /** Requests published ahead for one throughput round. */
  throughputRequests: number
  /** Online requests per second (single rows over HTTP, Poisson arrivals). */
  onlineRatePerSec: number
  /** The online windows (ms), each after a warm-up of its own. */
  window: { warmupMs: number; durationMs: number }
  /** Requests of a backlog: the most published before a window with a backlog. */
  maxBacklog: number
}

export interface BulkTarget {
  id: 'consume-vs-pool' | 'online-p99-with-backlog'
  /** The throughput model a `consume-vs-pool` target is judged on. */
  model?: string
  description: string
  actual: number | null
  target: number
  comparison: '>=' | '<='
  met: boolean | null
}

export interface BulkOnlineWindow {
  backlog: boolean
  /** Requests in the stream when the window started (0 without a backlog). */
  backlogAtStart: number
  /** Requests still undelivered when it ended: above 0, the backlog lasted the whole window. */
  backlogAtEnd: number
  sent: number
  answered: LatencySummary
  failed: Record<string, number>
  /** Bulk results stored during the window, per second. */
  bulkRowsPerSec: number
}

/** consume ÷ pool on one model. */
export interface BulkThroughput {
  /** The model file's name: the bench's model (`demo-mlp`), `heavy-mlp` (the slo scenario's), `bulk-mlp` (ms rows). */
  model: string
  description: string
  poolRowsPerSec: number[]
  consumeRowsPerSec: number[]
  /** The backlog of each consume round. */
  requests: number[]
  /** Median consume ÷ median pool. */
  ratio: number | null
}

export interface BulkResult {
  options: BulkOptions
  natsServerVersion: string
  intraOpThreads: number
  throughput: BulkThroughput[]
  online: {
    windows: BulkOnlineWindow[]
    /** Medians over rounds. */
    p99WithoutMs: number | null
    p99WithMs: number | null
    ratio: number | null
  }
  targets: BulkTarget[]
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** One single-row request of the binary tensor extension, outputs asked as binary: its body and header length. */
function binaryRequest(info: ModelInfo): { body: Uint8Array; headerLength: number } {
  const rng = createRng(5)
  const datas = info.inputs.map((t) => randomArray(t, 1, rng))
  const header = Buffer.from(
    JSON.stringify({
      inputs: info.inputs.map((t, i) => ({
        name: t.name,
        shape: [1, ...t.rowDims],
        datatype: KSERVE_DATATYPE[t.type],
        parameters: { binary_data_size: datas[i].byteLength },
      })),
      outputs: info.outputs.map((t) => ({ name: t.name, parameters: { binary_data: true } })),
    }),
  )
  const tensors = datas.map((d) => Buffer.from(d.buffer, d.byteOffset, d.byteLength))
  return { body: Buffer.concat([header, ...tensors]), headerLength: header.length }
}

/** Publishes `count` copies of `request`, `PUBLISH_WINDOW` at a time, each acknowledged by the stream. */
async function fill(js: JetStreamClient, request: { body: Uint8Array; headerLength: number }, count: number): Promise<void> {
  const h = headers()
  h.set('Inference-Header-Content-Length', String(request.headerLength))
  for (let sent = 0; sent < count;) {
    const n = Math.min(PUBLISH_WINDOW, count - sent)
    await Promise.all(Array.from({ length: n }, () => js.publish(SUBJECT, request.body, { headers: h })))
    sent += n
  }
}

async function messages(jsm: JetStreamManager, stream: string): Promise<number> {
  return (await jsm.streams.info(stream)).state.messages
}

/** The in-process pool: `callers` single-row callers back to back; rows per second after the warm-up. */
async function poolRound(
  info: ModelInfo,
  options: BulkOptions,
  intraOpThreads: number,
  callers: number,
  window: { warmupMs: number; durationMs: number },
): Promise<number> {
  const pool = await createPool({
    model: info.path,
    replicas: options.replicas,
    batching: { maxBatchSize: options.maxBatchSize },
    session: { intraOpNumThreads: intraOpThreads },
  })
  try {
    const rows = randomRows(info, 64, 11)
    const start = performance.now()
    const from = start + window.warmupMs
    const until = from + window.durationMs
    let counted = 0
    const caller = async (k: number): Promise<void> => {
      for (let i = k; performance.now() < until; i += callers) {
        await pool.infer(rows[i % rows.length])
        const t = performance.now()
        if (t >= from && t < until) counted++
      }
    }
    await Promise.all(Array.from({ length: callers }, (_, k) => caller(k)))
    return counted / (window.durationMs / 1000)
  } finally {
    await pool.close()
  }
}

/** The pool flags both `inferpool consume` and `inferpool serve --nats` take, so both sides run the same pool. */
function poolFlags(info: ModelInfo, options: BulkOptions, intraOpThreads: number): string[] {
  return [
    '--model',
    `${MODEL_NAME}=${info.path}`,
    '--replicas',
    String(options.replicas),
    '--max-batch-size',
    String(options.maxBatchSize),
    '--intra-op-threads',
    String(intraOpThreads),
  ]
}

/** A child process resolving once `line` appears in its output. */
function spawnUntil(args: readonly string[], line: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${line}" within 60 s:\n${output}`)), 60_000)
    const onData = (chunk: string): void => {
      output = (output + chunk).slice(-8000)
      if (output.includes(line)) {
        clearTimeout(timer)
        resolve({ child, output: () => output })
      }
    }
    child.stdout!.setEncoding('utf8').on('data', onData)
    child.stderr!.setEncoding('utf8').on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before "${line}":\n${output}`))
    })
  })
}

/**
 * `inferpool consume` on a backlog of `count` requests: rows per second while the
 * results stream goes from 10 % to 90 % of them (start-up and the tail left out).
 */
async function consumeRound(
  nats: { url: string; js: JetStreamClient; jsm: JetStreamManager },
  request: { body: Uint8Array; headerLength: number },
  info: ModelInfo,
  options: BulkOptions,
  intraOpThreads: number,
  count: number,
): Promise<number> {
  await nats.jsm.streams.purge(RESULTS_STREAM).catch(() => {})
  await fill(nats.js, request, count)
  const bin = join(dirname(createRequire(import.meta.url).resolve('@inferpool/consume/package.json')), 'bin', 'inferpool-consume.js')
  const { child } = await spawnUntil(
    [bin, '--nats', nats.url, ...poolFlags(info, options, intraOpThreads), '--metrics-port', '0'],
    'inferpool consume: ready',
  )
  try {
    const low = Math.ceil(count * 0.1)
    const high = Math.floor(count * 0.9)
    let lowAt: { t: number; n: number } | undefined
    for (;;) {
      const n = await messages(nats.jsm, RESULTS_STREAM)
      const t = performance.now()
      if (lowAt === undefined && n >= low) lowAt = { t, n }
      if (lowAt !== undefined && n >= high) return (n - lowAt.n) / ((t - lowAt.t) / 1000)
      if (child.exitCode !== null) throw new Error(`inferpool consume exited with ${child.exitCode}`)
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  } finally {
    await stopChild(child, 30_000)
    await nats.jsm.streams.purge(REQUESTS_STREAM)
  }
}

/** One online window: Poisson arrivals of single-row JSON requests at `rate`; the answers' latency. */
async function onlineWindow(
  url: string,
  body: string,
  agent: Agent,
  rate: number,
  durationMs: number,
  seed: number,
): Promise<{ sent: number; answered: LatencySummary; failed: Record<string, number> }> {
  const send = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume()
        res.once('end', () =>
          res.statusCode === 200 ? resolve() : reject(Object.assign(new Error('status'), { code: `HTTP_${res.statusCode}` })),
        )
      })
      req.once('error', reject)
      req.end(body)
    })
  const result = await runOpenLoop({ times: arrivals('poisson', rate, durationMs, seed), durationMs, send, deadlineMs: 1000 })
  return { sent: result.sent, answered: result.answeredMs, failed: result.failed }
}

/** The MLPs of the throughput half, written to a temporary directory (deterministic weights). */
async function writeMlps(): Promise<{ heavy: ModelInfo; bulk: ModelInfo; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'inferpool-bulk-'))
  const write = async (name: string, sizes: readonly number[]): Promise<ModelInfo> => {
    const path = join(dir, `${name}.onnx`)
    await writeFile(path, serializeModel(buildMlp(mlpWeights({ sizes, seed: 7 }), { name })))
    return readModelInfo(path)
  }
  try {
    return {
      heavy: await write('heavy-mlp', HEAVY_MLP_SIZES),
      bulk: await write('bulk-mlp', BULK_MLP_SIZES),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

export async function runBulk(info: ModelInfo, options: BulkOptions, step: (label: string) => void): Promise<BulkResult> {
  const intraOpThreads = defaultIntraOpThreads({ cores: availableParallelism(), replicas: options.replicas, processes: 1 })
  const server = await startNatsServer()
  let nc: NatsConnection | undefined
  const mlps = await writeMlps()
  try {
    nc = await connect({ servers: server.url })
    const js = jetstream(nc)
    const jsm = await jetstreamManager(nc)
    // The publishers' work queue, there before the consumers (which check and use it).
    await jsm.streams.add({ name: REQUESTS_STREAM, subjects: ['inferpool.requests.>'], retention: RetentionPolicy.Workqueue })
    const nats = { url: server.url, js, jsm }
    const bulkRequest = binaryRequest(info)

    // (a) consume ÷ the in-process pool on each model, interleaved.
    const callers = options.replicas * options.maxBatchSize * 2
    const models = [
      { model: basename(info.path, '.onnx'), info, description: `the bench's model` },
      { model: 'heavy-mlp', info: mlps.heavy, description: `MLP ${HEAVY_MLP_SIZES.join('-')}` },
      { model: 'bulk-mlp', info: mlps.bulk, description: `MLP ${BULK_MLP_SIZES.join('-')}` },
    ]
    const throughput: BulkThroughput[] = models.map(({ model, description }) => ({
      model,
      description,
      poolRowsPerSec: [],
      consumeRowsPerSec: [],
      requests: [],
      ratio: null,
    }))
    for (let round = 0; round < options.rounds; round++) {
      const consumed: Array<() => Promise<void>> = []
      for (const [i, m] of models.entries()) {
        const poolRate = await poolRound(m.info, options, intraOpThreads, callers, options.window)
        throughput[i].poolRowsPerSec.push(poolRate)
        const count = Math.min(options.throughputRequests, Math.max(MIN_REQUESTS, Math.ceil((poolRate * DRAIN_SECONDS) / 100) * 100))
        throughput[i].requests.push(count)
        consumed.push(async () => {
          const request = m.info === info ? bulkRequest : binaryRequest(m.info)
          throughput[i].consumeRowsPerSec.push(await consumeRound(nats, request, m.info, options, intraOpThreads, count))
        })
      }
      step(`bulk: pool round ${round + 1}`)
      for (const run of consumed) await run()
      step(`bulk: consume round ${round + 1}`)
    }
    for (const t of throughput) {
      const pool = median(t.poolRowsPerSec)
      t.ratio = pool !== null && pool > 0 ? median(t.consumeRowsPerSec)! / pool : null
    }
    const consumeRate = median(throughput[0].consumeRowsPerSec)!

    // (b) online p99 with a backlog ÷ without, in one `inferpool serve --nats`.
    // The server finds @inferpool/consume from the working directory: this package's, which depends on it.
    const cli = await startServeCli(serverBin(), [...poolFlags(info, options, intraOpThreads), '--grpc-port', '0', '--nats', server.url], {
      ...process.env,
      INFERPOOL_LOG_FORMAT: 'text',
    })
    const agent = new Agent({ keepAlive: true, maxSockets: 256 })
    const windows: BulkOnlineWindow[] = []
    try {
      const url = `${cli.url}/v2/models/${MODEL_NAME}/infer`
      const body = v2RequestBody(info)
      // Enough for the window at the rate `consume` drained alone, and half again.
      const backlog = Math.min(options.maxBacklog, Math.ceil((consumeRate * (options.window.durationMs / 1000) * 1.5) / 1000) * 1000)
      for (let round = 0; round < options.rounds; round++) {
        // Alternate which comes first, so neither always runs on a warmer server.
        const order = round % 2 === 0 ? [false, true] : [true, false]
        for (const withBacklog of order) {
          if (withBacklog) await fill(js, bulkRequest, backlog)
          // Each window after a warm-up of online traffic of its own, as the options say: the
          // windows measure online requests beside a backlog (or none), not the first
          // milliseconds after the backlog was published with no online request in sight,
          // when the consumer holds its full max ack pending.
          await onlineWindow(url, body, agent, options.onlineRatePerSec, options.window.warmupMs, 50 + round)
          const pending = async (): Promise<number> => (await jsm.consumers.info(REQUESTS_STREAM, `inferpool_${MODEL_NAME}`)).num_pending
          const backlogAtStart = await pending()
          const resultsBefore = await messages(jsm, RESULTS_STREAM)
          const started = performance.now()
          const online = await onlineWindow(url, body, agent, options.onlineRatePerSec, options.window.durationMs, 100 + round)
          const seconds = (performance.now() - started) / 1000
          const resultsAfter = await messages(jsm, RESULTS_STREAM)
          const backlogAtEnd = await pending()
          windows.push({
            backlog: withBacklog,
            backlogAtStart,
            backlogAtEnd,
            ...online,
            bulkRowsPerSec: (resultsAfter - resultsBefore) / seconds,
          })
          // What is left of the backlog goes; the requests in flight finish before the next window.
          await jsm.streams.purge(REQUESTS_STREAM)
          while ((await jsm.consumers.info(REQUESTS_STREAM, `inferpool_${MODEL_NAME}`)).num_ack_pending > 0) {
            await new Promise((resolve) => setTimeout(resolve, POLL_MS))
          }
          step(`bulk: online ${withBacklog ? 'with' : 'without'} a backlog, round ${round + 1}`)
        }
      }
    } finally {
      agent.destroy()
      await stopServeCli(cli)
    }

    const p99WithoutMs = median(windows.filter((w) => !w.backlog).map((w) => w.answered.p99))
    const p99WithMs = median(windows.filter((w) => w.backlog).map((w) => w.answered.p99))
    const onlineRatio = p99WithoutMs !== null && p99WithMs !== null && p99WithoutMs > 0 ? p99WithMs / p99WithoutMs : null
    const targets: BulkTarget[] = [
      ...throughput.map((t): BulkTarget => ({
        id: 'consume-vs-pool',
        model: t.model,
        description: `rows/s through inferpool consume ÷ the in-process pool, ${t.description} (replicas ${options.replicas}, max batch ${options.maxBatchSize}, ${callers} rows in flight)`,
        actual: t.ratio,
        target: 0.9,
        comparison: '>=',
        met: t.ratio === null ? null : t.ratio >= 0.9,
      })),
      {
        id: 'online-p99-with-backlog',
        description: `online p99 at ${options.onlineRatePerSec} single-row requests/s with a bulk backlog ÷ without (inferpool serve --nats)`,
        actual: onlineRatio,
        target: 1.1,
        comparison: '<=',
        met: onlineRatio === null ? null : onlineRatio <= 1.1,
      },
    ]
    return {
      options,
      natsServerVersion: server.version,
      intraOpThreads,
      throughput,
      online: { windows, p99WithoutMs, p99WithMs, ratio: onlineRatio },
      targets,
    }
  } finally {
    await nc?.close().catch(() => {})
    await server.stop()
    await mlps.cleanup()
  }
}
