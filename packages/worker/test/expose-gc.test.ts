/**
 * The `gc` of the idle collections (src/expose-gc.ts), in this very process:
 * it collects for real, and it leaves no `gc` global behind in contexts made afterwards.
 * And the V8 behaviour the idle collection's second collection exists for, in a fresh
 * process.
 */
import { execFile } from 'node:child_process'
import { setImmediate as turn } from 'node:timers/promises'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { exposeGc, RELEASE_AFTER_MS } from '@inferpool/worker'

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

/**
 * Grows the young generation with a sliding window of live objects, then runs a full
 * collection at once and another `RELEASE_AFTER_MS` later, printing the young
 * generation's size in MiB before, after the first and after the second.
 */
const youngGenerationScript = `
const v8 = require('node:v8')
const young = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20
let live = []
for (let round = 0; round < 3000; round++) {
  const objects = []
  for (let i = 0; i < 1000; i++) objects.push({ i, text: 'x' + i, pair: [i, i + 1] })
  live.push(objects)
  if (live.length > 200) live.shift()
}
live = undefined
const sizes = [young()]
gc()
sizes.push(young())
setTimeout(() => {
  gc()
  sizes.push(young())
  console.log(JSON.stringify(sizes))
}, Number(process.argv[1]))
`

describe("V8's young generation after a burst (why IdleCollection collects twice)", () => {
  it(
    'stays grown through a collection right after the burst, and is given back by one RELEASE_AFTER_MS later',
    async () => {
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--expose-gc', '-e', youngGenerationScript, String(RELEASE_AFTER_MS)], (error, out) =>
          error ? reject(error) : resolve(out),
        ),
      )
      const [burst, first, second] = JSON.parse(stdout) as [number, number, number]
      // V8 11.3: the young generation starts at 1 MiB and grows to 32 under this load.
      expect(burst).toBeGreaterThanOrEqual(16)
      expect(first).toBe(burst)
      expect(second).toBeLessThanOrEqual(2)
    },
    RELEASE_AFTER_MS + 20_000,
  )
})
