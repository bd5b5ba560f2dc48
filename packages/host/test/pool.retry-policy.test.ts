/**
 * The per-batch policy (src/pool/retry-policy.ts): the decision table, row by row, and the
 * typed error each "throw" row becomes, against a scripted transport that answers each
 * send with a given outcome.
 */
import { BatcherClosedError } from '@inferpool/core'
import type { BatchContext } from '@inferpool/core'
import type { TaskResult } from '@inferpool/worker'
import { describe, expect, it } from 'vitest'
import { BatchTimeoutError, InvalidInputError, WorkerCrashedError } from '../src/errors.js'
import { decide, RetryPolicy, MAX_CRASH_ATTEMPTS, MAX_LOAD_RETRIES, MAX_REROUTES } from '../src/pool/retry-policy.js'
import type { Decision, RetryState, SendCase } from '../src/pool/retry-policy.js'
import type { ReplicaTransport, SendOptions, SendOutcome, TransportFailure } from '../src/pool/transport.js'

const state = (s: Partial<RetryState>): RetryState => ({ crashes: 0, reroutes: 0, loadFailures: 0, ...s })
const again: Decision = { action: 'send-again' }
const fail = (error: string): Decision => ({ action: 'throw', error }) as Decision

describe('the retry decision table', () => {
  const table: Array<[SendCase, Partial<RetryState>, Decision]> = [
    ['closed', {}, fail('closed')],
    ['timeout', {}, fail('timeout')],
    ['unsendable', {}, fail('invalid-input')],
    ['unavailable', {}, fail('unavailable')],
    ['rerouted', { reroutes: 1 }, again],
    ['rerouted', { reroutes: MAX_REROUTES }, again],
    ['rerouted', { reroutes: MAX_REROUTES + 1, crashes: 1 }, again],
    ['rerouted', { reroutes: MAX_REROUTES + 2, crashes: 2 }, fail('crashed')],
    ['crashed', { crashes: 1 }, again],
    ['crashed', { crashes: MAX_CRASH_ATTEMPTS }, fail('crashed')],
    ['crashed', { crashes: 1, reroutes: 3 }, again],
    ['load-failed', { loadFailures: 1 }, again],
    ['load-failed', { loadFailures: MAX_LOAD_RETRIES + 1 }, { action: 'return-result' }],
  ]
  it.each(table)('%s with %j → %j', (last, s, decision) => {
    expect(decide(last, state(s))).toEqual(decision)
  })
})

/** A transport that answers the n-th send with `outcomes[n]`, and records the sends. */
function scripted(outcomes: SendOutcome[]): {
  transport: ReplicaTransport
  sends: Array<{ batchId: number; options: SendOptions | undefined }>
} {
  const sends: Array<{ batchId: number; options: SendOptions | undefined }> = []
  const transport: ReplicaTransport = {
    start: () => Promise.resolve(null),
    send(task, _transfer, options) {
      sends.push({ batchId: task.batchId, options })
      const outcome = outcomes[sends.length - 1]
      if (outcome === undefined) throw new Error(`unexpected send #${sends.length}`)
      return Promise.resolve(outcome)
    },
    replicas: [],
    restarts: 0,
    rebuilds: 0,
    close: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  }
  return { transport, sends }
}

const result: TaskResult = { ok: true, kind: 'run', value: ['a'], threadId: 7, busyMs: 1 }
const loadFailed: TaskResult = {
  ok: false,
  error: { code: 'ERR_MODEL_LOAD', name: 'ModelLoadError', message: 'no file' },
  threadId: 7,
  busyMs: 1,
}
const ok = (r: TaskResult = result): SendOutcome => ({ ok: true, result: r })
const failure = (f: TransportFailure): SendOutcome => ({ ok: false, failure: f })
const ctx = { batchId: 42 } as BatchContext

async function dispatch(outcomes: SendOutcome[], rows = 1, batchTimeoutMs?: number) {
  const { transport, sends } = scripted(outcomes)
  const dispatcher = new RetryPolicy(transport, { batchTimeoutMs, isolateFailures: true }, new Set())
  let packs = 0
  const outcome: { value?: TaskResult; error?: unknown } = await dispatcher
    .run(ctx, rows, () => ({ payload: ++packs, transfer: [] }))
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    )
  return { ...outcome, sends, packs, crashed: dispatcher.crashed }
}

