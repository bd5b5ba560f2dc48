import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Tensor } from 'onnxruntime-node'
import { catalog, checkModels, mlpReference, mlpWeights, modelPath, repoRoot, runCli } from '../src/index.js'
import type { CliIo } from '../src/index.js'
import { expectClose, openSession, releaseSessions, testInput } from './helpers.js'

let scratch: string

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'model-builder-'))
})
afterAll(async () => {
  await releaseSessions()
  await rm(scratch, { recursive: true, force: true })
})

function captureIo(root: string): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = []
  const errors: string[] = []
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l), root, cwd: scratch }
}

describe('committed models', () => {
  it('are byte-identical to what the builder generates (--check passes)', async () => {
    const results = await checkModels()
    expect(results).toEqual(catalog.map((e) => ({ path: e.path, status: 'same' })))
    const io = captureIo(repoRoot)
    expect(await runCli(['--check'], io)).toBe(0)
    expect(io.lines).toEqual(catalog.map((e) => `same    ${e.path}`))
    expect(io.errors).toEqual([])
  })

  it('include the demo model where @inferpool/host ships it', () => {
    expect(catalog.map((e) => e.path)).toEqual([
      'packages/host/models/demo-mlp.onnx',
      'fixtures/models/token-pool.onnx',
      'fixtures/models/fixed-batch.onnx',
      'fixtures/models/poison.onnx',
      'fixtures/models/hardcoded-batch1.onnx',
      'fixtures/models/multi-io.onnx',
      'fixtures/models/fp16.onnx',
      'fixtures/models/strings.onnx',
    ])
  })
})

describe('runCli', () => {
  it('regenerates every model into a fresh root, identical to the committed files', async () => {
    const root = join(scratch, 'fresh')
    const io = captureIo(root)
    expect(await runCli([], io)).toBe(0)
    expect(io.lines).toEqual(catalog.map((e) => `wrote ${e.path}`))
    for (const entry of catalog) {
      const written = await readFile(modelPath(entry.path, root))
      expect(written.equals(await readFile(modelPath(entry.path))), entry.path).toBe(true)
    }
  })

  it('--check exits 1 and names the files that differ or are missing', async () => {
    const root = join(scratch, 'tampered')
    expect(await runCli([], captureIo(root))).toBe(0)
    await writeFile(modelPath('fixtures/models/poison.onnx', root), new Uint8Array([1, 2, 3]))
    await rm(modelPath('fixtures/models/multi-io.onnx', root))
    const io = captureIo(root)
    expect(await runCli(['--check'], io)).toBe(1)
    expect(io.lines).toContain('differs fixtures/models/poison.onnx')
    expect(io.lines).toContain('missing fixtures/models/multi-io.onnx')
    expect(io.lines.filter((l) => l.startsWith('same'))).toHaveLength(catalog.length - 2)
    expect(io.errors).toEqual(['2 model file(s) do not match the builder; run `pnpm models` and commit the result'])
  })

  it('mlp writes an MLP of the requested sizes that onnxruntime runs like the JS reference', async () => {
    const io = captureIo(repoRoot)
    expect(await runCli(['mlp', '--sizes', '32,64,8', '--seed', '9', '--out', 'heavy/mlp.onnx'], io)).toBe(0)
    const file = join(scratch, 'heavy/mlp.onnx')
    const bytes = await readFile(file)
    expect(io.lines).toEqual([`wrote ${file} (${bytes.length} bytes)`])
    const s = await openSession(new Uint8Array(bytes))
    expect(s.inputMetadata).toEqual([{ name: 'input', isTensor: true, type: 'float32', shape: ['batch', 32] }])
    expect(s.outputMetadata).toEqual([{ name: 'output', isTensor: true, type: 'float32', shape: ['batch', 8] }])
    const x = testInput(3 * 32, 5)
    const out = await s.run({ input: new Tensor('float32', x, [3, 32]) })
    expectClose(out.output.data as Float32Array, mlpReference(mlpWeights({ sizes: [32, 64, 8], seed: 9 }), x, 3))
  })

  it('mlp --batch-dim with a number fixes the batch dimension', async () => {
    expect(await runCli(['mlp', '--sizes', '4,2', '--batch-dim', '1', '--out', 'fixed.onnx'], captureIo(repoRoot))).toBe(0)
    const s = await openSession(new Uint8Array(await readFile(join(scratch, 'fixed.onnx'))))
    expect(s.inputMetadata).toEqual([{ name: 'input', isTensor: true, type: 'float32', shape: [1, 4] }])
  })

  it.each([
    [['nonsense'], 'error: unknown command "nonsense"'],
    [['--check', 'extra'], 'error: unexpected argument "extra"'],
    [['mlp', '--sizes', '4,2'], 'error: mlp needs --sizes and --out'],
    [['mlp', '--sizes', '4', '--out', 'x.onnx'], 'error: Expected `sizes` to be at least two positive integers, got [4]'],
    [['mlp', '--sizes', '4,2', '--seed', 'abc', '--out', 'x.onnx'], 'error: --seed must be an integer, got "abc"'],
    [['mlp', '--size', '4,2'], 'error: unknown option "--size"'],
    [['mlp', '--sizes'], 'error: option --sizes needs a value'],
  ])('rejects %j with exit code 2 and a usage message', async (argv, message) => {
    const io = captureIo(join(scratch, 'unused'))
    expect(await runCli(argv, io)).toBe(2)
    expect(io.errors[0]).toBe(message)
    expect(io.errors[1]).toMatch(/^usage:/)
    expect(io.lines).toEqual([])
  })
})
