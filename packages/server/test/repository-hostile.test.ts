/**
 * The model repository under hostile but authorized input (issue 34): model names and
 * upload paths that try to leave the upload directory or break the file system, large
 * and many-file uploads, slow and oversized bodies, a repository that vanishes for a
 * scan, symbolic links, configs out of range, loads that never end, unloads of names
 * the repository does not have, and the index in control mode `none`. Real servers on
 * 127.0.0.1 (HTTP and gRPC), real files in temporary directories removed afterwards.
 */
import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import * as grpc from '@grpc/grpc-js'
import { createPool } from '@inferpool/host'
import {
  MAX_UPLOAD_FILES,
  ModelRepository,
  readModel,
  readRepositories,
  repositoryPoolOptions,
  serve,
  UnsupportedModelConfigError,
} from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { grpcClient } from './grpc-helpers.js'
import type { TestClient } from './grpc-helpers.js'
import { demoModel, http, metric, post, repoModel } from './server-helpers.js'
import { startServe, stopAll } from './serve-process.js'

const quiet = { error() {}, info() {}, warn() {} }
const model = repoModel('fixed-batch.onnx')
const poison = repoModel('poison.onnx')

const roots: string[] = []
const servers: InferpoolServer[] = []
const clients: TestClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  await Promise.all(servers.splice(0).map((s) => s.close()))
  await stopAll()
})
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  roots.push(dir)
  return dir
}

/** A repository under `parent` with models by name: config text and version 1's model file. */
function repository(parent: string, models: Record<string, { config?: string; file?: string }> = { m: {} }): string {
  const root = join(parent, 'repo')
  for (const [name, { config = 'max_batch_size: 1', file = model }] of Object.entries(models)) {
    mkdirSync(join(root, name, '1'), { recursive: true })
    writeFileSync(join(root, name, 'config.pbtxt'), config)
    copyFileSync(file, join(root, name, '1', 'model.onnx'))
  }
  return root
}

interface Started {
  url: string
  client: TestClient
  server: InferpoolServer
  control: ModelRepository
  warnings: string[]
}

async function start(
  root: string,
  options: { mode?: 'explicit' | 'poll' | 'none'; uploadDirectory?: string; maxWarmupBytes?: number } = {},
  serverOptions: { maxPendingBodyBytes?: number; bodyTimeoutMs?: number; pools?: Record<string, Pool> } = {},
  createPoolHook: (pool: Pool) => void = () => {},
): Promise<Started> {
  const warnings: string[] = []
  const control = new ModelRepository({
    repositories: [root],
    createPool: async (m, file) => {
      const pool = await createPool({ ...repositoryPoolOptions(m, file, { replicas: 1 }), logger: quiet })
      createPoolHook(pool)
      return pool
    },
    logger: { warn: (line) => warnings.push(line), info() {} },
    allowModelUpload: options.uploadDirectory !== undefined,
    uploadDirectory: options.uploadDirectory,
    maxWarmupBytes: options.maxWarmupBytes,
    mode: options.mode,
  })
  const { pools = {}, ...rest } = serverOptions
  const server = await serve(pools, { port: 0, grpcPort: 0, logger: quiet, modelControl: control, ...rest })
  servers.push(server)
  control.serveInto(server.handler.served)
  const client = grpcClient(server.grpcAddress as string)
  clients.push(client)
  return { url: server.url as string, client, server, control, warnings }
}

function manage(url: string, path: string, body: unknown = {}): ReturnType<typeof post> {
  return post(`${url}/v2/repository/${path}`, body)
}

const answer = (res: { status: number; json: unknown }): [number, string] => [res.status, (res.json as { code: string }).code]

const inferM = (url: string): ReturnType<typeof post> =>
  post(`${url}/v2/models/m/infer`, { inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: [1, 2, 3, 4, 5, 6, 7, 8] }] })

