/**
 * Processes: the same single-row HTTP load (autocannon, as in ./http.ts) against
 * `inferpool serve` run as a user runs it — the CLI in a child process — with 1 and with
 * 2 server processes (`--processes`, node:cluster), the inference threads held equal
 * (processes × replicas × intra-op threads = the cores), side by side. No target: the
 * figures show what a second process buys (or costs) on this machine.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { availableParallelism } from 'node:os'
import type { LatencySummary } from '../latency.js'
import { LatencyRecorder } from '../latency.js'
import type { ModelInfo } from '../model.js'
import { serverBin } from '../paths.js'
import type { Window } from './direct.js'
import { load, v2RequestBody } from './http.js'

export interface ProcessesShape {
  processes: number
  replicas: number
  intraOpThreads: number
}

export interface ProcessesPoint extends ProcessesShape {
  kind: 'processes'
  connections: number
  requests: number
  rowsPerSec: number
  windowMs: number
  latencyMs: LatencySummary
}

const START_TIMEOUT_MS = 120_000

/** 1 process with one replica per core, and 2 processes sharing the same replicas between them. */
export function processesShapes(cores = availableParallelism()): ProcessesShape[] {
  const replicas = Math.max(2, Math.min(cores, 8))
  return [
    { processes: 1, replicas, intraOpThreads: 1 },
    { processes: 2, replicas: Math.max(1, replicas / 2), intraOpThreads: 1 },
  ]
}

interface RunningCli {
  url: string
  stop(): Promise<void>
}

/** Starts `inferpool serve` on a free port; resolves once it prints `inferpool: ready`. */
async function startCli(model: string, modelName: string, shape: ProcessesShape): Promise<RunningCli> {
  const bin = serverBin()
  const args = [
    bin,
    'serve',
    '--port',
    '0',
    '--model',
    `${modelName}=${model}`,
    '--processes',
    String(shape.processes),
    '--replicas',
    String(shape.replicas),
    '--intra-op-threads',
    String(shape.intraOpThreads),
    '--max-queue-size',
    '100000',
  ]
  // Text lines, as a terminal shows them (a pipe would make them JSON).
  const child = spawn(process.execPath, args, { env: { ...process.env, INFERPOOL_LOG_FORMAT: 'text' }, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = once(child, 'exit')
  let output = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    await exited
    clearTimeout(timer)
  }
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inferpool serve did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)
      let stdout = ''
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk
        if (stdout.includes('inferpool: ready\n')) {
          clearTimeout(timer)
          resolve(/listening on (http:\/\/\S+)/.exec(stdout)?.[1] ?? '')
        }
      })
      void exited.then(([code]) => {
        clearTimeout(timer)
        reject(new Error(`inferpool serve exited with ${String(code)} during start-up: ${output}`))
      })
    })
    return { url, stop }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

/** Every shape × connection count, one server at a time. */
export async function runProcesses(
  info: ModelInfo,
  model: string,
  connectionsList: number[],
  window: Window,
  onPoint: (label: string) => void,
): Promise<ProcessesPoint[]> {
  const body = v2RequestBody(info)
  const points: ProcessesPoint[] = []
  for (const shape of processesShapes()) {
    const server = await startCli(model, 'bench', shape)
    try {
      const url = `${server.url}/v2/models/bench/infer`
      for (const connections of connectionsList) {
        if (window.warmupMs > 0) await load(url, body, connections, window.warmupMs)
        const latency = new LatencyRecorder()
        const { ok, elapsedMs } = await load(url, body, connections, window.durationMs, latency)
        points.push({
          kind: 'processes',
          ...shape,
          connections,
          requests: ok,
          rowsPerSec: (ok * 1000) / elapsedMs,
          windowMs: elapsedMs,
          latencyMs: latency.summary(),
        })
        onPoint(`processes ${shape.processes}, ${connections} connections`)
      }
    } finally {
      await server.stop()
    }
  }
  return points
}
