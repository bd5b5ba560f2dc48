/**
 * Reads an Open Inference Protocol inference request (already parsed JSON, untrusted)
 * into one `RowInput` per row, checked against the model's metadata. The gRPC service
 * hands its requests over in the same shape (`src/grpc/request.ts`), an input's `data`
 * then being either its typed contents or its raw bytes (a `Uint8Array`), so every
 * request is checked here, once, with the same messages.
 *
 * Invariants that keep hostile bodies harmless:
 * - Only fixed property names are read from request objects, and rows are built with
 *   `Object.fromEntries` from names that are model inputs, so `__proto__` and friends
 *   can never reach a prototype.
 * - No allocation is sized from the request's `shape`: the element count implied by
 *   `shape` must first equal the number of elements (or bytes) actually present in
 *   `data` (which the body-size limit already bounds), and per-row arrays are only
 *   allocated after that check.
 * - Recursion into nested `data` is bounded by the model input's rank, never by the
 *   depth of the JSON.
 */
import type { PoolMetadata, RowInput, RowTensor, TensorInfo, TypedArray } from '../types.js'
import { datatypeInfo, isProtocolDatatype, protocolDatatype } from './datatypes.js'
import { invalidInput } from './invalid-input.js'

export interface DecodedInferRequest {
  /** The request's `id`, echoed in the response. */
  readonly id: string | undefined
  /** One input per row, in request order. */
  readonly rows: RowInput[]
  /** Names of the outputs to return, in the model's order. */
  readonly outputs: readonly string[]
}

export interface DecodeLimits {
  /** Most rows (the first dim of `shape`) one request may carry. */
  readonly maxRows: number
}

type JsonObject = { readonly [key: string]: unknown }

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `'${value.length > 64 ? `${value.slice(0, 64)}…` : value}'`
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`
}

function isBatchable(info: TensorInfo): boolean {
  return info.dims.length >= 1
}

/** Whether a declared dim is fixed (a non-negative number) rather than symbolic. */
function fixedDim(dim: number | string | undefined): number | undefined {
  return typeof dim === 'number' && dim >= 0 ? dim : undefined
}

interface CheckedInput {
  readonly info: TensorInfo
  readonly shape: readonly number[]
  readonly rowElements: number
  /** JSON elements, or the raw little-endian bytes of the whole tensor. */
  readonly data: readonly unknown[] | Uint8Array
  readonly nested: boolean
}

export function decodeInferRequest(body: unknown, metadata: PoolMetadata, limits: DecodeLimits): DecodedInferRequest {
  if (!isObject(body)) throw invalidInput(`Request body must be a JSON object, got ${describe(body)}`)

  const id = body.id
  if (id !== undefined && typeof id !== 'string') throw invalidInput(`'id' must be a string, got ${describe(id)}`)

  const outputs = decodeRequestedOutputs(body.outputs, metadata)

  const inputs = body.inputs
  if (!Array.isArray(inputs) || inputs.length === 0) {
    throw invalidInput(`'inputs' must be a non-empty array, got ${describe(inputs)}`)
  }
  const modelInputs = new Map(metadata.inputs.map((info) => [info.name, info]))
  if (inputs.length > modelInputs.size) {
    throw invalidInput(`The model has ${modelInputs.size} input(s), the request has ${inputs.length}`)
  }

  const checked = new Map<string, CheckedInput>()
  let rows: number | undefined
  for (let i = 0; i < inputs.length; i++) {
    const input = checkInput(inputs[i], i, modelInputs, checked, limits)
    const inputRows = input.shape[0]
    if (rows === undefined) rows = inputRows
    else if (rows !== inputRows) {
      throw invalidInput(
        `Every input must have the same number of rows (first dim of 'shape'): '${input.info.name}' has ${inputRows}, others ${rows}`,
      )
    }
    checked.set(input.info.name, input)
  }
  const missing = metadata.inputs.filter((info) => !checked.has(info.name)).map((info) => `'${info.name}'`)
  if (missing.length > 0) throw invalidInput(`Missing input(s) ${missing.join(', ')}`)

  // Every input matches its shape; only now are buffers allocated.
  const rowCount = rows ?? 0
  const perInput = [...checked.values()].map((input) => ({ name: input.info.name, rows: splitRows(input, rowCount) }))
  const rowInputs: RowInput[] = new Array(rowCount)
  for (let r = 0; r < rowCount; r++) {
    rowInputs[r] = Object.fromEntries(perInput.map((input) => [input.name, input.rows[r]])) as RowInput
  }
  return { id, rows: rowInputs, outputs }
}

function decodeRequestedOutputs(requested: unknown, metadata: PoolMetadata): readonly string[] {
  const all = metadata.outputs.map((info) => info.name)
  if (requested === undefined) return all
  if (!Array.isArray(requested)) throw invalidInput(`'outputs' must be an array, got ${describe(requested)}`)
  if (requested.length > all.length) {
    throw invalidInput(`The model has ${all.length} output(s), the request asks for ${requested.length}`)
  }
  const names = new Set<string>()
  for (const [i, output] of requested.entries()) {
    if (!isObject(output) || typeof output.name !== 'string') {
      throw invalidInput(`'outputs[${i}]' must be an object with a string 'name'`)
    }
    if (!all.includes(output.name)) {
      throw invalidInput(`Unknown output ${describe(output.name)}; the model's outputs are ${all.map((n) => `'${n}'`).join(', ')}`)
    }
    if (isObject(output.parameters) && output.parameters.binary_data === true) {
      throw invalidInput('The binary tensor data extension is not supported; ask for JSON outputs')
    }
    names.add(output.name)
  }
  return all.filter((name) => names.has(name))
}

