/**
 * Per-replica bookkeeping. piscina balances tasks itself and replaces a dead worker
 * with a new thread, so a "replica" here is a slot: a thread takes the first free
 * slot when it starts, frees it when it exits, and the slot counts the restarts.
 * Results carry the worker's `threadId`, which is how a batch is credited to a slot.
 */
import type { ReplicaStats } from '../types.js'

interface Slot extends Omit<ReplicaStats, 'inFlight'> {
  threadId: number | null
  usage: (() => number) | null
}

export class ReplicaTable {
  private readonly slots: Slot[]
  private readonly slotOf = new Map<number, Slot>()
  /** Rows failed with `WorkerCrashedError`. */
  crashed = 0

  constructor(replicas: number) {
    this.slots = Array.from({ length: replicas }, (_, id) => ({
      id, batches: 0, rows: 0, busyMs: 0, restarts: 0, threadId: null, usage: null,
    }))
  }

  /** A thread started; returns its slot id (or -1 if every slot is taken, which piscina's min = max threads rules out). */
  attach(threadId: number, usage: () => number): number {
    const known = this.slotOf.get(threadId)
    if (known) return known.id
    const slot = this.slots.find((s) => s.threadId === null)
    if (!slot) return -1
    slot.threadId = threadId
    slot.usage = usage
    this.slotOf.set(threadId, slot)
    return slot.id
  }

  /** A thread exited; frees its slot. `restart` counts it as a restart of that replica. */
  detach(threadId: number, restart: boolean): number | undefined {
    const slot = this.slotOf.get(threadId)
    if (!slot) return undefined
    this.slotOf.delete(threadId)
    slot.threadId = null
    slot.usage = null
    if (restart) slot.restarts++
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
    }))
  }
}
