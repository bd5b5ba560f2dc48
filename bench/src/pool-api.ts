/**
 * The bench's one door to the pool and the server: @inferpool/host's public API only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createPool, type Pool, type PoolOptions } from '@inferpool/host'

/** The bench only creates ONNX tensor pools (no custom `worker`). */
export type CreatePool = (options: PoolOptions & { worker?: undefined }) => Promise<Pool>

export async function loadCreatePool(): Promise<CreatePool> {
  return (options) => createPool(options)
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void
export type CreateRequestHandler = (pools: Record<string, Pool>) => RequestHandler

/** INTEGRATION POINT: @inferpool/host's `createRequestHandler(pools)` (issue 4). */
export async function loadCreateRequestHandler(): Promise<CreateRequestHandler> {
  const host = (await import('@inferpool/host')) as { createRequestHandler?: CreateRequestHandler }
  if (typeof host.createRequestHandler !== 'function') throw new Error('@inferpool/host does not export createRequestHandler (yet)')
  return host.createRequestHandler
}
