/** Helpers for tests of process-isolated replicas: real child processes, observed from outside. */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll } from 'vitest'
import { TRANSFER_FILE_DIR } from '@inferpool/worker'

/**
 * A scratch folder for the test file (made before its first test, removed after its
 * last, with whatever the tests left in it); call at the file's top level. Returns its path's getter.
 */
export function scratchDir(prefix: string): () => string {
  let dir: string | undefined
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix))
  })
  afterAll(() => rmSync(dir as string, { recursive: true, force: true }))
  return () => dir as string
}

/**
 * Resolves once `condition()` holds, checking every `everyMs`; rejects after `limitMs`
 * (a hang guard, not a timing assertion: processes end on the OS's schedule).
 */
export async function poll(condition: () => boolean, what: string, limitMs = 30_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Still waiting after ${limitMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Transfer files a host with this pid has in the transfer file directory. */
export function transferFiles(hostPid: number): string[] {
  return readdirSync(TRANSFER_FILE_DIR).filter((name) => name.startsWith(`inferpool-${hostPid}-`))
}

/** Pids of the live processes whose parent is `pid` (from /proc: Linux only, like /dev/shm). */
export function childrenOf(pid: number): number[] {
  const children: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; field 2, the name, may hold spaces: skip past its ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[1]) === pid && fields[0] !== 'Z') children.push(Number(entry))
    } catch {
      // It exited while we looked.
    }
  }
  return children
}

/** The host package's folder: the working directory of the child scripts the tests run. */
const hostDir = fileURLToPath(new URL('..', import.meta.url))

/** Runs `node args…` in the host package's folder; resolves once it ends, with all it printed. */
export function runNode(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, args, { cwd: hostDir, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
}

/** A child's output of one JSON value per line, parsed. */
export const jsonLines = (stdout: string): unknown[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown)
