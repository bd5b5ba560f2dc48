/**
 * Rolling restarts behind a real load balancer: two `inferpool serve` instances behind
 * HAProxy (health checks on /v2/health/ready), steady keep-alive load through HAProxy,
 * then each instance in turn gets SIGTERM and is started again: no request may fail.
 * Then one instance is SIGKILLed: HAProxy retries what it held on the other instance
 * (the settings are the ones docs/deploy.md recommends), so no request may fail either;
 * the test reports how many HAProxy retried.
 *
 * Skipped only when haproxy is not installed; `.ci/run` installs it, so CI runs it.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { Agent, request } from 'node:http'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { demoRequest, demoRows } from './server-helpers.js'
import { freePort, poll, startServe, stopAll, track } from './serve-process.js'
import type { ServeProcess } from './serve-process.js'

const haproxy = ['haproxy', '/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find(
  (bin) => spawnSync(bin, ['-v'], { stdio: 'ignore' }).status === 0,
)

/** Concurrent callers of the load, each with one keep-alive connection to HAProxy. */
const CALLERS = 8
/** Bounds of the load loop: it ends at whichever comes first (or when the test stops it). */
const MAX_REQUESTS = 60_000
const MAX_LOAD_MS = 90_000

/**
 * The balancer settings that make a restart lossless (docs/deploy.md#balancer):
 * - health checks on /v2/health/ready, so a draining or loading instance is taken out,
 *   with a check timeout of their own (\`timeout check\`; by default it is \`inter\`);
 * - `retry-on all-retryable-errors` + `option redispatch 1`: a request that meets a
 *   refused connection (the instance stopped accepting), an empty response (a kept-alive
 *   connection the instance closed, or an instance that died holding the request) or a
 *   503 (ERR_SHUTTING_DOWN on a connection already open to a draining instance) is
 *   retried on another instance. Inference is a pure function of its input, so a replay
 *   is safe;
 * - `option http-buffer-request`, so HAProxy holds the whole body it may have to replay.
 */
function haproxyConfig(front: number, servers: number[], socket: string): string {
  return `global
  maxconn 1024
  stats socket ${socket} level admin

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  # Without it a check times out after \`inter\` (100 ms): on a loaded machine a healthy
  # instance then fails a check and is taken out.
  timeout check 2s
  retries 3
  option redispatch 1
  retry-on all-retryable-errors
  option http-buffer-request
  option httpchk GET /v2/health/ready
  http-check expect status 200
  default-server check inter 100ms fall 2 rise 2

frontend inference
  bind 127.0.0.1:${front}
  default_backend inferpool

backend inferpool
  balance roundrobin
${servers.map((port, i) => `  server s${i} 127.0.0.1:${port}`).join('\n')}
`
}

/** One `show stat` from HAProxy's admin socket, as rows keyed by column name. */
function showStat(socket: string): Promise<Array<Record<string, string>>> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(socket)
    let text = ''
    conn.setEncoding('utf8')
    conn.on('data', (chunk: string) => (text += chunk))
    conn.on('end', () => {
      const [header, ...rows] = text.trim().split('\n')
      const columns = header.replace(/^# /, '').split(',')
      resolve(rows.map((row) => Object.fromEntries(row.split(',').map((value, i) => [columns[i], value]))))
    })
    conn.on('error', reject)
    conn.end('show stat\n')
  })
}

interface LoadCounts {
  ok: number
  failed: number
  failures: string[]
}

/**
 * Steady closed-loop load: CALLERS callers, each posts one row through HAProxy, checks
 * the answer, and posts the next. Bounded by MAX_REQUESTS and MAX_LOAD_MS.
 */
