import { describe, expect, it } from 'vitest'
import { BatchSizeProbe, REQUIRED_EVIDENCE } from '../src/pool/batch-size-probe.js'
import type { ProbedRow } from '../src/pool/batch-size-probe.js'

/**
 * The probe's decision, driven with scripted batch outcomes in the order pool.ts reports
 * them: `failed(rows, code, message)` for a batch that failed as a whole, `succeeded(rows)`
 * for one that succeeded. The batcher splits a failed batch in halves until rows are
 * alone; `failSplitThenAlone` plays that out.
 */
function harness() {
  const detected: string[] = []
  const probe = new BatchSizeProbe((failure) => detected.push(failure))
  const rows = (n: number): ProbedRow[] => Array.from({ length: n }, () => ({}))
  /** A multi-row batch fails, its halves fail, and then each row gets `alone(row)`. */
  function failSplitThenAlone(batch: ProbedRow[], message: string, alone: (row: ProbedRow, i: number) => 'ok' | 'fail' = () => 'ok'): void {
    const split = (part: ProbedRow[]): void => {
      if (part.length === 1) return
      probe.failed(part, 'ERR_INFERENCE', message)
      const mid = Math.ceil(part.length / 2)
      split(part.slice(0, mid))
      split(part.slice(mid))
    }
    split(batch)
    batch.forEach((row, i) => {
      if (alone(row, i) === 'ok') probe.succeeded([row])
      else probe.failed([row], 'ERR_INFERENCE', 'poisoned row')
    })
  }
  return { probe, detected, rows, failSplitThenAlone }
}

describe('batch-size probe', () => {
  it('needs two independent failed multi-row batches, as a model that only runs batch 1 gives', () => {
    expect(REQUIRED_EVIDENCE).toBe(2)
    const { detected, rows, failSplitThenAlone } = harness()
    failSplitThenAlone(rows(8), 'first failure')
    // One failed batch whose rows all succeeded alone (including its split halves, which
    // are the same rows and so not independent evidence): not enough on its own.
    expect(detected).toEqual([])
    failSplitThenAlone(rows(8), 'second failure')
    expect(detected).toEqual(['second failure'])
  })

  it('does not lower the pool for a transient failure of the first multi-row batch once a multi-row batch succeeds', () => {
    const { probe, detected, rows, failSplitThenAlone } = harness()
    failSplitThenAlone(rows(8), 'transient')
    probe.succeeded(rows(8))
    // A multi-row success proves the model batches: later patterns are never evidence.
    failSplitThenAlone(rows(8), 'later')
    failSplitThenAlone(rows(8), 'later again')
    failSplitThenAlone(rows(8), 'and again')
    expect(detected).toEqual([])
  })

  it('does not lower the pool when only single rows follow one transient multi-row failure', () => {
    const { probe, detected, rows, failSplitThenAlone } = harness()
    failSplitThenAlone(rows(4), 'transient')
    for (let i = 0; i < 100; i++) probe.succeeded(rows(1))
    expect(detected).toEqual([])
  })

  it('decides only once every row of a failed batch has succeeded alone, in whatever order they finish', () => {
    const { probe, detected, rows } = harness()
    const a = rows(3)
    const b = rows(3)
    // Both batches fail before any of their rows runs alone (two replicas, say).
    probe.failed(a, 'ERR_INFERENCE', 'a failed')
    probe.failed(b, 'ERR_INFERENCE', 'b failed')
    probe.succeeded([a[0]])
    probe.succeeded([b[0]])
    probe.succeeded([a[1]])
    probe.succeeded([b[1]])
    probe.succeeded([a[2]])
    expect(detected).toEqual([])
    probe.succeeded([b[2]])
    expect(detected).toEqual(['b failed'])
  })

  it('never counts a batch with a row that fails alone (a poisoned row), but keeps the other evidence', () => {
    const { detected, rows, failSplitThenAlone } = harness()
    failSplitThenAlone(rows(4), 'poisoned batch', (_, i) => (i === 2 ? 'fail' : 'ok'))
    failSplitThenAlone(rows(4), 'clean 1')
    expect(detected).toEqual([])
    failSplitThenAlone(rows(4), 'poisoned again', (_, i) => (i === 0 ? 'fail' : 'ok'))
    expect(detected).toEqual([])
    failSplitThenAlone(rows(4), 'clean 2')
    expect(detected).toEqual(['clean 2'])
  })

  it('counts only inference errors: a timed-out or crashed multi-row batch is no evidence', () => {
    const { probe, detected, rows } = harness()
    for (const code of ['ERR_BATCH_TIMEOUT', 'ERR_WORKER_CRASHED', 'ERR_BATCH_SIZE_MISMATCH']) {
      const batch = rows(4)
      probe.failed(batch, code, code)
      for (const row of batch) probe.succeeded([row])
    }
    expect(detected).toEqual([])
  })

  it('detects once and stays silent after', () => {
    const { detected, rows, failSplitThenAlone } = harness()
    for (let i = 0; i < 2 * REQUIRED_EVIDENCE + 1; i++) failSplitThenAlone(rows(4), `failure ${i}`)
    expect(detected).toEqual([`failure ${REQUIRED_EVIDENCE - 1}`])
  })
})
