/**
 * Per-replica bookkeeping. piscina balances tasks itself and replaces a dead worker
 * with a new thread, so a "replica" here is a slot: a thread takes the first free
 * slot when it starts, frees it when it exits, and the slot counts the restarts.
 * Results carry the worker's `threadId`, which is how a batch is credited to a slot.
 * When the supervisor starts a new generation of threads while the old one's
 * survivors still finish their work, there are briefly more threads than slots: the
 * extra threads wait and take slots as the survivors leave. A slot's state is read from
 * the thread ledger (ledger.ts), which owns every thread's load and service state.
 */
import type { ReplicaState, ReplicaStats } from '../../types.js'
import type { ThreadLedger } from './ledger.js'

interface Slot extends Omit<ReplicaStats, 'inFlight' | 'state' | 'lastError'> {
  threadId: number | null
  usage: (() => number) | null
}

interface Waiting {
  threadId: number
  usage: () => number
}

export class ReplicaTable {
  private readonly slots: Slot[]
  private readonly slotOf = new Map<number, Slot>()
  private readonly waiting: Waiting[] = []
  constructor(
    replicas: number,
    private readonly ledger: ThreadLedger<unknown>,
  ) {
    this.slots = Array.from({ length: replicas }, (_, id) => ({
      id,
      batches: 0,
      rows: 0,
      busyMs: 0,
      restarts: 0,
      threadId: null,
      usage: null,
    }))
  }

  /** A thread started; returns its slot id, or -1 if every slot is taken (it waits for one). */
  attach(threadId: number, usage: () => number): number {
    const known = this.slotOf.get(threadId)
    if (known) return known.id
    const slot = this.slots.find((s) => s.threadId === null)
    if (!slot) {
      this.waiting.push({ threadId, usage })
      return -1
    }
    slot.threadId = threadId
    slot.usage = usage
    this.slotOf.set(threadId, slot)
    return slot.id
  }

  /** A thread exited; frees its slot. `restart` counts it as a restart of that replica. */
  detach(threadId: number, restart: boolean): number | undefined {
    const queued = this.waiting.findIndex((w) => w.threadId === threadId)
    if (queued !== -1) this.waiting.splice(queued, 1)
    const slot = this.slotOf.get(threadId)
    if (!slot) return undefined
    this.slotOf.delete(threadId)
    slot.threadId = null
    slot.usage = null
    if (restart) slot.restarts++
    const next = this.waiting.shift()
    if (next) this.attach(next.threadId, next.usage)
    return slot.id
  }

  /** Credits a finished batch to the replica whose thread ran it. */
  record(threadId: number, rows: number, busyMs: number): void {
    const slot = this.slotOf.get(threadId)
    if (!slot) return
    slot.batches++
    slot.rows += rows
    slot.busyMs += busyMs
  }

  get restarts(): number {
    return this.slots.reduce((sum, s) => sum + s.restarts, 0)
  }

  snapshot(): ReplicaStats[] {
    return this.slots.map((s) => ({
      id: s.id,
      batches: s.batches,
      rows: s.rows,
      busyMs: s.busyMs,
      inFlight: s.usage ? s.usage() : 0,
      restarts: s.restarts,
      ...this.stateOf(s),
    }))
  }

  private stateOf(slot: Slot): { state: ReplicaState; lastError?: string } {
    if (slot.threadId === null) return { state: 'down' }
    const record = this.ledger.get(slot.threadId)
    if (record === undefined) return { state: 'loading' }
    if (record.overdue !== undefined) return { state: 'overdue', lastError: record.overdue }
    if (record.load === 'loading') return { state: 'loading' }
    return record.load === 'loaded' ? { state: 'ready' } : { state: 'failed', lastError: record.loadError ?? 'load failed' }
  }
}
