/**
 * The memory budget of on-demand loading (`memoryBudget`, src/repository/manager.ts and
 * model-cache.ts) with real memory readings: replicas are processes (their memory goes
 * with them when they exit), each model's size is what the server's PSS (this test
 * process and its children, /proc/<pid>/smaps_rollup) grew by across its load, and each
 * budget is set from the reading and a size measured in the same test. Covered: LRU
 * order, no eviction of a model with a request in flight, the minimum age (an injected
 * clock), pinning, and a model over the budget alone.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { ModelRepository, repositoryPoolOptions, serve } from '@inferpool/server'
import type { InferpoolServer } from '@inferpool/server'
import { childrenOf } from '../../host/test/process-helpers.js'
import { http, metric, post, repoModel, until } from './server-helpers.js'
import { processTreePss } from '../src/repository/process-memory.js'

const quiet = { error() {}, info() {}, warn() {} }
const model = repoModel('fixed-batch.onnx')
const input = [0.5, -1, 2, 0.25, -0.75, 1.5, 3, -2]
const inferBody = { inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: input }] }

const roots: string[] = []
const servers: InferpoolServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

function repository(names: readonly string[], pinned: readonly string[] = []): string {
  const root = mkdtempSync(join(tmpdir(), 'inferpool-budget-'))
  roots.push(root)
  for (const name of names) {
    mkdirSync(join(root, name, '1'), { recursive: true })
    const marker = pinned.includes(name) ? '\nparameters { key: "inferpool_pinned" value: { string_value: "true" } }' : ''
    writeFileSync(join(root, name, 'config.pbtxt'), `max_batch_size: 1${marker}`)
    copyFileSync(model, join(root, name, '1', 'model.onnx'))
  }
  return root
}

async function start(
  root: string,
  memoryBudget: number,
  options: { minEvictionAgeMs?: number; now?: () => number } = {},
): Promise<{ url: string; control: ModelRepository; warnings: string[] }> {
  const warnings: string[] = []
  const control = new ModelRepository({
    repositories: [root],
    mode: 'on-demand',
    memoryBudget,
    minEvictionAgeMs: options.minEvictionAgeMs ?? 0,
    ...(options.now === undefined ? {} : { now: options.now }),
    createPool: (m, file) => createPool({ ...repositoryPoolOptions(m, file, { replicas: 1, isolation: 'process' }), logger: quiet }),
    logger: { info() {}, warn: (line) => warnings.push(line) },
  })
  const server = await serve({}, { port: 0, grpcPort: undefined, logger: quiet, modelControl: control })
  servers.push(server)
  control.serveInto(server.handler.served)
  return { url: server.url as string, control, warnings }
}

async function infer(url: string, name: string): Promise<string> {
  const res = await post(`${url}/v2/models/${name}/infer`, inferBody)
  return res.status === 200 ? '200' : `${res.status} ${(res.json as { code: string }).code}`
}

/** The index as `name state` lines. */
async function states(url: string): Promise<string[]> {
  const index = (await post(`${url}/v2/repository/index`, {})).json as Array<{ name: string; state: string }>
  return index.map((entry) => `${entry.name} ${entry.state}`)
}

/**
 * The sizes of models here, measured by a server with no budget to speak of that loads
 * two: the first carries what the first replica process costs alone (the shared
 * libraries' pages, which PSS splits among the processes that map them), the next is what
 * one more costs.
 */
async function modelSizes(): Promise<{ first: number; next: number }> {
  const { url, control } = await start(repository(['p1', 'p2']), Number.MAX_SAFE_INTEGER)
  expect(await infer(url, 'p1')).toBe('200')
  expect(await infer(url, 'p2')).toBe('200')
  const [first, next] = control.memory().models.map((m) => m.bytes)
  await Promise.all(servers.splice(0).map((s) => s.close()))
  // Its replica processes gone, so the budgets set from the next reading do not count them.
  await until(() => childrenOf(process.pid).length === 0)
  return { first, next }
}

/**
 * A budget with room for `models` models over what the server holds now, as the
 * repository sees it: a model it has not measured yet is taken to be as large as the
 * largest it has (the first), and half of one more.
 */
function room(sizes: { first: number; next: number }, models: number): number {
  return processTreePss() + models * sizes.first + Math.floor(0.5 * sizes.next)
}

