/**
 * A decoded `ModelInferRequest` mapped onto the protocol's object form and handed to
 * the server's own decoder (`decodeInferFields`), so gRPC and HTTP requests are
 * checked by the same code with the same messages: typed `contents` become an input's
 * `data`, `raw_input_contents` its binary tensor bytes (views into the received
 * message, copied only when misaligned). Only what belongs to gRPC's framing is checked
 * here: one raw entry per input, contents in the field of their datatype, one form per
 * request.
 */
import { mostDeclaredRows } from '../protocol/declared-rows.js'
import type { DeclaredRows } from '../protocol/declared-rows.js'
import type Long from 'long'
import type { inference } from '../../generated/inference.js'
import { writeBytesElements } from '../protocol/tensor-bytes.js'
import { GRPC_CONTENTS_FIELDS, grpcContentsField } from '../protocol/datatypes.js'
import { decodeInferFields } from '../protocol/decode.js'
import type { DecodeLimits, DecodedInferRequest, TensorBytesSource } from '../protocol/decode.js'
import { invalidInput } from '../protocol/invalid-input.js'
import type { PoolMetadata } from '@inferpool/host'

type InputTensor = inference.ModelInferRequest.InferInputTensor.$Properties
type Contents = inference.InferTensorContents.$Properties

/**
 * A 64-bit integer as a number. protobufjs decodes 64-bit fields to `Long` objects; a
 * value past 2^53 becomes a number of at least 2^53, never a safe integer, so the
 * checks downstream (shape dims, INT64 elements) refuse it rather than round it.
 */
function toNumber(value: number | Long): number {
  return typeof value === 'number' ? value : value.toNumber()
}

/**
 * The rows a request's inputs declare (protocol/declared-rows.ts), read before the
 * contents are decoded so the door can count the request as it is, as HTTP does with a
 * binary request's JSON header.
 */
export function declaredRowsOf(request: inference.ModelInferRequest): DeclaredRows | undefined {
  return mostDeclaredRows(request.inputs)
}

/** Decodes and checks a ModelInferRequest against the model, as HTTP requests are. */
export function decodeGrpcInferRequest(
  request: inference.ModelInferRequest,
  metadata: PoolMetadata,
  limits: DecodeLimits,
): DecodedInferRequest {
  const raw = request.raw_input_contents
  const inputs = request.inputs
  if (raw.length > 0 && raw.length !== inputs.length) {
    throw invalidInput(
      `'raw_input_contents' must hold one entry per input: the request has ${inputs.length} input(s) and ${raw.length} raw entries`,
    )
  }
  // Inputs whose bytes the decoder reads as binary tensors, by input name: every input
  // in the raw form, and BYTES given as typed `bytes_contents` (framed as in the raw
  // form, so one path checks BYTES elements whichever way they came).
  const binary = new Map<string, { bytes: Buffer; label: string }>()
  const asBinary = (input: InputTensor, shape: number[], bytes: Buffer, label: string): object => {
    binary.set(input.name ?? '', { bytes, label })
    return { name: input.name, datatype: input.datatype, shape, parameters: { binary_data_size: bytes.length } }
  }
  const fields = {
    id: request.id === '' ? undefined : request.id,
    inputs: inputs.map((input, i) => {
      const shape = (input.shape ?? []).map(toNumber)
      if (raw.length > 0) {
        if (hasContents(input.contents)) {
          throw invalidInput(`Input "${input.name}" has 'contents' while the request uses 'raw_input_contents'; use one form only`, {
            input: input.name,
          })
        }
        return asBinary(input, shape, bufferOf(raw[i]), `raw_input_contents[${i}]`)
      }
      const data = typedData(input)
      if (input.datatype === 'BYTES') {
        return asBinary(input, shape, writeBytesElements(data as Uint8Array[]), "the framed 'contents.bytes_contents'")
      }
      return { name: input.name, datatype: input.datatype, shape, data }
    }),
    // No requested outputs means every output, as in JSON; gRPC answers every output raw.
    outputs: request.outputs.length === 0 ? undefined : request.outputs.map((output) => ({ name: output.name })),
    parameters: requestParameters(request.parameters),
  }
  const source: TensorBytesSource = {
    take: (input) => binary.get(input)?.bytes ?? Buffer.alloc(0),
    // Every binary entry belongs to an input (the count was checked above).
    finish: () => {},
    sizeName: (input) => binary.get(input)?.label ?? 'binary_data_size',
  }
  return decodeInferFields(fields, binary.size > 0 ? source : undefined, metadata, limits)
}

/**
 * The request-level parameters the decoder reads, in their JSON form: Triton's
 * schedule-policy `timeout` (µs) and `priority` (a level, 1 the highest), which
 * Triton's clients send as int64 (or uint64) parameters. Another kind of value is
 * passed on as it is, for the decoder to refuse with the same message as over HTTP.
 */
function requestParameters(
  parameters: inference.ModelInferRequest.$Properties['parameters'],
): { timeout?: unknown; priority?: unknown } | undefined {
  if (parameters === undefined || parameters === null) return undefined
  const timeout = parameterValue(parameters.timeout)
  const priority = parameterValue(parameters.priority)
  if (timeout === undefined && priority === undefined) return undefined
  return { timeout, priority }
}

/** One `InferParameter`'s value: int64/uint64 as a number, another choice as it is. */
function parameterValue(parameter: inference.InferParameter.$Properties | null | undefined): unknown {
  if (parameter === undefined || parameter === null) return undefined
  const choice = (parameter as { parameter_choice?: keyof inference.InferParameter.$Properties }).parameter_choice
  if (choice === undefined) return undefined
  const value = parameter[choice]
  return choice === 'int64_param' || choice === 'uint64_param' ? toNumber(value as number | Long) : value
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

function typedData(input: InputTensor): readonly unknown[] {
  const contents = input.contents ?? {}
  const field = grpcContentsField(input.datatype ?? '')
  for (const other of GRPC_CONTENTS_FIELDS) {
    if (other !== field && (contents[other]?.length ?? 0) > 0) {
      const where = field === undefined ? '' : `; ${input.datatype} elements go in '${field}'`
      throw invalidInput(`Input "${input.name}" has its elements in 'contents.${other}'${where}`, { input: input.name })
    }
  }
  if (input.datatype === 'FP16') {
    throw invalidInput(`Input "${input.name}": FP16 has no typed contents field; send it in 'raw_input_contents'`, { input: input.name })
  }
  // An unknown datatype has no field: an empty `data` lets the decoder name the
  // datatype problem, as it does for JSON.
  if (field === undefined) return []
  const elements = (contents[field] ?? []) as ReadonlyArray<number | boolean | Long | Uint8Array>
  if (field === 'int64_contents' || field === 'uint64_contents') {
    return elements.map((value) => toNumber(value as number | Long))
  }
  return elements
}

function hasContents(contents: Contents | null | undefined): boolean {
  return contents != null && GRPC_CONTENTS_FIELDS.some((field) => (contents[field]?.length ?? 0) > 0)
}
