/**
 * The CLI's `gc` for the idle collection (src/cli/expose-gc.ts), in this very process:
 * it collects for real, and it leaves no `gc` global behind in contexts made afterwards.
 */
import { setImmediate as turn } from 'node:timers/promises'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { exposeGc } from '../src/cli/expose-gc.js'

describe('exposeGc', () => {
  it('returns a function that runs a full collection', async () => {
    const gc = exposeGc()
    expect(typeof gc).toBe('function')
    // Made in a function of its own, so nothing on this frame holds the object.
    const weak = ((): WeakRef<object> => new WeakRef({ payload: new Array(1000).fill(1) }))()
    // A WeakRef's target lives at least until the end of the job that made it.
    await turn()
    gc?.()
    expect(weak.deref()).toBe(undefined)
  })

  it('turns the flag off again: later contexts get no gc global', () => {
    exposeGc()
    expect(runInNewContext('typeof gc')).toBe('undefined')
  })
})
