/**
 * A request of many rows as one tensor per input (`pool.inferBlock`): what the servers
 * receive, a 64-row request being one FP32 tensor of 64 × 256, not 64 rows.
 *
 * Why not split it into rows (`inferMany`): each row would become a row object, a view
 * of its data, a validated row with its tensor list, and on the way back an output
 * object, a tensor, a view and a dims array — some 600 bytes of short-lived objects per
 * row, which under overload wait in the queue long enough to be copied by the young
 * generation's collector, and which the host thread then spends a large share of its
 * time collecting (bench/README.md, "Requests as blocks"). Here the request is checked
 * once, each of its rows is one small `BlockRow` (the batcher still schedules rows, so a
 * request may share a batch with others or be split between two), packing copies a run
 * of a block's rows with one `set`, and a row's result is one small `BlockRowResult`
 * over its batch's outputs. The rows' outputs are put back together once: as views of
 * the batch's output buffers when all the rows ran in one batch, else copied.
 *
 * Only models whose every input and output is numeric with fixed row dims, unpadded,
 * take blocks (`blockShapeOf`), and not in a pool with a `cost` rule (it prices rows one
 * by one): other pools have no `inferBlock`, and their callers send rows.
 */
import { InferenceError, InvalidInputError } from '../errors.js'
import type { BlockInput, BlockOutput, RowInput, TypedArray } from '../types.js'
import { typeName, validateRow } from './validate-input.js'
import type { FailedBatch } from './batch-size-probe.js'
import type { InputSpec, ModelShape, OutputSpec } from './model-shape.js'

/** One validated block: per model input (in model order) all its rows' data. */
export class ValidBlock {
  constructor(
    readonly data: readonly TypedArray[],
    readonly rows: number,
  ) {}
}

/** One row of a block in the queue: the block and the row's index in it. */
export class BlockRow {
  /** Rows with equal keys can share a batch: a block's model is never keyed. */
  readonly key = ''
  /** Set by the batch-size probe when the row was in a failed multi-row batch. */
  failedBatch?: FailedBatch
  constructor(
    readonly block: ValidBlock,
    readonly index: number,
  ) {}
}

/** A batch's outputs, shared by the results of its block rows. */
export class BatchOutputs {
  constructor(
    /** Per output (model order): its data for every row of the batch. */
    readonly data: readonly TypedArray[],
    /** Per output: the dims of one row. */
    readonly rowDims: readonly number[][],
    /** Per output: elements per row. */
    readonly rowSizes: readonly number[],
  ) {}
}

/** A block row's result: row `row` of its batch's outputs. */
export class BlockRowResult {
  constructor(
    readonly outputs: BatchOutputs,
    readonly row: number,
  ) {}
}

/** The shape facts a block needs, when the model takes blocks at all. */
export interface BlockShape {
  readonly inputs: readonly InputSpec[]
  readonly outputs: readonly OutputSpec[]
  /** The whole shape, for errors worded as a row's (`validateRow`). */
  readonly model: ModelShape
}

/**
 * `shape` when every input and output is numeric with fixed, non-empty row dims (so no
 * padding either, and every batch's outputs have the same row dims); else `undefined`.
 */
export function blockShapeOf(shape: ModelShape): BlockShape | undefined {
  if (shape.keyed) return undefined
  for (const spec of shape.inputs) {
    if (spec.type === 'string' || spec.fixedDims === null || spec.fixedElements === 0 || spec.padding !== null) return undefined
  }
  for (const spec of shape.outputs) {
    if (spec.type === 'string' || spec.unpad.length > 0 || !spec.rowDims.every((d) => 'fixed' in d)) return undefined
  }
  return { inputs: shape.inputs, outputs: shape.outputs, model: shape }
}

function invalid(message: string, details: Record<string, unknown>): InvalidInputError {
  return new InvalidInputError(message, { details })
}

/** The rows a block holds (the first dim its first input declares), checked to be a count. */
function rowsOf(inputs: BlockInput): number {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
    throw invalid(`Expected an object of input tensors by name, got ${typeName(inputs)}`, {})
  }
  for (const name in inputs) {
    const dims = (inputs[name] as { dims?: unknown } | undefined)?.dims
    const rows = Array.isArray(dims) ? (dims[0] as unknown) : undefined
    if (typeof rows !== 'number' || !Number.isInteger(rows) || rows < 0) {
      throw invalid(`Input "${name}" must be { data, dims } with dims starting with the row count, got dims ${JSON.stringify(dims)}`, {
        input: name,
      })
    }
    return rows
  }
  throw invalid('Expected at least one input tensor, got none', {})
}

/**
 * Checks a block against the model and makes its queued rows; throws `InvalidInputError`
 * saying what was expected. Every input of the model, no other, each `{ data, dims }`
 * with `dims` = [rows, ...the model's row dims] and `data` of the model's type.
 */
