/**
 * Triton's Python client, as its published sources build its requests with their
 * defaults (test/python/triton_client.py: tritonclient is not installable here), against
 * a real server on a real repository directory, over HTTP and gRPC: the repository
 * index, a load, a load with a config override, readiness of named versions, inference
 * on a named version, an unload. Runs where python3 has grpcio and grpcio-tools (.ci/run
 * installs them when it can); elsewhere it is reported skipped.
 */
import { execFile, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { ModelRepository, repositoryPoolOptions, serve } from '@inferpool/server'
import type { InferpoolServer } from '@inferpool/server'
import { repoModel } from './server-helpers.js'

const script = fileURLToPath(new URL('./python/triton_client.py', import.meta.url))
const protoDir = fileURLToPath(new URL('../proto', import.meta.url))
const hasGrpcio = spawnSync('python3', ['-c', 'import grpc, grpc_tools'], { stdio: 'ignore' }).status === 0
const quiet = { error() {}, info() {}, warn() {} }
const v1Model = repoModel('fixed-batch.onnx')
const v2Model = repoModel('hardcoded-batch1.onnx')
const row = [0.5, -1, 2, 0.25, -0.75, 1.5, 3, -2]

let root: string
let server: InferpoolServer
beforeAll(async () => {
  if (!hasGrpcio) return
  root = mkdtempSync(join(tmpdir(), 'inferpool-triton-client-'))
  mkdirSync(join(root, 'm', '1'), { recursive: true })
  mkdirSync(join(root, 'm', '2'))
  writeFileSync(join(root, 'm', 'config.pbtxt'), 'max_batch_size: 1\n')
  copyFileSync(v1Model, join(root, 'm', '1', 'model.onnx'))
  copyFileSync(v2Model, join(root, 'm', '2', 'model.onnx'))
  const control = new ModelRepository({
    repositories: [root],
    createPool: (model, file) => createPool({ ...repositoryPoolOptions(model, file, { replicas: 1 }), logger: quiet }),
    logger: quiet,
  })
  server = await serve({}, { port: 0, grpcPort: 0, logger: quiet, modelControl: control })
  control.serveInto(server.handler.served)
})
afterAll(async () => {
  await server?.close()
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
})

function runClient(job: unknown): Promise<Record<string, Record<string, unknown>>> {
  const http = new URL(server.url as string).host
  return new Promise((resolve, reject) => {
    const child = execFile('python3', [script, http, server.grpcAddress as string, protoDir], (error, stdout, stderr) => {
      if (error) return reject(new Error(`triton_client.py failed: ${stderr}`))
      resolve(JSON.parse(stdout) as Record<string, Record<string, unknown>>)
    })
    child.stdin?.end(JSON.stringify(job))
  })
}

/** What `file` answers to `row`, from a pool of its own. */
async function reference(file: string): Promise<number[]> {
  const pool = await createPool({ model: file, replicas: 1, logger: quiet })
  try {
    return Array.from((await pool.infer({ x: Float32Array.from(row) })).y.data as Float32Array)
  } finally {
    await pool.close()
  }
}

describe.skipIf(!hasGrpcio)("Triton's Python client, with its defaults (needs python3 with grpcio and grpcio-tools)", () => {
  it('indexes, loads (also with a config override), checks versions ready, infers on a named version and unloads, over HTTP and gRPC', async () => {
    const [y1, y2] = await Promise.all([reference(v1Model), reference(v2Model)])
    const config = JSON.stringify({ max_batch_size: 1, version_policy: { all: {} } })
    const result = await runClient({ model: 'm', input: 'x', row, config })
    const ready = (version: string): Record<string, string> => ({ name: 'm', version, state: 'READY', reason: '' })
    const infer = (version: string, y: number[]): unknown => ({
      model_name: 'm',
      model_version: version,
      outputs: { y: ['FP32', [1, 4], y] },
    })
    expect(result.http).toEqual({
      index_before: [{ name: 'm', state: 'UNAVAILABLE', reason: 'not loaded' }],
      load: true,
      index_loaded: [ready('2')],
      load_config: true,
      index_config: [ready('1'), ready('2')],
      ready_1: true,
      ready_2: true,
      ready_3: false,
      infer_1: infer('1', y1),
      infer_2: infer('2', y2),
      unload: true,
      ready_after_unload: false,
      ready_newest_after_unload: false,
      index_unloaded: [{ name: 'm', state: 'UNAVAILABLE', reason: 'unloaded' }],
      infer_unloaded: { status: '404', error: "Unknown model 'm' version '1'" },
    })
    expect(result.grpc).toEqual({
      index_before: [{ name: 'm', version: '', state: 'UNAVAILABLE', reason: 'unloaded' }],
      load: true,
      index_loaded: [ready('2')],
      load_config: true,
      index_config: [ready('1'), ready('2')],
      ready_1: true,
      ready_2: true,
      // As Triton: a version not served is not ready, not an error (is_model_ready never raises for it).
      ready_3: false,
      infer_1: infer('1', y1),
      infer_2: infer('2', y2),
      unload: true,
      ready_after_unload: false,
      ready_newest_after_unload: false,
      index_unloaded: [{ name: 'm', version: '', state: 'UNAVAILABLE', reason: 'unloaded' }],
      infer_unloaded: { code: 'NOT_FOUND', details: "Unknown model 'm' version '1'" },
    })
  })
})