describe('model uploads under hostile names and paths', () => {
  it('refuses a model name that leaves the upload directory (HTTP %2F and %2E%2E, gRPC ../) before writing anything', async () => {
    const parent = tempDir('inferpool-hostile-')
    const root = repository(parent, { victim: {} })
    const victim = join(root, 'victim', '1', 'model.onnx')
    const before = readFileSync(victim)
    // The upload directory is the repository's parent: `../repo/victim` would land on the served model.
    const { url, client } = await start(root, { uploadDirectory: parent })
    const upload = { parameters: { config: '{}', 'file:1/model.onnx': Buffer.from('attacker').toString('base64') } }
    const http1 = await manage(url, 'models/..%2Frepo%2Fvictim/load', upload)
    const http2 = await manage(url, 'models/%2E%2E%2Frepo%2Fvictim/load', upload)
    const viaGrpc = await client.call('RepositoryModelLoad', {
      model_name: '../repo/victim',
      parameters: { config: { string_param: '{}' }, 'file:1/model.onnx': { bytes_param: Buffer.from('attacker') } },
    })
    expect([answer(http1), answer(http2)]).toEqual([
      [400, 'ERR_MODEL_REPOSITORY_LAYOUT'],
      [400, 'ERR_MODEL_REPOSITORY_LAYOUT'],
    ])
    expect(viaGrpc.ok === false && viaGrpc.code).toBe(grpc.status.INVALID_ARGUMENT)
    expect(readFileSync(victim).equals(before)).toBe(true)
    expect(readdirSync(parent)).toEqual(['repo'])
  })

  it('answers 400 to bad upload paths and names (too long, NUL, absolute, dot-dot, 2,000 levels deep) and leaves no directory behind', async () => {
    const parent = tempDir('inferpool-hostile-')
    const uploads = tempDir('inferpool-uploads-')
    const { url } = await start(repository(parent), { uploadDirectory: uploads })
    const content = Buffer.from('x').toString('base64')
    const load = (name: string, path: string): ReturnType<typeof post> =>
      manage(url, `models/${name}/load`, { parameters: { config: '{}', [`file:${path}`]: content } })
    const results = await Promise.all([
      load('up', `1/${'a'.repeat(300)}`),
      load('up', '1/a\u0000b'),
      load('up', '1//etc/passwd'),
      load('up', '1/../../escape'),
      load('up', `1/${'d/'.repeat(2000)}model.onnx`),
      load('a'.repeat(300), '1/model.onnx'),
    ])
    expect(results.map(answer)).toEqual([
      [400, 'ERR_MODEL_UPLOAD'],
      [400, 'ERR_MODEL_UPLOAD'],
      [400, 'ERR_MODEL_UPLOAD'],
      [400, 'ERR_MODEL_UPLOAD'],
      [400, 'ERR_MODEL_UPLOAD'],
      [400, 'ERR_MODEL_REPOSITORY_LAYOUT'],
    ])
    // The echo of a 2,000-level path is bounded.
    expect((results[4].json as { error: string }).error.length).toBeLessThan(1000)
    expect(readdirSync(uploads)).toEqual([])
  })

  it('takes an upload of several MB over HTTP (base64 checked without a regular expression)', async () => {
    const parent = tempDir('inferpool-hostile-')
    const uploads = tempDir('inferpool-uploads-')
    const { url } = await start(repository(parent), { uploadDirectory: uploads })
    const padding = Buffer.alloc(5 * 1024 * 1024, 7)
    const res = await manage(url, 'models/big/load', {
      parameters: {
        config: '{"max_batch_size": 1}',
        'file:1/model.onnx': readFileSync(model).toString('base64'),
        'file:1/padding.bin': padding.toString('base64'),
      },
    })
    expect(res.status).toBe(200)
    const [dir] = readdirSync(uploads)
    expect(readFileSync(join(uploads, dir, 'big', '1', 'padding.bin')).equals(padding)).toBe(true)
  })

  it('answers 400 to an upload whose path is both a file and the directory of another, over HTTP and gRPC, leaving no directory behind', async () => {
    const parent = tempDir('inferpool-hostile-')
    const uploads = tempDir('inferpool-uploads-')
    const { url, client } = await start(repository(parent), { uploadDirectory: uploads })
    const onnx = readFileSync(model).toString('base64')
    // Both orders: the file written first (then mkdir fails), the directory first (then the write fails).
    const [fileFirst, dirFirst] = await Promise.all([
      manage(url, 'models/up/load', { parameters: { config: '{}', 'file:1/model.onnx': onnx, 'file:1/a': 'AA==', 'file:1/a/b': 'AA==' } }),
      manage(url, 'models/up2/load', { parameters: { config: '{}', 'file:1/model.onnx': onnx, 'file:1/a/b': 'AA==', 'file:1/a': 'AA==' } }),
    ])
    const refusal = (name: string): unknown => ({
      code: 'ERR_MODEL_UPLOAD',
      error: `Model '${name}': parameter 'file:1/a' is a file, and also the directory of another file`,
    })
    expect([fileFirst.status, fileFirst.json, dirFirst.status, dirFirst.json]).toEqual([400, refusal('up'), 400, refusal('up2')])
    const viaGrpc = await client.call('RepositoryModelLoad', {
      model_name: 'up3',
      parameters: {
        config: { string_param: '{}' },
        'file:1/model.onnx': { bytes_param: readFileSync(model) },
        'file:1/a': { bytes_param: Buffer.from([0]) },
        'file:1/a/b/c': { bytes_param: Buffer.from([0]) },
      },
    })
    expect(viaGrpc.ok === false && [viaGrpc.code, viaGrpc.metadata['inferpool-code']]).toEqual([
      grpc.status.INVALID_ARGUMENT,
      'ERR_MODEL_UPLOAD',
    ])
    expect(readdirSync(uploads)).toEqual([])
  })

  it("answers a failed upload's load without the server's temporary path: its layout error and the runtime's", async () => {
    const parent = tempDir('inferpool-hostile-')
    const uploads = tempDir('inferpool-uploads-')
    const { url } = await start(repository(parent), { uploadDirectory: uploads })
    const [noModel, notOnnx] = await Promise.all([
      manage(url, 'models/up/load', { parameters: { config: '{}', 'file:1/other.bin': 'AA==' } }),
      manage(url, 'models/up2/load', { parameters: { config: '{}', 'file:1/model.onnx': 'AAAA' } }),
    ])
    expect([noModel.status, noModel.json]).toEqual([
      400,
      { code: 'ERR_MODEL_REPOSITORY_LAYOUT', error: '<upload>/up/1/model.onnx: no model file in this version directory' },
    ])
    expect([notOnnx.status, (notOnnx.json as { code: string }).code]).toEqual([503, 'ERR_MODEL_LOAD'])
    expect((notOnnx.json as { error: string }).error).toMatch(/^Failed to load model <upload>\/up2\/1\/model\.onnx: /)
    expect(`${noModel.text}${notOnnx.text}`).not.toContain(uploads)
    expect(readdirSync(uploads)).toEqual([])
  })

  it(`refuses an upload of more than ${MAX_UPLOAD_FILES} files with a typed 400, over HTTP and gRPC, writing none`, async () => {
    const parent = tempDir('inferpool-hostile-')
    const uploads = tempDir('inferpool-uploads-')
    const { url, client } = await start(repository(parent), { uploadDirectory: uploads })
    const parameters: Record<string, string> = { config: '{}', 'file:1/model.onnx': readFileSync(model).toString('base64') }
    const grpcParameters: Record<string, { string_param?: string; bytes_param?: Buffer }> = { config: { string_param: '{}' } }
    for (let i = 0; i < MAX_UPLOAD_FILES; i++) {
      parameters[`file:1/f${i}`] = 'AA=='
      grpcParameters[`file:1/f${i}`] = { bytes_param: Buffer.from([0]) }
    }
    const res = await manage(url, 'models/many/load', { parameters })
    expect([res.status, res.json]).toEqual([
      400,
      {
        code: 'ERR_MODEL_UPLOAD',
        error: `Model 'many': parameter 'file:*' carries ${MAX_UPLOAD_FILES + 1} files; a load request takes at most ${MAX_UPLOAD_FILES}`,
      },
    ])
    grpcParameters['file:1/model.onnx'] = { bytes_param: readFileSync(model) }
    const viaGrpc = await client.call('RepositoryModelLoad', { model_name: 'many', parameters: grpcParameters })
    expect(viaGrpc.ok === false && viaGrpc.code).toBe(grpc.status.INVALID_ARGUMENT)
    expect(readdirSync(uploads)).toEqual([])
  })

  it('sweeps, as it starts, the upload directories of servers that are gone, and keeps those of live ones', async () => {
    const uploads = tempDir('inferpool-uploads-')
    const namespace = readlinkSync('/proc/self/ns/pid')
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number
    const leftover = (pid: number): string => {
      const dir = join(uploads, `inferpool-upload-${pid}-abc${pid}`)
      mkdirSync(join(dir, 'm', '1'), { recursive: true })
      writeFileSync(join(dir, 'm', '1', 'model.onnx'), 'x')
      writeFileSync(join(dir, '.owner'), `${namespace} ${pid}`)
      return dir
    }
    leftover(dead)
    const live = leftover(process.ppid)
    const control = new ModelRepository({
      repositories: [tempDir('inferpool-repo-')],
      createPool: () => Promise.reject(new Error('not called')),
      logger: quiet,
      allowModelUpload: true,
      uploadDirectory: uploads,
    })
    await control.close()
    expect(readdirSync(uploads).map((name) => join(uploads, name))).toEqual([live])
  })
})

