// Unit tests of request validation (internal, imported from src): the paths that
// the per-row fast path added — facts precomputed per input, the cheap scan for
// unknown names, dims shared between rows or copied from the caller, and the
// symbolic-axis check that only runs when an axis name is shared.
import { describe, expect, it } from 'vitest'
import type { WorkerDescription } from '@inferpool/worker'
import { InvalidInputError } from '../src/errors.js'
import { buildModelShape } from '../src/pool/model-shape.js'
import { resolvePoolOptions } from '../src/pool/options.js'
import { validateRow } from '../src/pool/validate-input.js'
import type { RowInput } from '../src/types.js'

const shapeOf = (description: WorkerDescription, padding?: Record<string, { axis?: number }>) =>
  buildModelShape(description, resolvePoolOptions({ model: 'm.onnx', ...(padding ? { padding } : {}) }, 2))

const mlp = shapeOf({
  inputs: [{ name: 'input', type: 'float32', dims: ['batch', 2, 3] }],
  outputs: [{ name: 'output', type: 'float32', dims: ['batch', 4] }],
})

const tokens = shapeOf({
  inputs: [
    { name: 'ids', type: 'int64', dims: ['batch', 'seq'] },
    { name: 'mask', type: 'int64', dims: ['batch', 'seq'] },
    { name: 'extra', type: 'float32', dims: ['batch', 'n', 2] },
  ],
  outputs: [{ name: 'y', type: 'float32', dims: ['batch', 'seq'] }],
})

function rejection(run: () => unknown): unknown {
  try {
    run()
  } catch (err) {
    return err
  }
  return null
}

describe('model facts derived once per pool', () => {
  it('records per input its class, expected text, fixed dims and element count, and which axes are dynamic', () => {
    const [input] = mlp.inputs
    expect(input.ctor).toBe(Float32Array)
    expect(input.expected).toBe('float32 [2, 3]')
    expect(input.fixedDims).toEqual([2, 3])
    expect(Object.isFrozen(input.fixedDims)).toBe(true)
    expect(input.fixedElements).toBe(6)
    expect(input.dynamicAxes).toEqual([])
    expect(mlp.expectedList).toBe('input: float32 [2, 3]')
    expect([...mlp.inputNames]).toEqual(['input'])
    expect(mlp.sharedSymbols).toBe(false)
    expect(mlp.outputs[0].ctor).toBe(Float32Array)
  })

  it('marks dynamic axes with their symbol and key prefix, and notices a symbol shared between inputs', () => {
    expect(tokens.inputs[0].fixedDims).toBeNull()
    expect(tokens.inputs[0].dynamicAxes).toEqual([{ axis: 0, symbol: 'seq', lengthName: null, keyPrefix: 'ids:0=' }])
    expect(tokens.inputs[2].dynamicAxes).toEqual([{ axis: 0, symbol: 'n', lengthName: null, keyPrefix: 'extra:0=' }])
    expect(tokens.sharedSymbols).toBe(true)
    expect(tokens.keyed).toBe(true)
    expect(tokens.expectedList).toBe('ids: int64 [seq]; mask: int64 [seq]; extra: float32 [n, 2]')
  })

  it('records a padded axis under its length name and keeps it out of the batch key', () => {
    const padded = shapeOf(
      {
        inputs: [{ name: 'ids', type: 'int64', dims: ['batch', 'seq'] }],
        outputs: [{ name: 'y', type: 'float32', dims: ['batch', 'seq'] }],
      },
      { ids: {} },
    )
    expect(padded.inputs[0].dynamicAxes).toEqual([{ axis: 0, symbol: 'seq', lengthName: 'seq', keyPrefix: null }])
    expect(padded.keyed).toBe(false)
    const row = validateRow({ ids: { data: new BigInt64Array(5), dims: [5] } }, padded)
    expect(row.key).toBe('')
    expect([...row.lengths]).toEqual([['seq', 5]])
  })
})

describe('validating one row', () => {
  it('shares the fixed dims between valid rows, whether passed as a typed array or as { data, dims }', () => {
    const data = new Float32Array(6)
    const a = validateRow({ input: data }, mlp)
    const b = validateRow({ input: { data, dims: [2, 3] } }, mlp)
    expect(a.tensors[0].data).toBe(data)
    expect(a.tensors[0].dims).toBe(mlp.inputs[0].fixedDims)
    expect(b.tensors[0].dims).toBe(mlp.inputs[0].fixedDims)
    expect(a.key).toBe('')
    expect(a.lengths.size).toBe(0)
  })

  it('copies the dims of a dynamic input, so a caller reusing its dims array cannot change a queued row', () => {
    const dims = [3]
    const row = validateRow(
      {
        ids: { data: new BigInt64Array(3), dims },
        mask: { data: new BigInt64Array(3), dims },
        extra: { data: new Float32Array(2), dims: [1, 2] },
      },
      tokens,
    )
    dims[0] = 7
    expect(row.tensors[0].dims).toEqual([3])
    expect(row.tensors[1].dims).toEqual([3])
    expect(row.key).toBe('ids:0=3;mask:0=3;extra:0=1;')
  })

  it('accepts an input object with inherited enumerable keys (only its own keys are checked against the model)', () => {
    const input = Object.create({ inherited: 1 }) as RowInput
    input.input = new Float32Array(6)
    expect(validateRow(input, mlp).tensors[0].data).toBe(input.input)
  })

  it('still rejects an own unknown key next to valid inputs, naming it', () => {
    const err = rejection(() => validateRow({ input: new Float32Array(6), typo: new Float32Array(6) }, mlp))
    expect(err).toBeInstanceOf(InvalidInputError)
    expect(err).toMatchObject({
      code: 'ERR_INVALID_INPUT',
      message: 'Unknown input "typo"; the model\'s inputs are input: float32 [2, 3]',
      details: { input: 'typo', expected: 'input: float32 [2, 3]' },
    })
  })

  it('rejects dims with a hole as not being non-negative integers', () => {
    const dims = new Array<number>(1)
    const err = rejection(() =>
      validateRow(
        {
          ids: { data: new BigInt64Array(1), dims },
          mask: { data: new BigInt64Array(1), dims: [1] },
          extra: { data: new Float32Array(2), dims: [1, 2] },
        },
        tokens,
      ),
    )
    expect(err).toMatchObject({
      code: 'ERR_INVALID_INPUT',
      message: 'Input "ids" dims must be an array of non-negative integers, got [null]',
    })
  })

  it('checks that inputs agree on a shared axis name, and lets unshared axis names differ freely', () => {
    const err = rejection(() =>
      validateRow(
        {
          ids: { data: new BigInt64Array(2), dims: [2] },
          mask: { data: new BigInt64Array(3), dims: [3] },
          extra: { data: new Float32Array(2), dims: [1, 2] },
        },
        tokens,
      ),
    )
    expect(err).toMatchObject({
      code: 'ERR_INVALID_INPUT',
      message: 'Inputs "ids" and "mask" disagree on axis "seq": 2 vs 3',
      details: { axis: 'seq', ids: 2, mask: 3 },
    })
    const row = validateRow(
      {
        ids: { data: new BigInt64Array(2), dims: [2] },
        mask: { data: new BigInt64Array(2), dims: [2] },
        extra: { data: new Float32Array(8), dims: [4, 2] },
      },
      tokens,
    )
    expect(row.key).toBe('ids:0=2;mask:0=2;extra:0=4;')
  })
})
