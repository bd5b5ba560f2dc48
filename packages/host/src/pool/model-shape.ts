/**
 * What the pool needs to know about a model's inputs and outputs, derived once from
 * the worker's description: row dims (without the batch dim), padding, which output
 * axes to cut back per row, and the model's fixed batch size if it has one.
 */
import type { WireTensorInfo, WorkerDescription } from '@inferpool/worker'
import { ModelLoadError } from '../errors.js'
import type { TensorType } from '../types.js'
import type { ResolvedPoolOptions } from './options.js'

/** One dim of a row: a fixed size, or a dynamic axis (with its symbolic name if any). */
export type RowDim = { fixed: number } | { dynamic: string | null }

export interface InputSpec {
  name: string
  type: TensorType
  rowDims: RowDim[]
  /** Pad along this row axis to the longest row of the batch. */
  padding: { axis: number; value: number | bigint } | null
}

export interface OutputSpec {
  name: string
  type: TensorType
  rowDims: RowDim[]
  /** Row axes to cut back to each row's length of the named symbolic axis (from padding). */
  unpad: Array<{ axis: number; lengthOf: string }>
}

export interface ModelShape {
  inputs: InputSpec[]
  outputs: OutputSpec[]
  /** The model's fixed batch size, or `null` when the batch axis is dynamic. */
  fixedBatchSize: number | null
  /** Rows need a batch key (some input has a dynamic axis that is not padded). */
  keyed: boolean
  /**
   * For each padded input: the name under which its per-row length is recorded
   * (its symbolic axis name, or a synthetic one when the axis has no name).
   */
  paddedLengthName: Map<string, string>
}

function rowDimsOf(info: WireTensorInfo): RowDim[] {
  return info.dims.slice(1).map((d): RowDim => (typeof d === 'number' && d >= 0 ? { fixed: d } : { dynamic: typeof d === 'string' ? d : null }))
}

function loadError(message: string, model: string): ModelLoadError {
  return new ModelLoadError(message, { details: { model } })
}

/** Builds the model's shape facts and checks the `padding` option against it. */
export function buildModelShape(description: WorkerDescription, options: ResolvedPoolOptions): ModelShape {
  const model = options.modelLabel
  for (const info of [...description.inputs, ...description.outputs]) {
    if (info.dims.length === 0) {
      throw loadError(`Model ${model}: "${info.name}" is a scalar; inferpool needs a batch dimension first on every input and output`, model)
    }
  }
  let fixedBatchSize: number | null = null
  for (const info of description.inputs) {
    const first = info.dims[0]
    if (typeof first === 'number' && first > 0) fixedBatchSize = fixedBatchSize === null ? first : Math.min(fixedBatchSize, first)
  }

  for (const name of Object.keys(options.padding)) {
    if (!description.inputs.some((i) => i.name === name)) {
      throw new RangeError(
        `Expected \`padding\` keys to be input names of the model (${description.inputs.map((i) => i.name).join(', ')}), got \`${name}\``,
      )
    }
  }

  const paddedLengthName = new Map<string, string>()
  const inputs = description.inputs.map((info): InputSpec => {
    const rowDims = rowDimsOf(info)
    const pad = options.padding[info.name]
    if (!pad) return { name: info.name, type: info.type, rowDims, padding: null }
    const dim = rowDims[pad.axis]
    if (dim === undefined || !('dynamic' in dim)) {
      throw new RangeError(
        `Expected \`padding.${info.name}.axis\` to be a dynamic axis of the row (dims without batch: [${info.dims.slice(1).join(', ')}]), got \`${pad.axis}\``,
      )
    }
    paddedLengthName.set(info.name, dim.dynamic ?? `${info.name}#${pad.axis}`)
    return { name: info.name, type: info.type, rowDims, padding: { axis: pad.axis, value: pad.value ?? 0 } }
  })

  const outputs = description.outputs.map((info): OutputSpec => {
    const rowDims = rowDimsOf(info)
    const unpad: OutputSpec['unpad'] = []
    for (const input of inputs) {
      if (!input.padding) continue
      const lengthOf = paddedLengthName.get(input.name) as string
      const explicit = options.padding[input.name]?.outputAxes
      if (explicit) {
        const axis = explicit[info.name]
        if (axis !== undefined && !unpad.some((u) => u.axis === axis)) unpad.push({ axis, lengthOf })
        continue
      }
      rowDims.forEach((d, axis) => {
        if ('dynamic' in d && d.dynamic !== null && d.dynamic === lengthOf && !unpad.some((u) => u.axis === axis)) {
          unpad.push({ axis, lengthOf })
        }
      })
    }
    return { name: info.name, type: info.type, rowDims, unpad }
  })

  const keyed = inputs.some((i) => i.rowDims.some((d, axis) => 'dynamic' in d && i.padding?.axis !== axis))
  return { inputs, outputs, fixedBatchSize, keyed, paddedLengthName }
}

/** `float32 [batch, 256]` — how messages state what is expected. */
export function formatInfo(type: TensorType, dims: RowDim[]): string {
  return `${type} [${dims.map((d) => ('fixed' in d ? String(d.fixed) : (d.dynamic ?? '?'))).join(', ')}]`
}
