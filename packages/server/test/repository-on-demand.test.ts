/**
 * On-demand loading (`mode: 'on-demand'`, src/repository/manager.ts with the served
 * models' `untilLoaded`): a real server over a real repository in a temp dir; every
 * model listed, loaded by its first request on either protocol, one load shared by the
 * requests that wait for it, each bounded by its own timeout or deadline; a failed load
 * remembered and retried after its back-off (an injected clock), its error reaching its
 * waiters; the load and unload calls working as in explicit mode.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { ModelRepository, repositoryPoolOptions, serve } from '@inferpool/server'
import type { InferpoolServer, RepositoryModel } from '@inferpool/server'
import { grpc, grpcClient, rawBytes } from './grpc-helpers.js'
import type { TestClient } from './grpc-helpers.js'
import { http, metric, post, repoModel } from './server-helpers.js'

const quiet = { error() {}, info() {}, warn() {} }
const model = repoModel('fixed-batch.onnx')
const input = [0.5, -1, 2, 0.25, -0.75, 1.5, 3, -2]

const roots: string[] = []
const servers: InferpoolServer[] = []
const clients: TestClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await Promise.all(servers.splice(0).map((s) => s.close()))
})
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

/** A repository holding `names`, each a copy of the fixed-batch model (`x` [1, 8] → `y` [1, 4]). */
function repository(names: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'inferpool-on-demand-'))
  roots.push(root)
  for (const name of names) {
    mkdirSync(join(root, name, '1'), { recursive: true })
    writeFileSync(join(root, name, 'config.pbtxt'), 'max_batch_size: 1')
    copyFileSync(model, join(root, name, '1', 'model.onnx'))
  }
  return root
}

/** A gate the test opens: pool creation waits on it (a load that takes as long as the test wants). */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void
  const wait = new Promise<void>((resolve) => (open = resolve))
  return { wait, open }
}

interface Started {
  url: string
  client: TestClient
  control: ModelRepository
  /** Pools created, by model name. */
  created: string[]
}

async function start(
  root: string,
  options: { timeoutMs?: number; now?: () => number; before?: (model: RepositoryModel) => Promise<void> } = {},
): Promise<Started> {
  const created: string[] = []
  const control = new ModelRepository({
    repositories: [root],
    mode: 'on-demand',
    createPool: async (m, file): Promise<Pool> => {
      created.push(m.name)
      await options.before?.(m)
      return createPool({ ...repositoryPoolOptions(m, file, { replicas: 1 }), logger: quiet })
    },
    logger: quiet,
    ...(options.now === undefined ? {} : { now: options.now }),
  })
  const server = await serve({}, { port: 0, grpcPort: 0, logger: quiet, modelControl: control, timeoutMs: options.timeoutMs })
  servers.push(server)
  control.serveInto(server.handler.served)
  const client = grpcClient(server.grpcAddress as string)
  clients.push(client)
  return { url: server.url as string, client, control, created }
}

const httpInfer = (url: string, name: string): ReturnType<typeof post> =>
  post(`${url}/v2/models/${name}/infer`, { inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: input }] })

const grpcInfer = (client: TestClient, name: string, deadlineMs?: number): ReturnType<TestClient['call']> =>
  client.call(
    'ModelInfer',
    {
      model_name: name,
      inputs: [{ name: 'x', datatype: 'FP32', shape: [1, 8] }],
      raw_input_contents: [rawBytes(Float32Array.from(input))],
    },
    deadlineMs === undefined ? {} : { deadlineMs },
  )

/** An HTTP answer as `status code` (`200 1` with the version served). */
async function httpOutcome(url: string, name: string): Promise<string> {
  const res = await httpInfer(url, name)
  const json = res.json as { model_version?: string; code?: string }
  return res.status === 200 ? `200 ${json.model_version}` : `${res.status} ${json.code}`
}

async function grpcOutcome(client: TestClient, name: string, deadlineMs?: number): Promise<string> {
  const res = await grpcInfer(client, name, deadlineMs)
  return res.ok ? `OK ${res.response.model_version}` : grpc.status[res.code]
}

/** The index rows without their `cache` fields (asserted on their own). */
async function index(url: string): Promise<unknown> {
  const rows = (await post(`${url}/v2/repository/index`, {})).json as Array<Record<string, unknown>>
  return rows.map(({ cache: _cache, ...row }) => row)
}

async function loads(url: string, name: string, outcome: 'ok' | 'failed'): Promise<number | undefined> {
  return metric((await http(`${url}/metrics`)).text, 'inferpool_model_load_seconds_count', { model: name, outcome })
}

