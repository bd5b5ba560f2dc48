/**
 * The gRPC door's own limit: a `@grpc/grpc-js` server with the same service definition
 * (so the same generated decoder and encoder) that decodes every ModelInferRequest and
 * answers each with the model's outputs as zeros — no checks, no pool, no inference.
 * `node grpc-noop-server.js '<GrpcNoopServerConfig JSON>'`.
 */
import * as grpc from '@grpc/grpc-js'
import { GRPC_SERVICE_DEFINITION } from '@inferpool/server'
import { KSERVE_DATATYPE, readModelInfo } from '../model.js'
import { answerCpuRequests, reportStartupFailure, type GrpcNoopServerConfig, type ServerMessage } from './protocol.js'

const BYTES: Record<string, number> = { FP64: 8, INT64: 8, UINT64: 8, FP32: 4, INT32: 4, UINT32: 4, INT16: 2, UINT16: 2 }

interface Request {
  id: string
  inputs: Array<{ shape: Array<number | { toNumber(): number }> }>
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as GrpcNoopServerConfig
  const info = await readModelInfo(config.model)
  const answer = (request: Request): object => {
    const first = request.inputs[0]?.shape[0] ?? 1
    const rows = typeof first === 'number' ? first : first.toNumber()
    const outputs = info.outputs.map((o) => ({ name: o.name, datatype: KSERVE_DATATYPE[o.type], shape: [rows, ...o.rowDims] }))
    const raw = info.outputs.map((o) => Buffer.alloc(rows * o.rowSize * (BYTES[KSERVE_DATATYPE[o.type]] ?? 1)))
    return { model_name: config.modelName, model_version: '1', id: request.id, outputs, raw_output_contents: raw }
  }
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 64 * 2 ** 20, 'grpc.max_send_message_length': 64 * 2 ** 20 })
  server.addService(GRPC_SERVICE_DEFINITION, {
    ModelInfer: (call: grpc.ServerUnaryCall<Request, object>, callback: grpc.sendUnaryData<object>) => callback(null, answer(call.request)),
    ModelStreamInfer: (call: grpc.ServerDuplexStream<Request, object>) => {
      call.on('data', (request: Request) => call.write({ error_message: '', infer_response: answer(request) }))
      call.on('end', () => call.end())
    },
  })
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, grpcPort) => {
    if (error) return reportStartupFailure(error)
    answerCpuRequests()
    process.send?.({ type: 'listening', port: 0, grpcPort, rssBytes: process.memoryUsage().rss } satisfies ServerMessage)
  })
  const stop = (): void => {
    server.forceShutdown()
    process.exit(0)
  }
  process.once('SIGTERM', stop)
  process.once('disconnect', stop)
}

main().catch(reportStartupFailure)
