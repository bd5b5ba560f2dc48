// The binary tensor data extension, FP16, the Triton extensions and number handling over
// real HTTP on 127.0.0.1 with real pools, compared with direct onnxruntime.
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { demoModel, demoRows, http, post, repoModel } from './server-helpers.js'
import type { HttpResult } from './server-helpers.js'

const pools: Pool[] = []
const sessions: InferenceSession[] = []
let server: InferpoolServer
let url: string
let demoSession: InferenceSession
let fp16Session: InferenceSession
let multiSession: InferenceSession
let stringsSession: InferenceSession
let strings: Pool

beforeAll(async () => {
  const [demo, multi, fp16] = await Promise.all([
    createPool({ model: demoModel, replicas: 1 }),
    createPool({ model: repoModel('multi-io.onnx'), replicas: 1 }),
    createPool({ model: repoModel('fp16.onnx'), replicas: 1 }),
  ])
  strings = await createPool({ model: repoModel('strings.onnx'), replicas: 1 })
  pools.push(demo, multi, fp16, strings)
  ;[demoSession, fp16Session, multiSession, stringsSession] = await Promise.all([
    InferenceSession.create(demoModel, { intraOpNumThreads: 1 }),
    InferenceSession.create(repoModel('fp16.onnx'), { intraOpNumThreads: 1 }),
    InferenceSession.create(repoModel('multi-io.onnx'), { intraOpNumThreads: 1 }),
    InferenceSession.create(repoModel('strings.onnx'), { intraOpNumThreads: 1 }),
  ])
  sessions.push(demoSession, fp16Session, multiSession, stringsSession)
  server = await serve({ demo, multi, fp16, strings }, { port: 0, closePools: false })
  url = server.url as string
})

afterAll(async () => {
  await server?.close()
  await Promise.all(pools.map((p) => p.close()))
  await Promise.all(sessions.map((s) => s.release()))
})

/** POSTs a body of the extension: the JSON header, then the tensors' bytes. */
function postBinary(
  path: string,
  header: unknown,
  tensors: ArrayBufferView[],
  headers: Record<string, string> = {},
): Promise<HttpResult & { raw: Buffer }> {
  const head = Buffer.from(JSON.stringify(header))
  const body = Buffer.concat([head, ...tensors.map((t) => Buffer.from(t.buffer, t.byteOffset, t.byteLength))])
  return rawPost(path, body, {
    'content-type': 'application/octet-stream',
    'inference-header-content-length': String(head.length),
    ...headers,
  })
}

async function rawPost(path: string, body: Buffer, headers: Record<string, string>): Promise<HttpResult & { raw: Buffer }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', body, headers })
  const raw = Buffer.from(await res.arrayBuffer())
  let json: unknown
  try {
    json = JSON.parse(raw.toString('utf8'))
  } catch {
    json = undefined
  }
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), text: raw.toString('utf8'), json, raw }
}

/** Splits a binary response into its JSON header and the bytes of each binary output, by name. */
function splitResponse(res: { raw: Buffer; headers: Record<string, string | string[] | undefined> }): {
  header: {
    outputs: Array<{ name: string; datatype: string; shape: number[]; parameters?: { binary_data_size: number }; data?: unknown[] }>
  }
  bytes: Record<string, Buffer>
} {
  const length = Number(res.headers['inference-header-content-length'])
  const header = JSON.parse(res.raw.subarray(0, length).toString('utf8')) as ReturnType<typeof splitResponse>['header']
  const bytes: Record<string, Buffer> = {}
  let offset = length
  for (const output of header.outputs) {
    const size = output.parameters?.binary_data_size
    if (size === undefined) continue
    bytes[output.name] = res.raw.subarray(offset, offset + size)
    offset += size
  }
  expect(offset).toBe(res.raw.length)
  return { header, bytes }
}

const f32 = (b: Buffer): number[] => Array.from({ length: b.length / 4 }, (_, i) => b.readFloatLE(i * 4))

