/**
 * One replica process: a child running @inferpool/worker's process-child.ts, its transfer
 * files, its in-flight tasks, and how it ends. It knows nothing of policy (what a
 * crash means, when to respawn): it reports its load, its results and its exit to
 * its owner, the ProcessTransport.
 *
 * Transfer files (one `in` and one `out` per lane, a lane per batch in flight) are created
 * here right after the fork, before the child is told to read one, and unlinked here
 * when the child exits, however it exits. The child unlinks them itself if the host
 * disappears first.
 */
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { closeSync, openSync, unlinkSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Socket } from 'node:net'
import { encodeNotice, NoticeReader, readTransferFile, transferFilePath, writeTensorTask, writeTransferFile } from '@inferpool/worker'
import type {
  ChildMessage,
  HostMessage,
  Notice,
  ProcessBoot,
  RunTask,
  SerializedError,
  TaskResult,
  WorkerDescription,
} from '@inferpool/worker'
import { BatchPieces } from '../pack.js'

/** How a replica process ended. */
export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
}

export type LoadOutcome = { ok: true; description: WorkerDescription | null } | { ok: false; error: SerializedError }

export interface ReplicaProcessEvents {
  onLoaded(outcome: LoadOutcome): void
  /** A task's result came back (its lane is free again). */
  onResult(id: number, result: TaskResult): void
  /** The process exited; `pending` are the ids of the tasks it still held. */
  onExit(exit: ProcessExit, pending: number[]): void
  /** The process ran one idle garbage collection (its `rss` is updated already). */
  onCollected(): void
}

export interface ReplicaProcessSpec {
  /** The worker module (built `.js`) the child imports. */
  module: string
  boot: ProcessBoot['boot']
  /** Merged over the host's environment. */
  env: Readonly<Record<string, string>>
  /** Batches in flight at once: one pair of transfer files each. */
  lanes: number
  /** The child measures its RSS after every batch (for a memory cap), not just every 250 ms. */
  rssEachBatch: boolean
  /** Quiet time after its last batch before the child collects its garbage (0: never). */
  idleCollectMs: number
}

/** Where the child entry's built `.js` lives. */
const CHILD_ENTRY = fileURLToPath(import.meta.resolve('@inferpool/worker/process-child'))

