/**
 * Per-replica bookkeeping. piscina balances tasks itself and replaces a dead worker
 * with a new thread, so a "replica" here is a seat: a thread takes the first free
 * seat when it starts, frees it when it exits, and the seat counts the restarts.
 * Results carry the worker's `threadId`, which is how a batch is credited to a seat.
 * When the supervisor starts a new generation of threads while the old one's
 * survivors still finish their work, there are briefly more threads than seats: the
 * extra threads wait and take seats as the survivors leave. A seat's state is read from
 * the thread ledger (ledger.ts), which owns every thread's load and service state.
 */
import type { ReplicaState, ReplicaStats } from '../../types.js'
import type { ThreadLedger } from './ledger.js'

interface Seat extends Omit<ReplicaStats, 'inFlight' | 'state' | 'lastError'> {
  threadId: number | null
  usage: (() => number) | null
}

interface Waiting {
  threadId: number
  usage: () => number
}

export class ReplicaTable {
  private readonly seats: Seat[]
  private readonly seatOf = new Map<number, Seat>()
  private readonly waiting: Waiting[] = []
  constructor(
    replicas: number,
    private readonly ledger: ThreadLedger<unknown>,
  ) {
    this.seats = Array.from({ length: replicas }, (_, id) => ({
      id,
      batches: 0,
      rows: 0,
      busyMs: 0,
      restarts: 0,
      threadId: null,
      usage: null,
    }))
  }

  /** A thread started; returns its seat id, or -1 if every seat is taken (it waits for one). */
  attach(threadId: number, usage: () => number): number {
    const known = this.seatOf.get(threadId)
    if (known) return known.id
    const seat = this.seats.find((s) => s.threadId === null)
    if (!seat) {
      this.waiting.push({ threadId, usage })
      return -1
    }
    seat.threadId = threadId
    seat.usage = usage
    this.seatOf.set(threadId, seat)
    return seat.id
  }

  /** A thread exited; frees its seat. `restart` counts it as a restart of that replica. */
  detach(threadId: number, restart: boolean): number | undefined {
    const queued = this.waiting.findIndex((w) => w.threadId === threadId)
    if (queued !== -1) this.waiting.splice(queued, 1)
    const seat = this.seatOf.get(threadId)
    if (!seat) return undefined
    this.seatOf.delete(threadId)
    seat.threadId = null
    seat.usage = null
    if (restart) seat.restarts++
    const next = this.waiting.shift()
    if (next) this.attach(next.threadId, next.usage)
    return seat.id
  }

  /** Credits a finished batch to the replica whose thread ran it. */
  record(threadId: number, rows: number, busyMs: number): void {
    const seat = this.seatOf.get(threadId)
    if (!seat) return
    seat.batches++
    seat.rows += rows
    seat.busyMs += busyMs
  }

  get restarts(): number {
    return this.seats.reduce((sum, s) => sum + s.restarts, 0)
  }

  snapshot(): ReplicaStats[] {
    return this.seats.map((s) => ({
      id: s.id,
      batches: s.batches,
      rows: s.rows,
      busyMs: s.busyMs,
      inFlight: s.usage ? s.usage() : 0,
      restarts: s.restarts,
      ...this.stateOf(s),
    }))
  }

  private stateOf(seat: Seat): { state: ReplicaState; lastError?: string } {
    if (seat.threadId === null) return { state: 'down' }
    const record = this.ledger.get(seat.threadId)
    if (record === undefined) return { state: 'loading' }
    if (record.overdue !== undefined) return { state: 'overdue', lastError: record.overdue }
    if (record.load === 'loading') return { state: 'loading' }
    return record.load === 'loaded' ? { state: 'ready' } : { state: 'failed', lastError: record.loadError ?? 'load failed' }
  }
}
