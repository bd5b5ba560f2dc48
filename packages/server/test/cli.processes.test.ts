/**
 * `inferpool serve --processes n`: real server processes (node:cluster) sharing one
 * port, real pools, real HTTP and signals.
 */
import { request } from 'node:http'
import { availableParallelism } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { restartDelayMs } from '@inferpool/host/internal'
import { defaultIntraOpThreads } from '@inferpool/host'
import { grpcClient } from './grpc-helpers.js'
import { demoRequest, demoRows, http, metric, post, repoModel } from './server-helpers.js'
import { otlpReceiver } from './otlp-receiver.js'
import { childPids, freePort, isRunning, poll, startServe, stopAll, tryGet } from './serve-process.js'

afterEach(stopAll)

const cores = availableParallelism()

describe('defaults that account for the process count', () => {
  it('shares the cores among processes × replicas for the intra-op threads, at least 1 each', () => {
    expect(defaultIntraOpThreads({ cores: 16, replicas: 2, processes: 4 })).toBe(2)
    expect(defaultIntraOpThreads({ cores: 16, replicas: 2 })).toBe(8)
    expect(defaultIntraOpThreads({ cores: 8, replicas: 3, processes: 1 })).toBe(2)
    expect(defaultIntraOpThreads({ cores: 2, replicas: 2, processes: 2 })).toBe(1)
  })

  it('replaces a process after 250 ms, doubling with each replacement that died before it was ready, up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 50].map(restartDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
  })
})

describe('inferpool serve --processes 2', () => {
  it('serves from two processes on one port and answers /metrics for both', async () => {
    const server = await startServe(['--port', '0', '--processes', '2', '--replicas', '1'])
    const intra = defaultIntraOpThreads({ cores, replicas: 1, processes: 2 })
    expect(server.output()).toContain(
      `threads per model: 2 processes × 1 replica × ${intra} intra-op thread${intra === 1 ? '' : 's'} = ${2 * intra}, on ${cores} core${cores === 1 ? '' : 's'}`,
    )
    expect(server.output()).toContain('(2 server processes share the port)')
    expect(await childPids(server.pid)).toHaveLength(2)

    // Fresh connections, so the primary spreads them over both processes; every one is
    // counted in the aggregate, whichever process answers the scrape.
    const rows = demoRows(7, 12)
    const answers = await Promise.all(rows.map((row) => post(`${server.url}/v2/models/demo/infer`, demoRequest([row]))))
    expect(answers.map((a) => a.status)).toEqual(new Array(12).fill(200))
    for (let scrape = 0; scrape < 4; scrape++) {
      const text = (await http(`${server.url}/metrics`)).text
      expect(metric(text, 'inferpool_requests_total', { model: 'demo', version: '1', protocol: 'http', status: '200' })).toBe(12)
      expect(metric(text, 'inferpool_rows_completed_total', { model: 'demo' })).toBe(12)
      expect(metric(text, 'inferpool_replicas', { model: 'demo' })).toBe(2)
      expect(metric(text, 'inferpool_replicas_ready', { model: 'demo' })).toBe(2)
      expect(metric(text, 'inferpool_processes', {})).toBe(2)
      expect(metric(text, 'inferpool_processes_ready', {})).toBe(2)
      expect(metric(text, 'inferpool_process_restarts_total', {})).toBe(0)
    }
    expect((await http(`${server.url}/v2/health/ready`)).status).toBe(200)
  })

  it('replaces a server process that dies and counts it in /metrics', async () => {
    const server = await startServe(['--port', '0', '--processes', '2', '--replicas', '1'])
    const [victim, survivor] = await childPids(server.pid)
    process.kill(victim, 'SIGKILL')
    // Every scrape while the replacement comes up is one snapshot: the processes it
    // counts as ready are the ones whose replicas it sums (one replica each).
    const ready: Array<[processes: number | undefined, replicas: number | undefined]> = []
    const text = await poll(async () => {
      const scraped = await tryGet(`${server.url}/metrics`)
      if (scraped === undefined) return undefined
      ready.push([metric(scraped, 'inferpool_processes_ready', {}), metric(scraped, 'inferpool_replicas_ready', { model: 'demo' })])
      return metric(scraped, 'inferpool_processes_ready', {}) === 2 && metric(scraped, 'inferpool_process_restarts_total', {}) === 1
        ? scraped
        : undefined
    }, 5)
    expect(ready.filter(([processes, replicas]) => processes !== replicas)).toEqual([])
    expect(metric(text, 'inferpool_replicas_ready', { model: 'demo' })).toBe(2)
    const now = await childPids(server.pid)
    expect(now).toHaveLength(2)
    expect(now).toContain(survivor)
    expect(now).not.toContain(victim)
    expect(server.output()).toContain(`inferpool: server process ${victim} was killed by SIGKILL; starting a replacement in 250 ms`)
    const answer = await post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(3, 1)))
    expect(answer.status).toBe(200)
  })

  it('on SIGTERM answers the request in progress, drains every process and exits 0', async () => {
    const server = await startServe(['--port', '0', '--processes', '2', '--replicas', '1'])
    const workers = await childPids(server.pid)
    const body = JSON.stringify(demoRequest(demoRows(11, 4)))
    // With `Expect: 100-continue` a node:http server sends "100 Continue" right as it
    // hands the request to the handler, which admits it synchronously: from then on it is
    // a request in progress, which a graceful shutdown must answer.
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/v2/models/demo/infer`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
      })
      req.on('continue', () => {
        server.child.kill('SIGTERM')
        req.end(body)
      })
      req.on('response', (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
    })
    expect(await answer).toBe(200)
    expect(await server.exit).toBe(0)
    expect(server.output()).toContain('inferpool: SIGTERM received, draining 2 server processes (up to 30000 ms)')
    expect(server.output()).toContain('inferpool: shut down cleanly')
    expect(workers.filter(isRunning)).toEqual([])
  })

  it('ends its server processes when the primary is killed', async () => {
    const server = await startServe(['--port', '0', '--processes', '2', '--replicas', '1'])
    const workers = await childPids(server.pid)
    expect(workers).toHaveLength(2)
    server.child.kill('SIGKILL')
    await server.exit
    expect(await poll(() => (workers.some(isRunning) ? undefined : workers.filter(isRunning)))).toEqual([])
  })

  it('exits 1 without serving when a process cannot load its model', async () => {
    const server = startServe(['--port', '0', '--processes', '2', '--replicas', '1', '--model', `bad=${repoModel('README.md')}`])
    const error = await server.then(
      () => undefined,
      (e: Error) => e.message,
    )
    expect(error).toContain('inferpool exited with 1 before it was ready')
    expect(error).toContain('inferpool: a model failed to load:')
    expect(error).toMatch(/inferpool: server process \d+ exited with code 1 before it was ready; stopping/)
  })
})

describe('PORT', () => {
  it('is the port when --port is not given, as Knative and KServe set it', async () => {
    const port = await freePort()
    const server = await startServe(['--replicas', '1'], { PORT: String(port) })
    expect(server.url).toBe(`http://127.0.0.1:${port}`)
  })

  it('gives way to --port', async () => {
    const server = await startServe(['--replicas', '1', '--port', '0'], { PORT: '1' })
    expect(server.url).not.toBe('http://127.0.0.1:1')
    expect((await http(`${server.url}/v2/health/live`)).status).toBe(200)
  })
})

