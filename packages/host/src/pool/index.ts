// createPool: the worker pool behind a DynamicBatcher.
export { createPool } from './pool.js'
export { POOL_DEFAULTS, defaultIntraOpThreads, resolvePoolOptions } from './options.js'
export type { ResolvedPoolOptions } from './options.js'
