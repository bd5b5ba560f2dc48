import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DETACHED, Entry, QUEUED, SETTLED, Stamp, WAITING } from '../src/entry.js'
import { Group, type GroupOwner } from '../src/group.js'
import { KeyedQueues } from '../src/keyed-queues.js'
import { Waiters } from '../src/waiters.js'
import { batcherFixture, flush, gate, groups, track } from './helpers.js'

let seq = 0
const stamp = new Stamp(0)
const entry = (item: string): Entry => new Entry(item, undefined, 1, 0, ++seq, stamp)
// Never called back: these groups have neither a signal nor a timeout.
const owner = {} as GroupOwner

/** Items of every queued entry, in the order batches would take them. */
function queuedItems(queues: KeyedQueues): unknown[] {
  const limits = { maxBatchSize: Number.MAX_SAFE_INTEGER, minBatchSize: 1, maxWaitMs: 0, maxBatchCost: Infinity, flush: false }
  const queue = queues.choose(limits, () => 0).queue
  return queue === undefined ? [] : queues.take(queue, limits.maxBatchSize, limits.maxBatchCost).slots.items
}

/** A waiter settled early, as the batcher does it: `remove`, then settled. */
function giveUp(waiters: Waiters, e: Entry): void {
  waiters.remove(e)
  e.state = SETTLED
}

describe('Waiters', () => {
  it('admits first come first served while the queues have room, and no further', () => {
    const waiters = new Waiters()
    const queues = new KeyedQueues(false)
    const entries = ['a', 'b', 'c', 'd', 'e'].map(entry)
    for (const e of entries) waiters.push(e)
    expect(entries.map((e) => e.state)).toEqual([WAITING, WAITING, WAITING, WAITING, WAITING])
    expect(waiters.admit(queues, 3)).toBe(3)
    expect([waiters.count, waiters.length, queues.size]).toEqual([2, 2, 3])
    expect(entries.map((e) => e.state)).toEqual([QUEUED, QUEUED, QUEUED, WAITING, WAITING])
    expect(waiters.admit(queues, 3)).toBe(0)
    expect(queuedItems(queues)).toEqual(['a', 'b', 'c'])
    expect(waiters.admit(queues, 3)).toBe(2)
    expect(queuedItems(queues)).toEqual(['d', 'e'])
    expect([waiters.count, waiters.length, queues.size]).toEqual([0, 0, 0])
  })

  it('admits a request whole, once there is room for all of it, and keeps later callers behind it', () => {
    const waiters = new Waiters()
    const queues = new KeyedQueues(false)
    const group = new Group(owner, 3, seq + 1, undefined, Infinity)
    for (const item of ['g1', 'g2', 'g3']) {
      const member = entry(item)
      member.group = group
      group.members.push(member)
      waiters.push(member)
    }
    waiters.push(entry('single'))
    queues.push(entry('running-soon'))
    expect(waiters.admit(queues, 3)).toBe(0)
    expect(queuedItems(queues)).toEqual(['running-soon'])
    expect(waiters.admit(queues, 3)).toBe(3)
    expect([waiters.count, queues.size]).toEqual([1, 3])
    expect(queuedItems(queues)).toEqual(['g1', 'g2', 'g3'])
    expect(waiters.admit(queues, 3)).toBe(1)
    expect(queuedItems(queues)).toEqual(['single'])
  })

  it('leaves tombstones for callers who gave up and compacts once more than 64 outnumber the living', () => {
    const waiters = new Waiters()
    const entries = Array.from({ length: 201 }, (_, i) => entry(`w${i}`))
    for (const e of entries) waiters.push(e)
    // Behind a head that never moves, w1..w100 give up: 100 dead against 101 living, kept.
    for (let i = 1; i <= 100; i++) giveUp(waiters, entries[i])
    expect([waiters.count, waiters.length]).toEqual([101, 201])
    // The 101st makes 101 dead against 100 living: compacted to the living.
    giveUp(waiters, entries[101])
    expect([waiters.count, waiters.length]).toEqual([100, 100])
    for (let i = 102; i <= 150; i++) giveUp(waiters, entries[i])
    expect([waiters.count, waiters.length]).toEqual([51, 100])
    const queues = new KeyedQueues(false)
    expect(waiters.admit(queues, Infinity)).toBe(51)
    expect(queuedItems(queues)).toEqual(['w0', ...Array.from({ length: 50 }, (_, i) => `w${151 + i}`)])
    expect([waiters.count, waiters.length]).toEqual([0, 0])
  })

  it('never compacts while 64 or fewer have given up, and drops tombstones at the head on admission', () => {
    const waiters = new Waiters()
    const entries = Array.from({ length: 70 }, (_, i) => entry(`w${i}`))
    for (const e of entries) waiters.push(e)
    for (let i = 0; i < 64; i++) giveUp(waiters, entries[i])
    expect([waiters.count, waiters.length]).toEqual([6, 70])
    const queues = new KeyedQueues(false)
    expect(waiters.admit(queues, 2)).toBe(2)
    expect(queuedItems(queues)).toEqual(['w64', 'w65'])
    expect([waiters.count, waiters.length]).toEqual([4, 4])
  })

  it('takes every live waiter out, marked detached, skipping tombstones', () => {
    const waiters = new Waiters()
    const entries = ['a', 'b', 'c'].map(entry)
    for (const e of entries) waiters.push(e)
    giveUp(waiters, entries[1])
    const out: Entry[] = []
    waiters.takeAll(out)
    expect(out.map((e) => e.item)).toEqual(['a', 'c'])
    expect(entries.map((e) => e.state)).toEqual([DETACHED, SETTLED, DETACHED])
    expect([waiters.count, waiters.length]).toEqual([0, 0])
  })
})

describe('Waiters in the batcher', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('compacts the waiting list as parked callers time out, and still admits the rest in order', async () => {
    const g = gate<number>()
    const [batcher, calls] = batcherFixture({ maxBatchSize: 1, maxQueueSize: 1, whenFull: 'wait' }, g.process)
    track(batcher.submit(0))
    await flush()
    track(batcher.submit(1))
    // 200 parked callers; the odd ones give up after 10 ms, the even ones wait on.
    const parked = Array.from({ length: 200 }, (_, i) => track(batcher.submit(100 + i, i % 2 === 1 ? { timeoutMs: 10 } : undefined)))
    expect(batcher.stats).toMatchObject({ queued: 1, waitingForRoom: 200 })
    await vi.advanceTimersByTimeAsync(10)
    expect(batcher.stats).toMatchObject({ queued: 1, waitingForRoom: 100, cancelled: 100, timedOut: 100 })
    // 100 dead against 100 living: not compacted yet (dead must outnumber the living).
    const waiters = (batcher as unknown as { waiters: Waiters }).waiters
    expect(waiters.length).toBe(200)
    expect(parked.filter((p) => p.status === 'rejected').length).toBe(100)
    // Every even caller still goes through, in order.
    for (let i = 0; i < 102; i++) {
      g.pending[i].resolve(g.pending[i].items)
      await flush()
    }
    expect(groups(calls)).toEqual([[0], [1], ...Array.from({ length: 100 }, (_, i) => [100 + 2 * i])])
    expect(batcher.stats).toMatchObject({ queued: 0, waitingForRoom: 0, completed: 102, cancelled: 100 })
    // The last parked caller gave up: its tombstone stays at the tail until admission reaches it.
    expect(waiters.length).toBe(1)
  })
})
