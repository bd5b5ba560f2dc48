import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { OnlineWatch } from '../src/online-watch.js'
import { DEMO_MODEL, row } from './helpers.js'

const SAMPLE_MS = 20
const QUIET_MS = 1000

let pool: Pool
beforeAll(async () => {
  pool = await createPool({ model: DEMO_MODEL, replicas: 1, batching: { maxBatchSize: 8 } })
})
afterAll(async () => {
  await pool.close()
})

/** A watch on the real pool with a clock the test moves. */
function watch(): { online: OnlineWatch; advance(ms: number): void } {
  let now = 0
  const online = new OnlineWatch(pool, SAMPLE_MS, QUIET_MS, () => now)
  return { online, advance: (ms) => (now += ms) }
}

describe('OnlineWatch', () => {
  it('sees rows that are not the consumer’s: active from the next sample until QUIET_MS after the last one', async () => {
    const { online, advance } = watch()
    expect(online.active).toBe(false) // the first sample only reads where the pool stands
    await Promise.all([pool.infer({ input: row(1) }), pool.infer({ input: row(2) })])
    advance(SAMPLE_MS - 1)
    expect(online.active).toBe(false) // not sampled again yet
    advance(1)
    expect(online.active).toBe(true)
    advance(QUIET_MS - 1)
    expect(online.active).toBe(true)
    advance(1)
    expect(online.active).toBe(false)
  })

  it('does not count the consumer’s own rows as online ones', async () => {
    const { online, advance } = watch()
    expect(online.active).toBe(false)
    online.queued(3)
    await Promise.all([1, 2, 3].map((i) => pool.infer({ input: row(i) })))
    advance(SAMPLE_MS)
    expect(online.active).toBe(false)
    online.queued(1)
    await Promise.all([4, 5].map((i) => pool.infer({ input: row(i) })))
    advance(SAMPLE_MS)
    expect(online.active).toBe(true)
  })

  it('never yields for a pool without synchronous stats (a pool in another thread)', async () => {
    let now = 0
    const remote = { infer: pool.infer.bind(pool), metadata: pool.metadata }
    const online = new OnlineWatch(remote, SAMPLE_MS, QUIET_MS, () => now)
    expect(online.active).toBe(false)
    await remote.infer({ input: row(1) })
    now += SAMPLE_MS
    expect(online.active).toBe(false)
  })
})
