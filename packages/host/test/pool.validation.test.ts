import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool, InvalidInputError } from '@inferpool/host'
import type { Pool, RowInput, RowOutput } from '@inferpool/host'
import { models } from './fixtures/models.js'

describe('invalid input is rejected at the door', () => {
  let mlp: Pool<RowInput, RowOutput>
  let tokens: Pool<RowInput, RowOutput>

  beforeAll(async () => {
    ;[mlp, tokens] = await Promise.all([
      createPool({ model: models.demoMlp, replicas: 1 }),
      createPool({ model: models.tokenPool, replicas: 1 }),
    ])
  })
  afterAll(async () => {
    await Promise.all([mlp?.close(), tokens?.close()])
  })

  const ids = (n: number) => ({ data: new BigInt64Array(n).fill(1n), dims: [n] })

  const cases: Array<[string, () => Pool<RowInput, RowOutput>, unknown, string]> = [
    ['not an object', () => mlp, null, 'Expected an object of input tensors by name (input: float32 [256]), got null'],
    [
      'a bare typed array',
      () => mlp,
      new Float32Array(256),
      'Expected an object of input tensors by name (input: float32 [256]), got Float32Array',
    ],
    [
      'an unknown input name',
      () => mlp,
      { input: new Float32Array(256), extra: new Float32Array(1) },
      'Unknown input "extra"; the model\'s inputs are input: float32 [256]',
    ],
    ['a missing input', () => mlp, {}, 'Missing input "input" (float32 [256] without the batch dimension)'],
    ['the wrong element type', () => mlp, { input: new Int32Array(256) }, 'Input "input" must be a Float32Array (float32), got Int32Array'],
    [
      'a plain array',
      () => mlp,
      { input: [1, 2, 3] },
      'Input "input" must be a Float32Array or { data, dims } (float32 [256] without the batch dimension), got an array',
    ],
    [
      'the wrong element count',
      () => mlp,
      { input: new Float32Array(255) },
      'Input "input" must have 256 elements (float32 [256] without the batch dimension), got 255',
    ],
    [
      'dims that contradict a fixed axis',
      () => mlp,
      { input: { data: new Float32Array(255), dims: [255] } },
      'Input "input" has dims [255], expected float32 [256] without the batch dimension (axis 0 must be 256)',
    ],
    [
      'dims of the wrong rank',
      () => tokens,
      { input_ids: { data: new BigInt64Array(6), dims: [2, 3] }, attention_mask: ids(6) },
      'Input "input_ids" must have 1 dims without the batch dimension (int64 [seq]), got [2, 3]',
    ],
    [
      'a typed array for an input with dynamic axes',
      () => tokens,
      { input_ids: new BigInt64Array(4), attention_mask: ids(4) },
      'Input "input_ids" has dynamic dims (int64 [seq] without the batch dimension): pass { data, dims }',
    ],
    [
      'negative dims',
      () => tokens,
      { input_ids: { data: new BigInt64Array(0), dims: [-1] }, attention_mask: ids(1) },
      'Input "input_ids" dims must be an array of non-negative integers, got [-1]',
    ],
    [
      'dims that do not match the data',
      () => tokens,
      { input_ids: { data: new BigInt64Array(3), dims: [4] }, attention_mask: ids(4) },
      'Input "input_ids" has 3 elements, but dims [4] need 4',
    ],
    [
      'inputs that disagree on a shared axis',
      () => tokens,
      { input_ids: ids(3), attention_mask: ids(4) },
      'Inputs "input_ids" and "attention_mask" disagree on axis "seq": 3 vs 4',
    ],
  ]

  it.each(cases)('rejects %s with ERR_INVALID_INPUT saying what was expected, without queueing it', async (_name, pool, input, message) => {
    const before = pool().stats.submitted
    const error = await pool()
      .infer(input as RowInput)
      .then(
        () => null,
        (err: unknown) => err,
      )
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toMatchObject({ code: 'ERR_INVALID_INPUT', message })
    expect(pool().stats.submitted).toBe(before)
  })

  it('still serves valid requests after rejecting invalid ones', async () => {
    const out = await mlp.infer({ input: { data: new Float32Array(256), dims: [256] } })
    expect(out.output.dims).toEqual([16])
  })
})

