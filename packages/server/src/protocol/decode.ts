/**
 * Reads an Open Inference Protocol inference request (untrusted) into one `RowInput` per
 * row, from the protocol's object form: JSON `data`, or binary tensor bytes. Both
 * bindings hand their requests to this one path (`decodeInferFields`): HTTP its parsed
 * body and the binary tensor data after a JSON header (src/http/decode-body.ts, also the
 * raw binary form), gRPC its decoded messages (src/grpc/request.ts: typed contents as
 * `data`, `raw_input_contents` as binary tensors).
 *
 * Division of labour, so each fact is checked once: this module checks what the
 * *protocol* says — the request's structure, input names, that each datatype is the
 * model's, that `shape` is a list of positive integers whose product is exactly the
 * number of elements sent (as JSON or as bytes), that each JSON element fits its
 * datatype, that every input has the same number of rows, and the binary framing. What
 * the *model* says about a row (its dims, fixed and symbolic, and which inputs must be
 * present) is checked by the pool's own validation (pool/validate-input.ts), which every
 * row passes on its way in, with the messages every caller of `pool.infer` gets.
 *
 * Invariants that keep hostile bodies harmless:
 * - Only fixed property names are read from request objects, and rows and blocks are
 *   built from names that are model inputs with `ownEntry`, so even a model input named
 *   `__proto__` becomes an own property and never reaches a prototype.
 * - No allocation is sized from the request's `shape` or `binary_data_size`: the count
 *   they imply must first equal what the body really holds (which the body limit
 *   bounds). Binary tensors are views into the body (copied once only when misaligned);
 *   the rows of one input are views into one array.
 * - Recursion into nested `data` is bounded by the length of `shape`, itself at most
 *   `MAX_RANK`, never by the depth of the JSON.
 *
 * An HTTP JSON body is parsed by http/json-numbers.ts, which gives each array of numbers
 * as a `Float64Array` (the body's standard path, http/body.ts `parseJson`, takes over
 * whenever it gives up). So wherever this module accepts a JSON array it accepts a `Float64Array` too,
 * as the same array: its elements are the numbers JSON.parse gives, read by the same
 * `Reader`s, and messages describe it as an array. Those arrays view a buffer the next
 * body's parse overwrites: everything kept from them is copied here (tensors into their
 * own typed arrays, `shape` into a plain array), within the one synchronous decode.
 */
import type { BlockInput, PoolMetadata, RowInput, TensorData, TensorInfo, TypedArray } from '@inferpool/host'
import { readBytesElements, typedArrayOver } from './tensor-bytes.js'
import { datatypeInfo, isProtocolDatatype, protocolDatatype } from './datatypes.js'
import { MalformedBinaryError } from './errors.js'
import { invalidInput } from './invalid-input.js'

/** An output the response carries, and whether as binary tensor data. */
export interface RequestedOutput {
  readonly name: string
  readonly binary: boolean
}

export interface DecodedInferRequest {
  /** The request's `id`, echoed in the response. */
  readonly id: string | undefined
  /** The rows the request carries (the first dim of its inputs' `shape`). */
  readonly rowCount: number
  /** One input per row, in request order (made on first use: views of the inputs' data). */
  readonly rows: RowInput[]
  /**
   * The inputs as one tensor each, rows first (`pool.inferBlock`'s form), when every
   * input is numeric; else `undefined`.
   */
  readonly block: BlockInput | undefined
  /** The outputs to return, in the model's order. */
  readonly outputs: readonly RequestedOutput[]
  /**
   * The request's own timeout in ms, from Triton's `parameters.timeout` (an integer in
   * microseconds, as Triton's clients send it); `undefined` when it gave none (or 0,
   * which Triton reads as "the model's default").
   */
  readonly timeoutMs?: number | undefined
  /**
   * The request's priority level, from Triton's `parameters.priority` (schedule-policy
   * extension: an integer, 1 the highest level); `undefined` when it gave none (or 0,
   * which Triton reads as "the model's default level").
   */
  readonly priorityLevel?: number | undefined
}

