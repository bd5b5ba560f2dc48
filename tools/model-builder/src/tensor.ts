import { onnx } from './proto.js'
import type { OnnxTypes } from './proto.js'

/** Element types the builder can write, named as onnxruntime-node names them. */
export type ElementType = 'float32' | 'float16' | 'float64' | 'int32' | 'int64' | 'bool' | 'uint8' | 'int8' | 'string'

const DataType = onnx.TensorProto.DataType

/** ONNX `TensorProto.DataType` code of an element type. */
export function dataTypeOf(type: ElementType): number {
  switch (type) {
    case 'float32':
      return DataType.FLOAT
    case 'float16':
      return DataType.FLOAT16
    case 'string':
      return DataType.STRING
    case 'float64':
      return DataType.DOUBLE
    case 'int32':
      return DataType.INT32
    case 'int64':
      return DataType.INT64
    case 'bool':
      return DataType.BOOL
    case 'uint8':
      return DataType.UINT8
    case 'int8':
      return DataType.INT8
  }
}

/** Data accepted for each element type. */
export type TensorData =
  Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array | Int8Array | Uint16Array | readonly number[] | readonly bigint[]

function checkCount(name: string, dims: readonly number[], length: number): void {
  const expected = dims.reduce((a, b) => a * b, 1)
  if (expected !== length) {
    throw new RangeError(`tensor "${name}": dims [${dims.join(', ')}] hold ${expected} elements, got ${length}`)
  }
}

/**
 * Little-endian raw bytes of the tensor. `raw_data` is used for every type (rather than
 * `float_data`/`int64_data`) because it is compact, exact, and needs no 64-bit integer
 * handling in protobufjs.
 */
function rawBytes(type: ElementType, data: TensorData): Uint8Array {
  const n = data.length
  const buf = new ArrayBuffer(n * bytesPerElement(type))
  const view = new DataView(buf)
  for (let i = 0; i < n; i++) {
    const v = data[i]
    switch (type) {
      case 'float32':
        view.setFloat32(i * 4, Number(v), true)
        break
      // float16 data is given as raw binary16 bits (as onnxruntime-node holds it).
      case 'float16':
        view.setUint16(i * 2, Number(v), true)
        break
      case 'string':
        throw new RangeError('string tensors have no raw bytes: the builder writes no string constants')
      case 'float64':
        view.setFloat64(i * 8, Number(v), true)
        break
      case 'int32':
        view.setInt32(i * 4, Number(v), true)
        break
      case 'int64':
        view.setBigInt64(i * 8, BigInt(v), true)
        break
      case 'bool':
        view.setUint8(i, Number(v) ? 1 : 0)
        break
      case 'uint8':
        view.setUint8(i, Number(v))
        break
      case 'int8':
        view.setInt8(i, Number(v))
        break
    }
  }
  return new Uint8Array(buf)
}

/** Bytes per element of a type. */
export function bytesPerElement(type: ElementType): number {
  switch (type) {
    case 'float64':
    case 'int64':
      return 8
    case 'float32':
    case 'int32':
      return 4
    case 'float16':
      return 2
    // Variable-size elements: only used in value infos, never in a constant.
    case 'string':
      return 0
    case 'bool':
    case 'uint8':
    case 'int8':
      return 1
  }
}

/** A named constant tensor (an initializer, or the `value` of a Constant node). */
export function tensor(name: string, type: ElementType, dims: readonly number[], data: TensorData): OnnxTypes.ITensorProto {
  checkCount(name, dims, data.length)
  return {
    name,
    dataType: dataTypeOf(type),
    dims: [...dims],
    rawData: rawBytes(type, data),
  }
}

/** float32 initializer. */
export function floatTensor(name: string, dims: readonly number[], data: Float32Array | readonly number[]): OnnxTypes.ITensorProto {
  return tensor(name, 'float32', dims, data)
}

/** int64 initializer (shapes, axes, indices). */
export function int64Tensor(
  name: string,
  dims: readonly number[],
  data: readonly (number | bigint)[] | BigInt64Array,
): OnnxTypes.ITensorProto {
  return tensor(name, 'int64', dims, data as TensorData)
}

/** 1-D int64 initializer, the usual form of `axes`, `shape`, `starts`/`ends` inputs. */
export function int64Vector(name: string, values: readonly number[]): OnnxTypes.ITensorProto {
  return int64Tensor(name, [values.length], values)
}
