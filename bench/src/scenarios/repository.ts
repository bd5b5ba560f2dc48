/**
 * Repository: `inferpool serve --model-repository` (a child process, as a user runs it)
 * with a temporary repository holding the bench model as `bench` version 1.
 *
 * 1. Swaps under load: autocannon at `connections` single-row JSON requests, in windows
 *    that alternate steady state and swaps (a reload through the repository extension,
 *    `POST /v2/repository/models/bench/load`, every `reloadEveryMs`: each one starts a
 *    new pool beside the old, warms it, switches and retires the old). Per window: p50,
 *    p99, answers per second, non-2xx answers and client errors, the swaps done and how
 *    long each took.
 * 2. Memory over load/unload cycles, in thread and in process isolation: the server's
 *    resident memory (its process and every replica process under it, from /proc) before
 *    the first load, with the model loaded, after the first unload, the 10th and the last of
 *    `cycles` load (+ a few requests) / unload cycles; and, in process isolation, what an
 *    unload gives back to the OS (loaded − unloaded). The allocator is the Docker image's
 *    (jemalloc preloaded) where Debian's libjemalloc2 is installed. At every 10th unload too,
 *    the server process's own split (`process.memoryUsage()`: rss, heapUsed, heapTotal,
 *    external, arrayBuffers), as it is and after one full collection, from a probe preloaded
 *    into it (repository-memory-hook.ts): what grows is V8's heap, buffers, or native memory.
 *
 * Linux only (/proc). The load generator shares the machine with the server.
 */
import type { ChildProcess } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { RELEASE_AFTER_MS } from '@inferpool/worker'
import { distFile } from '../paths.js'
import { LatencyRecorder, summarize, type LatencySummary } from '../latency.js'
import type { ModelInfo } from '../model.js'
import { repoRoot } from '../paths.js'
import { allocatorEnv, findJemalloc, startServeCli, stopServeCli, type ServeCli } from '../serve-cli.js'
import { doorRequest } from './http.js'
import type { HostMemory, HostMemoryMessage } from './repository-memory-hook.js'

export interface RepositoryOptions {
  connections: number
  /** Each steady or swap window. */
  warmupMs: number
  durationMs: number
  /** Steady + swap window pairs, alternating which goes first. */
  rounds: number
  reloadEveryMs: number
  /** Load/unload cycles of the memory part, per isolation. */
  cycles: number
  /** Requests sent while the model is loaded, each cycle. */
  requestsPerCycle: number
  /** Time given to the server after its idle collections (`RELEASE_AFTER_MS` after its first) before its memory is read. */
  settleMs: number
}

export interface SwapWindow {
  phase: 'steady' | 'swap'
  round: number
  windowMs: number
  okPerSec: number
  latencyMs: LatencySummary
  non2xx: Record<string, number>
  errors: number
  timeouts: number
  /** Reloads answered 200 in the window, and the others. */
  swaps: number
  failedSwaps: number
  /** How long each reload call took (start, warm, switch, retire). */
  swapMs: LatencySummary | null
}

/** The server process's `process.memoryUsage()` and its RSS split, in MiB. */
export interface HostMemorySplit {
  rss: number
  /** Anonymous resident memory (V8's heap, malloc's arenas, stacks): `RssAnon`. */
  rssAnon: number
  /** File-backed resident memory (the node binary, native libraries): `RssFile`. */
  rssFile: number
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
}

/** One reading of the cycles: before the first load, loaded, or after an unload. */
export interface CycleReading {
  /** 0 before the first load. */
  cycle: number
  state: 'before' | 'loaded' | 'unloaded'
  /** Resident MiB of the server and its replica processes (read first, before the probe collects). */
  treeRssMiB: number
  /** The server process, as it is. */
  host: HostMemorySplit
  /** The server process `settleMs` after one full collection (what it keeps, not garbage waiting). */
  hostAfterGc: HostMemorySplit
}

