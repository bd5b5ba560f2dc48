/**
 * CPU time of this process's threads, read from Linux's /proc/self/task/<tid>/stat
 * (utime + stime). Node 20 has no per-thread CPU clock (`process.threadCpuUsage` came
 * in Node 23), and `process.cpuUsage()` sums every thread — the pool's replicas
 * included — so it cannot say what the host thread costs per row.
 *
 * Three kinds of threads:
 * - the **host thread** (the main thread, tid = pid): request handling, the batcher,
 *   packing and unpacking, hand-offs to the replicas;
 * - **platform threads**: those that exist when this module is first imported, before
 *   any pool or session starts — V8's helper threads (concurrent and parallel garbage
 *   collection, background compilation). They serve every isolate of the process, so
 *   they collect the replicas' garbage too, not only the host thread's;
 * - every thread started later: replicas, onnxruntime's own threads, and libuv's pool
 *   (started lazily, on first use) — in neither of the two figures.
 *
 * The counters tick at USER_HZ (100 on Linux): 10 ms per thread. Over a window of
 * 1.5 s on a thread at 50 % that is ±1.5 %. Elsewhere than Linux the figures are null.
 */
import { readdirSync, readFileSync } from 'node:fs'

const TICK_MS = 10
const HOST = String(process.pid)

/** CPU ms per thread id, or null where /proc is not available. */
export function readThreadCpu(): Map<string, number> | null {
  let tids: string[]
  try {
    tids = readdirSync('/proc/self/task')
  } catch {
    return null
  }
  const out = new Map<string, number>()
  for (const tid of tids) {
    const ms = statCpuMs(`/proc/self/task/${tid}/stat`)
    if (ms !== null) out.set(tid, ms) // null: the thread ended between the listing and the read
  }
  return out
}

/** utime + stime of one /proc stat file, in ms; null if it cannot be read. */
function statCpuMs(path: string): number | null {
  let stat: string
  try {
    stat = readFileSync(path, 'utf8')
  } catch {
    return null
  }
  // Fields after the command name (which may hold spaces, hence lastIndexOf): utime is
  // field 14 and stime field 15 of the whole line, 12 and 13 after ") ".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

/**
 * CPU ms so far of another process's main thread (its tid is its pid): for a server
 * child, the thread that parses, batches and answers every request. null where /proc
 * is not available or the process is gone.
 */
export function mainThreadCpuMs(pid: number): number | null {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`)
}

const platform = new Set(readThreadCpu()?.keys() ?? [])
platform.delete(HOST)

/** A reading to subtract from a later one. */
export type ThreadCpuReading = Map<string, number> | null

/** CPU µs per row of the host thread and of the platform threads between two readings. */
export interface ThreadCpuPerRow {
  hostUsPerRow: number
  platformUsPerRow: number
}

export function cpuPerRow(before: ThreadCpuReading, after: ThreadCpuReading, rows: number): ThreadCpuPerRow | null {
  if (before === null || after === null || rows <= 0) return null
  let host = 0
  let helpers = 0
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0)
    if (tid === HOST) host += used
    else if (platform.has(tid)) helpers += used
  }
  return { hostUsPerRow: (host * 1000) / rows, platformUsPerRow: (helpers * 1000) / rows }
}
