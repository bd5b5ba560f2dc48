// The gRPC server (inference.GRPCInferenceService): createGrpcService, createGrpcServer.
export { createGrpcService } from './service.js'
export type { InferpoolGrpcService } from './service.js'
export { createGrpcServer, GRPC_SERVER_DEFAULTS } from './server.js'
export type { GrpcServerOptions, InferpoolGrpcServer } from './server.js'
export { GRPC_SERVICE_DEFINITION } from './definition.js'
export { CODE_METADATA_KEY, RETRY_METADATA_KEY } from './status.js'