function startLoad(url: string): { counts: LoadCounts; stop(): Promise<'stopped' | 'bounded'> } {
  const agent = new Agent({ keepAlive: true, maxSockets: CALLERS })
  const body = JSON.stringify(demoRequest(demoRows(5, 1)))
  const counts: LoadCounts = { ok: 0, failed: 0, failures: [] }
  const deadline = Date.now() + MAX_LOAD_MS
  let stopping = false
  let bounded = false
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const fail = (why: string): void => {
        counts.failed++
        if (counts.failures.length < 10) counts.failures.push(why)
        resolve()
      }
      const req = request(
        `${url}/v2/models/demo/infer`,
        {
          method: 'POST',
          agent,
          timeout: 10_000,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
          res.on('end', () => {
            const shape =
              res.statusCode === 200 ? (JSON.parse(text) as { outputs: Array<{ shape: number[] }> }).outputs[0].shape : undefined
            if (shape?.join() === '1,16') {
              counts.ok++
              resolve()
            } else fail(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`)
          })
          res.on('error', (error) => fail(error.message))
        },
      )
      req.on('timeout', () => req.destroy(new Error('no answer within 10 s')))
      req.on('error', (error) => fail(error.message))
      req.end(body)
    })
  const caller = async (): Promise<void> => {
    while (!stopping) {
      if (counts.ok + counts.failed >= MAX_REQUESTS || Date.now() > deadline) {
        bounded = true
        return
      }
      await one()
    }
  }
  const callers = Promise.all(Array.from({ length: CALLERS }, caller))
  return {
    counts,
    async stop() {
      stopping = true
      await callers
      agent.destroy()
      return bounded ? 'bounded' : 'stopped'
    },
  }
}

describe.skipIf(haproxy === undefined)('rolling restart behind HAProxy', () => {
  let dir = ''
  afterAll(async () => {
    await stopAll()
    if (dir !== '') await rm(dir, { recursive: true, force: true })
  })

  it('loses no request while each instance is restarted in turn, nor when one is killed', { timeout: 120_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'inferpool-haproxy-'))
    const socket = join(dir, 'admin.sock')
    const ports = [await freePort(), await freePort()]
    const front = await freePort()
    const serveArgs = (port: number): string[] => ['--port', String(port), '--replicas', '1', '--shutdown-timeout-ms', '10000']
    const instances: ServeProcess[] = await Promise.all(ports.map((port) => startServe(serveArgs(port))))

    const config = join(dir, 'haproxy.cfg')
    await writeFile(config, haproxyConfig(front, ports, socket))
    const balancer = track(spawn(haproxy as string, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] }))
    let balancerLog = ''
    balancer.stderr?.on('data', (chunk: Buffer) => (balancerLog += chunk.toString()))
    balancer.once('exit', (code) => (balancerLog += `\nhaproxy exited with ${code}`))

    const statusOf = async (server: string): Promise<string | undefined> => {
      try {
        return (await showStat(socket)).find((row) => row.pxname === 'inferpool' && row.svname === server)?.status
      } catch {
        return undefined // the socket is not there yet
      }
    }
    const backend = async (): Promise<{ retries: number; redispatches: number }> => {
      const row = (await showStat(socket)).find((r) => r.pxname === 'inferpool' && r.svname === 'BACKEND') as Record<string, string>
      return { retries: Number(row.wretr), redispatches: Number(row.wredis) }
    }
    const waitFor = (server: string, status: 'UP' | 'DOWN'): Promise<string> =>
      poll(async () => ((await statusOf(server))?.startsWith(status) ? status : undefined))
    for (const i of ports.keys()) await waitFor(`s${i}`, 'UP')

    const load = startLoad(`http://127.0.0.1:${front}`)
    const phases: Array<{ phase: string; ok: number; failed: number; retries: number; redispatches: number }> = []
    const phase = async (name: string, run: () => Promise<void>): Promise<void> => {
      const before = { ...load.counts, ...(await backend()) }
      await run()
      const after = await backend()
      phases.push({
        phase: name,
        ok: load.counts.ok - before.ok,
        failed: load.counts.failed - before.failed,
        retries: after.retries - before.retries,
        redispatches: after.redispatches - before.redispatches,
      })
    }
    // Some load through both instances before the first restart.
    await poll(() => (load.counts.ok >= 50 ? true : undefined))

    for (const i of ports.keys()) {
      await phase(`SIGTERM and restart s${i}`, async () => {
        instances[i].child.kill('SIGTERM')
        expect(await instances[i].exit).toBe(0)
        instances[i] = await startServe(serveArgs(ports[i]))
        await waitFor(`s${i}`, 'UP')
      })
    }

    await phase('SIGKILL s0, then restart it', async () => {
      instances[0].child.kill('SIGKILL')
      await instances[0].exit
      await waitFor('s0', 'DOWN')
      const seen = load.counts.ok
      await poll(() => (load.counts.ok >= seen + 50 ? true : undefined))
      instances[0] = await startServe(serveArgs(ports[0]))
      await waitFor('s0', 'UP')
    })

    const ended = await load.stop()
    // The report the issue asks for: requests answered, failed, and retried by HAProxy, per phase.
    console.log(`HAProxy rolling restart (${CALLERS} keep-alive callers):\n${phases.map((p) => `  ${JSON.stringify(p)}`).join('\n')}`)
    expect(load.counts.failures).toEqual([])
    expect(load.counts.failed).toBe(0)
    expect(phases.map((p) => p.failed)).toEqual([0, 0, 0])
    // The load ran through every phase: it was stopped by the test, not by its own bounds.
    expect(ended).toBe('stopped')
    expect(load.counts.ok).toBeGreaterThan(0)
    expect(balancerLog).not.toContain('haproxy exited')
  })
})
