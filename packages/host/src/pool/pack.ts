/**
 * Batch transport on the host side. For worker threads, packing copies each row's data
 * into one contiguous ArrayBuffer per input — its own buffer per batch, never a view over
 * Node's shared Buffer slab (which Node 20 would silently clone instead of
 * transferring) — so the whole batch moves to the worker without another copy. For
 * replica processes, a batch is its rows' own arrays ({@link pieceBatch}), which the
 * transport writes straight into the transfer file: no batch buffer on the host.
 * Unpacking hands each caller views into the output buffers the replica sent back.
 */
import { BatchSizeMismatchError } from '@inferpool/core'
import { decodeStrings, encodeStrings, uninitializedArrayBuffer } from '@inferpool/worker'
import type { TensorBatch, TensorPieces, WireTensor } from '@inferpool/worker'
import { InferenceError } from '../errors.js'
import type { OutputTensor, RowOutput, StringData, TypedArray } from '../types.js'
import type { InputSpec, ModelShape, OutputSpec } from './model-shape.js'
import type { ValidRow } from './validate-input.js'
import { BatchOutputs, BlockRow, BlockRowResult, blockRunData, blockRunEnd, packRun } from './block.js'

/** A row of a batch: validated alone, or a row of a block (block.ts). */
export type PackedRow = ValidRow | BlockRow

export interface PackedBatch {
  batch: TensorBatch
  /** The buffers to transfer (one per input). */
  transfer: ArrayBuffer[]
}

/** `value` as an element of a `ctor` array: 64-bit integer arrays take bigints only. */
function elementOf(ctor: InputSpec['ctor'], value: number | bigint): number | bigint {
  return ctor === BigInt64Array || ctor === BigUint64Array ? BigInt(value) : Number(value)
}

const product = (dims: readonly number[]): number => {
  let n = 1
  for (let i = 0; i < dims.length; i++) n *= dims[i]
  return n
}

function rowDimsInBatch(spec: InputSpec, index: number, rows: readonly PackedRow[]): number[] {
  const first = rows[0]
  // A block's model has fixed row dims and no padding (block.ts `blockShapeOf`).
  if (first instanceof BlockRow) return [...(spec.fixedDims as readonly number[])]
  const dims = [...first.tensors[index].dims]
  if (spec.padding) {
    let longest = 0
    for (const row of rows as readonly ValidRow[]) longest = Math.max(longest, row.tensors[index].dims[spec.padding.axis])
    dims[spec.padding.axis] = longest
  }
  return dims
}

/** Copies `src` (row dims `srcDims`) into `dst` at `offset`, laid out with the (padded) `dstDims`. */
function copyPadded(dst: TypedArray, offset: number, src: TypedArray, srcDims: readonly number[], dstDims: number[], axis: number): void {
  if (srcDims[axis] === dstDims[axis]) {
    ;(dst as Float32Array).set(src as Float32Array, offset)
    return
  }
  const outer = product(srcDims.slice(0, axis))
  const inner = product(srcDims.slice(axis + 1))
  const srcChunk = srcDims[axis] * inner
  const dstChunk = dstDims[axis] * inner
  for (let o = 0; o < outer; o++) {
    ;(dst as Float32Array).set((src as Float32Array).subarray(o * srcChunk, (o + 1) * srcChunk), offset + o * dstChunk)
  }
}

/** Input `index` of `rows` packed into one buffer of `batchRows` rows of `rowDims` (padded, filled). */
function packInput(spec: InputSpec, index: number, rows: readonly PackedRow[], rowDims: readonly number[], batchRows: number): ArrayBuffer {
  const rowSize = product(rowDims)
  if (spec.type === 'string') {
    // Strings travel as one buffer in the BYTES wire form; fill rows are empty strings.
    const strings: string[] = []
    // String inputs never come in blocks.
    for (let r = 0; r < rows.length; r++)
      for (const element of (rows[r] as ValidRow).tensors[index].data as StringData) strings.push(element)
    for (let n = rows.length * rowSize; n < batchRows * rowSize; n++) strings.push('')
    return encodeStrings(strings)
  }
  const Ctor = spec.ctor
  // Every byte is written below before the batch is sent.
  const buffer = uninitializedArrayBuffer(rowSize * batchRows * Ctor.BYTES_PER_ELEMENT)
  const view = new Ctor(buffer) as TypedArray
  const pad = spec.padding
  if (pad) {
    // Padding is every element a row's data does not cover: fill the callers' rows first.
    ;(view as Float32Array).fill(elementOf(spec.ctor, pad.value) as number, 0, rowSize * rows.length)
    // Padded inputs never come in blocks.
    for (let r = 0; r < rows.length; r++) {
      const { data, dims } = (rows[r] as ValidRow).tensors[index]
      copyPadded(view, r * rowSize, data as TypedArray, dims, rowDims as number[], pad.axis)
    }
  } else {
    // The one copy of a row's data on its way to the worker; a block's consecutive
    // rows in one copy.
    for (let r = 0; r < rows.length;) {
      const row = rows[r]
      if (row instanceof BlockRow) {
        r = packRun(view, rows, r, index, rowSize)
      } else {
        ;(view as Float32Array).set(row.tensors[index].data as Float32Array, r * rowSize)
        r++
      }
    }
  }
  // Fill rows of a fixed batch size are zeros.
  if (batchRows > rows.length) (view as Float32Array).fill(elementOf(Ctor, 0) as number, rowSize * rows.length)
  return buffer
}

