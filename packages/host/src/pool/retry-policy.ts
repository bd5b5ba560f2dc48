/**
 * The retry policy: what the pool does with one batch between the batcher and a replica —
 * when it is sent again (a re-route, a crash, a failed load) and which typed error ends it
 * (a timeout, a crash, a closed pool), written once against the replica transport
 * (transport.ts), whichever transport runs the replicas.
 *
 * The policy is a decision table ({@link decide}): the transport reports what became of
 * a send, the policy looks the case up and either sends again or throws a typed error.
 * Throwing is not the end of the rows: the batcher's `isolateFailures` splits a failed
 * batch, so a crash or a timeout ends up failing only the rows that cause it alone.
 */
import { BatcherClosedError } from '@inferpool/core'
import type { BatchContext } from '@inferpool/core'
import type { RunTask, TaskResult } from '@inferpool/worker'
import { BatchTimeoutError, InvalidInputError, WorkerCrashedError } from '../errors.js'
import type { PoolObserver } from '../types.js'
import { loadFailureOf } from './load-failure.js'
import type { PackedTask } from './codecs/codec.js'
import type { ReplicaTransport, TransportFailure, TransportFailureKind } from './transport.js'

/** Times a batch is sent again because the replicas it waited for were retired. */
export const MAX_REROUTES = 3
/** Sends of one batch whose replica crashed before the policy gives up (the batcher then splits it). */
export const MAX_CRASH_ATTEMPTS = 2
/** Extra sends of a batch whose replica answered that its load failed (it retries the load per task). */
export const MAX_LOAD_RETRIES = 1

/** What happened to the last send, as the table reads it. */
export type SendCase = TransportFailureKind | 'load-failed'

/** How far the batch has got: sends so far of each kind. */
export interface RetryState {
  /** Sends that ended in a crash, counting the last one. */
  crashes: number
  /** Sends that were re-routed, counting the last one. */
  reroutes: number
  /** Sends answered with a failed load, counting the last one. */
  loadFailures: number
}

/** The error a batch fails with, by failure mode. */
export type BatchFailure = 'closed' | 'timeout' | 'invalid-input' | 'unavailable' | 'crashed'

export type Decision =
  { readonly action: 'send-again' } | { readonly action: 'throw'; readonly error: BatchFailure } | { readonly action: 'return-result' }

const SEND_AGAIN: Decision = Object.freeze({ action: 'send-again' })
const RETURN_RESULT: Decision = Object.freeze({ action: 'return-result' })
const fail = (error: BatchFailure): Decision => Object.freeze({ action: 'throw', error })

/**
 * The policy, one row per case:
 *
 * | last send     | when                       | decision                                         |
 * | ------------- | -------------------------- | ------------------------------------------------ |
 * | `closed`      | always                     | throw `BatcherClosedError` (pool destroyed)      |
 * | `timeout`     | always                     | throw `BatchTimeoutError` (not re-run at this size: the batcher splits it) |
 * | `unsendable`  | always                     | throw `InvalidInputError` (the input cannot be cloned: the caller's fault) |
 * | `unavailable` | always                     | throw `WorkerCrashedError` (no replica runs; a re-run fails the same way) |
 * | `rerouted`    | reroutes ≤ MAX_REROUTES    | send again (never ran: not the batch's fault)    |
 * | `rerouted`    | beyond (counted as a crash) | as `crashed`                                    |
 * | `crashed`     | crashes < MAX_CRASH_ATTEMPTS | send again (a one-off crash fails nothing)     |
 * | `crashed`     | beyond                     | throw `WorkerCrashedError` (the batcher splits)  |
 * | `load-failed` | loadFailures ≤ MAX_LOAD_RETRIES | send again (retries the load there, or lands on a healthy replica) |
 * | `load-failed` | beyond                     | return the result (its `ModelLoadError` fails the batch) |
 */
export function decide(last: SendCase, state: RetryState): Decision {
  switch (last) {
    case 'closed':
      return fail('closed')
    case 'timeout':
      return fail('timeout')
    case 'unsendable':
      return fail('invalid-input')
    case 'unavailable':
      return fail('unavailable')
    case 'rerouted':
      if (state.reroutes <= MAX_REROUTES) return SEND_AGAIN
      // Re-routed too often: counted as a crash (see `RetryPolicy.run`).
      return state.crashes < MAX_CRASH_ATTEMPTS ? SEND_AGAIN : fail('crashed')
    case 'crashed':
      return state.crashes < MAX_CRASH_ATTEMPTS ? SEND_AGAIN : fail('crashed')
    case 'load-failed':
      return state.loadFailures <= MAX_LOAD_RETRIES ? SEND_AGAIN : RETURN_RESULT
  }
}

