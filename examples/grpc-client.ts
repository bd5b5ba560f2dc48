/**
 * A Node gRPC client of inferpool (or of any Open Inference Protocol server): the
 * client is made from @inferpool/host's service definition, so requests and responses
 * are coded by the same generated protobuf code the server uses. Sends one unary
 * ModelInfer and a stream of three requests, and prints what came back as JSON.
 *
 *   GRPC_ADDRESS=127.0.0.1:8001 pnpm --filter @inferpool/examples grpc-client
 */
import { Metadata, credentials, makeGenericClientConstructor } from '@grpc/grpc-js'
import type { ServiceError } from '@grpc/grpc-js'
import { GRPC_SERVICE_DEFINITION } from '@inferpool/server'

const Client = makeGenericClientConstructor(GRPC_SERVICE_DEFINITION, 'GRPCInferenceService')
const client = new Client(process.env.GRPC_ADDRESS ?? '127.0.0.1:8001', credentials.createInsecure())
const metadata = new Metadata()
if (process.env.INFERPOOL_API_KEY) metadata.set('authorization', `Bearer ${process.env.INFERPOOL_API_KEY}`)

/** One row of the demo model, as raw little-endian float32 bytes. */
function request(id: string, value: number): object {
  const row = new Float32Array(256).fill(value)
  return {
    model_name: 'demo',
    id,
    inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256] }],
    raw_input_contents: [Buffer.from(row.buffer)],
  }
}

interface InferResponse {
  id: string
  // 64-bit fields decode to `Long` objects (exact past 2^53); Number() reads them.
  outputs: Array<{ name: string; shape: Array<number | { toNumber(): number }> }>
  raw_output_contents: Uint8Array[]
}

/** Output bytes as numbers (copied first: a received view may be unaligned). */
function float32s(bytes: Uint8Array): number[] {
  return Array.from(new Float32Array(Uint8Array.from(bytes).buffer))
}

const unary = await new Promise<InferResponse>((resolve, reject) =>
  client.ModelInfer(request('unary', 0.5), metadata, (error: ServiceError | null, response: InferResponse) =>
    error ? reject(error) : resolve(response),
  ),
)

const stream = client.ModelStreamInfer(metadata)
const streamed: Array<{ id: string; error: string; first: number | null }> = []
stream.on('data', (r: { error_message: string; infer_response: InferResponse }) => {
  streamed.push({
    id: r.infer_response.id,
    error: r.error_message,
    first: r.error_message ? null : float32s(r.infer_response.raw_output_contents[0])[0],
  })
})
const ended = new Promise<void>((resolve, reject) => {
  stream.on('end', resolve)
  stream.on('error', reject)
})
for (const [i, value] of [0, 1, 2].entries()) stream.write(request(`stream-${i}`, value))
stream.end()
await ended
client.close()

console.log(
  JSON.stringify({
    unary: { id: unary.id, shape: unary.outputs[0].shape.map(Number), first: float32s(unary.raw_output_contents[0])[0] },
    stream: streamed.sort((a, b) => a.id.localeCompare(b.id)),
  }),
)