/**
 * Packs validated rows into one tensor per input. `batchRows` may exceed the number
 * of rows for a model with a fixed batch size > 1: the extra rows are zeros and
 * their outputs are dropped.
 */
export function packBatch(rows: readonly PackedRow[], shape: ModelShape, batchRows = rows.length): PackedBatch {
  const inputs: Record<string, WireTensor> = {}
  const transfer: ArrayBuffer[] = []
  for (let index = 0; index < shape.inputs.length; index++) {
    const spec = shape.inputs[index]
    const rowDims = rowDimsInBatch(spec, index, rows)
    const buffer = packInput(spec, index, rows, rowDims, batchRows)
    inputs[spec.name] = { type: spec.type, dims: [batchRows, ...rowDims], buffer }
    transfer.push(buffer)
  }
  return { batch: { rows: batchRows, inputs }, transfer }
}

/**
 * A batch as the pieces of each input, in the model's input order: what process mode's
 * transport writes straight into a replica's transfer file in one `writev`
 * (@inferpool/worker `writeTensorTask`). The replica reads it as a {@link TensorBatch}.
 */
export class BatchPieces {
  constructor(
    /** Rows in the batch, fill rows included (the first dim of every input). */
    readonly rows: number,
    readonly inputs: readonly TensorPieces[],
  ) {}
}

/**
 * The batch of {@link packBatch} without packing it: each row's data is one piece (the
 * caller's own array, not copied), a block's consecutive rows one piece, the fill rows of
 * a fixed batch size one piece of zeros. Only an input that needs its bytes rearranged
 * (padded, or strings) is packed, into a buffer of its own.
 */
export function pieceBatch(rows: readonly PackedRow[], shape: ModelShape, batchRows = rows.length): BatchPieces {
  const inputs = new Array<TensorPieces>(shape.inputs.length)
  for (let index = 0; index < shape.inputs.length; index++) {
    const spec = shape.inputs[index]
    const rowDims = rowDimsInBatch(spec, index, rows)
    const dims = [batchRows, ...rowDims]
    if (spec.type === 'string' || spec.padding) {
      const buffer = packInput(spec, index, rows, rowDims, batchRows)
      inputs[index] = { name: spec.name, type: spec.type, dims, pieces: [new Uint8Array(buffer)], byteLength: buffer.byteLength }
      continue
    }
    const rowSize = product(rowDims)
    const pieces: ArrayBufferView[] = []
    for (let r = 0; r < rows.length;) {
      const row = rows[r]
      if (row instanceof BlockRow) {
        const to = blockRunEnd(rows, r)
        pieces.push(blockRunData(rows, r, to, index, rowSize))
        r = to
      } else {
        // Validated as exactly `rowSize` elements of this input's array type (validate-input.ts).
        pieces.push(row.tensors[index].data as TypedArray)
        r++
      }
    }
    const rowBytes = rowSize * spec.ctor.BYTES_PER_ELEMENT
    // Fill rows of a fixed batch size: zero bytes are 0 in every numeric type (0n, +0.0, float16 +0).
    if (batchRows > rows.length) pieces.push(new Uint8Array(rowBytes * (batchRows - rows.length)))
    inputs[index] = { name: spec.name, type: spec.type, dims, pieces, byteLength: rowBytes * batchRows }
  }
  return new BatchPieces(batchRows, inputs)
}

function cutAxis(data: TypedArray, dims: number[], axis: number, length: number): { data: TypedArray; dims: number[] } {
  if (dims[axis] === length) return { data, dims }
  const outer = product(dims.slice(0, axis))
  const inner = product(dims.slice(axis + 1))
  const newDims = [...dims]
  newDims[axis] = length
  // The leading axis cuts to a prefix: keep a view. Any other axis needs a copy.
  if (outer === 1) return { data: data.subarray(0, length * inner) as TypedArray, dims: newDims }
  const Ctor = data.constructor as new (n: number) => TypedArray
  const out = new Ctor(outer * length * inner)
  for (let o = 0; o < outer; o++) {
    ;(out as Float32Array).set(
      (data as Float32Array).subarray(o * dims[axis] * inner, o * dims[axis] * inner + length * inner),
      o * length * inner,
    )
  }
  return { data: out, dims: newDims }
}