/**
 * Sets `object[key]` as an own property: plain assignment, except for `__proto__`, which
 * assignment would take as the object's prototype.
 */
function ownEntry<T>(object: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
  else object[key] = value
}

/** A decoded request: its inputs as the body gave them, split into rows only if asked. */
export class DecodedRequest implements DecodedInferRequest {
  #rows: RowInput[] | undefined
  readonly rowCount: number
  readonly block: BlockInput | undefined
  constructor(
    readonly id: string | undefined,
    readonly inputs: readonly DecodedInput[],
    readonly outputs: readonly RequestedOutput[],
    readonly timeoutMs: number | undefined = undefined,
    readonly priorityLevel: number | undefined = undefined,
  ) {
    this.rowCount = inputs[0].shape[0]
    let block: BlockInput | undefined = {}
    for (const input of inputs) {
      if (Array.isArray(input.data)) {
        block = undefined
        break
      }
      ownEntry(block, input.name, { data: input.data as TypedArray, dims: input.shape })
    }
    this.block = block
  }

  get rows(): RowInput[] {
    this.#rows ??= splitRows(this.inputs)
    return this.#rows
  }
}

export interface DecodeLimits {
  /** Most rows (the first dim of `shape`) one request may carry. */
  readonly maxRows: number
}

/** Most dims a request's `shape` may have (a bound on work, far above any real model's rank). */
export const MAX_RANK = 32

type JsonObject = { readonly [key: string]: unknown }

/** A JSON array: a plain array, or a `Float64Array` when json-numbers.ts read one of numbers only. */
type JsonArray = readonly unknown[] | Float64Array

function isArray(value: unknown): value is JsonArray {
  return Array.isArray(value) || value instanceof Float64Array
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'none'
  if (isArray(value)) return value.length === 0 ? 'an empty array' : 'an array'
  if (typeof value === 'string') return `'${value.length > 64 ? `${value.slice(0, 64)}…` : value}'`
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}

/** An input as the request gives it: all its rows in one typed array (or one array of strings). */
interface DecodedInput {
  readonly name: string
  readonly shape: readonly number[]
  readonly data: TensorData
}

/** How a JSON element becomes an element of the tensor (`undefined`: not a valid one). */
type Reader = (value: unknown) => number | bigint | string | undefined

const readString: Reader = (value) => (typeof value === 'string' ? value : undefined)

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Where an input's binary tensor bytes come from: the bytes after the JSON header
 * (`BinaryTail`), or gRPC's `raw_input_contents`.
 */
export interface TensorBytesSource {
  /** The next tensor's bytes, `size` being what the request declares for it. */
  take(input: string, size: unknown): Buffer
  /** Throws when bytes are left over. */
  finish(): void
  /** What the request calls a tensor's byte count, for messages. @default "binary_data_size" */
  readonly sizeName?: (input: string) => string
}

/**
 * An inference request already in the protocol's object form (a gRPC message mapped by
 * src/grpc/request.ts), with its binary tensors in `tensors`: checked exactly as an
 * HTTP body is.
 */
export function decodeInferFields(
  body: unknown,
  tensors: TensorBytesSource | undefined,
  metadata: PoolMetadata,
  limits: DecodeLimits,
): DecodedInferRequest {
  return decodeJsonRequest(body, tensors, metadata, limits)
}

/** Refuses a request of more than `limits.maxRows` rows, naming the input that declares them. */
export function checkRowCount(input: string, rows: number, limits: DecodeLimits): void {
  if (rows > limits.maxRows) {
    throw invalidInput(`A request may carry at most ${limits.maxRows} rows, input "${input}" has ${rows}`, {
      input,
      maxRows: limits.maxRows,
    })
  }
}

