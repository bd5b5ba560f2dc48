// Cross-thread clients over comlink: exposePool, connectPool.
export { exposePool } from './expose.js'
export type { ExposedPool } from './expose.js'
export { connectPool } from './connect.js'
export type { ConnectOptions, RemotePool } from './connect.js'
export { RemoteConnectTimeoutError, RemotePoolClosedError } from './errors.js'
