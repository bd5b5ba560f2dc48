import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RetentionPolicy } from '@nats-io/jetstream'
import { createPool } from '@inferpool/host'
import type { InferOptions, Pool } from '@inferpool/host'
import type { ServedPool } from '@inferpool/server'
import { createConsumer, CONSUME_HEADERS, JetStreamSettingError } from '@inferpool/consume'
import type { ConsumerOptions, InferpoolConsumer } from '@inferpool/consume'
import { startNatsServer } from '@inferpool/consume/nats-server'
import type { NatsServer } from '@inferpool/consume/nats-server'
import {
  DEMO_MODEL,
  DEMO_OUTPUT,
  binaryRequest,
  client,
  jsonRequest,
  poisonRequest,
  publish,
  readStream,
  row,
  streamCount,
  until,
} from './helpers.js'
import type { Client } from './helpers.js'

const REQUESTS = 'inferpool.requests.demo'
const silent = { info: () => {}, warn: () => {} }

let pool: Pool
let server: NatsServer
let nats: Client
const consumers: InferpoolConsumer[] = []

beforeAll(async () => {
  pool = await createPool({ model: DEMO_MODEL, replicas: 1, batching: { maxBatchSize: 8 } })
})
afterAll(async () => {
  await pool.close()
})
// A NATS server of its own per test: streams and consumers start from nothing.
beforeEach(async () => {
  server = await startNatsServer()
  nats = await client(server.url)
})
afterEach(async () => {
  for (const c of consumers.splice(0)) await c.destroy()
  await nats.close()
  await server.stop()
})

function consumer(options: Partial<ConsumerOptions> = {}): InferpoolConsumer {
  const c = createConsumer({ pools: new Map([['demo', pool]]), nats: server.url, logger: silent, maxAckPending: 16, ...options })
  consumers.push(c)
  return c
}

async function expected(i: number): Promise<Float32Array> {
  return (await pool.infer({ input: row(i) })).output.data as Float32Array
}

describe('results', () => {
  it('gives a JSON request exactly one JSON result, with its seq, its id and a Nats-Msg-Id of <stream>:<seq>, and removes the request', async () => {
    const c = consumer()
    await c.start()
    const seq = await publish(nats.js, REQUESTS, jsonRequest(7, 'req-7'))
    await until(() => c.stats.results === 1)

    const results = await readStream(nats, 'INFERPOOL_RESULTS')
    expect(results).toHaveLength(1)
    const [result] = results
    expect(result.subject).toBe('inferpool.results.demo')
    expect(result.headers!.get(CONSUME_HEADERS.requestSeq)).toBe(String(seq))
    expect(result.headers!.get(CONSUME_HEADERS.requestId)).toBe('req-7')
    expect(result.headers!.get(CONSUME_HEADERS.msgId)).toBe(`INFERPOOL_REQUESTS:${seq}`)
    expect(result.headers!.get('Inference-Header-Content-Length')).toBe('')
    const body = result.json<{
      id: string
      model_name: string
      outputs: { name: string; datatype: string; shape: number[]; data: number[] }[]
    }>()
    expect(body.id).toBe('req-7')
    expect(body.model_name).toBe('demo')
    expect(body.outputs.map((o) => [o.name, o.datatype, o.shape])).toEqual([['output', 'FP32', [1, DEMO_OUTPUT]]])
    expect(Float32Array.from(body.outputs[0].data)).toEqual(await expected(7))
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)
    expect(c.stats).toEqual({ inFlight: 0, results: 1, duplicates: 0, deadLetters: 0, retries: 0, redeliveries: 0 })
  })

  it('gives a binary request (Inference-Header-Content-Length) one binary result, its id taken from its Nats-Msg-Id', async () => {
    const c = consumer()
    await c.start()
    const { body, headerLength } = binaryRequest(3)
    const seq = await publish(nats.js, REQUESTS, body, { 'Inference-Header-Content-Length': String(headerLength), 'Nats-Msg-Id': 'job-3' })
    await until(() => c.stats.results === 1)

    const [result, ...more] = await readStream(nats, 'INFERPOOL_RESULTS')
    expect(more).toHaveLength(0)
    expect(result.headers!.get(CONSUME_HEADERS.requestSeq)).toBe(String(seq))
    expect(result.headers!.get(CONSUME_HEADERS.requestId)).toBe('job-3')
    expect(result.headers!.get(CONSUME_HEADERS.msgId)).toBe(`INFERPOOL_REQUESTS:${seq}`)
    const jsonLength = Number(result.headers!.get('Inference-Header-Content-Length'))
    const data = Buffer.from(result.data)
    const head = JSON.parse(data.subarray(0, jsonLength).toString()) as {
      outputs: { name: string; parameters: { binary_data_size: number } }[]
    }
    expect(head.outputs[0]).toMatchObject({ name: 'output', parameters: { binary_data_size: DEMO_OUTPUT * 4 } })
    const tensor = data.subarray(jsonLength)
    expect(tensor.length).toBe(DEMO_OUTPUT * 4)
    expect(new Float32Array(tensor.buffer.slice(tensor.byteOffset, tensor.byteOffset + tensor.length))).toEqual(await expected(3))
  })
})

