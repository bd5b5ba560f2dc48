/**
 * Deadline-aware formation end to end (`batching.formation: 'deadline'`) on real
 * replicas, HTTP and gRPC on 127.0.0.1. The pool's latency model is injected, so that
 * what the scheduler believes of the run time is known exactly: timing never decides
 * an assertion.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { DeadlineExceededError, LatencyModel } from '@inferpool/core'
import { createPool, resolvePoolOptions } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool, PoolOptions } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { grpc, grpcClient, rawBytes } from './grpc-helpers.js'
import type { Message, TestClient } from './grpc-helpers.js'
import { demoModel, demoRequest, demoRows, post } from './server-helpers.js'
import { DeadlineHandOff } from '../../host/src/pool/hand-off.js'

const pools: Pool[] = []
const servers: InferpoolServer[] = []
const clients: TestClient[] = []
afterAll(async () => {
  for (const client of clients) client.close()
  await Promise.all(servers.map((s) => s.close()))
  await Promise.all(pools.map((p) => p.close()))
})

const quiet = { error() {}, info() {}, warn() {} }

/** A latency model that believes every batch of up to 8 rows takes `ms`. */
function believing(ms: number): LatencyModel {
  const model = new LatencyModel({ warmupRuns: 0 })
  for (let n = 1; n <= 8; n++) model.record(n, ms)
  return model
}

/**
 * The demo model with deadline formation, believing a batch takes 10 s (`more`: further
 * pool options). A request the model calls hopeless is let in as a probe only after as
 * long as its fastest batch of one (10 s) with nothing run: the refusals below do not
 * depend on how long a busy machine takes between the pool's start and the request.
 */
async function slowBelievingPool(more: Partial<PoolOptions> = {}): Promise<Pool> {
  const pool = await createPool({
    model: demoModel,
    replicas: 1,
    logger: quiet,
    batching: { formation: 'deadline', maxBatchSize: 8, latencyModel: believing(10_000) },
    ...more,
  })
  pools.push(pool)
  return pool
}

async function server(models: Parameters<typeof serve>[0], options: Parameters<typeof serve>[1] = {}) {
  const s = await serve(models, { port: 0, grpcPort: 0, closePools: false, logger: quiet, ...options })
  servers.push(s)
  const client = grpcClient(s.grpcAddress as string)
  clients.push(client)
  return { url: s.url as string, client }
}

function demoInfer(rows: number[][], model: string): Message {
  return {
    model_name: model,
    inputs: [{ name: 'input', datatype: 'FP32', shape: [rows.length, 256] }],
    raw_input_contents: [rawBytes(Float32Array.from(rows.flat()))],
  }
}

describe('deadline formation on a real pool', () => {
  it('fails a queued row at once with DeadlineExceededError when even the fastest run measured can no longer make it', async () => {
    const model = believing(10_000)
    const pool = await createPool({
      model: demoModel,
      replicas: 1,
      logger: quiet,
      batching: { formation: 'deadline', maxBatchSize: 8, latencyModel: model },
    })
    pools.push(pool)
    // Admitted: 10 s of run time fits 20 s. Before its batch forms, every run of the
    // window is measured at 30 s (the machine slowed down): even the fastest misses its
    // deadline, and it is not run.
    const late = pool.infer({ input: { data: Float32Array.from(demoRows(1, 1)[0]), dims: [256] } }, { timeoutMs: 20_000 })
    for (let i = 0; i < 10; i++) model.record(1, 30_000)
    const error = await late.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(DeadlineExceededError)
    expect(error).toMatchObject({ code: 'ERR_DEADLINE_EXCEEDED' })
    expect(pool.stats).toMatchObject({ timedOut: 1, batches: 0, completed: 0 })
  })
})

