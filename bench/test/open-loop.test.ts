/**
 * The open-loop generator on an injected clock: a backlog of overdue arrivals goes out
 * in slices, with the event loop's other work in between, and every arrival is sent.
 */
import { describe, expect, it } from 'vitest'
import { runOpenLoop } from '../src/open-loop.js'

/** A clock that moves only when a request is sent: each send costs `costMs`. */
function sendingClock(costMs: number) {
  let t = 0
  return {
    now: () => t,
    send: () => {
      t += costMs
      return Promise.resolve()
    },
  }
}

describe('runOpenLoop', () => {
  it('sends a backlog of overdue arrivals in slices, letting the event loop run in between', async () => {
    const clock = sendingClock(0.3)
    let sent = 0
    let sentWhenTheLoopRan = -1
    // Queued before the generator starts: it runs at the first turn the generator yields.
    setImmediate(() => (sentWhenTheLoopRan = sent))
    const result = await runOpenLoop({
      times: new Float64Array(100), // all 100 due at once
      durationMs: 1,
      deadlineMs: 20,
      sliceMs: 1,
      now: clock.now,
      send: () => {
        sent++
        return clock.send()
      },
    })
    // 4 sends of 0.3 ms reach the 1 ms slice; the rest went after the immediate.
    expect(sentWhenTheLoopRan).toBe(4)
    expect(result.sent).toBe(100)
    expect(sent).toBe(100)
    expect(result.failed).toEqual({})
  })

  it('sends everything due in one turn while it fits in a slice', async () => {
    const clock = sendingClock(0.001)
    let sent = 0
    let sentWhenTheLoopRan = -1
    setImmediate(() => (sentWhenTheLoopRan = sent))
    const result = await runOpenLoop({
      times: new Float64Array(100),
      durationMs: 1,
      deadlineMs: 20,
      sliceMs: 1,
      now: clock.now,
      send: () => {
        sent++
        return clock.send()
      },
    })
    // Every answer settled at once: the run ended before the event loop turned.
    await new Promise((resolve) => setImmediate(resolve))
    expect(sentWhenTheLoopRan).toBe(100)
    expect(result.sent).toBe(100)
  })
})