export function admitBlock(inputs: BlockInput, shape: BlockShape): BlockRow[] {
  const rows = rowsOf(inputs)
  for (const name in inputs) {
    if (!shape.model.inputNames.has(name)) throw asRowError(inputs, rows, shape)
  }
  const data = shape.inputs.map((spec) => {
    const tensor = inputs[spec.name] as BlockInput[string] | null | undefined
    if (tensor === undefined || tensor === null || !(tensor.data instanceof spec.ctor)) throw asRowError(inputs, rows, shape)
    const dims = tensor.dims
    const fixed = spec.fixedDims as readonly number[]
    if (Array.isArray(dims) && dims[0] !== rows) {
      throw invalid(
        `Every input must have the same number of rows (the first of its dims): "${spec.name}" has ${dims[0]}, the first input ${rows}`,
        {
          input: spec.name,
        },
      )
    }
    if (!Array.isArray(dims) || dims.length !== fixed.length + 1 || fixed.some((d, i) => d !== dims[i + 1])) {
      throw asRowError(inputs, rows, shape)
    }
    if (tensor.data.length !== rows * spec.fixedElements) {
      throw invalid(
        `Input "${spec.name}" has ${tensor.data.length} elements, but dims [${dims.join(', ')}] need ${rows * spec.fixedElements}`,
        { input: spec.name, expected: rows * spec.fixedElements, actual: tensor.data.length },
      )
    }
    return tensor.data as TypedArray
  })
  const block = new ValidBlock(data, rows)
  const items = new Array<BlockRow>(rows)
  for (let i = 0; i < rows; i++) items[i] = new BlockRow(block, i)
  return items
}

/**
 * The error a block's first row gets from `validateRow`, so that a block is refused in
 * the very words a row is (the servers answer both forms alike). Every block that
 * `admitBlock` refuses here has a first row that fails the same way.
 */
function asRowError(inputs: BlockInput, rows: number, shape: BlockShape): InvalidInputError {
  const first: RowInput = {}
  for (const name in inputs) {
    const { data, dims } = (inputs[name] as BlockInput[string] | null | undefined) ?? {}
    const perRow = rows > 0 && ArrayBuffer.isView(data) ? (data as TypedArray).length / rows : 0
    first[name] = {
      data:
        ArrayBuffer.isView(data) && Number.isInteger(perRow)
          ? ((data as TypedArray).subarray(0, perRow) as TypedArray)
          : (data as TypedArray),
      dims: Array.isArray(dims) ? dims.slice(1) : (dims as never),
    }
  }
  try {
    validateRow(first, shape.model)
  } catch (error) {
    if (error instanceof InvalidInputError) return error
    throw error
  }
  return invalid(`The block's inputs do not match the model's (${shape.model.expectedList} per row)`, {
    expected: shape.model.expectedList,
  })
}

/**
 * Where the run of block rows starting at `rows[from]` ends: the rows after it that
 * continue it (the same block, the next indices) are packed with it in one copy.
 */
export function blockRunEnd(rows: readonly unknown[], from: number): number {
  const first = rows[from] as BlockRow
  let to = from + 1
  while (to < rows.length) {
    const next = rows[to]
    if (!(next instanceof BlockRow) || next.block !== first.block || next.index !== first.index + (to - from)) break
    to++
  }
  return to
}

/** Input `index` of the block rows `rows[from]` to `rows[to - 1]` (one run: {@link blockRunEnd}), as one view. */
export function blockRunData(rows: readonly unknown[], from: number, to: number, index: number, rowSize: number): TypedArray {
  const first = rows[from] as BlockRow
  const data = first.block.data[index] as Float32Array
  return data.subarray(first.index * rowSize, (first.index + to - from) * rowSize)
}

/**
 * Copies input `index` of `rows[from]` and of the rows after it that continue it into
 * `view` at row `from`; returns the row after the run.
 */
export function packRun(view: TypedArray, rows: readonly unknown[], from: number, index: number, rowSize: number): number {
  const to = blockRunEnd(rows, from)
  ;(view as Float32Array).set(blockRunData(rows, from, to, index, rowSize) as Float32Array, from * rowSize)
  return to
}

/**
 * The block's outputs from its rows' results (in row order): per output, a view of the
 * batch's output buffer when every row ran in one batch, in order; else a copy.
 */
export function joinBlockResults(results: readonly BlockRowResult[], shape: BlockShape): BlockOutput {
  const out: BlockOutput = {}
  const rows = results.length
  for (let o = 0; o < shape.outputs.length; o++) {
    const spec = shape.outputs[o]
    if (rows === 0) {
      // Fixed row dims (`blockShapeOf`): what a batch would have answered.
      out[spec.name] = { type: spec.type, data: new spec.ctor(0), dims: [0, ...spec.rowDims.map((d) => (d as { fixed: number }).fixed)] }
      continue
    }
    const first = results[0]
    const rowDims = first.outputs.rowDims[o]
    const rowSize = first.outputs.rowSizes[o]
    let together = true
    for (let r = 1; r < rows && together; r++) {
      together = results[r].outputs === first.outputs && results[r].row === first.row + r
    }
    let data: TypedArray
    if (together) {
      data = first.outputs.data[o].subarray(first.row * rowSize, (first.row + rows) * rowSize) as TypedArray
    } else {
      data = new spec.ctor(rows * rowSize) as TypedArray
      for (let r = 0; r < rows; r++) {
        const { outputs, row } = results[r]
        // The model declares fixed row dims; a worker that answered others is not trusted.
        const dims = outputs.rowDims[o]
        if (dims.length !== rowDims.length || dims.some((d, i) => d !== rowDims[i])) {
          throw new InferenceError(
            `Output "${spec.name}" came back with row dims [${dims.join(', ')}] from one batch and [${rowDims.join(', ')}] from another`,
            { details: { output: spec.name } },
          )
        }
        ;(data as Float32Array).set((outputs.data[o] as Float32Array).subarray(row * rowSize, (row + 1) * rowSize), r * rowSize)
      }
    }
    out[spec.name] = { type: spec.type, data, dims: [rows, ...rowDims] }
  }
  return out
}