describe('RetryPolicy', () => {
  it('returns the first result and sends once, with the rows and the batch time limit', async () => {
    const { value, sends, packs } = await dispatch([ok()], 3, 500)
    expect(value).toBe(result)
    expect(packs).toBe(1)
    expect(sends).toEqual([{ batchId: 42, options: { rows: 3, timeoutMs: 500 } }])
  })

  it('re-packs and re-sends a batch whose replica crashed once; a one-off crash fails nothing', async () => {
    const { value, packs, crashed } = await dispatch([failure({ kind: 'crashed', reason: 'worker exited with code: 1' }), ok()])
    expect(value).toBe(result)
    expect(packs).toBe(2)
    expect(crashed).toBe(0)
  })

  it('throws WorkerCrashedError after the second crash, naming a replacement that died while loading', async () => {
    const { error, crashed } = await dispatch([
      failure({ kind: 'crashed', reason: 'worker exited with code: 1' }),
      failure({ kind: 'crashed', reason: 'worker exited with code: 2', details: { loadDeath: 'exit code 3' } }),
    ])
    expect(error).toBeInstanceOf(WorkerCrashedError)
    expect(error).toMatchObject({
      code: 'ERR_WORKER_CRASHED',
      message: 'The replica died twice running this row (worker exited with code: 2; replacement threads died while loading: exit code 3)',
      details: {
        rows: 1,
        reason: 'worker exited with code: 2; replacement threads died while loading: exit code 3',
        loadDeath: 'exit code 3',
      },
    })
    expect(crashed).toBe(1)
  })

  it('counts crashed rows only once the batch is down to one row (the batcher splits the rest)', async () => {
    const twice = [failure({ kind: 'crashed', reason: 'x' }), failure({ kind: 'crashed', reason: 'x' })]
    expect((await dispatch(twice, 4)).crashed).toBe(0)
    expect((await dispatch(twice, 4)).error).toMatchObject({ message: 'The replica died twice running a batch of 4 rows (x)' })
  })

  it('re-routes a batch whose replicas were retired up to MAX_REROUTES times without counting a crash', async () => {
    const rerouted = failure({ kind: 'rerouted', reason: 'Terminating worker thread' })
    const { value, packs } = await dispatch([...Array.from({ length: MAX_REROUTES }, () => rerouted), ok()])
    expect(value).toBe(result)
    expect(packs).toBe(MAX_REROUTES + 1)
  })

  it('fails a batch past batchTimeoutMs at once with ERR_BATCH_TIMEOUT, without a re-send', async () => {
    const reason = 'its worker thread takes no new batch and is replaced once the run returns (a native call cannot be interrupted)'
    const { error, sends } = await dispatch([failure({ kind: 'timeout', reason })], 2, 30)
    expect(error).toBeInstanceOf(BatchTimeoutError)
    expect(error).toMatchObject({
      code: 'ERR_BATCH_TIMEOUT',
      message: `The batch did not finish within batchTimeoutMs (30 ms); ${reason}`,
      details: { timeoutMs: 30, rows: 2 },
    })
    expect(sends).toHaveLength(1)
  })

  it('fails an input that cannot be sent with ERR_INVALID_INPUT, the caller being at fault', async () => {
    const { error } = await dispatch([
      failure({
        kind: 'unsendable',
        reason: 'DataCloneError: () => 2 could not be cloned.',
        details: { reason: '() => 2 could not be cloned.' },
      }),
    ])
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error).toMatchObject({
      message: 'The request could not be sent to the worker thread (DataCloneError: () => 2 could not be cloned.)',
      details: { reason: '() => 2 could not be cloned.' },
    })
  })

  it('fails at once with WorkerCrashedError when no replica runs', async () => {
    const { error, sends } = await dispatch([
      failure({ kind: 'unavailable', reason: 'exit code 3', details: { reason: 'exit code 3', down: true } }),
    ])
    expect(error).toMatchObject({
      code: 'ERR_WORKER_CRASHED',
      message: 'No worker thread is running: replacement threads die while loading (exit code 3); retrying in the background',
      details: { reason: 'exit code 3', down: true },
    })
    expect(sends).toHaveLength(1)
  })

  it('fails with BatcherClosedError when the pool was destroyed mid-batch', async () => {
    const { error } = await dispatch([failure({ kind: 'closed', reason: 'the pool was destroyed' })])
    expect(error).toBeInstanceOf(BatcherClosedError)
    expect(error).toMatchObject({ code: 'ERR_BATCHER_CLOSED', message: 'Pool was destroyed while the batch was running' })
  })

  it('gives a batch answered with a failed load one more send, then returns that result', async () => {
    const retried = await dispatch([ok(loadFailed), ok()])
    expect(retried.value).toBe(result)
    const failing = await dispatch([ok(loadFailed), ok(loadFailed)])
    expect(failing.value).toBe(loadFailed)
    expect(failing.sends).toHaveLength(2)
  })
})
