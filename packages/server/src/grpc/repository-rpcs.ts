/**
 * The model repository extension over gRPC (RepositoryIndex, RepositoryModelLoad,
 * RepositoryModelUnload), on the served models' `control`, as the HTTP routes serve it
 * (../http/repository-routes.ts): the repository token, not the inference bearer (the
 * service checks it, call-guard.ts `mayCall`); a
 * load's `config` parameter (a string of JSON) replaces the model's config.pbtxt; its
 * `file:<version>/<name>` parameters (`bytes_param`) make the model's directory, when
 * uploads are allowed.
 */
import { RouteNotFoundError } from '../protocol/errors.js'
import type { ModelControl } from '../protocol/model-control.js'
import type { ServedModels } from '../protocol/served-models.js'
import { ModelUploadError } from '../repository/errors.js'
import { checkUploadCount, FILE_PARAMETER } from '../repository/uploads.js'
import type { inference } from '../../generated/inference.js'

function controlOf(served: ServedModels, rpc: string): ModelControl {
  const control = served.control
  if (control === undefined) throw new RouteNotFoundError(`/inference.GRPCInferenceService/${rpc}`)
  return control
}

export function repositoryIndex(
  served: ServedModels,
  request: inference.RepositoryIndexRequest,
): inference.RepositoryIndexResponse.$Properties {
  const models = controlOf(served, 'RepositoryIndex').index(request.ready)
  return { models: models.map((m) => ({ name: m.name, version: m.version ?? '', state: m.state, reason: m.reason })) }
}

export async function repositoryModelLoad(
  served: ServedModels,
  request: inference.RepositoryModelLoadRequest,
): Promise<inference.RepositoryModelLoadResponse.$Properties> {
  const control = controlOf(served, 'RepositoryModelLoad')
  const parameters = request.parameters ?? {}
  const files = new Map<string, Uint8Array>()
  const entries = Object.entries(parameters).filter(([key]) => key.startsWith(FILE_PARAMETER))
  checkUploadCount(request.model_name, entries.length)
  for (const [key, value] of entries) {
    const content = value.bytes_param
    if (content === undefined || content === null)
      throw new ModelUploadError(request.model_name, key, 'must carry the file content as bytes_param')
    files.set(key.slice(FILE_PARAMETER.length), content)
  }
  const config = parameters.config?.string_param
  await control.load(request.model_name, config === undefined || config === null || config === '' ? undefined : config, files)
  return {}
}

export async function repositoryModelUnload(
  served: ServedModels,
  request: inference.RepositoryModelUnloadRequest,
): Promise<inference.RepositoryModelUnloadResponse.$Properties> {
  await controlOf(served, 'RepositoryModelUnload').unload(request.model_name)
  return {}
}
