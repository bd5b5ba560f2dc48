/**
 * Tiny models for pool edge cases: a fixed batch dimension, a run-time failure on one
 * specific row, a hard-coded batch of 1 behind a dynamic axis, and several inputs/outputs
 * of mixed element types.
 */
import { buildModel } from '../graph.js'
import { add, cast, gather, gemm, identity, matMul, mul, reduceSum, reshape, slice, squeeze } from '../nodes.js'
import { mulberry32, uniformFloat32 } from '../prng.js'
import type { OnnxTypes } from '../proto.js'
import { floatTensor, int64Vector, tensor } from '../tensor.js'

/** A single dense layer `y = x · weight + bias`, weight row-major [inFeatures, outFeatures]. */
export interface LinearWeights {
  inFeatures: number
  outFeatures: number
  weight: Float32Array
  bias: Float32Array
}

/** Deterministic weights of one dense layer (uniform ±1/√inFeatures, bias ±0.1). */
export function linearWeights(inFeatures: number, outFeatures: number, seed: number): LinearWeights {
  const rng = mulberry32(seed)
  return {
    inFeatures,
    outFeatures,
    weight: uniformFloat32(rng, inFeatures * outFeatures, 1 / Math.sqrt(inFeatures)),
    bias: uniformFloat32(rng, outFeatures, 0.1),
  }
}

/** Plain-JS `x · weight + bias` for `batch` rows, in float64. */
export function linearReference(w: LinearWeights, x: ArrayLike<number>, batch: number): Float64Array {
  const { inFeatures: n, outFeatures: m, weight, bias } = w
  if (x.length !== batch * n) throw new RangeError(`linearReference: expected ${batch} × ${n} inputs, got ${x.length}`)
  const y = new Float64Array(batch * m)
  for (let r = 0; r < batch; r++) {
    for (let j = 0; j < m; j++) {
      let acc = bias[j]
      for (let k = 0; k < n; k++) acc += x[r * n + k] * weight[k * m + j]
      y[r * m + j] = acc
    }
  }
  return y
}

/** Seed of `fixtures/models/fixed-batch.onnx`. */
export const FIXED_BATCH_SEED = 3

/** Weights of `fixed-batch.onnx`: one dense layer 8 → 4. */
export const fixedBatchWeights = (): LinearWeights => linearWeights(8, 4, FIXED_BATCH_SEED)

/** `x` float32 [1, 8] → Gemm → `y` float32 [1, 4]. The batch dimension is fixed to 1. */
export function buildFixedBatch(w: LinearWeights = fixedBatchWeights()): OnnxTypes.ModelProto {
  return buildModel({
    name: 'fixed-batch',
    doc: 'Dense layer 8 -> 4 with the batch dimension fixed to 1, like most exported vision models',
    inputs: [{ name: 'x', type: 'float32', dims: [1, w.inFeatures] }],
    outputs: [{ name: 'y', type: 'float32', dims: [1, w.outFeatures] }],
    initializers: [floatTensor('fc.weight', [w.inFeatures, w.outFeatures], w.weight), floatTensor('fc.bias', [w.outFeatures], w.bias)],
    nodes: [gemm('x', 'fc.weight', 'fc.bias', 'y')],
  })
}

/** Number of rows in the poison model's lookup table: valid indices are -10..9. */
export const POISON_TABLE_ROWS = 10
/** Seed of `fixtures/models/poison.onnx`. */
export const POISON_SEED = 4

/** Lookup table [10, 4] of `poison.onnx`. */
export const poisonTable = (): Float32Array => uniformFloat32(mulberry32(POISON_SEED), POISON_TABLE_ROWS * 4, 1)

/**
 * `x` float32 [batch, 4] → `y` float32 [batch, 4] = x + table[int64(x[:, 0])].
 * Cast truncates toward zero, and Gather accepts -10..9, so a row runs when
 * -11 < x[0] < 10 and makes the whole batch throw otherwise (e.g. x[0] = 10, 1e6, -11, NaN).
 */
export function buildPoison(table: Float32Array = poisonTable()): OnnxTypes.ModelProto {
  return buildModel({
    name: 'poison',
    doc: 'y = x + table[int64(x[:, 0])]; a row whose x[0] is outside (-11, 10) fails the whole batch',
    inputs: [{ name: 'x', type: 'float32', dims: ['batch', 4] }],
    outputs: [{ name: 'y', type: 'float32', dims: ['batch', 4] }],
    initializers: [floatTensor('table', [POISON_TABLE_ROWS, 4], table), int64Vector('zero', [0]), int64Vector('one', [1])],
    nodes: [
      slice('x', 'zero', 'one', 'col0', 'one'),
      squeeze('col0', 'one', 'col0_flat'),
      cast('col0_flat', 'int64', 'index'),
      gather('table', 'index', 'looked_up'),
      add('x', 'looked_up', 'y'),
    ],
  })
}