describe('binary tensor data over HTTP', () => {
  it('takes binary inputs and returns binary outputs equal to direct onnxruntime', async () => {
    const rows = demoRows(7, 3)
    const input = Float32Array.from(rows.flat())
    const res = await postBinary(
      '/v2/models/demo/infer',
      {
        id: 'bin-1',
        inputs: [{ name: 'input', shape: [3, 256], datatype: 'FP32', parameters: { binary_data_size: input.byteLength } }],
        outputs: [{ name: 'output', parameters: { binary_data: true } }],
      },
      [input],
    )
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/octet-stream')
    const { header, bytes } = splitResponse(res)
    expect(header).toEqual({
      model_name: 'demo',
      model_version: '1',
      id: 'bin-1',
      outputs: [{ name: 'output', datatype: 'FP32', shape: [3, 16], parameters: { binary_data_size: 3 * 16 * 4 } }],
    })
    const direct = await demoSession.run({ input: new Tensor('float32', input, [3, 256]) })
    expect(f32(bytes.output)).toEqual(Array.from(direct.output.data as Float32Array))
  })

  it('mixes a JSON input with a binary one and honours binary_data_output unless an output overrides it', async () => {
    const a = new Float32Array([1, 2, 3, -4, 5.5, 6])
    const res = await postBinary(
      '/v2/models/multi/infer',
      {
        parameters: { binary_data_output: true },
        inputs: [
          { name: 'a', shape: [2, 3], datatype: 'FP32', parameters: { binary_data_size: 24 } },
          { name: 'b', shape: [2, 2], datatype: 'INT32', data: [1, 2, 30, -4] },
        ],
        outputs: [{ name: 'a_scaled' }, { name: 'b_sum', parameters: { binary_data: false } }],
      },
      [a],
    )
    expect(res.status).toBe(200)
    const { header, bytes } = splitResponse(res)
    const direct = await multiSession.run({
      a: new Tensor('float32', a, [2, 3]),
      b: new Tensor('int32', new Int32Array([1, 2, 30, -4]), [2, 2]),
    })
    expect(f32(bytes.a_scaled)).toEqual(Array.from(direct.a_scaled.data as Float32Array))
    expect(header.outputs[1]).toEqual({ name: 'b_sum', datatype: 'FP64', shape: [2], data: Array.from(direct.b_sum.data as Float64Array) })
  })

  it('answers JSON (application/json, no header) when no output is asked for as binary', async () => {
    const a = new Float32Array([1, 2, 3])
    const res = await postBinary(
      '/v2/models/multi/infer',
      {
        inputs: [
          { name: 'a', shape: [1, 3], datatype: 'FP32', parameters: { binary_data_size: 12 } },
          { name: 'b', shape: [1, 2], datatype: 'INT32', parameters: { binary_data_size: 8 } },
        ],
      },
      [a, new Int32Array([5, 6])],
    )
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers['inference-header-content-length']).toBeUndefined()
    expect(res.json).toMatchObject({
      outputs: [
        { name: 'a_scaled', data: [2, 4, 6] },
        { name: 'b_sum', data: [11] },
      ],
    })
  })

  it('takes the raw form (Inference-Header-Content-Length: 0) as one row and answers every output in binary', async () => {
    const input = Float32Array.from(demoRows(3, 1)[0])
    const res = await rawPost('/v2/models/demo/infer', Buffer.from(input.buffer), {
      'content-type': 'application/octet-stream',
      'inference-header-content-length': '0',
    })
    expect(res.status).toBe(200)
    const { header, bytes } = splitResponse(res)
    expect(header.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [1, 16], parameters: { binary_data_size: 64 } }])
    const direct = await demoSession.run({ input: new Tensor('float32', input, [1, 256]) })
    expect(f32(bytes.output)).toEqual(Array.from(direct.output.data as Float32Array))
  })

  it.each([
    ['a header length past the body', (head: Buffer) => ({ body: head, length: head.length + 1 }), 'Inference-Header-Content-Length is'],
    [
      'a binary size past the bytes sent',
      (head: Buffer) => ({ body: Buffer.concat([head, Buffer.alloc(1000)]), length: head.length }),
      'declares binary_data_size 1024 but only 1000',
    ],
    ['trailing bytes', (head: Buffer) => ({ body: Buffer.concat([head, Buffer.alloc(1028)]), length: head.length }), '4 trailing byte(s)'],
  ])('answers %s with 400 ERR_MALFORMED_BINARY saying what is wrong, and keeps serving', async (_what, make, message) => {
    const head = Buffer.from(
      JSON.stringify({ inputs: [{ name: 'input', shape: [1, 256], datatype: 'FP32', parameters: { binary_data_size: 1024 } }] }),
    )
    const { body, length } = make(head)
    const res = await rawPost('/v2/models/demo/infer', body, { 'inference-header-content-length': String(length) })
    expect(res.status).toBe(400)
    const { error, code } = res.json as { error: string; code: string }
    expect(code).toBe('ERR_MALFORMED_BINARY')
    expect(error).toContain(message)
    const good = await rawPost('/v2/models/demo/infer', Buffer.from(new Float32Array(256).buffer), {
      'inference-header-content-length': '0',
    })
    expect(good.status).toBe(200)
  })

  it('answers a size other than shape × datatype with 400', async () => {
    const res = await postBinary(
      '/v2/models/demo/infer',
      { inputs: [{ name: 'input', shape: [1, 256], datatype: 'FP32', parameters: { binary_data_size: 1020 } }] },
      [new Uint8Array(1020)],
    )
    expect(res.status).toBe(400)
    expect((res.json as { error: string }).error).toBe(
      `Malformed binary tensor data: "input": shape [1, 256] of FP32 needs 1024 bytes, binary_data_size is 1020`,
    )
  })
})

