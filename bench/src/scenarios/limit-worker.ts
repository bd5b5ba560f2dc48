/**
 * One thread of the worker-threads practical-limit baseline: its own session with
 * `intraOpNumThreads: 1`, running full batches back to back.
 */
import { parentPort, workerData } from 'node:worker_threads'
import ort from 'onnxruntime-node'
import { runClosedLoop } from '../closed-loop.js'
import { directSessionOptions, randomFeeds, type ModelInfo } from '../model.js'

export interface LimitWorkerData {
  info: ModelInfo
  batchSize: number
  warmupMs: number
  durationMs: number
}

export type LimitWorkerMessage = { type: 'ready' } | { type: 'done'; rowsPerSec: number } | { type: 'error'; message: string }

const port = parentPort
if (port) {
  const data = workerData as LimitWorkerData
  // Failures are posted, never thrown at module load: the parent waits on messages.
  ;(async () => {
    const session = await ort.InferenceSession.create(data.info.path, directSessionOptions(1))
    const feeds = randomFeeds(data.info, data.batchSize, 7 + Math.floor(Math.random() * 1000))
    port.postMessage({ type: 'ready' } satisfies LimitWorkerMessage)
    await new Promise<void>((resolve) => port.once('message', () => resolve()))
    const result = await runClosedLoop({
      callers: 1,
      rowsPerCall: data.batchSize,
      warmupMs: data.warmupMs,
      durationMs: data.durationMs,
      call: () => session.run(feeds),
    })
    await session.release()
    port.postMessage({ type: 'done', rowsPerSec: result.rowsPerSec } satisfies LimitWorkerMessage)
  })().catch((error: unknown) => {
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies LimitWorkerMessage)
  })
}
