/**
 * Hostile and malformed bodies: each one gets its exact status and code, the process
 * survives, and a good request right after is answered as usual.
 */
import { connect } from 'node:net'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { demoModel, demoRequest, demoRows, post, repoModel } from './server-helpers.js'

let server: InferpoolServer
let url: string
const pools: Pool[] = []
beforeAll(async () => {
  pools.push(
    ...(await Promise.all([
      createPool({ model: demoModel, replicas: 1 }),
      createPool({ model: repoModel('multi-io.onnx'), replicas: 1 }),
      createPool({ model: repoModel('token-pool.onnx'), replicas: 1 }),
    ])),
  )
  const [demo, multi, tokens] = pools
  server = await serve({ demo, multi, tokens }, { port: 0 })
  url = server.url as string
})
afterAll(async () => {
  await server.close()
})

const zeros = (n: number): number[] => new Array<number>(n).fill(0)
const demoInput = (fields: Record<string, unknown>): unknown => ({
  inputs: [{ name: 'input', shape: [1, 256], datatype: 'FP32', data: zeros(256), ...fields }],
})
const deepArray = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth)
const validInputs = (demoInput({}) as { inputs: unknown }).inputs

type Case = [what: string, model: string, body: string | Buffer | unknown, status: number, code: string]

const cases: Case[] = [
  ['a JSON null', 'demo', 'null', 400, 'ERR_INVALID_INPUT'],
  ['a JSON array', 'demo', '[]', 400, 'ERR_INVALID_INPUT'],
  ['a JSON string', 'demo', '"inputs"', 400, 'ERR_INVALID_INPUT'],
  ['a JSON number', 'demo', '42', 400, 'ERR_INVALID_INPUT'],
  ['an empty body', 'demo', '', 400, 'ERR_MALFORMED_JSON'],
  ['truncated JSON', 'demo', '{"inputs":[{"name":"input"', 400, 'ERR_MALFORMED_JSON'],
  ['invalid UTF-8', 'demo', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 400, 'ERR_MALFORMED_JSON'],
  ['a body nested a million arrays deep', 'demo', deepArray(1_000_000), 400, 'ERR_INVALID_INPUT'],
  ['inputs hidden under a __proto__ key', 'demo', `{"__proto__":{"inputs":${JSON.stringify(validInputs)}}}`, 400, 'ERR_INVALID_INPUT'],
  ['an input named __proto__', 'demo', demoInput({ name: '__proto__' }), 400, 'ERR_INVALID_INPUT'],
  ['an input named constructor', 'demo', demoInput({ name: 'constructor' }), 400, 'ERR_INVALID_INPUT'],
  ['an input name that is not a string', 'demo', demoInput({ name: 7 }), 400, 'ERR_INVALID_INPUT'],
  ['inputs as an object', 'demo', { inputs: { input: zeros(256) } }, 400, 'ERR_INVALID_INPUT'],
  ['no inputs', 'demo', { inputs: [] }, 400, 'ERR_INVALID_INPUT'],
  ['an input given twice', 'demo', { inputs: [...(validInputs as unknown[]), ...(validInputs as unknown[])] }, 400, 'ERR_INVALID_INPUT'],
  ['a missing shape', 'demo', demoInput({ shape: undefined }), 400, 'ERR_INVALID_INPUT'],
  ['a negative dim', 'demo', demoInput({ shape: [-1, 256] }), 400, 'ERR_INVALID_INPUT'],
  ['a non-integer dim', 'demo', demoInput({ shape: [1.5, 256] }), 400, 'ERR_INVALID_INPUT'],
  ['dims as strings', 'demo', demoInput({ shape: ['1', '256'] }), 400, 'ERR_INVALID_INPUT'],
  [
    'an infinite dim (1e400)',
    'demo',
    JSON.stringify(demoInput({ shape: [1, 256] })).replace('[1,256]', '[1e400,256]'),
    400,
    'ERR_INVALID_INPUT',
  ],
  ['zero rows', 'demo', demoInput({ shape: [0, 256], data: [] }), 400, 'ERR_INVALID_INPUT'],
  ['2^53 - 1 rows', 'demo', demoInput({ shape: [Number.MAX_SAFE_INTEGER, 256] }), 400, 'ERR_INVALID_INPUT'],
  ['more rows than maxRowsPerRequest', 'demo', demoInput({ shape: [1025, 256] }), 400, 'ERR_INVALID_INPUT'],
  ['a wrong rank', 'demo', demoInput({ shape: [256] }), 400, 'ERR_INVALID_INPUT'],
  ['a fixed dim that differs from the model', 'demo', demoInput({ shape: [1, 255], data: zeros(255) }), 400, 'ERR_INVALID_INPUT'],
  [
    'a shape whose product is past 2^53 on a dynamic axis',
    'tokens',
    {
      inputs: [
        { name: 'input_ids', shape: [1000, 9_007_199_254_740_991], datatype: 'INT64', data: [1] },
        { name: 'attention_mask', shape: [1000, 9_007_199_254_740_991], datatype: 'INT64', data: [1] },
      ],
    },
    400,
    'ERR_INVALID_INPUT',
  ],
  ['fewer data elements than the shape', 'demo', demoInput({ data: zeros(255) }), 400, 'ERR_INVALID_INPUT'],
  ['more data elements than the shape', 'demo', demoInput({ data: zeros(257) }), 400, 'ERR_INVALID_INPUT'],
  ['a string element', 'demo', demoInput({ data: [...zeros(255), '1'] }), 400, 'ERR_INVALID_INPUT'],
  ['a null element', 'demo', demoInput({ data: [null, ...zeros(255)] }), 400, 'ERR_INVALID_INPUT'],
  ['data as an object', 'demo', demoInput({ data: { 0: 1, length: 256 } }), 400, 'ERR_INVALID_INPUT'],
  ['data as a string', 'demo', demoInput({ data: 'AAAA' }), 400, 'ERR_INVALID_INPUT'],
  ['nested data with a short row', 'demo', demoInput({ data: [zeros(255)] }), 400, 'ERR_INVALID_INPUT'],
  ['nested data deeper than the shape', 'demo', demoInput({ data: [zeros(256).map(() => [0])] }), 400, 'ERR_INVALID_INPUT'],
  [
    'a 100,000-deep array in place of an element',
    'demo',
    `{"inputs":[{"name":"input","shape":[1,256],"datatype":"FP32","data":[[${deepArray(100_000)}${',0'.repeat(255)}]]}]}`,
    400,
    'ERR_INVALID_INPUT',
  ],
  ['an unknown datatype name', 'demo', demoInput({ datatype: 'FLOAT32' }), 400, 'ERR_INVALID_INPUT'],
  ['a lowercase datatype', 'demo', demoInput({ datatype: 'fp32' }), 400, 'ERR_INVALID_INPUT'],
  ['another datatype than the model', 'demo', demoInput({ datatype: 'INT64' }), 400, 'ERR_INVALID_INPUT'],
  ['no datatype', 'demo', demoInput({ datatype: undefined }), 400, 'ERR_INVALID_INPUT'],
  [
    'an INT32 element out of range',
    'multi',
    {
      inputs: [
        { name: 'a', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] },
        { name: 'b', shape: [1, 2], datatype: 'INT32', data: [2 ** 31, 0] },
      ],
    },
    400,
    'ERR_INVALID_INPUT',
  ],
  [
    'a fractional INT32 element',
    'multi',
    {
      inputs: [
        { name: 'a', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] },
        { name: 'b', shape: [1, 2], datatype: 'INT32', data: [1.5, 0] },
      ],
    },
    400,
    'ERR_INVALID_INPUT',
  ],
  [
    'inputs with different row counts',
    'multi',
    {
      inputs: [
        { name: 'a', shape: [2, 3], datatype: 'FP32', data: [1, 2, 3, 4, 5, 6] },
        { name: 'b', shape: [1, 2], datatype: 'INT32', data: [1, 2] },
      ],
    },
    400,
    'ERR_INVALID_INPUT',
  ],
  ['a missing input', 'multi', { inputs: [{ name: 'a', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] }] }, 400, 'ERR_INVALID_INPUT'],
  [
    'an INT64 element past 2^53',
    'tokens',
    {
      inputs: [
        { name: 'input_ids', shape: [1, 2], datatype: 'INT64', data: [2 ** 60, 1] },
        { name: 'attention_mask', shape: [1, 2], datatype: 'INT64', data: [1, 1] },
      ],
    },
    400,
    'ERR_INVALID_INPUT',
  ],
  ['an id that is not a string', 'demo', { id: 12, inputs: validInputs }, 400, 'ERR_INVALID_INPUT'],
  ['an unknown requested output', 'demo', { inputs: validInputs, outputs: [{ name: 'logits' }] }, 400, 'ERR_INVALID_INPUT'],
  ['requested outputs as an object', 'demo', { inputs: validInputs, outputs: { name: 'output' } }, 400, 'ERR_INVALID_INPUT'],
  ['JSON data and binary_data_size on one input', 'demo', demoInput({ parameters: { binary_data_size: 1024 } }), 400, 'ERR_INVALID_INPUT'],
  [
    'binary_data_size without Inference-Header-Content-Length',
    'demo',
    demoInput({ data: undefined, parameters: { binary_data_size: 1024 } }),
    400,
    'ERR_MALFORMED_BINARY',
  ],
  ['an FP32 value past the float range (1e39)', 'demo', demoInput({ data: [1e39, ...zeros(255)] }), 400, 'ERR_INVALID_INPUT'],
  [
    'a number literal past the double range (1e400) as FP32',
    'demo',
    `{"inputs":[{"name":"input","shape":[1,256],"datatype":"FP32","data":[1e400${',0'.repeat(255)}]}]}`,
    400,
    'ERR_INVALID_INPUT',
  ],
]

