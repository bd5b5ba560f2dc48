/**
 * Graph and model assembly, and serialization.
 *
 * Target: IR version 8 with opset 17 of the default domain. onnx-proto bundles the schema of
 * onnx 1.10.2 whose IR version is 8; opset 17 needs IR >= 8, and onnxruntime-node 1.30
 * supports opsets well beyond 17, so nothing here depends on a recent runtime.
 */
import { onnx } from './proto.js'
import type { OnnxTypes } from './proto.js'
import { dataTypeOf } from './tensor.js'
import type { ElementType } from './tensor.js'

/** IR version written into every model. */
export const IR_VERSION = 8
/** Opset of the default ONNX domain written into every model. */
export const OPSET = 17
/** `producer_name` of every model. No timestamp or host name: output must be reproducible. */
export const PRODUCER_NAME = 'inferpool-model-builder'

/**
 * A dimension of a graph input or output: a number is a fixed size, a string a symbolic
 * (dynamic) axis written as `dim_param`, e.g. `'batch'`.
 */
export type Dim = number | string

/** A graph input or output: name, element type and shape. */
export interface ValueSpec {
  name: string
  type: ElementType
  dims: readonly Dim[]
}

/** ValueInfoProto for a tensor input/output. */
export function valueInfo(spec: ValueSpec): OnnxTypes.IValueInfoProto {
  return {
    name: spec.name,
    type: {
      tensorType: {
        elemType: dataTypeOf(spec.type),
        shape: {
          dim: spec.dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })),
        },
      },
    },
  }
}

/** Everything needed to assemble one model. */
export interface ModelSpec {
  /** Graph name (shows in tools like Netron). */
  name: string
  /** Free text stored as the model's doc_string. */
  doc?: string
  inputs: readonly ValueSpec[]
  outputs: readonly ValueSpec[]
  nodes: readonly OnnxTypes.INodeProto[]
  initializers?: readonly OnnxTypes.ITensorProto[]
  /** Extra key/value pairs stored as metadata_props, in the order given. */
  metadata?: Readonly<Record<string, string>>
}

/** Assemble a ModelProto (IR {@link IR_VERSION}, opset {@link OPSET}). */
export function buildModel(spec: ModelSpec): OnnxTypes.ModelProto {
  const initializers = spec.initializers ?? []
  assertWellFormed(spec, initializers)
  return onnx.ModelProto.create({
    irVersion: IR_VERSION,
    producerName: PRODUCER_NAME,
    producerVersion: '1',
    docString: spec.doc ?? '',
    opsetImport: [{ domain: '', version: OPSET }],
    metadataProps: Object.entries(spec.metadata ?? {}).map(([key, value]) => ({ key, value })),
    graph: {
      name: spec.name,
      node: [...spec.nodes],
      initializer: [...initializers],
      input: spec.inputs.map(valueInfo),
      output: spec.outputs.map(valueInfo),
    },
  })
}

/**
 * Catch wiring mistakes here, with a readable message, rather than as an opaque
 * onnxruntime load failure: every node input must be produced by something earlier
 * (graph input, initializer or a previous node), and every graph output by a node.
 */
function assertWellFormed(spec: ModelSpec, initializers: readonly OnnxTypes.ITensorProto[]): void {
  const known = new Set<string>(['', ...spec.inputs.map((i) => i.name), ...initializers.map((t) => t.name ?? '')])
  for (const n of spec.nodes) {
    for (const input of n.input ?? []) {
      if (!known.has(input)) throw new Error(`model "${spec.name}": node ${n.name} reads "${input}" before anything produces it`)
    }
    for (const output of n.output ?? []) known.add(output)
  }
  for (const o of spec.outputs) {
    if (!known.has(o.name)) throw new Error(`model "${spec.name}": graph output "${o.name}" is produced by no node`)
  }
}

/** Serialize a model to protobuf bytes. Same model in, same bytes out. */
export function serializeModel(model: OnnxTypes.IModelProto): Uint8Array {
  return onnx.ModelProto.encode(model).finish()
}

/** Parse protobuf bytes back into a ModelProto (used by tests to inspect a file). */
export function parseModel(bytes: Uint8Array): OnnxTypes.ModelProto {
  return onnx.ModelProto.decode(bytes)
}
