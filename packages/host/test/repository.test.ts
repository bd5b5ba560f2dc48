/**
 * Model repositories in Triton's layout (src/repository/), on real directories built in
 * a temporary folder: the layout and version policies, config.pbtxt parsed with its
 * errors located by line, each field honoured, refused by name or ignored by name, a
 * GPU placement that fails at load without the CUDA provider, and `inferpool serve
 * --model-repository` serving the versions over HTTP beside a `--model`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  createPool,
  ModelConfigSyntaxError,
  ModelRepositoryLayoutError,
  ProviderUnavailableError,
  readModel,
  readRepositories,
  repositoryPoolOptions,
  UnsupportedModelConfigError,
} from '@inferpool/host'
import { demoModel, demoRequest, demoRows, http, post, repoModel } from './server-helpers.js'
import { startServe, stopAll } from './serve-process.js'

const roots: string[] = []
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})
afterEach(() => stopAll())

/** A repository folder: `models` maps `<model>` to its config text (or none) and its versions' model files. */
function repository(models: Record<string, { config?: string; versions: Record<string, string | null> }>): string {
  const root = mkdtempSync(join(tmpdir(), 'inferpool-repo-'))
  roots.push(root)
  for (const [name, { config, versions }] of Object.entries(models)) {
    mkdirSync(join(root, name))
    if (config !== undefined) writeFileSync(join(root, name, 'config.pbtxt'), config)
    for (const [version, file] of Object.entries(versions)) {
      mkdirSync(join(root, name, version))
      if (file !== null) copyFileSync(file, join(root, name, version, 'model.onnx'))
    }
  }
  return root
}

function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

const poison = repoModel('poison.onnx')

describe('repository layout', () => {
  it('serves the newest version of a model without config.pbtxt, completed from the model file', () => {
    const root = repository({ m: { versions: { '1': demoModel, '2': poison, '10': demoModel } } })
    const model = readModel(root, 'm')
    expect([model.configFile, model.versions.map((v) => [v.version, v.file])]).toEqual([
      undefined,
      [['10', join(root, 'm', '10', 'model.onnx')]],
    ])
    expect(model.config).toEqual({
      maxBatchSize: undefined,
      versionPolicy: { kind: 'latest', count: 1 },
      batching: {},
      timeoutMs: undefined,
      replicas: undefined,
      placement: { kind: 'cpu' },
      session: {},
      modelFilename: 'model.onnx',
      ignored: [],
    })
  })

  it('applies version_policy latest N, all and specific', () => {
    const versions = { '1': poison, '2': poison, '3': poison }
    const root = repository({
      latest: { config: 'version_policy: { latest: { num_versions: 2 } }', versions },
      all: { config: 'version_policy: { all: {} }', versions },
      specific: { config: 'version_policy: { specific: { versions: [1, 3] } }', versions },
    })
    expect(readRepositories([root], { warn() {} }).map((m) => [m.name, m.versions.map((v) => v.version)])).toEqual([
      ['all', ['3', '2', '1']],
      ['latest', ['3', '2']],
      ['specific', ['3', '1']],
    ])
  })

  it('refuses a model without a version directory, a version without its model file, and a named version that is missing', () => {
    const root = repository({
      empty: { versions: {} },
      nofile: { versions: { '1': null } },
      missing: { config: 'version_policy { specific { versions: [2, 5] } }', versions: { '1': poison, '2': poison } },
    })
    const empty = thrown(() => readModel(root, 'empty'))
    expect([empty instanceof ModelRepositoryLayoutError, (empty as Error).message]).toEqual([
      true,
      `${join(root, 'empty')}: has no version directory (expected ${join(root, 'empty', '1', 'model.onnx')})`,
    ])
    expect((thrown(() => readModel(root, 'nofile')) as Error).message).toBe(
      `${join(root, 'nofile', '1', 'model.onnx')}: no model file in this version directory`,
    )
    expect((thrown(() => readModel(root, 'missing')) as Error).message).toBe(
      `${join(root, 'missing')}: version_policy names version 5, which has no directory (found: 2, 1)`,
    )
  })

  it('refuses a model name given by two repositories', () => {
    const a = repository({ m: { versions: { '1': poison } } })
    const b = repository({ m: { versions: { '1': poison } } })
    expect((thrown(() => readRepositories([a, b], { warn() {} })) as Error).message).toBe(
      `${join(b, 'm')}: model 'm' is also in the repository ${a}`,
    )
  })
})

