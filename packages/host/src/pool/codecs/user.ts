/**
 * The `user` codec: requests of a user worker (`defineWorker`) travel as they are (the
 * batch is the array of them, structured-cloned); the result array has one place per
 * item, and an item's place holding an error fails that item only.
 */
import { BatchSizeMismatchError } from '@inferpool/core'
import type { ItemError, WorkerDescription } from '@inferpool/worker'
import { InferenceError } from '../../errors.js'
import { fromWire } from '../../wire-errors.js'
import type { PoolOptions, TensorInfo } from '../../types.js'
import type { Codec } from './codec.js'

/** A queued request of a user-worker pool. */
export interface UserItem {
  input: unknown
}

function isItemError(value: unknown): value is ItemError {
  return typeof value === 'object' && value !== null && '$inferpoolItemError' in value
}

/** The default cost rule of a user worker's items: what the item says it costs, else 1. */
function defaultCost(input: unknown): number {
  const item = input as { estimateCost?: () => number; estimateTokens?: () => number } | null
  if (typeof item?.estimateCost === 'function') return item.estimateCost()
  if (typeof item?.estimateTokens === 'function') return item.estimateTokens()
  return 1
}

function tensorInfos(list: WorkerDescription['inputs'] | undefined): TensorInfo[] {
  return (list ?? []).map((i) => ({ name: i.name, type: i.type, dims: [...i.dims] }))
}

export function userCodec(description: WorkerDescription | null, cost: PoolOptions['cost']): Codec<UserItem> {
  const costOf = cost ?? defaultCost
  return {
    inputs: tensorInfos(description?.inputs),
    outputs: tensorInfos(description?.outputs),
    fixedBatchSize: null,
    batchKey: undefined,
    cost: (item) => costOf(item.input),
    admit: (input) => ({ input }),
    pack: (items) => ({ payload: items.map((i) => i.input), transfer: [] }),
    decode(result, items) {
      if (!result.ok) throw fromWire(result.error)
      if (result.kind !== 'run') throw new InferenceError('The worker answered a run task with a describe result')
      const value = result.value
      if (!Array.isArray(value)) {
        throw new InferenceError(
          `The worker's run() must return an array with one result per item, got ${value === null ? 'null' : typeof value}`,
        )
      }
      if (value.length !== items.length) throw new BatchSizeMismatchError(items.length, value.length)
      return value.map((item: unknown) => (isItemError(item) ? fromWire(item.$inferpoolItemError) : item))
    },
  }
}
