/**
 * The `@grpc/grpc-js` definition of `inference.GRPCInferenceService`: each method's
 * path, streaming flags and (de)serializers, built on the generated protobuf code
 * (generated/inference.js, from proto/grpc_service.proto). The server registers it
 * with an implementation; a client can be made from it with
 * `grpc.makeGenericClientConstructor(GRPC_SERVICE_DEFINITION, 'GRPCInferenceService')`.
 */
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js'
import { inference } from '../../generated/inference.js'

/** The encode/decode pair of one generated message class. */
interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array }
  decode(bytes: Uint8Array): T
}

function method<Req, Res>(
  name: string,
  request: MessageCodec<Req>,
  response: MessageCodec<Res>,
  streaming = false,
): MethodDefinition<Req, Res> {
  // In Node, protobufjs's writer finishes into a Buffer, which is what grpc-js sends.
  const serialize =
    <T>(codec: MessageCodec<T>) =>
    (message: T): Buffer =>
      codec.encode(message).finish() as Buffer
  return {
    path: `/inference.GRPCInferenceService/${name}`,
    requestStream: streaming,
    responseStream: streaming,
    requestSerialize: serialize(request),
    requestDeserialize: (bytes) => request.decode(bytes),
    responseSerialize: serialize(response),
    responseDeserialize: (bytes) => response.decode(bytes),
    originalName: name.charAt(0).toLowerCase() + name.slice(1),
  }
}

const m = inference

/** The RPCs served, by their names in the .proto. */
export const GRPC_SERVICE_DEFINITION = {
  ServerLive: method('ServerLive', m.ServerLiveRequest, m.ServerLiveResponse),
  ServerReady: method('ServerReady', m.ServerReadyRequest, m.ServerReadyResponse),
  ModelReady: method('ModelReady', m.ModelReadyRequest, m.ModelReadyResponse),
  ServerMetadata: method('ServerMetadata', m.ServerMetadataRequest, m.ServerMetadataResponse),
  ModelMetadata: method('ModelMetadata', m.ModelMetadataRequest, m.ModelMetadataResponse),
  ModelInfer: method('ModelInfer', m.ModelInferRequest, m.ModelInferResponse),
  ModelStreamInfer: method('ModelStreamInfer', m.ModelInferRequest, m.ModelStreamInferResponse, true),
  ModelConfig: method('ModelConfig', m.ModelConfigRequest, m.ModelConfigResponse),
  ModelStatistics: method('ModelStatistics', m.ModelStatisticsRequest, m.ModelStatisticsResponse),
  RepositoryIndex: method('RepositoryIndex', m.RepositoryIndexRequest, m.RepositoryIndexResponse),
  RepositoryModelLoad: method('RepositoryModelLoad', m.RepositoryModelLoadRequest, m.RepositoryModelLoadResponse),
  RepositoryModelUnload: method('RepositoryModelUnload', m.RepositoryModelUnloadRequest, m.RepositoryModelUnloadResponse),
} as const satisfies ServiceDefinition

export { inference }
