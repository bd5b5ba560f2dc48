/**
 * `exposePool`: serves one pool to another thread over a `MessagePort`, so several
 * threads (for example HTTP workers) feed ONE pool and their rows share batches.
 */
import { MessagePort } from 'node:worker_threads'
import { expose, finalizer, transfer } from 'comlink'
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs'
import type { Pool } from '../types.js'
import { prepareTransfer } from './buffers.js'
import { installErrorTransferHandler } from './error-transfer.js'
import { RemotePoolClosedError } from './errors.js'
import type { PoolEndpoint, WireInferOptions } from './wire.js'

/** Handle of an exposed pool. */
export interface ExposedPool {
  /** Calls being answered now. */
  readonly pending: number
  /**
   * Stops serving this port: pending calls are aborted (their rows leave the queue)
   * and the port is closed, which rejects the remote side's pending calls with
   * `RemotePoolClosedError`. Does not close the pool.
   */
  close(): void
}

/**
 * Serves `pool` on `port`; the other end of the channel calls `connectPool(port)`.
 * One call per port: expose the same pool on as many ports as there are client threads.
 * The pool is not closed when the port closes — the caller owns it.
 */
export function exposePool(pool: Pick<Pool<unknown, unknown>, 'infer' | 'metadata' | 'stats'>, port: MessagePort): ExposedPool {
  if (pool === null || typeof pool !== 'object' || typeof pool.infer !== 'function') {
    throw new TypeError(`Expected \`pool\` to be a pool with an infer() method, got \`${String(pool)}\``)
  }
  if (!(port instanceof MessagePort)) {
    throw new TypeError(`Expected \`port\` to be a MessagePort from node:worker_threads, got \`${String(port)}\``)
  }
  installErrorTransferHandler()
  const calls = new Map<number, AbortController>()
  let closed = false

  const abortAll = (): void => {
    for (const controller of calls.values()) controller.abort(new RemotePoolClosedError('The client port closed'))
    calls.clear()
  }
  const close = (): void => {
    if (closed) return
    closed = true
    abortAll()
    port.close()
  }
  // The client thread ended or closed its side: nobody can receive these answers.
  port.once('close', () => {
    closed = true
    abortAll()
  })

  const endpoint: PoolEndpoint & { [finalizer](): void } = {
    async infer(input: unknown, options: WireInferOptions): Promise<unknown> {
      if (closed) throw new RemotePoolClosedError()
      const controller = new AbortController()
      calls.set(options.callId, controller)
      try {
        const output = await pool.infer(input, {
          signal: controller.signal,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          ...(options.priority === undefined ? {} : { priority: options.priority }),
        })
        if (typeof output !== 'object' || output === null) return output
        // Per-row outputs are views into the batch's output buffer shared with the
        // other rows of the batch: each is copied into its own buffer, then moved.
        const moved = prepareOutputs(output as Record<string, unknown>)
        return transfer(moved.value, moved.transfer)
      } finally {
        calls.delete(options.callId)
      }
    },
    abort(callId: number): void {
      calls.get(callId)?.abort()
    },
    metadata() {
      return pool.metadata
    },
    stats() {
      return pool.stats
    },
    // comlink calls this after the client released its proxy.
    [finalizer]() {
      close()
    },
  }
  expose(endpoint, nodeEndpoint(port))

  return {
    get pending() {
      return calls.size
    },
    close,
  }
}

function prepareOutputs(output: Record<string, unknown>): { value: Record<string, unknown>; transfer: ArrayBuffer[] } {
  return prepareTransfer(output)
}
