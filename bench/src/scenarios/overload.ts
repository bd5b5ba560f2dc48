/**
 * Overload: `inferpool serve` with its default settings (a child process, as a user
 * runs it) against closed-loop autocannon clients at a comfortable concurrency (the
 * capacity), then at 4× and 16× that many connections, with single-row and 64-row
 * requests, JSON and binary tensor data. Per point: goodput (2xx/s) ÷ capacity, the share of 503s, the p99 of the
 * accepted requests, deadline misses (answers later than `--timeout-ms` + 1 s, and
 * client timeouts), the server's CPU per thread (from /proc: where the time goes —
 * the host thread against the replicas), and its resident memory before the load,
 * right after it, and once idle again.
 *
 * Linux only (/proc). The load generator runs in the bench process on the same
 * machine: on 2 cores it competes with the server, so the figures are a lower bound.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import { LatencyRecorder, type LatencySummary } from '../latency.js'
import type { ModelInfo } from '../model.js'
import { repoRoot } from '../paths.js'
import { allocatorEnv, findJemalloc, startServeCli, stopServeCli, type Allocator } from '../serve-cli.js'
import { doorRequest, type DoorEncoding, type DoorRequest } from './http.js'

/** The CLI's default `--timeout-ms`. */
const DEFAULT_TIMEOUT_MS = 30_000
/** Kernel clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux). */
const CLK_TCK = 100
/** How long memory gets to come back to idle after a point. */
const SETTLE_MS = 10_000

export interface OverloadOptions {
  /** Connections of the capacity point; the overload points use 4× and 16× as many. */
  comfortable: number
  rowsPerRequest: number[]
  /** Request encodings, each run at every size: KServe v2 JSON, binary tensor data. */
  encodings: DoorEncoding[]
  warmupMs: number
  durationMs: number
  /**
   * Times each series (1×, 4×, 16×) is run, one after the other: each overload point is
   * compared with the capacity of its own round, so the ratio is read from points minutes
   * apart at most, and the medians over rounds say more than one pass on a shared machine.
   */
  rounds: number
  /** Extra `inferpool serve` flags (none: the defaults). */
  serveArgs: string[]
  /** The CLI to start; null: this checkout's. */
  bin: string | null
  /**
   * The server's malloc: `jemalloc` preloaded as the Docker image does (deploy/Dockerfile),
   * or the system's glibc. null: jemalloc where Debian's libjemalloc2 is installed.
   */
  allocator: Allocator | null
}

export interface ThreadCpu {
  name: string
  /** Share of one core over the window (1 = a whole core). */
  cores: number
}

export interface OverloadPoint {
  encoding: DoorEncoding
  rowsPerRequest: number
  /** 1-based round of its series. */
  round: number
  connections: number
  /** connections ÷ the comfortable connections. */
  load: number
  windowMs: number
  answers: number
  okPerSec: number
  /** okPerSec ÷ the capacity point's okPerSec. */
  goodputVsCapacity: number
  /** Share of answers that were 503. */
  share503: number
  otherStatuses: Record<string, number>
  /** Latency of the 2xx answers. */
  okLatencyMs: LatencySummary
  /** Longest time any answer took. */
  maxAnswerMs: number
  /** Answers later than the timeout + 1 s, plus requests the client gave up on (client's clock). */
  deadlineMisses: number
  /**
   * By the server's own clock (its request-duration histogram): answers that took longer
   * than `serverOverS`, the first histogram bucket above the timeout (null past the last).
   */
  serverOver: { seconds: number; answers: number } | null
  clientErrors: number
  /** Server CPU per thread over the window: the host thread first, then the busiest others. */
  threads: ThreadCpu[]
  /** CPU of the load generator (this process) over the window, in cores: it shares the machine. */
  clientCores: number
  rssMiB: { before: number; after: number; settled: number | null; settledAfterMs: number | null }
  /** JS heap in use (from the server's /metrics): before, right after, and once RSS settled. */
  heapUsedMiB: { before: number; after: number; settled: number | null }
  /**
   * Memory of the main thread's isolate outside its JS heap (`process.memoryUsage().external`,
   * from the server's /metrics: request bodies, typed arrays), at the same three moments.
   */
  externalMiB: { before: number; after: number; settled: number | null }
  /**
   * Share of the pool's batch slots busy over the window (from its cumulative
   * `inferpool_batch_slots_utilization_ratio`, taken as counted from the process start).
   */
  slotUtilization: number
}

export interface OverloadResult {
  bin: string
  /** The server's request deadline; answers later than it + 1 s are misses. */
  timeoutMs: number
  serveArgs: string[]
  /** The server's malloc (see `OverloadOptions.allocator`). */
  allocator: Allocator
  comfortable: number
  idleRssMiB: number
  points: OverloadPoint[]
}