function decodeJsonRequest(
  body: unknown,
  tail: TensorBytesSource | undefined,
  metadata: PoolMetadata,
  limits: DecodeLimits,
): DecodedInferRequest {
  if (!isObject(body)) throw invalidInput(`Request body must be a JSON object, got ${describe(body)}`)

  const id = body.id
  if (id !== undefined && typeof id !== 'string') throw invalidInput(`'id' must be a string, got ${describe(id)}`)

  const parameters = body.parameters
  if (parameters !== undefined && !isObject(parameters)) throw invalidInput(`'parameters' must be an object, got ${describe(parameters)}`)
  const binaryByDefault = booleanParameter(parameters?.binary_data_output, "'parameters.binary_data_output'")
  const timeoutMs = timeoutParameter(parameters?.timeout)
  const priorityLevel = priorityParameter(parameters?.priority)
  const outputs = decodeRequestedOutputs(body.outputs, metadata, binaryByDefault)

  const inputs = body.inputs
  if (!isArray(inputs) || inputs.length === 0) {
    throw invalidInput(`'inputs' must be a non-empty array, got ${describe(inputs)}`)
  }
  const modelInputs = modelInputsOf(metadata)
  if (inputs.length > modelInputs.size) {
    throw invalidInput(`The model has ${modelInputs.size} input(s), the request has ${inputs.length}`)
  }

  const decoded: DecodedInput[] = []
  for (let i = 0; i < inputs.length; i++) {
    const input = decodeInput(inputs[i], i, modelInputs, decoded, tail, limits)
    if (decoded.length > 0 && decoded[0].shape[0] !== input.shape[0]) {
      throw invalidInput(
        `Every input must have the same number of rows (first dim of 'shape'): "${input.name}" has ${input.shape[0]}, ` +
          `"${decoded[0].name}" ${decoded[0].shape[0]}`,
      )
    }
    decoded.push(input)
  }
  tail?.finish()
  return new DecodedRequest(id, decoded, outputs, timeoutMs, priorityLevel)
}

/** The model's inputs by name, made once per metadata (not per request). */
const inputsByMetadata = new WeakMap<PoolMetadata, ReadonlyMap<string, TensorInfo>>()

function modelInputsOf(metadata: PoolMetadata): ReadonlyMap<string, TensorInfo> {
  let inputs = inputsByMetadata.get(metadata)
  if (inputs === undefined) {
    inputs = new Map(metadata.inputs.map((info) => [info.name, info]))
    inputsByMetadata.set(metadata, inputs)
  }
  return inputs
}

/**
 * Triton's `parameters.timeout` (schedule-policy extension): an int64 count of
 * microseconds; 0 means the model's default. In ms, or `undefined` for none.
 */
function timeoutParameter(value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidInput(`'parameters.timeout' must be an integer >= 0 (microseconds), got ${describe(value)}`)
  }
  return value === 0 ? undefined : value / 1000
}

/**
 * Triton's `parameters.priority` (schedule-policy extension): an int64 priority level, 1
 * the highest; 0 means the model's default level. `undefined` for none.
 */
function priorityParameter(value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidInput(`'parameters.priority' must be an integer >= 0 (a priority level, 1 the highest), got ${describe(value)}`)
  }
  return value === 0 ? undefined : value
}

function booleanParameter(value: unknown, what: string): boolean {
  if (value === undefined) return false
  if (typeof value !== 'boolean') throw invalidInput(`${what} must be a boolean, got ${describe(value)}`)
  return value
}

/** Every output of the model, as JSON and as binary: what a request that names none gets, made once per metadata. */
const allOutputsByMetadata = new WeakMap<PoolMetadata, { json: readonly RequestedOutput[]; binary: readonly RequestedOutput[] }>()