export interface RetrySettings {
  batchTimeoutMs: number | undefined
  /** Whether the batcher splits failed batches (then only single rows count as crashed). */
  isolateFailures: boolean
}

/** Sends batches through a transport and applies {@link decide}: the retry policy. */
export class RetryPolicy {
  /** Rows failed with `WorkerCrashedError` (counted once: after splitting, only single rows). */
  crashed = 0

  constructor(
    private readonly transport: ReplicaTransport,
    private readonly settings: RetrySettings,
    private readonly observers: ReadonlySet<PoolObserver>,
  ) {}

  /** Runs one batch to a worker result, or throws the typed error its table row names. */
  async run(ctx: BatchContext, rows: number, pack: () => PackedTask): Promise<TaskResult> {
    const state: RetryState = { crashes: 0, reroutes: 0, loadFailures: 0 }
    const sendOptions = { rows, ...(this.settings.batchTimeoutMs === undefined ? {} : { timeoutMs: this.settings.batchTimeoutMs }) }
    for (;;) {
      const { payload, transfer, dims = {}, deadlines, runMs } = pack()
      const task: RunTask = { kind: 'run', batchId: ctx.batchId, payload }
      if (deadlines !== undefined) {
        task.deadlines = deadlines
        task.runMs = runMs ?? 0
      }
      const pending = this.transport.send(task, transfer, sendOptions)
      if (this.observers.size > 0) this.#sent(ctx.batchId, rows, transfer, dims)
      const outcome = await pending
      let last: SendCase
      let failure: TransportFailure | undefined
      if (outcome.ok) {
        const result = outcome.result
        if (loadFailureOf(result) === undefined) return result
        last = 'load-failed'
        state.loadFailures++
        if (decide(last, state).action === 'return-result') return result
        continue
      } else {
        failure = outcome.failure
        last = failure.kind
        if (last === 'crashed') state.crashes++
        // Generations that keep being retired: bounded, the excess counts as crashes.
        if (last === 'rerouted' && ++state.reroutes > MAX_REROUTES) state.crashes++
      }
      const decision = decide(last, state)
      if (decision.action === 'send-again') continue
      throw this.#error(decision.action === 'throw' ? decision.error : 'crashed', failure, rows)
    }
  }

  #error(error: BatchFailure, failure: TransportFailure, rows: number): Error {
    switch (error) {
      case 'closed':
        return new BatcherClosedError('Pool was destroyed while the batch was running')
      case 'timeout':
        return new BatchTimeoutError(this.settings.batchTimeoutMs as number, rows, failure.reason)
      case 'invalid-input':
        return new InvalidInputError(`The request could not be sent to the worker thread (${failure.reason})`, {
          cause: failure.cause,
          details: failure.details,
        })
      case 'unavailable': {
        const reason = failure.reason
        return this.#countCrashed(
          new WorkerCrashedError(
            `No worker thread is running: replacement threads die while loading (${reason}); retrying in the background`,
            {
              details: { reason, down: true },
            },
          ),
          rows,
        )
      }
      case 'crashed': {
        // If replacement replicas died while loading meanwhile, that is the likelier cause: say so.
        const loadDeath = failure.details?.loadDeath as string | undefined
        const reason = failure.reason + (loadDeath === undefined ? '' : `; replacement threads died while loading: ${loadDeath}`)
        return this.#countCrashed(
          new WorkerCrashedError(`The replica died twice running ${rows === 1 ? 'this row' : `a batch of ${rows} rows`} (${reason})`, {
            cause: failure.cause,
            details: { rows, reason, ...(loadDeath === undefined ? {} : { loadDeath }) },
          }),
          rows,
        )
      }
    }
  }

  #countCrashed(err: WorkerCrashedError, rows: number): WorkerCrashedError {
    if (rows === 1 || !this.settings.isolateFailures) this.crashed += rows
    return err
  }

  #sent(batchId: number, rows: number, buffers: ArrayBuffer[], dims: Record<string, number[]>): void {
    for (const observer of this.observers) {
      try {
        observer.onBatchSent?.({ batchId, rows, buffers, dims })
      } catch {
        // An observer never breaks the pool.
      }
    }
  }
}