describe('failures', () => {
  it('dead-letters a request that does not match the model with its error code and message, and terminates it', async () => {
    const c = consumer()
    await c.start()
    const seq = await publish(nats.js, REQUESTS, poisonRequest(1), { 'Nats-Msg-Id': 'bad-1', 'X-Job': 'nightly' })
    await until(() => c.stats.deadLetters === 1)

    const [dead, ...more] = await readStream(nats, 'INFERPOOL_DEAD')
    expect(more).toHaveLength(0)
    expect(dead.subject).toBe('inferpool.dead.demo')
    expect(dead.headers!.get(CONSUME_HEADERS.errorCode)).toBe('ERR_INVALID_INPUT')
    expect(dead.headers!.get(CONSUME_HEADERS.errorMessage)).toBe(
      'Input "input" has dims [3], expected float32 [256] without the batch dimension (axis 0 must be 256)',
    )
    expect(dead.headers!.get(CONSUME_HEADERS.requestSeq)).toBe(String(seq))
    expect(dead.headers!.get(CONSUME_HEADERS.requestId)).toBe('bad-1')
    expect(dead.headers!.get(CONSUME_HEADERS.msgId)).toBe(`INFERPOOL_REQUESTS:${seq}`)
    expect(dead.headers!.get('X-Job')).toBe('nightly')
    expect(Buffer.from(dead.data)).toEqual(Buffer.from(poisonRequest(1)))
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)
    expect(await streamCount(nats, 'INFERPOOL_RESULTS')).toBe(0)
    expect(c.stats).toEqual({ inFlight: 0, results: 0, duplicates: 0, deadLetters: 1, retries: 0, redeliveries: 0 })
  })

  it('dead-letters a body that is not JSON with ERR_MALFORMED_JSON', async () => {
    const c = consumer()
    await c.start()
    await publish(nats.js, REQUESTS, Buffer.from('{"inputs": ['))
    await until(() => c.stats.deadLetters === 1)
    const [dead] = await readStream(nats, 'INFERPOOL_DEAD')
    expect(dead.headers!.get(CONSUME_HEADERS.errorCode)).toBe('ERR_MALFORMED_JSON')
  })

  it('drops the second result of a request redelivered after its result was stored, and acks it', async () => {
    // The consumer's streams and durable, made by a first run.
    await consumer().start()
    await consumers.pop()!.close()
    const seq = await publish(nats.js, REQUESTS, jsonRequest(5, 'again'))
    // A process that stored the result and died before its ack: pulled, published, not acked.
    const durable = await nats.js.consumers.get('INFERPOOL_REQUESTS', 'inferpool_demo')
    const first = await durable.next()
    expect(first!.seq).toBe(seq)
    await nats.js.publish('inferpool.results.demo', Buffer.from('first'), { msgID: `INFERPOOL_REQUESTS:${seq}` })
    first!.nak()

    const c = consumer()
    await c.start()
    await until(() => c.stats.duplicates === 1)
    const results = await readStream(nats, 'INFERPOOL_RESULTS')
    expect(results.map((m) => Buffer.from(m.data).toString())).toEqual(['first'])
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)
    expect(c.stats).toEqual({ inFlight: 0, results: 0, duplicates: 1, deadLetters: 0, retries: 0, redeliveries: 1 })
  })

  it('dead-letters a request delivered more than maxDeliver times without running it', async () => {
    await consumer({ maxDeliver: 2 }).start()
    await consumers.pop()!.close()
    const seq = await publish(nats.js, REQUESTS, jsonRequest(1), { 'Nats-Msg-Id': 'crashes' })
    const durable = await nats.js.consumers.get('INFERPOOL_REQUESTS', 'inferpool_demo')
    for (let delivery = 1; delivery <= 2; delivery++) {
      const msg = await durable.next()
      expect(msg!.info.deliveryCount).toBe(delivery)
      msg!.nak()
    }

    const c = consumer({ maxDeliver: 2 })
    await c.start()
    await until(() => c.stats.deadLetters === 1)
    const [dead] = await readStream(nats, 'INFERPOOL_DEAD')
    expect(dead.headers!.get(CONSUME_HEADERS.errorCode)).toBe('ERR_MAX_DELIVER')
    expect(dead.headers!.get(CONSUME_HEADERS.errorMessage)).toBe('Delivered 3 times, more than maxDeliver (2); not run again')
    expect(dead.headers!.get(CONSUME_HEADERS.deliveries)).toBe('3')
    expect(dead.headers!.get(CONSUME_HEADERS.requestSeq)).toBe(String(seq))
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)
    expect(await streamCount(nats, 'INFERPOOL_RESULTS')).toBe(0)
  })
})

