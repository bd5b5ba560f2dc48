export {
  ModelConfigSyntaxError,
  ModelControlPollingError,
  ModelLoadAbortedError,
  ModelNotInRepositoryError,
  ModelOverBudgetError,
  ModelRepositoryLayoutError,
  ModelUploadDisabledError,
  ModelUploadError,
  UnsupportedModelConfigError,
} from './errors.js'
export { readModel, readRepository, modelNames, CONFIG_FILE } from './layout.js'
export type { RepositoryModel, RepositoryVersion } from './layout.js'
export type { RepositoryModelConfig, VersionPolicy, Placement } from './model-config.js'
export { repositoryPoolOptions } from './pool-options.js'
export { readRepositories } from './repositories.js'
export { ModelRepository } from './manager.js'
export type { CachedModelView, ModelRepositoryOptions } from './manager.js'
export type { RepositoryLogger } from './repositories.js'
export { warmupRows } from './warmup.js'
export { MAX_UPLOAD_FILES, MAX_UPLOAD_DEPTH, MAX_PATH_COMPONENT_BYTES } from './uploads.js'
export { MAX_MODEL_NAME_LENGTH } from '../protocol/model-names.js'
export type { WarmupSample, WarmupInput, WarmupData } from './warmup.js'
