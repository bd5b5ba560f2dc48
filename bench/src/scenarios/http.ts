/**
 * HTTP: the same single-row Open Inference Protocol requests sent by autocannon to
 * (a) the inferpool server with batching, (b) the same server with `maxBatchSize: 1`,
 * (c) a plain `node:http` server calling onnxruntime-node per request, (d) the naive
 * FastAPI server. Each server runs in its own child process on 127.0.0.1; autocannon runs
 * in the bench process. The servers are started together and measured in interleaved
 * rounds (every server at one connection count, then the next count; the order rotates
 * each round), so drift on a shared machine hits them all alike; a point is the median of
 * its rounds.
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { LatencyRecorder, type LatencySummary } from '../latency.js'
import { createRng, KSERVE_DATATYPE, randomArray, type ModelInfo } from '../model.js'
import { benchRoot, distFile } from '../paths.js'
import { join } from 'node:path'
import { stopChild } from '../serve-cli.js'
import type { ServerConfig, ServerMessage } from '../servers/protocol.js'
import type { Window } from './direct.js'

export type HttpServerKind = 'batched' | 'batching-off' | 'plain-node-http' | 'python-fastapi'

export interface HttpPoint {
  kind: 'http'
  server: HttpServerKind
  /** Pool settings of the inferpool servers (null for the plain server). */
  pool: { replicas: number; concurrency: number; maxBatchSize: number } | null
  connections: number
  requests: number
  rowsPerSec: number
  windowMs: number
  latencyMs: LatencySummary
  /** Server resident memory right after it started listening. */
  serverRssMiB: number
  /** Rounds this point is the median of (its `requests`, `windowMs` and `latencyMs` are the median round's). */
  rounds?: number
  /** Rows/s of each round, in round order. */
  rowsPerSecRounds?: number[]
}

export interface HttpServerSpec {
  server: HttpServerKind
  config: ServerConfig
}

const SERVER_START_TIMEOUT_MS = 60_000

/** One single-row request body for the model (the same bytes for every request). */
export function v2RequestBody(info: ModelInfo): string {
  const rng = createRng(3)
  return JSON.stringify({
    inputs: info.inputs.map((t) => {
      const row = randomArray(t, 1, rng)
      const data = Array.from(row as ArrayLike<number | bigint>, (v) => (typeof v === 'bigint' ? Number(v) : Math.round(v * 1e4) / 1e4))
      return { name: t.name, shape: [1, ...t.rowDims], datatype: KSERVE_DATATYPE[t.type], data }
    }),
  })
}

export interface RunningServer {
  child: ChildProcess
  port: number
  /** The gRPC port of the servers that have one. */
  grpcPort?: number
  rssBytes: number
}

/**
 * Why the naive Python baseline cannot run here (`python3` with fastapi, uvicorn with
 * uvloop and httptools, onnxruntime and numpy), or `null` when it can. Without uvloop or
 * httptools uvicorn would fall back to its slower pure-Python loop and parser, and the
 * baseline would no longer be the strongest naive server.
 */
export async function pythonBaselineMissing(): Promise<string | null> {
  try {
    await promisify(execFile)('python3', ['-c', 'import fastapi, uvicorn, uvloop, httptools, onnxruntime, numpy'], { timeout: 30_000 })
    return null
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1)
    return `needs python3 with fastapi, uvicorn (with uvloop and httptools), onnxruntime and numpy (pip install fastapi "uvicorn[standard]" onnxruntime numpy): ${stderr || String(error)}`
  }
}

/** Starts the naive Python server; it prints its port on stdout once listening. */
async function startPythonServer(config: ServerConfig): Promise<RunningServer> {
  const script = join(benchRoot, 'python', 'naive_server.py')
  const child = spawn('python3', [script, config.model, config.modelName], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderrTail = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-2000)
  })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`python server did not start within ${SERVER_START_TIMEOUT_MS} ms`)),
        SERVER_START_TIMEOUT_MS,
      )
      let out = ''
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        const line = out.split('\n')[0]
        if (out.includes('\n')) {
          clearTimeout(timer)
          resolve(Number(line))
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`python server exited with code ${code} during start-up${stderrTail ? `: ${stderrTail}` : ''}`))
      })
    })
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '')
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    return { child, port, rssBytes: rssKiB * 1024 }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

