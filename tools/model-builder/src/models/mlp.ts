/**
 * Multi-layer perceptron: Gemm → Relu → … → Gemm, with a dynamic batch axis. The demo and
 * bench model. Any layer sizes can be generated (`mlpWeights({ sizes: [256, 1024, 1024, 16] })`).
 */
import { buildModel } from '../graph.js'
import type { Dim } from '../graph.js'
import { gemm, relu } from '../nodes.js'
import { mulberry32, uniformFloat32 } from '../prng.js'
import type { OnnxTypes } from '../proto.js'
import { floatTensor } from '../tensor.js'

/** One dense layer: `y = x · weight + bias`, weight stored row-major as [inFeatures, outFeatures]. */
export interface DenseLayer {
  inFeatures: number
  outFeatures: number
  /** Row-major [inFeatures, outFeatures]. */
  weight: Float32Array
  /** [outFeatures]. */
  bias: Float32Array
}

/** Weights of an MLP: layer i maps sizes[i] → sizes[i + 1]. */
export interface MlpWeights {
  sizes: readonly number[]
  layers: readonly DenseLayer[]
}

/** Options of {@link mlpWeights}. */
export interface MlpWeightsOptions {
  /** Feature sizes from input to output, at least two entries, e.g. `[256, 512, 256, 16]`. */
  sizes: readonly number[]
  /**
   * PRNG seed. Same sizes + seed → same weights, bit for bit.
   * @default 1
   */
  seed?: number
}

/**
 * Deterministic MLP weights. Weights are uniform in ±1/√fanIn (PyTorch's default `Linear`
 * init range) so activations keep a sane magnitude through the layers; biases are uniform
 * in ±0.1.
 */
export function mlpWeights(options: MlpWeightsOptions): MlpWeights {
  const { sizes, seed = 1 } = options
  if (sizes.length < 2 || sizes.some((s) => !Number.isInteger(s) || s < 1)) {
    throw new RangeError(`Expected \`sizes\` to be at least two positive integers, got [${sizes.join(', ')}]`)
  }
  const rng = mulberry32(seed)
  const layers: DenseLayer[] = []
  for (let i = 0; i + 1 < sizes.length; i++) {
    const inFeatures = sizes[i]
    const outFeatures = sizes[i + 1]
    const weight = uniformFloat32(rng, inFeatures * outFeatures, 1 / Math.sqrt(inFeatures))
    const bias = uniformFloat32(rng, outFeatures, 0.1)
    layers.push({ inFeatures, outFeatures, weight, bias })
  }
  return { sizes: [...sizes], layers }
}

/** Options of {@link buildMlp}. */
export interface BuildMlpOptions {
  /** @default 'input' */
  inputName?: string
  /** @default 'output' */
  outputName?: string
  /**
   * The batch dimension: a string makes it dynamic (`dim_param`), a number fixes it.
   * @default 'batch'
   */
  batchDim?: Dim
  /** @default 'mlp' */
  name?: string
}

/** ONNX model of the MLP: Gemm (+ Relu between layers), float32 throughout. */
export function buildMlp(weights: MlpWeights, options: BuildMlpOptions = {}): OnnxTypes.ModelProto {
  const { inputName = 'input', outputName = 'output', batchDim = 'batch', name = 'mlp' } = options
  const nodes: OnnxTypes.INodeProto[] = []
  const initializers: OnnxTypes.ITensorProto[] = []
  let current = inputName
  weights.layers.forEach((layer, i) => {
    const last = i === weights.layers.length - 1
    initializers.push(floatTensor(`fc${i}.weight`, [layer.inFeatures, layer.outFeatures], layer.weight))
    initializers.push(floatTensor(`fc${i}.bias`, [layer.outFeatures], layer.bias))
    const linear = last ? outputName : `fc${i}`
    nodes.push(gemm(current, `fc${i}.weight`, `fc${i}.bias`, linear))
    if (!last) {
      nodes.push(relu(linear, `relu${i}`))
      current = `relu${i}`
    }
  })
  const sizes = weights.sizes
  return buildModel({
    name,
    doc: `MLP ${sizes.join('-')}: Gemm+Relu layers, batch axis ${JSON.stringify(batchDim)}`,
    inputs: [{ name: inputName, type: 'float32', dims: [batchDim, sizes[0]] }],
    outputs: [{ name: outputName, type: 'float32', dims: [batchDim, sizes[sizes.length - 1]] }],
    nodes,
    initializers,
  })
}

/**
 * Plain-JS forward pass of the same MLP, in float64 (so it is an independent check of
 * onnxruntime's float32 kernels, to within float tolerance). `input` holds `batch` rows of
 * `sizes[0]` features, row-major; returns `batch` rows of the last size.
 */
export function mlpReference(weights: MlpWeights, input: ArrayLike<number>, batch: number): Float64Array {
  const inSize = weights.sizes[0]
  if (input.length !== batch * inSize) {
    throw new RangeError(`mlpReference: expected ${batch} × ${inSize} = ${batch * inSize} inputs, got ${input.length}`)
  }
  let x = Float64Array.from(input)
  weights.layers.forEach((layer, li) => {
    const last = li === weights.layers.length - 1
    const { inFeatures: n, outFeatures: m, weight, bias } = layer
    const y = new Float64Array(batch * m)
    for (let r = 0; r < batch; r++) {
      for (let j = 0; j < m; j++) {
        let acc = bias[j]
        for (let k = 0; k < n; k++) acc += x[r * n + k] * weight[k * m + j]
        y[r * m + j] = last ? acc : Math.max(0, acc)
      }
    }
    x = y
  })
  return x
}

/** Layer sizes of the demo/bench model `packages/host/models/demo-mlp.onnx`. */
export const DEMO_MLP_SIZES: readonly number[] = [256, 512, 256, 16]
/** PRNG seed of the demo model. */
export const DEMO_MLP_SEED = 1

/** Weights of the demo model, recomputed (deterministically) on each call. */
export function demoMlpWeights(): MlpWeights {
  return mlpWeights({ sizes: DEMO_MLP_SIZES, seed: DEMO_MLP_SEED })
}
