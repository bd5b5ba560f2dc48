// The transfer files of process mode (process-wire.ts), written and read through a real
// file: tensor messages (a batch written from its pieces, a tensor result) and the v8 form
// for everything else, each read back exactly; and a lane's reused input buffers.
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTransferFile, ReusedBuffers, writeResult, writeTensorTask, writeTransferFile } from '@inferpool/worker'
import type { RunTask, TaskResult, TensorBatch, TensorPieces } from '@inferpool/worker'

let dir: string
let fd: number
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'inferpool-wire-test-'))
  fd = openSync(join(dir, 'lane'), 'w+')
})
afterAll(() => {
  closeSync(fd)
  rmSync(dir, { recursive: true, force: true })
})

const bytes = (buffer: ArrayBuffer): number[] => Array.from(new Uint8Array(buffer))

/** A buffer that is exactly its tensor: its own, from byte 0 (what a typed array over it and ORT need). */
function expectOwnExact(buffer: ArrayBuffer, length: number): void {
  expect(buffer).toBeInstanceOf(ArrayBuffer)
  expect(buffer.byteLength).toBe(length)
}

describe('a tensor task written from its pieces', () => {
  // Rows as views into larger arrays at odd offsets, an input of 3 bytes per row (so the
  // next tensor needs an alignment gap), a piece of zero bytes.
  const backing = Float32Array.from({ length: 10 }, (_, i) => i + 0.5)
  const ids = BigInt64Array.from([-1n, 2n ** 62n])
  const pieces: TensorPieces[] = [
    {
      name: 'flags',
      type: 'uint8',
      dims: [3, 3],
      pieces: [Uint8Array.from([1, 2, 3]), new Uint8Array(0), Uint8Array.from([4, 5, 6, 7, 8, 9])],
      byteLength: 9,
    },
    {
      name: 'x',
      type: 'float32',
      dims: [3, 2],
      pieces: [backing.subarray(1, 3), backing.subarray(7, 9), new Float32Array(2)],
      byteLength: 24,
    },
    { name: 'ids', type: 'int64', dims: [3, 1], pieces: [ids, new Uint8Array(8)], byteLength: 24 },
  ]

  it('reads back as a run task of one exact buffer per input, holding the pieces in order', () => {
    const layout = writeTensorTask(fd, 41, 3, pieces)
    expect(layout.buffers).toEqual([9, 24, 24])
    const task = readTransferFile(fd, layout) as RunTask
    const batch = task.payload as TensorBatch
    expect({ kind: task.kind, batchId: task.batchId, rows: batch.rows }).toEqual({ kind: 'run', batchId: 41, rows: 3 })
    expect(Object.keys(batch.inputs)).toEqual(['flags', 'x', 'ids'])
    expect(batch.inputs.flags.type).toBe('uint8')
    expect(batch.inputs.flags.dims).toEqual([3, 3])
    expectOwnExact(batch.inputs.flags.buffer, 9)
    expect(bytes(batch.inputs.flags.buffer)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expectOwnExact(batch.inputs.x.buffer, 24)
    expect(Array.from(new Float32Array(batch.inputs.x.buffer))).toEqual([1.5, 2.5, 7.5, 8.5, 0, 0])
    expectOwnExact(batch.inputs.ids.buffer, 24)
    expect(Array.from(new BigInt64Array(batch.inputs.ids.buffer))).toEqual([-1n, 2n ** 62n, 0n])
  })

  it("carries the rows' deadlines (a row without one as Infinity) and the answer's time once the run starts", () => {
    const layout = writeTensorTask(fd, 42, 3, pieces, { deadlines: [1764184000123.456, Infinity, 7], runMs: 12.5 })
    const task = readTransferFile(fd, layout) as RunTask
    expect({ deadlines: task.deadlines, runMs: task.runMs }).toEqual({ deadlines: [1764184000123.456, Infinity, 7], runMs: 12.5 })
    expect('deadlines' in (readTransferFile(fd, writeTensorTask(fd, 43, 3, pieces)) as RunTask)).toBe(false)
  })

  it("reads a lane's batches into the same buffers while their lengths repeat, and into new ones when they change", () => {
    const reuse = new ReusedBuffers()
    const one = (value: number, rows: number): TensorPieces[] => [
      { name: 'x', type: 'float32', dims: [rows, 2], pieces: [new Float32Array(rows * 2).fill(value)], byteLength: rows * 8 },
    ]
    const first = readTransferFile(fd, writeTensorTask(fd, 1, 2, one(1, 2)), reuse) as RunTask
    const firstBuffer = (first.payload as TensorBatch).inputs.x.buffer
    const second = readTransferFile(fd, writeTensorTask(fd, 2, 2, one(2, 2)), reuse) as RunTask
    const secondBuffer = (second.payload as TensorBatch).inputs.x.buffer
    expect(secondBuffer).toBe(firstBuffer)
    expect(Array.from(new Float32Array(secondBuffer))).toEqual([2, 2, 2, 2])
    const third = readTransferFile(fd, writeTensorTask(fd, 3, 3, one(3, 3)), reuse) as RunTask
    const thirdBuffer = (third.payload as TensorBatch).inputs.x.buffer
    expect(thirdBuffer).not.toBe(firstBuffer)
    expect(Array.from(new Float32Array(thirdBuffer))).toEqual([3, 3, 3, 3, 3, 3])
    // Without `reuse`, every read gets buffers of its own.
    const a = readTransferFile(fd, writeTensorTask(fd, 4, 2, one(4, 2))) as RunTask
    const b = readTransferFile(fd, writeTensorTask(fd, 5, 2, one(5, 2))) as RunTask
    expect((a.payload as TensorBatch).inputs.x.buffer).not.toBe((b.payload as TensorBatch).inputs.x.buffer)
    expect(Array.from(new Float32Array((a.payload as TensorBatch).inputs.x.buffer))).toEqual([4, 4, 4, 4])
  })
})

describe('a result', () => {
  it("of the ONNX worker's run reads back equal: outputs as exact buffers of their own, the timing and the facts", () => {
    const y = Float64Array.from([0.1, -2.5, 1e300])
    const names = Int32Array.from([7, 8, 9])
    const result: TaskResult = {
      ok: true,
      kind: 'run',
      value: {
        outputs: {
          'scores/ü': { type: 'float64', dims: [3, 1], buffer: y.buffer },
          z: { type: 'int32', dims: [3], buffer: names.buffer },
        },
        timing: { runStartMs: 1764184000123.456, runEndMs: 1764184000124.25 },
      },
      threadId: 0,
      busyMs: 0.123456789,
    }
    const layout = writeResult(fd, result, [y.buffer, names.buffer])
    // A tensor message: its head is JSON, not v8's serialization.
    expect(layout.buffers).toEqual([24, 12])
    const back = readTransferFile(fd, layout) as TaskResult & { value: { outputs: Record<string, { buffer: ArrayBuffer }> } }
    expect(back).toEqual(result)
    expectOwnExact(back.value.outputs['scores/ü'].buffer, 24)
    expectOwnExact(back.value.outputs.z.buffer, 12)
  })

  it('of a run that left rows out reads back with the rows it left out', () => {
    const y = Float32Array.from([1, 2])
    const result: TaskResult = {
      ok: true,
      kind: 'run',
      value: { outputs: { y: { type: 'float32', dims: [2, 1], buffer: y.buffer } } },
      threadId: 3,
      busyMs: 1,
      dropped: [0, 2],
    }
    expect(readTransferFile(fd, writeResult(fd, result, [y.buffer]))).toEqual(result)
  })

  it("that is not a tensor run (a failure, a user worker's array, an object with more fields) is written by v8 and reads back equal", () => {
    const buffer = Uint8Array.from([1, 2, 3]).buffer
    const results: TaskResult[] = [
      { ok: false, error: { code: 'ERR_INFERENCE', name: 'Error', message: 'no', details: { batchId: 3 } }, threadId: 0, busyMs: 1 },
      {
        ok: true,
        kind: 'run',
        value: [{ label: 'a' }, { $inferpoolItemError: { code: 'ERR_INFERENCE', name: 'Error', message: 'bad' } }],
        threadId: 0,
        busyMs: 1,
      },
      {
        ok: true,
        kind: 'run',
        value: { outputs: { y: { type: 'uint8', dims: [3], buffer } }, extra: new Map([[1, 2]]) },
        threadId: 0,
        busyMs: 1,
      },
      { ok: true, kind: 'describe', description: null, threadId: 0, busyMs: 1 },
    ]
    for (const result of results) expect(readTransferFile(fd, writeResult(fd, result, []))).toEqual(result)
  })

  it('a value v8 cannot clone throws and is not written as a tensor message', () => {
    const result = {
      ok: true,
      kind: 'run',
      value: { outputs: {}, timing: undefined, run: () => 1 },
      threadId: 0,
      busyMs: 1,
    } as unknown as TaskResult
    expect(() => writeResult(fd, result, [])).toThrow(/could not be cloned/)
    // The v8 form still carries whatever it can clone.
    expect(readTransferFile(fd, writeTransferFile(fd, { a: 1n }, []))).toEqual({ a: 1n })
  })
})
