import { describe, expect, it } from 'vitest'
import { Fifo, PriorityQueue, TAKEN, type QueueNode } from '../src/queue.js'

interface Node extends QueueNode {
  id: string
}
let seq = 0
const node = (id: string, priority = 0, cost = 1, enqueuedAt = 0): Node => ({
  id,
  priority,
  cost,
  enqueuedAt,
  seq: ++seq,
  item: id,
  state: 0,
})
const ids = (nodes: Node[]): string[] => nodes.map((n) => n.id)

describe('Fifo', () => {
  it('shifts in push order and reuses its array once empty', () => {
    const fifo = new Fifo<number>()
    for (let i = 0; i < 5; i++) fifo.push(i)
    expect([fifo.shift(), fifo.shift()]).toEqual([0, 1])
    expect(fifo.length).toBe(3)
    expect([fifo.peek(), fifo.at(1)]).toEqual([2, 3])
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
    const out = q.take(Infinity, Infinity).nodes
    expect(ids(out)).toEqual(['f', 'b', 'd', 'a', 'c', 'e'])
    expect([q.size, q.cost]).toEqual([0, 0])
  })

  it('removes a node from the middle in O(1) and skips it afterwards', () => {
    const q = new PriorityQueue<Node>('k')
    const nodes = ['a', 'b', 'c', 'd'].map((id) => node(id))
    for (const n of nodes) q.push(n)
    q.remove(nodes[1])
    q.remove(nodes[1]) // twice is harmless
    q.remove(nodes[0])
    expect([q.size, q.cost, q.peek()?.id]).toEqual([2, 2, 'c'])
    const out = q.take(10, Infinity).nodes
    expect(ids(out)).toEqual(['c', 'd'])
  })

  it('stops at the first node over the remaining budget and reports the batch full', () => {
    const q = new PriorityQueue<Node>('k')
    for (const n of [node('a', 0, 4), node('b', 0, 5), node('c', 0, 3), node('d', 0, 1)]) q.push(n)
    const { nodes: out, cost, full } = q.take(10, 10)
    expect({ cost, full }).toEqual({ cost: 9, full: true })
    expect(ids(out)).toEqual(['a', 'b'])
    expect([q.size, q.cost, q.peek()?.id]).toEqual([2, 4, 'c'])
  })

  it('cuts a count-limited batch across priority levels, items in the same order, when the budget cannot stop it', () => {
    const q = new PriorityQueue<Node>('k')
    const nodes = [node('a', 0, 2), node('b', 1, 3), node('c', 0, 1), node('d', 1, 1), node('e', 0, 4)]
    for (const n of nodes) q.push(n)
    const first = q.take(3, 100, true)
    expect(ids(first.nodes)).toEqual(['b', 'd', 'a'])
    expect(first.items).toEqual(['b', 'd', 'a'])
    expect({ cost: first.cost, full: first.full }).toEqual({ cost: 6, full: true })
    expect(first.nodes.map((n) => n.state)).toEqual([TAKEN, TAKEN, TAKEN])
    expect([q.size, q.cost, q.peek()?.id]).toEqual([2, 5, 'c'])
    const rest = q.take(10, 100, true)
    expect(ids(rest.nodes)).toEqual(['c', 'e'])
    expect(rest.items).toEqual(['c', 'e'])
    expect({ cost: rest.cost, full: rest.full }).toEqual({ cost: 5, full: false })
    expect([q.size, q.cost, q.peek()]).toEqual([0, 0, undefined])
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
        const t = q.take(count, cost, true)
        out.push({ ids: ids(t.nodes), items: t.items, cost: t.cost, full: t.full, size: q.size, left: q.cost })
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
    expect(q.peek()?.id).toBe('head')
  })

  it('prunes priority levels once many distinct priorities have come and gone', () => {
    const q = new PriorityQueue<Node>('k')
    for (let p = 0; p < 1000; p++) {
      q.push(node(`p${p}`, p))
      q.take(1, Infinity)
    }
    const n = node('last', 5)
    q.push(n)
    expect(q.peek()).toBe(n)
    expect((q as unknown as { levels: unknown[] }).levels.length).toBeLessThanOrEqual(17)
  })
})
