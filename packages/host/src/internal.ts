/**
 * What @inferpool/server builds on besides the public API: the close/destroy state
 * machine both share, the pool's health reading, model bytes and model files, owned temporary directories. Not for
 * applications: these may change with the server.
 */
export { Lifecycle } from './lifecycle.js'
export type { CloseOptions } from './lifecycle.js'
export { restartDelayMs } from './backoff.js'
export { isDegraded, replicasReady, servesAny } from './pool/health.js'
export { readModelBytes } from './pool/model-bytes.js'
export { ModelFile } from './pool/process/model-file.js'
export { makeOwnedDir, sweepDeadOwners } from './owned-dir.js'