describe('config.pbtxt', () => {
  it('honours max_batch_size, dynamic_batching, instance_group, parameters and the graph optimization level', () => {
    const root = repository({
      m: {
        config: [
          'name: "m"',
          'platform: "onnxruntime_onnx"',
          'max_batch_size: 16',
          'dynamic_batching {',
          '  max_queue_delay_microseconds: 2500',
          '  preferred_batch_size: [ 4, 8 ]',
          '  default_queue_policy { max_queue_size: 64 default_timeout_microseconds: 1500000 }',
          '}',
          'instance_group [ { count: 2 kind: KIND_CPU }, { count: 1 } ]',
          'parameters { key: "intra_op_thread_count" value: { string_value: "3" } }',
          'optimization { graph { level: 1 } }',
        ].join('\n'),
        versions: { '1': poison },
      },
    })
    const model = readModel(root, 'm')
    expect(model.config.ignored).toEqual([])
    const options = repositoryPoolOptions(model, model.versions[0].file, {
      replicas: 1,
      batching: { maxBatchSize: 32, minBatchSize: 1, maxWaitMs: 0, maxQueueSize: 4096 },
      session: { executionProviders: ['cpu'], intraOpNumThreads: 1 },
      timeoutMs: 30_000,
    })
    expect(options).toEqual({
      model: join(root, 'm', '1', 'model.onnx'),
      replicas: 3,
      batching: { maxBatchSize: 16, minBatchSize: 8, maxWaitMs: 2.5, maxQueueSize: 64 },
      session: { executionProviders: ['cpu'], intraOpNumThreads: 3, graphOptimizationLevel: 'extended' },
      isolation: undefined,
      timeoutMs: 1500,
    })
  })

  it('gives a syntax error, an unknown field and a value of the wrong kind each with its file and line', () => {
    const root = repository({
      syntax: { config: 'name: "syntax"\nmax_batch_size: 8\ninput [ { name: "x" dims: [ 4 ] }\n', versions: { '1': poison } },
      unknown: { config: 'name: "unknown"\n\nmax_batch_sise: 8\n', versions: { '1': poison } },
      value: { config: 'name: "value"\ninstance_group [\n  {\n    count: many\n  }\n]\n', versions: { '1': poison } },
      enum: { config: 'instance_group [ { count: 1 } ]\ninstance_group [ { kind: KIND_TPU } ]\n', versions: { '1': poison } },
    })
    const errors = ['syntax', 'unknown', 'value', 'enum'].map((name) => thrown(() => readModel(root, name)) as ModelConfigSyntaxError)
    expect(errors.map((e) => [e instanceof ModelConfigSyntaxError, e.code, e.line])).toEqual([
      [true, 'ERR_MODEL_CONFIG_SYNTAX', 4],
      [true, 'ERR_MODEL_CONFIG_SYNTAX', 3],
      [true, 'ERR_MODEL_CONFIG_SYNTAX', 4],
      [true, 'ERR_MODEL_CONFIG_SYNTAX', 2],
    ])
    expect(errors[1].message).toBe(`${join(root, 'unknown', 'config.pbtxt')}:3: ModelConfig: unknown field 'max_batch_sise'`)
  })

  it('refuses, by name, a field that would change how the model runs', () => {
    const cases: Record<string, string> = {
      seq: 'sequence_batching { max_sequence_idle_microseconds: 5000000 }',
      ens: 'platform: "ensemble"',
      tf: 'platform: "tensorflow_savedmodel"',
      py: 'backend: "python"',
      dec: 'model_transaction_policy { decoupled: true }',
      other: 'name: "another"',
    }
    const root = repository(
      Object.fromEntries(Object.entries(cases).map(([name, config]) => [name, { config, versions: { '1': poison } }])),
    )
    const errors = Object.keys(cases).map((name) => thrown(() => readModel(root, name)) as UnsupportedModelConfigError)
    expect(errors.map((e) => [e instanceof UnsupportedModelConfigError, e.code, e.field])).toEqual([
      [true, 'ERR_MODEL_CONFIG_UNSUPPORTED', 'sequence_batching'],
      [true, 'ERR_MODEL_CONFIG_UNSUPPORTED', 'platform'],
      [true, 'ERR_MODEL_CONFIG_UNSUPPORTED', 'platform'],
      [true, 'ERR_MODEL_CONFIG_UNSUPPORTED', 'backend'],
      [true, 'ERR_MODEL_CONFIG_UNSUPPORTED', 'model_transaction_policy.decoupled'],
      [true, 'ERR_MODEL_CONFIG_UNSUPPORTED', 'name'],
    ])
    expect(errors[0].message).toBe(
      "Model 'seq': `sequence_batching` is not supported: inferpool has no sequence batcher (stateful models); remove it to serve the model statelessly",
    )
  })

  it('logs the fields it ignores once, by name, and still loads the model', () => {
    const root = repository({
      m: {
        config: [
          'backend: "onnxruntime"',
          'input [ { name: "x" data_type: TYPE_FP32 dims: [ 4 ] } ]',
          'output [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]',
          'dynamic_batching { preserve_ordering: true default_queue_policy { timeout_action: DELAY } }',
          'optimization { execution_accelerators { cpu_execution_accelerator [ { name: "openvino" } ] } }',
          'instance_group [ { count: 1 kind: KIND_CPU rate_limiter { priority: 2 } }, { count: 1 rate_limiter { priority: 1 } } ]',
          'parameters { key: "enable_mem_arena" value { string_value: "1" } }',
          'response_cache { enable: true }',
        ].join('\n'),
        versions: { '1': poison },
      },
    })
    const warnings: string[] = []
    const [model] = readRepositories([root], { warn: (line) => warnings.push(line) })
    expect(warnings).toEqual([
      `model 'm' (${join(root, 'm', 'config.pbtxt')}): ignored, not supported by inferpool: ` +
        'dynamic_batching.preserve_ordering, instance_group.rate_limiter, ' +
        'parameters.enable_mem_arena, optimization.execution_accelerators, input, output, response_cache',
    ])
    expect(model.versions.map((v) => v.version)).toEqual(['1'])
  })

  it('places a KIND_GPU group on CUDA, and its load fails with a typed error naming ONNXRUNTIME_NODE_INSTALL when the provider is missing', async () => {
    const root = repository({ m: { config: 'instance_group [ { count: 1 kind: KIND_GPU gpus: [ 0 ] } ]', versions: { '1': poison } } })
    const model = readModel(root, 'm')
    expect(model.config.placement).toEqual({ kind: 'gpu', gpus: [0] })
    const options = repositoryPoolOptions(model, model.versions[0].file, { replicas: 1 })
    expect([options.session?.executionProviders, options.replicas, options.isolation]).toEqual([
      [{ name: 'cuda', deviceId: [0] }],
      1,
      undefined,
    ])
    const error = await createPool({ ...options, logger: { warn() {}, info() {} } }).then(
      (pool) => pool.close().then(() => undefined),
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ProviderUnavailableError)
    expect((error as Error).message).toContain('ONNXRUNTIME_NODE_INSTALL=cuda12')
  })
})

