/**
 * Reads a model repository directory in Triton's layout:
 *
 *     <repository>/<model>/config.pbtxt            optional for ONNX models
 *     <repository>/<model>/<version>/model.onnx    versions are positive integers
 *
 * Each model's config is parsed and interpreted (config-file.ts, model-config.ts) and
 * its version policy applied to the version directories found. A model directory that
 * gives nothing to serve is an error naming the path and what is missing.
 *
 * A model or version directory may be a symbolic link (a link swap is a common way to
 * roll out a version, and Triton follows links): it is followed when its target, fully
 * resolved, is a directory inside the repository's own resolved directory. A link that
 * leaves the repository (or dangles) is refused: left out, and named in a log line
 * (`refusedLinks`), so that a repository's content is what its directory holds.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import type { Dirent } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { isModelName, isVersionName, MODEL_NAME_RULE } from '../protocol/model-names.js'
import { parseModelConfig } from './config-file.js'
import { echo } from '../protocol/errors.js'
import { ModelRepositoryLayoutError } from './errors.js'
import { interpretModelConfig } from './model-config.js'
import type { RepositoryModelConfig, VersionPolicy } from './model-config.js'

/** The config file of a model directory. */
export const CONFIG_FILE = 'config.pbtxt'

/**
 * Refuses a model name that could not be a directory of the repository (model-names.ts).
 * Checked before a name reaches the file system.
 */
export function checkModelName(name: string): void {
  if (!isModelName(name)) {
    throw new ModelRepositoryLayoutError(echo(String(name)), `is not a model name: ${MODEL_NAME_RULE}`)
  }
}

/** Whether `path` is under `root` (both resolved). */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/**
 * Whether the entry `entry` of `directory` is a directory to read, following a link
 * whose target stays inside `root` (resolved); a link that does not is pushed on `refused`.
 */
function isDirectoryEntry(directory: string, entry: Dirent, root: string, refused: string[]): boolean {
  if (entry.isDirectory()) return true
  if (!entry.isSymbolicLink()) return false
  const path = join(directory, entry.name)
  let target: string
  try {
    target = realpathSync(path)
  } catch {
    refused.push(`${path}: a link to nothing`)
    return false
  }
  if (!isInside(root, target)) {
    refused.push(`${path}: a link out of the repository (to ${target})`)
    return false
  }
  return statSync(target, { throwIfNoEntry: false })?.isDirectory() === true
}

/** The model directories of `repository`, and the links refused among them. */
export interface RepositoryEntries {
  readonly names: string[]
  /** Links left out, each `<path>: <why>` (for a log line). */
  readonly refusedLinks: string[]
}

/** One version of a repository model: its number and model file. */
export interface RepositoryVersion {
  readonly version: string
  readonly file: string
}

/** One model of a repository, as its directory and config say to serve it. */
export interface RepositoryModel {
  readonly name: string
  readonly directory: string
  /** The config.pbtxt read, or `undefined` when the directory has none. */
  readonly configFile: string | undefined
  readonly config: RepositoryModelConfig
  /** The versions to serve, newest first. */
  readonly versions: readonly RepositoryVersion[]
  /** Version directories that are links the layout refused (`<path>: <why>`), for a log line. */
  readonly refusedLinks: readonly string[]
}

/** The model directories of `repository` (names only: what the repository index lists). */
export function modelNames(repository: string): string[] {
  return repositoryEntries(repository).names
}

/** The model directories of `repository`, links followed as the module's comment says. */
export function repositoryEntries(repository: string): RepositoryEntries {
  const root = resolve(repository)
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new ModelRepositoryLayoutError(root, 'is not a directory (expected <repository>/<model>/<version>/model.onnx)')
  }
  const real = realpathSync(root)
  const refusedLinks: string[] = []
  const names = readdirSync(root, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && isDirectoryEntry(root, entry, real, refusedLinks))
    .map((entry) => entry.name)
    .sort()
  return { names, refusedLinks }
}

/**
 * Reads model `name` of `repository`. `configText` replaces the text of its
 * config.pbtxt; `interpreted`, its config altogether (a load request's JSON override).
 */
export function readModel(repository: string, name: string, configText?: string, interpreted?: RepositoryModelConfig): RepositoryModel {
  checkModelName(name)
  const root = resolve(repository)
  const directory = join(root, name)
  if (!existsSync(directory) || !statSync(directory).isDirectory())
    throw new ModelRepositoryLayoutError(directory, 'no such model directory')
  const real = realpathSync(root)
  if (!isInside(real, realpathSync(directory))) {
    throw new ModelRepositoryLayoutError(directory, `is a link out of the repository (to ${realpathSync(directory)})`)
  }
  const configPath = join(directory, CONFIG_FILE)
  const hasFile = existsSync(configPath)
  const text = configText ?? (hasFile ? readFileSync(configPath, 'utf8') : '')
  const configFile = configText !== undefined ? `${configPath} (override)` : hasFile ? configPath : undefined
  const config = interpreted ?? interpretModelConfig(name, parseModelConfig(text, configFile ?? configPath))

  const refusedLinks: string[] = []
  const found = readdirSync(directory, { withFileTypes: true })
    .filter((entry) => isVersionName(entry.name) && isDirectoryEntry(directory, entry, real, refusedLinks))
    .map((entry) => entry.name)
    .sort((a, b) => Number(b) - Number(a))
  if (found.length === 0) {
    throw new ModelRepositoryLayoutError(directory, `has no version directory (expected ${join(directory, '1', config.modelFilename)})`)
  }
  const versions = chooseVersions(config.versionPolicy, found, directory).map((version) => {
    const file = join(directory, version, config.modelFilename)
    if (!existsSync(file) || !statSync(file).isFile()) throw new ModelRepositoryLayoutError(file, 'no model file in this version directory')
    return { version, file }
  })
  return { name, directory, configFile, config, versions, refusedLinks }
}

/** The versions `policy` serves out of `found` (newest first). */
function chooseVersions(policy: VersionPolicy, found: readonly string[], directory: string): string[] {
  if (policy.kind === 'all') return [...found]
  if (policy.kind === 'latest') return found.slice(0, policy.count)
  const missing = policy.versions.filter((v) => !found.includes(v))
  if (missing.length > 0) {
    throw new ModelRepositoryLayoutError(
      directory,
      `version_policy names version${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, which ${missing.length === 1 ? 'has' : 'have'} no directory (found: ${found.join(', ')})`,
    )
  }
  return [...policy.versions].sort((a, b) => Number(b) - Number(a))
}

/** Every model of `repository`. */
export function readRepository(repository: string): RepositoryModel[] {
  return modelNames(repository).map((name) => readModel(repository, name))
}