describe('repository bodies', () => {
  it('take their bytes from the pending-bytes budget', async () => {
    const parent = tempDir('inferpool-hostile-')
    const { url } = await start(repository(parent), {}, { maxPendingBodyBytes: 1024 })
    const res = await manage(url, 'index', { ready: false, padding: 'x'.repeat(4096) })
    expect(answer(res)).toEqual([413, 'ERR_PAYLOAD_TOO_LARGE'])
  })

  it('get 408 when they stall past the body timeout', async () => {
    const parent = tempDir('inferpool-hostile-')
    const { url } = await start(repository(parent), {}, { bodyTimeoutMs: 50 })
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${url}/v2/repository/index`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '100' },
        agent: false,
      })
      req.on('response', (res) => {
        res.resume()
        resolve(res.statusCode)
      })
      req.on('error', reject)
      // Headers and the first byte only: the body stalls.
      req.write('{')
    })
    expect(status).toBe(408)
  })
})

describe('poll mode', () => {
  it('logs a scan that finds no repository, keeps the models serving, and scans again once it is back', async () => {
    const parent = tempDir('inferpool-hostile-')
    const root = repository(parent)
    const { url, control, warnings } = await start(root, { mode: 'poll' })
    await control.poll()
    expect((await inferM(url)).status).toBe(200)
    renameSync(root, `${root}.x`)
    await expect(control.poll()).resolves.toBeUndefined()
    expect(warnings.filter((line) => line.startsWith('repository scan failed'))).toHaveLength(1)
    expect((await inferM(url)).status).toBe(200)
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', version: '1', state: 'READY', reason: '' }])
    renameSync(`${root}.x`, root)
    await control.poll()
    expect((await inferM(url)).status).toBe(200)
    // Back as it was: not reloaded.
    const text = (await http(`${url}/metrics`)).text
    expect(metric(text, 'inferpool_model_load_seconds_count', { model: 'm', outcome: 'ok' })).toBe(1)
  })
})

describe('symbolic links in a repository', () => {
  it('follows model and version links that stay inside the repository, and refuses one that leaves it with a log line', () => {
    const parent = tempDir('inferpool-hostile-')
    const root = repository(parent, { m: { config: 'version_policy: { all: {} }\nmax_batch_size: 1' } })
    // Version 2 is a link to a release kept in a hidden directory of the repository (a link swap rolls it out).
    mkdirSync(join(root, '.releases', 'm-2'), { recursive: true })
    copyFileSync(model, join(root, '.releases', 'm-2', 'model.onnx'))
    symlinkSync(join(root, '.releases', 'm-2'), join(root, 'm', '2'))
    // A whole model as a relative link.
    symlinkSync('m', join(root, 'linked'))
    // A model outside the repository.
    const outside = tempDir('inferpool-outside-')
    mkdirSync(join(outside, 'o', '1'), { recursive: true })
    copyFileSync(model, join(outside, 'o', '1', 'model.onnx'))
    symlinkSync(join(outside, 'o'), join(root, 'out'))

    expect(readModel(root, 'm').versions.map((v) => v.version)).toEqual(['2', '1'])
    const warnings: string[] = []
    const models = readRepositories([root], { warn: (line) => warnings.push(line) })
    expect(models.map((m) => [m.name, m.versions.map((v) => v.version)])).toEqual([
      ['linked', ['2', '1']],
      ['m', ['2', '1']],
    ])
    expect(warnings).toEqual([
      `links not followed (a link must resolve to a directory inside the repository): ${join(root, 'out')}: a link out of the repository (to ${join(outside, 'o')})`,
    ])
    expect(() => readModel(root, 'out')).toThrow(`${join(root, 'out')}: is a link out of the repository (to ${join(outside, 'o')})`)
  })

  it('logs a refused link at the scan that first meets it, not again at every poll, and again once it changes', async () => {
    const parent = tempDir('inferpool-hostile-')
    const root = repository(parent)
    const outside = tempDir('inferpool-outside-')
    mkdirSync(join(outside, 'o', '1'), { recursive: true })
    copyFileSync(model, join(outside, 'o', '1', 'model.onnx'))
    symlinkSync(join(outside, 'o'), join(root, 'out'))
    const { control, warnings } = await start(root, { mode: 'poll' })
    const refusedLines = (): string[] => warnings.filter((line) => line.startsWith('links not followed'))
    await control.poll()
    await control.poll()
    await control.poll()
    expect(refusedLines()).toEqual([
      `links not followed (a link must resolve to a directory inside the repository): ${join(root, 'out')}: a link out of the repository (to ${join(outside, 'o')})`,
    ])
    symlinkSync(join(outside, 'o'), join(root, 'out2'))
    await control.poll()
    await control.poll()
    expect(refusedLines()).toHaveLength(2)
    expect(refusedLines()[1]).toContain(join(root, 'out2'))
  })
})

describe('config values out of range', () => {
  it('refuses max_batch_size below 0, naming the field and the value', () => {
    const parent = tempDir('inferpool-hostile-')
    const root = repository(parent, { m: { config: 'max_batch_size: -5' } })
    let error: unknown
    try {
      readModel(root, 'm')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(UnsupportedModelConfigError)
    expect((error as Error).message).toBe("Model 'm': `max_batch_size` must be an integer >= 0, got -5")
  })

  it.each([
    ['max_queue_delay_microseconds: 99999999999999', 'dynamic_batching.max_queue_delay_microseconds'],
    [
      'default_queue_policy { default_timeout_microseconds: 99999999999999 }',
      'dynamic_batching.default_queue_policy.default_timeout_microseconds',
    ],
  ])(
    'refuses a queue delay or timeout past what a timer takes (%s), naming the field, and a load of it answers 400 at once',
    async (field, name) => {
      const parent = tempDir('inferpool-hostile-')
      const config = `max_batch_size: 8 dynamic_batching { preferred_batch_size: [ 8 ] ${field} }`
      const root = repository(parent, { m: { config } })
      const message = `Model 'm': \`${name}\` must be a number of microseconds in [0, 2147483647000], got 99999999999999`
      expect(() => readModel(root, 'm')).toThrow(
        new UnsupportedModelConfigError('m', name, 'must be a number of microseconds in [0, 2147483647000], got 99999999999999'),
      )
      const { url } = await start(root, { mode: 'explicit' })
      // Before: the timeout gave every request a 500; the delay held the load's one-row warm-up for 3 years.
      const load = await manage(url, 'models/m/load')
      expect([load.status, load.json]).toEqual([400, { code: 'ERR_MODEL_CONFIG_UNSUPPORTED', error: message }])
    },
  )

  it("refuses a warm-up sample with more rows than the model's max batch size, or more bytes than the limit, before building it", async () => {
    const parent = tempDir('inferpool-hostile-')
    const warmup = (batch: number): string =>
      `model_warmup [{ name: "w" batch_size: ${batch} inputs { key: "x" value: { data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } } }]`
    const root = repository(parent, {
      // No max_batch_size: the model's own (poison.onnx batches; the pool's default bounds it).
      rows: { config: warmup(1000), file: poison },
      bytes: { config: `max_batch_size: 8\n${warmup(8)}`, file: poison },
    })
    const { url } = await start(root, { maxWarmupBytes: 100 })
    const rows = await manage(url, 'models/rows/load')
    expect(answer(rows)).toEqual([400, 'ERR_MODEL_CONFIG_UNSUPPORTED'])
    expect((rows.json as { error: string }).error).toMatch(
      /^Model 'rows': `model_warmup\[0\]\.batch_size` must be <= the model's max batch size \d+, got 1000$/,
    )
    const bytes = await manage(url, 'models/bytes/load')
    expect([bytes.status, (bytes.json as { error: string }).error]).toEqual([
      400,
      "Model 'bytes': `model_warmup[0]` takes 128 bytes (8 rows of 16); a warm-up request may take at most 100 (the server's body limit)",
    ])
  })
})

