export { defineWorker, createWorkerRuntime, PROCESS_HOST } from './define-worker.js'
export {
  readTransferFile,
  writeTransferFile,
  writeTensorTask,
  writeResult,
  ReusedBuffers,
  uninitializedArrayBuffer,
  transferFilePath,
  TRANSFER_FILE_DIR,
} from './process-wire.js'
export type { TensorPieces } from './process-wire.js'
export { encodeNotice, NoticeReader } from './process-notice.js'
export type { Notice } from './process-notice.js'
export type { WorkerDefinition, WorkerHandler, WorkerRuntime, LoadContext, RunContext, ProcessHost } from './define-worker.js'
export { WorkerError, serializeError } from './errors.js'
export { sharedClockMs } from './shared-clock.js'
export { IdleCollection, youngGenerationGrown, RELEASE_AFTER_MS, MAX_RELEASES } from './idle-collection.js'
export type { IdleCollectionOptions } from './idle-collection.js'
export { exposeGc } from './expose-gc.js'
export {
  createSession,
  pickDevice,
  toOrtSessionOptions,
  describeSession,
  describeModelSource,
  tensorFromWire,
  wireFromTensor,
  runTensors,
  isProviderLoadFailure,
  CUDA_INSTALL_HINT,
  DEFAULT_LOG_SEVERITY_LEVEL,
} from './onnx.js'
export type { OnnxSessionConfig, LogSeverityLevel } from './onnx.js'
export { onnxWorkerDefinition } from './onnx-definition.js'
export type { OnnxWorkerOptions } from './onnx-definition.js'
export type * from './protocol.js'
export { decodeStrings, encodeStrings, joinBytesElements, splitBytesElements } from './strings.js'
export type { BytesFramingFault } from './strings.js'
export { TYPED_ARRAY_OF } from './tensor-types.js'
