/**
 * Deterministic pseudo-random numbers. Every weight of every generated model comes from
 * here, so the same seed always yields byte-identical model files (the `--check` mode of
 * the CLI relies on it). `Math.random` is never used.
 */

/**
 * mulberry32: a 32-bit state PRNG, small and fast, good enough for weights.
 * Returns a function yielding floats uniformly distributed in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * `count` float32 values uniformly distributed in [-scale, scale), drawn from `rng`.
 * Rounding to float32 happens here, once, so the JS references and the serialized
 * model see exactly the same numbers.
 */
export function uniformFloat32(rng: () => number, count: number, scale: number): Float32Array {
  const out = new Float32Array(count)
  for (let i = 0; i < count; i++) out[i] = (rng() * 2 - 1) * scale
  return out
}
