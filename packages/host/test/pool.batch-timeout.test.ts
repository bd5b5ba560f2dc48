/**
 * `batchTimeoutMs` on ONNX pools. A thread must never be terminated inside
 * onnxruntime's native `run` (that aborts the whole process: docs/runtime-facts.md),
 * so a late batch fails its callers at once while its replica stays out of service
 * until the run returns. The risky part runs in a child process, so a regression
 * aborts the child, not vitest.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { jsonLines, runNode } from './process-helpers.js'
import { afterAll, describe, expect, it } from 'vitest'

const childScript = fileURLToPath(new URL('./fixtures/batch-timeout-child.mjs', import.meta.url))
/** The reproduction: densenet121 runs for tens of ms per row on these machines. */
const densenet = fileURLToPath(new URL('../../../fixtures/models/third-party/light_densenet121.onnx', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'inferpool-batch-timeout-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const fast = { status: 'fulfilled', y: [0.5] }

describe('a batch that outlasts batchTimeoutMs inside a native run', () => {
  it('fails its callers with ERR_BATCH_TIMEOUT; the host survives, the other replica serves, the late one comes back', async () => {
    // The slow row (x [4000, 4000], three matrix products) runs for seconds; 1 s is far
    // below it and far above a 2×2 row, so no outcome depends on this machine's speed.
    const model = join(scratch, 'matrix-power.onnx')
    const { code, signal, stdout, stderr } = await runNode([childScript, model, '1000'])
    // The one line on stderr is the pool's log of the replacement (the default logger is the console).
    expect({ code, signal, stderr: stderr.replace(/replica [01] of/, 'replica N of') }).toEqual({
      code: 0,
      signal: null,
      stderr: `inferpool: replica N of ${model}: a batch ran past batchTimeoutMs (1000 ms); starting a replacement; 1 of 2 replicas ready\n`,
    })
    expect(jsonLines(stdout)).toEqual([
      {
        step: 'slow',
        status: 'rejected',
        code: 'ERR_BATCH_TIMEOUT',
        message:
          'The batch did not finish within batchTimeoutMs (1000 ms); its worker thread takes no new batch and is replaced once the run returns (a native call cannot be interrupted)',
      },
      { step: 'states', states: ['overdue', 'ready'] },
      { step: 'fast', outcomes: [fast, fast, fast] },
      { step: 'restart', event: { replica: expect.any(Number), reason: 'a batch ran past batchTimeoutMs (1000 ms)' } },
      { step: 'back', states: ['ready', 'ready'], restarts: 1 },
      { step: 'after', outcomes: [fast, fast, fast, fast] },
      { step: 'closed' },
    ])
  })

  it("the issue's reproduction (densenet121, one replica, batchTimeoutMs 30, one row) no longer aborts the process", async () => {
    // A faster machine may finish the row within 30 ms: then it is served. Either way
    // the process must end on its own with code 0.
    const script = `
      import { createPool } from '@inferpool/host'
      // Quiet: whether the late thread is replaced (and that logged) before close() depends on the machine's speed.
      const logger = { warn() {}, info() {} }
      const pool = await createPool({ model: ${JSON.stringify(densenet)}, replicas: 1, batchTimeoutMs: 30, logger })
      const [input] = pool.metadata.inputs
      const size = input.dims.slice(1).reduce((a, d) => a * (typeof d === 'number' && d > 0 ? d : 1), 1)
      const outcome = await pool.infer({ [input.name]: new Float32Array(size).fill(0.5) }).then(() => 'served', (err) => err.code)
      await pool.close()
      process.stdout.write(outcome + '\\n')
    `
    const { code, signal, stdout, stderr } = await runNode(['--input-type=module', '-e', script])
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' })
    expect(['ERR_BATCH_TIMEOUT\n', 'served\n']).toContain(stdout)
  })
})