/** Starts a bench server child process and waits until it listens on 127.0.0.1. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  if (config.kind === 'python') return startPythonServer(config)
  const script = distFile('servers', `${config.kind}-server.js`)
  // The server's own logging (a client that hangs up at the end of a run is logged by
  // some servers) stays out of the bench's output; its tail goes into any error.
  const child = fork(script, [JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  let stderrTail = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-2000)
  })
  const message = new Promise<ServerMessage>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${config.kind} server did not start within ${SERVER_START_TIMEOUT_MS} ms`)),
      SERVER_START_TIMEOUT_MS,
    )
    child.once('message', (m: ServerMessage) => {
      clearTimeout(timer)
      resolve(m)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${config.kind} server exited with code ${code} during start-up${stderrTail ? `: ${stderrTail}` : ''}`))
    })
  })
  try {
    const m = await message
    if (m.type === 'error') throw new Error(`${config.kind} server failed to start: ${m.message}`)
    if (m.type !== 'listening') throw new Error(`${config.kind} server sent '${m.type}' before it was listening`)
    return { child, port: m.port, grpcPort: m.grpcPort, rssBytes: m.rssBytes }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the child has exited. */
export function stopServer(server: RunningServer): Promise<void> {
  return stopChild(server.child, 10_000)
}

/**
 * autocannon's closed loop, `connections` connections with one request outstanding on
 * each, for `durationMs`; `onResponse` sees every answer's status and time (ms).
 */
export async function closedLoop(
  url: string,
  body: string | Buffer,
  connections: number,
  durationMs: number,
  headers: Record<string, string>,
  onResponse: (status: number, ms: number) => void,
): Promise<autocannon.Result> {
  const instance = autocannon({
    url,
    method: 'POST',
    headers,
    body,
    connections,
    pipelining: 1,
    duration: durationMs / 1000,
    // autocannon checks its stop flag on each sample tick (default 1 s), so a 1.5 s run
    // would last 2 s; 100 ms ticks keep the window close to what was asked.
    sampleInt: 100,
    timeout: 30,
  })
  // autocannon 9 emits (client, statusCode, resBytes, responseTime); its typings omit `client`.
  ;(instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, ms: number) =>
    onResponse(status, ms),
  )
  return instance
}

/** autocannon's closed loop: `connections` connections, one request outstanding on each. */
export async function load(
  url: string,
  body: string | Buffer,
  connections: number,
  durationMs: number,
  latency?: LatencyRecorder,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ ok: number; elapsedMs: number }> {
  let ok = 0
  let failed = 0
  let firstFailure = ''
  const started = performance.now()
  const result = await closedLoop(url, body, connections, durationMs, headers, (status, ms) => {
    if (status === 200) {
      ok++
      latency?.record(ms)
    } else {
      failed++
      firstFailure ||= `HTTP ${status}`
    }
  })
  const elapsedMs = performance.now() - started
  if (failed > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `HTTP load on ${url}: ${failed} non-200 (${firstFailure || 'none'}), ${result.errors} errors, ${result.timeouts} timeouts`,
    )
  }
  return { ok, elapsedMs }
}

/**
 * A freshly started server's first warm-up, in window warm-ups, run at the largest
 * connection count before any point. Node's request path is still being compiled after
 * the first thousand requests: measured after a 1 s warm-up, inferpool at 1 connection
 * read 858 req/s, after 5 s 1,885 (docs/request-budget.md, "Light load"). A Python
 * server has no such warm-up to pay, so without this the first point compared a cold
 * Node server with a warm Python one.
 */
const SERVER_WARMUP_WINDOWS = 5

/**
 * Runs every connection count against every server spec in `rounds` interleaved rounds:
 * all the servers started (and warmed) first, then in each round every connection count
 * against every server, the servers' order rotating from round to round. A server that
 * fails to start or to answer loses its own points only: its error is in `failures`.
 */
