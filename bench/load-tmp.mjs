import { createPool } from '@inferpool/host'
const iso = process.argv[2] ?? 'process'
const pool = await createPool({ model: '/work/wt/process/packages/host/models/demo-mlp.onnx', replicas: 2, concurrency: Number(process.argv[3] ?? 1), isolation: iso, logger: { warn() {}, info() {} } })
const row = { input: new Float32Array(256).fill(0.1) }
let done = 0, stop = false
const t0 = performance.now()
setTimeout(() => (stop = true), 4000)
await Promise.all(Array.from({ length: 256 }, async () => { while (!stop) { await pool.infer(row); done++ } }))
const s = pool.stats
console.log(iso, Math.round(done / ((performance.now() - t0) / 1000)), 'rows/s', 'avg batch', s.avgBatchSize.toFixed(1))
await pool.close()
