import { describe, expect, it, vi } from 'vitest'
import { Fifo } from '../src/fifo.js'
import { KeyedQueues } from '../src/keyed-queues.js'
import { noop, PriorityQueue, TAKEN, type Plain, type QueueNode, type Taken } from '../src/queue.js'

interface Node extends QueueNode {
  id: string
}
let seq = 0
const node = (id: string, priority = 0, cost = 1, enqueuedAt = 0): Node => ({
  id,
  priority,
  cost,
  stamp: { at: enqueuedAt },
  seq: ++seq,
  item: id,
  state: 0,
  resolve: noop,
  reject: noop,
})
const plain = (cost = 1, enqueuedAt = 0): Plain => ({ resolve: noop, reject: noop, cost, seq: ++seq, stamp: { at: enqueuedAt } })
/** Queues a plain item, passing its record's cost as the batcher does. */
const add = (q: PriorityQueue<Node>, item: string, record: Plain, priority: number): void => q.add(item, record, priority, record.cost)
/** The taken nodes' ids (every record of these batches is a node). */
const ids = (taken: Taken<Node>): string[] => taken.slots.records.map((n) => (n as Node).id)

describe('Fifo', () => {
  it('shifts in push order and reuses its array once empty', () => {
    const fifo = new Fifo<number>()
    for (let i = 0; i < 5; i++) fifo.push(i)
    expect([fifo.shift(), fifo.shift()]).toEqual([0, 1])
    expect(fifo.length).toBe(3)
    expect(fifo.peek()).toBe(2)
    expect([fifo.shift(), fifo.shift(), fifo.shift(), fifo.shift()]).toEqual([2, 3, 4, undefined])
    expect(fifo.length).toBe(0)
  })

  it('keeps order across the compaction of a long consumed prefix', () => {
    const fifo = new Fifo<number>()
    const out: number[] = []
    for (let i = 0; i < 5000; i++) {
      fifo.push(i)
      fifo.push(i + 100_000)
      out.push(fifo.shift() as number)
    }
    while (fifo.length > 0) out.push(fifo.shift() as number)
    const expected = Array.from({ length: 5000 }, (_, i) => [i, i + 100_000]).flat()
    expect(out).toEqual(expected)
  })
})

