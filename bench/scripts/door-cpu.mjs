#!/usr/bin/env node
/**
 * The server's main-thread CPU per request at the door: `inferpool serve` (this checkout's
 * build, its defaults) under autocannon, one request body (single-row JSON unless told),
 * the main thread's CPU read from /proc over each window (bench/src/thread-cpu.ts).
 * With --cpu-prof the server writes a V8 CPU profile of its main thread into `--prof-dir`.
 * It imports the built bench: run `pnpm build` first.
 * With --root the server is another checkout's build (for an A/B of two builds, run in turns).
 * --warmup ms (default 1000) is the load before the first round. At 1 connection 1 s is ~1,000
 * requests, not enough for V8 to optimise the request path: the first rounds then measure a cold
 * server (about 500 µs/req main-thread CPU against about 270-350 once warm), so give it 8000 there.
 *   node bench/scripts/door-cpu.mjs [connections=64] [rounds=3] [durationMs=3000] [json|binary] [rows=1] [--warmup ms] [--cpu-prof dir] [--root dir]
 */
import { spawn } from 'node:child_process'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { demoModelPath, repoRoot } from '../dist/paths.js'
import { readModelInfo } from '../dist/model.js'
import { doorRequest, load } from '../dist/scenarios/http.js'
import { mainThreadCpuMs } from '../dist/thread-cpu.js'

const args = process.argv.slice(2)
const profAt = args.indexOf('--cpu-prof')
const profDir = profAt >= 0 ? args.splice(profAt, 2)[1] : null
const rootAt = args.indexOf('--root')
const root = rootAt >= 0 ? args.splice(rootAt, 2)[1] : repoRoot
const warmupAt = args.indexOf('--warmup')
const warmupMs = warmupAt >= 0 ? Number(args.splice(warmupAt, 2)[1]) : 1000
const [connections = 64, rounds = 3, durationMs = 3000] = args.slice(0, 3).map(Number)
const encoding = args[3] ?? 'json'
const rows = Number(args[4] ?? 1)

const model = demoModelPath()
const info = await readModelInfo(model)
const request = doorRequest(info, encoding, rows)
const bin = join(root, 'packages', 'host', 'bin', 'inferpool.js')
const nodeArgs = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []
const child = spawn(process.execPath, [...nodeArgs, bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--model', `bench=${model}`], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
const base = await new Promise((resolve, reject) => {
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk
    const match = /listening on (http:\/\/[^\s/]+)/.exec(out)
    if (match && out.includes('inferpool: ready')) resolve(match[1])
  })
  child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)))
})
const url = `${base}/v2/models/bench/infer`
console.log(
  `${root}: load ${loadavg()[0].toFixed(2)}; ${encoding} ${rows}-row at ${connections} connections, ${rounds} x ${durationMs} ms after ${warmupMs} ms warm-up`,
)
await load(url, request.body, connections, warmupMs, undefined, request.headers)
/** Batches and rows so far, from the server's metrics. */
async function batches() {
  const metrics = await (await fetch(`${base}/metrics`)).text()
  const sum = /inferpool_batch_size_sum\{[^}]*\} ([\d.e+]+)/.exec(metrics)
  const count = /inferpool_batch_size_count\{[^}]*\} ([\d.e+]+)/.exec(metrics)
  return { rows: Number(sum?.[1] ?? NaN), batches: Number(count?.[1] ?? NaN) }
}
for (let round = 0; round < rounds; round++) {
  const b0 = await batches()
  const before = mainThreadCpuMs(child.pid)
  const { ok, elapsedMs } = await load(url, request.body, connections, durationMs, undefined, request.headers)
  const after = mainThreadCpuMs(child.pid)
  const b1 = await batches()
  const rowsPerBatch = ((b1.rows - b0.rows) / (b1.batches - b0.batches)).toFixed(2)
  const perReq = ((after - before) * 1000) / ok
  console.log(
    `round ${round + 1}: ${((ok * 1000) / elapsedMs).toFixed(0)} req/s, main thread ${perReq.toFixed(1)} µs/req, ${rowsPerBatch} rows per batch`,
  )
}
child.kill('SIGINT')
await new Promise((resolve) => child.once('exit', resolve))
console.log(`load after ${loadavg()[0].toFixed(2)}`)
