/**
 * Detects a model that declares a dynamic batch axis but only runs batch 1 (common in
 * exported models: a Reshape with a hard-coded 1 inside). Such a model fails every
 * batch of more than one row, the batcher splits each failure down to single rows,
 * and every row then succeeds — correct results, but every batch runs ~2n times.
 *
 * Evidence: a multi-row batch failed with an inference error, then every one of its
 * rows succeeded alone, and no multi-row batch has ever succeeded. A poisoned row
 * never counts (it fails alone), and one successful multi-row batch proves the model
 * batches, after which the probe stays silent for the pool's life.
 */
interface FailedBatch {
  remaining: number
  allSucceededAlone: boolean
}

/** What the probe needs to remember per queued row. */
export interface ProbedRow {
  failedBatch?: FailedBatch
}

export class BatchSizeProbe {
  private multiRowSuccesses = 0
  private done = false

  constructor(private readonly onDetected: (failure: string) => void) {}

  /** A batch failed as a whole with an error of `code`. */
  failed(rows: readonly ProbedRow[], code: string, message: string): void {
    if (this.done) return
    if (rows.length === 1) {
      const record = rows[0].failedBatch
      if (record) {
        record.allSucceededAlone = false
        record.remaining--
      }
      return
    }
    if (code !== 'ERR_INFERENCE' || this.multiRowSuccesses > 0) return
    const record: FailedBatch = { remaining: 0, allSucceededAlone: true }
    for (const row of rows) {
      // A row already under an earlier failed batch stays counted there.
      if (row.failedBatch) continue
      row.failedBatch = record
      record.remaining++
    }
    this.lastFailure = message
  }

  private lastFailure = ''

  /** A batch succeeded. */
  succeeded(rows: readonly ProbedRow[]): void {
    if (this.done) return
    if (rows.length > 1) {
      this.multiRowSuccesses++
      return
    }
    const record = rows[0].failedBatch
    if (!record) return
    record.remaining--
    if (record.remaining === 0 && record.allSucceededAlone && this.multiRowSuccesses === 0) {
      this.done = true
      this.onDetected(this.lastFailure)
    }
  }
}