export async function runHttp(
  info: ModelInfo,
  specs: HttpServerSpec[],
  connectionsList: number[],
  window: Window,
  rounds: number,
  onPoint: (label: string) => void,
): Promise<{ points: HttpPoint[]; failures: string[] }> {
  const body = v2RequestBody(info)
  const failures: string[] = []
  const describeError = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error))
  const running: Array<{ spec: HttpServerSpec; server: RunningServer; url: string; rounds: Map<number, MeasuredWindow[]> }> = []
  try {
    for (const spec of specs) {
      try {
        const server = await startServer(spec.config)
        const url = `http://127.0.0.1:${server.port}/v2/models/${spec.config.modelName}/infer`
        running.push({ spec, server, url, rounds: new Map(connectionsList.map((c) => [c, []])) })
      } catch (error) {
        failures.push(`${spec.server}: ${describeError(error)}`)
      }
    }
    const failed = new Set<(typeof running)[number]>()
    const fail = (entry: (typeof running)[number], error: unknown): void => {
      failed.add(entry)
      failures.push(`${entry.spec.server}: ${describeError(error)}`)
    }
    if (window.warmupMs > 0) {
      for (const entry of running) {
        await load(entry.url, body, Math.max(...connectionsList), SERVER_WARMUP_WINDOWS * window.warmupMs).catch((error: unknown) =>
          fail(entry, error),
        )
      }
    }
    for (let round = 0; round < rounds; round++) {
      for (const connections of connectionsList) {
        // Rotate who goes first, so no server always meets the machine right after the same one.
        const order = running.map((_, i) => running[(i + round) % running.length])
        for (const entry of order) {
          if (failed.has(entry)) continue
          try {
            if (window.warmupMs > 0) await load(entry.url, body, connections, window.warmupMs)
            const latency = new LatencyRecorder()
            const { ok, elapsedMs } = await load(entry.url, body, connections, window.durationMs, latency)
            entry.rounds.get(connections)?.push({ requests: ok, elapsedMs, latencyMs: latency.summary() })
            onPoint(`http ${entry.spec.server}, ${connections} connections, round ${round + 1}`)
          } catch (error) {
            fail(entry, error)
          }
        }
      }
    }
    const points: HttpPoint[] = []
    for (const entry of running) {
      if (failed.has(entry)) continue
      const config = entry.spec.config
      for (const connections of connectionsList) {
        const measured = entry.rounds.get(connections) ?? []
        if (measured.length === 0) continue
        const rates = measured.map((m) => (m.requests * 1000) / m.elapsedMs)
        const median = [...measured].sort((a, b) => a.requests / a.elapsedMs - b.requests / b.elapsedMs)[(measured.length - 1) >> 1]
        points.push({
          kind: 'http',
          server: entry.spec.server,
          pool:
            config.kind === 'pool'
              ? { replicas: config.replicas, concurrency: config.concurrency, maxBatchSize: config.maxBatchSize }
              : null,
          connections,
          requests: median.requests,
          rowsPerSec: (median.requests * 1000) / median.elapsedMs,
          windowMs: median.elapsedMs,
          latencyMs: median.latencyMs,
          serverRssMiB: entry.server.rssBytes / 2 ** 20,
          rounds: measured.length,
          rowsPerSecRounds: rates,
        })
      }
    }
    return { points, failures }
  } finally {
    await Promise.all(running.map((entry) => stopServer(entry.server)))
  }
}

/** One measured window of the http scenario. */
interface MeasuredWindow {
  requests: number
  elapsedMs: number
  latencyMs: LatencySummary
}

/** An encoding of the door rounds: KServe v2 JSON, or the binary tensor data extension both ways. */
export type DoorEncoding = 'json' | 'binary'

/** One request body of `rows` rows in an encoding, with the headers it needs. */
export interface DoorRequest {
  encoding: DoorEncoding
  rows: number
  body: string | Buffer
  headers: Record<string, string>
}

/**
 * A request of `rows` random rows: JSON `data`, or binary tensor data (inputs after a
 * JSON header, every output asked for as binary, as Triton's clients do by default).
 */
export function doorRequest(info: ModelInfo, encoding: DoorEncoding, rows: number): DoorRequest {
  const rng = createRng(5)
  if (encoding === 'json') {
    const body = JSON.stringify({
      inputs: info.inputs.map((t) => {
        const data = Array.from(randomArray(t, rows, rng) as ArrayLike<number | bigint>, (v) =>
          typeof v === 'bigint' ? Number(v) : Math.round(v * 1e4) / 1e4,
        )
        return { name: t.name, shape: [rows, ...t.rowDims], datatype: KSERVE_DATATYPE[t.type], data }
      }),
    })
    return { encoding, rows, body, headers: { 'content-type': 'application/json' } }
  }
  const tensors = info.inputs.map((t) => randomArray(t, rows, rng))
  const header = Buffer.from(
    JSON.stringify({
      inputs: info.inputs.map((t, i) => ({
        name: t.name,
        shape: [rows, ...t.rowDims],
        datatype: KSERVE_DATATYPE[t.type],
        parameters: { binary_data_size: tensors[i].byteLength },
      })),
      outputs: info.outputs.map((o) => ({ name: o.name, parameters: { binary_data: true } })),
    }),
  )
  const body = Buffer.concat([header, ...tensors.map((t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength))])
  return {
    encoding,
    rows,
    body,
    headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(header.length) },
  }
}

/** One measured point of the door rounds. */
export interface DoorPoint {
  kind: 'door'
  /** `inferpool`: the real server (batched pool); `noop`: the door alone (noop-server.ts). */
  server: 'inferpool' | 'noop'
  encoding: DoorEncoding
  rowsPerRequest: number
  connections: number
  round: number
  requestsPerSec: number
  rowsPerSec: number
  latencyMs: LatencySummary
}