describe('streams and consumers that exist', () => {
  it('refuses a requests stream that is not a work queue, naming retention', async () => {
    await nats.jsm.streams.add({ name: 'INFERPOOL_REQUESTS', subjects: ['inferpool.requests.>'], retention: RetentionPolicy.Limits })
    const refusal = consumer().start()
    await expect(refusal).rejects.toThrow(JetStreamSettingError)
    await expect(refusal).rejects.toThrow(
      'The existing stream INFERPOOL_REQUESTS has retention "limits"; inferpool consume needs "workqueue"',
    )
  })

  it('refuses a results stream whose duplicate window is shorter than redelivery can take, naming duplicate_window', async () => {
    await nats.jsm.streams.add({ name: 'INFERPOOL_RESULTS', subjects: ['inferpool.results.>'], duplicate_window: 120_000 * 1e6 })
    await expect(consumer({ ackWaitMs: 30_000, timeoutMs: 30_000, maxDeliver: 5 }).start()).rejects.toThrow(
      'The existing stream INFERPOOL_RESULTS has duplicate_window "120000 ms"; inferpool consume needs at least 300000 ms ' +
        "(maxDeliver × (ackWaitMs + timeoutMs)), or a redelivered request's second result is kept",
    )
  })

  it('refuses a stream whose subjects miss the consumer’s, naming subjects', async () => {
    await nats.jsm.streams.add({ name: 'INFERPOOL_DEAD', subjects: ['elsewhere.>'] })
    await expect(consumer().start()).rejects.toThrow(
      'The existing stream INFERPOOL_DEAD has subjects ["elsewhere.>"]; inferpool consume needs them to include "inferpool.dead.>"',
    )
  })

  it('refuses a durable consumer made with another ack wait, naming ack_wait', async () => {
    await consumer({ ackWaitMs: 10_000, duplicateWindowMs: 600_000 }).start()
    await consumers.pop()!.close()
    await expect(consumer({ ackWaitMs: 20_000, duplicateWindowMs: 600_000 }).start()).rejects.toThrow(
      'The existing consumer INFERPOOL_REQUESTS > inferpool_demo has ack_wait "10000 ms"; inferpool consume needs "20000 ms" ' +
        '(delete the consumer, or start with the options it was made with)',
    )
  })

  it('starts again on the streams and consumer it made', async () => {
    await consumer().start()
    await consumers.pop()!.close()
    const c = consumer()
    await c.start()
    await publish(nats.js, REQUESTS, jsonRequest(2))
    await until(() => c.stats.results === 1)
  })
})

