import { execFile } from 'node:child_process'
import { tmpdir } from 'node:os'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { CONSUME_HEADERS } from '@inferpool/consume'
import { startNatsServer } from '@inferpool/consume/nats-server'
import type { NatsServer } from '@inferpool/consume/nats-server'
import { CONSUME_BIN, SERVER_BIN, startConsume } from './consume-process.js'
import type { ConsumeProcess } from './consume-process.js'
import { DEMO_MODEL, client, requestsStream, jsonRequest, poisonRequest, publish, readStream, row, streamCount, until } from './helpers.js'
import type { Client } from './helpers.js'

const run = promisify(execFile)
const PUBLISH_EXAMPLE = fileURLToPath(new URL('../scripts/publish-example.mjs', import.meta.url))
const REQUESTS = 'inferpool.requests.demo'

let server: NatsServer
let nats: Client
const children: ConsumeProcess[] = []

beforeEach(async () => {
  server = await startNatsServer()
  nats = await client(server.url)
  // The publishers' work queue, there before the consumer (which checks it and uses it).
  await requestsStream(nats)
})
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.child.kill('SIGKILL')
    await c.exited
  }
  await nats.close()
  await server.stop()
})

/** The environment without `NODE_PATH`, which `pnpm` points at every package of the workspace. */
function withoutNodePath(): NodeJS.ProcessEnv {
  const { NODE_PATH: _, ...env } = process.env
  return env
}

async function consume(...args: string[]): Promise<ConsumeProcess> {
  const c = await startConsume(['--nats', server.url, '--replicas', '1', '--max-batch-size', '16', ...args])
  children.push(c)
  return c
}

describe('inferpool consume', () => {
  it('on SIGTERM stops pulling, finishes and acks what is in flight, and exits 0; a restart gives the rest one result each', async () => {
    const count = 300
    for (let i = 0; i < count; i++) await publish(nats.js, REQUESTS, jsonRequest(i))
    const first = await consume()
    await until(async () => (await streamCount(nats, 'INFERPOOL_RESULTS')) >= 50)
    first.child.kill('SIGTERM')
    expect(await first.exited).toEqual({ code: 0, signal: null })
    expect(first.output()).toContain('inferpool consume: stopped ({"inFlight":0,')

    // Nothing was left delivered and unacknowledged (the ack wait is 30 s: it would still show).
    const info = await nats.jsm.consumers.info('INFERPOOL_REQUESTS', 'inferpool_demo')
    expect(info.num_ack_pending).toBe(0)
    expect(info.num_redelivered).toBe(0)
    const done = await streamCount(nats, 'INFERPOOL_RESULTS')
    expect(done + (await streamCount(nats, 'INFERPOOL_REQUESTS'))).toBe(count)

    await consume()
    await until(async () => (await streamCount(nats, 'INFERPOOL_RESULTS')) === count)
    const seqs = (await readStream(nats, 'INFERPOOL_RESULTS')).map((m) => Number(m.headers!.get(CONSUME_HEADERS.requestSeq)))
    expect(seqs.sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i + 1))
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)
  })

  it('serves /metrics with results, dead letters, in flight and lag by model', async () => {
    await publish(nats.js, REQUESTS, jsonRequest(1))
    await publish(nats.js, REQUESTS, poisonRequest(1))
    const c = await consume()
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)
    const text = await (await fetch(c.metricsUrl)).text()
    expect(text).toContain('inferpool_consume_results_total{model="demo"} 1\n')
    expect(text).toContain('inferpool_consume_dead_letters_total{model="demo",code="ERR_INVALID_INPUT"} 1\n')
    expect(text).toContain('inferpool_consume_in_flight{model="demo"} 0\n')
    expect(text).toContain('inferpool_consume_lag{model="demo"} 0\n')
    expect(text).toContain('inferpool_consume_redeliveries_total{model="demo"} 0\n')
  })

  it.each([
    [
      ['--max-deliver', '0'],
      "error: option '--max-deliver <n>' argument '0' is invalid. Expected an integer >= 1.\n(run with --help for usage)\n",
    ],
    [
      ['--results-subject', 'out.>'],
      'error: Expected `subjects.results` to be a NATS subject without wildcards (tokens joined by \'.\'), got `"out.>"` (string)\n(run with --help for usage)\n',
    ],
  ])('echoes a bad option (%j) and exits 1 before loading a model', async (args, stderr) => {
    const refused = await run(process.execPath, [CONSUME_BIN, ...args]).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 1, stderr })
  })

  it('names a setting of an existing stream it cannot work with and exits 1', async () => {
    await nats.jsm.streams.add({ name: 'INFERPOOL_RESULTS', subjects: ['inferpool.results.>'], duplicate_window: 60_000 * 1e6 })
    const refused = await run(process.execPath, [CONSUME_BIN, '--nats', server.url, '--metrics-port', '0', '--replicas', '1']).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(refused).toMatchObject({ code: 1 })
    expect((refused as { stderr: string }).stderr).toContain(
      'inferpool consume: The existing stream INFERPOOL_RESULTS has duplicate_window "60000 ms"; inferpool consume needs at least 300000 ms',
    )
  })
})