describe('hostile request bodies', () => {
  it.each(cases)('answers %s with the exact status and code, and keeps serving', async (_what, model, body, status, code) => {
    const res = await post(`${url}/v2/models/${model}/infer`, body)
    expect(res.status).toBe(status)
    expect((res.json as { code: string }).code).toBe(code)
    expect(typeof (res.json as { error: unknown }).error).toBe('string')

    const rows = demoRows(1, 1)
    const good = await post(`${url}/v2/models/demo/infer`, demoRequest(rows))
    const direct = await pools[0].infer({ input: Float32Array.from(rows[0]) })
    expect(good.status).toBe(200)
    expect((good.json as { outputs: Array<{ data: number[] }> }).outputs[0].data).toEqual(Array.from(direct.output.data as Float32Array))
  })

  it('serves the binary tensor data extension: a JSON header and 1024 raw bytes give the same answer as JSON zeros', async () => {
    const json = JSON.stringify({ inputs: [{ name: 'input', shape: [1, 256], datatype: 'FP32', parameters: { binary_data_size: 1024 } }] })
    const res = await post(`${url}/v2/models/demo/infer`, Buffer.concat([Buffer.from(json), Buffer.alloc(1024)]), {
      'inference-header-content-length': String(json.length),
    })
    const direct = await pools[0].infer({ input: new Float32Array(256) })
    expect(res.status).toBe(200)
    expect((res.json as { outputs: Array<{ data: number[] }> }).outputs[0].data).toEqual(Array.from(direct.output.data as Float32Array))
  })

  it('ignores a __proto__ key inside an input: no prototype is polluted and the request is served', async () => {
    const body = `{"inputs":[{"name":"input","shape":[1,256],"datatype":"FP32","data":${JSON.stringify(zeros(256))},"__proto__":{"polluted":true,"name":"other"}}],"__proto__":{"polluted":true}}`
    const res = await post(`${url}/v2/models/demo/infer`, body)
    expect(res.status).toBe(200)
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('answers 24 requests pipelined on one connection, in order, without a listener-leak warning', async () => {
    // The requests of one HTTP/1.1 connection share its abort signal (http/request-signals.ts):
    // each queued one listens on it.
    const warnings: Error[] = []
    const onWarning = (warning: Error): number => warnings.push(warning)
    process.on('warning', onWarning)
    const rows = demoRows(3, 24)
    const { port } = new URL(url)
    const socket = connect(Number(port), '127.0.0.1')
    await once(socket, 'connect')
    let received = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk
    })
    socket.write(
      rows
        .map((row) => {
          const body = JSON.stringify({ id: String(row[0]), ...demoRequest([row]) })
          return `POST /v2/models/demo/infer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
        })
        .join(''),
    )
    while ((received.match(/"model_name"/g) ?? []).length < rows.length) await once(socket, 'data')
    socket.destroy()
    // Let a warning emitted on the way reach its listener (emitted on the next tick).
    await new Promise((resolve) => setImmediate(resolve))
    process.off('warning', onWarning)
    expect([...received.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => m[1])).toEqual(new Array(24).fill('200'))
    expect([...received.matchAll(/"id":"([^"]*)"/g)].map((m) => m[1])).toEqual(rows.map((row) => String(row[0])))
    expect(warnings.map((w) => w.name)).toEqual([])
  })

  it('answers good requests sent at the same time as hostile ones', async () => {
    const rows = demoRows(2, 16)
    const hostile = cases.map(([, model, body]) => post(`${url}/v2/models/${model}/infer`, body))
    const good = rows.map((row) => post(`${url}/v2/models/demo/infer`, demoRequest([row])))
    const [hostileAnswers, goodAnswers] = await Promise.all([Promise.all(hostile), Promise.all(good)])
    expect(hostileAnswers.map((a) => a.status)).toEqual(cases.map((c) => c[3]))
    expect(goodAnswers.map((a) => a.status)).toEqual(new Array(16).fill(200))
  })
})
