#!/usr/bin/env node
/**
 * Process mode's notices alone: a host and a child process pass a run notice and its
 * result notice (the shape of @inferpool/worker's `run` and `result` messages: a few
 * numbers) back and forth over Node's IPC channel, one at a time, with the channel's
 * `json` serialization (what process mode uses) and with `advanced` (V8's serializer),
 * interleaved in rounds. Round-trip p50 each: the cost a binary notice would have to beat.
 *   node bench/scripts/ipc-notice.mjs [rounds=7] [tripsPerRound=3000]
 */
import { fork } from 'node:child_process'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

if (process.argv[2] === 'child') {
  process.on('message', (m) => process.send({ t: 'result', id: m.id, lane: m.lane, layout: m.layout, rss: 123456789 }))
} else {
  const ROUNDS = Number(process.argv[2] ?? 7)
  const TRIPS = Number(process.argv[3] ?? 3000)
  const modes = ['json', 'advanced']
  const children = Object.fromEntries(modes.map((s) => [s, fork(fileURLToPath(import.meta.url), ['child'], { serialization: s })]))
  const trip = (child, id) =>
    new Promise((resolve) => {
      child.once('message', resolve)
      child.send({ t: 'run', id, lane: 0, layout: { head: 312, buffers: [1024, 256] } })
    })
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')
  console.log(`load average before: ${load()}`)
  const p50 = Object.fromEntries(modes.map((s) => [s, []]))
  // Round 0 warms both up and is not counted.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) {
      const times = new Float64Array(TRIPS)
      for (let i = 0; i < TRIPS; i++) {
        const start = performance.now()
        await trip(children[mode], i)
        times[i] = (performance.now() - start) * 1000
      }
      if (round > 0) p50[mode].push(times.sort()[TRIPS >> 1])
    }
  }
  for (const mode of modes)
    console.log(`${mode.padEnd(8)}  p50 ${median(p50[mode]).toFixed(1)} µs  (median of ${ROUNDS} rounds of ${TRIPS})`)
  console.log(`load average after: ${load()}`)
  for (const child of Object.values(children)) child.kill()
}
