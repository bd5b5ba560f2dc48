import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IdleCollection, MAX_RELEASES, RELEASE_AFTER_MS } from '@inferpool/worker'

describe('IdleCollection', () => {
  let clock = 0
  beforeEach(() => {
    vi.useFakeTimers()
    clock = 0
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  /** Advances the injected clock and the fake timers together. */
  const pass = (ms: number): void => {
    clock += ms
    vi.advanceTimersByTime(ms)
  }
  /** The server's gates as a request of `kind` passes them. */
  const start = (idle: IdleCollection, kind: 'inference' | 'scrape' = 'inference'): void => {
    idle.busy()
    if (kind === 'inference') idle.inferenceStarted()
  }
  const setup = (afterMs = 2000, grown?: () => boolean) => {
    const collect = vi.fn()
    const onCollected = vi.fn()
    const logger = { error: vi.fn() }
    const idle = new IdleCollection({ afterMs, collect, grown, onCollected, logger, now: () => clock })
    return { idle, collect, onCollected, logger }
  }

  it('collects afterMs after the last request was answered, then once more RELEASE_AFTER_MS later, then never', () => {
    const { idle, collect, onCollected } = setup()
    start(idle)
    pass(500)
    idle.idle()
    pass(1999)
    expect(collect).toHaveBeenCalledTimes(0)
    pass(1)
    expect(collect).toHaveBeenCalledTimes(1)
    expect(onCollected).toHaveBeenCalledTimes(1)
    pass(RELEASE_AFTER_MS - 1)
    expect(collect).toHaveBeenCalledTimes(1)
    pass(1)
    expect(collect).toHaveBeenCalledTimes(2)
    expect(onCollected).toHaveBeenCalledTimes(2)
    pass(60_000)
    expect(collect).toHaveBeenCalledTimes(2)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('releases again, RELEASE_AFTER_MS apart, while grown() says memory is still held, at most MAX_RELEASES times', () => {
    const grown = vi.fn(() => true)
    const { idle, collect } = setup(100, grown)
    start(idle)
    idle.idle()
    pass(100)
    expect(collect).toHaveBeenCalledTimes(1)
    // Asked only after releasing collections, never after the first.
    expect(grown).toHaveBeenCalledTimes(0)
    for (let release = 1; release <= MAX_RELEASES; release++) {
      pass(RELEASE_AFTER_MS - 1)
      expect(collect).toHaveBeenCalledTimes(release)
      pass(1)
      expect(collect).toHaveBeenCalledTimes(1 + release)
    }
    pass(60_000)
    expect(collect).toHaveBeenCalledTimes(1 + MAX_RELEASES)
    expect(grown).toHaveBeenCalledTimes(MAX_RELEASES - 1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('stops releasing once grown() says the memory is back', () => {
    const grown = vi.fn().mockReturnValueOnce(true).mockReturnValue(false)
    const { idle, collect } = setup(100, grown)
    start(idle)
    idle.idle()
    pass(100)
    pass(RELEASE_AFTER_MS)
    pass(RELEASE_AFTER_MS)
    expect(collect).toHaveBeenCalledTimes(3)
    pass(60_000)
    expect(collect).toHaveBeenCalledTimes(3)
    expect(grown).toHaveBeenCalledTimes(2)
  })

  it('puts the releasing collection off while a scrape is in progress, to afterMs after it', () => {
    const { idle, collect } = setup(100)
    start(idle)
    idle.idle()
    pass(100)
    expect(collect).toHaveBeenCalledTimes(1)
    pass(RELEASE_AFTER_MS - 50)
    start(idle, 'scrape')
    pass(1000)
    expect(collect).toHaveBeenCalledTimes(1)
    idle.idle()
    pass(99)
    expect(collect).toHaveBeenCalledTimes(1)
    pass(1)
    expect(collect).toHaveBeenCalledTimes(2)
  })

  it('starts over after an inference request between the two collections', () => {
    const { idle, collect } = setup(100)
    start(idle)
    idle.idle()
    pass(100)
    expect(collect).toHaveBeenCalledTimes(1)
    pass(1000)
    start(idle)
    idle.idle()
    // The first collection again, afterMs after this request, and its release after that.
    pass(100)
    expect(collect).toHaveBeenCalledTimes(2)
    pass(RELEASE_AFTER_MS - 1)
    expect(collect).toHaveBeenCalledTimes(2)
    pass(1)
    expect(collect).toHaveBeenCalledTimes(3)
    pass(60_000)
    expect(collect).toHaveBeenCalledTimes(3)
  })

  it('never collects while a request is in progress', () => {
    const { idle, collect } = setup()
    start(idle)
    idle.idle()
    pass(1000)
    start(idle)
    pass(10_000)
    expect(collect).toHaveBeenCalledTimes(0)
    idle.idle()
    pass(1999)
    expect(collect).toHaveBeenCalledTimes(0)
    pass(1)
    expect(collect).toHaveBeenCalledTimes(1)
  })

  it('counts the quiet time from the last answer, not the first', () => {
    const { idle, collect } = setup()
    start(idle)
    idle.idle()
    pass(1500)
    // A short request: the pending timer stays and is re-armed for the rest of the quiet time.
    start(idle)
    pass(100)
    idle.idle()
    pass(400)
    expect(collect).toHaveBeenCalledTimes(0)
    pass(1599)
    expect(collect).toHaveBeenCalledTimes(0)
    pass(1)
    expect(collect).toHaveBeenCalledTimes(1)
  })

  it('collects again only after more requests were served', () => {
    const { idle, collect } = setup(100)
    start(idle)
    idle.idle()
    pass(100)
    expect(collect).toHaveBeenCalledTimes(1)
    start(idle)
    idle.idle()
    pass(100)
    expect(collect).toHaveBeenCalledTimes(2)
  })

  it('does not collect without an inference request since it started', () => {
    const { idle, collect } = setup(100)
    idle.idle()
    pass(1000)
    // Health probes and metric scrapes alone.
    start(idle, 'scrape')
    idle.idle()
    pass(1000)
    expect(collect).toHaveBeenCalledTimes(0)
  })

  it('lets a scrape during the quiet time delay the collection, not cancel it', () => {
    const { idle, collect } = setup(100)
    start(idle)
    idle.idle()
    pass(50)
    start(idle, 'scrape')
    pass(100)
    expect(collect).toHaveBeenCalledTimes(0)
    idle.idle()
    pass(100)
    expect(collect).toHaveBeenCalledTimes(1)
  })

  it('does not collect once closed, and leaves no timer behind', () => {
    const { idle, collect } = setup()
    start(idle)
    idle.idle()
    idle.close()
    expect(vi.getTimerCount()).toBe(0)
    pass(10_000)
    start(idle)
    idle.idle()
    pass(10_000)
    expect(collect).toHaveBeenCalledTimes(0)
  })

  it('logs a collection that throws and goes on', () => {
    const { idle, collect, onCollected, logger } = setup(100)
    const failure = new Error('no gc here')
    collect.mockImplementationOnce(() => {
      throw failure
    })
    start(idle)
    idle.idle()
    pass(100)
    expect(logger.error).toHaveBeenCalledWith('inferpool: the idle garbage collection failed', failure)
    expect(onCollected).toHaveBeenCalledTimes(0)
    start(idle)
    idle.idle()
    pass(100)
    expect(collect).toHaveBeenCalledTimes(2)
    expect(onCollected).toHaveBeenCalledTimes(1)
  })
})
