/**
 * The element types a tensor may have on its way between host and replica: one row per
 * ONNX element type (as ORT's `Tensor.Type` names it), giving the typed array ORT holds
 * it in. The wire type (`WireTensorType`), the set a model's inputs and outputs are
 * checked against, and how a buffer is viewed are all derived from this one table. (The
 * protocol names of each type, `FP32`, `TYPE_FP32`, are the server's datatypes table.)
 */
export const TYPED_ARRAY_OF = {
  float32: Float32Array,
  // float16 as raw bits: Node 20 has no Float16Array, and ORT's binding takes a Uint16Array.
  float16: Uint16Array,
  float64: Float64Array,
  int8: Int8Array,
  uint8: Uint8Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  // bool travels as one byte per element.
  bool: Uint8Array,
  // ONNX string (the protocol's BYTES): the BYTES wire form's bytes (see strings.ts), never one array element per string.
  string: Uint8Array,
} as const

/** Whether ORT's element type name is one that can travel (a key of {@link TYPED_ARRAY_OF}). */
export function isWireTensorType(type: string): type is keyof typeof TYPED_ARRAY_OF {
  return Object.hasOwn(TYPED_ARRAY_OF, type)
}
