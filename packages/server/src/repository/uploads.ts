/**
 * Model files sent in a load request (`file:<version>/<name>` parameters, as Triton's
 * repository extension names them): written into a private temporary model directory
 * (mode 0700) that the load reads as the model's directory, with the request's `config`
 * as its config. The directory is removed once the versions loaded from it stop
 * serving (a later load or an unload of the model) and when the repository closes.
 * Only with `allowModelUpload` (`--allow-model-upload`): a model file is code the
 * server runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, normalize, sep } from 'node:path'
import { ModelUploadError } from './errors.js'

/** The prefix of a load request parameter that carries a file. */
export const FILE_PARAMETER = 'file:'

const VERSION = /^[1-9][0-9]{0,14}$/

/**
 * Writes `files` (content by the path after `file:`) as model `name`'s directory in a
 * new private repository under `directory`; returns that repository's directory. Every path is checked
 * before anything is written: `<version>/<file>`, inside the version directory.
 */
export function writeUpload(name: string, files: ReadonlyMap<string, Uint8Array>, directory: string): string {
  const checked = [...files].map(([path, content]): [string, Uint8Array] => {
    const parameter = `${FILE_PARAMETER}${path}`
    const normal = normalize(path)
    const [version, ...rest] = normal.split(sep)
    if (isAbsolute(path) || !VERSION.test(version) || rest.length === 0 || rest.includes('..') || rest.includes('')) {
      throw new ModelUploadError(
        name,
        parameter,
        "must name a file in a version directory: 'file:<version>/<file name>', the version a positive integer",
      )
    }
    return [normal, content]
  })
  const root = mkdtempSync(join(directory, 'inferpool-upload-'))
  try {
    for (const [path, content] of checked) {
      const file = join(root, name, path)
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
      writeFileSync(file, content, { mode: 0o600 })
    }
  } catch (error) {
    removeUpload(root)
    throw error
  }
  return root
}

/** Removes a repository `writeUpload` made. */
export function removeUpload(root: string): void {
  rmSync(root, { recursive: true, force: true })
}