export interface CycleMemory {
  isolation: 'thread' | 'process'
  cycles: number
  /** Resident MiB of the server and its replica processes. */
  rssMiB: {
    beforeLoad: number
    loadedFirst: number
    afterFirstUnload: number
    /** After the unload of cycle `plateauCycle`: where the allocators' high-water marks have settled. */
    afterPlateauUnload: number
    loadedLast: number
    afterLastUnload: number
  }
  /** afterLastUnload ÷ afterFirstUnload. */
  growthAfterCycles: number
  /** The cycle of `afterPlateauUnload` (the 10th, or the last when fewer). */
  plateauCycle: number
  /** afterLastUnload ÷ afterPlateauUnload: the growth once the first cycles have set the high-water marks. */
  growthAfterPlateau: number
  /** loadedFirst − afterFirstUnload: what one unload gave back to the OS. */
  returnedOnUnloadMiB: number
  /** The server process's RSS after a full collection, after the last unload ÷ after the first. */
  hostGrowthAfterGc: number
  /** The same of its anonymous RSS (`RssAnon`: V8's heap and malloc's arenas, no file pages). */
  hostAnonGrowthAfterGc: number
  /** Before the first load, loaded at the first and last cycle, unloaded at the first, every `READ_EVERY`th and the last. */
  readings: CycleReading[]
}

export interface RepositoryResult {
  allocator: 'glibc' | 'jemalloc'
  connections: number
  reloadEveryMs: number
  windows: SwapWindow[]
  /** Medians over rounds of each phase's p50, p99 and answers per second. */
  steady: { p50: number; p99: number; okPerSec: number }
  swap: { p50: number; p99: number; okPerSec: number; swaps: number; failedSwaps: number; non2xx: number; errors: number }
  memory: CycleMemory[]
}

/**
 * The cycle after which the memory is read once more: the first cycles raise the
 * allocators' and V8's high-water marks (measured: most of the growth is in the first
 * ten), so growth past it says whether a cycle leaks.
 */
const PLATEAU_CYCLE = 10

/** The server's memory split is read after every this many unloads (and the first and last). */
const READ_EVERY = 10

type Server = ServeCli

/** `probe`: the memory probe preloaded, answering over an IPC channel (repository-memory-hook.ts). */
function startServer(args: string[], env: NodeJS.ProcessEnv, probe = false): Promise<Server> {
  const bin = join(repoRoot, 'packages/server/dist/cli.js')
  const nodeArgs = probe ? ['--import', pathToFileURL(distFile('scenarios', 'repository-memory-hook.js')).href] : []
  return startServeCli(bin, args, env, { nodeArgs, ipc: probe })
}

/** `pid` and every process under it. */
function processTree(pid: number): number[] {
  const all = [pid]
  for (let i = 0; i < all.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${all[i]}/task`)) {
        const children = readFileSync(`/proc/${all[i]}/task/${tid}/children`, 'utf8').trim()
        if (children !== '') all.push(...children.split(' ').map(Number))
      }
    } catch {
      // Gone between the listing and the read.
    }
  }
  return all
}

/** Resident MiB of `pid` and its descendants. */
function treeRssMiB(pid: number): number {
  let kb = 0
  for (const p of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      // Exited meanwhile.
    }
  }
  return Math.round((kb / 1024) * 10) / 10
}

const toMiB = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10

function splitOf(usage: HostMemory): HostMemorySplit {
  return {
    rss: toMiB(usage.rss),
    rssAnon: toMiB(usage.rssAnon),
    rssFile: toMiB(usage.rssFile),
    heapUsed: toMiB(usage.heapUsed),
    heapTotal: toMiB(usage.heapTotal),
    external: toMiB(usage.external),
    arrayBuffers: toMiB(usage.arrayBuffers),
  }
}

/** The server process's memory, as it is and `settleMs` after a full collection, from its probe. */
async function hostMemory(child: ChildProcess, settleMs: number): Promise<{ host: HostMemorySplit; hostAfterGc: HostMemorySplit }> {
  const answer = new Promise<HostMemoryMessage>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server's memory probe did not answer within 30 s")), 30_000)
    const onMessage = (message: HostMemoryMessage): void => {
      if (message.t !== 'memory') return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve(message)
    }
    child.on('message', onMessage)
  })
  child.send({ t: 'memory', settleMs })
  const message = await answer
  return { host: splitOf(message.asIs), hostAfterGc: splitOf(message.afterGc) }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function manage(url: string, path: string): Promise<number> {
  const res = await fetch(`${url}/v2/repository/${path}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
  await res.arrayBuffer()
  return res.status
}

async function window(url: string, body: string, options: RepositoryOptions, phase: 'steady' | 'swap', round: number): Promise<SwapWindow> {
  const latency = new LatencyRecorder()
  const non2xx: Record<string, number> = {}
  let ok = 0
  let measuring = false
  const instance = autocannon({
    url: `${url}/v2/models/bench/infer`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: options.connections,
    pipelining: 1,
    duration: (options.warmupMs + options.durationMs) / 1000,
    timeout: 30,
  })
  ;(instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (!measuring) return
    if (status >= 200 && status < 300) {
      ok++
      latency.record(ms)
    } else non2xx[status] = (non2xx[status] ?? 0) + 1
  })
  await sleep(options.warmupMs)
  measuring = true
  const started = performance.now()
  const swapTimes: number[] = []
  let failedSwaps = 0
  let reloading: Promise<void> = Promise.resolve()
  if (phase === 'swap') {
    reloading = (async () => {
      while (performance.now() - started < options.durationMs - options.reloadEveryMs / 2) {
        const t0 = performance.now()
        const status = await manage(url, 'models/bench/load')
        if (status === 200) swapTimes.push(performance.now() - t0)
        else failedSwaps++
        await sleep(Math.max(0, options.reloadEveryMs - (performance.now() - t0)))
      }
    })()
  }
  const result = await instance
  const windowMs = performance.now() - started
  await reloading
  return {
    phase,
    round,
    windowMs: Math.round(windowMs),
    okPerSec: Math.round(ok / (windowMs / 1000)),
    latencyMs: latency.summary(),
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    swaps: swapTimes.length,
    failedSwaps,
    swapMs: swapTimes.length === 0 ? null : summarize(Float64Array.from(swapTimes)),
  }
}

