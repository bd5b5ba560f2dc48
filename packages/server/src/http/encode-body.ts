/**
 * Writes an HTTP inference response body: the outputs (protocol/encode.ts) each as JSON
 * `data`, or as binary tensor data after the JSON header when the request asked for it
 * (see binary.ts).
 *
 * NaN and ±Infinity have no JSON form. Rather than write `null` under a float datatype
 * (a silent wrong answer), an output holding one that was asked for as JSON fails the
 * response with `NonFiniteOutputError`, whose message tells the client to ask for that
 * output as binary data, which carries every value exactly.
 */
import type { BlockOutput, RowOutput, StringData, TensorData, TypedArray } from '@inferpool/host'
import { datatypeInfo, protocolDatatype } from '../protocol/datatypes.js'
import type { RequestedOutput } from '../protocol/decode.js'
import { answerOutput, rawTensorBytes } from '../protocol/encode.js'
import { NonFiniteOutputError } from '../protocol/errors.js'
import { binaryBody } from './binary.js'
import type { BinaryBody } from './binary.js'

/**
 * A response body: JSON text, or a JSON header followed by binary tensors. The JSON text
 * comes in pieces, to be written one after the other: each output's `data` text (some 20
 * KB for 64 rows of 16 floats) is a piece of its own, so it is written as `join` made it
 * instead of being copied into one string twice more (the nesting, then the flattening
 * that measuring or writing a concatenated string does).
 */
export type EncodedResponse =
  { readonly kind: 'json'; readonly pieces: readonly string[] } | { readonly kind: 'binary'; readonly body: BinaryBody }

export function encodeInferResponse(
  modelName: string,
  modelVersion: string,
  id: string | undefined,
  outputs: readonly RequestedOutput[],
  results: readonly RowOutput[] | BlockOutput,
): EncodedResponse {
  const pieces: string[] = []
  const binary: Buffer[] = []
  const idPart = id === undefined ? '' : `"id":${JSON.stringify(id)},`
  // Short text between the data pieces, gathered until the next data piece or the end.
  let glue = `{"model_name":${JSON.stringify(modelName)},"model_version":${JSON.stringify(modelVersion)},${idPart}"outputs":[`
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
