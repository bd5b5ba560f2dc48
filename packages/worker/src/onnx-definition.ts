/**
 * The ONNX tensor worker's definition (its entry, onnx-worker.ts, binds it to the thread):
 * the default worker of `createPool`. One cached `InferenceSession` per thread; each
 * batch arrives as one packed tensor per input (transferred), is wrapped without
 * copying, and the outputs are transferred back, the inputs released with them.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { InferenceSession } from 'onnxruntime-node'
import type { WorkerDefinition } from './define-worker.js'
import { WorkerError } from './errors.js'
import { createSession, describeSession, pickDevice, runTensors } from './onnx.js'
import type { OnnxSessionConfig } from './onnx.js'
import { uninitializedArrayBuffer } from './process-wire.js'
import type { TensorBatch, TensorBatchOutput, WireTensor } from './protocol.js'

/** `workerOptions` of the ONNX tensor worker (the host fills them in from `PoolOptions`). */
export interface OnnxWorkerOptions {
  /**
   * The model's bytes (worker threads: a view over the pool's one SharedArrayBuffer), or
   * a path (a replica process: the private copy its host wrote, checked against `sha256`).
   */
  model: string | Uint8Array
  /**
   * Hex SHA-256 the model must have. With a path, the file is read and checked before it
   * loads: a file that changed since the host read it fails the load (`ERR_MODEL_LOAD`)
   * instead of serving another model under the same version.
   */
  sha256?: string
  /** How messages name the model (the user's path), when `model` is not that. */
  label?: string
  session?: OnnxSessionConfig
  /**
   * CUDA devices to spread sessions over. Each new thread takes the next one
   * (round robin through `deviceCounter`, shared by every thread of the pool).
   */
  deviceIds?: number[]
  /** One Int32 over a SharedArrayBuffer: the round-robin counter for `deviceIds`. */
  deviceCounter?: Int32Array
}

interface OnnxState {
  session: InferenceSession
  config: OnnxSessionConfig
}

/** The model to load: a path's file read and checked against `sha256` when one is given. */
async function verifiedModel(options: OnnxWorkerOptions): Promise<string | Uint8Array> {
  const { model, sha256 } = options
  if (sha256 === undefined || typeof model !== 'string') return model
  const label = options.label ?? model
  let bytes: Uint8Array
  try {
    bytes = await readFile(model)
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    throw new WorkerError('ERR_MODEL_LOAD', `Failed to load model ${label}: ${message}`, {
      cause: err,
      details: { model: label, runtimeMessage: message },
    })
  }
  const actual = createHash('sha256').update(bytes).digest('hex')
  if (actual !== sha256) {
    throw new WorkerError(
      'ERR_MODEL_LOAD',
      `Failed to load model ${label}: its bytes changed since the pool read them (sha256 ${actual}, expected ${sha256})`,
      {
        details: { model: label, sha256: actual, expected: sha256 },
      },
    )
  }
  return bytes
}

export const onnxWorkerDefinition: WorkerDefinition<OnnxWorkerOptions, OnnxState, TensorBatch, TensorBatchOutput> = {
  async load(options) {
    const config = pickDevice(options.session ?? {}, options.deviceIds, options.deviceCounter)
    const session = await createSession(await verifiedModel(options), config, options.label)
    return { session, config }
  },
  describe(state) {
    return {
      ...describeSession(state.session),
      executionProvider: state.config.executionProvider ?? 'cpu',
      deviceId: state.config.deviceId ?? null,
    }
  },
  async run(state, batch, context) {
    // Released whether or not the run succeeds: ORT is done with them once it returns.
    for (const name in batch.inputs) context.release((batch.inputs[name] as WireTensor).buffer)
    const { outputs, transfer, timing } = await runTensors(state.session, batch.inputs)
    context.transfer(...transfer)
    return { outputs, timing }
  },
  select(batch, keep, rows, context) {
    // Only the callers' rows of numeric inputs can be cut out: a fixed batch size's fill
    // rows must stay (the model takes that many), and strings are not one slice per row.
    // The inputs are copied, kept rows only, into buffers of their own (ORT takes a
    // tensor's whole buffer); the ones sent are done with.
    for (const name in batch.inputs) context.release((batch.inputs[name] as WireTensor).buffer)
    if (keep.length === 0 || batch.rows !== rows) return undefined
    const inputs: Record<string, WireTensor> = {}
    for (const name in batch.inputs) {
      const wire = batch.inputs[name] as WireTensor
      if (wire.type === 'string' || wire.dims[0] !== rows) return undefined
      const rowBytes = wire.buffer.byteLength / rows
      const from = new Uint8Array(wire.buffer)
      const to = new Uint8Array(uninitializedArrayBuffer(rowBytes * keep.length))
      for (let j = 0; j < keep.length; j++) to.set(from.subarray(keep[j] * rowBytes, (keep[j] + 1) * rowBytes), j * rowBytes)
      inputs[name] = { type: wire.type, dims: [keep.length, ...wire.dims.slice(1)], buffer: to.buffer }
    }
    return { rows: keep.length, inputs }
  },
  async dispose(state) {
    await state.session.release()
  },
}
