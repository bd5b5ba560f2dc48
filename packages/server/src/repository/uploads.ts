/**
 * Model files sent in a load request (`file:<version>/<name>` parameters, as Triton's
 * repository extension names them): written into a private temporary model directory
 * (mode 0700) that the load reads as the model's directory, with the request's `config`
 * as its config. The directory is removed once the versions loaded from it stop
 * serving (a later load or an unload of the model) and when the repository closes.
 * Only with `allowModelUpload` (`--allow-model-upload`): a model file is code the
 * server runs.
 *
 * Everything a client sends here is checked before anything is written: the model name
 * (`checkUploadName`), the number of files (`MAX_UPLOAD_FILES`), each path's shape and
 * size (`MAX_UPLOAD_DEPTH`, `MAX_PATH_COMPONENT_BYTES`, no `..`, no absolute path, no NUL),
 * and every resolved path must stay under the upload's own directory. The writes are
 * asynchronous (an upload of many files does not stall the event loop), and a failure at
 * any point removes the whole upload directory: nothing is left behind.
 *
 * A server killed outright (SIGKILL, the OOM killer) cannot remove its upload
 * directories: each holds an owner file (`<pid namespace> <pid>`), and a repository that
 * takes uploads sweeps, as it starts, the ones whose owner is gone — the rule the pool's
 * model copies follow (@inferpool/host's owned-dir.ts).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import { makeOwnedDir, sweepDeadOwners } from '@inferpool/host/internal'
import { ModelUploadError } from './errors.js'
import { isVersionName } from '../protocol/model-names.js'
import { checkModelName } from './layout.js'

/** The prefix of a load request parameter that carries a file. */
export const FILE_PARAMETER = 'file:'

/** Upload directories are named `<prefix><owner pid>-<random>` under the upload directory. */
export const UPLOAD_DIR_PREFIX = 'inferpool-upload-'

/** Most files one load request may carry (more is `ERR_MODEL_UPLOAD`, 400). */
export const MAX_UPLOAD_FILES = 1024

/** Most path components of one `file:` path, the version directory included (`1/model.onnx` is 2). */
export const MAX_UPLOAD_DEPTH = 16

/** Longest path component, in UTF-8 bytes (what common file systems take as one name). */
export const MAX_PATH_COMPONENT_BYTES = 255

const PATH_RULE =
  "must name a file in a version directory: 'file:<version>/<file name>', the version a positive integer, " +
  `at most ${MAX_UPLOAD_DEPTH} components of at most ${MAX_PATH_COMPONENT_BYTES} bytes, no '.' or '..', no NUL`

/** Refuses more files than an upload may carry (called before any is decoded). */
export function checkUploadCount(name: string, count: number): void {
  if (count > MAX_UPLOAD_FILES) {
    throw new ModelUploadError(name, `${FILE_PARAMETER}*`, `carries ${count} files; a load request takes at most ${MAX_UPLOAD_FILES}`)
  }
}

/** The path components of an upload path (after `file:`), or a `ModelUploadError` naming the parameter. */
function componentsOf(name: string, path: string): string[] {
  const parts = path.split('/')
  const fits =
    !path.includes('\0') &&
    !path.includes('\\') &&
    !isAbsolute(path) &&
    parts.length >= 2 &&
    parts.length <= MAX_UPLOAD_DEPTH &&
    isVersionName(parts[0]) &&
    parts.every((part) => part !== '' && part !== '.' && part !== '..' && Buffer.byteLength(part) <= MAX_PATH_COMPONENT_BYTES)
  if (!fits) throw new ModelUploadError(name, `${FILE_PARAMETER}${path}`, PATH_RULE)
  return parts
}

/** Whether `path` is `root` or under it. */
function isUnder(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)
}

/**
 * Checks model `name` and `files` (content by the path after `file:`), then writes them
 * as `name`'s directory in a new private repository under `directory`; resolves with that
 * repository's directory. Nothing is written unless every check passes; a failed write
 * removes what was written.
 */
export async function writeUpload(name: string, files: ReadonlyMap<string, Uint8Array>, directory: string): Promise<string> {
  checkModelName(name)
  checkUploadCount(name, files.size)
  const checked = [...files].map(([path, content]): [string[], Uint8Array] => [componentsOf(name, path), content])
  // A path that is both a file and a directory of another (`1/a` and `1/a/b`) cannot be written.
  for (const [parts] of checked) {
    for (let i = 2; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/')
      if (files.has(dir)) throw new ModelUploadError(name, `${FILE_PARAMETER}${dir}`, 'is a file, and also the directory of another file')
    }
  }
  const root = await makeOwnedDir(directory, UPLOAD_DIR_PREFIX)
  try {
    const model = resolve(root, name)
    for (const [parts, content] of checked) {
      const file = resolve(model, ...parts)
      // Checked above already; kept as the last word before a write, whatever a check missed.
      if (!isUnder(model, file)) throw new ModelUploadError(name, `${FILE_PARAMETER}${parts.join('/')}`, PATH_RULE)
      await mkdir(resolve(file, '..'), { recursive: true, mode: 0o700 })
      await writeFile(file, content, { mode: 0o600 })
    }
  } catch (error) {
    await removeUpload(root)
    throw error
  }
  return root
}

/** Removes a repository `writeUpload` made. */
export function removeUpload(root: string): Promise<void> {
  return rm(root, { recursive: true, force: true }).catch(() => undefined)
}

/**
 * Removes the upload directories under `directory` whose owner is gone: what a server
 * killed outright left (@inferpool/host's owned directories, the rule the pool's model
 * copies follow).
 */
export function sweepUploads(directory: string): Promise<void> {
  return sweepDeadOwners(directory, UPLOAD_DIR_PREFIX)
}