describe('loads that do not end', () => {
  /** A model whose warm-up runs (practically) forever: one row, a billion times. */
  const endless = `max_batch_size: 1\nmodel_warmup [{ name: "w" batch_size: 1 count: 1000000000 inputs { key: "x" value: { data_type: TYPE_FP32 dims: [ 8 ] zero_data: true } } }]`

  it('are aborted by an unload of the model: the load answers ERR_MODEL_LOAD_ABORTED, its pools are destroyed', async () => {
    const parent = tempDir('inferpool-hostile-')
    const pools: Pool[] = []
    const { url } = await start(repository(parent, { m: { config: endless } }), {}, {}, (pool) => pools.push(pool))
    const loading = manage(url, 'models/m/load')
    while (pools.length === 0) await new Promise((resolve) => setImmediate(resolve))
    const unload = await manage(url, 'models/m/unload')
    expect(unload.status).toBe(200)
    expect(answer(await loading)).toEqual([409, 'ERR_MODEL_LOAD_ABORTED'])
    expect(pools[0].closed).toBe(true)
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', state: 'UNAVAILABLE', reason: 'unloaded' }])
  })

  it('with preferred batch sizes and an hour of max_queue_delay, are not held by their default warm-up (it sends a whole batch)', async () => {
    const parent = tempDir('inferpool-hostile-')
    const config = 'max_batch_size: 8 dynamic_batching { preferred_batch_size: [ 8 ] max_queue_delay_microseconds: 3600000000 }'
    const root = repository(parent, { m: { config, file: demoModel } })
    const { url } = await start(root, { mode: 'explicit' })
    // Before: the warm-up's one row waited the hour for seven more; the load never answered.
    expect((await manage(url, 'models/m/load')).status).toBe(200)
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', version: '1', state: 'READY', reason: '' }])
  })

  it("are aborted by the server's shutdown, which then ends", async () => {
    const parent = tempDir('inferpool-hostile-')
    const pools: Pool[] = []
    const { url, server } = await start(repository(parent, { m: { config: endless } }), {}, {}, (pool) => pools.push(pool))
    const loading = manage(url, 'models/m/load')
    while (pools.length === 0) await new Promise((resolve) => setImmediate(resolve))
    await server.close()
    expect(answer(await loading)).toEqual([409, 'ERR_MODEL_LOAD_ABORTED'])
    expect(pools[0].closed).toBe(true)
  })
})

