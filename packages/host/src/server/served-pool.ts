import type { Pool, RowInput, RowOutput } from '../types.js'

/**
 * What the server needs from a pool: `infer` and `metadata` always; `stats` and
 * `observe` feed `/metrics` when present, and `close` is called on shutdown when the
 * server owns its pools. A `Pool` from `createPool` has all of them; a remote handle
 * from `connectPool` (a pool living in another thread) has `infer`, `metadata` and
 * `close`.
 */
export type ServedPool = Pick<Pool<RowInput, RowOutput>, 'infer' | 'metadata'> &
  Partial<Pick<Pool<RowInput, RowOutput>, 'stats' | 'observe' | 'close'>>
