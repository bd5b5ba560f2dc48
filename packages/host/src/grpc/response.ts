/**
 * A `ModelInferResponse` from the rows' outputs: per output, one tensor with the rows
 * as first dim, its elements in `raw_output_contents` (little-endian, row-major), as
 * Triton's own gRPC endpoint answers. Rows' data are views into their batch's output
 * buffer; they are copied once, into the tensor's bytes.
 */
import type { inference } from '../../generated/inference.js'
import type { RowOutput } from '../types.js'
import { protocolDatatype } from '../server/datatypes.js'
import { MODEL_VERSION } from '../server/encode.js'
import { OutputShapeMismatchError } from '../server/errors.js'

function sameDims(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i])
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
}

export function inferResponse(
  modelName: string,
  id: string | undefined,
  outputNames: readonly string[],
  results: readonly RowOutput[],
): inference.ModelInferResponse.$Properties {
  const outputs: inference.ModelInferResponse.InferOutputTensor.$Properties[] = []
  const raw: Uint8Array[] = []
  for (const name of outputNames) {
    const first = results[0][name]
    const rowDims = first.dims
    if (results.length === 1) {
      // One row: its view is written by the encoder as is, no copy here.
      raw.push(bytesOf(first.data))
    } else {
      let length = 0
      for (let r = 0; r < results.length; r++) {
        const tensor = results[r][name]
        if (r > 0 && !sameDims(rowDims, tensor.dims)) throw new OutputShapeMismatchError(name, rowDims, tensor.dims, r)
        length += tensor.data.byteLength
      }
      const bytes = Buffer.allocUnsafe(length)
      let offset = 0
      for (const row of results) {
        bytes.set(bytesOf(row[name].data), offset)
        offset += row[name].data.byteLength
      }
      raw.push(bytes)
    }
    outputs.push({ name, datatype: protocolDatatype(first.type), shape: [results.length, ...rowDims] })
  }
  return { model_name: modelName, model_version: MODEL_VERSION, id: id ?? '', outputs, raw_output_contents: raw }
}
