/**
 * The contract between `exposePool` and `connectPool`: what is exposed on the port.
 * Defined once, imported with `import type` by both sides.
 */
import type { PoolMetadata, PoolStats } from '../types.js'

/** `InferOptions` as they cross the port: an `AbortSignal` cannot, so a call id does. */
export interface WireInferOptions {
  readonly callId: number
  readonly timeoutMs?: number
  readonly priority?: number
}

export interface PoolEndpoint {
  infer(input: unknown, options: WireInferOptions): Promise<unknown>
  /** Aborts call `callId` if it is still pending (its row leaves the queue). */
  abort(callId: number): void
  metadata(): PoolMetadata
  stats(): PoolStats
}
