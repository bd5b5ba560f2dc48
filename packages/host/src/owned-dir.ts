/**
 * Private temporary directories that say whose they are, so that what a process killed
 * outright (SIGKILL, the kernel's OOM killer) left behind can be swept by the next one:
 * the model copies replica processes load (pool/process/model-file.ts) and the server's
 * model uploads. Each directory is named `<prefix><owner pid>-<random>` (mode 0700) and
 * holds an owner file, `<pid namespace> <pid>`.
 *
 * A pid names a process only within its pid namespace: two containers that share a temp
 * dir may each have a live process 42, so a directory is swept only by a process of the
 * namespace that wrote it, and one whose pid runs again stays (a leak is safer than
 * removing a live owner's files). A container restarted as a whole gets a new namespace
 * and does not sweep the directories of the one before, unless the temp dir goes with it.
 */
import { readFileSync, readlinkSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** The file in an owned directory that says whose it is. */
export const OWNER_FILE = '.owner'

/**
 * This process's pid namespace (Linux: the `/proc/self/ns/pid` link, e.g. `pid:[4026531836]`;
 * other systems have none: `-`). On Linux without a readable link (no /proc) the
 * namespace is unknown (`undefined`), and nothing is swept.
 */
function readPidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid')
  } catch {
    return process.platform === 'linux' ? undefined : '-'
  }
}
const pidNamespace = readPidNamespace()

/**
 * Whether a process with this pid runs (in our namespace); one of another user counts
 * (EPERM). A zombie does not: it was killed and waits only for its parent to reap it,
 * yet `kill(pid, 0)` succeeds on it (its state, `Z`, is read from /proc where there is one).
 */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'
  }
  return !zombie(pid)
}

/** Whether /proc says the process is a zombie (`Z` after its parenthesised name in /proc/<pid>/stat). */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z'
  } catch {
    return false
  }
}

/** Makes a new owned directory under `parent`, named `<prefix><pid>-<random>`; removed again if its owner file cannot be written. */
export async function makeOwnedDir(parent: string, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(parent, `${prefix}${process.pid}-`))
  try {
    await writeFile(join(dir, OWNER_FILE), `${pidNamespace ?? '?'} ${process.pid}`, { mode: 0o400 })
  } catch (err) {
    await rm(dir, { recursive: true, force: true })
    throw err
  }
  return dir
}

/**
 * Removes the directories under `parent` named with `prefix` whose owner is gone (its pid
 * names no process of this namespace). Errors leave things as they are.
 */
export async function sweepDeadOwners(parent: string, prefix: string): Promise<void> {
  if (pidNamespace === undefined) return
  let names: string[]
  try {
    names = (await readdir(parent)).filter((name) => name.startsWith(prefix))
  } catch {
    return
  }
  await Promise.all(
    names.map(async (name) => {
      const path = join(parent, name)
      const owner = await readFile(join(path, OWNER_FILE), 'utf8').catch(() => undefined)
      const [ownerNs, pidText] = owner?.split(' ') ?? []
      const pid = Number(pidText)
      if (ownerNs !== pidNamespace || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || running(pid)) return
      await rm(path, { recursive: true, force: true }).catch(() => undefined)
    }),
  )
}
