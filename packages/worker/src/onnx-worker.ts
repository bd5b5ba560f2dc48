/**
 * The ONNX tensor worker's module: what a pool of the built-in worker loads in each
 * thread or process (its behaviour is in onnx-definition.ts).
 */
import { defineWorker } from './define-worker.js'
import { onnxWorkerDefinition } from './onnx-definition.js'

export type { OnnxWorkerOptions } from './onnx-definition.js'

export default defineWorker(onnxWorkerDefinition)