/** CPU ticks (user + system) per thread of `pid`, with the thread's name. */
function threadTicks(pid: number): Map<number, { name: string; ticks: number }> {
  const out = new Map<number, { name: string; ticks: number }>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      // "tid (comm) state …": comm may hold spaces; fields after it are space-separated.
      const close = stat.lastIndexOf(')')
      const name = stat.slice(stat.indexOf('(') + 1, close)
      const fields = stat.slice(close + 2).split(' ')
      out.set(Number(tid), { name, ticks: Number(fields[11]) + Number(fields[12]) })
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out
}

function threadCpu(pid: number, before: Map<number, { name: string; ticks: number }>, seconds: number): ThreadCpu[] {
  const after = threadTicks(pid)
  const all: Array<ThreadCpu & { main: boolean }> = []
  for (const [tid, { name, ticks }] of after) {
    const used = ticks - (before.get(tid)?.ticks ?? 0)
    all.push({ name: tid === pid ? 'main (host)' : `${name} #${tid}`, cores: used / CLK_TCK / seconds, main: tid === pid })
  }
  const main = all.filter((t) => t.main)
  const others = all.filter((t) => !t.main && t.cores >= 0.01).sort((a, b) => b.cores - a.cores)
  return [...main, ...others].slice(0, 8).map(({ name, cores }) => ({ name, cores: Math.round(cores * 100) / 100 }))
}

interface Scrape {
  /** Cumulative count of answers per histogram bucket bound (seconds), and in all. */
  durations: Map<number, number>
  answered: number
  at: number
  heapUsedMiB: number
  externalMiB: number
  utilization: number
  startTime: number
}

/** The figures of the server's /metrics the scenario reads. */
async function scrape(base: string): Promise<Scrape> {
  const text = await (await fetch(`${base}/metrics`)).text()
  const value = (name: string): number => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
    return line === undefined ? NaN : Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  const durations = new Map<number, number>()
  for (const line of text.split('\n')) {
    const m = /^inferpool_request_duration_seconds_bucket\{.*le="([^"]+)".*\} (\S+)$/.exec(line)
    if (m && m[1] !== '+Inf') durations.set(Number(m[1]), Number(m[2]))
  }
  return {
    durations,
    answered: value('inferpool_request_duration_seconds_count'),
    at: Date.now() / 1000,
    heapUsedMiB: Math.round((value('nodejs_heap_size_used_bytes') / 2 ** 20) * 10) / 10,
    externalMiB: Math.round((value('nodejs_external_memory_bytes') / 2 ** 20) * 10) / 10,
    utilization: value('inferpool_batch_slots_utilization_ratio'),
    startTime: value('process_start_time_seconds'),
  }
}

/** Answers slower than the first bucket above `timeoutMs`, between two scrapes. */
function serverOver(a: Scrape, b: Scrape, timeoutMs: number): { seconds: number; answers: number } | null {
  const bound = [...b.durations.keys()].sort((x, y) => x - y).find((le) => le > timeoutMs / 1000)
  if (bound === undefined) return null
  const within = (b.durations.get(bound) ?? 0) - (a.durations.get(bound) ?? 0)
  return { seconds: bound, answers: b.answered - a.answered - within }
}

/** Busy share of the batch slots between two scrapes of the cumulative ratio. */
function windowUtilization(a: Scrape, b: Scrape): number {
  const ta = a.at - a.startTime
  const tb = b.at - b.startTime
  const u = (b.utilization * tb - a.utilization * ta) / (tb - ta)
  return Math.round(Math.min(1, Math.max(0, u)) * 100) / 100
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round((kb / 1024) * 10) / 10
}

interface LoadOutcome {
  elapsedMs: number
  ok: number
  status503: number
  other: Record<string, number>
  okLatency: LatencyRecorder
  maxAnswerMs: number
  late: number
  errors: number
  timeouts: number
}

/** The server's `--timeout-ms` from its flags, else the CLI's default. */
function timeoutOf(serveArgs: string[]): number {
  const i = serveArgs.indexOf('--timeout-ms')
  return i === -1 ? DEFAULT_TIMEOUT_MS : Number(serveArgs[i + 1])
}

async function load(url: string, request: DoorRequest, connections: number, durationMs: number, timeoutMs: number): Promise<LoadOutcome> {
  const outcome: LoadOutcome = {
    elapsedMs: 0,
    ok: 0,
    status503: 0,
    other: {},
    okLatency: new LatencyRecorder(),
    maxAnswerMs: 0,
    late: 0,
    errors: 0,
    timeouts: 0,
  }
  const started = performance.now()
  const instance = autocannon({
    url,
    method: 'POST',
    headers: request.headers,
    body: request.body,
    connections,
    pipelining: 1,
    duration: durationMs / 1000,
    sampleInt: 100,
    // Past the server's deadline + 1 s an answer is a miss anyway; the client waits a
    // little longer so that a late answer is seen as late rather than as a timeout.
    timeout: (timeoutMs + 5_000) / 1000,
  })
  ;(instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) {
      outcome.ok++
      outcome.okLatency.record(ms)
    } else if (status === 503) outcome.status503++
    else outcome.other[status] = (outcome.other[status] ?? 0) + 1
    if (ms > outcome.maxAnswerMs) outcome.maxAnswerMs = ms
    if (ms > timeoutMs + 1_000) outcome.late++
  })
  const result = await instance
  outcome.elapsedMs = performance.now() - started
  outcome.errors = result.errors
  outcome.timeouts = result.timeouts
  return outcome
}

