/**
 * The pool options of one repository model version: the server's defaults (the
 * command line's flags) with what the model's config.pbtxt sets on top.
 */
import type { PoolOptions } from '@inferpool/host'
import type { RepositoryModel } from './layout.js'

/**
 * The options of `model`'s version in `file`, over `defaults`. A GPU placement asks
 * for the CUDA provider on the config's devices; with several devices the replicas are
 * processes, each pinned to its device (a thread's device cannot be set apart from its
 * process). Without the CUDA provider the load fails with `ProviderUnavailableError`,
 * whose message says how onnxruntime-node installs it (`ONNXRUNTIME_NODE_INSTALL`).
 */
export function repositoryPoolOptions(model: RepositoryModel, file: string, defaults: Omit<PoolOptions, 'model'>): PoolOptions {
  const config = model.config
  const batching = { ...defaults.batching }
  if (config.maxBatchSize !== undefined) batching.maxBatchSize = config.maxBatchSize
  if (config.batching.maxWaitMs !== undefined) batching.maxWaitMs = config.batching.maxWaitMs
  if (config.batching.maxQueueSize !== undefined) batching.maxQueueSize = config.batching.maxQueueSize
  // A config's queue policies replace the server's queue bound and default timeout.
  if (config.queue !== undefined) delete batching.maxQueueSize
  if (config.batching.minBatchSize !== undefined) {
    // A preferred size above the batch limit is the limit (a batch never grows past it).
    batching.minBatchSize =
      batching.maxBatchSize === undefined ? config.batching.minBatchSize : Math.min(config.batching.minBatchSize, batching.maxBatchSize)
  }
  // The server's default smallest batch never exceeds the config's batch limit.
  if (batching.minBatchSize !== undefined && batching.maxBatchSize !== undefined && batching.minBatchSize > batching.maxBatchSize) {
    batching.minBatchSize = batching.maxBatchSize
  }
  const session = { ...defaults.session, ...config.session }
  const placement = config.placement
  let isolation = defaults.isolation
  if (placement.kind === 'gpu') {
    session.executionProviders = [{ name: 'cuda', deviceId: [...placement.gpus] }]
    if (placement.gpus.length > 1) isolation = 'process'
  }
  return {
    ...defaults,
    model: file,
    replicas: config.replicas ?? defaults.replicas,
    batching,
    session,
    isolation,
    ...(config.queue === undefined ? { timeoutMs: config.timeoutMs ?? defaults.timeoutMs } : { timeoutMs: undefined, ...config.queue }),
  }
}
