import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** The demo model shipped in @inferpool/host: `input` float32 [batch, 256] → `output` float32 [batch, 16]. */
export function demoModelPath(): string {
  const hostPackage = createRequire(import.meta.url).resolve('@inferpool/host/package.json')
  return join(dirname(hostPackage), 'models', 'demo-mlp.onnx')
}
