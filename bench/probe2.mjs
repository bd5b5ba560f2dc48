import { createServer } from 'node:http'
import autocannon from 'autocannon'
import { createPool, createRequestHandler } from '@inferpool/host'
const pool = await createPool({ model: '/work/wt/httpio/packages/host/models/demo-mlp.onnx', replicas: 1 })
const server = createServer(createRequestHandler({ bench: pool }))
server.keepAliveTimeout = 60000
await new Promise((r) => server.listen(0, '127.0.0.1', r))
const url = `http://127.0.0.1:${server.address().port}/v2/models/bench/infer`
const input = new Float32Array(256).fill(0.5)
const head = Buffer.from(JSON.stringify({ inputs: [{ name: 'input', shape: [1, 256], datatype: 'FP32', parameters: { binary_data_size: 1024 } }], outputs: [{ name: 'output', parameters: { binary_data: process.argv[2] === 'binout' } }] }))
const body = Buffer.concat([head, Buffer.from(input.buffer)])
const r = await autocannon({ url, method: 'POST', body, headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(head.length) }, connections: Number(process.argv[3] ?? 64), duration: 2 })
console.log(process.argv[2], r.requests.average, 'req/s avg', r.non2xx, 'non2xx', r.errors, 'errors', r.timeouts, 'timeouts', r.latency.p50, 'p50')
server.close(); server.closeAllConnections(); await pool.close()
