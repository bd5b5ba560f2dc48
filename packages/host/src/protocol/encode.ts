/**
 * Writes an Open Inference Protocol inference response: the rows' outputs put back
 * together, in request order, as one tensor per output with the rows as first dim —
 * each as JSON `data`, or as binary tensor data after the JSON header when the request
 * asked for it (see binary.ts).
 *
 * NaN and ±Infinity have no JSON form. Rather than write `null` under a float datatype
 * (a silent wrong answer), an output holding one that was asked for as JSON fails the
 * response with `NonFiniteOutputError`, whose message tells the client to ask for that
 * output as binary data, which carries every value exactly.
 */
import type { BlockOutput, RowOutput, StringData, TensorData, TensorType, TypedArray } from '../types.js'
import { encodeStrings } from '@inferpool/worker'
import { binaryBody, bytesOf } from './binary.js'
import type { BinaryBody } from './binary.js'
import { datatypeInfo, protocolDatatype } from './datatypes.js'
import type { RequestedOutput } from './decode.js'
import { NonFiniteOutputError, OutputShapeMismatchError } from './errors.js'
import { MODEL_VERSION } from './metadata.js'

/**
 * A response body: JSON text, or a JSON header followed by binary tensors. The JSON text
 * comes in pieces, to be written one after the other: each output's `data` text (some 20
 * KB for 64 rows of 16 floats) is a piece of its own, so it is written as `join` made it
 * instead of being copied into one string twice more (the nesting, then the flattening
 * that measuring or writing a concatenated string does).
 */
export type EncodedResponse =
  { readonly kind: 'json'; readonly pieces: readonly string[] } | { readonly kind: 'binary'; readonly body: BinaryBody }

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

export function encodeInferResponse(
  modelName: string,
  id: string | undefined,
  outputs: readonly RequestedOutput[],
  results: readonly RowOutput[] | BlockOutput,
): EncodedResponse {
  const pieces: string[] = []
  const binary: Buffer[] = []
  const idPart = id === undefined ? '' : `"id":${JSON.stringify(id)},`
  // Short text between the data pieces, gathered until the next data piece or the end.
  let glue = `{"model_name":${JSON.stringify(modelName)},"model_version":"${MODEL_VERSION}",${idPart}"outputs":[`
  for (let o = 0; o < outputs.length; o++) {
    const { name, binary: asBinary } = outputs[o]
    const { type, shape, runs } = answerOutput(results, name)
    const numeric = type === 'string' ? undefined : datatypeInfo(type)
    // JSON text of a row's elements (strings quoted and escaped); `undefined` if one has no JSON form.
    const json = (data: TensorData): string | undefined =>
      numeric ? numeric.json(data as TypedArray) : (data as StringData).map((e) => JSON.stringify(e)).join(',')
    // Raw bytes of a row's elements: little-endian numbers, or BYTES elements (4-byte length + UTF-8).
    const raw = (data: TensorData): Buffer => rawTensorBytes(data, numeric === undefined)
    const texts: string[] = []
    let bytes = 0
    for (const data of runs) {
      if (asBinary) {
        // Rows' outputs are views into their batch's output buffer: written as they are.
        const chunk = raw(data)
        bytes += chunk.length
        binary.push(chunk)
        continue
      }
      const text = json(data)
      if (text === undefined) throw new NonFiniteOutputError(name)
      if (text.length > 0) texts.push(text)
    }
    if (o > 0) glue += ','
    glue += `{"name":${JSON.stringify(name)},"datatype":"${protocolDatatype(type)}","shape":${JSON.stringify(shape)}`
    if (asBinary) {
      glue += `,"parameters":{"binary_data_size":${bytes}}}`
      continue
    }
    glue += ',"data":['
    for (let t = 0; t < texts.length; t++) {
      if (t > 0) glue += ','
      pieces.push(glue, texts[t])
      glue = ''
    }
    glue += ']}'
  }
  pieces.push(glue + ']}')
  return outputs.some((o) => o.binary) ? { kind: 'binary', body: binaryBody(pieces.join(''), binary) } : { kind: 'json', pieces }
}