describe('the latency model told when callers saw their answers', () => {
  /** A latency model that keeps what `delivered` is told. */
  function listening(told: number[]): LatencyModel {
    return new (class extends LatencyModel {
      override delivered(ms: number): void {
        told.push(ms)
        super.delivered(ms)
      }
    })()
  }

  it.each([
    ['deadline', 3],
    ['count', 0],
  ] as const)('is told once per batch run with formation %s: %i times for 3 batches', async (formation, times) => {
    const told: number[] = []
    const pool = await createPool({
      model: demoModel,
      replicas: 1,
      logger: quiet,
      batching: { formation, maxBatchSize: 8, latencyModel: listening(told) },
    })
    pools.push(pool)
    for (let i = 0; i < 3; i++) {
      await pool.infer({ input: { data: Float32Array.from(demoRows(i + 1, 1)[0]), dims: [256] } }, { timeoutMs: 60_000 })
      // The pool tells the model at the end of the turn in which it handed the answers
      // back, once for every batch answered in that turn. Without a turn boundary here
      // the next batch's answer can arrive in the same turn: Node reads a worker's
      // messages in one loop, including those that arrive while it reads.
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(pool.stats.batches).toBe(3)
    expect(told).toHaveLength(times)
    expect(told.filter((ms) => ms >= 0)).toHaveLength(times)
  })

  it('is told once per turn of the event loop, for every batch answered in it', async () => {
    const told: number[] = []
    const handOff = new DeadlineHandOff(listening(told))
    // Two replicas' answers in one turn: one wait, which the model gives to both batches.
    handOff.answered()
    handOff.answered()
    await new Promise((resolve) => setImmediate(resolve))
    expect(told).toHaveLength(1)
    handOff.answered()
    await new Promise((resolve) => setImmediate(resolve))
    expect(told).toHaveLength(2)
  })
})

describe("HTTP parameters.timeout (Triton's schedule-policy extension, in microseconds)", () => {
  it('refuses at once with 503, ERR_DEADLINE_UNATTAINABLE and Retry-After a request whose timeout is shorter than the estimated drain', async () => {
    const { url } = await server({ slow: await slowBelievingPool() })
    const refused = await post(`${url}/v2/models/slow/infer`, demoRequest(demoRows(2, 1), { parameters: { timeout: 5_000_000 } }))
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('10')
    expect((refused.json as { error: string; code: string }).code).toBe('ERR_DEADLINE_UNATTAINABLE')
    // 60 s leaves room for the believed 10 s: admitted and answered.
    const answered = await post(`${url}/v2/models/slow/infer`, demoRequest(demoRows(3, 1), { parameters: { timeout: 60_000_000 } }))
    expect(answered.status).toBe(200)
    // No timeout at all: no deadline, never refused for one.
    expect((await post(`${url}/v2/models/slow/infer`, demoRequest(demoRows(4, 1)))).status).toBe(200)
  })

  it("takes the server's timeoutMs as the deadline of a request that gives none, and the shorter of the two otherwise", async () => {
    const { url } = await server({ slow: await slowBelievingPool() }, { timeoutMs: 5_000 })
    const byDefault = await post(`${url}/v2/models/slow/infer`, demoRequest(demoRows(5, 1)))
    expect(byDefault.status).toBe(503)
    expect((byDefault.json as { code: string }).code).toBe('ERR_DEADLINE_UNATTAINABLE')
    const longer = await post(`${url}/v2/models/slow/infer`, demoRequest(demoRows(6, 1), { parameters: { timeout: 60_000_000 } }))
    expect((longer.json as { code: string }).code).toBe('ERR_DEADLINE_UNATTAINABLE')
  })

  it('answers 400 for a timeout that is not a whole number of microseconds >= 0', async () => {
    const { url } = await server({ slow: await slowBelievingPool() })
    for (const timeout of [-1, 1.5, '100']) {
      const res = await post(`${url}/v2/models/slow/infer`, demoRequest(demoRows(7, 1), { parameters: { timeout } }))
      expect(res.status).toBe(400)
      expect(res.json).toMatchObject({ code: 'ERR_INVALID_INPUT' })
      expect((res.json as { error: string }).error).toContain("'parameters.timeout' must be an integer >= 0 (microseconds), got")
    }
  })
})

describe('gRPC deadline', () => {
  it('is the deadline of the rows: UNAVAILABLE with ERR_DEADLINE_UNATTAINABLE when shorter than the estimated drain', async () => {
    const { client } = await server({ slow: await slowBelievingPool() })
    const refused = await client.call('ModelInfer', demoInfer(demoRows(8, 1), 'slow'), { deadlineMs: 5_000 })
    expect(refused.ok ? 'ok' : [refused.code, refused.metadata['inferpool-code']]).toEqual([
      grpc.status.UNAVAILABLE,
      'ERR_DEADLINE_UNATTAINABLE',
    ])
    const answered = await client.call('ModelInfer', demoInfer(demoRows(9, 1), 'slow'), { deadlineMs: 60_000 })
    expect(answered.ok).toBe(true)
  })

  it("reads Triton's timeout request parameter (int64, microseconds) as over HTTP", async () => {
    const { client } = await server({ slow: await slowBelievingPool() })
    const withTimeout = (seed: number, timeout: Message): Message => ({ ...demoInfer(demoRows(seed, 1), 'slow'), parameters: { timeout } })
    const refused = await client.call('ModelInfer', withTimeout(11, { int64_param: 5_000_000 }))
    expect(refused.ok ? 'ok' : [refused.code, refused.metadata['inferpool-code']]).toEqual([
      grpc.status.UNAVAILABLE,
      'ERR_DEADLINE_UNATTAINABLE',
    ])
    expect((await client.call('ModelInfer', withTimeout(12, { int64_param: 60_000_000 }))).ok).toBe(true)
    const wrong = await client.call('ModelInfer', withTimeout(13, { string_param: '100' }))
    expect(wrong.ok ? 'ok' : [wrong.code, wrong.details]).toEqual([
      grpc.status.INVALID_ARGUMENT,
      "'parameters.timeout' must be an integer >= 0 (microseconds), got '100'",
    ])
  })
})

/**
 * Two priority levels: level 1 has a 5 s timeout, shorter than the believed 10 s run, so
 * its requests are refused at the door; level 2 (the default) has none.
 */
function levelsPool(): Promise<Pool> {
  return slowBelievingPool({
    priorityLevels: 2,
    defaultPriorityLevel: 2,
    priorityQueuePolicy: { 1: { defaultTimeoutMicroseconds: 5_000_000 } },
  })
}

describe("HTTP parameters.priority (Triton's schedule-policy extension: a level, 1 the highest)", () => {
  it("puts the request on that level, under the level's queue policy, and answers 400 for a level that is not an integer >= 0", async () => {
    const pool = await levelsPool()
    const { url } = await server({ levels: pool })
    const first = await post(`${url}/v2/models/levels/infer`, demoRequest(demoRows(7, 1), { parameters: { priority: 1 } }))
    expect([first.status, (first.json as { code: string }).code]).toEqual([503, 'ERR_DEADLINE_UNATTAINABLE'])
    expect((await post(`${url}/v2/models/levels/infer`, demoRequest(demoRows(8, 1), { parameters: { priority: 2 } }))).status).toBe(200)
    // 0 is the default level, as no priority at all.
    expect((await post(`${url}/v2/models/levels/infer`, demoRequest(demoRows(9, 1), { parameters: { priority: 0 } }))).status).toBe(200)
    for (const priority of [-1, 1.5, '1']) {
      const bad = await post(`${url}/v2/models/levels/infer`, demoRequest(demoRows(10, 1), { parameters: { priority } }))
      expect(bad.status).toBe(400)
      expect((bad.json as { error: string }).error).toContain("'parameters.priority' must be an integer >= 0")
    }
  })
})

describe("gRPC parameters.priority (as Triton's clients send it: an int64 parameter)", () => {
  it('puts the request on that level, as over HTTP, and answers INVALID_ARGUMENT for a level that is not an integer', async () => {
    const pool = await levelsPool()
    const { client } = await server({ levels: pool })
    const withPriority = (seed: number, rows: number, priority: Message): Message => ({
      ...demoInfer(demoRows(seed, rows), 'levels'),
      parameters: { priority },
    })
    for (const rows of [1, 3]) {
      const refused = await client.call('ModelInfer', withPriority(20 + rows, rows, { int64_param: 1 }))
      expect(refused.ok ? 'ok' : [refused.code, refused.metadata['inferpool-code']]).toEqual([
        grpc.status.UNAVAILABLE,
        'ERR_DEADLINE_UNATTAINABLE',
      ])
      expect((await client.call('ModelInfer', withPriority(30 + rows, rows, { uint64_param: 2 }))).ok).toBe(true)
    }
    const wrong = await client.call('ModelInfer', withPriority(40, 1, { string_param: '1' }))
    expect(wrong.ok ? 'ok' : [wrong.code, wrong.details]).toEqual([
      grpc.status.INVALID_ARGUMENT,
      "'parameters.priority' must be an integer >= 0 (a priority level, 1 the highest), got '1'",
    ])
  })
})

describe("Triton's queue policy (createPool's queuePolicy)", () => {
  async function policyPool(queuePolicy: Parameters<typeof createPool>[0]['queuePolicy']): Promise<Pool> {
    const pool = await createPool({
      model: demoModel,
      replicas: 1,
      logger: quiet,
      queuePolicy,
      batching: { formation: 'deadline', maxBatchSize: 8, latencyModel: believing(10_000) },
    })
    pools.push(pool)
    return pool
  }
  const row = () => ({ input: { data: Float32Array.from(demoRows(10, 1)[0]), dims: [256] } })
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'answered',
      (e: { code?: string }) => e.code,
    )

  it('gives every row the default timeout, and lets a request only shorten it, with allowTimeoutOverride', async () => {
    // A 60 s default against a believed 10 s run: let in.
    const strict = await policyPool({ defaultTimeoutMicroseconds: 60_000_000 })
    expect(await codeOf(strict.infer(row()))).toBe('answered')
    // Without override, a request's own 5 s timeout is ignored.
    expect(await codeOf(strict.infer(row(), { timeoutMs: 5_000 }))).toBe('answered')
    const lenient = await policyPool({ defaultTimeoutMicroseconds: 5_000_000, allowTimeoutOverride: true })
    expect(await codeOf(lenient.infer(row()))).toBe('ERR_DEADLINE_UNATTAINABLE')
    // As in Triton, an override may shorten the default, never lengthen it.
    expect(await codeOf(lenient.infer(row(), { timeoutMs: 60_000 }))).toBe('ERR_DEADLINE_UNATTAINABLE')
    const open = await policyPool({ allowTimeoutOverride: true })
    expect(await codeOf(open.infer(row(), { timeoutMs: 5_000 }))).toBe('ERR_DEADLINE_UNATTAINABLE')
    expect(await codeOf(open.infer(row(), { timeoutMs: 60_000 }))).toBe('answered')
  })

  it('bounds the queue by maxQueueSize (0: unbounded) and maps the default timeout to ms', () => {
    const bounded = resolvePoolOptions({ model: 'm.onnx', queuePolicy: { maxQueueSize: 3, defaultTimeoutMicroseconds: 2_500 } })
    expect(bounded.batching.maxQueueSize).toBe(3)
    expect(bounded.queuePolicies?.submitOptions({ timeoutMs: 60_000 }, 0)).toEqual({ priority: 0, timeoutMs: 2.5 })
    const unbounded = resolvePoolOptions({ model: 'm.onnx', queuePolicy: { maxQueueSize: 0 } })
    expect([unbounded.batching.maxQueueSize, unbounded.queuePolicies?.submitOptions({}, 0)]).toEqual([undefined, { priority: 0 }])
    expect(resolvePoolOptions({ model: 'm.onnx', timeoutMs: 7 })).toMatchObject({ timeoutMs: 7, queuePolicies: undefined })
  })

  it('refuses what it cannot honour, and a policy given together with the options it replaces', () => {
    const cases: Array<[Parameters<typeof createPool>[0], string]> = [
      [
        { model: 'm.onnx', queuePolicy: { timeoutAction: 'drop' as 'reject' } },
        "Expected `queuePolicy.timeoutAction` to be 'reject' or 'delay', got `\"drop\"` (string)",
      ],
      [
        { model: 'm.onnx', queuePolicy: {}, timeoutMs: 5 },
        'Expected `timeoutMs` to be unset with `queuePolicy` (its defaultTimeoutMicroseconds), got `5` (number)',
      ],
      [
        { model: 'm.onnx', queuePolicy: {}, batching: { maxQueueSize: 5 } },
        'Expected `batching.maxQueueSize` to be unset with `queuePolicy` (its maxQueueSize), got `5` (number)',
      ],
      [
        { model: 'm.onnx', queuePolicy: { maxQueueSize: -1 } },
        'Expected `queuePolicy.maxQueueSize` to be an integer >= 0, got `-1` (number)',
      ],
      [
        { model: 'm.onnx', queuePolicy: { allowTimeoutOverride: 'yes' as unknown as boolean } },
        'Expected `queuePolicy.allowTimeoutOverride` to be a boolean, got `"yes"` (string)',
      ],
    ]
    for (const [options, message] of cases) expect(() => resolvePoolOptions(options)).toThrow(message)
  })
})