/**
 * Plain-JS `poison.onnx`: returns the outputs, or throws RangeError naming the first row
 * whose index is out of range (onnxruntime fails the whole batch in that case).
 */
export function poisonReference(table: Float32Array, x: ArrayLike<number>, batch: number): Float32Array {
  if (x.length !== batch * 4) throw new RangeError(`poisonReference: expected ${batch} × 4 inputs, got ${x.length}`)
  const y = new Float32Array(batch * 4)
  for (let r = 0; r < batch; r++) {
    const index = Math.trunc(Math.fround(x[r * 4]))
    if (!(index >= -POISON_TABLE_ROWS && index < POISON_TABLE_ROWS)) {
      throw new RangeError(`poisonReference: row ${r} has index ${index}, outside [-10, 9]`)
    }
    const row = index < 0 ? index + POISON_TABLE_ROWS : index
    for (let c = 0; c < 4; c++) y[r * 4 + c] = Math.fround(x[r * 4 + c]) + table[row * 4 + c]
  }
  return y
}

/** Whether a row with first value `x0` makes `poison.onnx` throw. */
export function isPoisonRow(x0: number): boolean {
  const index = Math.trunc(Math.fround(x0))
  return !(index >= -POISON_TABLE_ROWS && index < POISON_TABLE_ROWS)
}

/** Seed of `fixtures/models/hardcoded-batch1.onnx`. */
export const HARDCODED_BATCH1_SEED = 5

/** Weights of `hardcoded-batch1.onnx`: one dense layer 8 → 4. */
export const hardcodedBatch1Weights = (): LinearWeights => linearWeights(8, 4, HARDCODED_BATCH1_SEED)

/**
 * `x` float32 [batch, 8] → `y` float32 [batch, 4] = x · W + b + Σ reshape(x, [1, 8]).
 * Declares a dynamic batch axis but hard-codes batch 1 inside (a common export mistake):
 * batch 1 works, any larger batch fails in the Reshape.
 *
 * The hard-coded branch is only added (broadcast [1, 1] onto [batch, 4]) so that shape
 * inference keeps the output's batch axis symbolic: a plain `Reshape → Gemm` chain would
 * make onnxruntime report the output as [1, 4], and a pool could then spot the problem
 * from metadata alone. Here nothing in the metadata gives it away; only running a batch
 * larger than one does — the case the pool must detect at run time.
 */
export function buildHardcodedBatch1(w: LinearWeights = hardcodedBatch1Weights()): OnnxTypes.ModelProto {
  return buildModel({
    name: 'hardcoded-batch1',
    doc: 'Declares batch axis "batch" but reshapes x to [1, 8] inside: only batch 1 runs',
    inputs: [{ name: 'x', type: 'float32', dims: ['batch', w.inFeatures] }],
    outputs: [{ name: 'y', type: 'float32', dims: ['batch', w.outFeatures] }],
    initializers: [
      int64Vector('shape_1x8', [1, w.inFeatures]),
      int64Vector('axes_1', [1]),
      floatTensor('fc.weight', [w.inFeatures, w.outFeatures], w.weight),
      floatTensor('fc.bias', [w.outFeatures], w.bias),
    ],
    nodes: [
      gemm('x', 'fc.weight', 'fc.bias', 'linear'),
      reshape('x', 'shape_1x8', 'x_1x8'),
      reduceSum('x_1x8', 'axes_1', 'row_sum', true),
      add('linear', 'row_sum', 'y'),
    ],
  })
}

/**
 * Plain-JS `hardcoded-batch1.onnx` for one row (`x` of 8 values): x · W + b + Σx.
 * There is no reference for larger batches: the model fails them.
 */
export function hardcodedBatch1Reference(w: LinearWeights, x: ArrayLike<number>): Float64Array {
  const y = linearReference(w, x, 1)
  let sum = 0
  for (let i = 0; i < x.length; i++) sum += x[i]
  return y.map((v) => v + sum)
}

