/**
 * The lifecycle state machine (src/lifecycle.ts) on its own: which step runs when, for
 * each order of close / close({ drain: false }) / destroy. The steps here record their
 * calls and settle when the test says; the pool, remote, handler and server tests show
 * the same orders on the real owners.
 */
import { describe, expect, it } from 'vitest'
import { Lifecycle } from '../src/lifecycle.js'

function scripted() {
  const calls: string[] = []
  const pending = new Map<string, () => void>()
  const step = (name: string) => (): Promise<void> => {
    calls.push(name)
    return new Promise<void>((resolve) => pending.set(name, resolve))
  }
  const lifecycle = new Lifecycle({
    drain: step('drain'),
    abandon: step('abandon'),
    release: step('release'),
    destroy: (error) => {
      calls.push(`destroy:${error?.message ?? 'none'}`)
      return new Promise<void>((resolve) => pending.set('destroy', resolve))
    },
  })
  const settle = async (name: string): Promise<void> => {
    pending.get(name)?.()
    // Lets the chained steps start.
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  return { lifecycle, calls, settle }
}

describe('Lifecycle', () => {
  it('close(): drain, then release; a second close() gets the same promise', async () => {
    const { lifecycle, calls, settle } = scripted()
    const first = lifecycle.close()
    expect(lifecycle.close()).toBe(first)
    expect({ closed: lifecycle.closed, destroyed: lifecycle.destroyed }).toEqual({ closed: true, destroyed: false })
    await settle('drain')
    expect(calls).toEqual(['drain', 'release'])
    await settle('release')
    await expect(first).resolves.toBeUndefined()
  })

  it('close({ drain: false }) during a draining close runs abandon at once; release runs once', async () => {
    const { lifecycle, calls, settle } = scripted()
    const draining = lifecycle.close()
    const hard = lifecycle.close({ drain: false })
    expect(hard).not.toBe(draining)
    expect(calls).toEqual(['drain', 'abandon'])
    await settle('abandon')
    await settle('drain')
    expect(calls).toEqual(['drain', 'abandon', 'release'])
    await settle('release')
    await Promise.all([draining, hard])
    // A milder request after a harder one changes nothing.
    expect(lifecycle.close()).toBe(hard)
  })

  it('destroy(err) after close() runs at once with err; release is skipped once destroyed', async () => {
    const { lifecycle, calls, settle } = scripted()
    const draining = lifecycle.close()
    const destroyed = lifecycle.destroy(new Error('now'))
    expect(calls).toEqual(['drain', 'destroy:now'])
    expect(lifecycle.destroyed).toBe(true)
    await settle('destroy')
    await settle('drain')
    await Promise.all([draining, destroyed])
    expect(calls).toEqual(['drain', 'destroy:now'])
    expect(lifecycle.close({ drain: false })).toBe(destroyed)
    expect(lifecycle.destroy()).toBe(destroyed)
  })

  it('rejects a non-boolean drain without changing state', async () => {
    const { lifecycle, calls } = scripted()
    await expect(lifecycle.close({ drain: 0 as unknown as boolean })).rejects.toThrow(
      new TypeError('Expected `drain` to be a boolean, got `0` (number)'),
    )
    expect({ closed: lifecycle.closed, calls }).toEqual({ closed: false, calls: [] })
  })
})
