/**
 * V8's `gc()` for the server's idle collection (server/idle-collection.ts), without asking
 * users to start node with `--expose-gc`: the flag is turned on just long enough to make
 * one fresh context, whose global `gc` collects the whole isolate, then turned off again
 * so no other context gets a `gc` global. Checked on Node 20 (docs/runtime-facts.md,
 * "Memory after a burst"); where V8 gives no `gc` the server simply runs no idle collection.
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