describe('inferpool consume through the server’s binary', () => {
  it('delegates `inferpool consume` to @inferpool/consume where it is installed', async () => {
    const { stdout } = await run(process.execPath, [SERVER_BIN, 'consume', '--help'], { cwd: dirname(CONSUME_BIN) })
    expect(stdout).toContain('Bulk inference from NATS JetStream')
  })

  it('names the package to install where it is not', async () => {
    const refused = await run(process.execPath, [SERVER_BIN, 'consume', '--help'], { cwd: tmpdir(), env: withoutNodePath() }).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(refused).toMatchObject({
      code: 1,
      stderr: "inferpool: 'inferpool consume' needs the @inferpool/consume package: npm install @inferpool/consume\n",
    })
  })
})

describe('crashes', () => {
  let pool: Pool
  beforeAll(async () => {
    pool = await createPool({ model: DEMO_MODEL, replicas: 1, batching: { maxBatchSize: 64 } })
  })
  afterAll(async () => {
    await pool.close()
  })

  it('loses nothing and duplicates nothing when killed with SIGKILL twice: every request gets exactly one right result, every poison one dead letter', async () => {
    const good = 2000
    const poisonEvery = 200
    const poisonSeqs: number[] = []
    const rowOfSeq = new Map<number, number>()
    for (let i = 0; i < good; i++) {
      rowOfSeq.set(await publish(nats.js, REQUESTS, jsonRequest(i)), i)
      if (i % poisonEvery === 0) poisonSeqs.push(await publish(nats.js, REQUESTS, poisonRequest(i)))
    }
    const args = ['--ack-wait-ms', '1000', '--max-batch-size', '32']
    for (const killAt of [good / 3, (2 * good) / 3]) {
      const c = await consume(...args)
      await until(async () => (await streamCount(nats, 'INFERPOOL_RESULTS')) >= killAt)
      c.child.kill('SIGKILL')
      expect(await c.exited).toEqual({ code: null, signal: 'SIGKILL' })
    }
    await consume(...args)
    await until(async () => (await streamCount(nats, 'INFERPOOL_REQUESTS')) === 0)

    const results = await readStream(nats, 'INFERPOOL_RESULTS')
    expect(results).toHaveLength(good)
    const seqs = results.map((m) => Number(m.headers!.get(CONSUME_HEADERS.requestSeq)))
    expect(new Set(seqs).size).toBe(good)
    expect([...seqs].sort((a, b) => a - b)).toEqual([...rowOfSeq.keys()].sort((a, b) => a - b))
    const expected = await Promise.all([...rowOfSeq.values()].map((i) => pool.infer({ input: row(i) })))
    const expectedOfSeq = new Map([...rowOfSeq.keys()].map((seq, k) => [seq, expected[k].output.data as Float32Array]))
    for (const [k, m] of results.entries()) {
      const body = m.json<{ outputs: { data: number[] }[] }>()
      expect(Float32Array.from(body.outputs[0].data)).toEqual(expectedOfSeq.get(seqs[k]))
    }
    const dead = await readStream(nats, 'INFERPOOL_DEAD')
    expect(dead.map((m) => Number(m.headers!.get(CONSUME_HEADERS.requestSeq))).sort((a, b) => a - b)).toEqual(poisonSeqs)
  }, 180_000)
})

describe('scripts/publish-example.mjs', () => {
  it('sends a request and prints its result', async () => {
    await consume()
    const { stdout } = await run(process.execPath, [PUBLISH_EXAMPLE, server.url])
    const lines = stdout.trim().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^request [0-9a-f-]{36} is INFERPOOL_REQUESTS #1$/)
    expect(lines[1]).toBe(`result of ${/^request (\S+)/.exec(lines[0])![1]}: output FP32 [1,16]`)
    expect(lines[2].split(' ')).toHaveLength(16)
  })
})
