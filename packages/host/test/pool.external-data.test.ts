/**
 * A model whose tensor data lives in a file beside it (ONNX external data, as every model
 * over 2 GB is saved) is refused at createPool with ModelLoadError naming that file: a
 * pool reads its model once, as one file's bytes, and those bytes alone cannot load it.
 * The model here is y = x·W with W kept in `external.onnx.data`; onnxruntime loads it by
 * its path, so the model itself is sound.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { InferenceSession, Tensor } from 'onnxruntime-node'
import { buildModel, floatTensor, node, onnx, serializeModel } from '@inferpool/model-builder'
import { createPool, ModelLoadError } from '@inferpool/host'
import { externalDataFiles } from '../src/pool/external-data.js'
import { models } from './fixtures/models.js'

const scratch = mkdtempSync(join(tmpdir(), 'inferpool-external-data-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const W = new Float32Array([1, 2, 3, 4])

/** Writes `external.onnx` and its `external.onnx.data` (W's four floats); returns the model's path. */
function externalModel(): string {
  const weights = floatTensor('W', [2, 2], W)
  const data = weights.rawData as Uint8Array
  const model = buildModel({
    name: 'external',
    inputs: [{ name: 'x', type: 'float32', dims: ['batch', 2] }],
    outputs: [{ name: 'y', type: 'float32', dims: ['batch', 2] }],
    nodes: [node('MatMul', ['x', 'W'], ['y'])],
    initializers: [
      {
        ...weights,
        rawData: new Uint8Array(0),
        dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: 'location', value: 'external.onnx.data' },
          { key: 'offset', value: '0' },
          { key: 'length', value: String(data.byteLength) },
        ],
      },
    ],
  })
  writeFileSync(join(scratch, 'external.onnx.data'), data)
  const path = join(scratch, 'external.onnx')
  writeFileSync(path, serializeModel(model))
  return path
}

const why =
  'its tensor data is kept in external file external.onnx.data (ONNX external data), which inferpool does not load: ' +
  'it reads a model once, as one file, so that every replica runs the same bytes. Save the model with its data inside (it must be under 2 GB).'

describe('a model with external data', () => {
  const path = externalModel()

  it('is a sound model: onnxruntime loads it by its path and runs it', async () => {
    const session = await InferenceSession.create(path)
    const { y } = await session.run({ x: new Tensor('float32', new Float32Array([1, 1]), [1, 2]) })
    expect(Array.from(y?.data as Float32Array)).toEqual([4, 6])
    await session.release()
  })

  it('names the external file, and only self-contained models name none', () => {
    expect(externalDataFiles(readFileSync(path))).toEqual(['external.onnx.data'])
    expect(externalDataFiles(readFileSync(models.demoMlp))).toEqual([])
  })

  for (const isolation of ['thread', 'process'] as const) {
    it(`is refused at createPool (${isolation} replicas) with ModelLoadError naming the file and why`, async () => {
      const refusal = await createPool({ model: path, isolation, replicas: 1 }).then(
        () => 'created',
        (err: unknown) => err,
      )
      expect(refusal).toBeInstanceOf(ModelLoadError)
      expect(refusal).toMatchObject({
        code: 'ERR_MODEL_LOAD',
        message: `Failed to load model ${path}: ${why}`,
        details: { model: path, externalData: ['external.onnx.data'] },
      })
    })
  }

  it('given as bytes, is refused the same way, named by its size', async () => {
    const bytes = readFileSync(path)
    const refusal = await createPool({ model: bytes, replicas: 1 }).then(
      () => 'created',
      (err: unknown) => err,
    )
    expect(refusal).toMatchObject({
      code: 'ERR_MODEL_LOAD',
      message: `Failed to load model <bytes: ${bytes.byteLength}>: ${why}`,
      details: { model: `<bytes: ${bytes.byteLength}>`, externalData: ['external.onnx.data'] },
    })
  })
})
