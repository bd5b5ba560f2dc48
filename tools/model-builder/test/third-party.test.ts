import { readFile, readdir } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { Tensor } from 'onnxruntime-node'
import { modelPath } from '../src/index.js'
import { openSession, releaseSessions } from './helpers.js'

afterAll(releaseSessions)

const DIR = 'fixtures/models/third-party'

/** Rows of the README table: | file | `input` float32 [dims] | `output` [dims] | note | */
async function readmeTable(): Promise<Map<string, { input: string; inputDims: number[]; output: string; outputDims: number[] }>> {
  const text = await readFile(modelPath(`${DIR}/README.md`), 'utf8')
  const rows = new Map<string, { input: string; inputDims: number[]; output: string; outputDims: number[] }>()
  const dims = (s: string) => s.split(',').map(Number)
  for (const m of text.matchAll(/^\| (\S+\.onnx) \| `([^`]+)` float32 \[([\d,]+)\] \| `([^`]+)` \[([\d,]+)\] \|/gm)) {
    rows.set(m[1], { input: m[2], inputDims: dims(m[3]), output: m[4], outputDims: dims(m[5]) })
  }
  return rows
}

describe('third-party models', () => {
  it('are the five files of the README, with the provenance and licence note', async () => {
    const files = (await readdir(modelPath(DIR))).filter((f) => f.endsWith('.onnx')).sort()
    expect(files).toEqual([
      'light_densenet121.onnx',
      'light_inception_v1.onnx',
      'light_resnet50.onnx',
      'light_shufflenet.onnx',
      'light_squeezenet.onnx',
    ])
    expect([...(await readmeTable()).keys()].sort()).toEqual(files)
    const readme = await readFile(modelPath(`${DIR}/README.md`), 'utf8')
    expect(readme).toContain('Apache License 2.0')
    expect(readme).toContain('onnx/backend/test/data/light/')
  })

  it.each(['light_densenet121.onnx', 'light_inception_v1.onnx', 'light_resnet50.onnx', 'light_shufflenet.onnx', 'light_squeezenet.onnx'])(
    '%s loads, reports the input and output the README names, and runs one image',
    async (file) => {
      const row = (await readmeTable()).get(file)
      expect(row).toBeDefined()
      if (row === undefined) return
      const s = await openSession(`${DIR}/${file}`)
      expect(s.inputMetadata).toEqual([{ name: row.input, isTensor: true, type: 'float32', shape: row.inputDims }])
      expect(s.outputNames).toEqual([row.output])
      expect(s.outputMetadata[0]).toMatchObject({ name: row.output, isTensor: true, type: 'float32', shape: row.outputDims })
      const out = await s.run({ [row.input]: new Tensor('float32', new Float32Array(3 * 224 * 224).fill(0.5), row.inputDims) })
      expect(out[row.output].dims).toEqual(row.outputDims)
      expect(Array.from(out[row.output].data as Float32Array).every(Number.isFinite)).toBe(true)
    },
  )
})
