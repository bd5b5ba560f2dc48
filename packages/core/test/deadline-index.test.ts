import { describe, expect, it } from 'vitest'
import { DeadlineIndex } from '../src/deadline-index.js'
import { Entry, Guard, QUEUED, SETTLED, Stamp } from '../src/entry.js'
import { Group } from '../src/group.js'
import type { EntryOwner } from '../src/entry.js'
import type { GroupOwner } from '../src/group.js'

/** Owner of the guards and groups below: they are never aborted nor timed, so it is never called. */
const owner = {} as GroupOwner & EntryOwner

let seq = 0
/** A queued entry due at `deadline` (Infinity: no deadline), as the batcher makes one. */
function queued(deadline: number, priority = 0): Entry {
  const entry = new Entry(++seq, undefined, 1, priority, seq, new Stamp(0))
  if (deadline !== Infinity) entry.guard = new Guard(owner, entry, undefined, deadline, deadline)
  entry.state = QUEUED
  return entry
}

describe('DeadlineIndex', () => {
  it('reports every live entry due before the horizon, wherever it sits, in take order', () => {
    const index = new DeadlineIndex()
    // The later five at priority 1, taken first.
    const entries = [50, 7, 90, 3, 60, 5, 40, 8, 70, 4].map((d, i) => queued(d, i < 5 ? 0 : 1))
    for (const entry of entries) index.add(entry, entries.length)
    const due: Entry[] = []
    expect(index.due(9, due, entries.length)).toBe(Infinity)
    // Deadlines 5, 8, 4 at priority 1 by submission, then 7, 3 at priority 0.
    expect(due).toEqual([entries[5], entries[7], entries[9], entries[1], entries[3]])
  })

  it('answers the earliest deadline when nothing is due, and skips entries that left the queue', () => {
    const index = new DeadlineIndex()
    const [a, b, c] = [queued(10), queued(20), queued(30)]
    for (const entry of [a, b, c, queued(Infinity)]) index.add(entry, 4)
    expect(index.due(5, [], 4)).toBe(10)
    a.state = SETTLED
    b.state = SETTLED
    const due: Entry[] = []
    expect(index.due(25, due, 2)).toBe(30)
    expect(due).toEqual([])
  })

  it('leaves out an entry whose request moved to no deadline (delayedPriority) after it was indexed', () => {
    const index = new DeadlineIndex()
    const group = new Group(owner, 1, seq + 1, undefined, 5)
    group.deadline = 5
    const member = new Entry(0, undefined, 1, 0, ++seq, new Stamp(0))
    member.group = group
    member.state = QUEUED
    index.add(member, 2)
    const later = queued(50)
    index.add(later, 2)
    group.deadline = Infinity
    const due: Entry[] = []
    expect(index.due(10, due, 2)).toBe(50)
    expect(due).toEqual([])
  })

  it('holds at most about twice the live entries while entries come and go', () => {
    const index = new DeadlineIndex()
    const live: Entry[] = []
    for (let i = 0; i < 10_000; i++) {
      const entry = queued(1000 + i)
      live.push(entry)
      // Ten live at a time: the oldest leaves as a new one comes (taken by a batch).
      if (live.length > 10) (live.shift() as Entry).state = SETTLED
      index.add(entry, live.length)
    }
    expect(index.stored).toBeLessThanOrEqual(2 * 10 + 65)
    const due: Entry[] = []
    index.due(Infinity, due, live.length)
    expect(due).toEqual(live)
  })

  it('lets go of the entries a batch took at the next formation, with no new entry added', () => {
    const index = new DeadlineIndex()
    const entries = Array.from({ length: 200 }, (_, i) => queued(1000 + i))
    for (const entry of entries) index.add(entry, entries.length)
    // A batch takes the 190 latest (never at the top, so nothing pops them): 10 left.
    for (const entry of entries.slice(10)) entry.state = SETTLED
    expect(index.due(0, [], 10)).toBe(1000)
    expect(index.stored).toBe(10)
  })
})
