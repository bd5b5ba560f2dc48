/**
 * Preloaded (`node --import`) into the server of the repository scenario's load/unload
 * cycles: answers the bench's `{ t: 'memory', settleMs }` message over IPC with the server
 * process's memory, as it is and `settleMs` after one full collection (time for the
 * allocator to give freed pages back), so the scenario can say where the host's memory
 * sits (V8's heap, external memory and ArrayBuffers, or native memory outside them;
 * anonymous or file-backed pages) and whether what grows is garbage or kept.
 * The bench's probe, not part of inferpool. Linux only (/proc), as the scenario.
 */
import { readFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export interface HostMemory extends NodeJS.MemoryUsage {
  /** Anonymous resident bytes (heap, malloc arenas, stacks), from /proc/self/status `RssAnon`. */
  rssAnon: number
  /** File-backed resident bytes (the node binary, onnxruntime's library), `RssFile`. */
  rssFile: number
}

export interface HostMemoryMessage {
  t: 'memory'
  asIs: HostMemory
  afterGc: HostMemory
}

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

function kib(status: string, field: string): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024
}

function memory(): HostMemory {
  const status = readFileSync('/proc/self/status', 'utf8')
  return { ...process.memoryUsage(), rssAnon: kib(status, 'RssAnon'), rssFile: kib(status, 'RssFile') }
}

process.on('message', (message: { t?: unknown; settleMs?: unknown } | null) => {
  if (message?.t !== 'memory') return
  const asIs = memory()
  gc()
  setTimeout(() => process.send?.({ t: 'memory', asIs, afterGc: memory() } satisfies HostMemoryMessage), Number(message.settleMs ?? 0))
})
// The channel must not keep the server alive at its shutdown (adding the listener ref'd it).
process.channel?.unref()
