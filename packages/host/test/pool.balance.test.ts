// The replica choice both transports share (src/pool/balance.ts): an idle replica first,
// else the least busy with room, the first of equals; `undefined` when none is eligible,
// `null` when some are but all are full.
import { describe, expect, it } from 'vitest'
import { leastBusy } from '../src/pool/balance.js'

interface R {
  id: number
  busy: number
  ok: boolean
}
const replicas = (...list: Array<[busy: number, ok?: boolean]>): R[] => list.map(([busy, ok = true], id) => ({ id, busy, ok }))
const choose = (list: R[], capacity: number): number | null | undefined => {
  const chosen = leastBusy(
    list,
    capacity,
    (r) => r.busy,
    (r) => r.ok,
  )
  return chosen === null || chosen === undefined ? chosen : chosen.id
}

describe('leastBusy', () => {
  it('takes the first idle replica, even after a less busy one', () => {
    expect(choose(replicas([2], [1], [0], [0]), 4)).toBe(2)
  })

  it('takes the least busy replica below the capacity, the first of equals', () => {
    expect(choose(replicas([3], [1], [2], [1]), 4)).toBe(1)
  })

  it('gives null when eligible replicas exist but every one is at the capacity', () => {
    expect(choose(replicas([2], [2]), 2)).toBe(null)
  })

  it('skips replicas that are not eligible, and gives undefined when none is', () => {
    expect(choose(replicas([0, false], [1], [0, false]), 2)).toBe(1)
    expect(choose(replicas([0, false], [1, false]), 2)).toBe(undefined)
    expect(choose([], 2)).toBe(undefined)
  })
})