/** Polls RSS until it is within 10 % (or 5 MiB) of `idle`, or `SETTLE_MS` passed. */
async function settle(pid: number, idle: number): Promise<{ rss: number; afterMs: number }> {
  const started = performance.now()
  for (;;) {
    const rss = rssMiB(pid)
    const afterMs = performance.now() - started
    if (rss <= Math.max(idle * 1.1, idle + 5) || afterMs >= SETTLE_MS) return { rss, afterMs: Math.round(afterMs) }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

export async function runOverload(
  info: ModelInfo,
  model: string,
  options: OverloadOptions,
  onPoint: (label: string) => void,
): Promise<OverloadResult> {
  const bin = options.bin ?? join(repoRoot, 'packages', 'server', 'bin', 'inferpool.js')
  const jemalloc = findJemalloc()
  const allocator = options.allocator ?? (jemalloc === undefined ? 'glibc' : 'jemalloc')
  const cli = await startServeCli(bin, ['--model', `bench=${model}`, ...options.serveArgs], allocatorEnv(allocator, jemalloc))
  const pid = cli.child.pid as number
  const url = `${cli.url}/v2/models/bench/infer`
  const points: OverloadPoint[] = []
  const timeoutMs = timeoutOf(options.serveArgs)
  const idleRssMiB = rssMiB(pid)
  try {
    const series = options.encodings.flatMap((encoding) => options.rowsPerRequest.map((rows) => [encoding, rows] as const))
    for (const [encoding, rows] of series) {
      // The same bytes for every request of a point (doorRequest: seeded).
      const body = doorRequest(info, encoding, rows)
      for (let round = 1; round <= options.rounds; round++) {
        let capacity = 0
        for (const load_ of [1, 4, 16]) {
          const connections = options.comfortable * load_
          if (options.warmupMs > 0) await load(url, body, connections, options.warmupMs, timeoutMs)
          const before = rssMiB(pid)
          const scrapeBefore = await scrape(cli.url)
          const ticks = threadTicks(pid)
          const clientCpu = process.cpuUsage()
          const outcome = await load(url, body, connections, options.durationMs, timeoutMs)
          const seconds = outcome.elapsedMs / 1000
          const threads = threadCpu(pid, ticks, seconds)
          const clientUsed = process.cpuUsage(clientCpu)
          const after = rssMiB(pid)
          const scrapeAfter = await scrape(cli.url)
          // Memory is followed after the overload points (the 1× and 4× ones lead straight on).
          const settled = load_ === 16 ? await settle(pid, idleRssMiB) : { rss: null, afterMs: null }
          const scrapeSettled = settled.rss === null ? null : await scrape(cli.url)
          const okPerSec = outcome.ok / seconds
          if (load_ === 1) capacity = okPerSec
          const answers = outcome.ok + outcome.status503 + Object.values(outcome.other).reduce((a, b) => a + b, 0)
          points.push({
            encoding,
            rowsPerRequest: rows,
            round,
            connections,
            load: load_,
            windowMs: Math.round(outcome.elapsedMs),
            answers,
            okPerSec: Math.round(okPerSec * 10) / 10,
            goodputVsCapacity: capacity > 0 ? Math.round((okPerSec / capacity) * 100) / 100 : 0,
            share503: answers > 0 ? Math.round((outcome.status503 / answers) * 1000) / 1000 : 0,
            otherStatuses: outcome.other,
            okLatencyMs: outcome.okLatency.summary(),
            maxAnswerMs: Math.round(outcome.maxAnswerMs),
            deadlineMisses: outcome.late + outcome.timeouts,
            clientErrors: outcome.errors,
            threads,
            clientCores: Math.round(((clientUsed.user + clientUsed.system) / 1e6 / seconds) * 100) / 100,
            rssMiB: { before, after, settled: settled.rss, settledAfterMs: settled.afterMs },
            heapUsedMiB: { before: scrapeBefore.heapUsedMiB, after: scrapeAfter.heapUsedMiB, settled: scrapeSettled?.heapUsedMiB ?? null },
            externalMiB: { before: scrapeBefore.externalMiB, after: scrapeAfter.externalMiB, settled: scrapeSettled?.externalMiB ?? null },
            slotUtilization: windowUtilization(scrapeBefore, scrapeAfter),
            serverOver: serverOver(scrapeBefore, scrapeAfter, timeoutMs),
          })
          onPoint(`overload ${encoding} ${rows} row${rows === 1 ? '' : 's'}, ${connections} connections, round ${round}`)
        }
      }
    }
  } finally {
    await stopServeCli(cli)
  }
  return { bin, timeoutMs, serveArgs: options.serveArgs, allocator, comfortable: options.comfortable, idleRssMiB, points }
}
