/**
 * Node helpers: one function per operator the models need, each returning a NodeProto.
 * Inputs and outputs are value names; constant operands (axes, shapes, indices) are passed
 * as the names of initializers, since opset 13+ takes them as inputs, not attributes.
 * Every node is named after its first output so the serialized graph is deterministic and
 * onnxruntime's error messages name a recognisable node.
 */
import { onnx } from './proto.js'
import type { OnnxTypes } from './proto.js'
import { dataTypeOf } from './tensor.js'
import type { ElementType } from './tensor.js'

const AttrType = onnx.AttributeProto.AttributeType

/** Attribute values the helpers accept. Integers go in `int`/`ints`, floats in `float`/`floats`. */
export type AttributeValue =
  | { int: number }
  | { ints: readonly number[] }
  | { float: number }
  | { floats: readonly number[] }
  | { string: string }
  | { tensor: OnnxTypes.ITensorProto }

function attribute(name: string, value: AttributeValue): OnnxTypes.IAttributeProto {
  if ('int' in value) return { name, type: AttrType.INT, i: value.int }
  if ('ints' in value) return { name, type: AttrType.INTS, ints: [...value.ints] }
  if ('float' in value) return { name, type: AttrType.FLOAT, f: value.float }
  if ('floats' in value) return { name, type: AttrType.FLOATS, floats: [...value.floats] }
  if ('string' in value) return { name, type: AttrType.STRING, s: new TextEncoder().encode(value.string) }
  return { name, type: AttrType.TENSOR, t: value.tensor }
}

/** Any operator of the default domain. Attributes are written in the order given. */
export function node(
  opType: string,
  inputs: readonly string[],
  outputs: readonly string[],
  attributes: Readonly<Record<string, AttributeValue>> = {},
): OnnxTypes.INodeProto {
  return {
    opType,
    name: `${opType}_${outputs[0]}`,
    input: [...inputs],
    output: [...outputs],
    attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)),
  }
}

/** Gemm: `out = alpha * A' * B' + beta * C` (A' = transpose(A) if transA...). */
export function gemm(
  a: string,
  b: string,
  c: string,
  out: string,
  opts: { transA?: boolean; transB?: boolean; alpha?: number; beta?: number } = {},
): OnnxTypes.INodeProto {
  const attrs: Record<string, AttributeValue> = {}
  if (opts.alpha !== undefined) attrs.alpha = { float: opts.alpha }
  if (opts.beta !== undefined) attrs.beta = { float: opts.beta }
  if (opts.transA) attrs.transA = { int: 1 }
  if (opts.transB) attrs.transB = { int: 1 }
  return node('Gemm', [a, b, c], [out], attrs)
}

export const matMul = (a: string, b: string, out: string) => node('MatMul', [a, b], [out])
export const add = (a: string, b: string, out: string) => node('Add', [a, b], [out])
export const sub = (a: string, b: string, out: string) => node('Sub', [a, b], [out])
export const mul = (a: string, b: string, out: string) => node('Mul', [a, b], [out])
export const div = (a: string, b: string, out: string) => node('Div', [a, b], [out])
export const max = (a: string, b: string, out: string) => node('Max', [a, b], [out])
export const relu = (x: string, out: string) => node('Relu', [x], [out])
export const tanh = (x: string, out: string) => node('Tanh', [x], [out])
export const identity = (x: string, out: string) => node('Identity', [x], [out])

/** Gather along `axis` (default 0). Out-of-range indices make onnxruntime throw at run time. */
export function gather(data: string, indices: string, out: string, axis = 0): OnnxTypes.INodeProto {
  return node('Gather', [data, indices], [out], axis === 0 ? {} : { axis: { int: axis } })
}

/** ReduceSum (opset 13+: `axes` is an int64 tensor input). */
export function reduceSum(data: string, axes: string, out: string, keepdims = true): OnnxTypes.INodeProto {
  return node('ReduceSum', [data, axes], [out], { keepdims: { int: keepdims ? 1 : 0 } })
}

/** Cast to another element type. float → int truncates toward zero. */
export function cast(x: string, to: ElementType, out: string): OnnxTypes.INodeProto {
  return node('Cast', [x], [out], { to: { int: dataTypeOf(to) } })
}

/** Reshape to the shape held by the int64 tensor `shape` (0 copies a dim, -1 infers it). */
export const reshape = (data: string, shape: string, out: string) => node('Reshape', [data, shape], [out])

/** Slice (opset 10+: starts/ends/axes/steps are int64 tensor inputs). */
export function slice(data: string, starts: string, ends: string, out: string, axes?: string, steps?: string): OnnxTypes.INodeProto {
  const inputs = [data, starts, ends]
  if (axes !== undefined || steps !== undefined) inputs.push(axes ?? '')
  if (steps !== undefined) inputs.push(steps)
  return node('Slice', inputs, [out])
}

/** Unsqueeze (opset 13+: `axes` is an int64 tensor input). */
export const unsqueeze = (data: string, axes: string, out: string) => node('Unsqueeze', [data, axes], [out])

/** Squeeze (opset 13+: `axes` is an int64 tensor input). */
export const squeeze = (data: string, axes: string, out: string) => node('Squeeze', [data, axes], [out])

/** Constant node holding `value`. */
export const constant = (out: string, value: OnnxTypes.ITensorProto) => node('Constant', [], [out], { value: { tensor: value } })

/**
 * CumSum along the axis held by the int64 scalar `axis`. onnxruntime's CPU kernel adds the
 * elements strictly in order, which the token model relies on (see models/token-pool.ts).
 */
export const cumSum = (x: string, axis: string, out: string) => node('CumSum', [x, axis], [out])