function checkInput(
  raw: unknown,
  index: number,
  modelInputs: ReadonlyMap<string, TensorInfo>,
  seen: ReadonlyMap<string, CheckedInput>,
  limits: DecodeLimits,
): CheckedInput {
  const where = `inputs[${index}]`
  if (!isObject(raw)) throw invalidInput(`'${where}' must be an object, got ${describe(raw)}`)
  const { name, datatype, shape, data, parameters } = raw
  if (typeof name !== 'string') throw invalidInput(`'${where}.name' must be a string, got ${describe(name)}`)
  const info = modelInputs.get(name)
  if (info === undefined) {
    const known = [...modelInputs.keys()].map((n) => `'${n}'`).join(', ')
    throw invalidInput(`Unknown input ${describe(name)}; the model's inputs are ${known}`, { input: name })
  }
  if (seen.has(name)) throw invalidInput(`Input '${name}' is given twice`, { input: name })
  if (!isBatchable(info)) throw invalidInput(`Input '${name}' has no batch dimension and cannot be served`)
  if (isObject(parameters) && parameters.binary_data_size !== undefined) {
    throw invalidInput('The binary tensor data extension is not supported; send tensor data as JSON')
  }

  const expectedDatatype = protocolDatatype(info.type)
  if (typeof datatype !== 'string' || !isProtocolDatatype(datatype)) {
    throw invalidInput(`Input '${name}': unknown datatype ${describe(datatype)}; expected ${expectedDatatype}`, {
      input: name,
      expected: expectedDatatype,
    })
  }
  if (datatype !== expectedDatatype) {
    throw invalidInput(`Input '${name}' has datatype ${expectedDatatype}, the request sends ${datatype}`, {
      input: name,
      expected: expectedDatatype,
      actual: datatype,
    })
  }

  const rank = info.dims.length
  const declared = `[${info.dims.map((d) => (fixedDim(d) ?? -1)).join(', ')}]`
  if (!Array.isArray(shape) || shape.length !== rank) {
    throw invalidInput(`Input '${name}': 'shape' must be an array of ${rank} dims like ${declared}, got ${describe(shape)}`, {
      input: name,
    })
  }
  for (let axis = 0; axis < rank; axis++) {
    const dim: unknown = shape[axis]
    if (typeof dim !== 'number' || !Number.isSafeInteger(dim) || dim < 1) {
      throw invalidInput(`Input '${name}': shape[${axis}] must be a positive integer, got ${describe(dim)}`, { input: name })
    }
    const fixed = axis === 0 ? undefined : fixedDim(info.dims[axis])
    if (fixed !== undefined && dim !== fixed) {
      throw invalidInput(`Input '${name}': shape[${axis}] must be ${fixed} (model shape ${declared}), got ${dim}`, {
        input: name,
      })
    }
  }
  const dims = shape as number[]
  if (dims[0] > limits.maxRows) {
    throw invalidInput(`A request may carry at most ${limits.maxRows} rows, input '${name}' has ${dims[0]}`, {
      input: name,
      maxRows: limits.maxRows,
    })
  }

  // Products are compared with what `data` really holds; a huge product (even one past
  // 2^53, which only loses precision) can never equal a real array length.
  let rowElements = 1
  for (let axis = 1; axis < rank; axis++) rowElements *= dims[axis]
  const total = rowElements * dims[0]
  if (data instanceof Uint8Array) return checkRaw(info, dims, rowElements, total, data)
  if (!Array.isArray(data)) throw invalidInput(`Input '${name}': 'data' must be an array, got ${describe(data)}`)
  const nested = data.length > 0 && Array.isArray(data[0])
  if (nested) {
    checkNested(data, dims, 0, name)
  } else if (data.length !== total) {
    throw invalidInput(
      `Input '${name}': shape [${dims.join(', ')}] holds ${total} elements, 'data' has ${data.length}`,
      { input: name, expected: total, actual: data.length },
    )
  }
  return { info, shape: dims, rowElements, data, nested }
}