describe('PriorityQueue', () => {
  it('takes higher priority first and first-in-first-out within a priority', () => {
    const q = new PriorityQueue<Node>('k')
    for (const n of [node('a', 0), node('b', 2), node('c', 0), node('d', 2), node('e', -5), node('f', 9)]) q.push(n)
    const out = q.take(Infinity, Infinity)
    expect(ids(out)).toEqual(['f', 'b', 'd', 'a', 'c', 'e'])
    expect(out.slots.items).toEqual(['f', 'b', 'd', 'a', 'c', 'e'])
    expect([q.size, q.cost]).toEqual([0, 0])
  })

  it('removes a node from the middle in O(1) and skips it afterwards', () => {
    const q = new PriorityQueue<Node>('k')
    const nodes = ['a', 'b', 'c', 'd'].map((id) => node(id))
    for (const n of nodes) q.push(n)
    q.remove(nodes[1])
    q.remove(nodes[1]) // twice is harmless
    q.remove(nodes[0])
    expect([q.size, q.cost, q.peekItem()]).toEqual([2, 2, 'c'])
    const out = q.take(10, Infinity)
    expect(ids(out)).toEqual(['c', 'd'])
  })

  it('stops at the first node over the remaining budget and reports the batch full', () => {
    const q = new PriorityQueue<Node>('k')
    for (const n of [node('a', 0, 4), node('b', 0, 5), node('c', 0, 3), node('d', 0, 1)]) q.push(n)
    const out = q.take(10, 10)
    expect({ cost: out.cost, full: out.full }).toEqual({ cost: 9, full: true })
    expect(ids(out)).toEqual(['a', 'b'])
    expect([q.size, q.cost, q.peekItem()]).toEqual([2, 4, 'c'])
  })

  it('cuts a count-limited batch across priority levels, items in the same order, when the budget cannot stop it', () => {
    const q = new PriorityQueue<Node>('k')
    const nodes = [node('a', 0, 2), node('b', 1, 3), node('c', 0, 1), node('d', 1, 1), node('e', 0, 4)]
    for (const n of nodes) q.push(n)
    const first = q.take(3, 100)
    expect(ids(first)).toEqual(['b', 'd', 'a'])
    expect(first.slots.items).toEqual(['b', 'd', 'a'])
    expect({ cost: first.cost, full: first.full }).toEqual({ cost: 6, full: true })
    expect(first.slots.records.map((n) => (n as Node).state)).toEqual([TAKEN, TAKEN, TAKEN])
    expect([q.size, q.cost, q.peekItem()]).toEqual([2, 5, 'c'])
    const rest = q.take(10, 100)
    expect(ids(rest)).toEqual(['c', 'e'])
    expect(rest.slots.items).toEqual(['c', 'e'])
    expect({ cost: rest.cost, full: rest.full }).toEqual({ cost: 5, full: false })
    expect([q.size, q.cost, q.peekItem()]).toEqual([0, 0, undefined])
  })

  it('takes the same batches whether or not a removed node is still stored', () => {
    // `take` has one path for a queue without tombstones and one that skips them.
    const batches = (withTombstone: boolean): unknown[] => {
      const q = new PriorityQueue<Node>('k')
      const gone = node('gone', 1, 2)
      q.push(node('a', 1, 2))
      if (withTombstone) q.push(gone)
      for (const n of [node('b', 1, 3), node('c', 0, 4), node('d', 0, 1), node('e', 0, 1)]) q.push(n)
      if (withTombstone) q.remove(gone)
      const out: unknown[] = []
      for (const [count, cost] of [
        [2, 100],
        [10, 4],
        [10, 100],
      ]) {
        const t = q.take(count, cost)
        out.push({ ids: ids(t), items: t.slots.items, cost: t.cost, full: t.full, size: q.size, left: q.cost })
      }
      return out
    }
    const expected = [
      { ids: ['a', 'b'], items: ['a', 'b'], cost: 5, full: true, size: 3, left: 6 },
      { ids: ['c'], items: ['c'], cost: 4, full: true, size: 2, left: 2 },
      { ids: ['d', 'e'], items: ['d', 'e'], cost: 2, full: false, size: 0, left: 0 },
    ]
    expect(batches(false)).toEqual(expected)
    expect(batches(true)).toEqual(expected)
  })

  it('reports the oldest live enqueue time across levels', () => {
    const q = new PriorityQueue<Node>('k')
    const old = node('old', 0, 1, 5)
    q.push(old)
    q.push(node('new-high', 3, 1, 9))
    q.push(node('mid', 0, 1, 7))
    expect(q.oldestEnqueuedAt()).toBe(5)
    q.remove(old)
    expect(q.oldestEnqueuedAt()).toBe(7)
  })

  it('keeps memory bounded when nodes are removed while the head never moves', () => {
    const q = new PriorityQueue<Node>('k')
    q.push(node('head'))
    for (let i = 0; i < 10_000; i++) {
      const n = node(`n${i}`, i % 3)
      q.push(n)
      q.remove(n)
    }
    expect(q.size).toBe(1)
    expect(q.stored).toBeLessThanOrEqual(2 * 65 + 1)
    expect(q.peekItem()).toBe('head')
  })

  it('keeps each priority in its own level, in order, across small, large, negative and fractional priorities and the pruning of empty levels', () => {
    const q = new PriorityQueue<Node>('k')
    const priorities = [0, 1, 15, 16, -1, 0.5, 2 ** 32, -0, 3, 1]
    for (let round = 0; round < 3; round++) {
      // Enough distinct priorities between rounds that empty levels are pruned.
      for (let p = 100; p < 120; p++) {
        add(q, `x${p}`, plain(), p)
        q.take(1, Infinity)
      }
      priorities.forEach((p, i) => add(q, `${round}:${i}`, plain(), p))
      priorities.forEach((p, i) => add(q, `${round}:${i}'`, plain(), p))
      // Equal priorities (0 and -0, 1 and 1) share a level: first in, first out.
      const byLevel = new Map<number, string[]>()
      for (const [p, i] of priorities.map((p, i) => [p === 0 ? 0 : p, i] as const)) {
        const level = byLevel.get(p) ?? []
        level.push(`${round}:${i}`)
        byLevel.set(p, level)
      }
      const expected = [...byLevel.entries()].sort((a, b) => b[0] - a[0]).flatMap(([, ids]) => [...ids, ...ids.map((id) => `${id}'`)])
      expect(q.take(Infinity, Infinity).slots.items).toEqual(expected)
      expect(q.size).toBe(0)
    }
  })

  it('prunes priority levels once many distinct priorities have come and gone', () => {
    const q = new PriorityQueue<Node>('k')
    for (let p = 0; p < 1000; p++) {
      q.push(node(`p${p}`, p))
      q.take(1, Infinity)
    }
    const n = node('last', 5)
    q.push(n)
    expect(q.peekItem()).toBe('last')
    expect((q as unknown as { levels: unknown[] }).levels.length).toBeLessThanOrEqual(17)
  })
  it('keeps plain items and nodes of one level in submission order, and skips only the removed nodes', () => {
    const q = new PriorityQueue<Node>('k')
    const gone = node('gone')
    const kept = node('kept')
    const p1 = plain()
    const p2 = plain(3)
    add(q, 'p1', p1, 0)
    q.push(gone)
    q.push(kept)
    add(q, 'p2', p2, 0)
    q.remove(gone)
    expect([q.size, q.cost]).toEqual([3, 5])
    const out = q.take(10, Infinity)
    expect(out.slots.items).toEqual(['p1', 'kept', 'p2'])
    expect(out.slots.records).toEqual([p1, kept, p2])
    expect([kept.state, gone.state !== TAKEN]).toEqual([TAKEN, true])
    expect({ cost: out.cost, size: q.size, left: q.cost }).toEqual({ cost: 5, size: 0, left: 0 })
  })

  it('takes a level in part, keeps the rest in order at its front, and goes on from there', () => {
    const q = new PriorityQueue<Node>('k')
    for (let i = 0; i < 5; i++) add(q, `a${i}`, plain(), 0)
    expect(q.take(2, Infinity).slots.items).toEqual(['a0', 'a1'])
    for (let i = 5; i < 40; i++) add(q, `a${i}`, plain(), 0)
    expect(q.take(3, Infinity).slots.items).toEqual(['a2', 'a3', 'a4'])
    const rest = q.take(Infinity, Infinity)
    expect(rest.slots.items).toEqual(Array.from({ length: 35 }, (_, i) => `a${i + 5}`))
    expect([rest.full, q.size, q.stored]).toEqual([false, 0, 0])
    add(q, 'b', plain(), 0)
    expect(q.take(1, Infinity).slots.items).toEqual(['b'])
  })

  it('hands a level taken whole over with exactly its items, whether it filled less, as much or more than its room', () => {
    const q = new PriorityQueue<Node>('k')
    // Room follows the last batch taken whole: 100, then far fewer (cut by setting the
    // length), a few fewer (cut by popping), as many, and more (the arrays grow).
    for (const n of [100, 2, 90, 87, 87, 300, 1]) {
      const labels = Array.from({ length: n }, (_, i) => `${n}-${i}`)
      const records = labels.map(() => plain())
      labels.forEach((label, i) => add(q, label, records[i], 0))
      const out = q.take(Infinity, Infinity)
      expect(out.slots.items).toEqual(labels)
      expect(out.slots.records).toEqual(records)
      expect([out.slots.length, out.slots.records.length, out.cost, q.size, q.stored]).toEqual([n, n, n, 0, 0])
    }
  })

  it('makes room for all a level stored between emptyings, so a level cut in several batches per cycle stops growing', () => {
    const q = new PriorityQueue<Node>('k')
    // 256 callers with maxBatchSize 128: the level fills to 256, then goes in two batches.
    const room = (): number => (q as unknown as { levels: Array<{ items: unknown[] }> }).levels[0].items.length
    for (let cycle = 0; cycle < 3; cycle++) {
      const labels = Array.from({ length: 256 }, (_, i) => `${cycle}-${i}`)
      for (const label of labels) add(q, label, plain(), 0)
      const first = q.take(128, Infinity)
      const second = q.take(128, Infinity)
      expect([...first.slots.items, ...second.slots.items]).toEqual(labels)
      expect([first.slots.length, second.slots.length, q.size, q.stored]).toEqual([128, 128, 0, 0])
      expect(room()).toBe(256)
    }
    // A level taken whole makes room for that batch, as before: 100, then 3.
    for (const n of [100, 3]) {
      for (let i = 0; i < n; i++) add(q, `w${i}`, plain(), 0)
      expect(q.take(Infinity, Infinity).slots.length).toBe(n)
      expect(room()).toBe(n)
    }
  })

  it('says a batch keeps the items of one clock reading together only when it is one level that held plain items only', () => {
    const q = new PriorityQueue<Node>('k')
    const stretch = (): boolean => q.take(Infinity, Infinity).slots.ordered
    add(q, 'a', plain(), 0)
    add(q, 'b', plain(), 0)
    expect(stretch()).toBe(true)
    add(q, 'c', plain(), 0)
    q.push(node('late'))
    expect(stretch()).toBe(false)
    // The level's next arrays start plain again.
    add(q, 'd', plain(), 0)
    expect(stretch()).toBe(true)
    add(q, 'e', plain(), 1)
    add(q, 'f', plain(), 0)
    expect(stretch()).toBe(false) // two levels, one after the other
    for (let i = 0; i < 4; i++) add(q, `g${i}`, plain(), 0)
    expect(q.take(2, Infinity).slots.ordered).toBe(true) // a level in part
    expect(stretch()).toBe(true)
  })

  it('says a batch holds plain items only when none of its records is a node', () => {
    const q = new PriorityQueue<Node>('k')
    const plainOnly = (): boolean => q.take(Infinity, Infinity).slots.plain
    add(q, 'a', plain(), 1)
    add(q, 'b', plain(), 0)
    expect(plainOnly()).toBe(true) // two levels, plain both
    add(q, 'c', plain(), 0)
    q.push(node('n', 1))
    expect(plainOnly()).toBe(false)
    const gone = node('gone', 1)
    q.push(gone)
    add(q, 'd', plain(), 0)
    q.remove(gone)
    expect(plainOnly()).toBe(true) // the removed node is not taken
  })

  it("sums a batch's fractional costs in take order, to the last bit, however its level was filled and cut", () => {
    const q = new PriorityQueue<Node>('k')
    const costs = [0.1, 0.2, 0.3, 1e-17, 0.7, 1 / 3, 2.5, 1e16, 1, 0.1]
    const inOrder = (records: ReadonlyArray<{ cost: number }>): number => records.reduce((sum, r) => sum + r.cost, 0)
    // A level taken whole from its first slot.
    for (const c of costs) add(q, 'a', plain(c), 0)
    let out = q.take(Infinity, Infinity)
    expect(out.cost).toBe(inOrder(out.slots.records))
    // Cut in part, then the rest (from a head past 0).
    for (const c of costs) add(q, 'b', plain(c), 0)
    out = q.take(3, Infinity)
    expect(out.cost).toBe(inOrder(out.slots.records))
    out = q.take(Infinity, Infinity)
    expect(out.cost).toBe(inOrder(out.slots.records))
    // Compacted after removals (65 of 90 nodes, beside 30 plain items), then taken whole.
    const nodes: Node[] = []
    for (let i = 0; i < 30; i++) {
      add(q, 'c', plain(costs[i % costs.length]), 0)
      for (let k = 0; k < 3; k++) {
        nodes.push(node('n', 0, costs[(i + k) % costs.length]))
        q.push(nodes[nodes.length - 1])
      }
    }
    for (let i = 0; i < 65; i++) q.remove(nodes[i])
    expect([q.size, q.stored]).toEqual([55, 55])
    out = q.take(Infinity, Infinity)
    expect(out.cost).toBe(inOrder(out.slots.records))
    expect([q.size, q.cost]).toEqual([0, 0])
  })

  it('reads its size and cost as the live items give them, through adds, removals, cuts, dropped fronts and compactions', () => {
    // Size and cost are counted from the levels when read; checked here against a plain
    // list of the live items after every step of a long mixed run (integer costs: exact):
    // a queue filled deep with nodes and plain items, most nodes then removed (which
    // compacts it), then drained by small batches (which moves a level's head past 1024).
    const q = new PriorityQueue<Node>('k')
    const compact = vi.spyOn(q as unknown as { compact: () => void }, 'compact')
    interface Live {
      id: string
      priority: number
      cost: number
      node?: Node
    }
    let live: Live[] = []
    let state = 12345
    const next = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648
      return state % n
    }
    const take = (maxCount: number, maxCost: number): void => {
      const out = q.take(maxCount, maxCost)
      const expected: Live[] = []
      let cost = 0
      for (const l of [...live].sort((a, b) => b.priority - a.priority)) {
        if (expected.length >= maxCount || (expected.length > 0 && cost + l.cost > maxCost)) break
        expected.push(l)
        cost += l.cost
      }
      expect(out.slots.items).toEqual(expected.map((l) => l.id))
      expect(out.cost).toBe(cost)
      live = live.filter((l) => !expected.includes(l))
    }
    // Each phase's odds of each step, in percent.
    const phases = [
      { steps: 6000, add: 30, push: 69, remove: 0, take: 1 }, // fill
      { steps: 3000, add: 0, push: 0, remove: 100, take: 0 }, // remove nodes
      { steps: 5000, add: 10, push: 10, remove: 10, take: 70 }, // drain
    ]
    let step = 0
    for (const phase of phases) {
      for (let i = 0; i < phase.steps; i++, step++) {
        const op = next(100)
        if (op < phase.add) {
          const id = `p${step}`
          const priority = next(2)
          const cost = 1 + next(4)
          add(q, id, plain(cost), priority)
          live.push({ id, priority, cost })
        } else if (op < phase.add + phase.push) {
          const n = node(`n${step}`, next(2), 1 + next(4))
          q.push(n)
          live.push({ id: n.id, priority: n.priority, cost: n.cost, node: n })
        } else if (op < phase.add + phase.push + phase.remove) {
          const nodes = live.filter((l) => l.node !== undefined)
          if (nodes.length > 0) {
            const gone = nodes[next(nodes.length)]
            q.remove(gone.node as Node)
            live = live.filter((l) => l !== gone)
          }
        } else take(1 + next(phase.take > 50 ? 4 : 40), next(2) === 0 ? Infinity : 4 + next(60))
        expect([q.size, q.cost]).toEqual([live.length, live.reduce((sum, l) => sum + l.cost, 0)])
      }
    }
    take(Infinity, Infinity)
    expect([q.size, q.cost, q.stored, live.length]).toEqual([0, 0, 0, 0])
    expect(compact).toHaveBeenCalled()
  })

  it('orders heads by priority, then submission, whether the head is plain or a node', () => {
    const q = new PriorityQueue<Node>('k')
    const early = plain()
    const high = node('late-high', 2)
    q.push(high)
    add(q, 'plain-low', early, 0)
    expect([q.headPriority(), q.headSeq(), q.peekItem()]).toEqual([2, high.seq, 'late-high'])
    q.take(1, Infinity)
    expect([q.headPriority(), q.headSeq(), q.peekItem()]).toEqual([0, early.seq, 'plain-low'])
    expect(q.oldestEnqueuedAt()).toBe(0)
  })
})

describe('KeyedQueues', () => {
  it('keeps a few emptied queues for their keys and forgets the rest, so the map stays bounded', () => {
    const queues = new KeyedQueues(true)
    const limits = { maxBatchSize: 10, minBatchSize: 1, maxWaitMs: 0, maxBatchCost: Infinity, flush: false }
    const map = (queues as unknown as { queues: Map<unknown, unknown> }).queues
    for (let k = 0; k < 100; k++) queues.add(k, `i${k}`, plain(), 0, 1)
    expect(map.size).toBe(100)
    for (let k = 0; k < 100; k++) {
      const queue = queues.choose(limits, () => 0).queue as PriorityQueue<never>
      expect(queues.take(queue, limits.maxBatchSize, limits.maxBatchCost).slots.items).toEqual([`i${k}`])
    }
    expect([queues.size, map.size]).toEqual([0, 16])
  })
})
