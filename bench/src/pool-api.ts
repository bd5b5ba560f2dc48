/**
 * The bench's one door to the pool: @inferpool/host's public `createPool`.
 *
 * INTEGRATION POINT: loaded dynamically until @inferpool/host exports `createPool`
 * (issue 3 lands in parallel with the bench); then this becomes a static import.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Pool, PoolOptions } from '@inferpool/host'

export type CreatePool = (options: PoolOptions) => Promise<Pool>

export async function loadCreatePool(): Promise<CreatePool> {
  const host = (await import('@inferpool/host')) as { createPool?: CreatePool }
  if (typeof host.createPool !== 'function') throw new Error('@inferpool/host does not export createPool (yet)')
  return host.createPool
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void
export type CreateRequestHandler = (pools: Record<string, Pool>) => RequestHandler

/** INTEGRATION POINT: @inferpool/host's `createRequestHandler(pools)` (issue 4). */
export async function loadCreateRequestHandler(): Promise<CreateRequestHandler> {
  const host = (await import('@inferpool/host')) as { createRequestHandler?: CreateRequestHandler }
  if (typeof host.createRequestHandler !== 'function') throw new Error('@inferpool/host does not export createRequestHandler (yet)')
  return host.createRequestHandler
}
