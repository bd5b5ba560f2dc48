/**
 * The `tensor` codec: requests of the built-in ONNX worker. A row is checked once at the
 * door against the model's shape (validate-input.ts), packed with the rest of its batch
 * into one transferred buffer per input (pack.ts), and its outputs come back as views
 * into the batch's output buffers. It also feeds the batch-size probe
 * (batch-size-probe.ts), the one source of a run-time `maxBatchSize` lowering.
 */
import type { TaskResult } from '@inferpool/worker'
import { InferenceError } from '../../errors.js'
import { fromWire } from '../../wire-errors.js'
import type { BlockInput, PoolOptions, RowInput, TensorInfo } from '../../types.js'
import { admitBlock, blockShapeOf, joinBlockResults } from '../block.js'
import type { BlockRow, BlockRowResult } from '../block.js'
import { BatchSizeProbe } from '../batch-size-probe.js'
import type { ProbedRow } from '../batch-size-probe.js'
import type { ModelShape } from '../model-shape.js'
import { packBatch, pieceBatch, unpackOutputs } from '../pack.js'
import { validateRow } from '../validate-input.js'
import type { ValidRow } from '../validate-input.js'
import type { Codec } from './codec.js'

/** A queued row of a tensor pool: the validated row itself (no wrapper per request). */
export interface ValidTensorRow extends ProbedRow, ValidRow {
  /** The pool's `cost(input)`, when it has one (read by the batcher through the cost rule). */
  cost?: number
}

/** A queued row: validated on its own, or one row of a block (block.ts). */
export type TensorItem = ValidTensorRow | BlockRow

/** Declared dims as `pool.metadata` states them (batch dim first). */
function infos(
  specs: ReadonlyArray<{ name: string; type: TensorInfo['type']; declaredDims: ReadonlyArray<number | string> }>,
): TensorInfo[] {
  return specs.map((s) => ({ name: s.name, type: s.type, dims: [...s.declaredDims] }))
}

/**
 * @param onBatchOfOneOnly the probe found that the model runs batch 1 only (`failure`: the last multi-row error).
 */
export function tensorCodec(shape: ModelShape, cost: PoolOptions['cost'], onBatchOfOneOnly: (failure: string) => void): Codec<TensorItem> {
  const probe = new BatchSizeProbe(onBatchOfOneOnly)
  // A model with a fixed batch size > 1 gets its batch filled up with zero rows.
  const fixed = shape.fixedBatchSize !== null && shape.fixedBatchSize > 1 ? shape.fixedBatchSize : null
  // A cost rule prices rows one by one: such a pool takes rows only.
  const blocks = cost === undefined ? blockShapeOf(shape) : undefined
  return {
    inputs: infos(shape.inputs),
    outputs: infos(shape.outputs),
    fixedBatchSize: shape.fixedBatchSize,
    batchKey: shape.keyed ? (item) => item.key : undefined,
    cost: cost === undefined ? undefined : (item) => (item as ValidTensorRow).cost ?? 1,
    admit(input) {
      const item: ValidTensorRow = validateRow(input as RowInput, shape)
      if (cost !== undefined) item.cost = cost(input)
      return item
    },
    ...(blocks === undefined
      ? {}
      : {
          admitBlock: (inputs: BlockInput) => admitBlock(inputs, blocks),
          joinBlock: (results: readonly unknown[]) => joinBlockResults(results as BlockRowResult[], blocks),
        }),
    pack(items, asPieces) {
      if (asPieces === true) {
        const pieces = pieceBatch(items, shape, fixed ?? items.length)
        const dims: Record<string, number[]> = {}
        for (const input of pieces.inputs) dims[input.name] = input.dims as number[]
        return { payload: pieces, transfer: [], dims }
      }
      const packed = packBatch(items, shape, fixed ?? items.length)
      const dims: Record<string, number[]> = {}
      for (const name in packed.batch.inputs) dims[name] = packed.batch.inputs[name].dims
      return { payload: packed.batch, transfer: packed.transfer, dims }
    },
    decode(result: TaskResult, items) {
      if (!result.ok) {
        const error = fromWire(result.error)
        probe.failed(items, error.code, error.message)
        throw error
      }
      if (result.kind !== 'run') throw new InferenceError('The worker answered a run task with a describe result')
      const outputs = unpackOutputs((result.value as { outputs?: never } | null)?.outputs, items, shape, fixed ?? items.length)
      probe.succeeded(items)
      return outputs
    },
  }
}
