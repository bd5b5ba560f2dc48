#!/usr/bin/env node
/**
 * Decoding one 64-row JSON inference request on the host thread, old path against new,
 * interleaved in one process (bench/HISTORY.md, "Overload": "A cheaper JSON decode").
 * - old: the standard path, `TextDecoder` + `JSON.parse` (server/body.ts `parseJson`), then
 *   the decoder on the plain arrays (`decodeInferFields`: the same checks as an HTTP body);
 * - new: `decodeInferRequest`, which parses with server/json-numbers.ts (arrays of numbers
 *   read straight into Float64Arrays) and falls back to the standard path when it gives up.
 * Bodies: (a) the bench's own (`doorRequest`: numbers with 4 decimals, like `-0.1234`), and
 * (b) the same float32 values written in full (JSON.stringify of each float32 widened to a
 * double: up to 17 significant digits, as Python's `repr` writes them).
 * It imports the server's internal modules from the built host package (dist), which a
 * user of the package cannot: run `pnpm build` first.
 *   node bench/scripts/json-decode.mjs [rounds=9] [reps=200]
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parseJson } from '../../packages/server/dist/http/body.js'
import { decodeInferRequest } from '../../packages/server/dist/http/decode-body.js'
import { decodeInferFields } from '../../packages/server/dist/protocol/decode.js'
import { demoModelPath } from '../dist/paths.js'
import { readModelInfo } from '../dist/model.js'
import { doorRequest } from '../dist/scenarios/http.js'

const ROUNDS = Number(process.argv[2] ?? 9)
const REPS = Number(process.argv[3] ?? 200)
const ROWS = 64

const info = await readModelInfo(demoModelPath())
const metadata = {
  inputs: info.inputs.map((t) => ({ name: t.name, type: t.type, dims: t.dims })),
  outputs: info.outputs.map((t) => ({ name: t.name, type: t.type, dims: t.dims })),
  maxBatchSize: ROWS,
  fixedBatchSize: null,
  replicas: 1,
  concurrency: 1,
  executionProvider: 'cpu',
  model: 'demo',
}
const limits = { maxRows: ROWS }

const fourDecimals = Buffer.from(doorRequest(info, 'json', ROWS).body)
const request = JSON.parse(fourDecimals.toString())
for (const input of request.inputs) input.data = Array.from(Float32Array.from(input.data))
const fullPrecision = Buffer.from(JSON.stringify(request))

const paths = {
  old: (body) => decodeInferFields(parseJson(body), undefined, metadata, limits),
  new: (body) => decodeInferRequest(body, undefined, metadata, limits),
}

/** µs per decode, over `REPS` decodes. */
function time(decode, body) {
  const start = performance.now()
  for (let i = 0; i < REPS; i++) decode(body)
  return ((performance.now() - start) * 1000) / REPS
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
for (const [label, body] of [
  ['4 decimals', fourDecimals],
  ['17 digits', fullPrecision],
]) {
  // Both paths give the same rows (checked once, outside the timing).
  const [a, b] = [paths.old(body), paths.new(body)]
  for (let r = 0; r < ROWS; r++) {
    for (const name of Object.keys(a.rows[r])) {
      const [x, y] = [a.rows[r][name].data, b.rows[r][name].data]
      if (x.length !== y.length || x.some((v, i) => !Object.is(v, y[i]))) throw new Error(`${label}: row ${r} of ${name} differs`)
    }
  }
  for (let w = 0; w < 3; w++) for (const decode of Object.values(paths)) time(decode, body)
  const samples = { old: [], new: [] }
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always meets a warmer machine.
    const order = round % 2 === 0 ? ['old', 'new'] : ['new', 'old']
    for (const path of order) samples[path].push(time(paths[path], body))
  }
  const [o, n] = [median(samples.old), median(samples.new)]
  console.log(
    `${label} (${(body.length / 1024).toFixed(0)} KiB): old ${o.toFixed(0)} µs, new ${n.toFixed(0)} µs per request ` +
      `(median of ${ROUNDS} rounds of ${REPS}; ${(o / n).toFixed(2)}×)`,
  )
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
