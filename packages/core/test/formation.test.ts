/**
 * The rules of issue 35 on the batcher alone, with an injected clock and latency model:
 * nothing late is started under any formation; deadline formation refuses and fails
 * only what is out of reach by the model's floor, runs what it is unsure of, and
 * follows the machine back at once; a user's `Formation` is used as it is, and a faulty
 * one never strands the queue.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CountFormation, DeadlineExceededError, DynamicBatcher, LatencyModel } from '../src/index.js'
import type { DynamicBatcherOptions, Formation, FormationQueue, FormationStep, FormationView, QueuedItem } from '../src/index.js'
import { flush, gate, track } from './helpers.js'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

/** A batcher over a gated processor and an injected clock `t`; its one slot is held by a first batch of `0` until `release(0)`. */
function fixture(options: DynamicBatcherOptions<number>) {
  const clock = { t: 0 }
  const g = gate<number>()
  const batcher = new DynamicBatcher<number, number>(g.process, { now: () => clock.t, ...options })
  const batches = () => g.pending.map((p) => p.items)
  const release = async (i: number) => {
    g.pending[i].resolve(g.pending[i].items)
    await flush()
  }
  return { clock, batcher, batches, release, g }
}

/** The items of a queue, in take order (`FormationQueue.scan`). */
function itemsOf(queue: FormationQueue): QueuedItem[] {
  const items: QueuedItem[] = []
  queue.scan((item) => {
    items.push(item)
    return true
  })
  return items
}

/** No warm-up, headroom or calibration: the figures are what the test records. */
const plainModel = () => new LatencyModel({ warmupRuns: 0, headroom: 0, calibrationWindow: 0 })

describe('nothing late is started, under any formation', () => {
  for (const formation of ['count', 'deadline'] as const) {
    it(`leaves out of its batch, with DeadlineExceededError, a row whose deadline passed while it queued (${formation})`, async () => {
      const latencyModel = plainModel()
      for (let n = 1; n <= 8; n++) latencyModel.record(n, 1)
      const { clock, batcher, batches, release } = fixture({ formation, maxBatchSize: 8, latencyModel })
      void batcher.submit(0)
      await flush()
      const passed = track(batcher.submit(1, { timeoutMs: 20 }))
      const request = track(batcher.submitMany([2, 3], { timeoutMs: 20 }))
      const fine = track(batcher.submit(4, { timeoutMs: 100 }))
      const plain = track(batcher.submit(5))
      // The slot frees at 25: their timers have not fired (fake timers stand still), but
      // their deadline (20) has passed.
      clock.t = 25
      await release(0)
      expect(batches()).toEqual([[0], [4, 5]])
      expect(passed.reason).toBeInstanceOf(DeadlineExceededError)
      expect(passed.reason).toMatchObject({ code: 'ERR_DEADLINE_EXCEEDED', details: { leftMs: -5 } })
      expect(request.reason).toBeInstanceOf(DeadlineExceededError)
      // The request's second row is cancelled with the first (counted cancelled, not timed out).
      expect(batcher.stats).toMatchObject({ timedOut: 2, cancelled: 3, inFlight: 1, inFlightItems: 2, queued: 0 })
      await release(1)
      expect([fine.value, plain.value]).toEqual([4, 5])
      expect(batcher.stats).toMatchObject({ inFlightItems: 0, completed: 3 })
    })
  }

  it('starts no batch at all when every row in it is late, and goes on with the next', async () => {
    const { clock, batcher, batches, release } = fixture({ maxBatchSize: 2 })
    void batcher.submit(0)
    await flush()
    const late = [1, 2].map((i) => track(batcher.submit(i, { timeoutMs: 10 })))
    const next = track(batcher.submit(3))
    clock.t = 11
    await release(0)
    expect(late.map((t) => (t.reason as { code?: string }).code)).toEqual(['ERR_DEADLINE_EXCEEDED', 'ERR_DEADLINE_EXCEEDED'])
    expect(batches()).toEqual([[0], [3]])
    await release(1)
    expect(next.value).toBe(3)
  })
})

