/**
 * Several versions of one model behind one name (protocol/served-models.ts), over real
 * HTTP and gRPC servers on 127.0.0.1: `/v2/models/{m}/versions/{v}/…` and gRPC's
 * `model_version` reach that version, no version reaches the newest ready one, and
 * metadata, readiness, config and statistics answer per version. The versions are two
 * different models (demo-mlp: `input` [n, 256]; poison: `x` [n, 4]), so a request that
 * reached the wrong one would fail its decode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { grpcClient, rawBytes } from './grpc-helpers.js'
import type { TestClient } from './grpc-helpers.js'
import { demoModel, demoRequest, demoRows, http, metric, post, repoModel } from './server-helpers.js'

const quiet = { error() {}, info() {}, warn() {} }
const pools: Pool[] = []
let server: InferpoolServer
let url: string
let client: TestClient

beforeAll(async () => {
  const v1 = await createPool({ model: demoModel, replicas: 1, logger: quiet })
  const v2 = await createPool({ model: repoModel('poison.onnx'), replicas: 1, logger: quiet })
  pools.push(v1, v2)
  const failed = Promise.reject(new Error('version 3 does not load'))
  server = await serve(
    {
      m: new Map<string, Pool | Promise<Pool>>([
        ['1', v1],
        ['2', v2],
        ['3', failed],
      ]),
      single: v1,
    },
    { port: 0, grpcPort: 0, closePools: false, logger: quiet },
  )
  url = server.url as string
  client = grpcClient(server.grpcAddress as string)
})

afterAll(async () => {
  client.close()
  await server.destroy()
  await Promise.all(pools.map((p) => p.close({ drain: false })))
})

const poisonRequest = { inputs: [{ name: 'x', shape: [1, 4], datatype: 'FP32', data: [1, 2, 3, 4] }] }

describe('model versions', () => {
  it('reaches the named version over HTTP, and the newest ready one when none is named', async () => {
    const [v1, v2, none] = await Promise.all([
      post(`${url}/v2/models/m/versions/1/infer`, demoRequest(demoRows(1, 1))),
      post(`${url}/v2/models/m/versions/2/infer`, poisonRequest),
      post(`${url}/v2/models/m/infer`, poisonRequest),
    ])
    expect([v1.status, (v1.json as { model_version: string }).model_version]).toEqual([200, '1'])
    expect(v2.status).toBe(200)
    expect(v2.json).toEqual({
      model_name: 'm',
      model_version: '2',
      outputs: (v2.json as { outputs: unknown }).outputs,
    })
    expect(none.json).toEqual(v2.json)
  })

  it('reaches the named version over gRPC, and the newest ready one when none is named', async () => {
    const demo = {
      model_name: 'm',
      model_version: '1',
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256] }],
      raw_input_contents: [rawBytes(Float32Array.from(demoRows(2, 1).flat()))],
    }
    const poison = {
      model_name: 'm',
      inputs: [{ name: 'x', datatype: 'FP32', shape: [1, 4] }],
      raw_input_contents: [rawBytes(Float32Array.from([1, 2, 3, 4]))],
    }
    const [v1, none, v2] = await Promise.all([
      client.call('ModelInfer', demo),
      client.call('ModelInfer', poison),
      client.call('ModelInfer', { ...poison, model_version: '2' }),
    ])
    expect(v1.ok && [v1.response.model_name, v1.response.model_version]).toEqual(['m', '1'])
    expect(none.ok && [none.response.model_name, none.response.model_version]).toEqual(['m', '2'])
    expect(v2.ok && v2.response.model_version).toBe('2')
  })

  it('answers metadata, readiness, config and statistics per version', async () => {
    const [meta1, meta, ready1, ready3, config2, stats1] = await Promise.all([
      http(`${url}/v2/models/m/versions/1`),
      http(`${url}/v2/models/m`),
      http(`${url}/v2/models/m/versions/1/ready`),
      http(`${url}/v2/models/m/versions/3/ready`),
      http(`${url}/v2/models/m/versions/2/config`),
      http(`${url}/v2/models/m/versions/1/stats`),
    ])
    const metadata1 = meta1.json as { name: string; versions: string[]; inputs: Array<{ name: string }> }
    expect([metadata1.name, metadata1.versions, metadata1.inputs.map((i) => i.name)]).toEqual(['m', ['1', '2', '3'], ['input']])
    const metadata = meta.json as { versions: string[]; inputs: Array<{ name: string }> }
    expect([metadata.versions, metadata.inputs.map((i) => i.name)]).toEqual([['1', '2', '3'], ['x']])
    expect([ready1.status, ready1.json]).toEqual([200, { name: 'm', ready: true }])
    expect([ready3.status, ready3.json]).toEqual([400, { name: 'm', ready: false }])
    expect((config2.json as { input: Array<{ name: string }> }).input.map((i) => i.name)).toEqual(['x'])
    const stats = (stats1.json as { model_stats: Array<{ name: string; version: string }> }).model_stats
    expect(stats.map((s) => [s.name, s.version])).toEqual([['m', '1']])

    const [grpcReady2, grpcReady3, grpcMeta2] = await Promise.all([
      client.call('ModelReady', { name: 'm', version: '2' }),
      client.call('ModelReady', { name: 'm', version: '3' }),
      client.call('ModelMetadata', { name: 'm', version: '2' }),
    ])
    expect([grpcReady2, grpcReady3]).toEqual([
      { ok: true, response: { ready: true } },
      { ok: true, response: { ready: false } },
    ])
    expect(grpcMeta2.ok && [grpcMeta2.response.versions, grpcMeta2.response.inputs.map((i: { name: string }) => i.name)]).toEqual([
      ['1', '2', '3'],
      ['x'],
    ])
  })

  it('lists every loaded version in the statistics of all models, and one version for a model given as one pool', async () => {
    const all = await http(`${url}/v2/models/stats`)
    const stats = (all.json as { model_stats: Array<{ name: string; version: string }> }).model_stats
    expect(stats.map((s) => `${s.name}/${s.version}`).sort()).toEqual(['m/1', 'm/2', 'single/1'])
  })

  it('refuses a version not served, and a failed one with its state, on both protocols', async () => {
    const [missing, failed] = await Promise.all([
      post(`${url}/v2/models/m/versions/4/infer`, poisonRequest),
      post(`${url}/v2/models/m/versions/3/infer`, poisonRequest),
    ])
    expect([missing.status, (missing.json as { code: string; error: string }).code, (missing.json as { error: string }).error]).toEqual([
      404,
      'ERR_MODEL_NOT_FOUND',
      "Unknown model 'm' version '4'",
    ])
    expect([failed.status, (failed.json as { code: string }).code, (failed.json as { error: string }).error]).toEqual([
      503,
      'ERR_MODEL_NOT_READY',
      "Model 'm' version '3' is not ready",
    ])
    // Readiness of a version not served is false, not an error (as Triton).
    expect(await client.call('ModelReady', { name: 'm', version: '4' })).toEqual({ ok: true, response: { ready: false } })
  })

  it('sums the pool metrics of a model over its loaded versions', async () => {
    const text = (await http(`${url}/metrics`)).text
    expect([metric(text, 'inferpool_replicas', { model: 'm' }), metric(text, 'inferpool_replicas', { model: 'single' })]).toEqual([2, 1])
  })

  it('refuses versions that are not positive integers', async () => {
    const { ServedModels } = await import('@inferpool/server')
    expect(() => new ServedModels({ m: new Map([['v1', pools[0]]]) })).toThrow(
      'Expected the versions of `pools.m` to be positive integers, got `v1`',
    )
    expect(() => new ServedModels({ m: new Map() })).toThrow('Expected `pools.m` to hold at least one version, got none')
  })

  it('checks every version of a replace before it changes anything: a replace that throws leaves the old versions serving', async () => {
    const served = server.handler.served
    const [v1, v2] = pools
    const bad: Array<[string, ReadonlyMap<string, Pool>]> = [
      [
        'Expected the versions of `pools.single` to be positive integers, got `x`',
        new Map([
          ['1', v2],
          ['x', v1],
        ]),
      ],
      [
        'Expected `pools.single` to be a pool or a promise of one, got `null`',
        new Map([
          ['2', v2],
          ['1', null as unknown as Pool],
        ]),
      ],
    ]
    for (const [message, versions] of bad) {
      await expect(served.replace('single', versions)).rejects.toThrow(message)
      const answer = await post(`${url}/v2/models/single/infer`, demoRequest(demoRows(2, 1)))
      expect([
        answer.status,
        (answer.json as { model_version: string }).model_version,
        served.versionsOf(served.model('single', undefined)),
      ]).toEqual([200, '1', ['1']])
    }
  })

  it('counts requests, their durations, rows and failures per version, on both protocols', async () => {
    const read = async (): Promise<number[]> => {
      const text = (await http(`${url}/metrics`)).text
      return [
        metric(text, 'inferpool_requests_total', { model: 'm', version: '1', protocol: 'http', status: '200' }),
        metric(text, 'inferpool_requests_total', { model: 'm', version: '2', protocol: 'http', status: '200' }),
        metric(text, 'inferpool_requests_total', { model: 'm', version: '2', protocol: 'grpc', status: 'OK' }),
        metric(text, 'inferpool_request_duration_seconds_count', { model: 'm', version: '1', protocol: 'http' }),
        metric(text, 'inferpool_request_duration_seconds_count', { model: 'm', version: '2', protocol: 'grpc' }),
        metric(text, 'inferpool_request_rows_sum', { model: 'm', version: '1', protocol: 'http' }),
        metric(text, 'inferpool_request_errors_total', { model: 'm', version: '2', protocol: 'http', code: 'ERR_INVALID_INPUT' }),
      ].map((v) => v ?? 0)
    }
    const before = await read()
    for (let i = 0; i < 3; i++) expect((await post(`${url}/v2/models/m/versions/1/infer`, demoRequest(demoRows(i, 2)))).status).toBe(200)
    expect((await post(`${url}/v2/models/m/versions/2/infer`, poisonRequest)).status).toBe(200)
    const grpcAnswer = await client.call('ModelInfer', {
      model_name: 'm',
      model_version: '2',
      inputs: [{ name: 'x', datatype: 'FP32', shape: [1, 4] }],
      raw_input_contents: [rawBytes(Float32Array.from([1, 2, 3, 4]))],
    })
    expect(grpcAnswer.ok).toBe(true)
    const wrong = await post(`${url}/v2/models/m/versions/2/infer`, {
      inputs: [{ name: 'x', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] }],
    })
    expect([wrong.status, (wrong.json as { code: string }).code]).toEqual([400, 'ERR_INVALID_INPUT'])
    const after = await read()
    expect(after.map((v, i) => v - before[i])).toEqual([3, 1, 1, 3, 1, 6, 1])
  })
})
