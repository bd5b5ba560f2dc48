export type * from './types.js'
export * from './pool/index.js'
export * from './server/index.js'
export * from './remote/index.js'
