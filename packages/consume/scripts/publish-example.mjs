#!/usr/bin/env node
// A publisher of `inferpool consume`: sends one Open Inference Protocol request for the
// demo model and prints its result. Run it beside `inferpool consume`:
//   node packages/consume/scripts/publish-example.mjs [nats://127.0.0.1:4222]
import { randomUUID } from 'node:crypto'
import { DeliverPolicy, jetstream } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'

const nc = await connect({ servers: process.argv[2] ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222' })
const js = jetstream(nc)

// One row of the demo model: `input` float32 [1, 256].
const id = randomUUID()
const request = { id, inputs: [{ name: 'input', shape: [1, 256], datatype: 'FP32', data: Array.from({ length: 256 }, (_, k) => k / 256) }] }
// A Nats-Msg-Id makes the publish itself safe to retry: the requests stream keeps one copy.
const ack = await js.publish('inferpool.requests.demo', JSON.stringify(request), { msgID: id })
console.log(`request ${id} is INFERPOOL_REQUESTS #${ack.seq}`)

// Its result carries Inferpool-Request-Seq (and Inferpool-Request-Id): read the model's
// results from the first one stored at or after the request was sent.
// (An ordered consumer filtered to `inferpool.results.demo` needs nats-server 2.10.)
const results = await js.consumers.get('INFERPOOL_RESULTS', {
  deliver_policy: DeliverPolicy.StartTime,
  opt_start_time: new Date(Date.now() - 1000).toISOString(),
})
const timeout = setTimeout(() => {
  console.error('no result within 30 s: is `inferpool consume` running?')
  process.exit(1)
}, 30_000)
for await (const msg of await results.consume()) {
  if (msg.subject !== 'inferpool.results.demo' || msg.headers?.get('Inferpool-Request-Seq') !== String(ack.seq)) continue
  const { outputs } = msg.json()
  console.log(`result of ${msg.headers.get('Inferpool-Request-Id')}: ${outputs[0].name} ${outputs[0].datatype} [${outputs[0].shape}]`)
  console.log(outputs[0].data.map((x) => x.toFixed(4)).join(' '))
  break
}
clearTimeout(timeout)
await nc.close()
