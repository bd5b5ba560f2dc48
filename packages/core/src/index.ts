export { DynamicBatcher } from './batcher.js'
export { defaults as batcherDefaults } from './options.js'
export * from './errors.js'
export type * from './types.js'
