/**
 * The bench's one door to the pool and the server: @inferpool/host's public API only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createPool, createRequestHandler, type Pool, type PoolOptions } from '@inferpool/host'

/** The bench only creates ONNX tensor pools (no custom `worker`). */
export type CreatePool = (options: PoolOptions & { worker?: undefined }) => Promise<Pool>

export async function loadCreatePool(): Promise<CreatePool> {
  return (options) => createPool(options)
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void
export type CreateRequestHandler = (pools: Record<string, Pool>) => RequestHandler

/** @inferpool/host's `createRequestHandler(pools)`: the server under test. */
export async function loadCreateRequestHandler(): Promise<CreateRequestHandler> {
  return (pools) => createRequestHandler(pools)
}
