/**
 * The ONNX tensor worker's definition (its entry, onnx-worker.ts, binds it to the thread):
 * the default worker of `createPool`. One cached `InferenceSession` per thread; each
 * batch arrives as one packed tensor per input (transferred), is wrapped without
 * copying, and the outputs are transferred back, the inputs released with them.
 */
import type { InferenceSession } from 'onnxruntime-node'
import type { WorkerDefinition } from './define-worker.js'
import { createSession, describeSession, pickDevice, runTensors } from './onnx.js'
import type { OnnxSessionConfig } from './onnx.js'
import type { TensorBatch, TensorBatchOutput, WireTensor } from './protocol.js'

/** `workerOptions` of the ONNX tensor worker (the host fills them in from `PoolOptions`). */
export interface OnnxWorkerOptions {
  model: string | Uint8Array
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

export const onnxWorkerDefinition: WorkerDefinition<OnnxWorkerOptions, OnnxState, TensorBatch, TensorBatchOutput> = {
  async load(options) {
    const config = pickDevice(options.session ?? {}, options.deviceIds, options.deviceCounter)
    const session = await createSession(options.model, config)
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
  async dispose(state) {
    await state.session.release()
  },
}
