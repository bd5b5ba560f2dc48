/**
 * What the bench needs to know about a model, read from the model itself (so `--model`
 * works for a user's own file): input names, element types and row shapes, and whether
 * the batch axis is fixed. Random rows are synthesised from that.
 */
import ort from 'onnxruntime-node'
import { mulberry32 } from '@inferpool/model-builder'
import type { TensorType, TypedArray } from '@inferpool/host'

/** Element types and row arrays: the pool's public types (@inferpool/host). */
export type ElementType = TensorType
export type RowArray = TypedArray

export interface ModelTensor {
  name: string
  type: ElementType
  /** Declared dims including the batch axis; strings are symbolic. */
  dims: Array<number | string>
  /** Concrete dims of one row (batch axis removed, symbolic axes resolved). */
  rowDims: number[]
  /** Elements in one row. */
  rowSize: number
}

export interface ModelInfo {
  path: string
  inputs: ModelTensor[]
  outputs: ModelTensor[]
  /** The batch size every input declares, or `null` when the batch axis is dynamic. */
  fixedBatchSize: number | null
}

const SUPPORTED: ReadonlySet<string> = new Set([
  'float32',
  'float64',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'bool',
])

/** KServe v2 / Open Inference Protocol datatype names. */
export const KSERVE_DATATYPE: Record<ElementType, string> = {
  float32: 'FP32',
  float16: 'FP16',
  string: 'BYTES',
  float64: 'FP64',
  int8: 'INT8',
  uint8: 'UINT8',
  int16: 'INT16',
  uint16: 'UINT16',
  int32: 'INT32',
  uint32: 'UINT32',
  int64: 'INT64',
  uint64: 'UINT64',
  bool: 'BOOL',
}

/** Session options used by every direct-onnxruntime code path of the bench. */
export function directSessionOptions(intraOpNumThreads?: number, allowSpinning?: boolean): ort.InferenceSession.SessionOptions {
  const options: ort.InferenceSession.SessionOptions = { graphOptimizationLevel: 'all', interOpNumThreads: 1 }
  if (intraOpNumThreads !== undefined) options.intraOpNumThreads = intraOpNumThreads
  // The 1.30 binding passes `extra` through as session config entries (docs/runtime-facts.md).
  if (allowSpinning === false) options.extra = { session: { intra_op: { allow_spinning: '0' } } }
  return options
}

/**
 * Reads inputs and outputs of the model at `path`. Symbolic non-batch axes take their
 * size from `dimOverrides` (by symbolic name), else 1.
 */
export async function readModelInfo(path: string, dimOverrides: Record<string, number> = {}): Promise<ModelInfo> {
  const session = await ort.InferenceSession.create(path, directSessionOptions(1, false))
  try {
    const convert = (meta: ort.InferenceSession.ValueMetadata): ModelTensor => {
      if (!meta.isTensor) throw new Error(`${path}: ${meta.name} is not a tensor; the bench only feeds tensors`)
      if (!SUPPORTED.has(meta.type))
        throw new Error(`${path}: ${meta.name} has element type ${meta.type}, which the bench cannot synthesise`)
      const dims = [...meta.shape]
      const rowDims = dims.slice(1).map((d) => {
        if (typeof d === 'number' && d > 0) return d
        if (typeof d === 'string' && dimOverrides[d] !== undefined) return dimOverrides[d]
        return 1
      })
      return { name: meta.name, type: meta.type as ElementType, dims, rowDims, rowSize: rowDims.reduce((a, b) => a * b, 1) }
    }
    const inputs = session.inputMetadata.map(convert)
    const outputs = session.outputMetadata.map(convert)
    const batchDims = inputs.map((i) => i.dims[0])
    const fixed = batchDims.every((d) => typeof d === 'number' && d > 0) ? Math.min(...(batchDims as number[])) : null
    return { path, inputs, outputs, fixedBatchSize: fixed }
  } finally {
    await session.release()
  }
}

/** Small deterministic PRNG (the model builder's mulberry32) so runs feed the same data. */
export const createRng: (seed: number) => () => number = mulberry32

/** `count` rows of `tensor`, back to back in one array, filled with random values. */
export function randomArray(tensor: ModelTensor, rows: number, rng: () => number): RowArray {
  const n = tensor.rowSize * rows
  const ints = (arr: Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array, hi: number) => {
    for (let i = 0; i < n; i++) arr[i] = Math.floor(rng() * hi)
    return arr
  }
  switch (tensor.type) {
    case 'float32':
    case 'float64': {
      const arr = tensor.type === 'float32' ? new Float32Array(n) : new Float64Array(n)
      for (let i = 0; i < n; i++) arr[i] = rng() * 2 - 1
      return arr
    }
    // Raw binary16 bits of values in [0, 1) (0x3c00 is 1.0): always finite.
    case 'float16':
      return ints(new Uint16Array(n), 0x3c00)
    // readModelInfo refuses string models: the bench synthesises numbers only.
    case 'string':
      throw new Error(`${tensor.name}: the bench cannot synthesise string tensors`)
    case 'int8':
      return ints(new Int8Array(n), 10)
    case 'uint8':
      return ints(new Uint8Array(n), 10)
    case 'bool':
      return ints(new Uint8Array(n), 2)
    case 'int16':
      return ints(new Int16Array(n), 10)
    case 'uint16':
      return ints(new Uint16Array(n), 10)
    case 'int32':
      return ints(new Int32Array(n), 10)
    case 'uint32':
      return ints(new Uint32Array(n), 10)
    case 'int64':
    case 'uint64': {
      const arr = tensor.type === 'int64' ? new BigInt64Array(n) : new BigUint64Array(n)
      for (let i = 0; i < n; i++) arr[i] = BigInt(Math.floor(rng() * 10))
      return arr
    }
  }
}

/** A set of distinct random single rows (one record per row, by input name). */
export function randomRows(info: ModelInfo, count: number, seed = 1): Array<Record<string, RowArray>> {
  const rng = createRng(seed)
  return Array.from({ length: count }, () => Object.fromEntries(info.inputs.map((t) => [t.name, randomArray(t, 1, rng)])))
}

/** ORT feeds for a batch of `rows` random rows (for the direct baselines). */
export function randomFeeds(info: ModelInfo, rows: number, seed = 1): Record<string, ort.Tensor> {
  const rng = createRng(seed)
  return Object.fromEntries(info.inputs.map((t) => [t.name, new ort.Tensor(t.type, randomArray(t, rows, rng), [rows, ...t.rowDims])]))
}

/** ORT feeds holding one given row. */
export function rowFeeds(info: ModelInfo, row: Record<string, RowArray>): Record<string, ort.Tensor> {
  return Object.fromEntries(info.inputs.map((t) => [t.name, new ort.Tensor(t.type, row[t.name], [1, ...t.rowDims])]))
}

/** The largest batch the model accepts, capped at `cap`. */
export function maxBatchFor(info: ModelInfo, cap: number): number {
  return info.fixedBatchSize === null ? cap : Math.min(cap, info.fixedBatchSize)
}
