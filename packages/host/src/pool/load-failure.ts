/**
 * A worker answers a task with a failed load (`ERR_MODEL_LOAD`, `ERR_PROVIDER_UNAVAILABLE`)
 * when its replica's load failed: it retries the load with every task. Read by the
 * transport (the replica's load state) and by the retry policy (one more send for such a batch).
 */
import type { TaskResult } from '@inferpool/worker'

const LOAD_FAILURE_CODES: ReadonlySet<string> = new Set(['ERR_MODEL_LOAD', 'ERR_PROVIDER_UNAVAILABLE'])

/** The load's error message when `result` says its replica's load failed, else `undefined`. */
export function loadFailureOf(result: TaskResult): string | undefined {
  return !result.ok && LOAD_FAILURE_CODES.has(result.error.code) ? result.error.message : undefined
}
