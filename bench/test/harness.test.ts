/**
 * The measuring parts of the bench, on an injected clock: vitest fake timers also fake
 * `performance.now()`, so every figure below follows from the fake schedule exactly.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ClosedLoopHungError, runClosedLoop } from '../src/closed-loop.js'
import { LatencyRecorder, summarize } from '../src/latency.js'

const after = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms))

describe('latency percentiles', () => {
  it('are nearest-rank over every sample', () => {
    const recorder = new LatencyRecorder()
    // 100 samples, recorded out of order, more than the initial buffer of 4096 needs not be.
    for (let i = 100; i >= 1; i--) recorder.record(i)
    expect(recorder.summary()).toEqual({ count: 100, mean: 50.5, p50: 50, p95: 95, p99: 99, max: 100 })
  })

  it('keep every sample past the initial buffer', () => {
    const recorder = new LatencyRecorder()
    for (let i = 0; i < 10_000; i++) recorder.record(i % 2 === 0 ? 1 : 3)
    expect(recorder.summary()).toEqual({ count: 10_000, mean: 2, p50: 1, p95: 3, p99: 3, max: 3 })
  })

  it('are all zero without samples', () => {
    expect(summarize(new Float64Array(0))).toEqual({ count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 })
  })
})

describe('runClosedLoop', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('counts only completions inside the window, after the warm-up', async () => {
    const windowHooks: string[] = []
    const run = runClosedLoop({
      callers: 4,
      warmupMs: 10,
      durationMs: 100,
      call: after(1),
      onWindowStart: () => windowHooks.push('start'),
      onWindowEnd: () => windowHooks.push('end'),
    })
    await vi.advanceTimersByTimeAsync(200)
    const result = await run
    // 4 callers × 1 call/ms over a 100 ms window.
    expect(result.calls).toBe(400)
    expect(result.windowMs).toBe(100)
    expect(result.rowsPerSec).toBe(4000)
    expect(result.latencyMs).toEqual({ count: 400, mean: 1, p50: 1, p95: 1, p99: 1, max: 1 })
    expect(windowHooks).toEqual(['start', 'end'])
  })

  it('reports rows, not calls, when each call carries a batch', async () => {
    const run = runClosedLoop({ callers: 1, rowsPerCall: 128, warmupMs: 0, durationMs: 20, call: after(2) })
    await vi.advanceTimersByTimeAsync(100)
    const result = await run
    expect(result.calls).toBe(10)
    expect(result.rows).toBe(1280)
    expect(result.rowsPerSec).toBe(64_000)
    expect(result.callsPerSec).toBe(500)
  })

  it('ends the window early at maxCalls', async () => {
    const run = runClosedLoop({ callers: 2, warmupMs: 0, durationMs: 10_000, maxCalls: 10, call: after(1) })
    await vi.advanceTimersByTimeAsync(100)
    const result = await run
    expect(result.calls).toBe(10)
    expect(result.windowMs).toBe(5)
  })

  it('keeps the window open until minCalls completed when one call outlasts it', async () => {
    const run = runClosedLoop({ callers: 1, warmupMs: 0, durationMs: 10, minCalls: 2, call: after(50) })
    await vi.advanceTimersByTimeAsync(500)
    const result = await run
    expect(result.calls).toBe(2)
    expect(result.windowMs).toBe(100)
    expect(result.rowsPerSec).toBe(20)
  })

  it('fails with ClosedLoopHungError when calls never settle, instead of hanging the bench', async () => {
    const run = runClosedLoop({ callers: 3, warmupMs: 10, durationMs: 100, drainTimeoutMs: 50, call: () => new Promise(() => {}) })
    const outcome = expect(run).rejects.toThrow(ClosedLoopHungError)
    await vi.advanceTimersByTimeAsync(160)
    await outcome
    await expect(run).rejects.toMatchObject({ outstanding: 3 })
  })

  it('fails with the first error of any call and stops every caller', async () => {
    let calls = 0
    const boom = new Error('boom')
    const run = runClosedLoop({
      callers: 4,
      warmupMs: 0,
      durationMs: 1000,
      call: async () => {
        const index = ++calls
        await after(index <= 4 ? 1 : 2)()
        if (index === 5) throw boom
      },
    })
    const outcome = expect(run).rejects.toBe(boom)
    await vi.advanceTimersByTimeAsync(10)
    await outcome
    // Calls 1-4 settle at t=1, calls 5-8 start then; call 5 fails at t=3 and its
    // siblings 6-8 settle at t=3 too, after which no caller starts another call.
    expect(calls).toBe(8)
  })

  it('rejects a caller count below 1', async () => {
    await expect(runClosedLoop({ callers: 0, warmupMs: 0, durationMs: 1, call: after(1) })).rejects.toThrow(
      new RangeError('callers must be an integer >= 1, got 0'),
    )
  })
})
