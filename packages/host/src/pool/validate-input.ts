/**
 * Checks one request against the model before it is queued, so a bad request is
 * rejected at once with what was expected and can never poison a batch.
 *
 * This runs for every row on the host thread, which shares the cores with the
 * replicas: the checks read facts precomputed per input (model-shape.ts), message
 * text is only built when a check fails, and a valid row of a fixed-shape input
 * allocates nothing but its `ValidRow`, its `tensors` array and one entry per input.
 */
import { InvalidInputError } from '../errors.js'
import type { RowInput, RowTensor, TensorData, TypedArray } from '../types.js'
import type { InputSpec, ModelShape } from './model-shape.js'

/** A validated row: per input (in the model's order) its data and row dims. */
export interface ValidRow {
  /**
   * `dims` may be shared with other rows (a fixed-shape input's `fixedDims`): read only.
   * `data` is the caller's own array, copied only when the batch is packed.
   */
  tensors: Array<{ data: TensorData; dims: readonly number[] }>
  /** Rows with equal keys can share a batch (`''` when every row can). */
  key: string
  /** Per symbolic axis of a padded input: this row's length. Shared and empty when nothing is padded. */
  lengths: ReadonlyMap<string, number>
}

const NO_LENGTHS: ReadonlyMap<string, number> = new Map()

function isTypedArray(value: unknown): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView)
}

/** What a value is, for error messages: `null`, `an array`, its class name, or its `typeof`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'an object'
  return typeof value
}

function isDimList(dims: unknown): dims is readonly number[] {
  if (!Array.isArray(dims)) return false
  for (let i = 0; i < dims.length; i++) {
    const d: unknown = dims[i]
    if (!Number.isInteger(d) || (d as number) < 0) return false
  }
  return true
}

/** Every element a string (checked per element: a row of a string input is a plain array). */
function isStringArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false
  return true
}

function checkOne(spec: InputSpec, value: unknown): { data: TensorData; dims: readonly number[] } {
  let data: unknown
  let dims: unknown
  if (isTypedArray(value) || (spec.type === 'string' && Array.isArray(value))) {
    data = value
  } else if (typeof value === 'object' && value !== null && 'data' in value) {
    data = (value as RowTensor).data
    dims = (value as RowTensor).dims
  } else {
    throw new InvalidInputError(
      `Input "${spec.name}" must be a ${spec.ctor.name} or { data, dims } (${spec.expected} without the batch dimension), got ${typeName(value)}`,
      { details: { input: spec.name, expected: spec.expected } },
    )
  }
  if (spec.type === 'string') {
    if (!isStringArray(data)) {
      throw new InvalidInputError(
        `Input "${spec.name}" must be an array of strings (${spec.expected} without the batch dimension), got ${typeName(data)}`,
        {
          details: { input: spec.name, expectedType: spec.type, actual: typeName(data) },
        },
      )
    }
  } else if (!(data instanceof spec.ctor)) {
    throw new InvalidInputError(`Input "${spec.name}" must be a ${spec.ctor.name} (${spec.type}), got ${typeName(data)}`, {
      details: { input: spec.name, expectedType: spec.type, actual: typeName(data) },
    })
  }
  const fixedDims = spec.fixedDims
  if (dims === undefined) {
    if (fixedDims === null) {
      throw new InvalidInputError(
        `Input "${spec.name}" has dynamic dims (${spec.expected} without the batch dimension): pass { data, dims }`,
        { details: { input: spec.name, expected: spec.expected } },
      )
    }
    if (data.length !== spec.fixedElements) {
      throw new InvalidInputError(
        `Input "${spec.name}" must have ${spec.fixedElements} elements (${spec.expected} without the batch dimension), got ${data.length}`,
        { details: { input: spec.name, expected: spec.fixedElements, actual: data.length } },
      )
    }
    return { data, dims: fixedDims }
  }
  if (!isDimList(dims)) {
    throw new InvalidInputError(`Input "${spec.name}" dims must be an array of non-negative integers, got ${JSON.stringify(dims)}`, {
      details: { input: spec.name, dims },
    })
  }
  const rowDims = spec.rowDims
  if (dims.length !== rowDims.length) {
    throw new InvalidInputError(
      `Input "${spec.name}" must have ${rowDims.length} dims without the batch dimension (${spec.expected}), got [${dims.join(', ')}]`,
      { details: { input: spec.name, expected: spec.expected, actual: [...dims] } },
    )
  }
  let count = 1
  for (let axis = 0; axis < rowDims.length; axis++) {
    const d = rowDims[axis]
    if ('fixed' in d && dims[axis] !== d.fixed) {
      throw new InvalidInputError(
        `Input "${spec.name}" has dims [${dims.join(', ')}], expected ${spec.expected} without the batch dimension (axis ${axis} must be ${d.fixed})`,
        { details: { input: spec.name, expected: spec.expected, actual: [...dims] } },
      )
    }
    count *= dims[axis]
  }
  if (data.length !== count) {
    throw new InvalidInputError(`Input "${spec.name}" has ${data.length} elements, but dims [${dims.join(', ')}] need ${count}`, {
      details: { input: spec.name, expected: count, actual: data.length },
    })
  }
  // A copy: the caller may reuse its dims array before the batch is packed. Dims equal
  // to a fixed shape's are all that shape can have, so its shared array does.
  return { data, dims: fixedDims ?? [...dims] }
}

