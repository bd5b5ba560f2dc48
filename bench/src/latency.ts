/**
 * Latency samples of one measurement window.
 *
 * Every sample is kept (8 bytes each; a 2 s window at 500k rows/s is 8 MB) and sorted
 * once at the end, so the percentiles are exact rather than bucketed: at 1 caller the
 * difference we care about (pool vs direct p50) is a fraction of a millisecond.
 */
export interface LatencySummary {
  /** Samples in the window. */
  count: number
  mean: number
  p50: number
  p95: number
  p99: number
  max: number
}

export class LatencyRecorder {
  #samples = new Float64Array(4096)
  #count = 0

  record(ms: number): void {
    if (this.#count === this.#samples.length) {
      const grown = new Float64Array(this.#samples.length * 2)
      grown.set(this.#samples)
      this.#samples = grown
    }
    this.#samples[this.#count++] = ms
  }

  get count(): number {
    return this.#count
  }

  summary(): LatencySummary {
    return summarize(this.#samples.subarray(0, this.#count))
  }
}

/** Nearest-rank percentiles of `samples` (sorted in place). All zero when empty. */
export function summarize(samples: Float64Array): LatencySummary {
  const n = samples.length
  if (n === 0) return { count: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 }
  samples.sort()
  let sum = 0
  for (let i = 0; i < n; i++) sum += samples[i]
  const rank = (q: number): number => samples[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]
  return { count: n, mean: sum / n, p50: rank(0.5), p95: rank(0.95), p99: rank(0.99), max: samples[n - 1] }
}
