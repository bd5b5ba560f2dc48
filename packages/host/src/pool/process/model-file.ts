/**
 * The private copy of a pool's model that its replica processes load. A process cannot
 * share the host's memory, so the bytes the pool read once (model-bytes.ts) are written
 * once, here, to a file in a directory only this user can enter, created for this pool
 * and removed with it. Every replica, a replacement too, loads this copy and checks it
 * against the pool's SHA-256 before loading (onnx-definition.ts): a replaced or
 * truncated original changes nothing. Written once rather than sent to each process
 * (over IPC or a transfer file) so that a respawn costs no copy of the model in the host.
 *
 * A host that exits without closing its pools (`process.exit`, an uncaught error) still
 * removes its copies, from one 'exit' listener. A host killed outright (SIGKILL, the
 * kernel's OOM killer) cannot: its copy (as large as the model) stays, named after its
 * pid. So the first copy a process writes sweeps the copies of hosts of its own pid
 * namespace that are gone (`sweepDeadOwners`): a host restarted again and again by a
 * supervisor (systemd, a process manager in its container) does not fill the disk. A
 * container restarted as a whole gets a new pid namespace and does not sweep the copies
 * of the one before, unless the temp dir is the container's own and goes with it.
 */
import { readlinkSync, rmSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Directories of model copies are named `<prefix><host pid>-<random>` under the OS temp dir. */
export const MODEL_DIR_PREFIX = 'inferpool-model-'

/** The file in a copy's directory that says whose it is: `<pid namespace> <pid>`. */
const OWNER_FILE = 'owner'

/**
 * This process's pid namespace (Linux: the `/proc/self/ns/pid` link, e.g. `pid:[4026531836]`;
 * other systems have none: `-`). A pid means a process only within its namespace: two
 * containers that share a temp dir may each have a live process 42, so a copy is swept
 * only by a process of the namespace that wrote it. On Linux without a readable link
 * (no /proc) the namespace is unknown (`undefined`), and nothing is swept.
 */
function readPidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid')
  } catch {
    return process.platform === 'linux' ? undefined : '-'
  }
}
const pidNamespace = readPidNamespace()

/** Whether a process with this pid runs (in our namespace); one of another user counts (EPERM). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

let swept: Promise<void> | undefined

/**
 * Removes the copies whose owner is gone: its pid names no process of this namespace.
 * Only copies with an owner file of this namespace are touched; one whose pid a live
 * process has taken again stays (a leak is safer than removing a live host's copy).
 * Runs once per process; errors leave things as they are.
 */
function sweepDeadOwners(): Promise<void> {
  return (swept ??= sweep(tmpdir()))
}

async function sweep(dir: string): Promise<void> {
  if (pidNamespace === undefined) return
  let names: string[]
  try {
    names = (await readdir(dir)).filter((name) => name.startsWith(MODEL_DIR_PREFIX))
  } catch {
    return
  }
  await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name)
      const owner = await readFile(join(path, OWNER_FILE), 'utf8').catch(() => undefined)
      const [ownerNs, pidText] = owner?.split(' ') ?? []
      const pid = Number(pidText)
      if (ownerNs !== pidNamespace || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || running(pid)) return
      await rm(path, { recursive: true, force: true }).catch(() => undefined)
    }),
  )
}

/** Directories of copies not yet removed, for the 'exit' listener (one for them all, while any is left). */
const live = new Set<string>()

function removeLeftOnExit(): void {
  // 'exit' listeners run synchronously and the process ends after them: the sync form.
  for (const dir of live) rmSync(dir, { recursive: true, force: true })
}

export class ModelFile {
  private constructor(
    private readonly dir: string,
    /** The copy's path, for the replicas' boot data. */
    readonly path: string,
  ) {}

  /** Writes the bytes to a new private directory (mode 0700; the file read-only). */
  static async write(bytes: Uint8Array): Promise<ModelFile> {
    await sweepDeadOwners()
    // The host's pid in the name says whose it is (one left by a host that was killed can be told apart).
    const dir = await mkdtemp(join(tmpdir(), `${MODEL_DIR_PREFIX}${process.pid}-`))
    const path = join(dir, 'model.onnx')
    try {
      await writeFile(join(dir, OWNER_FILE), `${pidNamespace ?? '?'} ${process.pid}`, { mode: 0o400 })
      await writeFile(path, bytes, { mode: 0o400 })
    } catch (err) {
      await rm(dir, { recursive: true, force: true })
      throw err
    }
    if (live.size === 0) process.once('exit', removeLeftOnExit)
    live.add(dir)
    return new ModelFile(dir, path)
  }

  /** Removes the copy and its directory (once no replica process is left to read it). */
  remove(): Promise<void> {
    if (live.delete(this.dir) && live.size === 0) process.off('exit', removeLeftOnExit)
    return rm(this.dir, { recursive: true, force: true })
  }
}
