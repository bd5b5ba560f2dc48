/**
 * The memory a server holds, as the memory budget counts it: the proportional set size
 * (PSS) of the server process and of every process below it (replica processes,
 * `isolation: 'process'`), read from Linux's `/proc/<pid>/smaps_rollup`. PSS splits each
 * shared page among the processes that map it, so the libraries every replica process
 * maps are counted once in the sum, not once per process (RSS would count them N times).
 */
import { readdirSync, readFileSync } from 'node:fs'

/** The `Pss:` line of an smaps_rollup, in kB. */
const PSS_LINE = /^Pss:\s+(\d+) kB$/m

/** The PSS of process `pid` in bytes; `undefined` once it is gone (a replica that exited between the listing and the read). */
function pssOf(pid: number): number | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
  } catch {
    return undefined
  }
  const match = PSS_LINE.exec(text)
  return match === null ? undefined : Number(match[1]) * 1024
}

/** The pids of the children of `pid`, from every one of its threads (a child belongs to the thread that forked it). */
function childrenOf(pid: number): number[] {
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children: number[] = []
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' '))
        if (child !== '') children.push(Number(child))
    } catch {
      // The thread ended meanwhile: its children, if any, were re-parented and are not ours.
    }
  }
  return children
}

/** The PSS in bytes of process `pid` and every process below it. */
export function processTreePss(pid: number = process.pid): number {
  let total = 0
  const pending = [pid]
  const seen = new Set<number>()
  while (pending.length > 0) {
    const next = pending.pop() as number
    if (seen.has(next)) continue
    seen.add(next)
    total += pssOf(next) ?? 0
    pending.push(...childrenOf(next))
  }
  return total
}

/**
 * Why this system cannot measure what a memory budget counts (`/proc/self/smaps_rollup`
 * and the children lists are Linux's, since 4.14), or `undefined` when it can.
 */
export function memoryUnmeasurable(): string | undefined {
  if (pssOf(process.pid) === undefined) return 'reading /proc/self/smaps_rollup failed (a memory budget needs Linux 4.14 or later)'
  try {
    readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
  } catch {
    return `reading /proc/${process.pid}/task/${process.pid}/children failed (a memory budget needs a kernel with CONFIG_PROC_CHILDREN)`
  }
  return undefined
}
