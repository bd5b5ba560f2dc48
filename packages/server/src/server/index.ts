// The HTTP server (Open Inference Protocol): createRequestHandler, createServer, serve.
export { createRequestHandler } from '../http/handler.js'
export type { InferpoolRequestHandler } from '../http/handler.js'
// The served models both protocols take (models, states, readiness, auth, admission, metrics).
export { ServedModels } from '../protocol/served-models.js'
export type { ModelState, PoolSource, PoolsByModel, ServedModel } from '../protocol/served-models.js'
export { createServer, serve, SERVER_DEFAULTS } from './serve.js'
export type { InferpoolServer, ServerOptions, ShutdownResult } from './serve.js'
export { HANDLER_DEFAULTS } from '../protocol/options.js'
export type { RequestHandlerOptions } from '../protocol/options.js'
export type { ServedPool } from '../protocol/served-pool.js'
export { tritonDataType } from '../protocol/datatypes.js'
export type { ProtocolDatatype, TritonDataType } from '../protocol/datatypes.js'
export {
  MalformedBinaryError,
  MalformedJsonError,
  MethodNotAllowedError,
  ModelNotFoundError,
  ModelNotReadyError,
  NonFiniteOutputError,
  OutputShapeMismatchError,
  PayloadTooLargeError,
  PendingBodyBytesFullError,
  RequestTimeoutError,
  RouteNotFoundError,
  ShuttingDownError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from '../protocol/errors.js'
export { modelConfigOf } from '../protocol/triton/config.js'
export type { TritonModelConfig, TritonModelInput, TritonModelOutput } from '../protocol/triton/config.js'
export { TritonStatsCollector } from '../protocol/triton/stats.js'
export type { DurationStat, InferBatchStatistics, InferStatistics, ModelStatistics, RequestOutcome } from '../protocol/triton/stats.js'