describe('JSON bodies read by the fast number parser (http/json-numbers.ts)', () => {
  // The demo model's max batch is smaller than 64: the server splits the rows into batches.
  it.each([
    ['4-decimal numbers, as the bench sends', (v: number) => Math.round(v * 1e4) / 1e4, false],
    ['full-precision float32 numbers (17 digits, through the standard path), nested by row', (v: number) => v, true],
  ])('answers a 64-row request of %s with outputs equal to direct onnxruntime', async (_, round, nested) => {
    const rows = demoRows(11, 64).map((row) => row.map(round))
    const data = nested ? rows : rows.flat()
    const res = await post(`${url}/v2/models/demo/infer`, {
      id: 'fast',
      inputs: [{ name: 'input', shape: [64, 256], datatype: 'FP32', data }],
    })
    expect(res.status).toBe(200)
    const direct = await demoSession.run({ input: new Tensor('float32', Float32Array.from(rows.flat()), [64, 256]) })
    expect(res.json).toEqual({
      model_name: 'demo',
      model_version: '1',
      id: 'fast',
      outputs: [{ name: 'output', datatype: 'FP32', shape: [64, 16], data: Array.from(direct.output.data as Float32Array) }],
    })
  })
})

describe('FP16 end to end', () => {
  const halves = new Uint16Array([0x3c00, 0xc000, 0x3555, 0x0001, 0x7bff, 0x0000, 0xb800, 0x4500])
  const values = [1, -2, 0.333251953125, 2 ** -24, 65504, 0, -0.5, 5]

  it('over JSON: values in, values out, equal to direct onnxruntime', async () => {
    const res = await post(`${url}/v2/models/fp16/infer`, {
      inputs: [{ name: 'x', shape: [2, 4], datatype: 'FP16', data: values.slice(0, 3).concat([2 ** -24, -0.5, 0, 0.5, 5]) }],
    })
    expect(res.status).toBe(200)
    const x = new Uint16Array([0x3c00, 0xc000, 0x3555, 0x0001, 0xb800, 0x0000, 0x3800, 0x4500])
    const direct = await fp16Session.run({ x: new Tensor('float16', x, [2, 4]) })
    const y = Array.from(direct.y.data as Uint16Array, (bits) => {
      const e = (bits >> 10) & 0x1f
      const f = bits & 0x3ff
      const v = e === 0 ? f * 2 ** -24 : (1 + f / 1024) * 2 ** (e - 15)
      return bits & 0x8000 ? -v : v
    })
    expect(res.json).toMatchObject({
      outputs: [
        { name: 'y', datatype: 'FP16', shape: [2, 4], data: y },
        { name: 'sum', datatype: 'FP32', shape: [2], data: Array.from(direct.sum.data as Float32Array) },
      ],
    })
  })

  it('over binary: the raw bits in, the raw bits out, equal to direct onnxruntime (Infinity included)', async () => {
    const res = await postBinary(
      '/v2/models/fp16/infer',
      {
        inputs: [{ name: 'x', shape: [2, 4], datatype: 'FP16', parameters: { binary_data_size: 16 } }],
        parameters: { binary_data_output: true },
      },
      [halves],
    )
    expect(res.status).toBe(200)
    const { header, bytes } = splitResponse(res)
    expect(header.outputs.map((o) => [o.name, o.datatype, o.shape])).toEqual([
      ['y', 'FP16', [2, 4]],
      ['sum', 'FP32', [2]],
    ])
    const direct = await fp16Session.run({ x: new Tensor('float16', halves, [2, 4]) })
    const y = direct.y.data as Uint16Array
    expect(Array.from({ length: 8 }, (_, i) => bytes.y.readUInt16LE(i * 2))).toEqual(Array.from(y))
    // 65504 · 2 overflows float16: binary carries the Infinity exactly.
    expect(y[4]).toBe(0x7c00)
    expect(f32(bytes.sum)).toEqual(Array.from(direct.sum.data as Float32Array))
  })

  it('refuses an FP16 value past its range with 400 naming the input', async () => {
    const res = await post(`${url}/v2/models/fp16/infer`, {
      inputs: [{ name: 'x', shape: [1, 4], datatype: 'FP16', data: [1, 2, 70000, 4] }],
    })
    expect(res.status).toBe(400)
    expect((res.json as { error: string }).error).toBe(
      `Input "x": element 2 is number 70000, expected a number within FP16 range (|x| <= 65504)`,
    )
  })

  it('refuses FP32 data for an FP16 input with a clear 400', async () => {
    const res = await post(`${url}/v2/models/fp16/infer`, { inputs: [{ name: 'x', shape: [1, 4], datatype: 'FP32', data: [1, 2, 3, 4] }] })
    expect(res.status).toBe(400)
    expect((res.json as { error: string }).error).toBe(`Input "x" has datatype FP16, the request sends FP32`)
  })
})

