import type { Pool, PoolStats, RowInput, RowOutput } from '@inferpool/host'

/**
 * What the server needs from a pool: `infer` and `metadata` always; `stats` (or the
 * asynchronous `readStats`) and `observe` feed `/metrics` when present, and `close` is
 * called on shutdown when the server owns its pools. A `Pool` from `createPool` has
 * all of them but `readStats`; a remote handle from `connectPool` (a pool living in
 * another thread) has `infer`, `metadata`, `readStats` and `close` — batch histograms
 * stay with the thread that owns the pool. `inferMany` and `admission` give
 * all-or-nothing admission and early rejection; without them a request's rows are
 * submitted one by one, under one abort signal. `inferBlock`, where the pool's model
 * takes blocks, spares the host an object per row.
 */
export type ServedPool = Pick<Pool<RowInput, RowOutput>, 'infer' | 'metadata'> &
  Partial<Pick<Pool<RowInput, RowOutput>, 'stats' | 'observe' | 'close' | 'destroy' | 'inferMany' | 'inferBlock' | 'admission'>> & {
    readStats?(): Promise<PoolStats>
  }
