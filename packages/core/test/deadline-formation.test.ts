import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DeadlineExceededError, DeadlineUnattainableError, DynamicBatcher, LatencyModel } from '../src/index.js'
import type { DynamicBatcherOptions } from '../src/index.js'
import { flush, gate, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/**
 * A latency model that has measured `ms(n)` for every size 1..`sizes` (no warm-up, no
 * headroom in its bound, and no calibration: the tests' batches take whatever time the
 * test moves the clock by, and the bound stays `ms(n)`).
 */
function measuredModel(sizes: number, ms: (n: number) => number): LatencyModel {
  const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 0 })
  for (let n = 1; n <= sizes; n++) model.record(n, ms(n))
  return model
}

/**
 * A batcher with deadline formation over a gated processor and an injected clock `t`
 * (timers are faked and only move when a test moves them): its one slot is held by a
 * first batch of `0` until `release()`.
 */
function deadlineFixture(options: DynamicBatcherOptions<number>) {
  const clock = { t: 0 }
  const g = gate<number>()
  const batcher = new DynamicBatcher<number, number>(g.process, { formation: 'deadline', now: () => clock.t, ...options })
  const batches = () => g.pending.map((p) => p.items)
  const release = async (i: number) => {
    g.pending[i].resolve(g.pending[i].items)
    await flush()
  }
  return { clock, batcher, batches, release, g }
}