describe('on-demand loading', () => {
  it('lists every repository model as not loaded, and loads each on its first request, HTTP or gRPC', async () => {
    const { url, client, created } = await start(repository(['a', 'b', 'c']))
    expect(await index(url)).toEqual([
      { name: 'a', state: 'UNAVAILABLE', reason: 'not loaded' },
      { name: 'b', state: 'UNAVAILABLE', reason: 'not loaded' },
      { name: 'c', state: 'UNAVAILABLE', reason: 'not loaded' },
    ])
    expect((await http(`${url}/v2/models/a/ready`)).status).toBe(400)
    expect(await httpOutcome(url, 'a')).toBe('200 1')
    expect(await grpcOutcome(client, 'b')).toBe('OK 1')
    expect(await index(url)).toEqual([
      { name: 'a', version: '1', state: 'READY', reason: '' },
      { name: 'b', version: '1', state: 'READY', reason: '' },
      { name: 'c', state: 'UNAVAILABLE', reason: 'not loaded' },
    ])
    expect(created).toEqual(['a', 'b'])
    // The server is ready with models not loaded: they load when asked for.
    expect((await http(`${url}/v2/health/ready`)).status).toBe(200)
  })

  it('shares one load among the HTTP and gRPC requests that arrive while it runs', async () => {
    const opened = gate()
    const { url, client, created } = await start(repository(['m']), { before: () => opened.wait })
    const waiting = [
      ...Array.from({ length: 4 }, () => httpOutcome(url, 'm')),
      ...Array.from({ length: 4 }, () => grpcOutcome(client, 'm')),
    ]
    // Every request is in before the load may finish.
    while (created.length === 0) await new Promise((resolve) => setImmediate(resolve))
    expect(await index(url)).toEqual([{ name: 'm', version: '1', state: 'LOADING', reason: '' }])
    opened.open()
    expect(await Promise.all(waiting)).toEqual([...Array.from({ length: 4 }, () => '200 1'), ...Array.from({ length: 4 }, () => 'OK 1')])
    expect(created).toEqual(['m'])
    expect(await loads(url, 'm', 'ok')).toBe(1)
  })

  it('bounds a waiting request by the server timeout (HTTP) and by its deadline (gRPC); the load goes on for the next', async () => {
    const opened = gate()
    const { url, client } = await start(repository(['m']), { timeoutMs: 300, before: () => opened.wait })
    expect(await httpOutcome(url, 'm')).toBe('504 ERR_TIMEOUT')
    expect(await grpcOutcome(client, 'm', 200)).toBe('DEADLINE_EXCEEDED')
    opened.open()
    expect(await httpOutcome(url, 'm')).toBe('200 1')
    expect(await loads(url, 'm', 'ok')).toBe(1)
  })

  it('remembers a failed load: its waiters get its error, and it is tried again only once its back-off has passed', async () => {
    let now = 0
    const root = repository(['m'])
    writeFileSync(join(root, 'm', '1', 'model.onnx'), 'not an onnx model')
    const { url, client, created } = await start(root, { now: () => now })
    expect(await httpOutcome(url, 'm')).toBe('503 ERR_MODEL_LOAD')
    // Within the back-off: the same error at once, no new attempt.
    expect([await httpOutcome(url, 'm'), await grpcOutcome(client, 'm')]).toEqual(['503 ERR_MODEL_LOAD', 'UNAVAILABLE'])
    expect(created).toEqual(['m'])
    expect(await loads(url, 'm', 'failed')).toBe(1)
    const entry = ((await index(url)) as Array<{ state: string; reason: string }>)[0]
    expect([entry.state, entry.reason.includes('model.onnx')]).toEqual(['UNAVAILABLE', true])
    // Past the first back-off (1 s): tried again, fails again; the next back-off is 2 s.
    now = 1000
    expect(await httpOutcome(url, 'm')).toBe('503 ERR_MODEL_LOAD')
    expect(created).toEqual(['m', 'm'])
    copyFileSync(model, join(root, 'm', '1', 'model.onnx'))
    now = 2999
    expect(await httpOutcome(url, 'm')).toBe('503 ERR_MODEL_LOAD')
    expect(created).toEqual(['m', 'm'])
    now = 3000
    expect(await httpOutcome(url, 'm')).toBe('200 1')
    expect([await loads(url, 'm', 'failed'), await loads(url, 'm', 'ok')]).toEqual([2, 1])
  })

  it('lets an explicit load try at once, whatever the back-off', async () => {
    const root = repository(['m'])
    writeFileSync(join(root, 'm', '1', 'model.onnx'), 'not an onnx model')
    const { url } = await start(root, { now: () => 0 })
    expect(await httpOutcome(url, 'm')).toBe('503 ERR_MODEL_LOAD')
    copyFileSync(model, join(root, 'm', '1', 'model.onnx'))
    expect((await post(`${url}/v2/repository/models/m/load`, {})).status).toBe(200)
    expect(await httpOutcome(url, 'm')).toBe('200 1')
  })

  it('keeps the load and unload calls: an unloaded model is listed as such and loads again on its next request', async () => {
    const { url, created } = await start(repository(['m']))
    expect((await post(`${url}/v2/repository/models/m/load`, {})).status).toBe(200)
    expect(await httpOutcome(url, 'm')).toBe('200 1')
    expect((await post(`${url}/v2/repository/models/m/unload`, {})).status).toBe(200)
    expect(await index(url)).toEqual([{ name: 'm', state: 'UNAVAILABLE', reason: 'unloaded' }])
    expect(await httpOutcome(url, 'm')).toBe('200 1')
    expect(created).toEqual(['m', 'm'])
  })

  it('refuses a version that cannot be one without loading anything, and one the repository lacks once loaded', async () => {
    const { url, created } = await start(repository(['m']))
    const bad = await post(`${url}/v2/models/m/versions/x1/infer`, {
      inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: input }],
    })
    expect([bad.status, (bad.json as { code: string }).code, created]).toEqual([404, 'ERR_MODEL_NOT_FOUND', []])
    const missing = await post(`${url}/v2/models/m/versions/7/infer`, {
      inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: input }],
    })
    expect([missing.status, (missing.json as { code: string }).code, created]).toEqual([404, 'ERR_MODEL_NOT_FOUND', ['m']])
  })

  it('answers the requests waiting for a load when the server shuts down, and destroys what the load started', async () => {
    const opened = gate()
    const { url, created } = await start(repository(['m']), { before: () => opened.wait })
    const waiting = httpOutcome(url, 'm')
    while (created.length === 0) await new Promise((resolve) => setImmediate(resolve))
    const closing = servers.splice(0).map((s) => s.close())
    expect(await waiting).toBe('409 ERR_MODEL_LOAD_ABORTED')
    opened.open()
    await Promise.all(closing)
  })

  it("tells in the index each model's loads and last use, and in /metrics the cache-miss waits", async () => {
    const { url, control } = await start(repository(['a', 'b', 'c']))
    const before = Date.now()
    expect([await httpOutcome(url, 'a'), await httpOutcome(url, 'a'), await httpOutcome(url, 'b')]).toEqual(['200 1', '200 1', '200 1'])
    const rows = (await post(`${url}/v2/repository/index`, {})).json as Array<{ name: string; cache: { last_used?: string } }>
    const lastUsed = rows.map((row) => (row.cache.last_used === undefined ? undefined : Date.parse(row.cache.last_used)))
    expect(lastUsed.map((t) => t === undefined || (t >= before && t <= Date.now()))).toEqual([true, true, true])
    expect(rows.map((row) => ({ ...row.cache, last_used: row.cache.last_used === undefined ? 'none' : 'set' }))).toEqual([
      { loads: 1, evictions: 0, last_used: 'set' },
      { loads: 1, evictions: 0, last_used: 'set' },
      { loads: 0, evictions: 0, last_used: 'none' },
    ])
    const text = (await http(`${url}/metrics`)).text
    expect(metric(text, 'inferpool_cache_miss_seconds_count', { outcome: 'ok' })).toBe(2)
    // The same time in both (the index's ISO string to the millisecond).
    expect(Math.floor((metric(text, 'inferpool_model_last_used_seconds', { model: 'a' }) as number) * 1000)).toBe(lastUsed[0])
    // No budget: nothing measured, no memory gauges.
    expect([control.memory().budget, text.includes('inferpool_memory_budget_bytes')]).toEqual([undefined, false])
  })

  it('names the models a config marks eager (inferpool_eager), which the CLI loads at start', () => {
    const root = repository(['a', 'b'])
    writeFileSync(
      join(root, 'b', 'config.pbtxt'),
      'max_batch_size: 1\nparameters { key: "inferpool_eager" value: { string_value: "true" } }',
    )
    const control = new ModelRepository({
      repositories: [root],
      mode: 'on-demand',
      createPool: () => Promise.reject(new Error('unused')),
      logger: quiet,
    })
    expect(control.eagerModels()).toEqual(['b'])
  })

  it('answers 404 for a name that is no model directory, and a model added to the repository loads on demand', async () => {
    let now = 0
    const root = repository(['m'])
    const { url, client } = await start(root, { now: () => now })
    expect([await httpOutcome(url, 'nope'), await grpcOutcome(client, 'nope')]).toEqual(['404 ERR_MODEL_NOT_FOUND', 'NOT_FOUND'])
    mkdirSync(join(root, 'n', '1'), { recursive: true })
    copyFileSync(model, join(root, 'n', '1', 'model.onnx'))
    // The names are read again once a second at most, however many unknown names are asked for.
    now = 1000
    expect(await httpOutcome(url, 'n')).toBe('200 1')
  })
})