/** Medians over the rounds, and the ratios the targets are stated in. */
export interface DoorSummary {
  connections: number
  rounds: number
  /** Median requests/s per (server, encoding) at one row per request. */
  single: Record<'inferpool' | 'noop', Record<DoorEncoding, number>>
  /** JSON through inferpool ÷ JSON through the no-op door (target ≥ 0.8). */
  jsonVsNoop: number
  /** Binary through inferpool ÷ binary through the no-op door. */
  binaryVsNoop: number
  /** Binary through inferpool ÷ JSON through inferpool (target ≥ 1.3). */
  binaryVsJson: number
  /** Rows/s through inferpool with `multiRows`-row requests, per encoding (one round). */
  multiRows: number
  multi: Record<DoorEncoding, number>
}

/**
 * The door rounds: the inferpool server (batched) and the no-op door, each fed JSON and
 * binary single-row requests at `connections` connections, interleaved round by round
 * (so drift on a shared machine hits all four alike), then one point of `multiRows`-row
 * requests per encoding through inferpool.
 */
export async function runDoorRounds(
  info: ModelInfo,
  poolConfig: ServerConfig,
  noopConfig: ServerConfig,
  connections: number,
  rounds: number,
  multiRows: number,
  window: Window,
  onPoint: (label: string) => void,
): Promise<{ points: DoorPoint[]; summary: DoorSummary }> {
  const servers = { inferpool: await startServer(poolConfig), noop: undefined as RunningServer | undefined }
  const points: DoorPoint[] = []
  try {
    servers.noop = await startServer(noopConfig)
    const urlOf = (server: 'inferpool' | 'noop') =>
      `http://127.0.0.1:${(servers[server] as RunningServer).port}/v2/models/${poolConfig.modelName}/infer`
    const measure = async (server: 'inferpool' | 'noop', request: DoorRequest, round: number): Promise<void> => {
      const url = urlOf(server)
      if (window.warmupMs > 0) await load(url, request.body, connections, window.warmupMs, undefined, request.headers)
      const latency = new LatencyRecorder()
      const { ok, elapsedMs } = await load(url, request.body, connections, window.durationMs, latency, request.headers)
      const requestsPerSec = (ok * 1000) / elapsedMs
      points.push({
        kind: 'door',
        server,
        encoding: request.encoding,
        rowsPerRequest: request.rows,
        connections,
        round,
        requestsPerSec,
        rowsPerSec: requestsPerSec * request.rows,
        latencyMs: latency.summary(),
      })
      onPoint(`door ${server} ${request.encoding} ${request.rows} row(s), round ${round}`)
    }
    const single = { json: doorRequest(info, 'json', 1), binary: doorRequest(info, 'binary', 1) }
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so neither encoding always meets a warmer machine.
      const order: Array<['inferpool' | 'noop', DoorEncoding]> =
        round % 2 === 1
          ? [
              ['inferpool', 'json'],
              ['noop', 'json'],
              ['inferpool', 'binary'],
              ['noop', 'binary'],
            ]
          : [
              ['noop', 'binary'],
              ['inferpool', 'binary'],
              ['noop', 'json'],
              ['inferpool', 'json'],
            ]
      for (const [server, encoding] of order) await measure(server, single[encoding], round)
    }
    for (const encoding of ['json', 'binary'] as const) await measure('inferpool', doorRequest(info, encoding, multiRows), 0)
  } finally {
    await Promise.all([stopServer(servers.inferpool), servers.noop ? stopServer(servers.noop) : Promise.resolve()])
  }
  const median = (server: 'inferpool' | 'noop', encoding: DoorEncoding): number => {
    const values = points
      .filter((p) => p.server === server && p.encoding === encoding && p.rowsPerRequest === 1)
      .map((p) => p.requestsPerSec)
      .sort((a, b) => a - b)
    const mid = values.length >> 1
    return values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2
  }
  const s = {
    inferpool: { json: median('inferpool', 'json'), binary: median('inferpool', 'binary') },
    noop: { json: median('noop', 'json'), binary: median('noop', 'binary') },
  }
  const multiOf = (encoding: DoorEncoding) => points.find((p) => p.rowsPerRequest === multiRows && p.encoding === encoding)?.rowsPerSec ?? 0
  return {
    points,
    summary: {
      connections,
      rounds,
      single: s,
      jsonVsNoop: s.inferpool.json / s.noop.json,
      binaryVsNoop: s.inferpool.binary / s.noop.binary,
      binaryVsJson: s.inferpool.binary / s.inferpool.json,
      multiRows,
      multi: { json: multiOf('json'), binary: multiOf('binary') },
    },
  }
}