describe('unload', () => {
  it('answer not ready for an unknown or unloaded model and version: HTTP 400 and gRPC ready false, as Triton', async () => {
    const parent = tempDir('inferpool-hostile-')
    const { url, client } = await start(repository(parent, { m: {}, n: {} }), { mode: 'explicit' })
    await manage(url, 'models/m/load')
    await manage(url, 'models/n/load')
    expect((await manage(url, 'models/n/unload')).status).toBe(200)
    const readiness = async (name: string, version = ''): Promise<unknown> => {
      const encoded = encodeURIComponent(name)
      const path = version === '' ? `${encoded}/ready` : `${encoded}/versions/${version}/ready`
      const res = await http(`${url}/v2/models/${path}`)
      const viaGrpc = await client.call('ModelReady', { name, version })
      return [res.status, res.json, viaGrpc.ok ? viaGrpc.response.ready : viaGrpc]
    }
    const long = 'x'.repeat(5000)
    expect([
      await readiness('m'),
      await readiness('m', '1'),
      await readiness('m', '9'),
      await readiness('n'),
      await readiness('nope'),
      await readiness('../m'),
      await readiness(long),
    ]).toEqual([
      [200, { name: 'm', ready: true }, true],
      [200, { name: 'm', ready: true }, true],
      [400, { name: 'm', ready: false }, false],
      [400, { name: 'n', ready: false }, false],
      [400, { name: 'nope', ready: false }, false],
      [400, { name: '../m', ready: false }, false],
      // The echo of a long name is bounded.
      [400, { name: `${'x'.repeat(256)}… (5000 characters)`, ready: false }, false],
    ])
  })

  it('answers 404 (NOT_FOUND over gRPC) to a name the repository does not have, keeping nothing of it', async () => {
    const parent = tempDir('inferpool-hostile-')
    const { url, client } = await start(repository(parent))
    const res = await manage(url, 'models/nope/unload')
    expect([res.status, res.json]).toEqual([404, { code: 'ERR_MODEL_NOT_FOUND', error: "Unknown model 'nope'" }])
    const long = 'n'.repeat(100_000)
    const viaGrpc = await client.call('RepositoryModelUnload', { model_name: long })
    expect(viaGrpc.ok === false && viaGrpc.code).toBe(grpc.status.NOT_FOUND)
    expect(viaGrpc.ok === false && viaGrpc.details.length).toBeLessThan(1000)
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', state: 'UNAVAILABLE', reason: 'not loaded' }])
    const metrics = (await http(`${url}/metrics`)).text
    expect([metrics.includes('nope'), metrics.includes('nnnnnnnn')]).toEqual([false, false])
  })

  it('refuses to load or unload a model the server was given (--model), which serves on', async () => {
    const parent = tempDir('inferpool-hostile-')
    const given = await createPool({ model, replicas: 1, logger: quiet })
    const { url, client } = await start(repository(parent, { other: {} }), {}, { pools: { m: given } })
    const [unload, load] = await Promise.all([manage(url, 'models/m/unload'), manage(url, 'models/m/load')])
    expect([unload.status, unload.json]).toEqual([
      409,
      {
        code: 'ERR_MODEL_NOT_IN_REPOSITORY',
        error:
          "Model 'm': unload refused; it was given to the server (--model), not by the model repository, and serves until the server stops",
      },
    ])
    expect(answer(load)).toEqual([409, 'ERR_MODEL_NOT_IN_REPOSITORY'])
    const viaGrpc = await client.call('RepositoryModelUnload', { model_name: 'm' })
    expect(viaGrpc.ok === false && viaGrpc.code).toBe(grpc.status.FAILED_PRECONDITION)
    expect((await inferM(url)).status).toBe(200)
    expect(given.closed).toBe(false)
    await given.close()
  })
})