describe('inferpool serve --processes 2 --grpc-port', () => {
  it('prints the gRPC address beside the HTTP one, and both answer', async () => {
    const grpcPort = await freePort()
    const server = await startServe(['--port', '0', '--processes', '2', '--replicas', '1', '--grpc-port', String(grpcPort)])
    expect(server.output()).toContain(`listening on ${server.url} and grpc://127.0.0.1:${grpcPort} (2 server processes share the ports)`)
    const client = grpcClient(`127.0.0.1:${grpcPort}`)
    try {
      expect(await client.call('ServerReady', {})).toEqual({ ok: true, response: { ready: true } })
    } finally {
      client.close()
    }
    expect((await http(`${server.url}/v2/health/ready`)).status).toBe(200)
  })
})

describe('inferpool serve --processes 2 --otel-endpoint', () => {
  it('exports the spans of each process from that process, all of them before the cluster exits', async () => {
    const receiver = await otlpReceiver()
    try {
      const server = await startServe([
        '--port',
        '0',
        '--processes',
        '2',
        '--replicas',
        '1',
        '--otel-endpoint',
        receiver.url,
        '--otel-protocol',
        'http/json',
      ])
      const workers = await childPids(server.pid)
      // Fresh connections: the primary hands them to the processes in turn.
      const traceIds = Array.from({ length: 4 }, (_, i) => `${'0'.repeat(31)}${i + 1}`)
      const answers = await Promise.all(
        traceIds.map((traceId, i) =>
          post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(60 + i, 1)), {
            traceparent: `00-${traceId}-00000000000000a1-01`,
          }),
        ),
      )
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
      server.child.kill('SIGTERM')
      expect(await server.exit).toBe(0)
      const requests = receiver.spans.filter((span) => span.name === 'infer demo')
      expect(requests.map((span) => span.traceId).sort()).toEqual(traceIds)
      // Every span came from one of the two server processes, and both exported some.
      expect(new Set(receiver.spans.map((span) => span.pid))).toEqual(new Set(workers))
    } finally {
      await receiver.close()
    }
  })
})
