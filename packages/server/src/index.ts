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
// For @inferpool/consume (issue 37): the Open Inference Protocol body codec, the submit
// step, and the CLI's flag parsers and demo model, until the protocol-neutral exchange lands.
export { decodeInferRequest } from './http/decode-body.js'
export { encodeInferResponse } from './http/encode-body.js'
export { headerLengthOf } from './http/binary.js'
export { submitRequest } from './protocol/submit-rows.js'
export { integerAtLeast, milliseconds, modelFlag, natsFlag, port } from './cli/parse.js'
export type { ModelFlag } from './cli/parse.js'
export { DEMO_MODEL_NAME, demoModelPath } from './cli/demo.js'
