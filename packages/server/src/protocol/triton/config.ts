/**
 * Triton's model configuration extension: a served pool described as Triton's
 * `ModelConfig` message (triton-inference-server/common, `protobuf/model_config.proto`),
 * in the JSON form Triton's HTTP `GET /v2/models/{m}/config` answers with — field names
 * as in the .proto (snake_case), enums by name, 64-bit integers written as JSON numbers
 * (as Triton writes them; protobuf's own JSON mapping would quote them) — and what the
 * gRPC `ModelConfig` RPC carries once mapped onto the generated message.
 *
 * Only fields whose value inferpool knows are set; everything else is left to the
 * message's defaults rather than filled with made-up values.
 */
import type { PoolMetadata, TensorInfo } from '@inferpool/host'
import { tritonDataType } from '../datatypes.js'
import type { TritonDataType } from '../datatypes.js'
import type { ServedPool } from '../served-pool.js'

/** `ModelInput` (model_config.proto), the fields inferpool sets. */
export interface TritonModelInput {
  name: string
  data_type: TritonDataType
  format: 'FORMAT_NONE'
  /** Dims without the batch dim; -1 for a dynamic axis. */
  dims: number[]
  is_shape_tensor: false
  allow_ragged_batch: false
  optional: false
}

/** `ModelOutput` (model_config.proto), the fields inferpool sets. */
export interface TritonModelOutput {
  name: string
  data_type: TritonDataType
  /** Dims without the batch dim; -1 for a dynamic axis. */
  dims: number[]
  label_filename: ''
  is_shape_tensor: false
}

/** `ModelConfig` (model_config.proto), the fields inferpool sets. */
export interface TritonModelConfig {
  name: string
  platform: 'onnxruntime_onnx'
  backend: 'onnxruntime'
  /** One version per model name (`ModelVersionPolicy.Latest`). */
  version_policy: { latest: { num_versions: 1 } }
  /** The pool's effective max batch size (> 0: the first dim of every tensor is the batch). */
  max_batch_size: number
  input: TritonModelInput[]
  output: TritonModelOutput[]
  /** `ModelDynamicBatching`. */
  dynamic_batching: {
    /** A batch of `max_batch_size` rows always goes at once. */
    preferred_batch_size: number[]
    /** The pool's `batching.maxWaitMs`, in µs. */
    max_queue_delay_microseconds: number
    preserve_ordering: false
  }
  /** `ModelInstanceGroup`: one group, `count` = replicas. */
  instance_group: Array<{ name: string; kind: 'KIND_CPU' | 'KIND_GPU'; count: number; gpus: number[]; passive: false }>
}

/** Row dims of a declared tensor: the batch dim dropped, dynamic axes as -1. */
function rowDims(info: TensorInfo): number[] {
  return info.dims.slice(1).map((d) => (typeof d === 'number' && d >= 0 ? d : -1))
}

/**
 * The model configuration of a served pool, as Triton returns it. `maxWaitMs` is the
 * pool's current `batching.maxWaitMs` (from `pool.stats`; 0, the pool's default, when the
 * pool does not expose its stats synchronously).
 */
export function modelConfigOf(
  name: string,
  pool: Pick<ServedPool, 'metadata'> & { readonly stats?: { maxWaitMs: number } },
): TritonModelConfig {
  const metadata: PoolMetadata = pool.metadata
  const maxWaitMs = pool.stats?.maxWaitMs ?? 0
  return {
    name,
    platform: 'onnxruntime_onnx',
    backend: 'onnxruntime',
    version_policy: { latest: { num_versions: 1 } },
    max_batch_size: metadata.maxBatchSize,
    input: metadata.inputs.map((info) => ({
      name: info.name,
      data_type: tritonDataType(info.type),
      format: 'FORMAT_NONE',
      dims: rowDims(info),
      is_shape_tensor: false,
      allow_ragged_batch: false,
      optional: false,
    })),
    output: metadata.outputs.map((info) => ({
      name: info.name,
      data_type: tritonDataType(info.type),
      dims: rowDims(info),
      label_filename: '',
      is_shape_tensor: false,
    })),
    dynamic_batching: {
      preferred_batch_size: [metadata.maxBatchSize],
      // An infinite wait (batching until minBatchSize) has no µs value: the largest uint64 JSON can carry exactly.
      max_queue_delay_microseconds: Number.isFinite(maxWaitMs) ? Math.round(maxWaitMs * 1000) : Number.MAX_SAFE_INTEGER,
      preserve_ordering: false,
    },
    instance_group: [
      {
        name: `${name}_0`,
        kind: metadata.executionProvider === 'cuda' ? 'KIND_GPU' : 'KIND_CPU',
        count: metadata.replicas,
        gpus: [],
        passive: false,
      },
    ],
  }
}
