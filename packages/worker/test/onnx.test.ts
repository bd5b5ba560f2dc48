import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Tensor } from 'onnxruntime-node'
import type { InferenceSession } from 'onnxruntime-node'
import { Piscina } from 'piscina'
import {
  createSession,
  createWorkerRuntime,
  describeSession,
  onnxWorkerDefinition,
  pickDevice,
  runTensors,
  tensorFromWire,
  WorkerError,
} from '@inferpool/worker'
import type { OnnxWorkerOptions, RunSuccess, TaskResult, TensorBatchOutput, WireTensor, WorkerBootData } from '@inferpool/worker'

const demoMlp = fileURLToPath(new URL('../../host/models/demo-mlp.onnx', import.meta.url))

describe('ONNX helpers', () => {
  let session: InferenceSession
  beforeAll(async () => {
    session = await createSession(demoMlp, { intraOpNumThreads: 1 })
  })
  afterAll(async () => {
    await session?.release()
  })

  it('describes inputs and outputs with their symbolic dims', () => {
    expect(describeSession(session)).toEqual({
      inputs: [{ name: 'input', type: 'float32', dims: ['batch', 256] }],
      outputs: [{ name: 'output', type: 'float32', dims: ['batch', 16] }],
    })
  })

  it('wraps a wire tensor without copying', () => {
    const buffer = new Float32Array(512).buffer
    const tensor = tensorFromWire({ type: 'float32', dims: [2, 256], buffer })
    expect((tensor.data as Float32Array).buffer).toBe(buffer)
    expect(tensor.dims).toEqual([2, 256])
  })

  it('runs packed tensors and returns exactly-sized output buffers to transfer', async () => {
    const input = Float32Array.from({ length: 512 }, (_, i) => Math.sin(i))
    const wire: WireTensor = { type: 'float32', dims: [2, 256], buffer: input.slice().buffer }
    const { outputs, transfer } = await runTensors(session, { input: wire })
    expect(outputs.output.dims).toEqual([2, 16])
    expect(outputs.output.buffer.byteLength).toBe(2 * 16 * 4)
    expect(transfer).toEqual([outputs.output.buffer])
    const direct = await session.run({ input: new Tensor('float32', input, [2, 256]) })
    expect(Array.from(new Float32Array(outputs.output.buffer))).toEqual(Array.from(direct.output.data as Float32Array))
  })

  it('rejects a run failure with ERR_INFERENCE and the runtime message', async () => {
    const wire: WireTensor = { type: 'float32', dims: [1, 3], buffer: new Float32Array(3).buffer }
    const error = await runTensors(session, { input: wire }).then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toBeInstanceOf(WorkerError)
    expect((error as WorkerError).code).toBe('ERR_INFERENCE')
    expect((error as WorkerError).message).toMatch(/^ONNX Runtime failed to run the batch: Got invalid dimensions for input: input/)
  })

  it('names the model and the runtime message when a session cannot be created', async () => {
    const error = await createSession('/missing/model.onnx').then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toMatchObject({
      code: 'ERR_MODEL_LOAD',
      message:
        "Failed to load model /missing/model.onnx: Load model from /missing/model.onnx failed:Load model /missing/model.onnx failed. File doesn't exist",
      details: { model: '/missing/model.onnx' },
    })
  })

  it("reports 'cuda' without its libraries as ERR_PROVIDER_UNAVAILABLE with install instructions", async () => {
    const error = await createSession(demoMlp, { executionProvider: 'cuda', deviceId: 2 }).then(
      () => null,
      (err: unknown) => err,
    )
    expect(error).toMatchObject({ code: 'ERR_PROVIDER_UNAVAILABLE', details: { provider: 'cuda', deviceId: 2 } })
    expect((error as Error).message).toContain('ONNXRUNTIME_NODE_INSTALL=cuda12 pnpm rebuild onnxruntime-node')
  })
})

describe('device choice', () => {
  it('spreads CUDA sessions over the device list in turn, through a counter shared by threads', () => {
    const counter = new Int32Array(new SharedArrayBuffer(4))
    const picks = Array.from({ length: 5 }, () => pickDevice({ executionProvider: 'cuda' }, [0, 2], counter).deviceId)
    expect(picks).toEqual([0, 2, 0, 2, 0])
  })

  it('leaves CPU sessions and single-device settings alone', () => {
    expect(pickDevice({ executionProvider: 'cpu', intraOpNumThreads: 2 }, [0, 1], undefined)).toEqual({
      executionProvider: 'cpu',
      intraOpNumThreads: 2,
    })
    expect(pickDevice({ executionProvider: 'cuda' }, [3], undefined)).toEqual({ executionProvider: 'cuda', deviceId: 3 })
  })
})

