/**
 * A gRPC client for the tests, built from the repo's .proto files by @grpc/proto-loader
 * (protobufjs reflection: a decoder independent of the generated code the server
 * uses), over real HTTP/2 on 127.0.0.1. Not a test file itself.
 */
import { fileURLToPath } from 'node:url'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'

const protoDir = fileURLToPath(new URL('../proto', import.meta.url))

const packageDefinition = protoLoader.loadSync('grpc_service.proto', {
  includeDirs: [protoDir],
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
})
const loaded = grpc.loadPackageDefinition(packageDefinition) as unknown as {
  inference: { GRPCInferenceService: new (address: string, credentials: grpc.ChannelCredentials) => grpc.Client }
}

/** What a unary call settled with: the response, or the status with its trailing metadata. */
export type Outcome<T> = { ok: true; response: T } | { ok: false; code: grpc.status; details: string; metadata: Record<string, string> }

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Message = Record<string, any>

export interface TestClient {
  call(
    method: string,
    request: Message,
    options?: { token?: string; deadlineMs?: number; metadata?: Record<string, string> },
  ): Promise<Outcome<Message>>
  stream(options?: { token?: string }): grpc.ClientDuplexStream<Message, Message>
  close(): void
}

function metadataOf(token: string | undefined): grpc.Metadata {
  const metadata = new grpc.Metadata()
  if (token !== undefined) metadata.set('authorization', `Bearer ${token}`)
  return metadata
}

export function grpcClient(address: string): TestClient {
  const client = new loaded.inference.GRPCInferenceService(address, grpc.credentials.createInsecure()) as unknown as Record<
    string,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (...args: any[]) => any
  > &
    grpc.Client
  return {
    call(method, request, options = {}) {
      return new Promise((resolve) => {
        const callOptions: grpc.CallOptions = {}
        if (options.deadlineMs !== undefined) callOptions.deadline = Date.now() + options.deadlineMs
        const metadata = metadataOf(options.token)
        for (const [key, value] of Object.entries(options.metadata ?? {})) metadata.set(key, value)
        client[method](request, metadata, callOptions, (error: grpc.ServiceError | null, response: Message) => {
          if (error === null) return resolve({ ok: true, response })
          const metadata = Object.fromEntries(Object.entries(error.metadata.getMap()).map(([key, value]) => [key, value.toString()]))
          resolve({ ok: false, code: error.code, details: error.details, metadata })
        })
      })
    },
    stream(options = {}) {
      return client.ModelStreamInfer(metadataOf(options.token))
    },
    close: () => client.close(),
  }
}

/** A raw tensor's bytes as little-endian elements (copied: a received view may be unaligned). */
export function float32s(bytes: Uint8Array): number[] {
  return Array.from(new Float32Array(Uint8Array.from(bytes).buffer))
}

export function float64s(bytes: Uint8Array): number[] {
  return Array.from(new Float64Array(Uint8Array.from(bytes).buffer))
}

/** The raw little-endian bytes of a typed array. */
export function rawBytes(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength)
}

/** Collects a stream's responses until the server ends it; resolves with them and the status. */
export function drain(stream: grpc.ClientDuplexStream<Message, Message>): Promise<{ responses: Message[]; status: grpc.StatusObject }> {
  const responses: Message[] = []
  stream.on('data', (response: Message) => responses.push(response))
  // A non-OK status is also emitted as 'error'; the status event carries it either way.
  stream.on('error', () => {})
  return new Promise((resolve) => stream.on('status', (status: grpc.StatusObject) => resolve({ responses, status })))
}

export { grpc }