describe('BYTES (string tensors) end to end', () => {
  const texts = ['1.5', '', 'héllo', '日本語', 'a"b\\c', 'x'.repeat(300)]

  it('through the pool: string rows in, string rows out, equal to direct onnxruntime', async () => {
    const rows = [texts.slice(0, 2), texts.slice(2, 4), texts.slice(4, 6)]
    const results = await Promise.all(rows.map((text) => strings.infer({ text })))
    const direct = await stringsSession.run({ text: new Tensor('string', texts, [3, 2]) })
    expect(results.map((r) => [r.echo.type, r.echo.dims, r.echo.data])).toEqual([
      ['string', [2], (direct.echo.data as string[]).slice(0, 2)],
      ['string', [2], (direct.echo.data as string[]).slice(2, 4)],
      ['string', [2], (direct.echo.data as string[]).slice(4, 6)],
    ])
  })

  it('over JSON: strings in, strings out', async () => {
    const res = await post(`${url}/v2/models/strings/infer`, { inputs: [{ name: 'text', shape: [3, 2], datatype: 'BYTES', data: texts }] })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ outputs: [{ name: 'echo', datatype: 'BYTES', shape: [3, 2], data: texts }] })
  })

  it('over binary: 4-byte length-prefixed UTF-8 elements in and out', async () => {
    const element = (text: string): Buffer => {
      const bytes = Buffer.from(text, 'utf8')
      const length = Buffer.alloc(4)
      length.writeUInt32LE(bytes.length)
      return Buffer.concat([length, bytes])
    }
    const data = Buffer.concat(texts.map(element))
    const res = await postBinary(
      '/v2/models/strings/infer',
      {
        inputs: [{ name: 'text', shape: [3, 2], datatype: 'BYTES', parameters: { binary_data_size: data.length } }],
        parameters: { binary_data_output: true },
      },
      [data],
    )
    expect(res.status).toBe(200)
    const { header, bytes } = splitResponse(res)
    expect(header.outputs).toEqual([{ name: 'echo', datatype: 'BYTES', shape: [3, 2], parameters: { binary_data_size: data.length } }])
    expect(bytes.echo.equals(data)).toBe(true)
  })

  it('refuses bytes that are not UTF-8 and BYTES for a numeric input with a clear 400', async () => {
    const bad = Buffer.from([2, 0, 0, 0, 0xc3, 0x28, 0, 0, 0, 0])
    const res = await postBinary(
      '/v2/models/strings/infer',
      { inputs: [{ name: 'text', shape: [1, 2], datatype: 'BYTES', parameters: { binary_data_size: bad.length } }] },
      [bad],
    )
    expect(res.status).toBe(400)
    expect(res.json).toEqual({
      error: `Input "text": BYTES element 0 is not valid UTF-8; the model's string input takes text`,
      code: 'ERR_INVALID_INPUT',
    })
    const numeric = await post(`${url}/v2/models/demo/infer`, {
      inputs: [{ name: 'input', shape: [1, 1], datatype: 'BYTES', data: ['x'] }],
    })
    expect(numeric.json).toEqual({ error: `Input "input" has datatype FP32, the request sends BYTES`, code: 'ERR_INVALID_INPUT' })
    const numbers = await post(`${url}/v2/models/strings/infer`, {
      inputs: [{ name: 'text', shape: [1, 2], datatype: 'BYTES', data: [1, 2] }],
    })
    expect(numbers.json).toEqual({ error: `Input "text": element 0 is number 1, expected a string`, code: 'ERR_INVALID_INPUT' })
  })

  it('describes the string model as TYPE_STRING in its configuration and BYTES in its metadata', async () => {
    expect((await http(`${url}/v2/models/strings/config`)).json).toMatchObject({
      input: [{ name: 'text', data_type: 'TYPE_STRING', dims: [2] }],
      output: [{ name: 'echo', data_type: 'TYPE_STRING', dims: [2] }],
    })
    expect((await http(`${url}/v2/models/strings`)).json).toMatchObject({ inputs: [{ name: 'text', datatype: 'BYTES', shape: [-1, 2] }] })
  })
})