describe('options', () => {
  it.each([
    [{ maxDeliver: 0 }, 'Expected `maxDeliver` to be an integer in [1, 1000], got `0` (number)'],
    [{ ackWaitMs: 500 }, 'Expected `ackWaitMs` to be an integer in [1000, 2147483647], got `500` (number)'],
    [{ maxAckPending: 1.5 }, 'Expected `maxAckPending` to be an integer in [1, 9007199254740991], got `1.5` (number)'],
    [{ onlineMaxInFlight: 0 }, 'Expected `onlineMaxInFlight` to be an integer in [1, 9007199254740991], got `0` (number)'],
    [
      { maxDeliver: 2, ackWaitMs: 1000, timeoutMs: 1000, duplicateWindowMs: 3999 },
      'Expected `duplicateWindowMs` to be an integer in [4000, 9007199254740991], got `3999` (number)',
    ],
    [
      { subjects: { requests: 'jobs.*' } },
      'Expected `subjects.requests` to be a NATS subject without wildcards (tokens joined by \'.\'), got `"jobs.*"` (string)',
    ],
    [
      { streams: { dead: 'A.B' } },
      "Expected `streams.dead` to be a JetStream name (1 to 64 characters, no '.', '*', '>', '/', '\\' or whitespace), got `\"A.B\"` (string)",
    ],
    [{ nats: [] }, 'Expected `nats` to be a server URL or a non-empty list of them, got `[]` (array)'],
    [{ priorityLevel: -1 }, 'Expected `priorityLevel` to be an integer in [0, 9007199254740991], got `-1` (number)'],
    [{ priority: new Map([['demo', Number.NaN]]) }, "Expected `priority.get('demo')` to be a finite number, got `NaN` (number)"],
  ])('refuses %o at construction', (options, message) => {
    expect(() =>
      createConsumer({ pools: new Map([['demo', pool]]), nats: 'nats://127.0.0.1:4222', ...options } as ConsumerOptions),
    ).toThrow(message)
  })
})

describe('queue place', () => {
  /** `pool` as a served pool that records the options of every request it is given. */
  function recording(p: Pool, seen: InferOptions[]): ServedPool {
    return {
      metadata: p.metadata,
      infer: (row, options) => (seen.push({ ...options }), p.infer(row, options)),
      inferMany: (rows, options) => (seen.push({ ...options }), p.inferMany(rows, options)),
      inferBlock: (block, options) => (seen.push({ ...options }), p.inferBlock!(block, options)),
    }
  }

  it('queues each model at the place it is given: a priority in a pool without levels, a level in a pool with them', async () => {
    const levelled = await createPool({ model: DEMO_MODEL, replicas: 1, priorityLevels: 2, defaultPriorityLevel: 1 })
    try {
      const plain: InferOptions[] = []
      const levels: InferOptions[] = []
      const c = consumer({
        pools: new Map([
          ['demo', recording(pool, plain)],
          ['levels', recording(levelled, levels)],
        ]),
        priority: new Map([['demo', -1]]),
        priorityLevel: new Map([['levels', 2]]),
      })
      await c.start()
      await publish(nats.js, REQUESTS, jsonRequest(1))
      await publish(nats.js, 'inferpool.requests.levels', jsonRequest(2))
      await until(() => c.stats.results === 2)
      expect(plain.map((o) => [o.priority, o.priorityLevel])).toEqual([[-1, undefined]])
      expect(levels.map((o) => [o.priority, o.priorityLevel])).toEqual([[undefined, 2]])
    } finally {
      await levelled.close()
    }
  })
})

