/**
 * A `ModelInferResponse` from the rows' outputs: per output, one tensor with the rows
 * as first dim, its elements in `raw_output_contents` (little-endian, row-major), as
 * Triton's own gRPC endpoint answers (BYTES: each element a 4-byte length and its
 * bytes). Rows' data are views into their batch's output buffer; they are copied once,
 * into the tensor's bytes.
 */
import type { inference } from '../../generated/inference.js'
import type { BlockOutput, RowOutput } from '@inferpool/host'
import { protocolDatatype } from '../protocol/datatypes.js'
import { answerOutput, rawTensorBytes } from '../protocol/encode.js'

export function inferResponse(
  modelName: string,
  modelVersion: string,
  id: string | undefined,
  outputNames: readonly string[],
  results: readonly RowOutput[] | BlockOutput,
): inference.ModelInferResponse.$Properties {
  const outputs: inference.ModelInferResponse.InferOutputTensor.$Properties[] = []
  const raw: Uint8Array[] = []
  for (const name of outputNames) {
    const { type, shape, runs } = answerOutput(results, name)
    const chunks = runs.map((data) => rawTensorBytes(data, type === 'string'))
    // One run (one row, a block, or rows that ran together): its bytes, a view into its
    // batch's output buffer, are encoded as they are.
    raw.push(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
    outputs.push({ name, datatype: protocolDatatype(type), shape })
  }
  return { model_name: modelName, model_version: modelVersion, id: id ?? '', outputs, raw_output_contents: raw }
}
