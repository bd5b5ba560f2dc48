/**
 * How a request's rows enter a pool, for every protocol (HTTP and gRPC alike): all of
 * them or none, and one signal for the request; as one block where the pool takes one.
 */
import type { BlockOutput, RowInput, RowOutput } from '@inferpool/host'
import type { Context } from '@opentelemetry/api'
import type { DecodedInferRequest } from './decode.js'
import type { ServedPool } from './served-pool.js'

/**
 * Queues a request's rows: all or none through `inferMany` when the pool has it; one by
 * one otherwise (a remote pool), where the shared signal still cancels the siblings of
 * a row that fails.
 */
export function submitRows(
  pool: ServedPool,
  rows: RowInput[],
  options: { signal: AbortSignal; timeoutMs: number | undefined; priorityLevel?: number; priority?: number; context?: Context },
): Promise<RowOutput[]> {
  if (pool.inferMany !== undefined) return pool.inferMany(rows, options)
  const controller = new AbortController()
  const forward = (): void => controller.abort(options.signal.reason)
  options.signal.addEventListener('abort', forward, { once: true })
  const each = {
    signal: controller.signal,
    timeoutMs: options.timeoutMs,
    priorityLevel: options.priorityLevel,
    priority: options.priority,
    context: options.context,
  }
  const pending = rows.map((row) => {
    try {
      return pool.infer(row, each)
    } catch (error) {
      return Promise.reject(error)
    }
  })
  return Promise.all(pending).then(
    (results) => {
      options.signal.removeEventListener('abort', forward)
      return results
    },
    (error: unknown) => {
      options.signal.removeEventListener('abort', forward)
      controller.abort(error)
      throw error
    },
  )
}

/**
 * Queues a decoded request: as one block (`inferBlock`) where the pool takes blocks and
 * every input is numeric, so no object is made per row; as rows otherwise. Both queue
 * all of the request or none of it, under one signal.
 */
/** How a request's rows are submitted: one signal for all, what is left of its deadline, its trace context. */
export interface SubmitOptions {
  readonly signal: AbortSignal
  readonly timeoutMs: number | undefined
  /** `@inferpool/consume`'s bulk requests in a pool without levels (`serve --nats`): behind online rows' 0. */
  readonly priority?: number
  readonly context?: Context
}

export function submitRequest(pool: ServedPool, request: DecodedInferRequest, options: SubmitOptions): Promise<RowOutput[] | BlockOutput> {
  // Triton's `parameters.priority` travels with the request to the pool (a level; see QueuePolicy).
  const level = request.priorityLevel
  const withLevel = level === undefined ? options : { ...options, priorityLevel: level }
  if (pool.inferBlock !== undefined && request.block !== undefined && request.rowCount > 0) return pool.inferBlock(request.block, withLevel)
  return submitRows(pool, request.rows, withLevel)
}
