#!/usr/bin/env node
// Issue 37's cluster test, run by hand: a three-node JetStream cluster on 127.0.0.1 with R3
// streams and two `inferpool-consume` processes; the node leading the requests stream is
// killed (SIGKILL) under load. No request may be lost and no result duplicated.
//   node packages/consume/scripts/cluster-test.mjs        (COUNT=20000 by default)
import { client, cluster, consumeProcess, counter, jsonRequest, publishAll, readStream, sleep, streamCount } from './harness.mjs'

const COUNT = Number(process.env.COUNT ?? 20_000)
const KILL_AFTER_MS = Number(process.env.KILL_AFTER_MS ?? 3_000)
const ARGS = ['--replicas', '1', '--intra-op-threads', '1', '--max-batch-size', '64', '--ack-wait-ms', '2000', '--stream-replicas', '3']

const nats = await cluster()
const natsArgs = ['--nats', nats.urls.join(',')]
const { nc, js, jsm } = await client(nats.urls).catch(async (error) => {
  await nats.stop()
  throw error
})
try {
  // A first run makes the R3 streams; the backlog is published before the two consumers start.
  for (;;) {
    try {
      const first = await consumeProcess([...natsArgs, ...ARGS])
      first.child.kill('SIGTERM')
      await first.done
      break
    } catch (error) {
      console.log(`first start failed, retrying: ${error.message.split('\n')[0]}`)
      await sleep(1000)
    }
  }
  const seqs = await publishAll(js, 'inferpool.requests.demo', COUNT, jsonRequest)
  const stream = await jsm.streams.info('INFERPOOL_REQUESTS')
  console.log(`published ${COUNT} requests; INFERPOOL_REQUESTS R${stream.config.num_replicas}, leader ${stream.cluster?.leader}`)
  const started = performance.now()
  const consumers = [await consumeProcess([...natsArgs, ...ARGS]), await consumeProcess([...natsArgs, ...ARGS])]
  await sleep(KILL_AFTER_MS)
  const leader = (await jsm.streams.info('INFERPOOL_REQUESTS')).cluster?.leader
  const victim = nats.servers[Number(leader?.slice(1))]
  const before = await streamCount(jsm, 'INFERPOOL_RESULTS')
  await victim.kill('SIGKILL')
  console.log(
    `SIGKILL of ${leader} (the requests stream's leader) at ${((performance.now() - started) / 1000).toFixed(1)} s, ${before} results so far`,
  )
  for (;;) {
    try {
      if ((await streamCount(jsm, 'INFERPOOL_REQUESTS')) === 0) break
    } catch {
      // The client's own server may be the one killed: it reconnects.
    }
    await sleep(200)
  }
  const seconds = (performance.now() - started) / 1000
  const duplicates = (await Promise.all(consumers.map((c) => counter(c.metrics, 'inferpool_consume_duplicate_results_total')))).reduce(
    (a, b) => a + b,
    0,
  )
  const redeliveries = (await Promise.all(consumers.map((c) => counter(c.metrics, 'inferpool_consume_redeliveries_total')))).reduce(
    (a, b) => a + b,
    0,
  )
  const byConsumer = await Promise.all(consumers.map((c) => counter(c.metrics, 'inferpool_consume_results_total')))
  for (const c of consumers) c.child.kill('SIGTERM')
  const exits = await Promise.all(consumers.map((c) => c.done))

  // The killed node comes back before the results are read (an ordered consumer is created on the cluster).
  await victim.start()
  let results
  for (;;) {
    try {
      results = await readStream(js, jsm, 'INFERPOOL_RESULTS', false)
      break
    } catch (error) {
      console.log(`reading the results failed, retrying: ${error.message}`)
      await sleep(1000)
    }
  }
  const wanted = new Set(seqs)
  const seen = new Set()
  let unexpected = 0
  for (const r of results) {
    if (!wanted.has(r.requestSeq) || seen.has(r.requestSeq)) unexpected++
    seen.add(r.requestSeq)
  }
  const dead = await streamCount(jsm, 'INFERPOOL_DEAD')
  console.log(
    JSON.stringify({
      requests: COUNT,
      seconds: Number(seconds.toFixed(1)),
      killed: leader,
      results: results.length,
      distinctResults: seen.size,
      unexpectedOrRepeated: unexpected,
      deadLetters: dead,
      resultsByConsumer: byConsumer,
      duplicatesDropped: duplicates,
      redeliveries,
      consumerExits: exits,
    }),
  )
  const ok = results.length === COUNT && seen.size === COUNT && unexpected === 0 && dead === 0
  console.log(ok ? 'cluster test: PASS' : 'cluster test: FAIL')
  process.exitCode = ok ? 0 : 1
} finally {
  await nc.close()
  await nats.stop()
}
