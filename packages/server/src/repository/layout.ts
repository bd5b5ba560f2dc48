/**
 * Reads a model repository directory in Triton's layout:
 *
 *     <repository>/<model>/config.pbtxt            optional for ONNX models
 *     <repository>/<model>/<version>/model.onnx    versions are positive integers
 *
 * Each model's config is parsed and interpreted (config-file.ts, model-config.ts) and
 * its version policy applied to the version directories found. A model directory that
 * gives nothing to serve is an error naming the path and what is missing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseModelConfig } from './config-file.js'
import { ModelRepositoryLayoutError } from './errors.js'
import { interpretModelConfig } from './model-config.js'
import type { RepositoryModelConfig, VersionPolicy } from './model-config.js'

/** The config file of a model directory. */
export const CONFIG_FILE = 'config.pbtxt'

const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/
const VERSION = /^[1-9][0-9]{0,14}$/

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
}

/** The model directories of `repository` (names only: what the repository index lists). */
export function modelNames(repository: string): string[] {
  const root = resolve(repository)
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new ModelRepositoryLayoutError(root, 'is not a directory (expected <repository>/<model>/<version>/model.onnx)')
  }
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort()
}

/**
 * Reads model `name` of `repository`. `configText` replaces the text of its
 * config.pbtxt; `interpreted`, its config altogether (a load request's JSON override).
 */
export function readModel(repository: string, name: string, configText?: string, interpreted?: RepositoryModelConfig): RepositoryModel {
  const directory = join(resolve(repository), name)
  if (!MODEL_NAME.test(name)) {
    throw new ModelRepositoryLayoutError(directory, "is not a model name: letters, digits, '_', '.' or '-' (not starting with a symbol)")
  }
  if (!existsSync(directory) || !statSync(directory).isDirectory())
    throw new ModelRepositoryLayoutError(directory, 'no such model directory')
  const configPath = join(directory, CONFIG_FILE)
  const hasFile = existsSync(configPath)
  const text = configText ?? (hasFile ? readFileSync(configPath, 'utf8') : '')
  const configFile = configText !== undefined ? `${configPath} (override)` : hasFile ? configPath : undefined
  const config = interpreted ?? interpretModelConfig(name, parseModelConfig(text, configFile ?? configPath))

  const found = readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && VERSION.test(entry.name))
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
  return { name, directory, configFile, config, versions }
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
