/**
 * Loading, reloading and unloading repository models while a real server runs
 * (src/repository/manager.ts through the model repository extension's HTTP routes):
 * a reload under HTTP and gRPC load loses no request and every answer comes from the old
 * or the new version; a load that fails leaves the old version serving; an unload lets
 * the requests in flight finish; the calls take their own token. The two versions are
 * two different models with the same input and output (fixed-batch and
 * hardcoded-batch1: `x` [1, 8] → `y` [1, 4]), told apart by their answers.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { ModelRepository, repositoryPoolOptions, serve } from '@inferpool/server'
import { exposeGc } from '@inferpool/worker'
import type { InferpoolServer } from '@inferpool/server'
import * as grpc from '@grpc/grpc-js'
import { float32s, grpcClient, rawBytes } from './grpc-helpers.js'
import type { TestClient } from './grpc-helpers.js'
import { childrenOf, transferFiles } from '../../host/test/process-helpers.js'
import { http, metric, post, repoModel, until } from './server-helpers.js'

const quiet = { error() {}, info() {}, warn() {} }
const oldModel = repoModel('fixed-batch.onnx')
const newModel = repoModel('hardcoded-batch1.onnx')
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

/** A repository with model `m`: its config and version 1 (`oldModel`). */
function repository(config = 'max_batch_size: 1'): string {
  const root = mkdtempSync(join(tmpdir(), 'inferpool-control-'))
  roots.push(root)
  mkdirSync(join(root, 'm', '1'), { recursive: true })
  writeFileSync(join(root, 'm', 'config.pbtxt'), config)
  copyFileSync(oldModel, join(root, 'm', '1', 'model.onnx'))
  return root
}

function addVersion(root: string, version: string, file: string | Buffer): void {
  mkdirSync(join(root, 'm', version))
  if (typeof file === 'string') copyFileSync(file, join(root, 'm', version, 'model.onnx'))
  else writeFileSync(join(root, 'm', version, 'model.onnx'), file)
}

async function start(
  root: string,
  options: { repositoryToken?: string; apiKey?: string } = {},
  upload: { allowModelUpload?: boolean; uploadDirectory?: string; mode?: 'explicit' | 'poll' } = {},
  isolation: 'thread' | 'process' = 'thread',
): Promise<{ url: string; client: TestClient; server: InferpoolServer; control: ModelRepository; token: string | undefined }> {
  const control = new ModelRepository({
    repositories: [root],
    createPool: (model, file) => createPool({ ...repositoryPoolOptions(model, file, { replicas: 1, isolation }), logger: quiet }),
    logger: quiet,
    ...upload,
  })
  const server = await serve({}, { port: 0, grpcPort: 0, logger: quiet, modelControl: control, ...options })
  servers.push(server)
  control.serveInto(server.handler.served)
  const client = grpcClient(server.grpcAddress as string)
  clients.push(client)
  return { url: server.url as string, client, server, control, token: options.repositoryToken }
}

function manage(url: string, path: string, body: unknown = {}, token?: string): ReturnType<typeof post> {
  return post(`${url}/v2/repository/${path}`, body, token === undefined ? {} : { authorization: `Bearer ${token}` })
}

/** The answer of each model to `input`, computed by a pool of its own. */
async function reference(file: string): Promise<number[]> {
  const pool = await createPool({ model: file, replicas: 1, logger: quiet })
  try {
    const out = await pool.infer({ x: Float32Array.from(input) })
    return Array.from(out.y.data as Float32Array)
  } finally {
    await pool.close()
  }
}

const httpInfer = (url: string): ReturnType<typeof post> =>
  post(`${url}/v2/models/m/infer`, { inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: input }] })

const grpcInfer = (client: TestClient): ReturnType<TestClient['call']> =>
  client.call('ModelInfer', {
    model_name: 'm',
    inputs: [{ name: 'x', datatype: 'FP32', shape: [1, 8] }],
    raw_input_contents: [rawBytes(Float32Array.from(input))],
  })

