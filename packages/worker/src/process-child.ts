/**
 * Entry of a process-mode replica (`isolation: 'process'`): the host forks this file,
 * one long-lived child per replica. It loads the same worker module a worker thread
 * would (the ONNX tensor worker or a user's `defineWorker` module), unchanged: the boot
 * data that a thread reads from piscina's `workerData` arrives here in a transfer file, and
 * `defineWorker` hands its runtime over through {@link PROCESS_HOST}. Tasks and results
 * travel through the replica's transfer files (process-wire.ts), each announced by a
 * binary notice on a pipe of its own (process-notice.ts); the IPC channel carries only
 * the small JSON control messages (protocol.ts, `HostMessage` / `ChildMessage`).
 *
 * A child never outlives its host: it exits when the IPC channel closes (the host
 * exited, was killed, or let it go after `dispose`) and, as a second line, when its
 * parent pid changes (it was re-parented).
 */
import { closeSync, openSync, unlinkSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
// Not through index.js: that would load onnxruntime-node into a user worker's process too.
import { PROCESS_HOST } from './define-worker.js'
import type { ProcessHost, WorkerRuntime } from './define-worker.js'
import { serializeError } from './errors.js'
import { exposeGc } from './expose-gc.js'
import { IdleCollection, youngGenerationGrown } from './idle-collection.js'
import { Socket } from 'node:net'
import { encodeNotice, NOTICE_FD, NoticeReader } from './process-notice.js'
import type { Notice } from './process-notice.js'
import { readTransferFile, ReusedBuffers, transferFilePath, writeResult, writeTransferFile } from './process-wire.js'
import type { ChildMessage, HostMessage, ProcessBoot, RunTask, TaskResult } from './protocol.js'

const hostPid = process.ppid
/** Open transfer files by lane (`in` lanes are read, `out` lanes written). The host creates them. */
const fds = { in: [] as number[], out: [] as number[] }

/**
 * Per lane, the buffers its batches' inputs are read into, reused from one batch to the
 * next: onnxruntime is done with a batch's inputs once its `run` returns, and the lane
 * takes its next batch only after the host has read this one's result.
 */
const inputBuffers: ReusedBuffers[] = []

function fdOf(direction: 'in' | 'out', lane: number): number {
  return (fds[direction][lane] ??= openSync(transferFilePath(hostPid, process.pid, direction, lane), direction === 'in' ? 'r' : 'r+'))
}

/** Lanes the host created transfer files for (told in the boot message). */
let lanes = 0

/**
 * Unlinks every transfer file of this child, used or not (the host does the same when it
 * sees the exit; whoever is first).
 */
function releaseTransferFiles(): void {
  for (const fd of [...fds.in, ...fds.out]) if (fd !== undefined) closeSync(fd)
  fds.in.length = 0
  fds.out.length = 0
  for (let lane = 0; lane < lanes; lane++) {
    for (const direction of ['in', 'out'] as const) {
      try {
        unlinkSync(transferFilePath(hostPid, process.pid, direction, lane))
      } catch {
        // Already gone: the host unlinked it.
      }
    }
  }
}

function send(message: ChildMessage): void {
  // The channel may already be closed (the host is gone): the 'disconnect' handler exits.
  // It can also close while the message is written (EPIPE when the host exits mid-load):
  // without a callback Node raises that as an unhandled 'error' event and the child dies
  // with a stack trace in the host's stderr; the callback takes it, and 'disconnect' follows.
  if (process.connected) process.send?.(message, undefined, {}, () => {})
}

function hostGone(): never {
  releaseTransferFiles()
  process.exit(0)
}

let runtime: WorkerRuntime | undefined

/** Reading the RSS is a few system calls: after every batch only when the host caps memory. */
let rssEachBatch = true
let rssAt = -Infinity
let rssBytes = 0
function rss(): number {
  const now = performance.now()
  if (rssEachBatch || now - rssAt >= 250) {
    rssBytes = process.memoryUsage.rss()
    rssAt = now
  }
  return rssBytes
}

/** Batches being run now. */
let running = 0
/**
 * Frees what a burst of batches left behind (the buffers read from the transfer files, a
 * grown young generation) once this process has been quiet for `idleCollectMs`: an idle
 * process allocates nothing, so V8 would not collect until its next batch.
 */
let idleCollection: IdleCollection | undefined

function startIdleCollection(afterMs: number): void {
  // This process's main thread is its only JS thread: exposeGc's flag cannot race here.
  const gc = afterMs > 0 ? exposeGc() : undefined
  if (gc === undefined) return
  idleCollection = new IdleCollection({
    afterMs,
    collect: gc,
    grown: youngGenerationGrown(),
    onCollected: () => send({ t: 'collected', rss: process.memoryUsage.rss() }),
    logger: console,
  })
}

async function boot(message: HostMessage & { t: 'boot' }): Promise<void> {
  lanes = message.lanes
  rssEachBatch = message.rssEachBatch
  startIdleCollection(message.idleCollectMs)
  const { module, boot } = readTransferFile(fdOf('in', 0), message.layout) as ProcessBoot
  const host: ProcessHost = {
    boot,
    adopt(adopted) {
      runtime ??= adopted
    },
  }
  ;(globalThis as Record<symbol, unknown>)[PROCESS_HOST] = host
  try {
    await import(pathToFileURL(module).href)
  } catch (err) {
    const error = serializeError(err, 'ERR_MODEL_LOAD')
    error.message = `Worker module ${module} failed to import: ${error.message}`
    return send({ t: 'loaded', ok: false, error, rss: process.memoryUsage.rss() })
  }
  if (!runtime) {
    const message = `Worker module ${module} did not call defineWorker() from @inferpool/worker while loading`
    return send({ t: 'loaded', ok: false, error: { code: 'ERR_MODEL_LOAD', name: 'Error', message }, rss: process.memoryUsage.rss() })
  }
  const report = await runtime.start()
  send(
    report.ok
      ? { t: 'loaded', ok: true, description: report.description, rss: process.memoryUsage.rss() }
      : { t: 'loaded', ok: false, error: report.error, rss: process.memoryUsage.rss() },
  )
}

/** The notice pipe: `run` notices in, `result` notices out (process-notice.ts). */
const notices = new Socket({ fd: NOTICE_FD, readable: true, writable: true })
const noticeReader = new NoticeReader((notice) => {
  if (notice.t === 'run') void run(notice)
})
notices.on('data', (chunk: Buffer) => noticeReader.feed(chunk))
// The host gone closes the pipe too; the IPC channel's 'disconnect' ends this process.
notices.on('error', () => undefined)

async function run(message: Notice & { t: 'run' }): Promise<void> {
  if (running++ === 0) {
    idleCollection?.busy()
    idleCollection?.inferenceStarted()
  }
  try {
    await runBatch(message)
  } finally {
    if (--running === 0) idleCollection?.idle()
  }
}

async function runBatch(message: Notice & { t: 'run' }): Promise<void> {
  const task = readTransferFile(fdOf('in', message.lane), message.layout, (inputBuffers[message.lane] ??= new ReusedBuffers())) as RunTask
  // `release` is not needed here: the buffers this process was sent are its own memory,
  // and sending them back would copy them.
  const { result, transfer } = await (runtime as WorkerRuntime).run(task)
  const out = fdOf('out', message.lane)
  let layout
  try {
    layout = writeResult(out, result, transfer)
  } catch (err) {
    // `run` returned something structured clone cannot copy (a function…): that is the
    // batch's failure, not the process's.
    const failure: TaskResult = {
      ok: false,
      error: serializeError(err, 'ERR_INFERENCE', { batchId: task.batchId }),
      threadId: result.threadId,
      busyMs: result.busyMs,
    }
    failure.error.message = `The worker's result could not be sent to the host: ${failure.error.message}`
    layout = writeTransferFile(out, failure, [])
  }
  if (!notices.destroyed) notices.write(encodeNotice({ t: 'result', id: message.id, lane: message.lane, layout, rss: rss() }))
}

process.on('message', (message: HostMessage) => {
  if (message.t === 'boot') void boot(message)
  else if (message.t === 'dispose') {
    idleCollection?.close()
    void (runtime ? runtime.dispose() : Promise.resolve()).then(() => send({ t: 'disposed' }))
  }
})
process.on('disconnect', hostGone)
// A second line for when the channel's close is not noticed: the parent changed.
setInterval(() => {
  if (process.ppid !== hostPid) hostGone()
}, 1_000).unref()
