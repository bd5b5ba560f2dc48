import { createPool } from '@inferpool/host'
const model = '/work/wt/process/packages/host/models/demo-mlp.onnx'
const variants = process.argv.slice(2).map((v) => { const [iso, c] = v.split(':'); return { iso, c: Number(c) } })
const pools = []
for (const v of variants) pools.push(await createPool({ model, replicas: 2, concurrency: v.c, isolation: v.iso, logger: { warn() {}, info() {} } }))
const row = { input: new Float32Array(256).fill(0.1) }
async function measure(pool, ms, callers) {
  let done = 0, stop = false
  const lat = []
  setTimeout(() => (stop = true), ms)
  const t0 = performance.now()
  await Promise.all(Array.from({ length: callers }, async () => { while (!stop) { const a = performance.now(); await pool.infer(row); lat.push(performance.now() - a); done++ } }))
  lat.sort((a, b) => a - b)
  return { rps: done / ((performance.now() - t0) / 1000), p50: lat[lat.length >> 1] }
}
const res = variants.map(() => ({ rps: [], p50: [] }))
for (let r = 0; r < 5; r++) for (let i = 0; i < pools.length; i++) {
  await measure(pools[i], 200, 256)
  const m = await measure(pools[i], 1000, 256); res[i].rps.push(m.rps)
  const l = await measure(pools[i], 500, 1); res[i].p50.push(l.p50)
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1] }
variants.forEach((v, i) => { const st = pools[i].stats.replicas; const b = st.reduce((a, r) => a + r.batches, 0), ms = st.reduce((a, r) => a + r.busyMs, 0); console.log(`${v.iso} c${v.c}: median ${Math.round(med(res[i].rps))} rows/s [${res[i].rps.map(Math.round).join(' ')}], p50@1 ${med(res[i].p50).toFixed(3)} ms, busy/batch ${(ms / b).toFixed(3)} ms, batches ${b}, rows/batch ${(st.reduce((a, r) => a + r.rows, 0) / b).toFixed(1)}`) })
await Promise.all(pools.map((p) => p.close()))
