#!/usr/bin/env node
/**
 * The hand-off to a sleeping worker thread, alone: one caller sends a task to a piscina
 * worker that hands it straight back, awaits it, and sends the next (the pool at light
 * load, without the model). Round-trip p50 and p99 for each of piscina's `atomics`
 * settings, one pool each, interleaved in rounds:
 * - `sync`: between tasks the worker blocks in `Atomics.wait` and reads the next task
 *   off its port without an event (what piscina defaults to);
 * - `async`: it waits with `Atomics.waitAsync`, its event loop running (inferpool's
 *   setting: a replica's timers and its dispose message need the loop);
 * - `disabled`: plain `MessagePort` events.
 *   node bench/scripts/handoff.mjs [rounds=7] [tripsPerRound=3000]
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { createRequire } from 'node:module'

// piscina as @inferpool/host has it (the bench does not depend on it itself).
const hostRequire = createRequire(new URL('../../packages/host/package.json', import.meta.url))
const { Piscina } = hostRequire('piscina')

const ROUNDS = Number(process.argv[2] ?? 7)
const TRIPS = Number(process.argv[3] ?? 3000)
const filename = new URL('./handoff-worker.mjs', import.meta.url).href

const settings = ['sync', 'async', 'disabled']
const pools = Object.fromEntries(
  settings.map((atomics) => [
    atomics,
    new Piscina({ filename, minThreads: 1, maxThreads: 1, idleTimeout: Infinity, atomics, recordTiming: false }),
  ]),
)

/** Round-trip times (µs) of `TRIPS` tasks in a row, one in flight at a time. */
async function trips(pool) {
  const times = new Float64Array(TRIPS)
  const task = new Float32Array(64)
  for (let i = 0; i < TRIPS; i++) {
    const start = performance.now()
    await pool.run(task)
    times[i] = (performance.now() - start) * 1000
  }
  return times.sort()
}

const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

console.log(`load average before: ${load()}`)
for (const pool of Object.values(pools)) await trips(pool) // warm-up
const p50 = Object.fromEntries(settings.map((s) => [s, []]))
const p99 = Object.fromEntries(settings.map((s) => [s, []]))
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? settings : [...settings].reverse()
  for (const s of order) {
    const sorted = await trips(pools[s])
    p50[s].push(at(sorted, 0.5))
    p99[s].push(at(sorted, 0.99))
  }
}
for (const s of settings) {
  console.log(
    `atomics ${s.padEnd(8)}  p50 ${median(p50[s]).toFixed(1).padStart(6)} µs  p99 ${median(p99[s]).toFixed(1).padStart(7)} µs  (median of ${ROUNDS} rounds of ${TRIPS})`,
  )
}
console.log(`load average after: ${load()}`)
await Promise.all(Object.values(pools).map((p) => p.destroy()))
