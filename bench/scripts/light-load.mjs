#!/usr/bin/env node
/**
 * Where a single row's time goes at light load: one caller, one row at a time, through
 * the pool (`createPool` defaults but one replica) and straight through an onnxruntime
 * session with the pool's session options, interleaved in rounds. For the pool, the
 * batch's stages from its `onBatchTimings` events: `input` (from the batcher handing the
 * batch over to the worker's `session.run` call: packing, the hand-off to the sleeping
 * worker thread, its decode), `infer` (the run, onnxruntime-node's own `setImmediate`
 * included) and `output` (from the run's end to the batch's results on the host thread:
 * the result's way back and its unpacking).
 * It imports the built packages: run `pnpm build` first.
 * Both run with the same intra-op threads: the pool's default for one replica (all the
 * cores), or `intraOpThreads`.
 *   node bench/scripts/light-load.mjs [rounds=5] [rowsPerRound=2000] [intraOpThreads]
 */
import { availableParallelism, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createPool } from '../../packages/host/dist/index.js'
import { defaultIntraOpThreads } from '../../packages/host/dist/pool/options.js'
import { demoModelPath } from '../dist/paths.js'
import { readModelInfo, randomRows, rowFeeds } from '../dist/model.js'
import { createRequire } from 'node:module'

const ROUNDS = Number(process.argv[2] ?? 5)
const ROWS = Number(process.argv[3] ?? 2000)
const THREADS =
  process.argv[4] === undefined ? defaultIntraOpThreads({ cores: availableParallelism(), replicas: 1 }) : Number(process.argv[4])

// onnxruntime-node as @inferpool/worker has it.
const workerRequire = createRequire(new URL('../../packages/worker/package.json', import.meta.url))
const ort = workerRequire('onnxruntime-node')

const path = demoModelPath()
const info = await readModelInfo(path)
const rows = randomRows(info, 64)
const pool = await createPool({ model: path, replicas: 1, session: { intraOpNumThreads: THREADS } })
// The pool's session options (packages/worker/src/onnx.ts): no spinning.
const session = await ort.InferenceSession.create(path, {
  graphOptimizationLevel: 'all',
  interOpNumThreads: 1,
  intraOpNumThreads: THREADS,
  extra: { session: { intra_op: { allow_spinning: '0' } } },
})

const stages = { input: [], infer: [], output: [] }
let recording = false
pool.observe({
  onBatchTimings: (event) => {
    if (!recording) return
    stages.input.push(event.inputMs * 1000)
    stages.infer.push(event.inferMs * 1000)
    stages.output.push(event.outputMs * 1000)
  },
})

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function poolRound() {
  const times = []
  for (let i = 0; i < ROWS; i++) {
    const start = performance.now()
    await pool.infer(rows[i % rows.length])
    times.push((performance.now() - start) * 1000)
  }
  return median(times)
}

async function directRound() {
  const feeds = rows.map((row) => rowFeeds(info, row))
  const times = []
  for (let i = 0; i < ROWS; i++) {
    const start = performance.now()
    await session.run(feeds[i % feeds.length])
    times.push((performance.now() - start) * 1000)
  }
  return median(times)
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
console.log(`load average before: ${load()}`)
await poolRound()
await directRound()
const p50 = { pool: [], direct: [] }
for (let round = 0; round < ROUNDS; round++) {
  recording = true
  const order = round % 2 === 0 ? ['pool', 'direct'] : ['direct', 'pool']
  for (const side of order) p50[side].push(side === 'pool' ? await poolRound() : await directRound())
  recording = false
}
const [pp, dp] = [median(p50.pool), median(p50.direct)]
console.log(`intra-op threads: ${THREADS}`)
console.log(`p50 per row: pool ${pp.toFixed(1)} µs, direct ${dp.toFixed(1)} µs (+${(pp - dp).toFixed(1)} µs)`)
console.log(
  `pool stages (medians): input ${median(stages.input).toFixed(1)} µs, infer ${median(stages.infer).toFixed(1)} µs, output ${median(stages.output).toFixed(1)} µs`,
)
console.log(`load average after: ${load()}`)
await pool.destroy()
await session.release()
