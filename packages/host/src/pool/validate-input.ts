/**
 * Checks one request against the model before it is queued, so a bad request is
 * rejected at once with what was expected and can never poison a batch.
 */
import { TYPED_ARRAY_OF } from '@inferpool/worker'
import { InvalidInputError } from '../errors.js'
import type { RowInput, RowTensor, TypedArray } from '../types.js'
import { formatInfo } from './model-shape.js'
import type { InputSpec, ModelShape } from './model-shape.js'

/** A validated row: per input (in the model's order) its data and row dims. */
export interface ValidRow {
  tensors: Array<{ data: TypedArray; dims: number[] }>
  /** Rows with equal keys can share a batch (`''` when every row can). */
  key: string
  /** Per symbolic axis of a padded input: this row's length. */
  lengths: Map<string, number>
}

function isTypedArray(value: unknown): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView)
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'an object'
  return typeof value
}

function checkOne(spec: InputSpec, value: unknown): { data: TypedArray; dims: number[] } {
  const Expected = TYPED_ARRAY_OF[spec.type]
  const expected = formatInfo(spec.type, spec.rowDims)
  let data: unknown
  let dims: readonly number[] | undefined
  if (isTypedArray(value)) {
    data = value
  } else if (typeof value === 'object' && value !== null && 'data' in value) {
    data = (value as RowTensor).data
    dims = (value as RowTensor).dims
  } else {
    throw new InvalidInputError(
      `Input "${spec.name}" must be a ${Expected.name} or { data, dims } (${expected} without the batch dimension), got ${typeName(value)}`,
      { details: { input: spec.name, expected } },
    )
  }
  if (!(data instanceof Expected)) {
    throw new InvalidInputError(`Input "${spec.name}" must be a ${Expected.name} (${spec.type}), got ${typeName(data)}`, {
      details: { input: spec.name, expectedType: spec.type, actual: typeName(data) },
    })
  }
  if (dims === undefined) {
    if (spec.rowDims.some((d) => 'dynamic' in d)) {
      throw new InvalidInputError(
        `Input "${spec.name}" has dynamic dims (${expected} without the batch dimension): pass { data, dims }`,
        { details: { input: spec.name, expected } },
      )
    }
    const rowDims = spec.rowDims.map((d) => (d as { fixed: number }).fixed)
    const count = rowDims.reduce((a, b) => a * b, 1)
    if (data.length !== count) {
      throw new InvalidInputError(
        `Input "${spec.name}" must have ${count} elements (${expected} without the batch dimension), got ${data.length}`,
        { details: { input: spec.name, expected: count, actual: data.length } },
      )
    }
    return { data, dims: rowDims }
  }
  if (!Array.isArray(dims) || dims.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new InvalidInputError(`Input "${spec.name}" dims must be an array of non-negative integers, got ${JSON.stringify(dims)}`, {
      details: { input: spec.name, dims },
    })
  }
  if (dims.length !== spec.rowDims.length) {
    throw new InvalidInputError(
      `Input "${spec.name}" must have ${spec.rowDims.length} dims without the batch dimension (${expected}), got [${dims.join(', ')}]`,
      { details: { input: spec.name, expected, actual: [...dims] } },
    )
  }
  spec.rowDims.forEach((d, axis) => {
    if ('fixed' in d && dims[axis] !== d.fixed) {
      throw new InvalidInputError(
        `Input "${spec.name}" has dims [${dims.join(', ')}], expected ${expected} without the batch dimension (axis ${axis} must be ${d.fixed})`,
        { details: { input: spec.name, expected, actual: [...dims] } },
      )
    }
  })
  const count = dims.reduce((a, b) => a * b, 1)
  if (data.length !== count) {
    throw new InvalidInputError(`Input "${spec.name}" has ${data.length} elements, but dims [${dims.join(', ')}] need ${count}`, {
      details: { input: spec.name, expected: count, actual: data.length },
    })
  }
  return { data, dims: [...dims] }
}

/** Validates a request; throws `InvalidInputError` saying what was expected. */
export function validateRow(input: RowInput, shape: ModelShape): ValidRow {
  const expectedList = shape.inputs.map((i) => `${i.name}: ${formatInfo(i.type, i.rowDims)}`).join('; ')
  if (typeof input !== 'object' || input === null || Array.isArray(input) || isTypedArray(input)) {
    throw new InvalidInputError(`Expected an object of input tensors by name (${expectedList}), got ${typeName(input)}`, {
      details: { expected: expectedList },
    })
  }
  for (const name of Object.keys(input)) {
    if (!shape.inputs.some((i) => i.name === name)) {
      throw new InvalidInputError(`Unknown input "${name}"; the model's inputs are ${expectedList}`, {
        details: { input: name, expected: expectedList },
      })
    }
  }
  const tensors: ValidRow['tensors'] = []
  const lengths = new Map<string, number>()
  // Dims that share a symbolic name must agree within a row (ORT would reject the batch).
  const symbolic = new Map<string, { size: number; input: string }>()
  let key = ''
  for (const spec of shape.inputs) {
    const value = (input as Record<string, unknown>)[spec.name]
    if (value === undefined) {
      throw new InvalidInputError(`Missing input "${spec.name}" (${formatInfo(spec.type, spec.rowDims)} without the batch dimension)`, {
        details: { input: spec.name, expected: expectedList },
      })
    }
    const tensor = checkOne(spec, value)
    spec.rowDims.forEach((d, axis) => {
      if (!('dynamic' in d)) return
      const size = tensor.dims[axis]
      if (d.dynamic !== null) {
        const seen = symbolic.get(d.dynamic)
        if (seen && seen.size !== size) {
          throw new InvalidInputError(
            `Inputs "${seen.input}" and "${spec.name}" disagree on axis "${d.dynamic}": ${seen.size} vs ${size}`,
            { details: { axis: d.dynamic, [seen.input]: seen.size, [spec.name]: size } },
          )
        }
        symbolic.set(d.dynamic, { size, input: spec.name })
      }
      if (spec.padding?.axis === axis) {
        lengths.set(shape.paddedLengthName.get(spec.name) as string, size)
      } else if (shape.keyed) {
        key += `${spec.name}:${axis}=${size};`
      }
    })
    tensors.push(tensor)
  }
  return { tensors, key, lengths }
}
