// The HTTP server (Open Inference Protocol): createRequestHandler, createServer, serve.
export { createRequestHandler } from './handler.js'
export type { InferpoolRequestHandler } from './handler.js'
// The served models both protocols take (models, states, readiness, auth, admission, metrics).
export { ServedModels } from './served-models.js'
export type { ModelState, PoolSource, PoolsByModel, ServedModel } from './served-models.js'
export { createServer, serve, SERVER_DEFAULTS } from './serve.js'
export type { InferpoolServer, ServerOptions, ShutdownResult } from './serve.js'
export { HANDLER_DEFAULTS } from './options.js'
export type { RequestHandlerOptions } from './options.js'
export type { ServedPool } from './served-pool.js'
export { tritonDataType } from './datatypes.js'
export type { ProtocolDatatype, TritonDataType } from './datatypes.js'
export {
  MalformedBinaryError,
  MalformedJsonError,
  MethodNotAllowedError,
  ModelNotFoundError,
  ModelNotReadyError,
  NonFiniteOutputError,
  OutputShapeMismatchError,
  PayloadTooLargeError,
  RequestTimeoutError,
  RouteNotFoundError,
  ShuttingDownError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from './errors.js'
export { modelConfigOf } from './triton/config.js'
export type { TritonModelConfig, TritonModelInput, TritonModelOutput } from './triton/config.js'
export { TritonStatsCollector, statsCollectorOf } from './triton/stats.js'
export type { DurationStat, InferBatchStatistics, InferStatistics, ModelStatistics, RequestOutcome } from './triton/stats.js'
