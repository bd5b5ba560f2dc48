/**
 * V8's `gc()` for the idle collections (idle-collection.ts), without asking
 * users to start node with `--expose-gc`: the flag is turned on just long enough to make
 * one fresh context, whose global `gc` collects the whole isolate, then turned off again
 * so no other context gets a `gc` global. The flag is the process's: call this from one
 * thread only (the main thread of the server, of a replica process), never from worker
 * threads that could race it. Checked on Node 20 (docs/runtime-facts.md,
 * "Memory after a burst"); where V8 gives no `gc` there is simply no idle collection.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** A function running one full collection, or `undefined` where V8 does not provide one. */
export function exposeGc(): (() => void) | undefined {
  const existing: unknown = (globalThis as { gc?: unknown }).gc
  if (typeof existing === 'function') return existing as () => void
  setFlagsFromString('--expose-gc')
  try {
    const gc: unknown = runInNewContext('globalThis.gc')
    return typeof gc === 'function' ? (gc as () => void) : undefined
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
}