function decodeRequestedOutputs(requested: unknown, metadata: PoolMetadata, binaryByDefault: boolean): readonly RequestedOutput[] {
  if (requested === undefined) {
    let every = allOutputsByMetadata.get(metadata)
    if (every === undefined) {
      const names = metadata.outputs.map((info) => info.name)
      every = {
        json: Object.freeze(names.map((name) => Object.freeze({ name, binary: false }))),
        binary: Object.freeze(names.map((name) => Object.freeze({ name, binary: true }))),
      }
      allOutputsByMetadata.set(metadata, every)
    }
    return binaryByDefault ? every.binary : every.json
  }
  const all = metadata.outputs.map((info) => info.name)
  if (!isArray(requested)) throw invalidInput(`'outputs' must be an array, got ${describe(requested)}`)
  if (requested.length > all.length) {
    throw invalidInput(`The model has ${all.length} output(s), the request asks for ${requested.length}`)
  }
  const binaryOf = new Map<string, boolean>()
  for (const [i, output] of requested.entries()) {
    if (!isObject(output) || typeof output.name !== 'string') {
      throw invalidInput(`'outputs[${i}]' must be an object with a string 'name'`)
    }
    if (!all.includes(output.name)) {
      throw invalidInput(`Unknown output ${describe(output.name)}; the model's outputs are ${all.map((n) => `'${n}'`).join(', ')}`)
    }
    const parameters = output.parameters
    if (parameters !== undefined && !isObject(parameters)) {
      throw invalidInput(`'outputs[${i}].parameters' must be an object, got ${describe(parameters)}`)
    }
    // An output's own `binary_data` overrides the request's `binary_data_output`.
    const own = parameters?.binary_data
    binaryOf.set(output.name, own === undefined ? binaryByDefault : booleanParameter(own, `'outputs[${i}].parameters.binary_data'`))
  }
  return all.filter((name) => binaryOf.has(name)).map((name) => ({ name, binary: binaryOf.get(name) as boolean }))
}

function decodeInput(
  raw: unknown,
  index: number,
  modelInputs: ReadonlyMap<string, TensorInfo>,
  seen: readonly DecodedInput[],
  tail: TensorBytesSource | undefined,
  limits: DecodeLimits,
): DecodedInput {
  const where = `inputs[${index}]`
  if (!isObject(raw)) throw invalidInput(`'${where}' must be an object, got ${describe(raw)}`)
  const { name, datatype, shape, data, parameters } = raw
  if (typeof name !== 'string') throw invalidInput(`'${where}.name' must be a string, got ${describe(name)}`)
  const info = modelInputs.get(name)
  if (info === undefined) {
    const known = [...modelInputs.keys()].map((n) => `'${n}'`).join(', ')
    throw invalidInput(`Unknown input ${describe(name)}; the model's inputs are ${known}`, { input: name })
  }
  if (seen.some((input) => input.name === name)) throw invalidInput(`Input "${name}" is given twice`, { input: name })

  const expectedDatatype = protocolDatatype(info.type)
  if (typeof datatype !== 'string' || !isProtocolDatatype(datatype)) {
    throw invalidInput(`Input "${name}": unknown datatype ${describe(datatype)}; expected ${expectedDatatype}`, {
      input: name,
      expected: expectedDatatype,
    })
  }
  if (datatype !== expectedDatatype) {
    throw invalidInput(`Input "${name}" has datatype ${expectedDatatype}, the request sends ${datatype}`, {
      input: name,
      expected: expectedDatatype,
      actual: datatype,
    })
  }

  const dims = checkShape(name, shape)
  checkRowCount(name, dims[0], limits)
  // Compared with what the body really holds; a huge product (even one past 2^53, which
  // only loses precision) can never equal a real length.
  let total = 1
  for (const dim of dims) total *= dim

  if (parameters !== undefined && !isObject(parameters)) {
    throw invalidInput(`Input "${name}": 'parameters' must be an object, got ${describe(parameters)}`, { input: name })
  }
  const binarySize = parameters?.binary_data_size
  if (binarySize !== undefined) {
    if (data !== undefined) {
      throw invalidInput(`Input "${name}" has both 'data' and parameters.binary_data_size; send one`, { input: name })
    }
    if (tail === undefined) {
      throw new MalformedBinaryError(
        `input "${name}" has parameters.binary_data_size but the request has no Inference-Header-Content-Length header`,
        {
          input: name,
        },
      )
    }
    const sizeName = tail.sizeName?.(name) ?? 'binary_data_size'
    return { name, shape: dims, data: binaryTensor(info, dims, total, tail.take(name, binarySize), sizeName) }
  }
  if (!isArray(data)) throw invalidInput(`Input "${name}": 'data' must be an array, got ${describe(data)}`, { input: name })
  return { name, shape: dims, data: jsonTensor(info, dims, total, data) }
}

