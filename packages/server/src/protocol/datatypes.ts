/**
 * The datatype vocabulary: one row per element type, giving its ONNX name (the key, as
 * the pool and ORT name it), its Open Inference Protocol name (`FP32`, `BYTES`), its
 * Triton `model_config.proto` name (`TYPE_FP32`, `TYPE_STRING`), the typed array that
 * holds it, the `InferTensorContents` field of gRPC's typed form, and how its JSON
 * elements are read and written. Every mapping between these names is derived from
 * this one table, so no two places can disagree (or forget a type).
 */
import type { TensorType, TypedArray } from '@inferpool/host'

type TypedArrayConstructor = {
  new (length: number): TypedArray
  new (buffer: ArrayBuffer, byteOffset: number, length: number): TypedArray
  readonly BYTES_PER_ELEMENT: number
}

/**
 * How one element of a JSON `data` array becomes an element of the typed array.
 * Returns `undefined` when the JSON value is not a valid element of that type — of the
 * wrong kind, or a number the type cannot hold (an integer out of range, a float that
 * would overflow to Infinity) — so the caller can name the offending index without a
 * throw per element.
 */
type ElementReader = (value: unknown) => number | bigint | undefined

/** The `InferTensorContents` fields (grpc_service.proto) that hold typed elements. */
export type GrpcContentsField =
  | 'bool_contents'
  | 'int_contents'
  | 'int64_contents'
  | 'uint_contents'
  | 'uint64_contents'
  | 'fp32_contents'
  | 'fp64_contents'
  | 'bytes_contents'

/** One element type under each of its names. */
interface DatatypeRow {
  /** The Open Inference Protocol (KServe v2) name. */
  readonly protocol: string
  /** Triton's `DataType` name (model_config.proto). */
  readonly triton: string
  /** The gRPC `InferTensorContents` field of its typed form; `undefined` when it has none (FP16: raw only). */
  readonly grpc: GrpcContentsField | undefined
}

/** A numeric type's row: also how its elements are held, read and written. */
interface DatatypeInfo extends DatatypeRow {
  readonly create: TypedArrayConstructor
  readonly read: ElementReader
  /** What a valid element looks like, for error messages. */
  readonly expects: string
  /** JSON text of a tensor's elements, without brackets; `undefined` when one has no JSON form (NaN, ±Infinity). */
  readonly json: (data: TypedArray) => string | undefined
}

function integerReader(min: number, max: number): ElementReader {
  return (value) => (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined)
}

// 64-bit integers arrive as JSON numbers, which are doubles: only safe integers are exact,
// so anything beyond 2^53 is refused rather than silently rounded.
function bigIntegerReader(min: number): ElementReader {
  return (value) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= min ? BigInt(value) : undefined)
}

// JSON.parse turns a literal too large for a double (1e400) into Infinity, and JSON has
// no NaN: a non-finite number here always stands for a value the type cannot hold.
const readFloat64: ElementReader = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)
// Math.fround rounds as a Float32Array store does: a value that overflows to Infinity
// there (1e39) is refused instead of becoming Infinity.
const readFloat32: ElementReader = (value) => (typeof value === 'number' && Number.isFinite(Math.fround(value)) ? value : undefined)
const readHalf: ElementReader = (value) => (typeof value === 'number' && Number.isFinite(value) ? halfBits(value) : undefined)
const readBool: ElementReader = (value) => {
  if (value === true || value === 1) return 1
  if (value === false || value === 0) return 0
  return undefined
}

/** Ties to even, as IEEE 754 rounds. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x)
  const rest = x - floor
  if (rest > 0.5) return floor + 1
  if (rest < 0.5) return floor
  return floor % 2 === 0 ? floor : floor + 1
}

/**
 * IEEE 754 binary16 bits of a finite double, rounded to nearest (ties to even) in one
 * step (through float32 first would round twice); `undefined` when it overflows.
 */
