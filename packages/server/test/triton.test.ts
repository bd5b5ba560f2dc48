import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { modelConfigOf, TritonStatsCollector } from '@inferpool/server'
import type { BatchTimingsEvent, Pool } from '@inferpool/host'
import { demoModel, demoRows, repoModel } from './server-helpers.js'

const pools: Pool[] = []
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
})

let multi: Pool
let demo: Pool
beforeAll(async () => {
  ;[multi, demo] = await Promise.all([
    createPool({ model: repoModel('multi-io.onnx'), replicas: 2, batching: { maxBatchSize: 8, maxWaitMs: 1.5 } }),
    createPool({ model: demoModel, replicas: 1, batching: { maxBatchSize: 16 } }),
  ])
  pools.push(multi, demo)
})

describe("Triton's model configuration", () => {
  it('describes a pool as ModelConfig: TYPE_* datatypes, dims without the batch dim, batching and instances', () => {
    expect(modelConfigOf('multi', multi)).toEqual({
      name: 'multi',
      platform: 'onnxruntime_onnx',
      backend: 'onnxruntime',
      version_policy: { latest: { num_versions: 1 } },
      max_batch_size: 8,
      input: [
        {
          name: 'a',
          data_type: 'TYPE_FP32',
          format: 'FORMAT_NONE',
          dims: [3],
          is_shape_tensor: false,
          allow_ragged_batch: false,
          optional: false,
        },
        {
          name: 'b',
          data_type: 'TYPE_INT32',
          format: 'FORMAT_NONE',
          dims: [2],
          is_shape_tensor: false,
          allow_ragged_batch: false,
          optional: false,
        },
      ],
      output: [
        { name: 'a_scaled', data_type: 'TYPE_FP32', dims: [3], label_filename: '', is_shape_tensor: false },
        { name: 'b_sum', data_type: 'TYPE_FP64', dims: [], label_filename: '', is_shape_tensor: false },
      ],
      dynamic_batching: { preferred_batch_size: [8], max_queue_delay_microseconds: 1500, preserve_ordering: false },
      instance_group: [{ name: 'multi_0', kind: 'KIND_CPU', count: 2, gpus: [], passive: false }],
    })
  })

  it('writes dynamic row axes as -1', async () => {
    const tokens = await createPool({ model: repoModel('token-pool.onnx'), replicas: 1 })
    pools.push(tokens)
    const config = modelConfigOf('tokens', tokens)
    expect(config.input.map((i) => [i.name, i.data_type, i.dims])).toEqual([
      ['input_ids', 'TYPE_INT64', [-1]],
      ['attention_mask', 'TYPE_INT64', [-1]],
    ])
    expect(config.output.map((o) => [o.name, o.dims])).toEqual([
      ['token_embeddings', [-1, 8]],
      ['pooled', [8]],
    ])
  })
})

describe("Triton's statistics, fed by the pool's real timings", () => {
  it('counts executions, rows per batch size and queue waits of a known workload', async () => {
    let clock = 1_700_000_000_000
    const collector = new TritonStatsCollector(() => clock)
    const timings: BatchTimingsEvent[] = []
    const unsubscribe = demo.observe(collector.observer)
    const unsubscribeTimings = demo.observe({ onBatchTimings: (event) => timings.push(event) })
    try {
      // One replica and each burst awaited: batches of exactly 1, 2 and 3 rows.
      let seed = 1
      for (const size of [1, 2, 3]) {
        const rows = demoRows(seed++, size)
        await Promise.all(rows.map((row) => demo.infer({ input: Float32Array.from(row) })))
      }
      collector.request({ ok: true, rows: 3, durationNs: 5_000 })
      clock += 10
      collector.request({ ok: false, rows: 1, durationNs: 700 })

      const stats = collector.snapshot('demo', '1')
      expect(stats.name).toBe('demo')
      expect(stats.version).toBe('1')
      expect(stats.last_inference).toBe(1_700_000_000_010)
      expect(stats.inference_count).toBe(3)
      expect(stats.execution_count).toBe(3)
      expect(stats.inference_stats.success).toEqual({ count: 1, ns: 5_000 })
      expect(stats.inference_stats.fail).toEqual({ count: 1, ns: 700 })
      expect(stats.inference_stats.cache_hit).toEqual({ count: 0, ns: 0 })
      // Every row waited in the queue once and counts its batch's compute once.
      expect(stats.inference_stats.queue.count).toBe(6)
      for (const phase of ['compute_input', 'compute_infer', 'compute_output'] as const) {
        expect(stats.inference_stats[phase].count).toBe(6)
      }
      expect(stats.batch_stats.map((b) => [b.batch_size, b.compute_infer.count])).toEqual([
        [1, 1],
        [2, 1],
        [3, 1],
      ])

      // The ns are the pool's own timings: per batch size, exactly what the pool reported.
      expect(timings.map((t) => t.rows)).toEqual([1, 2, 3])
      for (const t of timings) {
        const entry = stats.batch_stats.find((b) => b.batch_size === t.rows)
        expect(entry?.compute_input.ns).toBe(Math.round(t.inputMs * 1e6))
        expect(entry?.compute_infer.ns).toBe(Math.round(t.inferMs * 1e6))
        expect(entry?.compute_output.ns).toBe(Math.round(t.outputMs * 1e6))
        expect(t.inferMs).toBeGreaterThan(0)
      }
      const rowWeighted = timings.reduce((sum, t) => sum + Math.round(t.inferMs * t.rows * 1e6), 0)
      expect(stats.inference_stats.compute_infer.ns).toBe(rowWeighted)
    } finally {
      unsubscribe()
      unsubscribeTimings()
    }
  })
})
