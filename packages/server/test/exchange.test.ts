/**
 * The inference exchange (src/protocol/exchange.ts) on its own, with a minimal binding of
 * the kind HTTP and gRPC give it (a JSON body already in memory), over a real pool and
 * real served models: the counts a shutdown reads are kept by the exchange, whichever
 * protocol a request came by.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import type { DecodedInferRequest } from '../src/protocol/decode.js'
import type { Door } from '../src/protocol/door.js'
import { InferenceExchange } from '../src/protocol/exchange.js'
import { ServedModels } from '../src/protocol/served-models.js'
import type { ServedPool } from '../src/protocol/served-pool.js'
import { decodeInferRequest } from '../src/http/decode-body.js'
import { demoModel, demoRequest, demoRows, until } from './server-helpers.js'

/** A binding whose request is a JSON body already read: its rows counted from its length, its answer the row count. */
class BodyExchange extends InferenceExchange<number> {
  constructor(
    served: ServedModels,
    readonly body: Buffer,
  ) {
    super(served)
  }
  protected doorRows(door: Door): number {
    return door.rowsOfLength(this.body.length)
  }
  protected decode(): DecodedInferRequest {
    return decodeInferRequest(this.body, undefined, (this.pool as ServedPool).metadata, { maxRows: 1024 })
  }
  protected answer(decoded: DecodedInferRequest): number {
    return decoded.rowCount
  }
}

const pools: Pool[] = []
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()))
})

/** A pool whose batches only form once 64 rows wait: rows stay queued until it closes. */
async function waitingPool(): Promise<Pool> {
  const pool = await createPool({ model: demoModel, replicas: 1, batching: { maxBatchSize: 64, minBatchSize: 64, maxWaitMs: 600_000 } })
  pools.push(pool)
  return pool
}

const body = (seed: number): Buffer => Buffer.from(JSON.stringify(demoRequest(demoRows(seed, 1))))

describe('the inference exchange', () => {
  it('holds a request in admitting from its arrival to the pool, then in admitted until its rows are answered', async () => {
    const pool = await waitingPool()
    const served = new ServedModels({ demo: pool })
    const exchange = new BodyExchange(served, body(40))
    expect({ admitting: served.admitting.count, admitted: served.admitted.count }).toEqual({ admitting: 1, admitted: 0 })

    const answered = exchange.run({ model: served.model('demo', undefined), signal: new AbortController().signal })
    await until(() => pool.stats.queued === 1)
    expect({ admitting: served.admitting.count, admitted: served.admitted.count }).toEqual({ admitting: 0, admitted: 1 })

    await pool.close()
    expect(await answered).toBe(1)
    exchange.finish('http', 200, true, undefined)
    expect({ admitting: served.admitting.count, admitted: served.admitted.count }).toEqual({ admitting: 0, admitted: 0 })
    expect(served.statistics()[0].inference_stats.success.count).toBe(1)
  })

  it('refuses a request that arrived once the served models had closed, and one that arrived before is still served', async () => {
    const pool = await createPool({ model: demoModel, replicas: 1 })
    pools.push(pool)
    const served = new ServedModels({ demo: pool })
    const before = new BodyExchange(served, body(41))
    served.close()
    const after = new BodyExchange(served, body(42))
    const model = served.model('demo', undefined)
    const signal = new AbortController().signal

    await expect(after.run({ model, signal })).rejects.toMatchObject({ code: 'ERR_SHUTTING_DOWN' })
    expect(await before.run({ model, signal })).toBe(1)
    expect(served.admitting.count).toBe(0)
    expect(pool.stats.submitted).toBe(1)
  })
})
