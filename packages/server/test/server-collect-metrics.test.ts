/**
 * `collectMetrics`: what `GET /metrics` answers (`inferpool serve --processes` sets it to
 * the aggregate of every process). Real pool, real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Registry } from 'prom-client'
import { createPool } from '@inferpool/host'
import { createRequestHandler, serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { demoModel, http } from './server-helpers.js'

let demo: Pool
const servers: InferpoolServer[] = []
beforeAll(async () => {
  demo = await createPool({ model: demoModel, replicas: 1 })
})
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  await demo.close()
})

describe('collectMetrics', () => {
  it("answers /metrics with what it returns, given the handler's own registry", async () => {
    const given: Registry[] = []
    const s = await serve(
      { demo },
      {
        port: 0,
        closePools: false,
        collectMetrics: async (registry) => {
          given.push(registry)
          return `${await registry.metrics()}other_process_metric 7\n`
        },
      },
    )
    servers.push(s)
    const res = await http(`${s.url}/metrics`)
    expect(res.status).toBe(200)
    expect(res.text).toContain('inferpool_queue_length{model="demo"} 0')
    expect(res.text.endsWith('other_process_metric 7\n')).toBe(true)
    expect(given).toEqual([s.handler.registry])
  })

  it('answers 500 when it fails, and the next scrape is unaffected', async () => {
    let fail = true
    const errors: unknown[] = []
    const s = await serve(
      { demo },
      {
        port: 0,
        closePools: false,
        logger: { error: (...args: unknown[]) => errors.push(args), info: () => {} },
        collectMetrics: (registry) => (fail ? Promise.reject(new Error('primary gone')) : registry.metrics()),
      },
    )
    servers.push(s)
    const res = await http(`${s.url}/metrics`)
    expect([res.status, res.json]).toEqual([500, { error: 'Internal server error', code: 'ERR_INTERNAL' }])
    expect(errors).toHaveLength(1)
    fail = false
    expect((await http(`${s.url}/metrics`)).status).toBe(200)
  })

  it('must be a function', () => {
    expect(() => createRequestHandler({ demo }, { collectMetrics: 'text' as never })).toThrow(
      new TypeError('Expected `collectMetrics` to be a function, got `"text"` (string)'),
    )
  })
})