/** An answer as `version: y`, or the failure. */
async function answerOf(protocol: 'http' | 'grpc', url: string, client: TestClient): Promise<string> {
  if (protocol === 'http') {
    const res = await httpInfer(url)
    const json = res.json as { model_version: string; outputs: Array<{ data: number[] }>; error?: string }
    return res.status === 200
      ? `${json.model_version}: ${json.outputs[0].data.map((v) => Math.fround(v)).join(',')}`
      : `${res.status} ${json.error}`
  }
  const res = await grpcInfer(client)
  return res.ok ? `${res.response.model_version}: ${float32s(res.response.raw_output_contents[0]).join(',')}` : `${res.code} ${res.details}`
}

describe('model repository control', () => {
  it('reloads a model under HTTP and gRPC load without losing a request: every answer from the old or the new version', async () => {
    const [oldY, newY] = await Promise.all([reference(oldModel), reference(newModel)])
    expect(oldY).not.toEqual(newY)
    const root = repository()
    const { url, client } = await start(root)
    expect((await manage(url, 'models/m/load')).status).toBe(200)
    addVersion(root, '2', newModel)

    let loaded = false
    const during: string[] = []
    const after: string[] = []
    const caller = async (protocol: 'http' | 'grpc'): Promise<void> => {
      // Until the reload has answered; then three more, which must all meet the new version.
      while (!loaded) during.push(await answerOf(protocol, url, client))
      for (let i = 0; i < 3; i++) after.push(await answerOf(protocol, url, client))
    }
    const callers = [...Array.from({ length: 6 }, () => caller('http')), ...Array.from({ length: 6 }, () => caller('grpc'))]
    await until(() => during.length >= 12)
    const reload = await manage(url, 'models/m/load')
    loaded = true
    await Promise.all(callers)

    expect([reload.status, reload.json]).toEqual([200, {}])
    const oldAnswer = `1: ${oldY.join(',')}`
    const newAnswer = `2: ${newY.join(',')}`
    expect(during.filter((a) => a !== oldAnswer && a !== newAnswer)).toEqual([])
    expect(during).toContain(oldAnswer)
    expect(after).toEqual(Array.from({ length: 36 }, () => newAnswer))
    const index = await manage(url, 'index')
    expect(index.json).toEqual([{ name: 'm', version: '2', state: 'READY', reason: '' }])
  })

  it('answers a request whose body is still arriving during a reload from the version it reached', async () => {
    const [oldY, newY] = await Promise.all([reference(oldModel), reference(newModel)])
    const root = repository()
    const { url, server } = await start(root)
    await manage(url, 'models/m/load')
    addVersion(root, '2', newModel)
    const body = Buffer.from(JSON.stringify({ inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: input }] }))
    const req = request(`${url}/v2/models/m/infer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    })
    const answered = new Promise<{ status: number; json: { model_version: string; outputs: Array<{ data: number[] }> } }>(
      (resolve, reject) => {
        req.once('response', (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.once('end', () => resolve({ status: res.statusCode as number, json: JSON.parse(Buffer.concat(chunks).toString()) }))
        })
        req.once('error', reject)
      },
    )
    req.write(body.subarray(0, 10))
    // The request has reached version 1 (its headers are routed) before the reload starts.
    await until(() => server.handler.activeRequests >= 1)
    const reload = manage(url, 'models/m/load')
    // New requests meet version 2 from the moment the index lists it.
    for (;;) {
      const index = (await manage(url, 'index')).json as Array<{ version?: string }>
      if (index.some((entry) => entry.version === '2')) break
    }
    expect(await answerOf('http', url, clients[0])).toBe(`2: ${newY.join(',')}`)
    req.end(body.subarray(10))
    const answer = await answered
    expect([answer.status, answer.json.model_version, answer.json.outputs[0].data.map((v) => Math.fround(v))]).toEqual([200, '1', oldY])
    expect((await reload).status).toBe(200)
  })

  it('keeps the old version serving when a load fails, and answers with the reason', async () => {
    const root = repository()
    const { url, client } = await start(root)
    await manage(url, 'models/m/load')
    addVersion(root, '2', Buffer.from('not an onnx model'))
    const failed = await manage(url, 'models/m/load')
    expect([failed.status, (failed.json as { code: string }).code]).toEqual([503, 'ERR_MODEL_LOAD'])
    const oldY = await reference(oldModel)
    expect([await answerOf('http', url, client), await answerOf('grpc', url, client)]).toEqual([
      `1: ${oldY.join(',')}`,
      `1: ${oldY.join(',')}`,
    ])
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', version: '1', state: 'READY', reason: '' }])
    const text = (await http(`${url}/metrics`)).text
    expect([
      metric(text, 'inferpool_model_load_seconds_count', { model: 'm', outcome: 'ok' }),
      metric(text, 'inferpool_model_load_seconds_count', { model: 'm', outcome: 'failed' }),
      metric(text, 'inferpool_model_state', { model: 'm', version: '1', state: 'ready' }),
    ]).toEqual([1, 1, 1])
  })

  it('warms a new version with its model_warmup samples before it serves, and keeps the old version when a sample cannot be built', async () => {
    const [oldY, newY] = await Promise.all([reference(oldModel), reference(newModel)])
    const sample = (data: string): string =>
      `model_warmup [ { batch_size: 4 count: 3 inputs { key: "x" value: { data_type: TYPE_FP32 dims: [ 8 ] ${data} } } } ]`
    const root = repository(sample('zero_data: true'))
    const { url, client } = await start(root)
    expect((await manage(url, 'models/m/load')).status).toBe(200)
    // batch_size rows, count times, through the new version's pool before any request.
    expect(metric((await http(`${url}/metrics`)).text, 'inferpool_rows_submitted_total', { model: 'm' })).toBe(12)

    writeFileSync(join(root, 'm', 'config.pbtxt'), sample('input_data_file: "x.bin"'))
    addVersion(root, '2', newModel)
    const failed = await manage(url, 'models/m/load')
    expect([failed.status, (failed.json as { error: string }).error]).toEqual([
      400,
      `Model 'm': \`model_warmup[0].inputs["x"].input_data_file\` names ${join(root, 'm', 'warmup', 'x.bin')}, which does not exist`,
    ])
    expect(await answerOf('http', url, client)).toBe(`1: ${oldY.join(',')}`)

    mkdirSync(join(root, 'm', 'warmup'))
    writeFileSync(join(root, 'm', 'warmup', 'x.bin'), new Uint8Array(Float32Array.from(input).buffer))
    expect((await manage(url, 'models/m/load')).status).toBe(200)
    expect(metric((await http(`${url}/metrics`)).text, 'inferpool_rows_submitted_total', { model: 'm' })).toBe(12)
    expect(await answerOf('grpc', url, client)).toBe(`2: ${newY.join(',')}`)
  })

  it('lets go of a replaced version once it is retired: nothing the server keeps holds its pool', async () => {
    const gc = exposeGc() as () => void
    const root = repository()
    const { url, client, server } = await start(root)
    await manage(url, 'models/m/load')
    // Both doors used, so every place a request passes has seen the pool.
    expect([(await httpInfer(url)).status, (await grpcInfer(client)).ok]).toEqual([200, true])
    const served = server.handler.served
    // Taken in a function of its own, so no reference of the test's outlives it but the WeakRef.
    const retiredPool = (): WeakRef<object> => new WeakRef(served.poolOf(served.model('m', undefined)))
    const retired = retiredPool()
    addVersion(root, '2', newModel)
    expect((await manage(url, 'models/m/load')).status).toBe(200)
    expect((await httpInfer(url)).status).toBe(200)
    // A WeakRef's target stays alive until the job that made it ends: collect in a later one.
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    expect(retired.deref()).toBeUndefined()
  })

  it('keeps nothing of an unloaded model in the host in process isolation: no pool, replica process, transfer file, model copy or exit listener', async () => {
    const gc = exposeGc() as () => void
    const root = repository()
    const { url, client, server } = await start(root, {}, {}, 'process')
    const copies = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith(`inferpool-model-${process.pid}-`))
    const before = { children: childrenOf(process.pid), copies: copies(), exitListeners: process.listenerCount('exit') }
    const served = server.handler.served
    // Taken in a function of its own, so no reference of the test's outlives it but the WeakRef.
    const servedPool = (): WeakRef<object> => new WeakRef(served.poolOf(served.model('m', undefined)))
    const pools: Array<WeakRef<object>> = []
    for (let cycle = 0; cycle < 3; cycle++) {
      expect((await manage(url, 'models/m/load')).status).toBe(200)
      // Both doors used, so every place a request passes has seen the pool.
      expect([(await httpInfer(url)).status, (await grpcInfer(client)).ok]).toEqual([200, true])
      pools.push(servedPool())
      expect((await manage(url, 'models/m/unload')).status).toBe(200)
    }
    // A WeakRef's target stays alive until the job that made it ends: collect in a later one.
    await new Promise((resolve) => setImmediate(resolve))
    gc()
    expect({
      pools: pools.map((pool) => pool.deref()),
      children: childrenOf(process.pid),
      transferFiles: transferFiles(process.pid),
      copies: copies(),
      exitListeners: process.listenerCount('exit'),
    }).toEqual({ pools: [undefined, undefined, undefined], transferFiles: [], ...before })
  })

  it('answers the requests in flight when a model is unloaded, then refuses the model', async () => {
    const root = repository()
    const { url, server, client } = await start(root)
    await manage(url, 'models/m/load')
    const oldY = await reference(oldModel)
    const inFlight = Array.from({ length: 16 }, (_, i) => answerOf(i % 2 === 0 ? 'http' : 'grpc', url, client))
    await until(() => server.handler.activeRequests >= 8)
    const unload = await manage(url, 'models/m/unload')
    expect([unload.status, await Promise.all(inFlight)]).toEqual([200, Array.from({ length: 16 }, () => `1: ${oldY.join(',')}`)])
    const after = await httpInfer(url)
    expect([after.status, (after.json as { code: string }).code]).toEqual([404, 'ERR_MODEL_NOT_FOUND'])
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', state: 'UNAVAILABLE', reason: 'unloaded' }])
    expect((await manage(url, 'index', { ready: true })).json).toEqual([])
    const text = (await http(`${url}/metrics`)).text
    expect([
      metric(text, 'inferpool_model_unload_seconds_count', { model: 'm' }),
      metric(text, 'inferpool_model_state', { model: 'm', version: '1', state: 'ready' }),
    ]).toEqual([1, undefined])
  })

  it("answers tritonclient's is_model_ready false after an unload, over HTTP and gRPC, without an error", async () => {
    const root = repository()
    const { url, client } = await start(root)
    await manage(url, 'models/m/load')
    // tritonclient's is_model_ready: HTTP is `status == 200`; gRPC is ModelReady's `ready`, raising on any error status.
    const isModelReady = async (version = ''): Promise<unknown> => {
      const path = version === '' ? 'm/ready' : `m/versions/${version}/ready`
      const grpcAnswer = await client.call('ModelReady', { name: 'm', version })
      return { http: (await http(`${url}/v2/models/${path}`)).status === 200, grpc: grpcAnswer.ok ? grpcAnswer.response.ready : grpcAnswer }
    }
    expect([await isModelReady(), await isModelReady('1')]).toEqual([
      { http: true, grpc: true },
      { http: true, grpc: true },
    ])
    expect((await manage(url, 'models/m/unload')).status).toBe(200)
    expect([await isModelReady(), await isModelReady('1')]).toEqual([
      { http: false, grpc: false },
      { http: false, grpc: false },
    ])
  })

  it('loads with a config override given as JSON, and refuses model files in the request', async () => {
    const root = repository()
    addVersion(root, '2', newModel)
    const { url } = await start(root)
    const load = await manage(url, 'models/m/load', {
      parameters: { config: JSON.stringify({ max_batch_size: 1, version_policy: { all: {} } }) },
    })
    expect(load.status).toBe(200)
    expect((await manage(url, 'index')).json).toEqual([
      { name: 'm', version: '1', state: 'READY', reason: '' },
      { name: 'm', version: '2', state: 'READY', reason: '' },
    ])
    const bad = await manage(url, 'models/m/load', { parameters: { config: '{"max_batch_sise": 1}' } })
    expect([bad.status, (bad.json as { error: string }).error]).toEqual([
      400,
      "the load request's config of model 'm': ModelConfig: unknown field 'max_batch_sise'",
    ])
    const file = await manage(url, 'models/m/load', { parameters: { config: '{}', 'file:1/model.onnx': 'AAAA' } })
    expect([file.status, file.json]).toEqual([
      403,
      {
        error:
          "Model 'm': model files in a load request are refused; start the server with --allow-model-upload (ModelRepositoryOptions.allowModelUpload) to take them: a model file runs on the server",
        code: 'ERR_MODEL_UPLOAD_DISABLED',
      },
    ])
  })

  it('with allowModelUpload, serves a model from the files of a load request (HTTP base64, gRPC bytes) out of a private directory removed when replaced, unloaded or closed', async () => {
    const [oldY, newY] = await Promise.all([reference(oldModel), reference(newModel)])
    const uploads = mkdtempSync(join(tmpdir(), 'inferpool-uploads-'))
    roots.push(uploads)
    const { url, client, server } = await start(
      repository(),
      { repositoryToken: 't' },
      { allowModelUpload: true, uploadDirectory: uploads },
    )
    const config = JSON.stringify({ max_batch_size: 1 })
    const bytes = (file: string): Buffer => readFileSync(file)
    const load = (parameters: Record<string, string>): ReturnType<typeof post> => manage(url, 'models/up/load', { parameters }, 't')
    const upInfer = async (): Promise<string> => {
      const res = await post(`${url}/v2/models/up/infer`, { inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: input }] })
      const json = res.json as { model_version: string; outputs: Array<{ data: number[] }> }
      return `${json.model_version}: ${json.outputs[0].data.map((v) => Math.fround(v)).join(',')}`
    }

    const refused = await Promise.all([
      load({ 'file:1/model.onnx': bytes(newModel).toString('base64') }),
      load({ config, 'file:model.onnx': bytes(newModel).toString('base64') }),
      load({ config, 'file:1/../../model.onnx': bytes(newModel).toString('base64') }),
      load({ config, 'file:1/model.onnx': 'not base64!' }),
    ])
    expect(refused.map((r) => [r.status, (r.json as { error: string }).error])).toEqual([
      [400, "Model 'up': parameter 'config' must be given with model files (the config of the model directory they make)"],
      [
        400,
        "Model 'up': parameter 'file:model.onnx' must name a file in a version directory: 'file:<version>/<file name>', the version a positive integer, " +
          "at most 16 components of at most 255 bytes, no '.' or '..', no NUL",
      ],
      [
        400,
        "Model 'up': parameter 'file:1/../../model.onnx' must name a file in a version directory: 'file:<version>/<file name>', the version a positive integer, " +
          "at most 16 components of at most 255 bytes, no '.' or '..', no NUL",
      ],
      [400, "Model 'up': parameter 'file:1/model.onnx' must be the file content, base64-encoded"],
    ])
    expect(readdirSync(uploads)).toEqual([])

    expect((await load({ config, 'file:2/model.onnx': bytes(newModel).toString('base64') })).status).toBe(200)
    expect(await upInfer()).toBe(`2: ${newY.join(',')}`)
    const [first] = readdirSync(uploads)
    expect(readdirSync(join(uploads, first, 'up', '2'))).toEqual(['model.onnx'])

    // Replaced over gRPC by another upload: the first directory goes once its version is retired.
    const grpcLoad = await client.call(
      'RepositoryModelLoad',
      { model_name: 'up', parameters: { config: { string_param: config }, 'file:1/model.onnx': { bytes_param: bytes(oldModel) } } },
      { token: 't' },
    )
    expect(grpcLoad).toEqual({ ok: true, response: {} })
    expect(await upInfer()).toBe(`1: ${oldY.join(',')}`)
    const [second] = readdirSync(uploads)
    expect([readdirSync(uploads).length, second === first]).toEqual([1, false])

    expect((await manage(url, 'models/up/unload', {}, 't')).status).toBe(200)
    expect(readdirSync(uploads)).toEqual([])

    expect((await load({ config, 'file:3/model.onnx': bytes(newModel).toString('base64') })).status).toBe(200)
    expect(readdirSync(uploads).length).toBe(1)
    await server.close()
    expect(readdirSync(uploads)).toEqual([])
  })

  it('serves RepositoryIndex, RepositoryModelLoad (with a config override) and RepositoryModelUnload over gRPC', async () => {
    const root = repository()
    addVersion(root, '2', newModel)
    const { client, url } = await start(root, { repositoryToken: 'manage' })
    const token = { token: 'manage' }
    expect(await client.call('RepositoryIndex', {}, token)).toEqual({
      ok: true,
      response: { models: [{ name: 'm', version: '', state: 'UNAVAILABLE', reason: 'not loaded' }] },
    })
    const config = JSON.stringify({ max_batch_size: 1, version_policy: { specific: { versions: [1] } } })
    expect(await client.call('RepositoryModelLoad', { model_name: 'm', parameters: { config: { string_param: config } } }, token)).toEqual({
      ok: true,
      response: {},
    })
    expect(await client.call('RepositoryIndex', { ready: true }, token)).toEqual({
      ok: true,
      response: { models: [{ name: 'm', version: '1', state: 'READY', reason: '' }] },
    })
    const oldY = await reference(oldModel)
    expect(await answerOf('grpc', url, client)).toBe(`1: ${oldY.join(',')}`)
    const file = await client.call(
      'RepositoryModelLoad',
      { model_name: 'm', parameters: { 'file:1/model.onnx': { bytes_param: Buffer.from('x') } } },
      token,
    )
    expect(file.ok === false && [file.code, file.details]).toEqual([
      7,
      "Model 'm': model files in a load request are refused; start the server with --allow-model-upload (ModelRepositoryOptions.allowModelUpload) to take them: a model file runs on the server",
    ])
    const denied = await client.call('RepositoryModelUnload', { model_name: 'm' })
    expect(denied.ok === false && denied.code).toBe(16)
    expect(await client.call('RepositoryModelUnload', { model_name: 'm' }, token)).toEqual({ ok: true, response: {} })
    const gone = await grpcInfer(client)
    expect(gone.ok === false && gone.code).toBe(5)
  })

  it('polls: loads new models, reloads one whose files changed, keeps one that cannot be read, unloads one whose directory is gone', async () => {
    const [oldY, newY] = await Promise.all([reference(oldModel), reference(newModel)])
    const root = repository()
    const { url, client, control } = await start(root)
    await control.poll()
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', version: '1', state: 'READY', reason: '' }])
    // Nothing changed: the next scan loads nothing again.
    await control.poll()
    const text = (await http(`${url}/metrics`)).text
    expect(metric(text, 'inferpool_model_load_seconds_count', { model: 'm', outcome: 'ok' })).toBe(1)

    addVersion(root, '2', newModel)
    await control.poll()
    expect(await answerOf('grpc', url, client)).toBe(`2: ${newY.join(',')}`)

    // A version directory whose model file is not there yet: the model keeps serving version 2.
    mkdirSync(join(root, 'm', '3'))
    await control.poll()
    expect(await answerOf('http', url, client)).toBe(`2: ${newY.join(',')}`)
    copyFileSync(oldModel, join(root, 'm', '3', 'model.onnx'))
    await control.poll()
    expect(await answerOf('http', url, client)).toBe(`3: ${oldY.join(',')}`)

    rmSync(join(root, 'm'), { recursive: true })
    await control.poll()
    // Gone from the repository, gone from the index (as in Triton, whose index lists the repository's directories).
    expect((await manage(url, 'index')).json).toEqual([])
    expect(await answerOf('http', url, client)).toBe("404 Unknown model 'm'")
  })

  it('in poll mode serves the index and refuses load and unload calls over HTTP and gRPC, as Triton does, the model serving on', async () => {
    const oldY = await reference(oldModel)
    const root = repository()
    const { url, client, control } = await start(root, {}, { mode: 'poll' })
    await control.poll()
    const refusal = {
      code: 'ERR_MODEL_CONTROL_POLLING',
      error:
        "explicit model load / unload is not allowed if polling is enabled: load of model 'm' refused; the repository scans " +
        'decide what serves (--model-control-mode poll); use --model-control-mode explicit to load and unload through these calls',
    }
    const [load, unload] = await Promise.all([manage(url, 'models/m/load'), manage(url, 'models/m/unload')])
    expect([load.status, load.json]).toEqual([503, refusal])
    expect([unload.status, unload.json]).toEqual([503, { ...refusal, error: refusal.error.replace('load of', 'unload of') }])
    expect(load.headers['retry-after']).toBeUndefined()
    const [grpcLoad, grpcUnload] = await Promise.all([
      client.call('RepositoryModelLoad', { model_name: 'm' }),
      client.call('RepositoryModelUnload', { model_name: 'm' }),
    ])
    expect(grpcLoad.ok === false && [grpcLoad.code, grpcLoad.details]).toEqual([grpc.status.UNAVAILABLE, refusal.error])
    expect(grpcUnload.ok === false && grpcUnload.code).toBe(grpc.status.UNAVAILABLE)
    expect((await manage(url, 'index')).json).toEqual([{ name: 'm', version: '1', state: 'READY', reason: '' }])
    expect(await answerOf('http', url, client)).toBe(`1: ${oldY.join(',')}`)
  })

  it('takes the repository token on the management calls, not the inference key, and lists the extension only when on', async () => {
    const root = repository()
    const { url, client } = await start(root, { repositoryToken: 'manage', apiKey: 'infer' })
    const [none, inferKey, managed] = await Promise.all([
      manage(url, 'index'),
      manage(url, 'index', {}, 'infer'),
      manage(url, 'index', {}, 'manage'),
    ])
    expect([none.status, inferKey.status, managed.status]).toEqual([401, 401, 200])
    // gRPC: the same rule, decided as the call starts (the call guard) and by the service.
    const calls = await Promise.all([
      client.call('RepositoryIndex', {}),
      client.call('RepositoryIndex', {}, { token: 'infer' }),
      client.call('RepositoryIndex', {}, { token: 'manage' }),
    ])
    expect(calls.map((c) => (c.ok ? 'OK' : c.code))).toEqual([grpc.status.UNAUTHENTICATED, grpc.status.UNAUTHENTICATED, 'OK'])
    const meta = await http(`${url}/v2`, { headers: { authorization: 'Bearer infer' } })
    expect((meta.json as { extensions: string[] }).extensions).toEqual([
      'binary_tensor_data',
      'model_configuration',
      'statistics',
      'model_repository',
    ])
    const grpcMeta = await client.call('ServerMetadata', {}, { token: 'infer' })
    expect(grpcMeta.ok && grpcMeta.response.extensions).toEqual([
      'binary_tensor_data',
      'model_configuration',
      'statistics',
      'model_repository',
    ])

    const plain = await serve(
      { m: await createPool({ model: oldModel, replicas: 1, logger: quiet }) },
      { port: 0, grpcPort: 0, logger: quiet },
    )
    servers.push(plain)
    expect(((await http(`${plain.url as string}/v2`)).json as { extensions: string[] }).extensions).toEqual([
      'binary_tensor_data',
      'model_configuration',
      'statistics',
    ])
    expect((await manage(plain.url as string, 'index')).status).toBe(404)
  })

  it('takes the inference key on the management calls when no repository token is set', async () => {
    const root = repository()
    const { url, client } = await start(root, { apiKey: 'infer' })
    const [none, wrong, inferKey] = await Promise.all([
      manage(url, 'index'),
      manage(url, 'index', {}, 'other'),
      manage(url, 'index', {}, 'infer'),
    ])
    expect([none.status, wrong.status, inferKey.status]).toEqual([401, 401, 200])
    const calls = await Promise.all([client.call('RepositoryIndex', {}), client.call('RepositoryIndex', {}, { token: 'infer' })])
    expect(calls.map((c) => (c.ok ? 'OK' : c.code))).toEqual([grpc.status.UNAUTHENTICATED, 'OK'])
  })
})
