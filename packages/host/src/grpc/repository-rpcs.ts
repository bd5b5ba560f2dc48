/**
 * The model repository extension over gRPC (RepositoryIndex, RepositoryModelLoad,
 * RepositoryModelUnload), on the served models' `control`, as the HTTP routes serve it
 * (../http/repository-routes.ts): the repository token, not the inference bearer (the
 * service checks it, call-guard.ts `mayCall`); a
 * load's `config` parameter (a string of JSON) replaces the model's config.pbtxt; a
 * `file:` parameter is refused.
 */
import { RouteNotFoundError } from '../protocol/errors.js'
import type { ModelControl } from '../protocol/model-control.js'
import type { ServedModels } from '../protocol/served-models.js'
import { ModelRepositoryLayoutError } from '../repository/errors.js'
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
  for (const key of Object.keys(parameters)) {
    if (key.startsWith('file:')) {
      throw new ModelRepositoryLayoutError(key, 'model files in a load request are not accepted (they would be code run on the server)')
    }
  }
  const config = parameters.config?.string_param
  await control.load(request.model_name, config === undefined || config === null || config === '' ? undefined : config)
  return {}
}

export async function repositoryModelUnload(
  served: ServedModels,
  request: inference.RepositoryModelUnloadRequest,
): Promise<inference.RepositoryModelUnloadResponse.$Properties> {
  await controlOf(served, 'RepositoryModelUnload').unload(request.model_name)
  return {}
}
