/**
 * The HTTP comparison is only fair if every server does the same work: each bench
 * server (the inferpool one and the plain node:http baseline) must answer the bench's
 * request body with the model's real output — the numbers onnxruntime-node gives for
 * that row when called directly.
 */
import { fileURLToPath } from 'node:url'
import ort from 'onnxruntime-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readModelInfo, type ModelInfo } from '../src/model.js'
import { cpuReading } from '../src/scenarios/grpc.js'
import { doorRequest, startServer, stopServer, v2RequestBody, type RunningServer } from '../src/scenarios/http.js'
import type { ServerConfig } from '../src/servers/protocol.js'

// The tests import src/ (vitest transpiles it); the server children run the built dist/.
const model = fileURLToPath(new URL('../../packages/host/models/demo-mlp.onnx', import.meta.url))

interface V2Response {
  model_name: string
  outputs: Array<{ name: string; shape: number[]; datatype: string; data: number[] }>
}

let info: ModelInfo
let expected: number[]
const running: RunningServer[] = []

beforeAll(async () => {
  info = await readModelInfo(model)
  const body = JSON.parse(v2RequestBody(info)) as { inputs: Array<{ data: number[] }> }
  const session = await ort.InferenceSession.create(model)
  const out = await session.run({ input: new ort.Tensor('float32', Float32Array.from(body.inputs[0].data), [1, 256]) })
  expected = Array.from(out.output.data as Float32Array)
  await session.release()
})

afterAll(async () => {
  await Promise.all(running.map((s) => stopServer(s)))
})

async function ask(config: ServerConfig): Promise<{ status: number; body: V2Response }> {
  const server = await startServer(config)
  running.push(server)
  const res = await fetch(`http://127.0.0.1:${server.port}/v2/models/${config.modelName}/infer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: v2RequestBody(info),
  })
  return { status: res.status, body: (await res.json()) as V2Response }
}

describe('bench HTTP servers', () => {
  it.each<[string, ServerConfig]>([
    ['plain node:http baseline', { kind: 'plain', model, modelName: 'bench' }],
    ['inferpool server, batching on', { kind: 'pool', model, modelName: 'bench', replicas: 1, concurrency: 1, maxBatchSize: 128 }],
    ['inferpool server, batching off', { kind: 'pool', model, modelName: 'bench', replicas: 1, concurrency: 1, maxBatchSize: 1 }],
  ])('%s answers the bench request with the model output onnxruntime gives directly', async (_name, config) => {
    const { status, body } = await ask(config)
    expect(status).toBe(200)
    expect(body.model_name).toBe('bench')
    expect(body.outputs.map((o) => [o.name, o.datatype, o.shape])).toEqual([['output', 'FP32', [1, 16]]])
    expect(body.outputs[0].data).toHaveLength(16)
    body.outputs[0].data.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 5))
  })

  it('the plain baseline answers 400 to a malformed body rather than crashing', async () => {
    const server = await startServer({ kind: 'plain', model, modelName: 'bench' })
    running.push(server)
    const res = await fetch(`http://127.0.0.1:${server.port}/v2/models/bench/infer`, { method: 'POST', body: '{' })
    expect(res.status).toBe(400)
    const again = await fetch(`http://127.0.0.1:${server.port}/v2/models/bench/infer`, { method: 'POST', body: v2RequestBody(info) })
    expect(again.status).toBe(200)
  })
})

describe('the no-op door', () => {
  it('answers the JSON and the binary bodies in the model output shape and format, without inference', async () => {
    const server = await startServer({ kind: 'noop', model, modelName: 'bench' })
    running.push(server)
    const url = `http://127.0.0.1:${server.port}/v2/models/bench/infer`
    const json = doorRequest(info, 'json', 3)
    const jsonRes = await fetch(url, { method: 'POST', headers: json.headers, body: json.body })
    expect(jsonRes.status).toBe(200)
    const jsonBody = (await jsonRes.json()) as V2Response
    expect(jsonBody.outputs.map((o) => [o.name, o.datatype, o.shape, o.data.length])).toEqual([['output', 'FP32', [3, 16], 48]])

    const binary = doorRequest(info, 'binary', 3)
    const binRes = await fetch(url, { method: 'POST', headers: binary.headers, body: binary.body })
    expect(binRes.status).toBe(200)
    expect(binRes.headers.get('content-type')).toBe('application/octet-stream')
    const raw = Buffer.from(await binRes.arrayBuffer())
    const headerLength = Number(binRes.headers.get('inference-header-content-length'))
    const header = JSON.parse(raw.subarray(0, headerLength).toString()) as {
      outputs: Array<{ shape: number[]; parameters: { binary_data_size: number } }>
    }
    expect(header.outputs[0]).toMatchObject({ shape: [3, 16], parameters: { binary_data_size: 3 * 16 * 4 } })
    expect(raw.length - headerLength).toBe(3 * 16 * 4)
  })
})

describe("a gRPC server's CPU readings", () => {
  it('answer overlapping requests each with its own reading, in order (a window shorter than the IPC round trip)', async () => {
    const server = await startServer({ kind: 'grpc-noop', model, modelName: 'bench' })
    running.push(server)
    // Three requests in flight at once: each must be answered by its own reply, not by the first to arrive.
    const readings = await Promise.all([cpuReading(server), cpuReading(server), cpuReading(server)])
    const first = readings[0].id
    expect(readings.map((r) => r.id)).toEqual([first, first + 1, first + 2])
    expect(readings[1].us).toBeGreaterThanOrEqual(readings[0].us)
    expect(readings[2].us).toBeGreaterThanOrEqual(readings[1].us)
  })
})
