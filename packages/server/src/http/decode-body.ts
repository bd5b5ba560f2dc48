/**
 * An HTTP inference request body, in each of the binding's forms, to the protocol's
 * decoder (protocol/decode.ts): a JSON body, a JSON header followed by binary tensor
 * data (binary.ts), or the raw binary form.
 */
import type { PoolMetadata } from '@inferpool/host'
import { binaryTensor, DecodedRequest, decodeInferFields } from '../protocol/decode.js'
import type { DecodedInferRequest, DecodeLimits } from '../protocol/decode.js'
import { datatypeInfo } from '../protocol/datatypes.js'
import { MalformedBinaryError } from '../protocol/errors.js'
import { invalidInput } from '../protocol/invalid-input.js'
import { BinaryTail, readBinaryHeader } from './binary.js'
import { parseJson } from './body.js'
import { NOT_PARSED, parseJsonNumbers } from './json-numbers.js'

/**
 * Decodes a request body. `headerLength` is the `Inference-Header-Content-Length`
 * (already checked against the body): `undefined` for a JSON body, 0 for the raw binary
 * form, else the length of the JSON header before the binary tensor data. `header` is
 * that JSON header when it was already parsed (`readBinaryHeader`: the server reads it
 * before admission), so it is parsed once.
 */
export function decodeInferRequest(
  body: Buffer,
  headerLength: number | undefined,
  metadata: PoolMetadata,
  limits: DecodeLimits,
  header?: unknown,
): DecodedInferRequest {
  if (headerLength === 0) return decodeRawRequest(body, metadata)
  if (headerLength === undefined) return decodeInferFields(parseJsonBody(body), undefined, metadata, limits)
  const tail = new BinaryTail(body.subarray(headerLength))
  return decodeInferFields(header ?? readBinaryHeader(body, headerLength), tail, metadata, limits)
}

/**
 * A JSON body's value: through json-numbers.ts (arrays of numbers as `Float64Array`s), or
 * the standard path (`TextDecoder` + `JSON.parse`, and its errors) when that gives up.
 * Whatever the body's size: the number reader makes no string of the body and no boxed
 * number per element, and takes the request's short strings from its table, so it is the
 * cheaper one from a single row up (bench/scripts/json-crossover.mjs measures both per
 * body size; a single-row body of the demo model, 2 KB: about 5.4 µs against 13.5).
 */
export function parseJsonBody(body: Buffer): unknown {
  const value = parseJsonNumbers(body)
  return value === NOT_PARSED ? parseJson(body) : value
}

/**
 * The raw binary form (`Inference-Header-Content-Length: 0`): the body is the data of
 * the model's only input, as one row. Its row dims follow from the byte count, so the
 * model may have at most one dynamic row axis. Every output is returned as binary.
 */
function decodeRawRequest(body: Buffer, metadata: PoolMetadata): DecodedInferRequest {
  if (metadata.inputs.length !== 1) {
    throw invalidInput(
      `The raw binary form (Inference-Header-Content-Length: 0) needs a model with exactly one input; this model has ${metadata.inputs.length}`,
    )
  }
  const info = metadata.inputs[0]
  if (info.type === 'string') {
    throw invalidInput(`The raw binary form cannot carry BYTES input "${info.name}": send a JSON header with parameters.binary_data_size`, {
      input: info.name,
    })
  }
  const { create, protocol } = datatypeInfo(info.type)
  const rowDims = info.dims.slice(1).map((d) => (typeof d === 'number' && d >= 0 ? d : -1))
  const dynamic = rowDims.filter((d) => d === -1).length
  if (dynamic > 1) {
    throw invalidInput(
      `The raw binary form cannot deduce the shape of input "${info.name}" [${rowDims.join(', ')}]: it has ${dynamic} dynamic axes (at most 1)`,
      { input: info.name },
    )
  }
  const fixedElements = rowDims.reduce((n, d) => (d === -1 ? n : n * d), 1)
  const rowBytes = fixedElements * create.BYTES_PER_ELEMENT
  if (body.length === 0 || body.length % rowBytes !== 0 || (dynamic === 0 && body.length !== rowBytes)) {
    const needs = dynamic === 0 ? `exactly ${rowBytes} bytes` : `a positive multiple of ${rowBytes} bytes`
    throw new MalformedBinaryError(
      `input "${info.name}" [${rowDims.join(', ')}] of ${protocol} needs ${needs}, the body has ${body.length}`,
      {
        input: info.name,
      },
    )
  }
  const dims = rowDims.map((d) => (d === -1 ? body.length / rowBytes : d))
  const elements = body.length / create.BYTES_PER_ELEMENT
  const data = binaryTensor(info, [1, ...dims], elements, body)
  return new DecodedRequest(
    undefined,
    [{ name: info.name, shape: [1, ...dims], data }],
    metadata.outputs.map((output) => ({ name: output.name, binary: true })),
  )
}