/**
 * An input in the raw form (gRPC's `raw_input_contents`): the tensor's elements as
 * little-endian bytes, row-major, without padding — the byte order of every platform
 * Node runs ONNX Runtime on, so rows are plain byte copies. `data` may be a view at any
 * offset of a larger buffer; it is only read, never kept.
 */
function checkRaw(info: TensorInfo, shape: number[], rowElements: number, total: number, data: Uint8Array): CheckedInput {
  const { create, protocol } = datatypeInfo(info.type)
  const expected = total * create.BYTES_PER_ELEMENT
  if (data.byteLength !== expected) {
    throw invalidInput(
      `Input '${info.name}': shape [${shape.join(', ')}] of ${protocol} holds ${expected} bytes, the raw contents have ${data.byteLength}`,
      { input: info.name, expected, actual: data.byteLength },
    )
  }
  if (info.type === 'bool') {
    const bad = data.findIndex((byte) => byte > 1)
    if (bad !== -1) throw badElement(info.name, bad % rowElements, data[bad], 'a byte 0 or 1')
  }
  return { info, shape, rowElements, data, nested: false }
}

/** Checks that nested `data` has exactly the lengths of `shape`, level by level. */
function checkNested(data: readonly unknown[], shape: readonly number[], axis: number, name: string): void {
  if (data.length !== shape[axis]) {
    throw invalidInput(
      `Input '${name}': nested 'data' has ${data.length} entries at depth ${axis}, shape says ${shape[axis]}`,
      { input: name },
    )
  }
  if (axis === shape.length - 1) return
  for (const child of data) {
    if (!Array.isArray(child)) {
      throw invalidInput(`Input '${name}': nested 'data' must be arrays down to depth ${shape.length - 1}`, { input: name })
    }
    checkNested(child, shape, axis + 1, name)
  }
}

function splitRows(input: CheckedInput, rowCount: number): RowTensor[] {
  const { info, shape, rowElements, data, nested } = input
  const { create, read, expects } = datatypeInfo(info.type)
  const rowDims = shape.slice(1)
  const lastAxis = shape.length - 1
  const rows: RowTensor[] = new Array(rowCount)
  for (let r = 0; r < rowCount; r++) {
    // One buffer per row: rows travel through the pool independently (and may be
    // transferred), so they must not share an ArrayBuffer.
    const out = new create(rowElements)
    if (data instanceof Uint8Array) {
      // Copying byte-wise also aligns: `data` may start at any offset.
      const rowBytes = out.byteLength
      new Uint8Array(out.buffer).set(data.subarray(r * rowBytes, (r + 1) * rowBytes))
    } else if (!nested) {
      const base = r * rowElements
      for (let j = 0; j < rowElements; j++) {
        const value = read(data[base + j])
        if (value === undefined) throw badElement(info.name, base + j, data[base + j], expects)
        out[j] = value
      }
    } else if (lastAxis === 0) {
      // Rank-1 input sent nested: each row would be an array, never a valid element.
      throw badElement(info.name, r, data[r], expects)
    } else {
      fillNested((data as readonly unknown[])[r] as readonly unknown[], out, 0, 1, lastAxis, read, expects, info.name)
    }
    rows[r] = { data: out, dims: rowDims }
  }
  return rows
}

/**
 * Copies one row of nested `data` into `out`. The structure was checked by
 * `checkNested`, so every level above `lastAxis` is an array of the right length;
 * recursion depth is the model input's rank whatever the JSON's depth.
 */
function fillNested(
  node: readonly unknown[],
  out: TypedArray,
  offset: number,
  axis: number,
  lastAxis: number,
  read: (value: unknown) => number | bigint | undefined,
  expects: string,
  name: string,
): number {
  if (axis === lastAxis) {
    for (const item of node) {
      const value = read(item)
      if (value === undefined) throw badElement(name, offset, item, expects)
      out[offset++] = value
    }
    return offset
  }
  for (const child of node) {
    offset = fillNested(child as readonly unknown[], out, offset, axis + 1, lastAxis, read, expects, name)
  }
  return offset
}

function badElement(name: string, index: number, value: unknown, expects: string): Error {
  return invalidInput(`Input '${name}': element ${index} of a row is ${describe(value)}, expected ${expects}`, {
    input: name,
    index,
  })
}
