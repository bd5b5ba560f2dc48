import Long from 'long'
import { describe, expect, it } from 'vitest'
import { mostDeclaredRows, rowsOfFirstDim } from '../src/protocol/declared-rows.js'
import { isModelName, isVersionName, MAX_MODEL_NAME_LENGTH } from '../src/protocol/model-names.js'

describe('the rows a request declares before it is decoded', () => {
  it('reads a first dim as a count only when it is a positive safe integer, a protobuf int64 included', () => {
    expect([rowsOfFirstDim(3), rowsOfFirstDim(Long.fromNumber(7)), rowsOfFirstDim(0), rowsOfFirstDim(-1)]).toEqual([3, 7, 0, 0])
    expect([rowsOfFirstDim(1.5), rowsOfFirstDim('4'), rowsOfFirstDim(2 ** 53), rowsOfFirstDim(undefined)]).toEqual([0, 0, 0, 0])
  })

  it('takes the input that declares the most rows, and skips what declares none', () => {
    const inputs = [{ name: 'a', shape: [2, 4] }, { name: 'b', shape: [5] }, { shape: [9] }, { name: 'c', shape: 'x' }, null]
    expect(mostDeclaredRows(inputs)).toEqual({ rows: 5, input: 'b' })
    expect(mostDeclaredRows([{ name: 'a', shape: [] }])).toBeUndefined()
  })
})

describe('model names and versions', () => {
  it('takes letters, digits and _ . - not starting with a symbol, up to the longest directory name', () => {
    expect(['m', 'my-model_2.onnx', 'A'.repeat(MAX_MODEL_NAME_LENGTH)].map(isModelName)).toEqual([true, true, true])
    expect(['', '.', '..', '../x', '-m', 'a/b', 'a\0b', 'A'.repeat(MAX_MODEL_NAME_LENGTH + 1), 7].map(isModelName)).toEqual(
      new Array(9).fill(false),
    )
  })

  it('takes a version as a positive integer of at most 15 digits', () => {
    expect(['1', '42', '9'.repeat(15)].map(isVersionName)).toEqual([true, true, true])
    expect(['0', '01', '-1', '1.0', '9'.repeat(16), 1].map(isVersionName)).toEqual(new Array(6).fill(false))
  })
})
