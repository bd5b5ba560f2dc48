/**
 * Model repositories in Triton's layout (src/repository/), on real directories built in
 * a temporary folder: the layout and version policies, config.pbtxt parsed with its
 * errors located by line, each field honoured, refused by name or ignored by name, a
 * GPU placement that fails at load without the CUDA provider, and `inferpool serve
 * --model-repository` serving the versions over HTTP beside a `--model`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createPool, ProviderUnavailableError } from '@inferpool/host'
import {
  ModelConfigSyntaxError,
  ModelRepositoryLayoutError,
  readModel,
  readRepositories,
  repositoryPoolOptions,
  UnsupportedModelConfigError,
  warmupRows,
} from '@inferpool/server'
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
      warmup: [],
      cache: { pinned: false, eager: false },
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

describe('model_warmup', () => {
  const multiIo = repoModel('multi-io.onnx')
  const warmupConfig = (inputs: string, sample = 'batch_size: 2 count: 3'): string =>
    `max_batch_size: 4\nmodel_warmup [ { name: "s" ${sample} ${inputs} } ]`
  const a = (data: string, dims = '[ 3 ]'): string => `inputs { key: "a" value: { data_type: TYPE_FP32 dims: ${dims} ${data} } }`
  const b = (data: string): string => `inputs { key: "b" value: { data_type: TYPE_INT32 dims: [ 2 ] ${data} } }`

  it('reads the samples of model_warmup, and refuses a bad one naming its field', () => {
    const cases: Record<string, string> = {
      good: warmupConfig(`${a('input_data_file: "a.bin"')} ${b('random_data: true')}`),
      zero: warmupConfig(a('zero_data: true'), 'batch_size: 0'),
      over: warmupConfig(a('zero_data: true'), 'batch_size: 5'),
      nobatch: `max_batch_size: 0\nmodel_warmup [ { batch_size: 2 ${a('zero_data: true')} } ]`,
      dynamic: warmupConfig(a('zero_data: true', '[ -1 ]')),
      nodata: warmupConfig(a('')),
      escape: warmupConfig(a('input_data_file: "../config.pbtxt"')),
      notype: warmupConfig('inputs { key: "a" value: { dims: [ 3 ] zero_data: true } }'),
      noinputs: warmupConfig(''),
    }
    const root = repository(
      Object.fromEntries(Object.keys(cases).map((name) => [name, { config: cases[name], versions: { '1': multiIo } }])),
    )
    const good = readModel(root, 'good').config.warmup
    expect(good).toEqual([
      {
        field: 'model_warmup[0]',
        name: 's',
        batchSize: 2,
        count: 3,
        inputs: new Map([
          ['a', { dataType: 'TYPE_FP32', dims: [3], data: { kind: 'file', file: 'a.bin' } }],
          ['b', { dataType: 'TYPE_INT32', dims: [2], data: { kind: 'random' } }],
        ]),
      },
    ])
    const errors = Object.keys(cases)
      .slice(1)
      .map((name) => thrown(() => readModel(root, name)) as UnsupportedModelConfigError)
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ['ERR_MODEL_CONFIG_UNSUPPORTED', "Model 'zero': `model_warmup[0].batch_size` must be >= 1, got 0"],
      ['ERR_MODEL_CONFIG_UNSUPPORTED', "Model 'over': `model_warmup[0].batch_size` must be <= max_batch_size 4, got 5"],
      [
        'ERR_MODEL_CONFIG_UNSUPPORTED',
        "Model 'nobatch': `model_warmup[0].batch_size` must be 1 for a model with max_batch_size 0 (no batching), got 2",
      ],
      [
        'ERR_MODEL_CONFIG_UNSUPPORTED',
        'Model \'dynamic\': `model_warmup[0].inputs["a"].dims` must be sizes >= 1 (a warmup tensor has a fixed shape), got -1',
      ],
      [
        'ERR_MODEL_CONFIG_UNSUPPORTED',
        'Model \'nodata\': `model_warmup[0].inputs["a"]` must set one of zero_data, random_data or input_data_file, got none',
      ],
      [
        'ERR_MODEL_CONFIG_UNSUPPORTED',
        "Model 'escape': `model_warmup[0].inputs[\"a\"].input_data_file` must name a file in the model's warmup/ directory, got '../config.pbtxt'",
      ],
      [
        'ERR_MODEL_CONFIG_UNSUPPORTED',
        'Model \'notype\': `model_warmup[0].inputs["a"].data_type` must be set to the data type of the input',
      ],
      ['ERR_MODEL_CONFIG_UNSUPPORTED', "Model 'noinputs': `model_warmup[0].inputs` must name the inputs of the model"],
    ])
  })

  it("builds a sample's rows from zeros, random data and a data file in the model's warmup/ directory, checked against the model's inputs", async () => {
    const cases: Record<string, string> = {
      file: warmupConfig(`${a('input_data_file: "a.bin"')} ${b('zero_data: true')}`),
      random: warmupConfig(`${a('random_data: true')} ${b('random_data: true')}`),
      short: warmupConfig(`${a('input_data_file: "short.bin"')} ${b('zero_data: true')}`),
      missing: warmupConfig(`${a('input_data_file: "none.bin"')} ${b('zero_data: true')}`),
      type: warmupConfig(`${a('zero_data: true')} inputs { key: "b" value: { data_type: TYPE_INT64 dims: [ 2 ] zero_data: true } }`),
      shape: warmupConfig(`${a('zero_data: true', '[ 4 ]')} ${b('zero_data: true')}`),
      unknown: warmupConfig(
        `${a('zero_data: true')} ${b('zero_data: true')} inputs { key: "c" value: { data_type: TYPE_FP32 dims: [ 1 ] zero_data: true } }`,
      ),
      absent: warmupConfig(a('zero_data: true')),
    }
    const root = repository(
      Object.fromEntries(Object.keys(cases).map((name) => [name, { config: cases[name], versions: { '1': multiIo } }])),
    )
    const values = Float32Array.from([0.5, -2, 8])
    for (const name of ['file', 'short']) mkdirSync(join(root, name, 'warmup'))
    writeFileSync(join(root, 'file', 'warmup', 'a.bin'), new Uint8Array(values.buffer))
    writeFileSync(join(root, 'short', 'warmup', 'short.bin'), new Uint8Array(values.buffer, 0, 8))
    const pool = await createPool({ model: multiIo, replicas: 1, logger: { warn() {}, info() {} } })
    try {
      const rowsOf = (name: string): ReturnType<typeof warmupRows> => {
        const model = readModel(root, name)
        return warmupRows(name, model.directory, model.config.warmup[0], pool.metadata.inputs)
      }
      const rows = rowsOf('file')
      expect(rows).toEqual([
        { a: { data: values, dims: [3] }, b: { data: new Int32Array(2), dims: [2] } },
        { a: { data: values, dims: [3] }, b: { data: new Int32Array(2), dims: [2] } },
      ])
      const random = rowsOf('random')
      const randomA = Array.from((random[0].a as { data: Float32Array }).data)
      expect([randomA.length, randomA.every((v) => v >= 0 && v < 1), (random[0].b as { data: Int32Array }).data.length]).toEqual([
        3,
        true,
        2,
      ])
      // The rows run: the model takes them as they are.
      expect((await pool.inferMany(rows)).length).toBe(2)

      const errors = ['short', 'missing', 'type', 'shape', 'unknown', 'absent'].map((name) => thrown(() => rowsOf(name)) as Error)
      expect(errors.map((e) => e.message)).toEqual([
        `Model 'short': \`model_warmup[0].inputs["a"].input_data_file\` ${join(root, 'short', 'warmup', 'short.bin')} holds 8 bytes; one row of float32 [3 elements] takes 12`,
        `Model 'missing': \`model_warmup[0].inputs["a"].input_data_file\` names ${join(root, 'missing', 'warmup', 'none.bin')}, which does not exist`,
        "Model 'type': `model_warmup[0].inputs[\"b\"].data_type` is TYPE_INT64, but the model's input 'b' is TYPE_INT32",
        "Model 'shape': `model_warmup[0].inputs[\"a\"].dims` is [4], but the model's input 'a' takes rows of [3]",
        'Model \'unknown\': `model_warmup[0].inputs["c"]` names no input of the model (its inputs: a, b)',
        "Model 'absent': `model_warmup[0].inputs` has no entry for the model's input 'b'",
      ])
    } finally {
      await pool.close()
    }
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
    const upload = { parameters: { config: '{}', 'file:1/model.onnx': readFileSync(poison).toString('base64') } }
    const refused = await post(`${server.url}/v2/repository/models/c/load`, upload, auth)
    expect([refused.status, (refused.json as { code: string }).code]).toEqual([403, 'ERR_MODEL_UPLOAD_DISABLED'])
  })

  it('with --allow-model-upload, serves a model from the files of a load request', async () => {
    const root = repository({ a: { versions: { '1': poison } } })
    // The server's temporary directory is the test's own: its upload directory goes with it, though the server is killed.
    const temp = mkdtempSync(join(tmpdir(), 'inferpool-tmp-'))
    roots.push(temp)
    const server = await startServe(
      ['--port', '0', '--replicas', '1', '--model-repository', root, '--model-control-mode', 'explicit', '--allow-model-upload'],
      { INFERPOOL_REPOSITORY_TOKEN: 'manage', TMPDIR: temp },
    )
    const upload = { parameters: { config: '{"max_batch_size": 4}', 'file:7/model.onnx': readFileSync(poison).toString('base64') } }
    expect((await post(`${server.url}/v2/repository/models/c/load`, upload, { authorization: 'Bearer manage' })).status).toBe(200)
    const infer = await post(`${server.url}/v2/models/c/infer`, {
      inputs: [{ name: 'x', shape: [1, 4], datatype: 'FP32', data: [1, 2, 3, 4] }],
    })
    expect([infer.status, (infer.json as { model_version: string }).model_version]).toEqual([200, '7'])
    expect(readdirSync(temp).filter((name) => name.startsWith('inferpool-upload-'))).toHaveLength(1)
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
