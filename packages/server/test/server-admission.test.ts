/**
 * The admission policy's arithmetic (protocol/door.ts): the row estimate at the
 * door, the refusal rule and Retry-After. The HTTP behaviour built on it is in
 * server-overload.test.ts.
 */
import { describe, expect, it } from 'vitest'
import type { AdmissionState } from '@inferpool/core'
import type { PoolMetadata } from '@inferpool/host'
import { estimateJsonRows, retryAfterSeconds, RowSizeEstimator, wouldRefuse } from '../src/protocol/door.js'

const demo = {
  inputs: [{ name: 'input', type: 'float32', dims: ['batch', 256] }],
  outputs: [{ name: 'output', type: 'float32', dims: ['batch', 16] }],
} as unknown as PoolMetadata

function state(overrides: Partial<AdmissionState>): AdmissionState {
  return { queued: 0, waitingForRoom: 0, maxQueueSize: 100, whenFull: 'reject', drainRate: 0, closing: false, ...overrides }
}

describe('row estimate at the door', () => {
  it('assumes at most 32 bytes per element before any request was seen (a lower bound), at least 1 row', () => {
    // 256 elements per row: 8,192 bytes per row at worst, after a 256-byte envelope.
    expect(estimateJsonRows(100, demo)).toBe(1)
    expect(estimateJsonRows(256 + 8192 * 10, demo)).toBe(10)
    expect(new RowSizeEstimator(demo).rows(256 + 8192 * 10)).toBe(10)
  })

  it('learns the bytes per row of recent requests, with 25 % slack, never going below the bound', () => {
    const sizes = new RowSizeEstimator(demo)
    sizes.observe(64 * 2000, 64)
    // 2,000 bytes per row seen: a 128,000-byte body holds about 64 rows, counted as 51.
    expect(sizes.rows(128_000)).toBe(51)
    expect(sizes.rows(100)).toBe(1)
  })
})

describe('refusal and Retry-After', () => {
  it("refuses what does not fit with 'reject', never with 'wait', and never jumps ahead of callers waiting for room", () => {
    expect(wouldRefuse(state({ queued: 90 }), 10)).toBe(false)
    expect(wouldRefuse(state({ queued: 91 }), 10)).toBe(true)
    expect(wouldRefuse(state({ queued: 0, waitingForRoom: 1 }), 1)).toBe(true)
    expect(wouldRefuse(state({ queued: 100, whenFull: 'wait' }), 10)).toBe(false)
  })

  it('derives Retry-After from the drain rate: the time for the excess rows to leave, 1 to 60 s', () => {
    expect(retryAfterSeconds(state({ queued: 100, drainRate: 0 }), 10, 7)).toBe(7)
    expect(retryAfterSeconds(state({ queued: 100, drainRate: 1000 }), 10, 7)).toBe(1)
    expect(retryAfterSeconds(state({ queued: 100, drainRate: 2 }), 10, 7)).toBe(5)
    expect(retryAfterSeconds(state({ queued: 100, drainRate: 0.01 }), 10, 7)).toBe(60)
  })
})
