/**
 * `inferpool serve --nats`: the server's binary, run as a user runs it, consuming bulk
 * requests from a real nats-server in the pools that serve HTTP. The server finds
 * @inferpool/consume at run time: from this package's directory (its own name resolves
 * there), and not from a directory without it.
 */
import { execFile, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CONSUME_HEADERS } from '@inferpool/consume'
import { startNatsServer } from '@inferpool/consume/nats-server'
import type { NatsServer } from '@inferpool/consume/nats-server'
import { SERVER_BIN } from './consume-process.js'
import { DEMO_MODEL, DEMO_OUTPUT, client, jsonRequest, publish, readStream, requestsStream, streamCount, until } from './helpers.js'
import type { Client } from './helpers.js'

const run = promisify(execFile)
const REQUESTS = 'inferpool.requests.demo'
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))

let server: NatsServer
let nats: Client
const children: ChildProcess[] = []

beforeEach(async () => {
  server = await startNatsServer()
  nats = await client(server.url)
  await requestsStream(nats)
})
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
    }
  }
  await nats.close()
  await server.stop()
})

/** The environment without `NODE_PATH`, which `pnpm` points at every package of the workspace. */
function withoutNodePath(): NodeJS.ProcessEnv {
  const { NODE_PATH: _, ...env } = process.env
  return { ...env, INFERPOOL_LOG_FORMAT: 'text' }
}

interface Serving {
  readonly child: ChildProcess
  readonly url: string
  output(): string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

async function serve(...args: string[]): Promise<Serving> {
  const child = spawn(
    process.execPath,
    [
      SERVER_BIN,
      'serve',
      '--model',
      `demo=${DEMO_MODEL}`,
      '--port',
      '0',
      '--grpc-port',
      '0',
      '--replicas',
      '1',
      '--intra-op-threads',
      '1',
      ...args,
    ],
    { cwd: PACKAGE_DIR, env: withoutNodePath(), stdio: ['ignore', 'pipe', 'pipe'] },
  )
  children.push(child)
  let output = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: string): void => {
      output += chunk
      if (output.includes('inferpool: ready')) resolve()
    }
    child.stdout!.setEncoding('utf8').on('data', onData)
    child.stderr!.setEncoding('utf8').on('data', onData)
    void exited.then(({ code }) => reject(new Error(`inferpool serve exited with ${code} before it was ready:\n${output}`)))
  })
  const url = /listening on (http:\/\/\S+)/.exec(output)![1]
  return { child, url, output: () => output, exited }
}

async function infer(url: string, i: number): Promise<number[]> {
  const response = await fetch(`${url}/v2/models/demo/infer`, {
    method: 'POST',
    body: jsonRequest(i),
    headers: { 'content-type': 'application/json' },
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { outputs: { data: number[] }[] }).outputs[0].data
}

describe('inferpool serve --nats', () => {
  it('gives a request from the stream its result while serving HTTP from the same pool, and on SIGTERM acks all it holds and exits 0', async () => {
    const s = await serve('--nats', server.url, '--max-batch-size', '16')
    expect(s.output()).toContain('bulk: consuming from NATS')

    const count = 200
    const seqs: number[] = []
    const online: Promise<number[]>[] = []
    for (let i = 0; i < count; i++) {
      seqs.push(await publish(nats.js, REQUESTS, jsonRequest(i, `bulk-${i}`)))
      if (i % 10 === 0) online.push(infer(s.url, i))
    }
    const answers = await Promise.all(online)
    // Each online answer is the row's own output: bulk rows share its batches without mixing.
    const alone = await infer(s.url, 0)
    expect(answers[0]).toEqual(alone)
    expect(answers.every((a) => a.length === DEMO_OUTPUT)).toBe(true)

    // The first result is right, and others keep coming while SIGTERM arrives mid-backlog.
    await until(async () => (await streamCount(nats, 'INFERPOOL_RESULTS')) >= 20)
    s.child.kill('SIGTERM')
    expect(await s.exited).toEqual({ code: 0, signal: null })
    expect(s.output()).toContain('inferpool: NATS consumer stopped ({"inFlight":0,')

    // Nothing left delivered and unacknowledged (the ack wait is 30 s: it would still show).
    const info = await nats.jsm.consumers.info('INFERPOOL_REQUESTS', 'inferpool_demo')
    expect(info.num_ack_pending).toBe(0)
    expect(info.num_redelivered).toBe(0)
    const results = await readStream(nats, 'INFERPOOL_RESULTS')
    expect(results.length + (await streamCount(nats, 'INFERPOOL_REQUESTS'))).toBe(count)
    const first = results.find((m) => m.headers!.get(CONSUME_HEADERS.requestSeq) === String(seqs[0]))!
    expect(first.headers!.get(CONSUME_HEADERS.requestId)).toBe('bulk-0')
    expect(first.json<{ outputs: { data: number[] }[] }>().outputs[0].data).toEqual(alone)
  })

  it("adds the consumer's series to the server's /metrics", async () => {
    await publish(nats.js, REQUESTS, jsonRequest(3))
    const s = await serve('--nats', server.url)
    await until(async () => (await streamCount(nats, 'INFERPOOL_RESULTS')) === 1)
    const text = await (await fetch(`${s.url}/metrics`)).text()
    expect(text).toContain('inferpool_consume_results_total{model="demo"} 1\n')
    expect(text).toContain('inferpool_consume_lag{model="demo"} 0\n')
    expect(text).toContain('inferpool_consume_in_flight{model="demo"} 0\n')
  })

  it('exits 1 naming the failure when no NATS server answers', async () => {
    const url = server.url
    await server.stop()
    const refused = await run(
      process.execPath,
      [SERVER_BIN, 'serve', '--model', `demo=${DEMO_MODEL}`, '--port', '0', '--grpc-port', '0', '--nats', url],
      {
        cwd: PACKAGE_DIR,
        env: withoutNodePath(),
      },
    ).catch((error: { code: number; stderr: string; stdout: string }) => error)
    expect(refused).toMatchObject({ code: 1 })
    const { stdout, stderr } = refused as { stdout: string; stderr: string }
    expect(stdout + stderr).toContain('inferpool: the NATS consumer did not start: ')
    // A server again, for the next steps and afterEach.
    server = await startNatsServer()
    await nats.close()
    nats = await client(server.url)
  })

  it('names @inferpool/consume and exits 1 when it is not installed', async () => {
    const refused = await run(process.execPath, [SERVER_BIN, 'serve', '--nats', server.url, '--port', '0'], {
      cwd: tmpdir(),
      env: withoutNodePath(),
    }).catch((error: { code: number; stderr: string; stdout: string }) => error)
    expect(refused).toMatchObject({ code: 1 })
    const { stdout, stderr } = refused as { stdout: string; stderr: string }
    expect(stdout + stderr).toContain(
      'inferpool: --nats needs the @inferpool/consume package, which is not installed: npm install @inferpool/consume',
    )
  })

  it.each([
    [['--max-deliver', '3'], "error: option '--max-deliver' needs --nats\n(run with --help for usage)\n"],
    [
      ['--nats', 'nats://127.0.0.1:4222', '--processes', '2'],
      "error: option '--nats' consumes in one process whose models stay loaded, got --processes 2; run more `inferpool serve --nats` (or `inferpool consume`) processes instead\n(run with --help for usage)\n",
    ],
  ])('refuses %j and exits 1', async (args, stderr) => {
    const refused = await run(process.execPath, [SERVER_BIN, 'serve', '--port', '0', ...args], {
      cwd: PACKAGE_DIR,
      env: withoutNodePath(),
    }).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 1, stderr })
  })
})
