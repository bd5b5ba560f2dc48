import { expect } from 'vitest'
import { InferenceSession } from 'onnxruntime-node'
import { modelPath, mulberry32, uniformFloat32 } from '../src/index.js'

const opened: InferenceSession[] = []

/**
 * A real onnxruntime-node session on one intra-op thread (the machine's two cores are
 * shared with other test files). Log level 4 (fatal only) keeps the expected run-time
 * failures of the poison/hard-coded models from printing error lines to stderr.
 */
export async function openSession(model: string | Uint8Array): Promise<InferenceSession> {
  const options: InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 4 }
  const session =
    typeof model === 'string' ? await InferenceSession.create(modelPath(model), options) : await InferenceSession.create(model, options)
  opened.push(session)
  return session
}

/** Release every session opened by {@link openSession}; call from `afterAll`. */
export async function releaseSessions(): Promise<void> {
  await Promise.all(opened.splice(0).map((s) => s.release()))
}

/** Deterministic test input, uniform in ±scale. */
export function testInput(count: number, seed: number, scale = 1): Float32Array {
  return uniformFloat32(mulberry32(seed), count, scale)
}

/**
 * Element-wise |actual - expected| <= abs + rel · |expected|. float32 kernels against a
 * float64 reference differ in the last bits; the tolerance is far below any real bug.
 */
export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, abs = 1e-5, rel = 1e-4): void {
  expect(actual.length).toBe(expected.length)
  for (let i = 0; i < expected.length; i++) {
    const diff = Math.abs(actual[i] - expected[i])
    if (!(diff <= abs + rel * Math.abs(expected[i]))) {
      expect.fail(`element ${i}: got ${actual[i]}, expected ${expected[i]} (diff ${diff})`)
    }
  }
}
