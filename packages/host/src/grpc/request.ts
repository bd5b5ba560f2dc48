/**
 * A decoded `ModelInferRequest` in the shape `decodeInferRequest` reads, so gRPC and
 * HTTP requests are checked by the same code with the same messages. Only the framing
 * that belongs to gRPC is checked here: where each input's elements are (the raw
 * bytes or the typed field of its datatype), and that 64-bit numbers are exact.
 */
import type Long from 'long'
import type { inference } from '../../generated/inference.js'
import { invalidInput } from '../server/invalid-input.js'

type InputTensor = inference.ModelInferRequest.InferInputTensor.$Properties
type Contents = inference.InferTensorContents.$Properties

/** The field of `InferTensorContents` that holds each datatype's elements. */
const CONTENTS_FIELD: Readonly<Record<string, keyof Contents>> = {
  BOOL: 'bool_contents',
  INT8: 'int_contents',
  INT16: 'int_contents',
  INT32: 'int_contents',
  INT64: 'int64_contents',
  UINT8: 'uint_contents',
  UINT16: 'uint_contents',
  UINT32: 'uint_contents',
  UINT64: 'uint64_contents',
  FP32: 'fp32_contents',
  FP64: 'fp64_contents',
  BYTES: 'bytes_contents',
}

const CONTENTS_FIELDS = [...new Set(Object.values(CONTENTS_FIELD))]

/**
 * A 64-bit integer as a number. protobufjs decodes 64-bit fields to `Long` objects; a
 * value past 2^53 becomes a number of at least 2^53, never a safe integer, so the
 * checks downstream (shape dims, INT64 elements) refuse it rather than round it.
 */
function toNumber(value: number | Long): number {
  return typeof value === 'number' ? value : value.toNumber()
}

/** The JSON-shaped request `decodeInferRequest` takes. */
export function toProtocolRequest(request: inference.ModelInferRequest): unknown {
  const raw = request.raw_input_contents
  const inputs = request.inputs
  if (raw.length > 0 && raw.length !== inputs.length) {
    throw invalidInput(
      `'raw_input_contents' must hold one entry per input: the request has ${inputs.length} input(s) and ${raw.length} raw entries`,
    )
  }
  return {
    id: request.id === '' ? undefined : request.id,
    inputs: inputs.map((input, i) => ({
      name: input.name,
      datatype: input.datatype,
      shape: (input.shape ?? []).map(toNumber),
      data: raw.length > 0 ? rawData(input, raw[i]) : typedData(input),
    })),
    // No requested outputs means every output, as in JSON.
    outputs: request.outputs.length === 0 ? undefined : request.outputs.map((output) => ({ name: output.name })),
  }
}

function rawData(input: InputTensor, bytes: Uint8Array): Uint8Array {
  if (hasContents(input.contents)) {
    throw invalidInput(`Input '${input.name}' has 'contents' while the request uses 'raw_input_contents'; use one form only`, {
      input: input.name,
    })
  }
  return bytes
}

function typedData(input: InputTensor): readonly unknown[] {
  const contents = input.contents ?? {}
  const field = CONTENTS_FIELD[input.datatype ?? '']
  for (const other of CONTENTS_FIELDS) {
    if (other !== field && (contents[other]?.length ?? 0) > 0) {
      const where = field === undefined ? '' : `; ${input.datatype} elements go in '${field}'`
      throw invalidInput(`Input '${input.name}' has its elements in 'contents.${other}'${where}`, { input: input.name })
    }
  }
  // An unknown datatype has no field: an empty `data` lets decodeInferRequest name the
  // datatype problem, as it does for JSON.
  if (field === undefined) return []
  const elements = (contents[field] ?? []) as ReadonlyArray<number | boolean | Long | Uint8Array>
  if (field === 'int64_contents' || field === 'uint64_contents') {
    return elements.map((value) => toNumber(value as number | Long))
  }
  return elements
}

function hasContents(contents: Contents | null | undefined): boolean {
  return contents != null && CONTENTS_FIELDS.some((field) => (contents[field]?.length ?? 0) > 0)
}