/** "killed by SIGABRT" / "exited with code 3": for reasons and error messages. */
export function describeExit(exit: ProcessExit): string {
  return exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`
}

export class ReplicaProcess {
  readonly pid: number
  /** `loading` until its load report; `failed`: its load failed (it retries with each task). */
  state: 'loading' | 'ready' | 'failed' | 'exited' = 'loading'
  /** Resident set size in bytes, as the child last reported it. */
  rss = 0
  /** The load's error message while `state` is `failed`. */
  lastError: string | undefined
  /** Its load succeeded (it was `ready`, whatever it is now). */
  loaded = false
  /** Resolves once the process has exited and its transfer files are gone. */
  readonly exited: Promise<ProcessExit>

  private readonly child: ChildProcess
  /** The notice pipe (`run` out, `result` in); null when the fork failed. */
  private readonly notices: Socket | null
  private readonly inFds: number[] = []
  private readonly outFds: number[] = []
  private readonly paths: string[] = []
  private readonly freeLanes: number[]
  /** Task id → lane, for the tasks in flight. */
  private readonly lanes = new Map<number, number>()
  private disposed: (() => void) | undefined

  constructor(
    spec: ReplicaProcessSpec,
    private readonly events: ReplicaProcessEvents,
  ) {
    this.child = fork(CHILD_ENTRY, [], {
      env: { ...process.env, ...spec.env },
      // The host's own flags (a test runner's loader, an inspector port) are not the replica's.
      execArgv: [],
      serialization: 'json',
      // fd 4: the notice pipe (@inferpool/worker's process-notice.ts NOTICE_FD), one binary notice per batch each way.
      stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe'],
    })
    this.notices = this.child.stdio[4] as Socket | null
    if (this.notices !== null) {
      const reader = new NoticeReader((notice) => this.onNotice(notice))
      this.notices.on('data', (chunk: Buffer) => reader.feed(chunk))
      // A child that died closes its end; its 'exit' settles everything.
      this.notices.on('error', () => undefined)
    }
    this.freeLanes = Array.from({ length: spec.lanes }, (_, lane) => spec.lanes - 1 - lane)
    let resolveExit: (exit: ProcessExit) => void = () => undefined
    this.exited = new Promise((resolve) => (resolveExit = resolve))
    this.child.once('exit', (code, signal) => {
      this.state = 'exited'
      this.releaseTransferFiles()
      const pending = [...this.lanes.keys()]
      this.lanes.clear()
      const exit = { code, signal }
      resolveExit(exit)
      this.disposed?.()
      events.onExit(exit, pending)
    })
    // A failed fork (no pid) emits 'error' and then 'exit'; a failed send emits 'error' too.
    this.child.on('error', () => undefined)
    this.child.on('message', (message: ChildMessage) => this.onMessage(message))
    this.pid = this.child.pid ?? -1
    if (this.pid === -1) return
    try {
      for (let lane = 0; lane < spec.lanes; lane++) {
        this.inFds.push(this.createTransferFile('in', lane))
        this.outFds.push(this.createTransferFile('out', lane))
      }
      const layout = writeTransferFile(this.inFds[0] as number, { module: spec.module, boot: spec.boot } satisfies ProcessBoot, [])
      this.post({ t: 'boot', layout, lanes: spec.lanes, rssEachBatch: spec.rssEachBatch, idleCollectMs: spec.idleCollectMs })
    } catch (err) {
      // The boot data cannot be cloned (a SharedArrayBuffer in workerOptions…) or /dev/shm is full.
      this.child.kill('SIGKILL')
      const message = err instanceof Error ? err.message : String(err)
      queueMicrotask(() =>
        events.onLoaded({
          ok: false,
          error: { code: 'ERR_MODEL_LOAD', name: 'Error', message: `Could not boot the replica process: ${message}` },
        }),
      )
    }
  }

  /** Batches in flight. */
  get inFlight(): number {
    return this.lanes.size
  }

  /** Only a replica that is `ready` takes a batch: one whose load failed would only fail it. */
  get hasFreeLane(): boolean {
    return this.freeLanes.length > 0 && this.state === 'ready'
  }

  /**
   * Writes the task into a free lane and tells the child: a tensor batch's rows straight
   * from their arrays ({@link BatchPieces}), anything else as v8 serializes it. Throws
   * (and uses no lane) when the payload cannot be cloned: the caller's input is at fault.
   */
  run(id: number, task: RunTask, transfer: readonly ArrayBuffer[]): void {
    const lane = this.freeLanes.pop() as number
    const fd = this.inFds[lane] as number
    const payload = task.payload
    let layout
    try {
      layout =
        payload instanceof BatchPieces
          ? writeTensorTask(
              fd,
              task.batchId,
              payload.rows,
              payload.inputs,
              task.deadlines === undefined ? undefined : { deadlines: task.deadlines, runMs: task.runMs ?? 0 },
            )
          : writeTransferFile(fd, task, transfer)
    } catch (err) {
      this.freeLanes.push(lane)
      throw err
    }
    this.lanes.set(id, lane)
    // A child that just died cannot be written to; its 'exit' settles everything.
    if (this.notices !== null && !this.notices.destroyed) this.notices.write(encodeNotice({ t: 'run', id, lane, layout }))
  }

  /** Sends a signal (no-op once exited). */
  kill(signal: NodeJS.Signals): void {
    if (this.state !== 'exited') this.child.kill(signal)
  }

  /**
   * Ends the process gracefully: asks a loaded worker to release its state (bounded by
   * `boundMs`), closes the channel (the child exits on that), then SIGTERM and SIGKILL,
   * each after `boundMs`. Resolves once it has exited.
   */
  async stop(boundMs: number): Promise<ProcessExit> {
    if (this.state === 'ready' || this.state === 'failed') {
      const disposed = new Promise<void>((resolve) => (this.disposed = resolve))
      this.post({ t: 'dispose' })
      await this.within(disposed, boundMs)
    }
    if (this.child.connected) this.child.disconnect()
    if (await this.within(this.exited, boundMs)) return this.exited
    this.kill('SIGTERM')
    if (await this.within(this.exited, boundMs)) return this.exited
    this.kill('SIGKILL')
    return this.exited
  }

  /** SIGTERM, then SIGKILL after `boundMs`. Resolves once it has exited. */
  async destroy(boundMs: number): Promise<ProcessExit> {
    this.kill('SIGTERM')
    if (!(await this.within(this.exited, boundMs))) this.kill('SIGKILL')
    return this.exited
  }

  private async within(promise: Promise<unknown>, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
    try {
      return await Promise.race([promise.then(() => true as const), expired])
    } finally {
      clearTimeout(timer)
    }
  }

  private onNotice(notice: Notice): void {
    if (notice.t !== 'result') return
    this.rss = notice.rss
    const lane = this.lanes.get(notice.id)
    if (lane === undefined) return
    const result = readTransferFile(this.outFds[lane] as number, notice.layout) as TaskResult
    this.lanes.delete(notice.id)
    this.freeLanes.push(lane)
    this.events.onResult(notice.id, result)
  }

  private onMessage(message: ChildMessage): void {
    if (message.t === 'loaded') {
      this.rss = message.rss
      this.state = message.ok ? 'ready' : 'failed'
      this.loaded ||= message.ok
      this.lastError = message.ok ? undefined : message.error.message
      this.events.onLoaded(message.ok ? { ok: true, description: message.description } : { ok: false, error: message.error })
    } else if (message.t === 'disposed') {
      this.disposed?.()
    } else if (message.t === 'collected') {
      this.rss = message.rss
      this.events.onCollected()
    }
  }

  /** Notes a load outcome seen in a task result (a failed load is retried with each task). */
  noteLoad(failure: string | undefined): void {
    if (this.state === 'exited' || this.state === 'loading') return
    this.state = failure === undefined ? 'ready' : 'failed'
    this.lastError = failure
  }

  private post(message: HostMessage): void {
    // A child that just died cannot be written to; its 'exit' settles everything.
    if (this.child.connected) this.child.send(message, (err) => void err)
  }

  private createTransferFile(direction: 'in' | 'out', lane: number): number {
    const path = transferFilePath(process.pid, this.pid, direction, lane)
    const fd = openSync(path, 'w+', 0o600)
    this.paths.push(path)
    return fd
  }

  private releaseTransferFiles(): void {
    for (const fd of [...this.inFds, ...this.outFds]) {
      try {
        closeSync(fd)
      } catch {
        // Already closed.
      }
    }
    this.inFds.length = 0
    this.outFds.length = 0
    for (const path of this.paths) {
      try {
        unlinkSync(path)
      } catch {
        // The child unlinked it first (it saw its host go) — or it never got created.
      }
    }
    this.paths.length = 0
  }
}
