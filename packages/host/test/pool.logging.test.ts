import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { resolvePoolOptions } from '@inferpool/host'
import { toOrtSessionOptions } from '@inferpool/worker'
import { models, workers } from './fixtures/models.js'

/** Runs fixtures/ort-log-child.mjs; resolves with its exit code, stdout and stderr. */
function child(mode: 'run' | 'cuda', level: 'default' | number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [workers.ortLogChild, models.poison, mode, String(level)], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => proc.on('close', (code) => resolve({ code, stdout, stderr })))
}

describe("ONNX Runtime's own logging", () => {
  it('by default a failed run reaches the caller as ERR_INFERENCE and ORT prints nothing', async () => {
    const { code, stdout, stderr } = await child('run', 'default')
    expect(code).toBe(0)
    expect(stdout).toBe('ERR_INFERENCE\n')
    expect(stderr).not.toMatch(/onnxruntime|Gather/)
  })

  it('with session.logSeverityLevel 2 ORT prints the failed run too', async () => {
    const { code, stdout, stderr } = await child('run', 2)
    expect(code).toBe(0)
    expect(stdout).toBe('ERR_INFERENCE\n')
    expect(stderr).toMatch(/\[E:onnxruntime:.*Non-zero status code returned while running Gather node/)
  })

  it('by default a CUDA provider that cannot load is only the typed error, not an ORT log line', async () => {
    const { code, stdout, stderr } = await child('cuda', 'default')
    expect(code).toBe(0)
    expect(stdout).toBe('ERR_PROVIDER_UNAVAILABLE\n')
    expect(stderr).not.toMatch(/onnxruntime|providers_shared/)
  })

  it('with session.logSeverityLevel 2 ORT prints the provider load failure', async () => {
    const { code, stdout, stderr } = await child('cuda', 2)
    expect(code).toBe(0)
    expect(stdout).toBe('ERR_PROVIDER_UNAVAILABLE\n')
    expect(stderr).toMatch(/\[E:onnxruntime:.*Failed to load library .*libonnxruntime_providers_shared\.so/)
  })

  it('validates session.logSeverityLevel and maps it to the session options', () => {
    expect(resolvePoolOptions({ model: 'm.onnx' }).session.logSeverityLevel).toBe(4)
    expect(toOrtSessionOptions(resolvePoolOptions({ model: 'm.onnx', session: { logSeverityLevel: 1 } }).session).logSeverityLevel).toBe(1)
    expect(() => resolvePoolOptions({ model: 'm.onnx', session: { logSeverityLevel: 5 as never } })).toThrow(
      new RangeError('Expected `session.logSeverityLevel` to be an integer from 0 (verbose) to 4 (fatal), got `5` (number)'),
    )
    expect(() => resolvePoolOptions({ model: 'm.onnx', session: { logSeverityLevel: 'error' as never } })).toThrow(
      new TypeError('Expected `session.logSeverityLevel` to be an integer >= 0, got `"error"` (string)'),
    )
  })
})
