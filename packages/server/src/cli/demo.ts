import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** The built-in demo model: an MLP, `input` float32 [batch, 256] → `output` float32 [batch, 16]. */
export const DEMO_MODEL_NAME = 'demo'

/** The demo model ships in @inferpool/host (the pool's examples use it too); found wherever that package is installed. */
export function demoModelPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@inferpool/host/package.json')), 'models', 'demo-mlp.onnx')
}