describe('options are validated once, naming the option and echoing the value', () => {
  const cases: Array<[string, Record<string, unknown>, 'TypeError' | 'RangeError', string]> = [
    [
      'model of the wrong type',
      { model: 42 },
      'TypeError',
      'Expected `model` to be a path to an .onnx file or its bytes (Uint8Array), got `42` (number)',
    ],
    ['replicas 0', { replicas: 0 }, 'RangeError', 'Expected `replicas` to be an integer >= 1, got `0` (number)'],
    ['replicas as a string', { replicas: '2' }, 'TypeError', 'Expected `replicas` to be an integer >= 1, got `"2"` (string)'],
    ['fractional concurrency', { concurrency: 1.5 }, 'RangeError', 'Expected `concurrency` to be an integer >= 1, got `1.5` (number)'],
    [
      'maxBatchSize 0',
      { batching: { maxBatchSize: 0 } },
      'RangeError',
      'Expected `batching.maxBatchSize` to be an integer >= 1, got `0` (number)',
    ],
    [
      'a batching option at the top level, where it would be ignored',
      { maxBatchSize: 8 },
      'TypeError',
      'Expected `maxBatchSize` to be given under `batching` (batching: { maxBatchSize: … }), got `8` (number)',
    ],
    [
      'a provider list',
      { session: { executionProviders: ['cuda', 'cpu'] } },
      'RangeError',
      "Expected `session.executionProviders` to be exactly one provider ('cpu', 'cuda' or { name: 'cuda', deviceId }); for a CPU fallback set `fallback: 'cpu'`, got `[\"cuda\",\"cpu\"]` (array)",
    ],
    [
      'an unknown provider',
      { session: { executionProviders: ['webgpu'] } },
      'RangeError',
      "Expected `session.executionProviders[0]` to be 'cpu', 'cuda' or { name: 'cuda', deviceId }, got `\"webgpu\"` (string)",
    ],
    [
      'a negative device id',
      { session: { executionProviders: [{ name: 'cuda', deviceId: [0, -1] }] } },
      'RangeError',
      'Expected `session.executionProviders[0].deviceId` to be an integer >= 0, got `-1` (number)',
    ],
    [
      'intraOpNumThreads 0',
      { session: { intraOpNumThreads: 0 } },
      'RangeError',
      'Expected `session.intraOpNumThreads` to be an integer >= 1, got `0` (number)',
    ],
    [
      'an unknown optimization level',
      { session: { graphOptimizationLevel: 'max' } },
      'RangeError',
      "Expected `session.graphOptimizationLevel` to be one of 'disabled', 'basic', 'extended', 'all', got `\"max\"` (string)",
    ],
    [
      'a TypeScript worker',
      { worker: '/tmp/worker.ts' },
      'RangeError',
      'Expected `worker` to be a built .js/.mjs/.cjs worker module (build TypeScript workers first), got `"/tmp/worker.ts"` (string)',
    ],
    ['an unknown fallback', { fallback: 'gpu' }, 'RangeError', 'Expected `fallback` to be \'cpu\' or undefined, got `"gpu"` (string)'],
    ['a negative timeout', { timeoutMs: -1 }, 'RangeError', 'Expected `timeoutMs` to be a finite number >= 0, got `-1` (number)'],
    [
      'a padding axis below 0',
      { padding: { input: { axis: -1 } } },
      'RangeError',
      'Expected `padding.input.axis` to be an integer >= 0, got `-1` (number)',
    ],
    [
      'an unknown isolation',
      { isolation: 'vm' },
      'RangeError',
      "Expected `isolation` to be one of 'thread', 'process', got `\"vm\"` (string)",
    ],
    [
      'processes without process isolation',
      { processes: { maxRssMb: 512 } },
      'RangeError',
      'Expected `processes` to be unset unless `isolation` is \'process\', got `{"maxRssMb":512}` (object)',
    ],
    [
      'a memory cap below 1 MiB',
      { isolation: 'process', processes: { maxRssMb: 0 } },
      'RangeError',
      'Expected `processes.maxRssMb` to be a finite number >= 1, got `0` (number)',
    ],
    [
      'a negative idle collection delay',
      { isolation: 'process', processes: { idleCollectMs: -1 } },
      'RangeError',
      'Expected `processes.idleCollectMs` to be an integer in [0, 2147483647], got `-1` (number)',
    ],
    [
      'a fractional idle collection delay',
      { isolation: 'process', processes: { idleCollectMs: 2.5 } },
      'RangeError',
      'Expected `processes.idleCollectMs` to be an integer in [0, 2147483647], got `2.5` (number)',
    ],
    [
      'an idle collection delay no timer can wait',
      { isolation: 'process', processes: { idleCollectMs: 2_147_483_648 } },
      'RangeError',
      'Expected `processes.idleCollectMs` to be an integer in [0, 2147483647], got `2147483648` (number)',
    ],
    [
      'an environment value that is not a string',
      { isolation: 'process', processes: { env: { CUDA_VISIBLE_DEVICES: 0 } } },
      'TypeError',
      'Expected `processes.env.CUDA_VISIBLE_DEVICES` to be a string, got `0` (number)',
    ],
    [
      'an empty list of environments',
      { isolation: 'process', processes: { env: [] } },
      'RangeError',
      'Expected `processes.env` to be an object of variables or a non-empty array of them, got `[]` (array)',
    ],
    [
      'a per-replica environment that is not an object',
      { isolation: 'process', processes: { env: [{}, 'GPU=1'] } },
      'TypeError',
      'Expected `processes.env[1]` to be an object of environment variables, got `"GPU=1"` (string)',
    ],
    [
      'resourceLimits with process isolation',
      { isolation: 'process', resourceLimits: { maxOldGenerationSizeMb: 64 } },
      'RangeError',
      'Expected `resourceLimits` to be unset with `isolation: \'process\'` (limits of worker threads; cap a process with `processes.maxRssMb`), got `{"maxOldGenerationSizeMb":64}` (object)',
    ],
  ]

  it.each(cases)('rejects %s', async (_name, override, type, message) => {
    const error = await createPool({ model: models.demoMlp, ...override } as never).then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toMatchObject({ name: type, message })
  })

  it('rejects padding for an input the model does not have, after loading, and leaves no pool behind', async () => {
    const error = await createPool({ model: models.demoMlp, replicas: 1, padding: { tokens: {} } }).then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toMatchObject({
      name: 'RangeError',
      message: 'Expected `padding` keys to be input names of the model (input), got `tokens`',
    })
  })

  it('rejects padding along an axis that is not dynamic', async () => {
    const error = await createPool({ model: models.demoMlp, replicas: 1, padding: { input: {} } }).then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toMatchObject({
      name: 'RangeError',
      message: 'Expected `padding.input.axis` to be a dynamic axis of the row (dims without batch: [256]), got `0`',
    })
  })

  it("passes the batcher's own options to DynamicBatcher, which validates them", async () => {
    const error = await createPool({ model: models.demoMlp, replicas: 1, batching: { maxWaitMs: -5 } }).then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toBeInstanceOf(RangeError)
    expect((error as Error).message).toContain('maxWaitMs')
    expect((error as Error).message).toContain('-5')
  })
})