async function cycles(
  root: string,
  body: string,
  isolation: 'thread' | 'process',
  options: RepositoryOptions,
  env: NodeJS.ProcessEnv,
  step: (label: string) => void,
): Promise<CycleMemory> {
  const server = await startServer(
    [
      '--model-repository',
      root,
      '--model-control-mode',
      'explicit',
      '--replicas',
      '1',
      '--isolation',
      isolation,
      // A full collection soon after the last request: the memory read after an unload is
      // what the server keeps, not garbage waiting for the next collection.
      '--idle-gc-ms',
      '100',
    ],
    env,
    true,
  )
  const pid = server.child.pid as number
  const infer = async (): Promise<void> => {
    await Promise.all(
      Array.from({ length: options.requestsPerCycle }, async () => {
        const res = await fetch(`${server.url}/v2/models/bench/infer`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`inference answered ${res.status}`)
      }),
    )
  }
  const readings: CycleReading[] = []
  /**
   * Waits until the server's own idle collections are done, reads the tree's RSS, then the
   * server's split (whose collection must not touch the first). The server collects 100 ms
   * after its last request and gives V8's young generation back only at a second collection
   * `RELEASE_AFTER_MS` later (@inferpool/worker idle-collection.ts): read sooner, the server
   * is measured half-way, with up to 16 MiB of young generation and freed pages still held
   * (measured: 93.3 MiB as it was 1.5 s after the 50th unload, 78.2 after a collection).
   */
  const read = async (cycle: number, state: CycleReading['state']): Promise<number> => {
    await sleep(RELEASE_AFTER_MS + options.settleMs)
    const tree = treeRssMiB(pid)
    readings.push({ cycle, state, treeRssMiB: tree, ...(await hostMemory(server.child, options.settleMs)) })
    return tree
  }
  try {
    const beforeLoad = await read(0, 'before')
    const rss = { beforeLoad, loadedFirst: 0, afterFirstUnload: 0, afterPlateauUnload: 0, loadedLast: 0, afterLastUnload: 0 }
    const plateau = Math.min(PLATEAU_CYCLE, options.cycles)
    for (let cycle = 1; cycle <= options.cycles; cycle++) {
      if ((await manage(server.url, 'models/bench/load')) !== 200) throw new Error(`load ${cycle} failed`)
      await infer()
      const first = cycle === 1
      const last = cycle === options.cycles
      if (first || last) rss[first ? 'loadedFirst' : 'loadedLast'] = await read(cycle, 'loaded')
      if ((await manage(server.url, 'models/bench/unload')) !== 200) throw new Error(`unload ${cycle} failed`)
      if (first || last || cycle === plateau || cycle % READ_EVERY === 0) {
        const now = await read(cycle, 'unloaded')
        if (first) rss.afterFirstUnload = now
        if (cycle === plateau) rss.afterPlateauUnload = now
        if (last) rss.afterLastUnload = now
      }
    }
    step(`repository: ${options.cycles} cycles, ${isolation}`)
    const unloaded = readings.filter((r) => r.state === 'unloaded')
    const firstHost = unloaded[0].hostAfterGc
    const lastHost = unloaded[unloaded.length - 1].hostAfterGc
    return {
      isolation,
      cycles: options.cycles,
      rssMiB: rss,
      growthAfterCycles: Math.round((rss.afterLastUnload / rss.afterFirstUnload) * 1000) / 1000,
      plateauCycle: plateau,
      growthAfterPlateau: Math.round((rss.afterLastUnload / rss.afterPlateauUnload) * 1000) / 1000,
      returnedOnUnloadMiB: Math.round((rss.loadedFirst - rss.afterFirstUnload) * 10) / 10,
      hostGrowthAfterGc: Math.round((lastHost.rss / firstHost.rss) * 1000) / 1000,
      hostAnonGrowthAfterGc: Math.round((lastHost.rssAnon / firstHost.rssAnon) * 1000) / 1000,
      readings,
    }
  } finally {
    await stopServeCli(server)
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

export async function runRepository(
  info: ModelInfo,
  modelPath: string,
  options: RepositoryOptions,
  step: (label: string) => void,
): Promise<RepositoryResult> {
  const jemalloc = findJemalloc()
  const env = allocatorEnv(jemalloc === undefined ? 'glibc' : 'jemalloc', jemalloc)
  const root = mkdtempSync(join(tmpdir(), 'inferpool-bench-repository-'))
  mkdirSync(join(root, 'bench', '1'), { recursive: true })
  copyFileSync(modelPath, join(root, 'bench', '1', 'model.onnx'))
  const body = doorRequest(info, 'json', 1).body as string
  try {
    const windows: SwapWindow[] = []
    const server = await startServer(
      ['--model-repository', root, '--model-control-mode', 'explicit', '--load-model', 'bench', '--replicas', '1'],
      env,
    )
    try {
      for (let round = 1; round <= options.rounds; round++) {
        const order: Array<'steady' | 'swap'> = round % 2 === 1 ? ['steady', 'swap'] : ['swap', 'steady']
        for (const phase of order) {
          windows.push(await window(server.url, body, options, phase, round))
          step(`repository: ${phase}, round ${round}`)
        }
      }
    } finally {
      await stopServeCli(server)
    }
    const memory: CycleMemory[] = []
    for (const isolation of ['thread', 'process'] as const) memory.push(await cycles(root, body, isolation, options, env, step))
    const of = (phase: 'steady' | 'swap'): SwapWindow[] => windows.filter((w) => w.phase === phase)
    const swaps = of('swap')
    const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0)
    return {
      allocator: jemalloc === undefined ? 'glibc' : 'jemalloc',
      connections: options.connections,
      reloadEveryMs: options.reloadEveryMs,
      windows,
      steady: {
        p50: median(of('steady').map((w) => w.latencyMs.p50)),
        p99: median(of('steady').map((w) => w.latencyMs.p99)),
        okPerSec: median(of('steady').map((w) => w.okPerSec)),
      },
      swap: {
        p50: median(swaps.map((w) => w.latencyMs.p50)),
        p99: median(swaps.map((w) => w.latencyMs.p99)),
        okPerSec: median(swaps.map((w) => w.okPerSec)),
        swaps: sum(swaps.map((w) => w.swaps)),
        failedSwaps: sum(swaps.map((w) => w.failedSwaps)),
        non2xx: sum(swaps.map((w) => sum(Object.values(w.non2xx)))),
        errors: sum(swaps.map((w) => w.errors + w.timeouts)),
      },
      memory,
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
