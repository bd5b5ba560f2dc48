import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { createPool, InferenceError } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { models, workers } from './fixtures/models.js'

/** Same tokenizer as the worker fixture: one id per character. */
const tokenize = (text: string): bigint[] => Array.from(text, (ch) => BigInt(ch.charCodeAt(0) % 32))

describe('a user worker with pre-processing in the thread (tokenize → ORT → pooled vector)', () => {
  let pool: Pool<string, Float32Array>
  let direct: InferenceSession

  beforeAll(async () => {
    direct = await InferenceSession.create(models.tokenPool, { intraOpNumThreads: 1 })
    pool = await createPool<string, Float32Array>({
      model: models.tokenPool,
      worker: workers.tokenizer,
      workerOptions: { model: models.tokenPool },
      replicas: 2,
      batching: { maxBatchSize: 8 },
    })
  })
  afterAll(async () => {
    await pool?.close()
    await direct?.release()
  })

  it('sends the items as they are and returns one result per item, equal to direct onnxruntime', async () => {
    const texts = ['hello', 'a', 'inferpool batches requests', 'zz', 'worker threads', 'onnx', 'x', 'tokenize me']
    const results = await Promise.all(texts.map((text) => pool.infer(text)))
    for (let i = 0; i < texts.length; i++) {
      const ids = tokenize(texts[i])
      const want = await direct.run({
        input_ids: new Tensor('int64', BigInt64Array.from(ids), [1, ids.length]),
        attention_mask: new Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
      })
      expect(results[i]).toBeInstanceOf(Float32Array)
      expect(Array.from(results[i])).toEqual(Array.from(want.pooled.data as Float32Array))
    }
  })

  it('fails only the item whose slot holds an error', async () => {
    const [ok, empty] = await Promise.allSettled([pool.infer('fine'), pool.infer('')])
    expect(ok.status).toBe('fulfilled')
    expect(empty.status).toBe('rejected')
    const error = (empty as PromiseRejectedResult).reason
    expect(error).toBeInstanceOf(InferenceError)
    expect(error).toMatchObject({ code: 'ERR_INFERENCE', message: 'empty text' })
  })

  it('has no tensor metadata of its own (the worker does not describe itself) but states its settings', () => {
    expect(pool.metadata).toMatchObject({ inputs: [], outputs: [], maxBatchSize: 8, fixedBatchSize: null, replicas: 2, concurrency: 1 })
  })
})