/**
 * Two inputs and two outputs of mixed element types, no weights, exact arithmetic:
 *   `a` float32 [batch, 3], `b` int32 [batch, 2]
 *   → `a_scaled` float32 [batch, 3] = a · 2
 *   → `b_sum` float64 [batch] = Σ b (cast to double): a rank-1 output, one scalar per row.
 */
export function buildMultiIo(): OnnxTypes.ModelProto {
  return buildModel({
    name: 'multi-io',
    doc: 'a_scaled = a * 2; b_sum = sum(float64(b), axis 1)',
    inputs: [
      { name: 'a', type: 'float32', dims: ['batch', 3] },
      { name: 'b', type: 'int32', dims: ['batch', 2] },
    ],
    outputs: [
      { name: 'a_scaled', type: 'float32', dims: ['batch', 3] },
      { name: 'b_sum', type: 'float64', dims: ['batch'] },
    ],
    initializers: [tensor('two', 'float32', [], [2]), int64Vector('axes_1', [1])],
    nodes: [mul('a', 'two', 'a_scaled'), cast('b', 'float64', 'b_f64'), reduceSum('b_f64', 'axes_1', 'b_sum', false)],
  })
}

/** Plain-JS `multi-io.onnx`. */
export function multiIoReference(a: ArrayLike<number>, b: ArrayLike<number>, batch: number): { aScaled: Float32Array; bSum: Float64Array } {
  if (a.length !== batch * 3 || b.length !== batch * 2)
    throw new RangeError(`multiIoReference: expected ${batch} × 3 and ${batch} × 2 values`)
  const aScaled = Float32Array.from(a, (v) => Math.fround(v) * 2)
  const bSum = new Float64Array(batch)
  for (let r = 0; r < batch; r++) bSum[r] = b[r * 2] + b[r * 2 + 1]
  return { aScaled, bSum }
}

/**
 * `x` float16 [batch, 4] → `y` float16 [batch, 4] = x · 2 (computed in float32, cast back:
 * exact unless it overflows) and `sum` float32 [batch] = Σ float32(x) over the row. For
 * the FP16 datatype end to end; CPU kernels for Cast exist for float16 where Mul may not.
 */
export function buildFp16(): OnnxTypes.ModelProto {
  return buildModel({
    name: 'fp16',
    doc: 'y = float16(float32(x) * 2); sum = ReduceSum(float32(x), axis 1)',
    inputs: [{ name: 'x', type: 'float16', dims: ['batch', 4] }],
    outputs: [
      { name: 'y', type: 'float16', dims: ['batch', 4] },
      { name: 'sum', type: 'float32', dims: ['batch'] },
    ],
    initializers: [tensor('two', 'float32', [], [2]), int64Vector('axes_1', [1])],
    nodes: [cast('x', 'float32', 'x32'), mul('x32', 'two', 'y32'), cast('y32', 'float16', 'y'), reduceSum('x32', 'axes_1', 'sum', false)],
  })
}

/**
 * `text` string [batch, 2] → `echo` string [batch, 2] (Identity). For the BYTES datatype
 * end to end: the output proves each string arrived intact and in place. (A Cast to
 * float would also test content, but fails the whole batch on any non-numeric string.)
 */
export function buildStrings(): OnnxTypes.ModelProto {
  return buildModel({
    name: 'strings',
    doc: 'echo = text',
    inputs: [{ name: 'text', type: 'string', dims: ['batch', 2] }],
    outputs: [{ name: 'echo', type: 'string', dims: ['batch', 2] }],
    nodes: [identity('text', 'echo')],
  })
}

/**
 * `y = x^power` for square matrices x `[batch, n, n]`, by repeated MatMul: two models of
 * the same shape whose answers tell them apart (for a 2×2 matrix of ones, x⁴ is all 8s
 * and x³ all 4s), and whose run time grows with `n` — what tests of a model file
 * replaced on disk need.
 */
export function buildMatrixPower(power: number): OnnxTypes.ModelProto {
  if (!Number.isInteger(power) || power < 2) {
    throw new RangeError(`Expected \`power\` to be an integer >= 2, got \`${String(power)}\``)
  }
  const nodes = []
  let last = 'x'
  for (let p = 2; p <= power; p++) {
    const out = p === power ? 'y' : `x${p}`
    nodes.push(matMul(last, 'x', out))
    last = out
  }
  return buildModel({
    name: `matrix-power-${power}`,
    inputs: [{ name: 'x', type: 'float32', dims: ['batch', 'n', 'n'] }],
    outputs: [{ name: 'y', type: 'float32', dims: ['batch', 'n', 'n'] }],
    nodes,
  })
}
