#!/usr/bin/env node
/**
 * Where the JSON decoders cross over: decoding one JSON inference request on the host
 * thread through the standard path (`TextDecoder` + `JSON.parse`, http/body.ts
 * `parseJson`) against the number reader (http/json-numbers.ts `parseJsonNumbers`), each
 * followed by the same decoder (`decodeInferFields`), for bodies of 1 to 64 rows of the
 * bench's demo model, interleaved in one process. Its output chose the decoder per body in
 * http/decode-body.ts: since the number reader takes short strings from its table, it is the
 * cheaper one from a single row up, so every JSON body goes to it first.
 * It imports the server's internal modules from the built host package (dist): run
 * `pnpm build` first.
 *   node bench/scripts/json-crossover.mjs [rounds=9] [budgetMs=40]
 *   JSON_CROSSOVER_ONLY='JSON.parse' node bench/scripts/json-crossover.mjs   (one decoder alone)
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parseJson } from '../../packages/server/dist/http/body.js'
import { NOT_PARSED, parseJsonNumbers } from '../../packages/server/dist/http/json-numbers.js'
import { decodeInferFields } from '../../packages/server/dist/protocol/decode.js'
import { demoModelPath } from '../dist/paths.js'
import { readModelInfo } from '../dist/model.js'
import { doorRequest } from '../dist/scenarios/http.js'

const ROUNDS = Number(process.argv[2] ?? 9)
const BUDGET_MS = Number(process.argv[3] ?? 40)
const SIZES = [1, 2, 3, 4, 6, 8, 12, 16, 32, 64]
/** One decoder only (`JSON.parse` or `number reader`): alone in its process, so the other does not shape the decoder's JIT feedback. */
const ONLY = process.env.JSON_CROSSOVER_ONLY

const info = await readModelInfo(demoModelPath())
const metadata = {
  inputs: info.inputs.map((t) => ({ name: t.name, type: t.type, dims: t.dims })),
  outputs: info.outputs.map((t) => ({ name: t.name, type: t.type, dims: t.dims })),
  maxBatchSize: 64,
  fixedBatchSize: null,
  replicas: 1,
  concurrency: 1,
  executionProvider: 'cpu',
  model: 'demo',
}
const limits = { maxRows: 64 }

const paths = {
  'JSON.parse': (body) => decodeInferFields(parseJson(body), undefined, metadata, limits),
  'number reader': (body) => {
    const value = parseJsonNumbers(body)
    if (value === NOT_PARSED) throw new Error('the number reader gave up on a bench body')
    return decodeInferFields(value, undefined, metadata, limits)
  },
}

/** µs per decode, decoding for about `BUDGET_MS`. */
function time(decode, body, reps) {
  const start = performance.now()
  for (let i = 0; i < reps; i++) decode(body)
  return ((performance.now() - start) * 1000) / reps
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

console.log(`load average before: ${load()}`)
const names = ONLY === undefined ? Object.keys(paths) : [ONLY]
console.log(`rows  bytes  ${names.map((n) => `${n} µs`.padStart(16)).join('  ')}${names.length === 2 ? '  ratio' : ''}`)
for (const rows of SIZES) {
  const body = Buffer.from(doorRequest(info, 'json', rows).body)
  // Reps so one timing lasts about BUDGET_MS.
  const probe = time(paths[names[0]], body, 50)
  const reps = Math.max(50, Math.round((BUDGET_MS * 1000) / probe))
  for (let w = 0; w < 3; w++) for (const name of names) time(paths[name], body, reps)
  const samples = Object.fromEntries(names.map((n) => [n, []]))
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always meets a warmer machine.
    const order = round % 2 === 0 ? names : [...names].reverse()
    for (const name of order) samples[name].push(time(paths[name], body, reps))
  }
  const medians = names.map((n) => median(samples[n]))
  const ratio = medians.length === 2 ? `  ${(medians[0] / medians[1]).toFixed(2)}×` : ''
  console.log(
    `${String(rows).padStart(4)}  ${String(body.length).padStart(6)}  ${medians.map((m) => m.toFixed(2).padStart(16)).join('  ')}${ratio}`,
  )
}
console.log(`load average after: ${load()}`)
