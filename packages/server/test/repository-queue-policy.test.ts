/**
 * A repository config's `dynamic_batching` queue policies (Triton's `default_queue_policy`,
 * `priority_levels`, `default_priority_level`, `priority_queue_policy`) as pool options,
 * and a pool made from them answering by level.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createPool, resolvePoolOptions } from '@inferpool/host'
import { readModel, repositoryPoolOptions } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import { demoModel, demoRows } from './server-helpers.js'

const roots: string[] = []
const pools: Pool[] = []
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()))
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

/** A repository holding model `m` (the demo MLP, version 1) with this config.pbtxt. */
function modelWith(config: string[]) {
  const root = mkdtempSync(join(tmpdir(), 'inferpool-repo-queue-'))
  roots.push(root)
  mkdirSync(join(root, 'm', '1'), { recursive: true })
  writeFileSync(join(root, 'm', 'config.pbtxt'), config.join('\n'))
  copyFileSync(demoModel, join(root, 'm', '1', 'model.onnx'))
  return readModel(root, 'm')
}

const serverDefaults = { replicas: 1, batching: { maxBatchSize: 8, maxQueueSize: 4096 }, timeoutMs: 30_000 }

describe("config.pbtxt's queue policies", () => {
  it('maps default_queue_policy, priority_levels, default_priority_level and priority_queue_policy onto the pool options', () => {
    const model = modelWith([
      'max_batch_size: 8',
      'dynamic_batching {',
      '  default_queue_policy { timeout_action: DELAY default_timeout_microseconds: 250000 allow_timeout_override: true max_queue_size: 32 }',
      '  priority_levels: 2',
      '  default_priority_level: 2',
      '  priority_queue_policy { key: 1 value: { timeout_action: REJECT default_timeout_microseconds: 5000 max_queue_size: 4 } }',
      '}',
    ])
    expect(model.config.ignored).toEqual([])
    const options = repositoryPoolOptions(model, model.versions[0].file, serverDefaults)
    expect(options).toMatchObject({
      // The policies replace the server's default timeout and queue bound.
      timeoutMs: undefined,
      batching: { maxBatchSize: 8 },
      queuePolicy: { timeoutAction: 'delay', defaultTimeoutMicroseconds: 250_000, allowTimeoutOverride: true, maxQueueSize: 32 },
      priorityLevels: 2,
      defaultPriorityLevel: 2,
      priorityQueuePolicy: { 1: { timeoutAction: 'reject', defaultTimeoutMicroseconds: 5000, maxQueueSize: 4 } },
    })
    expect(options.batching?.maxQueueSize).toBeUndefined()
    // And they are valid pool options: level 1 rejects after 5 ms, level 2 delays after 250 ms.
    const policies = resolvePoolOptions(options).queuePolicies!
    expect(policies.submitOptions({}, 1)).toEqual({ priority: -2, timeoutMs: 5 })
    expect(policies.submitOptions({}, policies.levelOf({}))).toEqual({ priority: -4, timeoutMs: 250, delayedPriority: -5 })
  })

  it('keeps a policy of max_queue_size and default_timeout_microseconds alone as the queue bound and default timeout', () => {
    const model = modelWith(['dynamic_batching { default_queue_policy { max_queue_size: 64 default_timeout_microseconds: 1500000 } }'])
    const options = repositoryPoolOptions(model, model.versions[0].file, serverDefaults)
    expect([options.timeoutMs, options.batching?.maxQueueSize, options.queuePolicy]).toEqual([1500, 64, undefined])
  })

  it('still names the dynamic_batching fields it does not honour beside the queue policies it maps', () => {
    const model = modelWith(['dynamic_batching { priority_levels: 1 default_priority_level: 1 preserve_ordering: true }'])
    expect(model.config.ignored).toEqual(['dynamic_batching.preserve_ordering'])
  })

  it('serves the levels of a config in order through a pool made from it', async () => {
    const model = modelWith(['max_batch_size: 1', 'dynamic_batching { priority_levels: 2 default_priority_level: 2 }'])
    const pool = await createPool({
      ...repositoryPoolOptions(model, model.versions[0].file, serverDefaults),
      logger: { info() {}, warn() {} },
    })
    pools.push(pool)
    const order: string[] = []
    const row = () => ({ input: { data: Float32Array.from(demoRows(order.length + 1, 1)[0]), dims: [256] } })
    const send = (label: string, priorityLevel?: number) =>
      pool.infer(row(), priorityLevel === undefined ? {} : { priorityLevel }).then(() => order.push(label))
    await Promise.all([send('default a'), send('1a', 1), send('default b'), send('1b', 1)])
    expect(order).toEqual(['1a', '1b', 'default a', 'default b'])
  })
})