function checkShape(name: string, shape: unknown): number[] {
  if (!isArray(shape) || shape.length === 0 || shape.length > MAX_RANK) {
    throw invalidInput(`Input "${name}": 'shape' must be an array of 1 to ${MAX_RANK} dims, rows first, got ${describe(shape)}`, {
      input: name,
    })
  }
  for (let axis = 0; axis < shape.length; axis++) {
    const dim: unknown = shape[axis]
    if (typeof dim !== 'number' || !Number.isSafeInteger(dim) || dim < 1) {
      throw invalidInput(`Input "${name}": shape[${axis}] must be a positive integer, got ${describe(dim)}`, { input: name })
    }
  }
  // A plain array even when the body gave a Float64Array: rows' dims are `number[]`. A
  // loop, not `Array.from`, which goes through the typed array's iterator.
  const dims = new Array<number>(shape.length)
  for (let axis = 0; axis < shape.length; axis++) dims[axis] = shape[axis] as number
  return dims
}

/** An input's binary data: a typed array over the body's bytes, or its BYTES elements as strings. */
export function binaryTensor(
  info: TensorInfo,
  dims: readonly number[],
  total: number,
  bytes: Buffer,
  sizeName = 'binary_data_size',
): TensorData {
  if (info.type === 'string') return binaryStrings(info.name, total, bytes)
  const { create, protocol } = datatypeInfo(info.type)
  const expected = total * create.BYTES_PER_ELEMENT
  if (bytes.length !== expected) {
    throw new MalformedBinaryError(
      `"${info.name}": shape [${dims.join(', ')}] of ${protocol} needs ${expected} bytes, ${sizeName} is ${bytes.length}`,
      { input: info.name, expected, actual: bytes.length },
    )
  }
  if (info.type === 'bool') {
    const bad = bytes.findIndex((b) => b > 1)
    if (bad !== -1) {
      throw invalidInput(`Input "${info.name}": BOOL element ${bad} is byte ${bytes[bad]}; a BOOL is one byte, 0 or 1`, {
        input: info.name,
        index: bad,
      })
    }
  }
  return typedArrayOver(bytes, create, total)
}

/**
 * A BYTES input for a model's string input: each element must be UTF-8 text (ONNX
 * Runtime holds string tensors as JS strings; arbitrary bytes would not survive).
 */
function binaryStrings(name: string, total: number, bytes: Buffer): string[] {
  return readBytesElements(bytes, total, name).map((element, index) => {
    try {
      return utf8.decode(element)
    } catch {
      throw invalidInput(`Input "${name}": BYTES element ${index} is not valid UTF-8; the model's string input takes text`, {
        input: name,
        index,
      })
    }
  })
}