describe('while requests run', () => {
  it('keeps a request that waits in the pool longer than the ack wait with working(): one delivery, one result', async () => {
    // A lone row waits 2.5 s for a batch of 8: two and a half ack waits.
    const slow = await createPool({ model: DEMO_MODEL, replicas: 1, batching: { maxBatchSize: 8, minBatchSize: 8, maxWaitMs: 2500 } })
    try {
      const c = consumer({ pools: new Map([['demo', slow]]), ackWaitMs: 1000 })
      await c.start()
      await publish(nats.js, REQUESTS, jsonRequest(4))
      await until(() => c.stats.results === 1)
      expect(c.stats).toEqual({ inFlight: 0, results: 1, duplicates: 0, deadLetters: 0, retries: 0, redeliveries: 0 })
      expect(await streamCount(nats, 'INFERPOOL_RESULTS')).toBe(1)
    } finally {
      await slow.close()
    }
  })

  it('gives back (nak) a request its pool refuses for now, and dead-letters it past maxDeliver', async () => {
    const closed = await createPool({ model: DEMO_MODEL, replicas: 1 })
    await closed.close()
    const c = consumer({ pools: new Map([['demo', closed]]), maxDeliver: 2, retryDelayMs: 0 })
    await c.start()
    await publish(nats.js, REQUESTS, jsonRequest(1))
    await until(() => c.stats.deadLetters === 1)
    expect(c.stats).toEqual({ inFlight: 0, results: 0, duplicates: 0, deadLetters: 1, retries: 2, redeliveries: 2 })
    const [dead] = await readStream(nats, 'INFERPOOL_DEAD')
    expect(dead.headers!.get(CONSUME_HEADERS.errorCode)).toBe('ERR_MAX_DELIVER')
    const metrics = await c.metrics.registry.metrics()
    expect(metrics).toContain('inferpool_consume_retries_total{model="demo",code="ERR_BATCHER_CLOSED"} 2\n')
  })

  it('loses nothing when the NATS server goes away and comes back: every request gets one result', async () => {
    // Requests whose ack the restart cut off come back after the ack wait: a short one keeps the test short.
    const c = consumer({ ackWaitMs: 1000 })
    await c.start()
    for (let i = 0; i < 20; i++) await publish(nats.js, REQUESTS, jsonRequest(i))
    await server.restart()
    // The test's own client reconnects too: a publish cut off by it is sent again (its Nats-Msg-Id keeps one copy).
    for (let i = 20; i < 40; i++) {
      await until(() =>
        publish(nats.js, REQUESTS, jsonRequest(i), { 'Nats-Msg-Id': `after-${i}` }).then(
          () => true,
          () => false,
        ),
      )
    }
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)
    const seqs = (await readStream(nats, 'INFERPOOL_RESULTS')).map((m) => Number(m.headers!.get(CONSUME_HEADERS.requestSeq)))
    expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
  })
})

describe('hostile requests', () => {
  it('echoes a long request id with line breaks on one line, bounded to 1,024 characters', async () => {
    const c = consumer()
    await c.start()
    const id = `a\r\nNats-Msg-Id: forged\n${'x'.repeat(5000)}`
    await publish(nats.js, REQUESTS, jsonRequest(1, id))
    await until(() => c.stats.results === 1)
    const [result] = await readStream(nats, 'INFERPOOL_RESULTS')
    expect(result.headers!.get(CONSUME_HEADERS.requestId)).toBe(`a Nats-Msg-Id: forged ${'x'.repeat(1024 - 22)}…`)
    expect(result.headers!.get(CONSUME_HEADERS.msgId)).toBe('INFERPOOL_REQUESTS:1')
  })

  it('dead-letters a request of more rows than maxRowsPerRequest', async () => {
    const c = consumer({ maxRowsPerRequest: 2 })
    await c.start()
    const rows = [row(0), row(1), row(2)].flatMap((r) => Array.from(r))
    await publish(
      nats.js,
      REQUESTS,
      Buffer.from(JSON.stringify({ inputs: [{ name: 'input', shape: [3, 256], datatype: 'FP32', data: rows }] })),
    )
    await until(() => c.stats.deadLetters === 1)
    const [dead] = await readStream(nats, 'INFERPOOL_DEAD')
    expect(dead.headers!.get(CONSUME_HEADERS.errorCode)).toBe('ERR_INVALID_INPUT')
    expect(dead.headers!.get(CONSUME_HEADERS.errorMessage)).toBe('A request may carry at most 2 rows, input "input" has 3')
  })
})

describe('model names', () => {
  it('consumes a model whose name has a dot on its own subjects, with an escaped durable name', async () => {
    const c = consumer({ pools: new Map([['my.model_v2', pool]]) })
    await c.start()
    await publish(nats.js, 'inferpool.requests.my.model_v2', jsonRequest(1))
    await until(() => c.stats.results === 1)
    const [result] = await readStream(nats, 'INFERPOOL_RESULTS')
    expect(result.subject).toBe('inferpool.results.my.model_v2')
    expect(result.json<{ model_name: string }>().model_name).toBe('my.model_v2')
    const info = await nats.jsm.consumers.info('INFERPOOL_REQUESTS', 'inferpool_my_2Emodel_5Fv2')
    expect(info.config.filter_subject).toBe('inferpool.requests.my.model_v2')
  })
})