describe('numbers that do not fit', () => {
  it('answers 1e39 as FP32 with 400 naming the input, and an out-of-range INT32 too', async () => {
    const big = await post(`${url}/v2/models/multi/infer`, {
      inputs: [
        { name: 'a', shape: [1, 3], datatype: 'FP32', data: [1, 1e39, 3] },
        { name: 'b', shape: [1, 2], datatype: 'INT32', data: [1, 2] },
      ],
    })
    expect(big.status).toBe(400)
    expect((big.json as { error: string }).error).toBe(
      `Input "a": element 1 is number 1e+39, expected a number within FP32 range (|x| <= 3.4028234663852886e38)`,
    )
    const int = await post(`${url}/v2/models/multi/infer`, {
      inputs: [
        { name: 'a', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] },
        { name: 'b', shape: [1, 2], datatype: 'INT32', data: [1, 2 ** 31] },
      ],
    })
    expect(int.status).toBe(400)
    expect((int.json as { error: string }).error).toBe(
      `Input "b": element 1 is number 2147483648, expected an integer in [-2147483648, 2147483647]`,
    )
  })

  it('never writes a non-finite output as null: 406 ERR_NON_FINITE_OUTPUT over JSON, the exact value over binary', async () => {
    // 3e38 · 2 overflows float32: a_scaled holds Infinity.
    const inputs = [
      { name: 'a', shape: [1, 3], datatype: 'FP32', data: [3e38, 1, 2] },
      { name: 'b', shape: [1, 2], datatype: 'INT32', data: [1, 2] },
    ]
    const json = await post(`${url}/v2/models/multi/infer`, { inputs })
    expect(json.status).toBe(406)
    expect(json.json).toEqual({
      error:
        `Output "a_scaled" holds NaN or Infinity, which JSON cannot represent; ask for it as binary tensor data ` +
        '(outputs[].parameters.binary_data: true, or parameters.binary_data_output: true) to receive it exactly',
      code: 'ERR_NON_FINITE_OUTPUT',
    })
    const head = Buffer.from(JSON.stringify({ inputs, outputs: [{ name: 'a_scaled', parameters: { binary_data: true } }] }))
    const res = await rawPost('/v2/models/multi/infer', head, { 'inference-header-content-length': String(head.length) })
    expect(res.status).toBe(200)
    expect(f32(splitResponse(res).bytes.a_scaled)).toEqual([Infinity, 2, 4])
  })
})

