/**
 * The door's own limit: a `node:http` server that reads and parses an inference request
 * exactly as far as the inferpool server does before it reaches the pool — the JSON
 * body into typed arrays, or the binary tensor data extension's JSON header and tensor
 * views — and answers a response of the model's real output shape and format (JSON
 * `data`, or binary outputs after a JSON header), with zeros and no inference.
 * Whatever rows/s inferpool reaches, it cannot pass this one on the same machine.
 *
 * Run as a child process by the bench: `node noop-server.js '<NoopServerConfig JSON>'`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { readModelInfo, KSERVE_DATATYPE, type ModelInfo } from '../model.js'
import { listenAndReport, reportStartupFailure, type NoopServerConfig } from './protocol.js'

interface V2Input {
  name: string
  shape: number[]
  datatype: string
  data?: number[]
  parameters?: { binary_data_size?: number }
}

interface V2Request {
  inputs: V2Input[]
  outputs?: Array<{ name: string; parameters?: { binary_data?: boolean } }>
  parameters?: { binary_data_output?: boolean }
}

const BYTES_PER: Record<string, number> = {
  FP32: 4,
  FP64: 8,
  INT64: 8,
  UINT64: 8,
  INT32: 4,
  UINT32: 4,
  INT16: 2,
  UINT16: 2,
  FP16: 2,
  INT8: 1,
  UINT8: 1,
  BOOL: 1,
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as NoopServerConfig
  const info: ModelInfo = await readModelInfo(config.model)
  const inferPath = `/v2/models/${config.modelName}/infer`

  const send = (res: ServerResponse, status: number, body: string): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || req.url !== inferPath) return send(res, 404, '{"error":"not found"}')
    const chunks: Buffer[] = []
    let length = 0
    for await (const chunk of req) {
      chunks.push(chunk as Buffer)
      length += (chunk as Buffer).length
    }
    const body = Buffer.concat(chunks, length)
    const headerHeader = req.headers['inference-header-content-length']
    const headerLength = headerHeader === undefined ? body.length : Number(headerHeader)
    const request = JSON.parse(body.subarray(0, headerLength).toString('utf8')) as V2Request
    // The same per-input work as the real door: JSON data into a typed array, binary data as a view.
    let offset = headerLength
    let rows = 0
    for (const input of request.inputs) {
      rows = input.shape[0]
      const size = input.parameters?.binary_data_size
      if (size !== undefined) {
        const bytes = body.subarray(offset, offset + size)
        offset += size
        if (bytes.byteOffset % 4 === 0) new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / (BYTES_PER[input.datatype] ?? 1))
        else {
          // Misaligned: one aligned copy, as the real door makes.
          const copy = new Uint8Array(bytes.length)
          copy.set(bytes)
        }
      } else {
        Float32Array.from(input.data ?? [])
      }
    }
    const binaryAll = request.parameters?.binary_data_output === true
    const wanted = request.outputs ?? info.outputs.map((o) => ({ name: o.name }))
    const tensors: Buffer[] = []
    const parts = wanted.map((w) => {
      const spec = info.outputs.find((o) => o.name === w.name) ?? info.outputs[0]
      const datatype = KSERVE_DATATYPE[spec.type]
      const shape = [rows, ...spec.rowDims]
      const elements = rows * spec.rowSize
      const binary = (w as { parameters?: { binary_data?: boolean } }).parameters?.binary_data ?? binaryAll
      if (binary) {
        const bytes = Buffer.alloc(elements * (BYTES_PER[datatype] ?? 4))
        tensors.push(bytes)
        return `{"name":"${spec.name}","datatype":"${datatype}","shape":${JSON.stringify(shape)},"parameters":{"binary_data_size":${bytes.length}}}`
      }
      return `{"name":"${spec.name}","datatype":"${datatype}","shape":${JSON.stringify(shape)},"data":[${new Float32Array(elements).join(',')}]}`
    })
    const header = `{"model_name":"${config.modelName}","model_version":"1","outputs":[${parts.join(',')}]}`
    if (tensors.length === 0) return send(res, 200, header)
    const head = Buffer.from(header)
    let total = head.length
    for (const t of tensors) total += t.length
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'inference-header-content-length': head.length,
      'content-length': total,
    })
    res.cork()
    res.write(head)
    for (const t of tensors) res.write(t)
    res.end()
    res.uncork()
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, JSON.stringify({ error: error instanceof Error ? error.message : String(error) }))
      else res.destroy()
    })
  })
  listenAndReport(server, () => Promise.resolve())
}

main().catch(reportStartupFailure)