describe('inferpool serve --model-repository', () => {
  it('serves the versions its policy names, beside a --model, over HTTP', async () => {
    const root = repository({
      m: { config: 'version_policy: { all: {} }\nmax_batch_size: 8', versions: { '1': demoModel, '2': poison } },
    })
    const server = await startServe(['--port', '0', '--replicas', '1', '--model-repository', root, '--model', `demo=${demoModel}`])
    const [v1, newest, demo, meta] = await Promise.all([
      post(`${server.url}/v2/models/m/versions/1/infer`, demoRequest(demoRows(3, 1))),
      post(`${server.url}/v2/models/m/infer`, { inputs: [{ name: 'x', shape: [1, 4], datatype: 'FP32', data: [1, 2, 3, 4] }] }),
      post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(3, 1))),
      http(`${server.url}/v2/models/m/versions/2`),
    ])
    expect([v1.status, (v1.json as { model_version: string }).model_version]).toEqual([200, '1'])
    expect([newest.status, (newest.json as { model_version: string }).model_version]).toEqual([200, '2'])
    expect([demo.status, (demo.json as { model_version: string }).model_version]).toEqual([200, '1'])
    expect((meta.json as { versions: string[]; parameters: { max_batch_size: number } }).versions).toEqual(['1', '2'])
    expect((meta.json as { parameters: { max_batch_size: number } }).parameters.max_batch_size).toBe(8)
    expect(server.output()).toContain(`model m version 2: ${join(root, 'm', '2', 'model.onnx')}`)
  })

  it('in explicit mode loads only --load-model at start, and takes loads through the repository calls with their token', async () => {
    const root = repository({ a: { versions: { '1': poison } }, b: { versions: { '1': poison } } })
    const server = await startServe(
      ['--port', '0', '--replicas', '1', '--model-repository', root, '--model-control-mode', 'explicit', '--load-model', 'a'],
      { INFERPOOL_REPOSITORY_TOKEN: 'manage' },
    )
    const auth = { authorization: 'Bearer manage' }
    expect((await post(`${server.url}/v2/repository/index`, {}, auth)).json).toEqual([
      { name: 'a', version: '1', state: 'READY', reason: '' },
      { name: 'b', state: 'UNAVAILABLE', reason: 'not loaded' },
    ])
    expect((await post(`${server.url}/v2/repository/models/b/load`, {})).status).toBe(401)
    expect((await post(`${server.url}/v2/repository/models/b/load`, {}, auth)).status).toBe(200)
    const infer = await post(`${server.url}/v2/models/b/infer`, {
      inputs: [{ name: 'x', shape: [1, 4], datatype: 'FP32', data: [1, 2, 3, 4] }],
    })
    expect([infer.status, (infer.json as { model_version: string }).model_version]).toEqual([200, '1'])
  })

  it('exits with the error of a bad config.pbtxt, naming its line', async () => {
    const root = repository({
      bad: { config: 'max_batch_size: 4\nsequence_batching {\n  direct { }\n  oops: 1\n}\n', versions: { '1': poison } },
    })
    const error = await startServe(['--port', '0', '--replicas', '1', '--model-repository', root]).then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(error?.message).toContain(`inferpool: ${join(root, 'bad', 'config.pbtxt')}:4: ModelSequenceBatching: unknown field 'oops'`)
  })
})
