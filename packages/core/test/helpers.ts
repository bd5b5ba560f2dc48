import { DynamicBatcher } from '../src/index.js'
import type { BatchContext, DynamicBatcherOptions } from '../src/index.js'

/** What a batch looked like when `processBatch` got it. */
export interface Call<I> {
  items: I[]
  context: BatchContext
}

type Impl<I, R> = (items: I[], context: BatchContext) => Array<R | Error> | Promise<Array<R | Error>>

/**
 * dataloader-style fixture: a batcher whose processor records every batch. The default
 * processor echoes the items. The clock is vitest's faked `performance.now`, injected
 * so every submit reads it.
 */
export function batcherFixture<I = number, R = I>(
  options: DynamicBatcherOptions<I> = {},
  impl: Impl<I, R> = (items) => items as unknown as R[],
): [DynamicBatcher<I, R>, Call<I>[]] {
  const calls: Call<I>[] = []
  const batcher = new DynamicBatcher<I, R>(
    (items, context) => {
      calls.push({ items: [...items], context })
      return impl(items, context)
    },
    { now: () => performance.now(), ...options },
  )
  return [batcher, calls]
}

/** Items of each recorded batch, for `toEqual` on the whole grouping. */
export const groups = <I>(calls: Call<I>[]): I[][] => calls.map((c) => c.items)

/** A processor whose batches stay running until the test settles them. */
export function gate<I, R = I>() {
  const pending: Array<{
    items: I[]
    context: BatchContext
    resolve: (results: Array<R | Error>) => void
    reject: (error: unknown) => void
  }> = []
  const process = (items: I[], context: BatchContext): Promise<Array<R | Error>> =>
    new Promise((resolve, reject) => {
      pending.push({ items: [...items], context, resolve, reject })
    })
  return { pending, process }
}

/** Lets queued microtasks (batch formation runs in one) and promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

export interface Tracked<T> {
  status: 'pending' | 'fulfilled' | 'rejected'
  value?: T
  reason?: unknown
}

/** Observes a promise without leaving a rejection unhandled. */
export function track<T>(promise: Promise<T>): Tracked<T> {
  const t: Tracked<T> = { status: 'pending' }
  promise.then(
    (value) => {
      t.status = 'fulfilled'
      t.value = value
    },
    (reason: unknown) => {
      t.status = 'rejected'
      t.reason = reason
    },
  )
  return t
}

/** Collects `unhandledRejection` events while a test runs. */
export function watchUnhandled(): { reasons: unknown[]; stop: () => void } {
  const reasons: unknown[] = []
  const listener = (reason: unknown): void => {
    reasons.push(reason)
  }
  process.on('unhandledRejection', listener)
  return { reasons, stop: () => process.off('unhandledRejection', listener) }
}
