import { fileURLToPath } from 'node:url'

/** The built-in demo model: an MLP, `input` float32 [batch, 256] → `output` float32 [batch, 16]. */
export const DEMO_MODEL_NAME = 'demo'

/** Resolved from this module (dist/cli/ or src/cli/), so it works wherever the package is installed. */
export function demoModelPath(): string {
  return fileURLToPath(new URL('../../models/demo-mlp.onnx', import.meta.url))
}