export function halfBits(value: number): number | undefined {
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0
  const a = Math.abs(value)
  // 65504 is the largest half; from halfway to the next power (65520) it rounds to Infinity.
  if (!(a < 65520)) return undefined
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24) // subnormal (1024 rounds up into the smallest normal's bits)
  let exponent = Math.floor(Math.log2(a))
  // log2 may be off by one next to a power of two: settle it exactly.
  if (2 ** exponent > a) exponent--
  else if (2 ** (exponent + 1) <= a) exponent++
  let mantissa = roundHalfEven((a / 2 ** exponent - 1) * 1024)
  if (mantissa === 1024) {
    mantissa = 0
    exponent++
  }
  if (exponent > 15) return undefined
  return sign | ((exponent + 15) << 10) | mantissa
}

/** The value of IEEE 754 binary16 bits. */
export function halfValue(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1
  const exponent = (bits >> 10) & 0x1f
  const fraction = bits & 0x3ff
  if (exponent === 0) return sign * fraction * 2 ** -24
  if (exponent === 31) return fraction === 0 ? sign * Infinity : NaN
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15)
}

function numbersJson(data: TypedArray): string | undefined {
  const floats = data as Float32Array
  for (let i = 0; i < floats.length; i++) if (!Number.isFinite(floats[i])) return undefined
  // `join` is far faster than JSON.stringify of an array of numbers and prints the same.
  return floats.join(',')
}

// Integers are always finite; `join` prints bigints as plain integers (valid JSON of any precision).
const integersJson = (data: TypedArray): string => data.join(',')

const boolJson = (data: TypedArray): string => Array.from(data as Uint8Array, (v) => (v === 0 ? 'false' : 'true')).join(',')

function halfJson(data: TypedArray): string | undefined {
  const values = new Array<number>(data.length)
  for (let i = 0; i < data.length; i++) {
    const value = halfValue((data as Uint16Array)[i])
    if (!Number.isFinite(value)) return undefined
    values[i] = value
  }
  return values.join(',')
}

/** Element types held in typed arrays: every type but `string` (the protocol's BYTES). */
export type NumericType = Exclude<TensorType, 'string'>

const DATATYPES = {
  float32: {
    protocol: 'FP32',
    triton: 'TYPE_FP32',
    grpc: 'fp32_contents',
    create: Float32Array,
    read: readFloat32,
    expects: 'a number within FP32 range (|x| <= 3.4028234663852886e38)',
    json: numbersJson,
  },
  float64: {
    protocol: 'FP64',
    triton: 'TYPE_FP64',
    grpc: 'fp64_contents',
    create: Float64Array,
    read: readFloat64,
    expects: 'a finite number',
    json: numbersJson,
  },
  // ONNX Runtime holds float16 tensors as their raw bits in a Uint16Array. gRPC's typed
  // form has no field for them: FP16 travels in `raw_input_contents` only.
  float16: {
    protocol: 'FP16',
    triton: 'TYPE_FP16',
    grpc: undefined,
    create: Uint16Array,
    read: readHalf,
    expects: 'a number within FP16 range (|x| <= 65504)',
    json: halfJson,
  },
  int8: {
    protocol: 'INT8',
    triton: 'TYPE_INT8',
    grpc: 'int_contents',
    create: Int8Array,
    read: integerReader(-128, 127),
    expects: 'an integer in [-128, 127]',
    json: integersJson,
  },
  uint8: {
    protocol: 'UINT8',
    triton: 'TYPE_UINT8',
    grpc: 'uint_contents',
    create: Uint8Array,
    read: integerReader(0, 255),
    expects: 'an integer in [0, 255]',
    json: integersJson,
  },
  int16: {
    protocol: 'INT16',
    triton: 'TYPE_INT16',
    grpc: 'int_contents',
    create: Int16Array,
    read: integerReader(-32768, 32767),
    expects: 'an integer in [-32768, 32767]',
    json: integersJson,
  },
  uint16: {
    protocol: 'UINT16',
    triton: 'TYPE_UINT16',
    grpc: 'uint_contents',
    create: Uint16Array,
    read: integerReader(0, 65535),
    expects: 'an integer in [0, 65535]',
    json: integersJson,
  },
  int32: {
    protocol: 'INT32',
    triton: 'TYPE_INT32',
    grpc: 'int_contents',
    create: Int32Array,
    read: integerReader(-2147483648, 2147483647),
    expects: 'an integer in [-2147483648, 2147483647]',
    json: integersJson,
  },
  uint32: {
    protocol: 'UINT32',
    triton: 'TYPE_UINT32',
    grpc: 'uint_contents',
    create: Uint32Array,
    read: integerReader(0, 4294967295),
    expects: 'an integer in [0, 4294967295]',
    json: integersJson,
  },
  int64: {
    protocol: 'INT64',
    triton: 'TYPE_INT64',
    grpc: 'int64_contents',
    create: BigInt64Array,
    read: bigIntegerReader(Number.MIN_SAFE_INTEGER),
    expects: 'a safe integer (|n| <= 2^53 - 1)',
    json: integersJson,
  },
  uint64: {
    protocol: 'UINT64',
    triton: 'TYPE_UINT64',
    grpc: 'uint64_contents',
    create: BigUint64Array,
    read: bigIntegerReader(0),
    expects: 'a non-negative safe integer (n <= 2^53 - 1)',
    json: integersJson,
  },
  // ONNX Runtime holds bool tensors in a Uint8Array (one byte per element).
  bool: {
    protocol: 'BOOL',
    triton: 'TYPE_BOOL',
    grpc: 'bool_contents',
    create: Uint8Array,
    read: readBool,
    expects: 'true, false, 1 or 0',
    json: boolJson,
  },
  // ONNX strings: the protocol's BYTES, each element a 4-byte length and its bytes (tensor-bytes.ts).
  string: { protocol: 'BYTES', triton: 'TYPE_STRING', grpc: 'bytes_contents' },
} as const satisfies Record<NumericType, DatatypeInfo> & Record<'string', DatatypeRow>

