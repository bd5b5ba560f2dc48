import {
  BatcherClosedError,
  DeadlineUnattainableError,
  ItemTooLargeError,
  QueueFullError,
  RequestTooLargeError,
  type InferpoolError,
} from './errors.js'
import type { ResolvedOptions } from './options.js'

/**
 * Why a request of `n` items (one `submit` is a request of one) is refused at the door,
 * or `undefined` when it may enter: the one place that decides it, for `submit` and
 * `submitMany` alike. Asked once the request's arguments are known good (bad arguments
 * get their own TypeError/RangeError first). In this order:
 *
 * - `BatcherClosedError` once `close()` or `destroy()` was called (an empty request too);
 * - an empty request enters (it resolves to `[]`);
 * - `ItemTooLargeError` when an item costs more than `maxBatchCost` (`cost` is the first
 *   such item's cost, or any cost within the budget when there is none);
 * - `RequestTooLargeError` when the request holds more items than the whole queue: it
 *   could never be admitted, not even by waiting;
 * - `QueueFullError` when it would have to wait for room (`full`) and `whenFull` is
 *   `'reject'`;
 * - `DeadlineUnattainableError` when its `timeoutMs` is shorter than `drainMs`, the
 *   estimated time to run the queue ahead of it and itself (`formation: 'deadline'`
 *   only; the batcher passes `drainMs` 0 otherwise, and no time is estimated).
 */
export function refusal(
  n: number,
  cost: number,
  full: boolean,
  closing: boolean,
  options: Pick<ResolvedOptions<unknown>, 'maxBatchCost' | 'maxQueueSize' | 'whenFull'>,
  timeoutMs = Infinity,
  drainMs = 0,
): InferpoolError | undefined {
  if (closing) return new BatcherClosedError()
  if (n === 0) return undefined
  if (cost > options.maxBatchCost) return new ItemTooLargeError(cost, options.maxBatchCost)
  if (n > options.maxQueueSize) return new RequestTooLargeError(n, options.maxQueueSize)
  if (full && options.whenFull === 'reject') return new QueueFullError(options.maxQueueSize)
  if (timeoutMs < drainMs) return new DeadlineUnattainableError(timeoutMs, drainMs)
  return undefined
}
