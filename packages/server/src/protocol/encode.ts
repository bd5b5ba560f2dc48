/**
 * The outputs of an Open Inference Protocol inference response: the rows' outputs put
 * back together, in request order, as one tensor per output with the rows as first dim,
 * in as few pieces as possible, and their raw bytes. Both bindings write their
 * responses from these (HTTP: http/encode-body.ts, gRPC: grpc/response.ts).
 */
import type { BlockOutput, RowOutput, StringData, TensorData, TensorType, TypedArray } from '@inferpool/host'
import { encodeStrings } from '@inferpool/worker'
import { OutputShapeMismatchError } from './errors.js'
import { bytesOf } from './tensor-bytes.js'

export function sameDims(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i])
}

/**
 * The raw bytes of one row's output (the binary extension's and gRPC's
 * `raw_output_contents` form): little-endian numbers, a view where the host is
 * little-endian; or BYTES elements, each a 4-byte length and its UTF-8, written by the
 * host↔worker wire contract's `encodeStrings` (the one writer of strings in that form).
 */
export function rawTensorBytes(data: TensorData, isString: boolean): Buffer {
  return isString ? Buffer.from(encodeStrings(data as StringData)) : bytesOf(data as TypedArray)
}

/**
 * One output's data over all rows, as few arrays as possible: the rows' views are
 * merged wherever one row's data starts where the previous one's ended in the same
 * buffer — as a request's rows do when they ran in one batch — so a 64-row response is
 * written from one or two views instead of 64 (fewer objects for the collector, one
 * `join` or one chunk per run). Rows that are copies (cut padding) or strings stay
 * apart. Throws `OutputShapeMismatchError` for a row whose dims differ from the first's.
 */
export function outputRuns(results: readonly RowOutput[], name: string): TensorData[] {
  const rowDims = results[0][name].dims
  const runs: TensorData[] = []
  let run: TypedArray | undefined
  let runEnd = 0
  const flush = (): void => {
    if (run === undefined) return
    const Ctor = run.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => TypedArray
    runs.push(
      runEnd === run.byteOffset + run.byteLength
        ? run
        : new Ctor(run.buffer, run.byteOffset, (runEnd - run.byteOffset) / run.BYTES_PER_ELEMENT),
    )
    run = undefined
  }
  for (let r = 0; r < results.length; r++) {
    const tensor = results[r][name]
    if (r > 0 && !sameDims(rowDims, tensor.dims)) throw new OutputShapeMismatchError(name, rowDims, tensor.dims, r)
    const data = tensor.data
    if (Array.isArray(data)) {
      flush()
      runs.push(data)
      continue
    }
    const view = data as TypedArray
    if (run !== undefined && view.buffer === run.buffer && view.byteOffset === runEnd && view.constructor === run.constructor) {
      runEnd += view.byteLength
      continue
    }
    flush()
    run = view
    runEnd = view.byteOffset + view.byteLength
  }
  flush()
  return runs
}

/**
 * One output of an answer — the rows' outputs (`inferMany`) or a block's (`inferBlock`) —
 * as its type, its shape (rows first) and its data in as few arrays as possible
 * (`outputRuns`). Both protocols' encoders read answers through this.
 */
export function answerOutput(
  results: readonly RowOutput[] | BlockOutput,
  name: string,
): { type: TensorType; shape: number[]; runs: TensorData[] } {
  if (!Array.isArray(results)) {
    const tensor = (results as BlockOutput)[name]
    return { type: tensor.type, shape: tensor.dims, runs: [tensor.data] }
  }
  const rows = results as readonly RowOutput[]
  const first = rows[0][name]
  return { type: first.type, shape: [rows.length, ...first.dims], runs: outputRuns(rows, name) }
}
