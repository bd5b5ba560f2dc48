/**
 * Baselines that call onnxruntime-node directly, without inferpool.
 *
 * - `directRow`: one session in the main thread, created with default options, one row
 *   per `run()` — what a user writes without inferpool. Concurrent callers all share that
 *   session; `run()` is a synchronous native call behind a `setImmediate`, so they queue.
 * - `practicalLimit`: full batches in a tight loop using every core, measured two ways
 *   with the same total thread count as a pool (`cores`): `cores` worker threads each
 *   with its own session and `intraOpNumThreads: 1`, and one session with
 *   `intraOpNumThreads: cores`. The better of the two is "the practical limit": no
 *   batching, queueing or thread hand-off costs, only the model.
 */
import os from 'node:os'
import { Worker } from 'node:worker_threads'
import ort from 'onnxruntime-node'
import { runClosedLoop, type ClosedLoopResult } from '../closed-loop.js'
import { directSessionOptions, randomFeeds, randomRows, rowFeeds, type ModelInfo } from '../model.js'
import { distFile } from '../paths.js'
import type { LimitWorkerData, LimitWorkerMessage } from './limit-worker.js'

export interface Window {
  warmupMs: number
  durationMs: number
}

export interface DirectRowPoint extends ClosedLoopResult {
  kind: 'direct-row'
}

export interface LimitVariant {
  name: 'worker-threads' | 'one-session'
  description: string
  threads: number
  batchSize: number
  rowsPerSec: number
  /** Latency of one full batch (ms). */
  batchLatencyMs: ClosedLoopResult['latencyMs'] | null
}

export interface PracticalLimit {
  rowsPerSec: number
  best: LimitVariant['name']
  batchSize: number
  variants: LimitVariant[]
}

/** Direct single-row calls in the main thread, at each caller count. */
export async function runDirectRow(
  info: ModelInfo,
  callersList: number[],
  window: Window,
  onPoint: (label: string) => void,
): Promise<DirectRowPoint[]> {
  const session = await ort.InferenceSession.create(info.path)
  try {
    const rows = randomRows(info, 64)
    const points: DirectRowPoint[] = []
    for (const callers of callersList) {
      let next = 0
      const result = await runClosedLoop({
        callers,
        ...window,
        call: () => session.run(rowFeeds(info, rows[next++ & 63])),
      })
      points.push({ kind: 'direct-row', ...result })
      onPoint(`direct row, ${callers} caller(s)`)
    }
    return points
  } finally {
    await session.release()
  }
}

/** The practical limit: the best of the two full-batch tight loops. */
export async function runPracticalLimit(
  info: ModelInfo,
  batchSize: number,
  window: Window,
  onPoint: (label: string) => void,
): Promise<PracticalLimit> {
  const cores = os.availableParallelism()
  const variants: LimitVariant[] = []
  variants.push(await runWorkerThreadsLimit(info, batchSize, cores, window))
  onPoint('practical limit: worker threads')
  variants.push(await runOneSessionLimit(info, batchSize, cores, window))
  onPoint('practical limit: one session')
  const best = variants.reduce((a, b) => (b.rowsPerSec > a.rowsPerSec ? b : a))
  return { rowsPerSec: best.rowsPerSec, best: best.name, batchSize, variants }
}

async function runOneSessionLimit(info: ModelInfo, batchSize: number, threads: number, window: Window): Promise<LimitVariant> {
  const session = await ort.InferenceSession.create(info.path, directSessionOptions(threads))
  try {
    const feeds = randomFeeds(info, batchSize)
    const result = await runClosedLoop({ callers: 1, rowsPerCall: batchSize, ...window, call: () => session.run(feeds) })
    return {
      name: 'one-session',
      description: `1 session in the main thread, intraOpNumThreads ${threads}, batch ${batchSize}`,
      threads,
      batchSize,
      rowsPerSec: result.rowsPerSec,
      batchLatencyMs: result.latencyMs,
    }
  } finally {
    await session.release()
  }
}

async function runWorkerThreadsLimit(info: ModelInfo, batchSize: number, threads: number, window: Window): Promise<LimitVariant> {
  const data: LimitWorkerData = { info, batchSize, ...window }
  const workers = Array.from({ length: threads }, () => new Worker(distFile('scenarios', 'limit-worker.js'), { workerData: data }))
  try {
    // Every worker loads its session before any starts its loop, so the windows overlap.
    await Promise.all(workers.map((w) => nextMessage(w, 'ready')))
    const done = workers.map((w) => nextMessage(w, 'done'))
    for (const w of workers) w.postMessage('go')
    const results = await Promise.all(done)
    let rowsPerSec = 0
    for (const r of results) if (r.type === 'done') rowsPerSec += r.rowsPerSec
    return {
      name: 'worker-threads',
      description: `${threads} worker threads, 1 session each with intraOpNumThreads 1, batch ${batchSize}`,
      threads,
      batchSize,
      rowsPerSec,
      batchLatencyMs: null,
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

/** The next message of `type` from `worker`; rejects on a worker error, exit or error message. */
function nextMessage(worker: Worker, type: LimitWorkerMessage['type']): Promise<LimitWorkerMessage> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
    }
    const onMessage = (m: LimitWorkerMessage) => {
      if (m.type === 'error') {
        cleanup()
        reject(new Error(`practical-limit worker: ${m.message}`))
      } else if (m.type === type) {
        cleanup()
        resolve(m)
      }
    }
    const onError = (e: Error) => {
      cleanup()
      reject(e)
    }
    const onExit = (code: number) => {
      cleanup()
      reject(new Error(`practical-limit worker exited with code ${code} before '${type}'`))
    }
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
  })
}