describe('the ONNX tensor worker', () => {
  const runtime = createWorkerRuntime(onnxWorkerDefinition, {
    channel: '',
    options: { model: demoMlp, session: { intraOpNumThreads: 1 } } satisfies OnnxWorkerOptions,
  })
  afterAll(() => runtime.dispose())

  /** A run task of the demo MLP's `input` for `rows` rows (its buffer a copy, as the host sends one). */
  const runTask = (batchId: number, input: Float32Array, rows: number) => ({
    kind: 'run' as const,
    batchId,
    payload: { rows, inputs: { input: { type: 'float32' as const, dims: [rows, 256], buffer: input.slice().buffer } } },
  })

  /** The demo MLP's output for `input` (`rows` rows) from a session of its own. */
  async function directOutput(input: Float32Array, rows: number): Promise<number[]> {
    const session = await createSession(demoMlp, { intraOpNumThreads: 1 })
    try {
      const direct = await session.run({ input: new Tensor('float32', input, [rows, 256]) })
      return Array.from(direct.output.data as Float32Array)
    } finally {
      await session.release()
    }
  }

  it('transfers its outputs and releases its inputs to the host, equal to a direct run', async () => {
    const input = Float32Array.from({ length: 2 * 256 }, (_, i) => Math.cos(i))
    const task = runTask(1, input, 2)
    const ran = await runtime.run(task)
    expect(ran.result.ok).toBe(true)
    const { outputs } = (ran.result as RunSuccess).value as TensorBatchOutput
    expect(ran.transfer).toEqual([outputs.output.buffer])
    expect(ran.release).toHaveLength(1)
    expect(ran.release[0]).toBe(task.payload.inputs.input.buffer)
    expect(Array.from(new Float32Array(outputs.output.buffer))).toEqual(await directOutput(input, 2))
  })

  it('runs only the rows that can make their deadline, taken out of the batch in order', async () => {
    const input = Float32Array.from({ length: 3 * 256 }, (_, i) => Math.sin(i))
    const task = runTask(3, input, 3)
    // Row 1's deadline has long passed; rows 0 and 2 have none.
    const ran = await runtime.run({ ...task, deadlines: [Infinity, 0, Infinity], runMs: 1 })
    expect(ran.result).toMatchObject({ ok: true, kind: 'run', dropped: [1] })
    const { outputs } = (ran.result as RunSuccess).value as TensorBatchOutput
    expect(outputs.output.dims[0]).toBe(2)
    // The batch sent is released, and so is the one that ran (rows 0 and 2 only).
    expect(ran.release).toHaveLength(2)
    expect(ran.release[0]).toBe(task.payload.inputs.input.buffer)
    const kept = new Float32Array(2 * 256)
    kept.set(input.subarray(0, 256), 0)
    kept.set(input.subarray(512, 768), 256)
    expect(Array.from(new Float32Array(outputs.output.buffer))).toEqual(await directOutput(kept, 2))
  })

  it('releases the inputs of a batch that ORT refuses', async () => {
    const buffer = new Float32Array(3).buffer
    const ran = await runtime.run({
      kind: 'run',
      batchId: 2,
      payload: { rows: 1, inputs: { input: { type: 'float32', dims: [1, 3], buffer } } },
    })
    expect(ran.result).toMatchObject({ ok: false, error: { code: 'ERR_INFERENCE' } })
    expect(ran.release).toHaveLength(1)
    expect(ran.release[0]).toBe(buffer)
  })
})

describe('the ONNX tensor worker in a piscina thread', () => {
  it('transfers the batch in and the outputs out', async () => {
    const piscina = new Piscina({
      filename: fileURLToPath(import.meta.resolve('@inferpool/worker/onnx-worker')),
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Infinity,
      workerData: { channel: '', options: { model: demoMlp, session: { intraOpNumThreads: 1 } } } satisfies WorkerBootData,
    })
    try {
      const buffer = new Float32Array(3 * 256).fill(0.5).buffer
      const pending = piscina.run(
        { kind: 'run', batchId: 1, payload: { rows: 3, inputs: { input: { type: 'float32', dims: [3, 256], buffer } } } },
        { transferList: [buffer] },
      ) as Promise<TaskResult>
      expect(buffer.byteLength).toBe(0)
      const result = await pending
      expect(result.ok).toBe(true)
      const { outputs } = (result as RunSuccess).value as TensorBatchOutput
      expect(outputs.output.dims).toEqual([3, 16])
      expect(outputs.output.buffer.byteLength).toBe(3 * 16 * 4)
    } finally {
      await piscina.destroy()
    }
  })
})
