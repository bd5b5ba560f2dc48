/**
 * @inferpool/model-builder: a small deterministic ONNX model builder, the generators of the
 * repository's test/demo/bench models, and plain-JS reference computations of those models
 * (so tests can compute expected outputs without trusting onnxruntime).
 */
export { onnx } from './proto.js'
export type { OnnxTypes } from './proto.js'
export { mulberry32, uniformFloat32 } from './prng.js'
export { bytesPerElement, dataTypeOf, floatTensor, int64Tensor, int64Vector, tensor } from './tensor.js'
export type { ElementType, TensorData } from './tensor.js'
export {
  add,
  cast,
  constant,
  cumSum,
  div,
  gather,
  gemm,
  identity,
  matMul,
  max,
  mul,
  node,
  reduceSum,
  relu,
  reshape,
  slice,
  squeeze,
  sub,
  tanh,
  unsqueeze,
} from './nodes.js'
export type { AttributeValue } from './nodes.js'
export { buildModel, IR_VERSION, OPSET, parseModel, PRODUCER_NAME, serializeModel, valueInfo } from './graph.js'
export type { Dim, ModelSpec, ValueSpec } from './graph.js'
export { buildMlp, DEMO_MLP_SEED, DEMO_MLP_SIZES, demoMlpWeights, mlpReference, mlpWeights } from './models/mlp.js'
export type { BuildMlpOptions, DenseLayer, MlpWeights, MlpWeightsOptions } from './models/mlp.js'
export {
  buildTokenPool,
  TOKEN_POOL_DIM,
  TOKEN_POOL_SEED,
  TOKEN_POOL_VOCAB,
  tokenPoolReference,
  tokenPoolWeights,
} from './models/token-pool.js'
export type { TokenPoolWeights } from './models/token-pool.js'
export {
  buildFixedBatch,
  buildFp16,
  buildHardcodedBatch1,
  buildMatrixPower,
  buildMultiIo,
  buildPoison,
  buildStrings,
  FIXED_BATCH_SEED,
  fixedBatchWeights,
  HARDCODED_BATCH1_SEED,
  hardcodedBatch1Reference,
  hardcodedBatch1Weights,
  isPoisonRow,
  linearReference,
  linearWeights,
  multiIoReference,
  POISON_SEED,
  POISON_TABLE_ROWS,
  poisonReference,
  poisonTable,
} from './models/small.js'
export type { LinearWeights } from './models/small.js'
export { catalog, checkModels, modelPath, repoRoot, writeModels } from './catalog.js'
export type { CatalogEntry, CheckResult } from './catalog.js'
export { runCli } from './cli-main.js'
export type { CliIo } from './cli-main.js'
