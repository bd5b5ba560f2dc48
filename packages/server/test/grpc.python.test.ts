/**
 * A second, independent client: Python's grpcio (gRPC's C core) with stubs generated
 * by grpcio-tools (Google's protoc) from the repo's .proto — the way Triton's own
 * Python client is built. It runs where python3 has grpcio and grpcio-tools (.ci/run
 * installs them from the package mirror when it can); elsewhere it is reported skipped.
 */
import { execFile, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { demoModel, demoRows } from './server-helpers.js'

const script = fileURLToPath(new URL('./python/grpc_client.py', import.meta.url))
const protoDir = fileURLToPath(new URL('../proto', import.meta.url))
const hasGrpcio = spawnSync('python3', ['-c', 'import grpc, grpc_tools'], { stdio: 'ignore' }).status === 0

let pool: Pool
let server: InferpoolServer
beforeAll(async () => {
  if (!hasGrpcio) return
  pool = await createPool({ model: demoModel, replicas: 1 })
  server = await serve({ demo: pool }, { port: 0, grpcPort: 0, closePools: false, logger: { error() {}, info() {} } })
})
afterAll(async () => {
  await server?.close()
  await pool?.close()
})

function runClient(job: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = execFile('python3', [script, server.grpcAddress as string, protoDir], (error, stdout, stderr) => {
      if (error) return reject(new Error(`grpc_client.py failed: ${stderr}`))
      resolve(JSON.parse(stdout) as Record<string, unknown>)
    })
    child.stdin?.end(JSON.stringify(job))
  })
}

describe.skipIf(!hasGrpcio)('Python grpcio client (needs python3 with grpcio and grpcio-tools)', () => {
  it('calls every RPC through stubs generated from the repo .proto and gets onnxruntime results', async () => {
    // Rounded to float32 so the Python side packs exactly these values.
    const rows = demoRows(61, 2).map((row) => row.map(Math.fround))
    const result = await runClient({ model: 'demo', input: 'input', rows })
    const direct = await Promise.all(rows.map((row) => pool.infer({ input: Float32Array.from(row) })))
    const expected = direct.map((d) => Array.from(d.output.data as Float32Array))
    expect(result).toEqual({
      live: true,
      ready: true,
      server: { name: 'inferpool', version: '0.1.0', extensions: ['binary_tensor_data', 'model_configuration', 'statistics'] },
      model_inputs: [['input', 'FP32', [-1, 256]]],
      // data_type 11 is TYPE_FP32.
      config: { name: 'demo', max_batch_size: pool.metadata.maxBatchSize, input: [['input', 11, [256]]], instance_count: 1 },
      unary: { id: 'unary', outputs: [['output', 'FP32', [2, 16]]], data: expected.flat() },
      error: {
        code: 'INVALID_ARGUMENT',
        details: 'Input "input" has dims [3], expected float32 [256] without the batch dimension (axis 0 must be 256)',
        inferpool_code: 'ERR_INVALID_INPUT',
      },
      stream: [
        {
          id: 'bad',
          error_message: 'Input "input" has dims [3], expected float32 [256] without the batch dimension (axis 0 must be 256)',
          data: null,
        },
        { id: 's0', error_message: '', data: expected[0] },
        { id: 's1', error_message: '', data: expected[1] },
      ],
    })
  })
})
