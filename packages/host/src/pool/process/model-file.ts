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
 * namespace that are gone (owned-dir.ts): a host restarted again and again by a
 * supervisor (systemd, a process manager in its container) does not fill the disk.
 */
import { rmSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeOwnedDir, sweepDeadOwners } from '../../owned-dir.js'

/** Directories of model copies are named `<prefix><host pid>-<random>` under the OS temp dir. */
export const MODEL_DIR_PREFIX = 'inferpool-model-'

let swept: Promise<void> | undefined

/** Removes the copies whose owner is gone (owned-dir.ts), once per process. */
function sweepCopiesOfDeadHosts(): Promise<void> {
  return (swept ??= sweepDeadOwners(tmpdir(), MODEL_DIR_PREFIX))
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
    await sweepCopiesOfDeadHosts()
    // The host's pid in the name says whose it is (one left by a host that was killed can be told apart).
    const dir = await makeOwnedDir(tmpdir(), MODEL_DIR_PREFIX)
    const path = join(dir, 'model.onnx')
    try {
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
