/**
 * Token model: embedding lookup plus attention-masked mean pooling, the shape of a
 * sentence-embedding model (`input_ids`, `attention_mask` of variable length).
 *
 *   token_embeddings = table[input_ids]                                    [batch, seq, dim]
 *   pooled = Σ_seq(token_embeddings · mask) / max(Σ_seq mask, 1e-9)        [batch, dim]
 *
 * Padding a row with id 0 / mask 0 leaves `pooled` unchanged BIT FOR BIT, which is what the
 * pool's padding tests compare. That needs the sum over `seq` to add the terms strictly in
 * order, so that trailing (or leading) zeros cannot change the rounding. onnxruntime's
 * ReduceSum and MatMul do not: their accumulation order depends on the length (measured
 * in 1.30: a row of 6..64 tokens padded by 1+ positions differs in the last bit). CumSum's
 * CPU kernel is a plain running sum, so the sum is taken as the last element of CumSum
 * along `seq` (exact for every length 1..64 and padding tried). The mask count is a sum of
 * small integers, exact in any order, so ReduceSum is fine there. The 1e-9 floor (as in
 * sentence-transformers) makes an all-masked row pool to zeros, not NaN.
 */
import { buildModel } from '../graph.js'
import { cast, cumSum, div, gather, max, mul, reduceSum, unsqueeze } from '../nodes.js'
import { mulberry32, uniformFloat32 } from '../prng.js'
import type { OnnxTypes } from '../proto.js'
import { floatTensor, int64Tensor, int64Vector } from '../tensor.js'

/** Embedding table of the token model. */
export interface TokenPoolWeights {
  vocab: number
  dim: number
  /** Row-major [vocab, dim]. */
  table: Float32Array
}

/** Vocabulary size of `fixtures/models/token-pool.onnx`: valid ids are 0..999. */
export const TOKEN_POOL_VOCAB = 1000
/** Embedding size of `fixtures/models/token-pool.onnx`. */
export const TOKEN_POOL_DIM = 8
/** PRNG seed of `fixtures/models/token-pool.onnx`. */
export const TOKEN_POOL_SEED = 2

/** Deterministic embedding table, uniform in ±1. */
export function tokenPoolWeights(vocab = TOKEN_POOL_VOCAB, dim = TOKEN_POOL_DIM, seed = TOKEN_POOL_SEED): TokenPoolWeights {
  return { vocab, dim, table: uniformFloat32(mulberry32(seed), vocab * dim, 1) }
}

/** ONNX model: inputs `input_ids`, `attention_mask` int64 [batch, seq]; outputs `token_embeddings`, `pooled`. */
export function buildTokenPool(weights: TokenPoolWeights): OnnxTypes.ModelProto {
  const { vocab, dim, table } = weights
  return buildModel({
    name: 'token-pool',
    doc: `Embedding lookup [${vocab}, ${dim}] + attention-masked mean pooling`,
    inputs: [
      { name: 'input_ids', type: 'int64', dims: ['batch', 'seq'] },
      { name: 'attention_mask', type: 'int64', dims: ['batch', 'seq'] },
    ],
    outputs: [
      { name: 'token_embeddings', type: 'float32', dims: ['batch', 'seq', dim] },
      { name: 'pooled', type: 'float32', dims: ['batch', dim] },
    ],
    initializers: [
      floatTensor('embedding.table', [vocab, dim], table),
      int64Vector('axes_2', [2]),
      int64Vector('axes_1', [1]),
      int64Tensor('seq_axis', [], [1]),
      int64Tensor('last', [], [-1]),
      floatTensor('count_floor', [], [1e-9]),
    ],
    nodes: [
      gather('embedding.table', 'input_ids', 'token_embeddings'),
      cast('attention_mask', 'float32', 'mask_f'),
      unsqueeze('mask_f', 'axes_2', 'mask_3d'),
      mul('token_embeddings', 'mask_3d', 'masked'),
      cumSum('masked', 'seq_axis', 'masked_running_sum'),
      gather('masked_running_sum', 'last', 'masked_sum', 1),
      reduceSum('mask_3d', 'axes_1', 'mask_count', false),
      max('mask_count', 'count_floor', 'mask_count_floored'),
      div('masked_sum', 'mask_count_floored', 'pooled'),
    ],
  })
}

/**
 * Plain-JS outputs of the token model for one batch (ids/mask row-major [batch, seq]).
 * It rounds to float32 after every step, in the same order as the model (products, running
 * sum along seq, one division), so its `pooled` equals onnxruntime's bit for bit.
 */
export function tokenPoolReference(
  weights: TokenPoolWeights,
  inputIds: ArrayLike<number | bigint>,
  attentionMask: ArrayLike<number | bigint>,
  batch: number,
  seq: number,
): { tokenEmbeddings: Float32Array; pooled: Float32Array } {
  const { vocab, dim, table } = weights
  if (inputIds.length !== batch * seq || attentionMask.length !== batch * seq) {
    throw new RangeError(`tokenPoolReference: expected ${batch} × ${seq} ids and mask values`)
  }
  const tokenEmbeddings = new Float32Array(batch * seq * dim)
  const pooled = new Float32Array(batch * dim)
  for (let b = 0; b < batch; b++) {
    let count = 0
    for (let s = 0; s < seq; s++) {
      const id = Number(inputIds[b * seq + s])
      if (!Number.isInteger(id) || id < -vocab || id >= vocab) {
        throw new RangeError(`tokenPoolReference: id ${id} outside [-${vocab}, ${vocab - 1}]`)
      }
      const row = id < 0 ? id + vocab : id
      const m = Number(attentionMask[b * seq + s])
      count += m
      for (let d = 0; d < dim; d++) {
        const e = table[row * dim + d]
        tokenEmbeddings[(b * seq + s) * dim + d] = e
        // CumSum starts from the first term itself (not from +0), which matters only for
        // the sign of an all-zero sum: -0 stays -0, as in the model.
        const term = Math.fround(e * m)
        pooled[b * dim + d] = s === 0 ? term : Math.fround(pooled[b * dim + d] + term)
      }
    }
    const divisor = Math.max(count, Math.fround(1e-9))
    for (let d = 0; d < dim; d++) pooled[b * dim + d] = Math.fround(pooled[b * dim + d] / divisor)
  }
  return { tokenEmbeddings, pooled }
}