/** An input's JSON `data` (flat or nested as `shape`) as one typed array (or strings), every element checked. */
function jsonTensor(info: TensorInfo, dims: readonly number[], total: number, data: JsonArray): TensorData {
  const name = info.name
  const nested = data.length > 0 && isArray(data[0])
  if (nested) {
    checkNested(data, dims, 0, name)
  } else if (data.length !== total) {
    throw invalidInput(`Input "${name}": shape [${dims.join(', ')}] holds ${total} elements, 'data' has ${data.length}`, {
      input: name,
      expected: total,
      actual: data.length,
    })
  }
  // The element count is now known to be real (checkNested counted every leaf level).
  let out: TensorData
  let read: Reader
  let expects: string
  if (info.type === 'string') {
    out = new Array<string>(total)
    read = readString
    expects = 'a string'
  } else {
    const numeric = datatypeInfo(info.type)
    out = new numeric.create(total)
    read = numeric.read as Reader
    expects = numeric.expects
  }
  if (!nested && data instanceof Float64Array && (out instanceof Float32Array || out instanceof Float64Array)) {
    // The fast parser's numbers: converted by one `set` (a Float32Array store rounds as
    // `Math.fround` does), then checked for what the datatype cannot hold (1e39 in FP32,
    // 1e400 in either), as `read` would have refused it.
    out.set(data)
    for (let j = 0; j < total; j++) {
      if (!Number.isFinite(out[j])) throw badElement(name, j, data[j], expects)
    }
  } else if (!nested) {
    for (let j = 0; j < total; j++) {
      const value = read(data[j])
      if (value === undefined) throw badElement(name, j, data[j], expects)
      ;(out as unknown[])[j] = value
    }
  } else {
    fillNested(data, out, 0, 0, dims.length - 1, read, expects, name)
  }
  return out
}

/** Checks that nested `data` has exactly the lengths of `shape`, level by level. */
function checkNested(data: JsonArray, shape: readonly number[], axis: number, name: string): void {
  if (data.length !== shape[axis]) {
    throw invalidInput(`Input "${name}": nested 'data' has ${data.length} entries at depth ${axis}, shape says ${shape[axis]}`, {
      input: name,
    })
  }
  if (axis === shape.length - 1) return
  for (const child of data) {
    if (!isArray(child)) {
      throw invalidInput(`Input "${name}": nested 'data' must be arrays down to depth ${shape.length - 1}`, { input: name })
    }
    checkNested(child, shape, axis + 1, name)
  }
}

/**
 * Copies nested `data` into `out`. The structure was checked by `checkNested`, so
 * every level above `lastAxis` is an array of the right length.
 */
function fillNested(
  node: JsonArray,
  out: TensorData,
  offset: number,
  axis: number,
  lastAxis: number,
  read: Reader,
  expects: string,
  name: string,
): number {
  if (axis === lastAxis) {
    for (const item of node) {
      const value = read(item)
      if (value === undefined) throw badElement(name, offset, item, expects)
      ;(out as unknown[])[offset++] = value
    }
    return offset
  }
  for (const child of node) {
    offset = fillNested(child as JsonArray, out, offset, axis + 1, lastAxis, read, expects, name)
  }
  return offset
}

function badElement(name: string, index: number, value: unknown, expects: string): Error {
  return invalidInput(`Input "${name}": element ${index} is ${describe(value)}, expected ${expects}`, { input: name, index })
}

/** Elements `start` to `end`: a view of a typed array, a copy of strings. */
function rowOf(data: TensorData, start: number, end: number): TensorData {
  return Array.isArray(data) ? data.slice(start, end) : (data.subarray(start, end) as TypedArray)
}

/** One `RowInput` per row: views into each input's array, sharing one dims array per input. */
function splitRows(inputs: readonly DecodedInput[]): RowInput[] {
  const rowCount = inputs[0].shape[0]
  const parts = inputs.map((input) => {
    const rowDims = input.shape.slice(1)
    return { name: input.name, data: input.data, rowDims, rowElements: input.data.length / rowCount }
  })
  const rows: RowInput[] = new Array(rowCount)
  for (let r = 0; r < rowCount; r++) {
    // A plain loop: `Object.fromEntries` over a mapped array made three arrays per row.
    const row: RowInput = {}
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]
      ownEntry<RowInput[string]>(row, p.name, { data: rowOf(p.data, r * p.rowElements, (r + 1) * p.rowElements), dims: p.rowDims })
    }
    rows[r] = row
  }
  return rows
}
