/**
 * Which files outside the `.onnx` file a model needs: ONNX keeps the data of large
 * tensors (every model over 2 GB, the protobuf limit) in files beside the model, named
 * by each tensor's `external_data` entry `location`, relative to the model's directory.
 * A pool loads the model once, as bytes (model-bytes.ts), so those files would never be
 * read with it (ORT refuses a model loaded from bytes whose data is elsewhere): such a
 * model is refused at `createPool`, naming the file (docs/runtime-facts.md).
 *
 * Reads only what it needs of the protobuf wire format (field numbers from onnx.proto):
 * every tensor of the model's graph, its subgraphs (node attributes) and its functions.
 */
import protobuf from 'protobufjs/minimal.js'

const LENGTH_DELIMITED = 2

/** Calls `onField(field, reader)` for each length-delimited field of the message; skips the rest. */
function eachMessageField(bytes: Uint8Array, onField: (field: number, body: Uint8Array) => void): void {
  const reader = protobuf.Reader.create(bytes)
  while (reader.pos < reader.len) {
    const tag = reader.uint32()
    const field = tag >>> 3
    if ((tag & 7) === LENGTH_DELIMITED) onField(field, reader.bytes())
    else reader.skipType(tag & 7)
  }
}

// ModelProto.graph, .functions; GraphProto.node, .initializer, .sparse_initializer;
// FunctionProto.node; NodeProto.attribute; AttributeProto.t, .g, .tensors, .graphs,
// .sparse_tensor, .sparse_tensors; SparseTensorProto.values, .indices;
// TensorProto.external_data; StringStringEntryProto.key, .value.
const MODEL = { graph: 7, functions: 25 }
const GRAPH = { node: 1, initializer: 5, sparseInitializer: 15 }
const FUNCTION = { node: 7 }
const NODE = { attribute: 5 }
const ATTRIBUTE = { t: 5, g: 6, tensors: 10, graphs: 11, sparseTensor: 22, sparseTensors: 23 }
const SPARSE = { values: 1, indices: 2 }
const TENSOR = { externalData: 13 }
const ENTRY = { key: 1, value: 2 }

function tensor(bytes: Uint8Array, found: Set<string>): void {
  eachMessageField(bytes, (field, body) => {
    if (field !== TENSOR.externalData) return
    let key = ''
    let value = ''
    eachMessageField(body, (f, text) => {
      if (f === ENTRY.key) key = Buffer.from(text).toString('utf8')
      else if (f === ENTRY.value) value = Buffer.from(text).toString('utf8')
    })
    if (key === 'location') found.add(value)
  })
}

function sparse(bytes: Uint8Array, found: Set<string>): void {
  eachMessageField(bytes, (field, body) => {
    if (field === SPARSE.values || field === SPARSE.indices) tensor(body, found)
  })
}

function node(bytes: Uint8Array, found: Set<string>): void {
  eachMessageField(bytes, (field, body) => {
    if (field !== NODE.attribute) return
    eachMessageField(body, (f, value) => {
      if (f === ATTRIBUTE.t || f === ATTRIBUTE.tensors) tensor(value, found)
      else if (f === ATTRIBUTE.g || f === ATTRIBUTE.graphs) graph(value, found)
      else if (f === ATTRIBUTE.sparseTensor || f === ATTRIBUTE.sparseTensors) sparse(value, found)
    })
  })
}

function graph(bytes: Uint8Array, found: Set<string>): void {
  eachMessageField(bytes, (field, body) => {
    if (field === GRAPH.node) node(body, found)
    else if (field === GRAPH.initializer) tensor(body, found)
    else if (field === GRAPH.sparseInitializer) sparse(body, found)
  })
}

/**
 * The external data files the model names (`location`s, as written in it), in the
 * order first met; empty for a self-contained model. Bytes that are not a valid
 * protobuf throw (protobufjs's RangeError): the caller lets ORT report those instead.
 */
export function externalDataFiles(model: Uint8Array): string[] {
  const found = new Set<string>()
  eachMessageField(model, (field, body) => {
    if (field === MODEL.graph) graph(body, found)
    else if (field === MODEL.functions)
      eachMessageField(body, (f, value) => {
        if (f === FUNCTION.node) node(value, found)
      })
  })
  return [...found]
}
