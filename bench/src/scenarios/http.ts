/**
 * HTTP: the same single-row Open Inference Protocol requests sent by autocannon to
 * (a) the inferpool server with batching, (b) the same server with `maxBatchSize: 1`,
 * (c) a plain `node:http` server calling onnxruntime-node per request. Each server runs
 * in its own child process on 127.0.0.1; autocannon runs in the bench process.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { LatencyRecorder, type LatencySummary } from '../latency.js'
import { createRng, KSERVE_DATATYPE, randomArray, type ModelInfo } from '../model.js'
import { distFile } from '../paths.js'
import type { ServerConfig, ServerMessage } from '../servers/protocol.js'
import type { Window } from './direct.js'

export type HttpServerKind = 'batched' | 'batching-off' | 'plain-node-http'

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
      const data = Array.from(row as ArrayLike<number | bigint>, (v) =>
        typeof v === 'bigint' ? Number(v) : Math.round(v * 1e4) / 1e4,
      )
      return { name: t.name, shape: [1, ...t.rowDims], datatype: KSERVE_DATATYPE[t.type], data }
    }),
  })
}

export interface RunningServer {
  child: ChildProcess
  port: number
  rssBytes: number
}

/** Starts a bench server child process and waits until it listens on 127.0.0.1. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const script = distFile('servers', config.kind === 'plain' ? 'plain-server.js' : 'pool-server.js')
  // The server's own logging (a client that hangs up at the end of a run is logged by
  // some servers) stays out of the bench's output; its tail goes into any error.
  const child = fork(script, [JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  let stderrTail = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-2000)
  })
  const message = new Promise<ServerMessage>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${config.kind} server did not start within ${SERVER_START_TIMEOUT_MS} ms`)), SERVER_START_TIMEOUT_MS)
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
    return { child, port: m.port, rssBytes: m.rssBytes }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the child has exited. */
export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  const exited = once(server.child, 'exit')
  server.child.kill('SIGTERM')
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

export async function load(
  url: string,
  body: string,
  connections: number,
  durationMs: number,
  latency?: LatencyRecorder,
): Promise<{ ok: number; elapsedMs: number }> {
  let ok = 0
  let failed = 0
  let firstFailure = ''
  const started = performance.now()
  const instance = autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
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
  ;(instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status === 200) {
      ok++
      latency?.record(ms)
    } else {
      failed++
      firstFailure ||= `HTTP ${status}`
    }
  })
  const result = await instance
  const elapsedMs = performance.now() - started
  if (failed > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`HTTP load on ${url}: ${failed} non-200 (${firstFailure || 'none'}), ${result.errors} errors, ${result.timeouts} timeouts`)
  }
  return { ok, elapsedMs }
}

/** Runs every connection count against each server spec, one server process at a time. */
export async function runHttp(
  info: ModelInfo,
  specs: HttpServerSpec[],
  connectionsList: number[],
  window: Window,
  onPoint: (label: string) => void,
): Promise<HttpPoint[]> {
  const body = v2RequestBody(info)
  const points: HttpPoint[] = []
  for (const spec of specs) {
    const server = await startServer(spec.config)
    try {
      const url = `http://127.0.0.1:${server.port}/v2/models/${spec.config.modelName}/infer`
      for (const connections of connectionsList) {
        if (window.warmupMs > 0) await load(url, body, connections, window.warmupMs)
        const latency = new LatencyRecorder()
        const { ok, elapsedMs } = await load(url, body, connections, window.durationMs, latency)
        points.push({
          kind: 'http',
          server: spec.server,
          pool:
            spec.config.kind === 'pool'
              ? { replicas: spec.config.replicas, concurrency: spec.config.concurrency, maxBatchSize: spec.config.maxBatchSize }
              : null,
          connections,
          requests: ok,
          rowsPerSec: (ok * 1000) / elapsedMs,
          windowMs: elapsedMs,
          latencyMs: latency.summary(),
          serverRssMiB: server.rssBytes / 2 ** 20,
        })
        onPoint(`http ${spec.server}, ${connections} connections`)
      }
    } finally {
      await stopServer(server)
    }
  }
  return points
}
