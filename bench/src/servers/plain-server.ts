/**
 * The plain-`node:http` baseline: what a user writes without inferpool. One
 * onnxruntime-node session (default options) in the server's main thread, one
 * `session.run()` per HTTP request, Open Inference Protocol (KServe v2) JSON in and out,
 * so the load generator sends the very same requests as to the inferpool server.
 *
 * Run as a child process by the bench: `node plain-server.js '<PlainServerConfig JSON>'`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import ort from 'onnxruntime-node'
import { readModelInfo, KSERVE_DATATYPE, type ElementType, type ModelInfo } from '../model.js'
import { listenAndReport, reportStartupFailure, type PlainServerConfig } from './protocol.js'

const ARRAY_OF: Record<ElementType, (data: number[]) => ort.Tensor['data']> = {
  float32: (d) => Float32Array.from(d),
  // Not fed by the bench (readModelInfo refuses float16 models); raw bits if it were.
  float16: (d) => Uint16Array.from(d),
  string: (d) => d.map(String),
  float64: (d) => Float64Array.from(d),
  int8: (d) => Int8Array.from(d),
  uint8: (d) => Uint8Array.from(d),
  int16: (d) => Int16Array.from(d),
  uint16: (d) => Uint16Array.from(d),
  int32: (d) => Int32Array.from(d),
  uint32: (d) => Uint32Array.from(d),
  int64: (d) => BigInt64Array.from(d, (v) => BigInt(v)),
  uint64: (d) => BigUint64Array.from(d, (v) => BigInt(v)),
  bool: (d) => Uint8Array.from(d),
}

interface V2Input {
  name: string
  shape: number[]
  datatype: string
  data: number[]
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as PlainServerConfig
  const info: ModelInfo = await readModelInfo(config.model)
  const session = await ort.InferenceSession.create(config.model)
  const inferPath = `/v2/models/${config.modelName}/infer`

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || req.url !== inferPath) return send(res, 404, { error: 'not found' })
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    let inputs: V2Input[]
    try {
      inputs = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { inputs: V2Input[] }).inputs
    } catch {
      return send(res, 400, { error: 'malformed JSON' })
    }
    const feeds: Record<string, ort.Tensor> = {}
    for (const t of info.inputs) {
      const input = inputs?.find((i) => i.name === t.name)
      const toArray = ARRAY_OF[t.type]
      if (!input || input.datatype !== KSERVE_DATATYPE[t.type]) return send(res, 400, { error: `bad input ${t.name}` })
      feeds[t.name] = new ort.Tensor(t.type, toArray(input.data), input.shape)
    }
    const results = await session.run(feeds)
    send(res, 200, {
      model_name: config.modelName,
      outputs: info.outputs.map((o) => {
        const tensor = results[o.name]
        const data = tensor.data as ArrayLike<number | bigint>
        return {
          name: o.name,
          shape: tensor.dims,
          datatype: KSERVE_DATATYPE[o.type],
          data: Array.from(data, (v) => (typeof v === 'bigint' ? Number(v) : v)),
        }
      }),
    })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: error instanceof Error ? error.message : String(error) })
      else res.destroy()
    })
  })
  listenAndReport(server, () => session.release())
}

main().catch(reportStartupFailure)
