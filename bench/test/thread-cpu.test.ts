import { describe, expect, it } from 'vitest'
import { cpuPerRow, readThreadCpu } from '../src/thread-cpu.js'

const host = String(process.pid)

describe('per-thread CPU of the bench process', () => {
  it('reads one entry per live thread, the host thread included (Linux /proc)', () => {
    const reading = readThreadCpu()
    expect(reading).not.toBeNull()
    expect(reading?.has(host)).toBe(true)
    for (const ms of reading?.values() ?? []) expect(Number.isInteger(ms) && ms >= 0).toBe(true)
  })

  it('divides the host thread CPU between two readings by the rows, and leaves threads started later out', () => {
    const before = new Map([
      [host, 1_000],
      ['999999999', 0],
    ])
    const after = new Map([
      [host, 1_030],
      ['999999999', 500],
    ])
    expect(cpuPerRow(before, after, 25_000)).toEqual({ hostUsPerRow: 1.2, platformUsPerRow: 0 })
  })

  it('gives no figure without both readings or without rows', () => {
    expect(cpuPerRow(null, new Map(), 10)).toBeNull()
    expect(cpuPerRow(new Map(), new Map(), 0)).toBeNull()
  })
})
