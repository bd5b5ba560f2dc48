#!/usr/bin/env node
// Issue 37's crash test, run by hand (too long for the suite, whose own version sends 2,000):
// COUNT single-row requests (default 100,000) with POISON poison ones mixed in (default 20);
// `inferpool-consume` is killed with SIGKILL every KILL_EVERY_MS (default 10 s) and
// restarted until the work queue is empty. Then every good request must have exactly one
// result, with the right output, and the dead-letter stream exactly the poison requests.
//   node packages/consume/scripts/crash-test.mjs
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createPool } from '@inferpool/host'
import {
  client,
  consumeProcess,
  counter,
  jsonRequest,
  poisonRequest,
  publishAll,
  readStream,
  row,
  singleServer,
  sleep,
  streamCount,
} from './harness.mjs'

const COUNT = Number(process.env.COUNT ?? 100_000)
const POISON = Number(process.env.POISON ?? 20)
const KILL_EVERY_MS = Number(process.env.KILL_EVERY_MS ?? 10_000)
const ARGS = (process.env.CONSUME_ARGS ?? '--replicas 2 --max-batch-size 64 --ack-wait-ms 2000').split(' ')

const nats = await singleServer()
const { nc, js, jsm } = await client(nats.urls)
try {
  // The poison requests sit at evenly spaced places among the good ones.
  const total = COUNT + POISON
  const poisonAt = new Set(Array.from({ length: POISON }, (_, k) => Math.floor(((k + 0.5) * total) / POISON)))
  const goodIndex = []
  for (let i = 0, g = 0; i < total; i++) goodIndex.push(poisonAt.has(i) ? -1 : g++)
  // A first run makes the streams; the whole backlog is then published before the
  // consumer that is killed starts (it keeps up with the publisher otherwise: no backlog to crash in).
  const first = await consumeProcess(['--nats', nats.urls[0], ...ARGS])
  first.child.kill('SIGTERM')
  await first.done
  const publishing = performance.now()
  const seqs = await publishAll(js, 'inferpool.requests.demo', total, (i) =>
    poisonAt.has(i) ? poisonRequest(i) : jsonRequest(goodIndex[i]),
  )
  console.log(`published ${COUNT} + ${POISON} poison requests in ${((performance.now() - publishing) / 1000).toFixed(1)} s`)
  const started = performance.now()
  let consumer = await consumeProcess(['--nats', nats.urls[0], ...ARGS])
  let kills = 0
  let duplicates = 0
  let redeliveries = 0
  for (;;) {
    const deadline = Date.now() + KILL_EVERY_MS
    while (Date.now() < deadline && (await streamCount(jsm, 'INFERPOOL_REQUESTS')) > 0) await sleep(100)
    duplicates += await counter(consumer.metrics, 'inferpool_consume_duplicate_results_total')
    redeliveries += await counter(consumer.metrics, 'inferpool_consume_redeliveries_total')
    if ((await streamCount(jsm, 'INFERPOOL_REQUESTS')) === 0) break
    consumer.child.kill('SIGKILL')
    await consumer.done
    kills++
    console.log(
      `SIGKILL #${kills} at ${((performance.now() - started) / 1000).toFixed(1)} s: ${await streamCount(jsm, 'INFERPOOL_RESULTS')} results so far`,
    )
    consumer = await consumeProcess(['--nats', nats.urls[0], ...ARGS])
  }
  const seconds = (performance.now() - started) / 1000
  consumer.child.kill('SIGTERM')
  await consumer.done

  const results = await readStream(js, jsm, 'INFERPOOL_RESULTS')
  const dead = await readStream(js, jsm, 'INFERPOOL_DEAD', false)
  const good = new Map()
  seqs.forEach((seq, i) => {
    if (!poisonAt.has(i)) good.set(seq, goodIndex[i])
  })
  const seen = new Set()
  let wrongSeq = 0
  for (const r of results) {
    if (!good.has(r.requestSeq) || seen.has(r.requestSeq)) wrongSeq++
    seen.add(r.requestSeq)
  }
  // The right output: the same rows through an in-process pool of the same model.
  const model = join(dirname(createRequire(import.meta.url).resolve('@inferpool/host/package.json')), 'models', 'demo-mlp.onnx')
  const pool = await createPool({ model, replicas: 2, batching: { maxBatchSize: 128 } })
  let wrongOutput = 0
  for (let start = 0; start < results.length; start += 4096) {
    const chunk = results.slice(start, start + 4096)
    const expected = await Promise.all(chunk.map((r) => pool.infer({ input: row(good.get(r.requestSeq) ?? 0) })))
    chunk.forEach((r, k) => {
      const want = expected[k].output.data
      const got = Float32Array.from(r.body.outputs[0].data)
      if (got.length !== want.length || got.some((x, j) => x !== want[j])) wrongOutput++
    })
  }
  await pool.close()
  const poisonSeqs = new Set(seqs.filter((_, i) => poisonAt.has(i)))
  const deadOk = dead.length === POISON && dead.every((d) => poisonSeqs.has(d.requestSeq))
  console.log(
    JSON.stringify({
      requests: COUNT,
      poison: POISON,
      seconds: Number(seconds.toFixed(1)),
      kills,
      results: results.length,
      distinctResults: seen.size,
      resultsForUnknownOrRepeatedSeq: wrongSeq,
      wrongOutputs: wrongOutput,
      deadLetters: dead.length,
      deadLettersArePoison: deadOk,
      duplicatesDroppedSeenByLastScrapes: duplicates,
      redeliveriesSeenByLastScrapes: redeliveries,
    }),
  )
  const ok = results.length === COUNT && seen.size === COUNT && wrongSeq === 0 && wrongOutput === 0 && deadOk
  console.log(ok ? 'crash test: PASS' : 'crash test: FAIL')
  process.exitCode = ok ? 0 : 1
} finally {
  await nc.close()
  await nats.stop()
}
