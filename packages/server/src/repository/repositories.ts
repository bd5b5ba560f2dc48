/**
 * The models of one or more repositories (`--model-repository`, repeatable), read at
 * once: a name given by two repositories is an error (as in Triton), and each model's
 * ignored config fields are logged once, by name, as it is read.
 */
import { join } from 'node:path'
import { ModelRepositoryLayoutError } from './errors.js'
import { readModel, repositoryEntries } from './layout.js'
import type { RepositoryModel } from './layout.js'

/** Where the names of the fields a config sets but inferpool ignores go. */
export interface RepositoryLogger {
  warn(message: string): void
}

/** One line naming the config fields of `model` that are ignored, or `undefined` when none is. */
export function ignoredFieldsLine(model: RepositoryModel): string | undefined {
  if (model.config.ignored.length === 0) return undefined
  return `model '${model.name}' (${model.configFile ?? join(model.directory, 'config.pbtxt')}): ignored, not supported by inferpool: ${model.config.ignored.join(', ')}`
}

/** One line naming the links the layout refused (`refused`, from `repositoryEntries` or a model's `refusedLinks`), or `undefined`. */
export function refusedLinksLine(refused: readonly string[]): string | undefined {
  if (refused.length === 0) return undefined
  return `links not followed (a link must resolve to a directory inside the repository): ${refused.join('; ')}`
}

/** Every model of `repositories`, in their order, each directory's models by name. */
export function readRepositories(repositories: readonly string[], logger: RepositoryLogger): RepositoryModel[] {
  const models: RepositoryModel[] = []
  const seen = new Map<string, string>()
  for (const repository of repositories) {
    const { names, refusedLinks } = repositoryEntries(repository)
    const refused = refusedLinksLine(refusedLinks)
    if (refused !== undefined) logger.warn(refused)
    for (const name of names) {
      const other = seen.get(name)
      if (other !== undefined) {
        throw new ModelRepositoryLayoutError(join(repository, name), `model '${name}' is also in the repository ${other}`)
      }
      seen.set(name, repository)
      const model = readModel(repository, name)
      for (const line of [ignoredFieldsLine(model), refusedLinksLine(model.refusedLinks)]) if (line !== undefined) logger.warn(line)
      models.push(model)
    }
  }
  return models
}
