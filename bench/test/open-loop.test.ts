/**
 * The open-loop generator on an injected clock: a backlog of overdue arrivals goes out
 * in slices, with the event loop's other work in between, and every arrival is sent.
 */
import { describe, expect, it } from 'vitest'
import { runOpenLoop } from '../src/open-loop.js'

/**
 * Runs 100 arrivals all due at once, in slices of 1 ms, on a clock that moves only when
 * a request is sent (each send costs `costMs`). Returns the result, how many were sent,
 * and how many had been sent when an immediate queued before the start ran.
 */
async function sendBacklog(costMs: number) {
  let t = 0
  let sent = 0
  let sentWhenTheLoopRan = -1
  // Queued before the generator starts: it runs at the first turn the generator yields.
  setImmediate(() => (sentWhenTheLoopRan = sent))
  const result = await runOpenLoop({
    times: new Float64Array(100),
    durationMs: 1,
    deadlineMs: 20,
    sliceMs: 1,
    now: () => t,
    send: () => {
      sent++
      t += costMs
      return Promise.resolve()
    },
  })
  return { result, sent, sentWhenTheLoopRan: () => sentWhenTheLoopRan }
}

describe('runOpenLoop', () => {
  it('sends a backlog of overdue arrivals in slices, letting the event loop run in between', async () => {
    const { result, sent, sentWhenTheLoopRan } = await sendBacklog(0.3)
    // 4 sends of 0.3 ms reach the 1 ms slice; the rest went after the immediate.
    expect(sentWhenTheLoopRan()).toBe(4)
    expect(result.sent).toBe(100)
    expect(sent).toBe(100)
    expect(result.failed).toEqual({})
  })

  it('sends everything due in one turn while it fits in a slice', async () => {
    const { result, sentWhenTheLoopRan } = await sendBacklog(0.001)
    // Every answer settled at once: the run ended before the event loop turned.
    await new Promise((resolve) => setImmediate(resolve))
    expect(sentWhenTheLoopRan()).toBe(100)
    expect(result.sent).toBe(100)
  })
})