describe("formation: 'deadline'", () => {
  it('fails at once, when a slot frees up, a queued request out of reach even by the fastest batch of one measured', async () => {
    const { clock, batcher, batches, release } = deadlineFixture({ latencyModel: measuredModel(4, () => 10) })
    const busy = track(batcher.submit(0))
    await flush()
    // Admitted at t = 0: after the running batch (estimated to end at 10), a batch of one
    // (10 ms) would still end by its deadline at 25.
    const late = track(batcher.submit(1, { timeoutMs: 25 }))
    const fine = track(batcher.submit(2, { timeoutMs: 100 }))
    // The slot frees late, at 18: even the fastest batch of one measured (10 ms) would end
    // at 28, after its deadline at 25, long before its timer would fire.
    clock.t = 18
    await release(0)
    expect(busy.status).toBe('fulfilled')
    expect(late.status).toBe('rejected')
    expect(late.reason).toBeInstanceOf(DeadlineExceededError)
    expect(late.reason).toMatchObject({ code: 'ERR_DEADLINE_EXCEEDED', details: { leftMs: 7, estimatedMs: 10, batchSize: 1 } })
    expect((late.reason as Error).message).toBe('Request cannot meet its deadline: 7 ms left, a batch of one is estimated to end in 10 ms')
    expect(batches()).toEqual([[0], [2]])
    expect(batcher.stats).toMatchObject({ timedOut: 1, cancelled: 1, queued: 0, inFlight: 1 })
    await release(1)
    expect(fine).toEqual({ status: 'fulfilled', value: 2 })
  })

  it('fails at once a hopeless request deep in the queue, behind requests with longer timeouts', async () => {
    // Batches of 2, so the request is 25 batches deep in take order (its priority is
    // lower): a look that went only as far as one batch's reach would leave it queued
    // until its timer fired.
    const { clock, batcher, batches, release } = deadlineFixture({ maxBatchSize: 2, latencyModel: measuredModel(4, () => 1) })
    void batcher.submit(0)
    await flush()
    const deep = track(batcher.submit(99, { timeoutMs: 20.5, priority: -1 }))
    const ahead = Array.from({ length: 50 }, (_, i) => track(batcher.submit(i + 1, { timeoutMs: 1000 })))
    await flush()
    // The slot frees at 20: a batch of one, at its fastest (1 ms), would end at 21.
    clock.t = 20
    await release(0)
    expect(deep.reason).toBeInstanceOf(DeadlineExceededError)
    expect(deep.reason).toMatchObject({ details: { leftMs: 0.5, estimatedMs: 1, batchSize: 1 } })
    expect(batches()).toEqual([[0], [1, 2]])
    expect(batcher.stats).toMatchObject({ timedOut: 1, cancelled: 1, queued: 48 })
    expect(ahead.filter((t) => t.status !== 'pending')).toEqual([])
  })

  it('fails a deep hopeless request at once when requests aborted before it had earlier deadlines', async () => {
    const { clock, batcher, batches, release } = deadlineFixture({ maxBatchSize: 2, latencyModel: measuredModel(4, () => 1) })
    void batcher.submit(0)
    await flush()
    const controller = new AbortController()
    const aborted = Array.from({ length: 20 }, (_, i) =>
      track(batcher.submit(100 + i, { timeoutMs: 22, signal: controller.signal, priority: -1 })),
    )
    const deep = track(batcher.submit(99, { timeoutMs: 20.5, priority: -1 }))
    const ahead = Array.from({ length: 10 }, (_, i) => track(batcher.submit(i + 1, { timeoutMs: 1000 })))
    controller.abort(new Error('caller left'))
    await flush()
    clock.t = 20
    await release(0)
    expect(aborted.map((t) => (t.reason as Error).message)).toEqual(Array.from({ length: 20 }, () => 'caller left'))
    expect(deep.reason).toBeInstanceOf(DeadlineExceededError)
    expect(batches()).toEqual([[0], [1, 2]])
    expect(batcher.stats).toMatchObject({ timedOut: 1, cancelled: 21, queued: 8 })
    expect(ahead.filter((t) => t.status !== 'pending')).toEqual([])
  })

  it('never packs a row whose deadline has passed, though its timer has not fired yet', async () => {
    const { clock, batcher, batches, release } = deadlineFixture({ latencyModel: measuredModel(4, () => 1) })
    void batcher.submit(0)
    await flush()
    const passed = track(batcher.submit(1, { timeoutMs: 20 }))
    const fine = track(batcher.submit(2, { timeoutMs: 100 }))
    clock.t = 25
    await release(0)
    expect(passed.reason).toBeInstanceOf(DeadlineExceededError)
    expect(batches()).toEqual([[0], [2]])
    await release(1)
    expect(fine.value).toBe(2)
  })

  it('takes the largest batch whose earliest deadline still holds with the estimated run time', async () => {
    // 2 ms per row: a batch of 3 ends at 6, of 4 at 8; item 3's deadline is at 7. (A batch
    // of one, the running one, is estimated at 1 ms: item 3 is let in, 1 + 6 <= 7.)
    const model = measuredModel(8, (n) => (n === 1 ? 1 : 2 * n))
    const { batcher, batches, release } = deadlineFixture({ maxBatchSize: 8, latencyModel: model })
    void batcher.submit(0)
    await flush()
    const results = [1, 2, 3, 4].map((i) => track(batcher.submit(i, { timeoutMs: i === 3 ? 7 : 100 })))
    await release(0)
    expect(batches()).toEqual([[0], [1, 2, 3]])
    await release(1)
    expect(batches()).toEqual([[0], [1, 2, 3], [4]])
    await release(2)
    expect(results.map((r) => r.value)).toEqual([1, 2, 3, 4])
  })

  it('grows a batch past the sizes in use by the time per row of the size below, not only to the next size measured far above', async () => {
    // After a spell of full batches, only sizes 1, 4 and 32 are measured (1, 2 and 16 ms):
    // a batch of 12 is bounded at 6 ms (size 4's 0.5 ms per row), not at size 32's 16.
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 0 })
    model.record(1, 1)
    model.record(4, 2)
    model.record(32, 16)
    expect([model.bound(5), model.bound(12), model.bound(31)]).toEqual([2.5, 6, 15.5])
    const { batcher, batches, release } = deadlineFixture({ maxBatchSize: 32, latencyModel: model })
    void batcher.submit(0)
    await flush()
    const results = Array.from({ length: 12 }, (_, i) => track(batcher.submit(i + 1, { timeoutMs: 8 })))
    await release(0)
    expect(batches()).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]])
    await release(1)
    expect(results.map((r) => r.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
  })

  it('starts a batch only when the bound of its run, not the door’s estimate, meets its earliest deadline', async () => {
    // 2 ms per row on the replica; the hand-off's median is 0, its p90 4 ms: a batch of
    // n is estimated at 2n ms, bounded at 2n + 4 (no headroom).
    const model = new LatencyModel({ warmupRuns: 0, headroom: 0 })
    for (let i = 0; i < 10; i++) model.record(1 + (i % 4), 2 * (1 + (i % 4)), i >= 8 ? 4 : 0)
    expect([model.estimate(4), model.bound(4), model.bound(3)]).toEqual([8, 12, 10])
    const { clock, batcher, batches, release } = deadlineFixture({ maxBatchSize: 4, latencyModel: model })
    void batcher.submit(0)
    await flush()
    // Admitted (the door's estimate: the running batch ends at 2, then 8 ms for four).
    const results = [1, 2, 3, 4].map((i) => track(batcher.submit(i, { timeoutMs: 11 })))
    await release(0)
    // By the estimate all four would go (8 <= 11); by the bound, three (10 <= 11 < 12).
    expect(batches()).toEqual([[0], [1, 2, 3]])
    clock.t = 5
    await release(1)
    expect(batches()).toEqual([[0], [1, 2, 3], [4]])
    await release(2)
    expect(results.map((r) => r.value)).toEqual([1, 2, 3, 4])
  })

  it('sizes a batch by the bound plus how much later than its hand-off part recent answers reached the host', async () => {
    // 2 ms per row on the replica, no hand-off: a batch of n is bounded at 2n ms.
    const batchesWith = async (calibrationWindow: number) => {
      const model = new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow })
      for (let n = 1; n <= 4; n++) model.record(n, 2 * n, 0)
      const { clock, batcher, batches, release, g } = deadlineFixture({ maxBatchSize: 4, latencyModel: model })
      void batcher.submit(0)
      await flush()
      const results = [1, 2, 3, 4].map((i) => track(batcher.submit(i, { timeoutMs: 12 })))
      // The batch of one ran its usual 2 ms, but its answer came at 4: 2 ms late.
      g.pending[0].context.reportRunMs(2)
      clock.t = 4
      await release(0)
      const formed = batches()
      for (let i = 1; i < g.pending.length; i++) await release(i)
      expect(results.map((r) => r.value)).toEqual([1, 2, 3, 4])
      return formed
    }
    // Calibrated, a batch of n is bounded at 2n + 2: three rows end by 4 + 8 <= 12, not
    // four. (Not 4n, twice the bound of every size because the bound of one, 2 ms, was
    // outrun by 2: two rows only.)
    expect(await batchesWith(8)).toEqual([[0], [1, 2, 3]])
    // Uncalibrated, the four (4 + 8 <= 12) would go, and if the next batch is as late, all four answer late.
    expect(await batchesWith(0)).toEqual([[0], [1, 2, 3, 4]])
  })

  /**
   * One slot held by a batch of `0` from t = 0; item 1 (deadline 12.5) queued at 0, items
   * 2..8 (deadline 4 + `tailTimeoutMs`) at 4; the slot frees at 9 without a measured run
   * (the batch fails). A batch of n is estimated at 2 + n ms.
   */
  async function overloadFixture(tailTimeoutMs: number) {
    const fixture = deadlineFixture({ maxBatchSize: 8, latencyModel: measuredModel(8, (n) => 2 + n) })
    const { clock, batcher, g } = fixture
    void batcher.submit(0).catch(() => undefined)
    await flush()
    const head = track(batcher.submit(1, { timeoutMs: 12.5 }))
    clock.t = 4
    const tail = [2, 3, 4, 5, 6, 7, 8].map((i) => track(batcher.submit(i, { timeoutMs: tailTimeoutMs })))
    clock.t = 9
    g.pending[0].reject(new Error('busy batch failed'))
    await flush()
    return { ...fixture, head, tail }
  }

  it('never fails a head it could still answer, and grows its batch past the bound when that answers more rows', async () => {
    // The head alone ([1], 3 ms) would end at 12, in time (12.5); then the 7 others (9 ms)
    // at 21, after their deadline at 18: 1 answered. A batch of 4 ends at 15: the head
    // late, 3 of the tail in time, the other 4 by 21 too late: 3 answered. (Failing the
    // head to run the 7 others by 18 would answer 7, but the head was within reach.)
    const { batches, head, tail, release, clock } = await overloadFixture(14)
    expect(batches()).toEqual([[0], [1, 2, 3, 4]])
    expect(head.status).toBe('pending')
    clock.t = 15
    await release(1)
    expect([head, ...tail.slice(0, 3)].map((t) => t.value)).toEqual([1, 2, 3, 4])
    // At 15, one more of the tail can end by 18 (a batch of one, 3 ms), no more.
    expect(batches()).toEqual([[0], [1, 2, 3, 4], [5]])
  })

  it('serves the head first when that answers the queue as well', async () => {
    const { batches, head, tail, release } = await overloadFixture(40)
    expect(batches()).toEqual([[0], [1]])
    await release(1)
    expect(batches()).toEqual([[0], [1], [2, 3, 4, 5, 6, 7, 8]])
    await release(2)
    expect([head, ...tail].map((t) => t.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })

  it('lets one request through as a probe after 100 ms with nothing run, though the model says it is too slow', async () => {
    // Every batch is estimated at 50 ms: a 20 ms timeout is hopeless by the model.
    const { clock, batcher, batches, release } = deadlineFixture({ latencyModel: measuredModel(4, () => 50) })
    const early = track(batcher.submit(1, { timeoutMs: 20 }))
    await flush()
    expect(early.reason).toBeInstanceOf(DeadlineUnattainableError)
    clock.t = 100
    const probe = track(batcher.submit(2, { timeoutMs: 20 }))
    const behind = track(batcher.submit(3, { timeoutMs: 20 }))
    await flush()
    expect(batches()).toEqual([[2]])
    expect(behind.reason).toBeInstanceOf(DeadlineUnattainableError)
    // It answered late (at 130, its deadline 120): the model stands, and the next probe
    // waits for another 100 ms without a run.
    clock.t = 130
    await release(0)
    expect(probe).toEqual({ status: 'fulfilled', value: 2 })
    const after = track(batcher.submit(4, { timeoutMs: 20 }))
    await flush()
    expect(after.reason).toBeInstanceOf(DeadlineUnattainableError)
    expect(batches()).toEqual([[2]])
  })

  it('forgets what the model measured when a probe answers in time: requests are admitted and batched again', async () => {
    // A stall's figures: every batch measured at 50 ms, so a 20 ms timeout is hopeless by
    // the model, and only a probe every 100 ms would run while they last.
    const model = measuredModel(4, () => 50)
    const { clock, batcher, batches, release } = deadlineFixture({ latencyModel: model })
    clock.t = 100
    const probe = track(batcher.submit(1, { timeoutMs: 20 }))
    await flush()
    expect(batches()).toEqual([[1]])
    // It ran 1 ms, well within its deadline (120): the stall is over.
    clock.t = 101
    await release(0)
    expect(probe).toEqual({ status: 'fulfilled', value: 1 })
    expect(model.estimate(1)).toBe(1)
    // A batch of two is bounded by the probe's run, in proportion: 2 ms.
    const next = [2, 3].map((i) => track(batcher.submit(i, { timeoutMs: 20 })))
    await flush()
    expect(batches()).toEqual([[1], [2, 3]])
    clock.t = 103
    await release(1)
    expect(next.map((r) => r.value)).toEqual([2, 3])
  })

  it('forms the same queue by count alone when formation is count', async () => {
    const model = measuredModel(8, (n) => 2 * n)
    const { batcher, batches, release } = deadlineFixture({ maxBatchSize: 8, latencyModel: model, formation: 'count' })
    void batcher.submit(0)
    await flush()
    for (const i of [1, 2, 3, 4]) void batcher.submit(i, { timeoutMs: i === 3 ? 7 : 100 }).catch(() => undefined)
    await release(0)
    expect(batches()).toEqual([[0], [1, 2, 3, 4]])
  })

  it('probes with a batch of one before any run is measured, then sizes batches from the measurement', async () => {
    const { clock, batcher, batches, release } = deadlineFixture({ maxBatchSize: 8, latencyModel: new LatencyModel({ warmupRuns: 0 }) })
    const all = [1, 2, 3].map((i) => track(batcher.submit(i, { timeoutMs: 100 })))
    await flush()
    expect(batches()).toEqual([[1]])
    clock.t = 2 // the probe ran 2 ms: a batch of two is estimated at 4 (in proportion)
    await release(0)
    expect(batches()).toEqual([[1], [2, 3]])
    await release(1)
    expect(all.map((r) => r.value)).toEqual([1, 2, 3])
  })

  it('waits for minBatchSize only while every queued deadline keeps its slack', async () => {
    // A batch of 4 takes 10 ms; the count/time policy alone would wait until t = 100.
    const { clock, batcher, batches } = deadlineFixture({
      minBatchSize: 4,
      maxBatchSize: 4,
      maxWaitMs: 100,
      latencyModel: measuredModel(4, () => 10),
    })
    void batcher.submit(1, { timeoutMs: 30 })
    void batcher.submit(2)
    await flush()
    expect(batches()).toEqual([])
    clock.t = 19
    vi.advanceTimersByTime(19)
    await flush()
    expect(batches()).toEqual([])
    // At 20 a batch of 4 would still end by item 1's deadline at 30: the last moment to go.
    clock.t = 20
    vi.advanceTimersByTime(1)
    await flush()
    expect(batches()).toEqual([[1, 2]])
  })

  it('refuses at the door a request whose timeout is shorter than the estimated drain of the queue ahead of it', async () => {
    const { batcher } = deadlineFixture({ maxBatchSize: 4, latencyModel: measuredModel(4, () => 20) })
    void batcher.submit(0)
    await flush()
    for (let i = 1; i <= 8; i++) void batcher.submit(i)
    // The one slot frees when the running batch ends (estimated at 20), then 8 queued + 1:
    // three rounds of batches of 4, 20 ms each.
    const refused = track(batcher.submit(9, { timeoutMs: 70 }))
    const many = track(batcher.submitMany([10, 11], { timeoutMs: 79 }))
    const admitted = track(batcher.submit(12, { timeoutMs: 80 }))
    await flush()
    expect(refused.reason).toBeInstanceOf(DeadlineUnattainableError)
    expect(refused.reason).toMatchObject({ code: 'ERR_DEADLINE_UNATTAINABLE', details: { timeoutMs: 70, drainMs: 80 } })
    expect(many.reason).toMatchObject({ code: 'ERR_DEADLINE_UNATTAINABLE', details: { timeoutMs: 79, drainMs: 80 } })
    expect(admitted.status).toBe('pending')
    expect(batcher.stats).toMatchObject({ rejected: 3, queued: 9 })
  })

  it('learns a run reported where it ran apart from the hand-off, so a stall of the dispatching thread refuses no one at the door', async () => {
    const model = new LatencyModel({ warmupRuns: 0 })
    const { clock, batcher, release, g } = deadlineFixture({ maxBatchSize: 4, latencyModel: model })
    // Three batches settle 3 ms after dispatch, the last 80 ms after (the thread that
    // sees the answer was busy); each reports a run of 1 ms where it ran.
    for (const elapsed of [3, 3, 3, 80]) {
      void batcher.submit(0)
      await flush()
      g.pending[g.pending.length - 1].context.reportRunMs(1)
      clock.t += elapsed
      await release(g.pending.length - 1)
    }
    // 1 ms run + the median hand-off of 2 ms; measured from dispatch to settle it would be 80.
    expect(model.estimate(1)).toBe(3)
    const fits = track(batcher.submit(5, { timeoutMs: 10 }))
    await flush()
    expect(fits.status).toBe('pending')
    expect(batcher.stats.rejected).toBe(0)
    // A batch whose processor reports nothing counts whole as its run (20 ms), hand-off added.
    clock.t += 20
    await release(g.pending.length - 1)
    expect(fits).toEqual({ status: 'fulfilled', value: 5 })
    expect(model.estimate(1)).toBe(22)
  })

  it('refuses nothing for its deadline before a run is measured, nor with count formation', async () => {
    const unmeasured = deadlineFixture({ maxBatchSize: 1, latencyModel: new LatencyModel() })
    void unmeasured.batcher.submit(0)
    await flush()
    for (let i = 1; i <= 8; i++) void unmeasured.batcher.submit(i)
    expect(track(unmeasured.batcher.submit(9, { timeoutMs: 1 })).status).toBe('pending')
    await flush()
    expect(unmeasured.batcher.stats.rejected).toBe(0)

    const count = deadlineFixture({ maxBatchSize: 1, latencyModel: measuredModel(1, () => 20), formation: 'count' })
    void count.batcher.submit(0)
    await flush()
    for (let i = 1; i <= 8; i++) void count.batcher.submit(i)
    void count.batcher.submit(9, { timeoutMs: 1 }).catch(() => undefined)
    await flush()
    expect(count.batcher.stats.rejected).toBe(0)
  })

  it('validates formation and latencyModel, echoing the bad value', () => {
    const expected =
      "Expected `formation` to be 'count', 'deadline' or a Formation (an object with a `next` function and a boolean `readsDeadlines`)"
    expect(() => new DynamicBatcher(() => [], { formation: 'edf' as 'count' })).toThrow(`${expected}, got \`"edf"\` (string)`)
    expect(() => new DynamicBatcher(() => [], { formation: { next: () => ({ kind: 'wait', until: 0 }) } as never })).toThrow(
      `${expected}, got \`{}\` (object)`,
    )
    expect(() => new DynamicBatcher(() => [], { formation: { readsDeadlines: false, next: 1 } as never })).toThrow(
      `${expected}, got \`{"readsDeadlines":false,"next":1}\` (object)`,
    )
    expect(
      () =>
        new DynamicBatcher(() => [], {
          formation: { readsDeadlines: true, next: () => ({ kind: 'wait', until: 0 }), settled: 'x' } as never,
        }),
    ).toThrow('Expected `formation.settled` to be a function, got `"x"` (string)')
    expect(() => new DynamicBatcher(() => [], { latencyModel: {} as LatencyModel })).toThrow(
      'Expected `latencyModel` to be a LatencyModel, got `{}` (object)',
    )
  })
})
