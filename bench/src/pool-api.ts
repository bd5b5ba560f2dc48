/**
 * The bench's one door to the pool: @inferpool/host's public API only.
 */
import { createPool, type Pool, type PoolOptions } from '@inferpool/host'

/** `createPool` narrowed to ONNX tensor pools (the bench never passes a custom `worker`). */
export type CreatePool = (options: PoolOptions & { worker?: undefined }) => Promise<Pool>

export const createTensorPool: CreatePool = (options) => createPool(options)
