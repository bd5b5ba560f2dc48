// onnx-proto is a CommonJS bundle (`module.exports = $root`), so Node's ESM loader exposes it
// only as a default export: a named `import { onnx }` fails at run time under NodeNext.
import onnxProto from 'onnx-proto'
import type { onnx as OnnxTypes } from 'onnx-proto'

/** The generated protobufjs classes of the ONNX schema (onnx v1.10.2, IR version 8). */
export const onnx = onnxProto.onnx

/** Type namespace of the same schema: `OnnxTypes.ITensorProto`, `OnnxTypes.IModelProto`... */
export type { OnnxTypes }