/**
 * Throws for the first own key of `input` that is not an input of the model. Only
 * called once the cheap scan in `validateRow` met a name it does not know: that scan
 * (`for…in`) also sees inherited enumerable keys, which are not an error.
 */
function checkNames(input: object, shape: ModelShape): void {
  for (const name of Object.keys(input)) {
    if (!shape.inputNames.has(name)) {
      throw new InvalidInputError(`Unknown input "${name}"; the model's inputs are ${shape.expectedList}`, {
        details: { input: name, expected: shape.expectedList },
      })
    }
  }
}

/** Validates a request; throws `InvalidInputError` saying what was expected. */
export function validateRow(input: RowInput, shape: ModelShape): ValidRow {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || isTypedArray(input)) {
    throw new InvalidInputError(`Expected an object of input tensors by name (${shape.expectedList}), got ${typeName(input)}`, {
      details: { expected: shape.expectedList },
    })
  }
  // `for…in` instead of `Object.keys`: no array per row for the common, valid case.
  for (const name in input) {
    if (!shape.inputNames.has(name)) {
      checkNames(input, shape)
      break
    }
  }
  const specs = shape.inputs
  // Sized up front: `[]` then `push` would allocate room for 17 entries per row
  // (docs/runtime-facts.md#v8-on-the-hot-path).
  const tensors: ValidRow['tensors'] = new Array(specs.length)
  let lengths = NO_LENGTHS
  // Dims that share a symbolic name must agree within a row (ORT would reject the batch).
  let symbolic: Map<string, { size: number; input: string }> | undefined
  let key = ''
  for (let index = 0; index < specs.length; index++) {
    const spec = specs[index]
    const value: unknown = input[spec.name]
    if (value === undefined) {
      throw new InvalidInputError(`Missing input "${spec.name}" (${spec.expected} without the batch dimension)`, {
        details: { input: spec.name, expected: shape.expectedList },
      })
    }
    const tensor = checkOne(spec, value)
    for (const { axis, symbol, lengthName, keyPrefix } of spec.dynamicAxes) {
      const size = tensor.dims[axis]
      if (symbol !== null && shape.sharedSymbols) {
        symbolic ??= new Map()
        const seen = symbolic.get(symbol)
        if (seen && seen.size !== size) {
          throw new InvalidInputError(`Inputs "${seen.input}" and "${spec.name}" disagree on axis "${symbol}": ${seen.size} vs ${size}`, {
            details: { axis: symbol, [seen.input]: seen.size, [spec.name]: size },
          })
        }
        symbolic.set(symbol, { size, input: spec.name })
      }
      if (lengthName !== null) {
        if (lengths === NO_LENGTHS) lengths = new Map()
        ;(lengths as Map<string, number>).set(lengthName, size)
      } else if (keyPrefix !== null) {
        key += `${keyPrefix}${size};`
      }
    }
    tensors[index] = tensor
  }
  return { tensors, key, lengths }
}
