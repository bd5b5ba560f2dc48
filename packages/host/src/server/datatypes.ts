/**
 * Open Inference Protocol datatypes (`FP32`, `INT64`, ...) and the ONNX element types
 * the pool moves. One table, used both to read request tensors and to write response
 * tensors, so the two directions can never disagree.
 */
import type { TensorType, TypedArray } from '../types.js'

/** Datatype names of the Open Inference Protocol (KServe v2). */
export type ProtocolDatatype =
  | 'BOOL'
  | 'UINT8'
  | 'UINT16'
  | 'UINT32'
  | 'UINT64'
  | 'INT8'
  | 'INT16'
  | 'INT32'
  | 'INT64'
  | 'FP16'
  | 'FP32'
  | 'FP64'
  | 'BYTES'

type TypedArrayConstructor = (new (length: number) => TypedArray) & { readonly BYTES_PER_ELEMENT: number }

/**
 * How one element of a JSON `data` array becomes an element of the typed array.
 * Returns `undefined` when the JSON value is not a valid element of that type, so the
 * caller can name the offending index without a throw per element.
 */
type ElementReader = (value: unknown) => number | bigint | undefined

interface DatatypeInfo {
  readonly protocol: ProtocolDatatype
  readonly create: TypedArrayConstructor
  readonly read: ElementReader
  /** What a valid element looks like, for error messages. */
  readonly expects: string
}

function integerReader(min: number, max: number): ElementReader {
  return (value) => (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined)
}

// 64-bit integers arrive as JSON numbers, which are doubles: only safe integers are exact,
// so anything beyond 2^53 is refused rather than silently rounded.
function bigIntegerReader(min: number): ElementReader {
  return (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min ? BigInt(value) : undefined
}

const readFloat: ElementReader = (value) => (typeof value === 'number' ? value : undefined)
const readBool: ElementReader = (value) => {
  if (value === true || value === 1) return 1
  if (value === false || value === 0) return 0
  return undefined
}

const TABLE: Record<TensorType, DatatypeInfo> = {
  float32: { protocol: 'FP32', create: Float32Array, read: readFloat, expects: 'a number' },
  float64: { protocol: 'FP64', create: Float64Array, read: readFloat, expects: 'a number' },
  int8: { protocol: 'INT8', create: Int8Array, read: integerReader(-128, 127), expects: 'an integer in [-128, 127]' },
  uint8: { protocol: 'UINT8', create: Uint8Array, read: integerReader(0, 255), expects: 'an integer in [0, 255]' },
  int16: {
    protocol: 'INT16',
    create: Int16Array,
    read: integerReader(-32768, 32767),
    expects: 'an integer in [-32768, 32767]',
  },
  uint16: { protocol: 'UINT16', create: Uint16Array, read: integerReader(0, 65535), expects: 'an integer in [0, 65535]' },
  int32: {
    protocol: 'INT32',
    create: Int32Array,
    read: integerReader(-2147483648, 2147483647),
    expects: 'an integer in [-2147483648, 2147483647]',
  },
  uint32: {
    protocol: 'UINT32',
    create: Uint32Array,
    read: integerReader(0, 4294967295),
    expects: 'an integer in [0, 4294967295]',
  },
  int64: {
    protocol: 'INT64',
    create: BigInt64Array,
    read: bigIntegerReader(Number.MIN_SAFE_INTEGER),
    expects: 'a safe integer (|n| <= 2^53 - 1)',
  },
  uint64: {
    protocol: 'UINT64',
    create: BigUint64Array,
    read: bigIntegerReader(0),
    expects: 'a non-negative safe integer (n <= 2^53 - 1)',
  },
  // ONNX Runtime holds bool tensors in a Uint8Array (one byte per element).
  bool: { protocol: 'BOOL', create: Uint8Array, read: readBool, expects: 'true, false, 1 or 0' },
}

const PROTOCOL_NAMES: ReadonlySet<string> = new Set<ProtocolDatatype>([
  'BOOL',
  'UINT8',
  'UINT16',
  'UINT32',
  'UINT64',
  'INT8',
  'INT16',
  'INT32',
  'INT64',
  'FP16',
  'FP32',
  'FP64',
  'BYTES',
])

/** The protocol datatype of an ONNX element type. */
export function protocolDatatype(type: TensorType): ProtocolDatatype {
  return TABLE[type].protocol
}

/** Whether `name` is a datatype of the protocol at all (even one this server cannot take). */
export function isProtocolDatatype(name: string): name is ProtocolDatatype {
  return PROTOCOL_NAMES.has(name)
}

/** Reader, constructor and description for tensors of an ONNX element type. */
export function datatypeInfo(type: TensorType): DatatypeInfo {
  return TABLE[type]
}
