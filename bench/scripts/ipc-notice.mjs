#!/usr/bin/env node
/**
 * Process mode's notices alone: a host and a child process pass a run notice and its
 * result notice (the shape of @inferpool/worker's `run` and `result` messages: a few
 * numbers) back and forth over Node's IPC channel, one at a time, with the channel's
 * `json` serialization (what process mode uses) and with `advanced` (V8's serializer),
 * interleaved in rounds; and as a binary notice: 16 bytes each way over a pipe of its own
 * (an extra stdio pipe, fd 3 in the child). Round-trip p50 each.
 *   node bench/scripts/ipc-notice.mjs [rounds=7] [tripsPerRound=3000]
 */
import { fork } from 'node:child_process'
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

if (process.argv[2] === 'child') {
  process.on('message', (m) => process.send({ t: 'result', id: m.id, lane: m.lane, layout: m.layout, rss: 123456789 }))
} else if (process.argv[2] === 'binary-child') {
  const { Socket } = await import('node:net')
  const pipe = new Socket({ fd: 3, readable: true, writable: true })
  const answer = Buffer.alloc(16)
  pipe.on('data', (chunk) => {
    // One 16-byte notice per trip (the host waits for each answer): the id back, a layout length, an rss.
    answer.writeUInt32LE(chunk.readUInt32LE(0), 0)
    answer.writeUInt32LE(312, 4)
    answer.writeDoubleLE(123456789, 8)
    pipe.write(answer)
  })
} else {
  const ROUNDS = Number(process.argv[2] ?? 7)
  const TRIPS = Number(process.argv[3] ?? 3000)
  const modes = ['json', 'advanced', 'binary']
  const children = Object.fromEntries(
    modes.map((s) => [
      s,
      s === 'binary'
        ? fork(fileURLToPath(import.meta.url), ['binary-child'], { stdio: ['ignore', 'inherit', 'inherit', 'pipe', 'ipc'] })
        : fork(fileURLToPath(import.meta.url), ['child'], { serialization: s }),
    ]),
  )
  const notice = Buffer.alloc(16)
  const trip = (child, id) =>
    new Promise((resolve) => {
      if (child.stdio[3]) {
        child.stdio[3].once('data', resolve)
        notice.writeUInt32LE(id, 0)
        notice.writeUInt32LE(312, 4)
        notice.writeUInt32LE(1024, 8)
        notice.writeUInt32LE(256, 12)
        child.stdio[3].write(notice)
        return
      }
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
