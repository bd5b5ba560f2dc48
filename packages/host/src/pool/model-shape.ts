/**
 * What the pool needs to know about a model's inputs and outputs, derived once from
 * the worker's description: row dims (without the batch dim), padding, which output
 * axes to cut back per row, and the model's fixed batch size if it has one.
 *
 * Everything a request's validation or a batch's packing would otherwise re-derive per
 * row (the typed array class, a fixed row's dims and size, the "expected …" text of
 * error messages, which axes are dynamic) is computed here once per pool: that code
 * runs for every row on the host thread, which shares the cores with the replicas.
 */
import type { WireTensorInfo, WorkerDescription } from '@inferpool/worker'
import { TYPED_ARRAY_OF } from '@inferpool/worker'
import { ModelLoadError } from '../errors.js'
import type { TensorType } from '../types.js'
import type { ResolvedPoolOptions } from './options.js'

/** One dim of a row: a fixed size, or a dynamic axis (with its symbolic name if any). */
export type RowDim = { fixed: number } | { dynamic: string | null }

/** The typed array class of an element type (`bool` travels as bytes). */
export type TypedArrayClass = (typeof TYPED_ARRAY_OF)[TensorType]

/** A dynamic axis of an input's row, and what a row records about its size. */
export interface DynamicAxis {
  axis: number
  /** The axis's symbolic name (rows must agree on it across inputs), or `null`. */
  symbol: string | null
  /** Padded axis: the name under which the row's length is recorded (see `paddedLengthName`). */
  lengthName: string | null
  /** Unpadded axis (which makes the shape keyed): `name:axis=`, the start of its part of the batch key. */
  keyPrefix: string | null
}

export interface InputSpec {
  name: string
  type: TensorType
  /** Dims as the model declares them, batch dim first (`pool.metadata` states these). */
  declaredDims: ReadonlyArray<number | string>
  rowDims: RowDim[]
  /** Pad along this row axis to the longest row of the batch. */
  padding: { axis: number; value: number | bigint } | null
  /** The typed array class a row's data must be. */
  ctor: TypedArrayClass
  /** `float32 [256]`: what error messages say is expected. */
  expected: string
  /**
   * The row dims when every axis is fixed, else `null`. Frozen: every valid row of this
   * input shares this one array instead of carrying its own copy.
   */
  fixedDims: readonly number[] | null
  /** Elements of one row when `fixedDims` is set, else 0. */
  fixedElements: number
  /** The row's dynamic axes, in axis order. */
  dynamicAxes: DynamicAxis[]
}

export interface OutputSpec {
  name: string
  type: TensorType
  /** Dims as the model declares them, batch dim first. */
  declaredDims: ReadonlyArray<number | string>
  rowDims: RowDim[]
  /** Row axes to cut back to each row's length of the named symbolic axis (from padding). */
  unpad: Array<{ axis: number; lengthOf: string }>
  /** The typed array class of the output's data. */
  ctor: TypedArrayClass
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
  /** `input: float32 [256]; …`: the model's inputs as error messages list them. */
  expectedList: string
  /** The model's input names. */
  inputNames: ReadonlySet<string>
  /**
   * Some symbolic axis name occurs more than once among the inputs' row dims, so a row
   * must check that its sizes agree (ORT would reject the batch). Without one, no row
   * can disagree and the check is skipped.
   */
  sharedSymbols: boolean
}

function rowDimsOf(info: WireTensorInfo): RowDim[] {
  return info.dims
    .slice(1)
    .map((d): RowDim => (typeof d === 'number' && d >= 0 ? { fixed: d } : { dynamic: typeof d === 'string' ? d : null }))
}

function loadError(message: string, model: string): ModelLoadError {
  return new ModelLoadError(message, { details: { model } })
}

/** Builds the model's shape facts and checks the `padding` option against it. */
export function buildModelShape(description: WorkerDescription, options: ResolvedPoolOptions): ModelShape {
  const model = options.modelLabel
  for (const info of [...description.inputs, ...description.outputs]) {
    if (info.dims.length === 0) {
      throw loadError(
        `Model ${model}: "${info.name}" is a scalar; inferpool needs a batch dimension first on every input and output`,
        model,
      )
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
    let padding: InputSpec['padding'] = null
    if (pad) {
      const dim = rowDims[pad.axis]
      if (info.type === 'string') {
        throw new RangeError(`Expected \`padding\` keys to be numeric inputs: "${info.name}" is a string input, which cannot be padded`)
      }
      if (dim === undefined || !('dynamic' in dim)) {
        throw new RangeError(
          `Expected \`padding.${info.name}.axis\` to be a dynamic axis of the row (dims without batch: [${info.dims.slice(1).join(', ')}]), got \`${pad.axis}\``,
        )
      }
      paddedLengthName.set(info.name, dim.dynamic ?? `${info.name}#${pad.axis}`)
      padding = { axis: pad.axis, value: pad.value ?? 0 }
    }
    return {
      name: info.name,
      type: info.type,
      declaredDims: [...info.dims],
      rowDims,
      padding,
      ...rowFacts(info.name, info.type, rowDims, padding, paddedLengthName),
    }
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
    return { name: info.name, type: info.type, declaredDims: [...info.dims], rowDims, unpad, ctor: TYPED_ARRAY_OF[info.type] }
  })

  // Some input has a dynamic axis that is not padded.
  const keyed = inputs.some((i) => i.dynamicAxes.some((d) => d.keyPrefix !== null))
  const symbols = inputs.flatMap((i) => i.dynamicAxes.flatMap((d) => (d.symbol === null ? [] : [d.symbol])))
  return {
    inputs,
    outputs,
    fixedBatchSize,
    keyed,
    paddedLengthName,
    expectedList: inputs.map((i) => `${i.name}: ${i.expected}`).join('; '),
    inputNames: new Set(inputs.map((i) => i.name)),
    sharedSymbols: new Set(symbols).size < symbols.length,
  }
}

/** The per-row facts of an input, derived once (see `InputSpec`). */
function rowFacts(
  name: string,
  type: TensorType,
  rowDims: RowDim[],
  padding: InputSpec['padding'],
  paddedLengthName: ReadonlyMap<string, string>,
): Pick<InputSpec, 'ctor' | 'expected' | 'fixedDims' | 'fixedElements' | 'dynamicAxes'> {
  const dynamicAxes: DynamicAxis[] = []
  rowDims.forEach((d, axis) => {
    if (!('dynamic' in d)) return
    const padded = padding?.axis === axis
    dynamicAxes.push({
      axis,
      symbol: d.dynamic,
      lengthName: padded ? (paddedLengthName.get(name) as string) : null,
      keyPrefix: padded ? null : `${name}:${axis}=`,
    })
  })
  const fixedDims = dynamicAxes.length === 0 ? Object.freeze(rowDims.map((d) => (d as { fixed: number }).fixed)) : null
  return {
    ctor: TYPED_ARRAY_OF[type],
    expected: formatInfo(type, rowDims),
    fixedDims,
    fixedElements: fixedDims === null ? 0 : fixedDims.reduce((a, b) => a * b, 1),
    dynamicAxes,
  }
}

/** `float32 [batch, 256]` — how messages state what is expected. */
export function formatInfo(type: TensorType, dims: RowDim[]): string {
  return `${type} [${dims.map((d) => ('fixed' in d ? String(d.fixed) : (d.dynamic ?? '?'))).join(', ')}]`
}
