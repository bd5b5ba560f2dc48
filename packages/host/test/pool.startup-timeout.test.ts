import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const childScript = fileURLToPath(new URL('./fixtures/startup-timeout-child.mjs', import.meta.url))
/** A model that takes a few hundred ms to load on 2 cores, so a short timeout lands inside the load. */
const slowModel = fileURLToPath(new URL('../../../fixtures/models/third-party/light_densenet121.onnx', import.meta.url))
const demoMlp = fileURLToPath(new URL('../models/demo-mlp.onnx', import.meta.url))
/** A user worker whose load never settles; its module imports @inferpool/worker, and with it onnxruntime-node. */
const hangingLoad = fileURLToPath(new URL('./fixtures/hanging-load-worker.js', import.meta.url))

/** Runs fixtures/startup-timeout-child.mjs; resolves with how it ended and what it printed. */
function child(
  model: string,
  replicas: number,
  timeouts: number[],
  worker?: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [childScript, model, String(replicas), ...timeouts.map(String)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: worker === undefined ? process.env : { ...process.env, WORKER: worker },
  })
  let stdout = ''
  let stderr = ''
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
}

describe('a start-up timeout while onnxruntime is creating sessions', () => {
  // Before the fix, timeouts around 100 ms (the threads are past booting and inside
  // InferenceSession.create) ended the child with SIGABRT and "terminate called after
  // throwing an instance of 'Napi::Error'" on most runs.
  it('rejects createPool with ERR_STARTUP_TIMEOUT and the process exits by itself with code 0', async () => {
    // Densenet loads in ~300 ms on these machines, so the longer timeouts land inside
    // the native load; a faster machine may load within one of them ('loaded' is then
    // printed and the pool closed). What must never happen is an abort. The first
    // timeout (5 ms) ends before any thread has even booted, on any machine.
    const timeouts = [5, 40, 80, 120, 160, 40, 80, 120, 160]
    const { code, signal, stdout, stderr } = await child(slowModel, 2, timeouts)
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' })
    const outcomes = stdout.split('\n').filter(Boolean)
    expect(outcomes).toHaveLength(timeouts.length)
    expect(outcomes.filter((o) => o !== 'ERR_STARTUP_TIMEOUT' && o !== 'loaded')).toEqual([])
    expect(outcomes[0]).toBe('ERR_STARTUP_TIMEOUT')
  })

  it('does the same with one replica per pool and a timeout that can land at any point of the load', async () => {
    // The demo model loads in about 100 ms: some of these timeouts may fire after it
    // loaded ('loaded' is then printed and the pool closed); none may abort.
    const timeouts = [1, 30, 60, 90, 1, 30, 60, 90]
    const { code, signal, stdout, stderr } = await child(demoMlp, 1, timeouts)
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' })
    const outcomes = stdout.split('\n').filter(Boolean)
    expect(outcomes).toHaveLength(timeouts.length)
    expect(outcomes.filter((o) => o !== 'ERR_STARTUP_TIMEOUT' && o !== 'loaded')).toEqual([])
    expect(outcomes[0]).toBe('ERR_STARTUP_TIMEOUT')
  })

  it("does the same for a user worker's threads while they import their module, and with it onnxruntime-node's addon", async () => {
    // A thread ended while it registers a native addon aborts the process just as one
    // ended inside a native call does (docs/runtime-facts.md). The user worker's module
    // imports @inferpool/worker, which loads onnxruntime-node: these timeouts fire while
    // the threads boot, import it, or wait in the load that never settles.
    // Before the fix, 3 runs of 4 aborted (Node's "Assertion failed: facade->Instantiate",
    // "v8::Module::IsGraphAsync must be used on an instantiated module", or the addon's
    // "terminate called after throwing an instance of 'Napi::Error'").
    const timeouts = Array.from({ length: 50 }, (_, i) => 1 + 3 * i)
    const { code, signal, stdout, stderr } = await child(demoMlp, 2, timeouts, hangingLoad)
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' })
    expect(stdout.split('\n').filter(Boolean)).toEqual(new Array(timeouts.length).fill('ERR_STARTUP_TIMEOUT'))
  })
})