describe('control mode none', () => {
  it('serves the index from the models loaded at start over HTTP and gRPC, and refuses load and unload as Triton does', async () => {
    const parent = tempDir('inferpool-hostile-')
    const root = repository(parent)
    const [m] = readRepositories([root], quiet)
    const pool = await createPool({ ...repositoryPoolOptions(m, m.versions[0].file, { replicas: 1 }), logger: quiet })
    const { url, client } = await start(root, { mode: 'none' }, { pools: { m: pool } })
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', version: '1', state: 'READY', reason: '' }])
    expect(await client.call('RepositoryIndex', {})).toEqual({
      ok: true,
      response: { models: [{ name: 'm', version: '1', state: 'READY', reason: '' }] },
    })
    const [load, unload] = await Promise.all([manage(url, 'models/m/load'), manage(url, 'models/m/unload')])
    expect([answer(load), answer(unload)]).toEqual([
      [503, 'ERR_MODEL_CONTROL_POLLING'],
      [503, 'ERR_MODEL_CONTROL_POLLING'],
    ])
    expect((load.json as { error: string }).error).toMatch(/^explicit model load \/ unload is not allowed if polling is enabled: /)
    expect((await inferM(url)).status).toBe(200)
    await pool.close()
  })

  it('inferpool serve --model-repository (mode none) answers the repository index', async () => {
    const parent = tempDir('inferpool-hostile-')
    const server = await startServe(['--port', '0', '--replicas', '1', '--model-repository', repository(parent)], {
      TMPDIR: tempDir('inferpool-tmp-'),
    })
    const res = await post(`${server.url}/v2/repository/index`, {})
    expect([res.status, res.json]).toEqual([200, [{ name: 'm', version: '1', state: 'READY', reason: '' }]])
    expect(existsSync(parent)).toBe(true)
  })
})
