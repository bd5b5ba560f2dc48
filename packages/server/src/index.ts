// @inferpool/server: the Open Inference Protocol over HTTP and gRPC on @inferpool/host pools.
export {
  ERROR_REGISTRY,
  GrpcStatus,
  INTERNAL_ERROR_CODE,
  errorSpecOf,
  grpcStatusOf,
  httpHeadersOf,
  httpStatusOf,
  isRetryable,
  publicErrorOf,
} from './error-registry.js'
export type { ErrorSpec, GrpcStatusName, PublicError, RegisteredErrorClass } from './error-registry.js'
export * from './server/index.js'
export { startTracing } from './telemetry/tracing.js'
export type { Tracing, TracingFlags } from './telemetry/tracing.js'
export * from './grpc/index.js'
export * from './repository/index.js'
