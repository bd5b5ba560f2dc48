/**
 * `pool.metadata`, derived once from the codec (for the tensor codec: from the model's
 * shape, `ModelShape`) and the options — and the one owner of the effective
 * `maxBatchSize`: the configured one, capped by a fixed batch dimension, lowered to 1
 * at run time when the batch-size probe finds that the model only runs batch 1. The
 * metadata and the batcher read it from here, so they never disagree.
 */
import type { PoolMetadata } from '../types.js'
import type { Codec } from './codecs/codec.js'
import type { ResolvedPoolOptions } from './options.js'

/** The metadata and the one place that changes its `maxBatchSize`. */
export class PoolDescription {
  readonly metadata: PoolMetadata
  /** Told about a lowering (the batcher's `setMaxBatchSize`, observers, the log). */
  onLowered: ((event: { from: number; to: number; reason: string }) => void) | undefined

  constructor(codec: Pick<Codec<unknown>, 'inputs' | 'outputs' | 'fixedBatchSize'>, options: ResolvedPoolOptions) {
    const fixed = codec.fixedBatchSize
    const configured = options.batching.maxBatchSize
    this.metadata = {
      inputs: codec.inputs,
      outputs: codec.outputs,
      maxBatchSize: fixed === null ? configured : Math.min(configured, fixed),
      fixedBatchSize: fixed,
      replicas: options.replicas,
      concurrency: options.concurrency,
      executionProvider: options.session.executionProvider,
      model: options.modelLabel,
    }
    if (options.modelSha256 !== undefined) this.metadata.modelSha256 = options.modelSha256
    if (fixed !== null && fixed < configured) this.metadata.maxBatchSizeReason = `the model's batch dimension is fixed to ${fixed}`
  }

  get maxBatchSize(): number {
    return this.metadata.maxBatchSize
  }

  /** Lowers the effective `maxBatchSize` for the pool's life. */
  lower(to: number, reason: string): void {
    const from = this.metadata.maxBatchSize
    if (to >= from) return
    this.metadata.maxBatchSize = to
    this.metadata.maxBatchSizeReason = reason
    this.onLowered?.({ from, to, reason })
  }
}
