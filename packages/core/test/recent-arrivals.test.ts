import { describe, expect, it } from 'vitest'
import { RecentArrivals } from '../src/recent-arrivals.js'

describe('RecentArrivals', () => {
  it('reads no rate before two requests, and Infinity when the kept ones all arrived now', () => {
    const arrivals = new RecentArrivals(4)
    expect(arrivals.rowsPerMs(0)).toBe(0)
    arrivals.add(0, 1)
    expect(arrivals.rowsPerMs(5)).toBe(0)
    arrivals.add(5, 1)
    expect(arrivals.rowsPerMs(5)).toBe(0.2)
    arrivals.add(5, 1)
    arrivals.add(5, 1)
    arrivals.add(5, 1)
    expect(arrivals.rowsPerMs(5)).toBe(Infinity)
  })

  it('reads rows per ms from the oldest kept request to now, that request’s rows left out', () => {
    const arrivals = new RecentArrivals(4)
    arrivals.add(0, 3)
    arrivals.add(2, 1)
    arrivals.add(4, 2)
    // 3 rows after the first, over 4 ms; then over 6 ms at 6 (a pause lowers it at once).
    expect(arrivals.rowsPerMs(4)).toBe(0.75)
    expect(arrivals.rowsPerMs(6)).toBe(0.5)
  })

  it('turns within as many requests as it keeps, however slow the ones before were', () => {
    const arrivals = new RecentArrivals(4)
    // One row every 100 ms, then a burst of one row every 0.5 ms.
    for (let t = 0; t <= 1000; t += 100) arrivals.add(t, 1)
    expect(arrivals.rowsPerMs(1000)).toBe(0.01)
    arrivals.add(1000.5, 1)
    arrivals.add(1001, 1)
    arrivals.add(1001.5, 1)
    // The oldest kept is still the one at 1000: 3 rows in 1.5 ms.
    expect(arrivals.rowsPerMs(1001.5)).toBe(2)
    arrivals.add(1002, 1)
    expect(arrivals.rowsPerMs(1002)).toBe(2)
  })
})