describe('memory budget', () => {
  it('measures each model as the PSS it added, its replica process included', async () => {
    const { url, control } = await start(repository(['a']), Number.MAX_SAFE_INTEGER)
    expect(childrenOf(process.pid)).toEqual([])
    expect(await infer(url, 'a')).toBe('200')
    const [replica] = childrenOf(process.pid)
    const memory = control.memory()
    expect(memory.models.map((m) => m.name)).toEqual(['a'])
    // Most of a model's size is its replica process (onnxruntime and its session), which grows a little as it serves.
    expect(memory.models[0].bytes).toBeGreaterThan(processTreePss(replica) / 2)
    expect(memory.used).toBeGreaterThan(memory.models[0].bytes)
  })

  it('evicts the least recently used model when a load would pass the budget, and its replica process exits', async () => {
    const sizes = await modelSizes()
    const budget = room(sizes, 2)
    const { url } = await start(repository(['a', 'b', 'c']), budget)
    expect(await infer(url, 'a')).toBe('200')
    expect(await infer(url, 'b')).toBe('200')
    // a is used again: b is now the least recently used.
    expect(await infer(url, 'a')).toBe('200')
    expect(childrenOf(process.pid)).toHaveLength(2)
    expect(await infer(url, 'c')).toBe('200')
    expect(await states(url)).toEqual(['a READY', 'b UNAVAILABLE', 'c READY'])
    await until(() => childrenOf(process.pid).length === 2)
    const index = (await post(`${url}/v2/repository/index`, {})).json as Array<{ name: string; reason: string }>
    expect(index[1]).toEqual({
      name: 'b',
      state: 'UNAVAILABLE',
      reason: 'evicted to make room under the memory budget',
      cache: { loads: 1, evictions: 1, last_used: expect.any(String) },
    })
    const text = (await http(`${url}/metrics`)).text
    expect([
      metric(text, 'inferpool_model_evictions_total', { model: 'b' }),
      metric(text, 'inferpool_age_at_eviction_seconds_count', {}),
      metric(text, 'inferpool_memory_budget_bytes', {}),
      (metric(text, 'inferpool_memory_used_bytes', {}) as number) > 0,
      metric(text, 'inferpool_model_memory_bytes', { model: 'b' }),
      (metric(text, 'inferpool_model_memory_bytes', { model: 'a' }) as number) > 0,
    ]).toEqual([1, 1, budget, true, undefined, true])
    // An evicted model loads again on its next request.
    expect(await infer(url, 'b')).toBe('200')
  })

  it('never evicts a model with a request in flight: the next least recently used goes', async () => {
    const sizes = await modelSizes()
    const { url } = await start(repository(['a', 'b', 'c']), room(sizes, 2))
    expect(await infer(url, 'a')).toBe('200')
    expect(await infer(url, 'b')).toBe('200')
    // A request to a (the least recently used) whose body is still arriving holds it.
    const body = Buffer.from(JSON.stringify(inferBody))
    const held = request(`${url}/v2/models/a/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    })
    const answered = new Promise<number>((resolve, reject) => {
      held.once('response', (res) => {
        res.resume()
        res.once('end', () => resolve(res.statusCode as number))
      })
      held.once('error', reject)
    })
    held.write(body.subarray(0, 10))
    await until(() => servers[0].handler.activeRequests >= 1)
    expect(await infer(url, 'c')).toBe('200')
    expect(await states(url)).toEqual(['a READY', 'b UNAVAILABLE', 'c READY'])
    held.end(body.subarray(10))
    expect(await answered).toBe(200)
  })

  it('does not evict a model younger than the minimum age: the load goes over the budget, and the excess goes once it may', async () => {
    const sizes = await modelSizes()
    let now = 0
    const { url, warnings } = await start(repository(['a', 'b', 'c', 'd']), room(sizes, 2), {
      minEvictionAgeMs: 1000,
      now: () => now,
    })
    expect(await infer(url, 'a')).toBe('200')
    expect(await infer(url, 'b')).toBe('200')
    now = 999
    expect(await infer(url, 'c')).toBe('200')
    expect(await states(url)).toEqual(['a READY', 'b READY', 'c READY', 'd UNAVAILABLE'])
    expect(warnings.filter((line) => line.startsWith('memory budget:')).length).toBeGreaterThan(0)
    // a and b are old enough now (c is not): d's load evicts the least recently used first, a (and b too if a's
    // size does not cover the excess, which the sizes measured decide), never c.
    now = 1000
    expect(await infer(url, 'd')).toBe('200')
    const after = await states(url)
    expect(after.filter((line) => !line.startsWith('b '))).toEqual(['a UNAVAILABLE', 'c READY', 'd READY'])
  })

  it('never evicts a pinned model (config.pbtxt parameter inferpool_pinned)', async () => {
    const sizes = await modelSizes()
    const { url, control } = await start(repository(['a', 'b', 'c'], ['a']), room(sizes, 2))
    expect(await infer(url, 'a')).toBe('200')
    expect(await infer(url, 'b')).toBe('200')
    expect(await infer(url, 'c')).toBe('200')
    expect(await states(url)).toEqual(['a READY', 'b UNAVAILABLE', 'c READY'])
    expect(control.memory().models.map((m) => [m.name, m.pinned])).toEqual([
      ['a', true],
      ['c', false],
    ])
  })

  it('fails the load of a model that alone passes the budget with ERR_MODEL_OVER_BUDGET naming the sizes, and starts nothing for it again', async () => {
    const sizes = await modelSizes()
    const budget = processTreePss() + Math.floor(sizes.next / 3)
    const { url } = await start(repository(['a']), budget)
    const res = await post(`${url}/v2/models/a/infer`, inferBody)
    const error = res.json as { code: string; error: string }
    expect([res.status, error.code]).toEqual([507, 'ERR_MODEL_OVER_BUDGET'])
    expect(error.error).toMatch(
      /^Model 'a': needs \d+\.\d MiB \(measured across its load\) and the server holds \d+\.\d MiB without models: /,
    )
    expect(error.error).toContain(`passes the memory budget of ${(budget / 1024 / 1024).toFixed(1)} MiB`)
    await until(() => childrenOf(process.pid).length === 0)
    // Remembered: the next request gets the same answer without a load.
    expect(await infer(url, 'a')).toBe('507 ERR_MODEL_OVER_BUDGET')
    expect(childrenOf(process.pid)).toEqual([])
    expect(await states(url)).toEqual(['a UNAVAILABLE'])
  })
})
