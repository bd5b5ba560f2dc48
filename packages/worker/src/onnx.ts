/**
 * ONNX Runtime helpers for code that runs inside a worker thread: the ONNX tensor
 * worker is built on them, and a user's own worker (tokenize → ORT → post-process)
 * can use them to get the same session settings and zero-copy tensors.
 */
import { env, InferenceSession, Tensor } from 'onnxruntime-node'
import { WorkerError } from './errors.js'
import { decodeStrings, encodeStrings } from './strings.js'
import { isWireTensorType, TYPED_ARRAY_OF } from './tensor-types.js'
import { performance } from 'node:perf_hooks'
import type { RunTiming, WireTensor, WireTensorInfo, WorkerDescription } from './protocol.js'

/** Session settings as the host resolves them (every field has its final value). */
export interface OnnxSessionConfig {
  /** @default 'cpu' */
  executionProvider?: 'cpu' | 'cuda'
  /** CUDA device of this session. @default 0 */
  deviceId?: number
  /** Threads of this session's intra-op pool. @default 1 (the host derives max(1, floor(cores / replicas))) */
  intraOpNumThreads?: number
  /** @default 1 */
  interOpNumThreads?: number
  /** @default 'all' */
  graphOptimizationLevel?: 'disabled' | 'basic' | 'extended' | 'all'
  /** Let intra-op threads spin while idle. Off: replicas share the cores. @default false */
  allowSpinning?: boolean
  /**
   * ORT log level (0 verbose, 1 info, 2 warning, 3 error, 4 fatal), for the session and
   * ORT's process-wide logger (`env.logLevel`). Fatal only by default: every error ORT
   * logs (a failed run, a provider that cannot load) also comes back as an exception
   * that inferpool turns into a typed error carrying ORT's message, so the log line is
   * a duplicate — and one a hostile client can multiply (one line per split re-run).
   * @default 4 (fatal)
   */
  logSeverityLevel?: LogSeverityLevel
}

/** ORT's log severities: 0 verbose, 1 info, 2 warning, 3 error, 4 fatal. */
export type LogSeverityLevel = 0 | 1 | 2 | 3 | 4

/** Default ORT log level of inferpool sessions (see {@link OnnxSessionConfig.logSeverityLevel}). */
export const DEFAULT_LOG_SEVERITY_LEVEL: LogSeverityLevel = 4

/** `env.logLevel` names by severity. */
const ENV_LOG_LEVELS = ['verbose', 'info', 'warning', 'error', 'fatal'] as const

/** How to install the CUDA provider libraries (onnxruntime-node's install script is off by default). */
export const CUDA_INSTALL_HINT =
  'Install the CUDA execution provider with `ONNXRUNTIME_NODE_INSTALL=cuda12 pnpm rebuild onnxruntime-node` ' +
  '(npm: `ONNXRUNTIME_NODE_INSTALL=cuda12 npm rebuild onnxruntime-node`); it needs CUDA 12 and cuDNN 9 on the system.'

/**
 * Maps inferpool's session settings to ORT's `SessionOptions`.
 * Spinning is off unless asked for: with several sessions on shared cores a spinning
 * intra-op pool burns the cores the other replicas need (docs/runtime-facts.md: 831 vs 1,393
 * runs/s for two sessions on two cores).
 */
export function toOrtSessionOptions(config: OnnxSessionConfig = {}): InferenceSession.SessionOptions {
  const provider = config.executionProvider ?? 'cpu'
  const executionProviders: InferenceSession.ExecutionProviderConfig[] =
    provider === 'cuda' ? [{ name: 'cuda', deviceId: config.deviceId ?? 0 }] : ['cpu']
  return {
    executionProviders,
    intraOpNumThreads: config.intraOpNumThreads ?? 1,
    interOpNumThreads: config.interOpNumThreads ?? 1,
    graphOptimizationLevel: config.graphOptimizationLevel ?? 'all',
    logSeverityLevel: config.logSeverityLevel ?? DEFAULT_LOG_SEVERITY_LEVEL,
    extra: { session: { intra_op: { allow_spinning: config.allowSpinning ? '1' : '0' } } },
  }
}

/**
 * The session settings of one new thread: with CUDA and several `deviceIds`, each new
 * thread takes the next device, counting through `counter` (one Int32 over a
 * SharedArrayBuffer shared by every thread of the pool, so replacements keep turning).
 */
export function pickDevice(
  config: OnnxSessionConfig,
  deviceIds: readonly number[] | undefined,
  counter: Int32Array | undefined,
): OnnxSessionConfig {
  if (config.executionProvider !== 'cuda' || !deviceIds || deviceIds.length === 0) return { ...config }
  const turn = counter ? Atomics.add(counter, 0, 1) : 0
  return { ...config, deviceId: deviceIds[turn % deviceIds.length] }
}

/** True when ORT's message says the provider's shared libraries could not be loaded. */
export function isProviderLoadFailure(message: string): boolean {
  return /Failed to load (shared )?library|providers_shared|providers_cuda|libcudnn|libcublas|libcudart|CUDA/i.test(message)
}

/** Describes the model for error messages: its path or the size of its bytes. */
export function describeModelSource(model: string | Uint8Array): string {
  return typeof model === 'string' ? model : `<bytes: ${model.byteLength}>`
}

/**
 * Creates one session with the mapped options (`label`: how messages name the model). Rejects with a `WorkerError` coded
 * `ERR_PROVIDER_UNAVAILABLE` (with install instructions) when CUDA was asked for and
 * its libraries are missing, else `ERR_MODEL_LOAD` naming the model and ORT's message.
 * Listing `['cuda', 'cpu']` does not make ORT fall back, so there is no silent fallback
 * here: the host makes an explicit second attempt when the user asks for one.
 */
