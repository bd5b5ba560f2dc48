import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { createPool } from '@inferpool/host'
import type { Pool, RowInput, RowOutput } from '@inferpool/host'
import { models, prng } from './fixtures/models.js'

const WIDTH = 256
const OUT = 16

function row(seed: number): Float32Array {
  const rand = prng(seed)
  return Float32Array.from({ length: WIDTH }, () => rand() * 2 - 1)
}

/** Direct onnxruntime-node, one session in this thread, one row per run. */
async function direct(session: InferenceSession, input: Float32Array): Promise<Float32Array> {
  const out = await session.run({ input: new Tensor('float32', input, [1, WIDTH]) })
  return out.output.data as Float32Array
}

describe('pool results (demo MLP)', () => {
  let pool: Pool<RowInput, RowOutput>
  let session: InferenceSession

  beforeAll(async () => {
    session = await InferenceSession.create(models.demoMlp, { intraOpNumThreads: 1 })
    // Every batch on the replicas: this file is about them (the host session's own tests: pool.host-session.test.ts).
    pool = await createPool({ model: models.demoMlp, replicas: 2, batching: { maxBatchSize: 16 }, hostSession: false })
  })
  afterAll(async () => {
    await pool?.close()
    await session?.release()
  })

  it('states the model, the replicas and the effective max batch size in metadata', () => {
    expect(pool.metadata).toEqual({
      inputs: [{ name: 'input', type: 'float32', dims: ['batch', WIDTH] }],
      outputs: [{ name: 'output', type: 'float32', dims: ['batch', OUT] }],
      maxBatchSize: 16,
      fixedBatchSize: null,
      replicas: 2,
      concurrency: 1,
      executionProvider: 'cpu',
      model: models.demoMlp,
      modelSha256: createHash('sha256').update(readFileSync(models.demoMlp)).digest('hex'),
    })
  })

  it('returns, for every batch size 1..N (each formed exactly once), what direct onnxruntime returns row by row', async () => {
    // One replica, and each burst awaited before the next: a burst of k rows submitted
    // synchronously is formed into one batch in the batcher's microtask, while the
    // replica is free, so the dispatched sizes are exactly 1, 2, ..., N in that order.
    const N = 16
    const single = await createPool({ model: models.demoMlp, replicas: 1, batching: { maxBatchSize: N } })
    try {
      const dispatched: Array<{ size: number; splitDepth: number }> = []
      single.observe({ onDispatch: ({ size, splitDepth }) => dispatched.push({ size, splitDepth }) })
      let seed = 1
      for (let k = 1; k <= N; k++) {
        const burst = Array.from({ length: k }, () => row(seed++))
        const results = await Promise.all(burst.map((input) => single.infer({ input })))
        for (let r = 0; r < k; r++) {
          const got = results[r].output
          expect(got.type).toBe('float32')
          expect(got.dims).toEqual([OUT])
          expect(Array.from(got.data as Float32Array)).toEqual(Array.from(await direct(session, burst[r])))
        }
      }
      const expected = Array.from({ length: N }, (_, i) => i + 1)
      expect(dispatched.map((d) => d.size)).toEqual(expected)
      expect(new Set(dispatched.map((d) => d.size))).toEqual(new Set(expected))
      expect(dispatched.every((d) => d.splitDepth === 0)).toBe(true)
      expect(single.stats.batches).toBe(N)
      expect(single.stats.completed).toBe((N * (N + 1)) / 2)
    } finally {
      await single.close()
    }
  })

  it('keeps every result with its own request under 1,000 concurrent requests submitted with random timing', async () => {
    const rand = prng(42)
    const inputs = Array.from({ length: 1000 }, (_, i) => row(10_000 + i))
    const pending: Array<Promise<RowOutput>> = []
    // Deterministic "random timing": between submissions, yield a random number of
    // microtask and macrotask turns so batches form and finish in between.
    for (let i = 0; i < inputs.length; i++) {
      pending.push(pool.infer({ input: inputs[i] }, { priority: Math.floor(rand() * 3) }))
      const turns = Math.floor(rand() * 4)
      for (let t = 0; t < turns; t++) await (rand() < 0.5 ? Promise.resolve() : new Promise((r) => setImmediate(r)))
    }
    const results = await Promise.all(pending)
    const expected = await session.run({ input: new Tensor('float32', concat(inputs), [inputs.length, WIDTH]) })
    const all = expected.output.data as Float32Array
    for (let i = 0; i < inputs.length; i++) {
      expect(Array.from(results[i].output.data as Float32Array)).toEqual(Array.from(all.subarray(i * OUT, (i + 1) * OUT)))
    }
  })

  it('transfers each batch: the packed input buffer is detached right after dispatch', async () => {
    const sent: Array<{ rows: number; byteLengths: number[] }> = []
    const stop = pool.observe({
      onBatchSent: ({ rows, buffers }) => sent.push({ rows, byteLengths: buffers.map((b) => b.byteLength) }),
    })
    const input = row(7)
    const out = await Promise.all([pool.infer({ input }), pool.infer({ input: row(8) })])
    stop()
    expect(out).toHaveLength(2)
    expect(sent.length).toBeGreaterThan(0)
    for (const batch of sent) expect(batch.byteLengths).toEqual([0])
    // The caller's own array is copied into the batch buffer, never moved.
    expect(input.byteLength).toBe(WIDTH * 4)
  })

  it('hands each row a view into the transferred output buffer of its batch', async () => {
    const ROW_BYTES = OUT * Float32Array.BYTES_PER_ELEMENT
    const sizes: number[] = []
    const stop = pool.observe({ onDispatch: ({ size }) => sizes.push(size) })
    // Three rows submitted synchronously to an idle pool form one batch...
    const [a, b, c] = await Promise.all([pool.infer({ input: row(1) }), pool.infer({ input: row(2) }), pool.infer({ input: row(3) })])
    // ...and one more row, submitted after that batch settled, forms another.
    const d = await pool.infer({ input: row(4) })
    stop()
    expect(sizes).toEqual([3, 1])

    const views = [a, b, c].map((r) => r.output.data as Float32Array)
    const shared = views[0].buffer
    expect(shared).toBeInstanceOf(ArrayBuffer)
    expect(shared).not.toBeInstanceOf(SharedArrayBuffer)
    // The batch's whole output buffer, row i at i × rowBytes: no per-row copy.
    expect(shared.byteLength).toBe(3 * ROW_BYTES)
    views.forEach((view, i) => {
      expect(view.buffer).toBe(shared)
      expect(view.byteOffset).toBe(i * ROW_BYTES)
      expect(view.byteLength).toBe(ROW_BYTES)
      expect(view.length).toBe(OUT)
    })

    const other = d.output.data as Float32Array
    expect(other.buffer).not.toBe(shared)
    expect(other.byteOffset).toBe(0)
    expect(other.byteLength).toBe(ROW_BYTES)
    expect(other.buffer.byteLength).toBe(ROW_BYTES)
  })

  it('credits batches and rows to the replicas in stats', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => pool.infer({ input: row(i) })))
    const stats = pool.stats
    expect(stats.replicas.map((r) => r.id)).toEqual([0, 1])
    expect(stats.replicas.reduce((sum, r) => sum + r.rows, 0)).toBe(stats.completed)
    expect(stats.replicas.reduce((sum, r) => sum + r.batches, 0)).toBe(stats.batches)
    expect(stats.restarts).toBe(0)
    expect(stats.crashed).toBe(0)
    expect(stats.inFlight).toBe(0)
  })

  it('credits each batch, its rows and its measured busy time to the one replica that ran it', async () => {
    const single = await createPool({ model: models.demoMlp, replicas: 1, batching: { maxBatchSize: 16 }, hostSession: false })
    try {
      expect(single.stats.replicas).toEqual([expect.objectContaining({ id: 0, batches: 0, rows: 0, busyMs: 0 })])
      const sizes: number[] = []
      single.observe({ onDispatch: ({ size }) => sizes.push(size) })
      const bursts = [3, 5, 7]
      let seed = 500
      // Bursts awaited one by one, as above: each is exactly one batch on the one replica.
      const started = performance.now()
      for (const k of bursts) await Promise.all(Array.from({ length: k }, () => single.infer({ input: row(seed++) })))
      const wallMs = performance.now() - started
      expect(sizes).toEqual(bursts)

      const [replica] = single.stats.replicas
      expect(single.stats.replicas).toHaveLength(1)
      expect(replica.id).toBe(0)
      expect(replica.batches).toBe(3)
      expect(replica.rows).toBe(3 + 5 + 7)
      expect(replica.inFlight).toBe(0)
      // A measured duration: only its sign and its bound by the wall time around the workload.
      expect(replica.busyMs).toBeGreaterThan(0)
      expect(replica.busyMs).toBeLessThanOrEqual(wallMs)
    } finally {
      await single.close()
    }
  })
})

function concat(rows: Float32Array[]): Float32Array {
  const out = new Float32Array(rows.length * WIDTH)
  rows.forEach((r, i) => out.set(r, i * WIDTH))
  return out
}