/** A row's view of one output: the output's data for row `r`, cut back where padded. */
function rowOutput(
  spec: OutputSpec,
  buffer: ArrayBuffer | StringData,
  rowDims: readonly number[],
  rowSize: number,
  r: number,
  row: ValidRow,
): OutputTensor {
  // A string output's rows are slices of the batch's decoded strings (never padded: see model-shape.ts).
  if (Array.isArray(buffer)) return { type: spec.type, data: buffer.slice(r * rowSize, (r + 1) * rowSize), dims: rowDims.slice() }
  const Ctor = spec.ctor
  let data = new Ctor(buffer, r * rowSize * Ctor.BYTES_PER_ELEMENT, rowSize) as TypedArray
  // Each row gets its own dims array: a caller may change it, and others must not see that.
  let dims = rowDims.slice()
  for (const { axis, lengthOf } of spec.unpad) {
    const length = row.lengths.get(lengthOf)
    if (length === undefined || axis >= dims.length) continue
    ;({ data, dims } = cutAxis(data, dims, axis, length))
  }
  return { type: spec.type, data, dims }
}

/**
 * Validates a batch's outputs (every output present, of the model's type, with its
 * first dim equal to the rows sent) and splits them into one `RowOutput` per row.
 * Each row's data is a view into the batch's transferred output buffer. A block's row
 * gets a `BlockRowResult` instead (block.ts): its index in the batch's outputs, shared.
 */
export function unpackOutputs(
  outputs: Record<string, WireTensor> | undefined,
  rows: readonly ValidRow[],
  shape: ModelShape,
  batchRows?: number,
): RowOutput[]
export function unpackOutputs(
  outputs: Record<string, WireTensor> | undefined,
  rows: readonly PackedRow[],
  shape: ModelShape,
  batchRows?: number,
): Array<RowOutput | BlockRowResult>
export function unpackOutputs(
  outputs: Record<string, WireTensor> | undefined,
  rows: readonly PackedRow[],
  shape: ModelShape,
  batchRows = rows.length,
): Array<RowOutput | BlockRowResult> {
  if (typeof outputs !== 'object' || outputs === null) {
    throw new InferenceError('The worker returned no outputs for the batch')
  }
  const specs = shape.outputs
  // Per output, once per batch: its buffer, row dims and row size.
  const buffers: Array<ArrayBuffer | StringData> = []
  const rowDims: number[][] = []
  const rowSizes: number[] = []
  for (const spec of specs) {
    const wire = outputs[spec.name]
    if (!wire) throw new InferenceError(`The worker returned no output "${spec.name}"`, { details: { output: spec.name } })
    if (wire.dims[0] !== batchRows) {
      throw new BatchSizeMismatchError(batchRows, wire.dims[0], `rows in output "${spec.name}"`)
    }
    const elements = product(wire.dims)
    if (spec.type === 'string' && wire.type === 'string') {
      const strings = decodeStrings(wire.buffer)
      if (strings.length !== elements) {
        throw new InferenceError(
          `The worker returned output "${spec.name}" with ${strings.length} strings for dims [${wire.dims.join(', ')}]`,
          {
            details: { output: spec.name },
          },
        )
      }
      const dims = wire.dims.slice(1)
      buffers.push(strings)
      rowDims.push(dims)
      rowSizes.push(product(dims))
      continue
    }
    if (wire.type !== spec.type || wire.buffer.byteLength !== elements * spec.ctor.BYTES_PER_ELEMENT) {
      throw new InferenceError(
        `The worker returned output "${spec.name}" as ${wire.type} [${wire.dims.join(', ')}] in ${wire.buffer.byteLength} bytes; the model declares ${spec.type}`,
        {
          details: { output: spec.name },
        },
      )
    }
    const dims = wire.dims.slice(1)
    buffers.push(wire.buffer)
    rowDims.push(dims)
    rowSizes.push(product(dims))
  }
  const results = new Array<RowOutput | BlockRowResult>(rows.length)
  // Made once, for the batch's block rows: every output as one array (all numeric then).
  let shared: BatchOutputs | undefined
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]
    if (row instanceof BlockRow) {
      shared ??= new BatchOutputs(
        specs.map((spec, o) => new spec.ctor(buffers[o] as ArrayBuffer) as TypedArray),
        rowDims,
        rowSizes,
      )
      results[r] = new BlockRowResult(shared, r)
      continue
    }
    const out: RowOutput = {}
    for (let o = 0; o < specs.length; o++) out[specs[o].name] = rowOutput(specs[o], buffers[o], rowDims[o], rowSizes[o], r, row)
    results[r] = out
  }
  return results
}
