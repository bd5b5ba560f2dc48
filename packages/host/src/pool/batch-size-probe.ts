/**
 * Detects a model that declares a dynamic batch axis but only runs batch 1 (common in
 * exported models: a Reshape with a hard-coded 1 inside). Such a model fails every
 * batch of more than one row, the batcher splits each failure down to single rows,
 * and every row then succeeds — correct results, but every batch runs ~2n times.
 *
 * Evidence: a multi-row batch failed with an inference error, then every one of its
 * rows succeeded alone. The pool is lowered to batch 1 once {@link REQUIRED_EVIDENCE}
 * independent multi-row batches have shown that pattern and no multi-row batch has
 * ever succeeded. A poisoned row never counts (it fails alone, so its batch is no
 * evidence either way), and one successful multi-row batch proves the model batches,
 * after which the probe stays silent for the pool's life.
 */

/**
 * How many independent multi-row batches must each fail and then have every row
 * succeed alone before the pool is lowered to batch 1.
 *
 * Why 2: lowering is for the pool's life and costs ~20× throughput, so one failure —
 * which a transient error (an allocation failure under memory pressure, a glitch in
 * the execution provider) can cause on the very first multi-row batch — must not
 * decide it. A model that really only runs batch 1 fails *every* multi-row batch
 * deterministically, so the second piece of evidence arrives with the next multi-row
 * batch, at the price of one more split (~2n extra single-row runs, once). For a
 * transient error to still lower the pool it must strike again on the next
 * independent multi-row batch with no multi-row success in between; a third batch
 * would add another split's cost for little more confidence against that.
 *
 * "Independent" means the batch contained rows not already under an earlier failed
 * batch: the halves of a split failure are the same rows, the same piece of evidence.
 */
export const REQUIRED_EVIDENCE = 2

export interface FailedBatch {
  remaining: number
  allSucceededAlone: boolean
}

/** What the probe needs to remember per queued row. */
export interface ProbedRow {
  failedBatch?: FailedBatch
}

export class BatchSizeProbe {
  private multiRowSuccesses = 0
  /** Failed multi-row batches whose rows have all since succeeded alone. */
  private evidence = 0
  private done = false
  private lastFailure = ''

  constructor(private readonly onDetected: (failure: string) => void) {}

  /** A batch failed as a whole with an error of `code`. */
  failed(rows: readonly ProbedRow[], code: string, message: string): void {
    if (this.done) return
    if (rows.length === 1) {
      const record = rows[0].failedBatch
      if (record) {
        // A row that fails alone: its batch proves nothing about the batch size.
        record.allSucceededAlone = false
        this.settleRow(record)
      }
      return
    }
    if (code !== 'ERR_INFERENCE' || this.multiRowSuccesses > 0) return
    this.lastFailure = message
    let record: FailedBatch | undefined
    for (const row of rows) {
      // A row already under an earlier failed batch (a split half) stays counted
      // there: only fresh rows make a batch independent evidence.
      if (row.failedBatch) continue
      record ??= { remaining: 0, allSucceededAlone: true }
      row.failedBatch = record
      record.remaining++
    }
  }

  /** A batch succeeded. */
  succeeded(rows: readonly ProbedRow[]): void {
    if (this.done) return
    if (rows.length > 1) {
      this.multiRowSuccesses++
      return
    }
    const record = rows[0].failedBatch
    if (record) this.settleRow(record)
  }

  private settleRow(record: FailedBatch): void {
    if (--record.remaining > 0 || !record.allSucceededAlone || this.multiRowSuccesses > 0) return
    if (++this.evidence < REQUIRED_EVIDENCE) return
    this.done = true
    this.onDetected(this.lastFailure)
  }
}