export async function createSession(
  model: string | Uint8Array,
  config: OnnxSessionConfig = {},
  label: string = describeModelSource(model),
): Promise<InferenceSession> {
  const options = toOrtSessionOptions(config)
  // The session's level covers its own logs (a failed run); messages logged before a
  // session exists (a provider library that cannot load) go to ORT's process-wide
  // logger, whose level comes from `env.logLevel`, read when the addon first creates
  // its environment — i.e. by the first session of the process.
  env.logLevel = ENV_LOG_LEVELS[options.logSeverityLevel ?? DEFAULT_LOG_SEVERITY_LEVEL]
  const source = label
  try {
    if (typeof model === 'string') return await InferenceSession.create(model, options)
    // ORT's binding refuses a view over a SharedArrayBuffer (the pool shares one copy of
    // the model with its threads: docs/runtime-facts.md): load from a private copy, which
    // is garbage once the session is made (ORT keeps no reference to the bytes).
    return await InferenceSession.create(model.buffer instanceof SharedArrayBuffer ? model.slice() : model, options)
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    if (config.executionProvider === 'cuda' && isProviderLoadFailure(message)) {
      throw new WorkerError(
        'ERR_PROVIDER_UNAVAILABLE',
        `Execution provider 'cuda' is unavailable (${message.trim()}). ${CUDA_INSTALL_HINT}`,
        { cause: err, details: { provider: 'cuda', deviceId: config.deviceId ?? 0, runtimeMessage: message, model: source } },
      )
    }
    throw new WorkerError('ERR_MODEL_LOAD', `Failed to load model ${source}: ${message}`, {
      cause: err,
      details: { model: source, runtimeMessage: message },
    })
  }
}

function describeValues(kind: 'input' | 'output', metadata: readonly InferenceSession.ValueMetadata[]): WireTensorInfo[] {
  return metadata.map((value) => {
    if (!value.isTensor) {
      throw new WorkerError('ERR_MODEL_LOAD', `Model ${kind} "${value.name}" is not a tensor; inferpool serves tensor models only`, {
        details: { [kind]: value.name },
      })
    }
    if (!isWireTensorType(value.type)) {
      throw new WorkerError(
        'ERR_MODEL_LOAD',
        `Model ${kind} "${value.name}" has element type ${value.type}, which inferpool does not support`,
        {
          details: { [kind]: value.name, type: value.type },
        },
      )
    }
    return { name: value.name, type: value.type, dims: [...value.shape] }
  })
}

/** Inputs and outputs of a session, checked to be tensors of supported types. */
export function describeSession(session: InferenceSession): WorkerDescription {
  return { inputs: describeValues('input', session.inputMetadata), outputs: describeValues('output', session.outputMetadata) }
}

/** Wraps an ORT tensor over the wire tensor's buffer — no copy. */
export function tensorFromWire(wire: WireTensor): Tensor {
  if (wire.type === 'string') return new Tensor('string', decodeStrings(wire.buffer), wire.dims)
  const data = new TYPED_ARRAY_OF[wire.type](wire.buffer)
  return new Tensor(wire.type, data as never, wire.dims)
}

/**
 * Turns an ORT output into a wire tensor. ORT returns plain, exactly-sized buffers,
 * which are sent as they are; anything else (a view at an offset, a larger or shared
 * buffer) is copied so that the transferred buffer holds exactly this tensor.
 */
export function wireFromTensor(tensor: Tensor): WireTensor {
  const type: string = tensor.type
  if (!isWireTensorType(type)) throw new WorkerError('ERR_INFERENCE', `Output of element type ${tensor.type} is not supported`)
  if (type === 'string') return { type, dims: [...tensor.dims], buffer: encodeStrings(tensor.data as string[]) }
  const data = tensor.data as unknown as ArrayBufferView
  const exact = data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength
  const buffer = exact
    ? (data.buffer as ArrayBuffer)
    : (data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer)
  return { type, dims: [...tensor.dims], buffer }
}

/**
 * Runs packed tensors through a session. Returns the outputs as wire tensors and the
 * buffers to transfer back. An ORT failure rejects with `ERR_INFERENCE`.
 */
export async function runTensors(
  session: InferenceSession,
  inputs: Record<string, WireTensor>,
): Promise<{ outputs: Record<string, WireTensor>; transfer: ArrayBuffer[]; timing: RunTiming }> {
  const feeds: Record<string, Tensor> = {}
  for (const [name, wire] of Object.entries(inputs)) feeds[name] = tensorFromWire(wire)
  let results: InferenceSession.ReturnType
  // Absolute times (timeOrigin + now) are comparable across the threads of one process:
  // the host subtracts its own readings from them.
  const runStartMs = performance.timeOrigin + performance.now()
  let runEndMs: number
  try {
    results = await session.run(feeds)
    runEndMs = performance.timeOrigin + performance.now()
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    throw new WorkerError('ERR_INFERENCE', `ONNX Runtime failed to run the batch: ${message}`, {
      cause: err,
      details: { runtimeMessage: message },
    })
  }
  const outputs: Record<string, WireTensor> = {}
  const transfer: ArrayBuffer[] = []
  for (const name of session.outputNames) {
    const wire = wireFromTensor(results[name] as Tensor)
    outputs[name] = wire
    transfer.push(wire.buffer)
  }
  return { outputs, transfer, timing: { runStartMs, runEndMs } }
}
