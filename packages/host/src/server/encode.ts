/**
 * Writes an Open Inference Protocol inference response: the rows' outputs put back
 * together, in request order, as one tensor per output with the rows as first dim.
 */
import type { RowOutput, TypedArray } from '../types.js'
import { protocolDatatype } from './datatypes.js'
import { OutputShapeMismatchError } from './errors.js'

/** The version every served model reports: one version per model name. */
export const MODEL_VERSION = '1'

function sameDims(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i])
}

/**
 * JSON text of a typed array's elements, without the brackets. `join` is far faster
 * than building an array of numbers for `JSON.stringify`; it prints bigints as plain
 * integers (valid JSON of any precision) and only needs help for values JSON lacks.
 */
function elementsJson(data: TypedArray, bool: boolean): string {
  if (bool) return Array.from(data as Uint8Array, (v) => (v === 0 ? 'false' : 'true')).join(',')
  if ((data instanceof Float32Array || data instanceof Float64Array) && !data.every(Number.isFinite)) {
    // NaN and ±Infinity have no JSON form; `null` is what JSON.stringify writes too.
    return Array.from(data, (v) => (Number.isFinite(v) ? String(v) : 'null')).join(',')
  }
  return data.join(',')
}

export function encodeInferResponse(
  modelName: string,
  id: string | undefined,
  outputNames: readonly string[],
  results: readonly RowOutput[],
): string {
  const tensors: string[] = []
  for (const name of outputNames) {
    const first = results[0][name]
    const rowDims = first.dims
    const parts: string[] = []
    for (let r = 0; r < results.length; r++) {
      const tensor = results[r][name]
      if (r > 0 && !sameDims(rowDims, tensor.dims)) throw new OutputShapeMismatchError(name, rowDims, tensor.dims, r)
      const text = elementsJson(tensor.data, tensor.type === 'bool')
      if (text.length > 0) parts.push(text)
    }
    tensors.push(
      `{"name":${JSON.stringify(name)},"datatype":"${protocolDatatype(first.type)}",` +
        `"shape":${JSON.stringify([results.length, ...rowDims])},"data":[${parts.join(',')}]}`,
    )
  }
  const idPart = id === undefined ? '' : `"id":${JSON.stringify(id)},`
  return `{"model_name":${JSON.stringify(modelName)},"model_version":"${MODEL_VERSION}",${idPart}"outputs":[${tensors.join(',')}]}`
}
