/**
 * What the server says about itself and its models, in the Open Inference Protocol's
 * terms: one source for the HTTP routes (`GET /v2`, `GET /v2/models/{m}`) and the
 * gRPC RPCs (ServerMetadata, ModelMetadata), so the two can never disagree.
 */
import { createRequire } from 'node:module'
import type { PoolMetadata, TensorInfo } from '@inferpool/host'
import { protocolDatatype } from './datatypes.js'
import type { ProtocolDatatype } from './datatypes.js'

/** The version of a model served from one pool (given without versions). */
export const MODEL_VERSION = '1'

export const SERVER_NAME = 'inferpool'
export const SERVER_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version
/**
 * The protocol extensions served, listed by `GET /v2` and the ServerMetadata RPC:
 * exactly those served (Triton's clients and perf_analyzer decide what to call from
 * this list).
 */
export const SERVER_EXTENSIONS: readonly string[] = Object.freeze(['binary_tensor_data', 'model_configuration', 'statistics'])

/** The platform every served model reports (the name Triton uses for ONNX models). */
export const MODEL_PLATFORM = 'onnxruntime_onnx'

export interface TensorMetadata {
  readonly name: string
  readonly datatype: ProtocolDatatype
  /** -1 for a dimension of variable size. */
  readonly shape: number[]
}

export function tensorMetadata(info: TensorInfo): TensorMetadata {
  return {
    name: info.name,
    datatype: protocolDatatype(info.type),
    shape: info.dims.map((d) => (typeof d === 'number' && d >= 0 ? d : -1)),
  }
}

/** A model's name, versions served (oldest first), platform, inputs and outputs. */
export function modelMetadata(
  name: string,
  versions: readonly string[],
  metadata: PoolMetadata,
): { name: string; versions: string[]; platform: string; inputs: TensorMetadata[]; outputs: TensorMetadata[] } {
  return {
    name,
    versions: [...versions],
    platform: MODEL_PLATFORM,
    inputs: metadata.inputs.map(tensorMetadata),
    outputs: metadata.outputs.map(tensorMetadata),
  }
}
