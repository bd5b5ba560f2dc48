// The thread transport's piscina load balancer (src/pool/threads/piscina.ts `balancer`),
// called as piscina calls it: with the pool's worker interfaces and a task that carries
// its ticket under Piscina.queueOptionsSymbol.
import { Piscina } from 'piscina'
import { describe, expect, it } from 'vitest'
import { balancer } from '../src/pool/threads/piscina.js'
import type { PiscinaWorkerInterface, Ticket } from '../src/pool/threads/piscina.js'

const task = (ticket: Ticket): object => ({ kind: 'describe', [Piscina.queueOptionsSymbol]: ticket })

describe('thread balancer: a task for one thread (a retried load)', () => {
  it('goes to another thread, not nowhere, when its thread is out of service (overdue): null would end piscina’s distribution round', () => {
    const overdue = new Set([1])
    const started: Array<[number, Ticket | undefined]> = []
    const choose = balancer(
      2,
      (threadId) => !overdue.has(threadId),
      (threadId, ticket) => started.push([threadId, ticket]),
    )
    const workers: PiscinaWorkerInterface[] = [
      { id: 1, currentUsage: 1 },
      { id: 2, currentUsage: 0 },
    ]
    const ticket: Ticket = { threadId: undefined, target: 1 }
    expect(choose(task(ticket), workers)).toBe(workers[1])
    expect(started).toEqual([[2, ticket]])
  })

  it('waits (null) while its thread is in service but full, and goes to it once it has room', () => {
    const started: number[] = []
    const choose = balancer(
      1,
      () => true,
      (threadId) => started.push(threadId),
    )
    const ticket: Ticket = { threadId: undefined, target: 1 }
    expect(
      choose(task(ticket), [
        { id: 1, currentUsage: 1 },
        { id: 2, currentUsage: 0 },
      ]),
    ).toBe(null)
    const workers = [
      { id: 1, currentUsage: 0 },
      { id: 2, currentUsage: 0 },
    ]
    expect(choose(task(ticket), workers)).toBe(workers[0])
    expect(started).toEqual([1])
  })
})