describe("Triton's extensions", () => {
  it('lists exactly the extensions served', async () => {
    expect((await http(`${url}/v2`)).json).toMatchObject({ extensions: ['binary_tensor_data', 'model_configuration', 'statistics'] })
  })

  it('serves the model configuration with and without a version, 404 for another version', async () => {
    const config = await http(`${url}/v2/models/fp16/config`)
    expect(config.status).toBe(200)
    expect(config.json).toMatchObject({
      name: 'fp16',
      platform: 'onnxruntime_onnx',
      backend: 'onnxruntime',
      max_batch_size: pools[2].metadata.maxBatchSize,
      input: [{ name: 'x', data_type: 'TYPE_FP16', dims: [4] }],
      output: [
        { name: 'y', data_type: 'TYPE_FP16', dims: [4] },
        { name: 'sum', data_type: 'TYPE_FP32', dims: [] },
      ],
      instance_group: [{ kind: 'KIND_CPU', count: 1 }],
    })
    expect((await http(`${url}/v2/models/fp16/versions/1/config`)).json).toEqual(config.json)
    expect((await http(`${url}/v2/models/fp16/versions/2/config`)).status).toBe(404)
  })

  it('serves statistics that count the requests answered, per model and for all models', async () => {
    const before = (await http(`${url}/v2/models/demo/stats`)).json as {
      model_stats: Array<{ inference_count: number; inference_stats: { success: { count: number }; fail: { count: number } } }>
    }
    const rows = demoRows(11, 2)
    expect(
      (await post(`${url}/v2/models/demo/infer`, { inputs: [{ name: 'input', shape: [2, 256], datatype: 'FP32', data: rows.flat() }] }))
        .status,
    ).toBe(200)
    expect(
      (await post(`${url}/v2/models/demo/infer`, { inputs: [{ name: 'input', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] }] })).status,
    ).toBe(400)
    const after = await http(`${url}/v2/models/demo/versions/1/stats`)
    expect(after.status).toBe(200)
    const [stat] = (after.json as typeof before).model_stats
    const [was] = before.model_stats
    expect(stat).toMatchObject({ name: 'demo', version: '1' })
    expect(stat.inference_count - was.inference_count).toBe(2)
    expect(stat.inference_stats.success.count - was.inference_stats.success.count).toBe(1)
    expect(stat.inference_stats.fail.count - was.inference_stats.fail.count).toBe(1)
    const all = (await http(`${url}/v2/models/stats`)).json as { model_stats: Array<{ name: string }> }
    expect(all.model_stats.map((s) => s.name)).toEqual(['demo', 'multi', 'fp16', 'strings'])
  })
})