describe("formation: 'deadline' on a busy machine", () => {
  it('refuses at the door only by the fastest drain measured, not by a slow typical hand-off', async () => {
    // Runs of 1 ms; hand-offs of 30 ms but for one of 1 ms: the typical estimate (31 ms)
    // misses a 20 ms deadline, the floor (2 ms) does not.
    const model = plainModel()
    for (let i = 0; i < 9; i++) model.record(1, 1, 30)
    model.record(1, 1, 1)
    expect([model.floor(1), model.estimate(1)]).toEqual([2, 31])
    const { batcher, batches } = fixture({ formation: 'deadline', latencyModel: model })
    const admitted = track(batcher.submit(1, { timeoutMs: 20 }))
    await flush()
    expect(admitted.status).toBe('pending')
    expect(batches()).toEqual([[1]])
    expect(batcher.stats.rejected).toBe(0)
  })

  it('runs a queued row the model is unsure of (its bound misses, its floor does not) instead of failing it', async () => {
    // A batch of one: fastest 2 ms, slowest 12 ms.
    const model = plainModel()
    for (const ms of [2, 2, 2, 12]) model.record(1, ms)
    const { clock, batcher, batches, release } = fixture({ formation: 'deadline', latencyModel: model })
    void batcher.submit(0)
    await flush()
    const unsure = track(batcher.submit(1, { timeoutMs: 10 }))
    clock.t = 2
    await release(0)
    // 8 ms left: the bound (12) says late, the floor (2) says it can make it: it runs.
    expect(batches()).toEqual([[0], [1]])
    clock.t = 4
    await release(1)
    expect(unsure).toEqual({ status: 'fulfilled', value: 1 })
  })

  it('follows the machine back at once: one fast run lowers the floor the door and the drops go by', async () => {
    const model = plainModel()
    // A stall: every run of the window took 50 ms.
    for (let i = 0; i < 10; i++) model.record(1, 50)
    expect(model.floor(1)).toBe(50)
    model.record(1, 1)
    expect([model.floor(1), model.estimate(1)]).toEqual([1, 50])
  })

  it('grows a batch past the bound when that answers more rows in time, rather than sizing it to the head’s slack', async () => {
    // Every size runs in 1 ms; with a headroom of 100 % the bound of any batch is 2 ms.
    const model = new LatencyModel({ warmupRuns: 0, headroom: 1, calibrationWindow: 0 })
    for (let n = 1; n <= 8; n++) for (let i = 0; i < 2; i++) model.record(n, 1)
    expect([model.floor(8), model.estimate(8), model.bound(8)]).toEqual([1, 1, 2])
    const { clock, batcher, batches, release } = fixture({ formation: 'deadline', maxBatchSize: 8, latencyModel: model })
    void batcher.submit(0)
    await flush()
    const rows = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => track(batcher.submit(i, { timeoutMs: 2.5 })))
    // At 1, 1.5 ms left: by the bound (2 ms) not even the head fits, so it would go alone
    // and the seven others after it, late. By the typical run (1 ms) all eight make it.
    clock.t = 1
    await release(0)
    expect(batches()).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8]])
    clock.t = 2
    await release(1)
    expect(rows.map((t) => t.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
  })
})

describe('a Formation of your own', () => {
  /** Batches of two, one key at a time, and a record of what it saw. */
  function pairs(): Formation & { seen: number[] } {
    const seen: number[] = []
    return {
      readsDeadlines: true,
      seen,
      next(view: FormationView): FormationStep {
        const queue = view.first()
        queue.scan((item) => {
          seen.push(item.deadline)
          return true
        })
        return { kind: 'start', queue, size: 2 }
      },
    }
  }

  it('forms the batches it chooses, reading the items’ deadlines', async () => {
    const formation = pairs()
    const { batcher, batches, release } = fixture({ formation, maxBatchSize: 8 })
    void batcher.submit(0)
    await flush()
    const all = [1, 2, 3].map((i) => track(batcher.submit(i, { timeoutMs: 10 * i })))
    await release(0)
    expect(batches()).toEqual([[0], [1, 2]])
    expect(formation.seen).toEqual([Infinity, 10, 20, 30])
    await release(1)
    await release(2)
    expect(all.map((t) => t.value)).toEqual([1, 2, 3])
    expect(batches()).toEqual([[0], [1, 2], [3]])
  })

  it('falls back to a count batch when its step cannot be acted on or it throws, so the queue is never stranded', async () => {
    const steps: Array<() => FormationStep> = [
      () => {
        throw new Error('formation bug')
      },
      () => ({ kind: 'start', queue: { key: undefined, size: 1, cost: 1, oldestEnqueuedAt: () => 0, scan: () => {} }, size: 1 }),
      () => ({ kind: 'fail', items: [], endsAt: 0, batchSize: 1 }),
      () => ({ kind: 'wait', until: NaN }),
      () => ({ kind: 'launch' }) as unknown as FormationStep,
    ]
    for (const step of steps) {
      const { batcher, batches } = fixture({ formation: { readsDeadlines: false, next: step }, maxBatchSize: 4 })
      const results = [1, 2, 3].map((i) => track(batcher.submit(i)))
      await flush()
      expect(batches()).toEqual([[1, 2, 3]])
      expect(results.every((t) => t.status === 'pending')).toBe(true)
    }
  })

  it('takes no more than maxBatchSize, and fails only its own queued items, whatever a formation asks', async () => {
    const fake = { deadline: 0, cost: 1, priority: 0, enqueuedAt: 0, state: 1 }
    let steps = 0
    const formation: Formation = {
      readsDeadlines: true,
      next(view) {
        // First a `fail` naming a look-alike of a queued item, then a batch of a billion.
        if (steps++ === 0) return { kind: 'fail', items: [fake, ...itemsOf(view.first()).slice(0, 1)], endsAt: 0, batchSize: 1 }
        return { kind: 'start', queue: view.first(), size: 1e9 }
      },
    }
    const { batcher, batches, release } = fixture({ formation, maxBatchSize: 2 })
    const first = track(batcher.submit(1, { timeoutMs: 50 }))
    const rest = [2, 3, 4].map((i) => track(batcher.submit(i)))
    await flush()
    // The queued item named failed; the look-alike was passed over.
    expect(first.reason).toBeInstanceOf(DeadlineExceededError)
    expect(batches()).toEqual([[2, 3]])
    await release(0)
    await release(1)
    expect(rest.map((t) => t.value)).toEqual([2, 3, 4])
  })

  it('counts as the count formation when it is the built-in CountFormation’s shape', () => {
    const limits = { maxBatchSize: 4, minBatchSize: 1, maxWaitMs: 0, maxBatchCost: Infinity, flush: false }
    expect(new CountFormation(limits).readsDeadlines).toBe(false)
  })
})
