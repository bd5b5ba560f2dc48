import { ProcessTransport } from '../packages/host/dist/pool/process/index.js'
import { ThreadTransport } from '../packages/host/dist/pool/threads/transport.js'
import { resolvePoolOptions } from '../packages/host/dist/pool/options.js'
const model = '/work/wt/process/packages/host/models/demo-mlp.onnx'
const rows = Number(process.argv[2] ?? 128)
const mk = (iso) => { const o = resolvePoolOptions({ model, replicas: 1, isolation: iso }); return iso === 'process' ? new ProcessTransport(o, {}) : new ThreadTransport(o, {}) }
const ts = { thread: mk('thread'), process: mk('process') }
await Promise.all(Object.values(ts).map((t) => t.start()))
const src = new Float32Array(rows * 256).fill(0.1)
async function once(t) {
  const buffer = src.slice().buffer
  const t0 = performance.now()
  const o = await t.send({ kind: 'run', batchId: 1, payload: { rows, inputs: { input: { type: 'float32', dims: [rows, 256], buffer } } } }, [buffer], { rows })
  if (!o.ok || !o.result.ok) throw new Error('failed')
  return [performance.now() - t0, o.result.busyMs]
}
const res = { thread: [], process: [] }, busy = { thread: [], process: [] }
for (let r = 0; r < 6; r++) for (const k of ['thread', 'process']) for (let i = 0; i < 400; i++) { const [a, b] = await once(ts[k]); if (i > 50) { res[k].push(a); busy[k].push(b) } }
const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(p * s.length)].toFixed(3) }
for (const k of ['thread', 'process']) console.log(k, 'rows', rows, 'rt p50', q(res[k], 0.5), 'p90', q(res[k], 0.9), 'busy p50', q(busy[k], 0.5))
await Promise.all(Object.values(ts).map((t) => t.close()))
