export type * from './types.js'
export * from './errors.js'
export {
  ERROR_REGISTRY,
  GrpcStatus,
  INTERNAL_ERROR_CODE,
  errorSpecOf,
  fromWire,
  grpcStatusOf,
  httpHeadersOf,
  httpStatusOf,
  isRetryable,
  publicErrorOf,
  toWire,
} from './error-registry.js'
export type { ErrorSpec, GrpcStatusName, PublicError, RegisteredErrorClass } from './error-registry.js'
export * from './pool/index.js'
export * from './server/index.js'
export * from './remote/index.js'
export * from './grpc/index.js'
export * from './repository/index.js'