type Datatypes = typeof DATATYPES

/** Datatype names of the Open Inference Protocol (KServe v2). */
export type ProtocolDatatype = Datatypes[TensorType]['protocol']

/** `inference.DataType` names (Triton's model_config.proto). */
export type TritonDataType = Datatypes[TensorType]['triton']

const TENSOR_TYPES = Object.keys(DATATYPES) as TensorType[]

/** Every protocol datatype name. */
const PROTOCOL_NAMES: ReadonlySet<string> = new Set(TENSOR_TYPES.map((type) => DATATYPES[type].protocol))

/** The gRPC contents field of each protocol datatype that has one. */
const GRPC_FIELD: ReadonlyMap<string, GrpcContentsField> = new Map(
  TENSOR_TYPES.flatMap((type) => {
    const field: GrpcContentsField | undefined = DATATYPES[type].grpc
    return field === undefined ? [] : [[DATATYPES[type].protocol, field] as const]
  }),
)

/** Every gRPC contents field, once (several integer types share one). */
export const GRPC_CONTENTS_FIELDS: readonly GrpcContentsField[] = Object.freeze([...new Set(GRPC_FIELD.values())])

/** The protocol datatype of an ONNX element type. */
export function protocolDatatype(type: TensorType): ProtocolDatatype {
  return DATATYPES[type].protocol
}

/** Triton's `DataType` name of an ONNX element type. */
export function tritonDataType(type: TensorType): TritonDataType {
  return DATATYPES[type].triton
}

/** Whether `name` is a datatype of the protocol at all (even one this server cannot take). */
export function isProtocolDatatype(name: string): name is ProtocolDatatype {
  return PROTOCOL_NAMES.has(name)
}

/** The `InferTensorContents` field that holds a protocol datatype's elements; `undefined` for FP16 and unknown names. */
export function grpcContentsField(name: string): GrpcContentsField | undefined {
  return GRPC_FIELD.get(name)
}

/** Reader, constructor and description for tensors of a numeric element type. */
export function datatypeInfo(type: NumericType): DatatypeInfo {
  return DATATYPES[type]
}
