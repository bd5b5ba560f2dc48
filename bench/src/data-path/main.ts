#!/usr/bin/env node
/**
 * The data path of process mode, measured: round trips of one 128 KiB Float32Array
 * batch between this process and an echo child, over
 * - `file`: the /dev/shm transfer files process mode uses (@inferpool/worker's
 *   writeTransferFile/readTransferFile: v8 head + 8-byte-aligned buffers) plus a small IPC notice;
 * - `uds`: a Unix socket with 8-byte-aligned length-prefixed frames.
 * p50/p99 over `ROUNDS` sequential round trips after a warm-up. Which one is faster
 * decides process mode's data path (bench/HISTORY.md, "Process mode").
 *   node bench/dist/data-path/main.js [bytes=131072] [rounds=3000]
 */
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { closeSync, openSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { Socket } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { readTransferFile, TRANSFER_FILE_DIR, writeTransferFile } from '@inferpool/worker'
import type { TransferLayout } from '@inferpool/worker'
import { FrameReader, frame } from './frames.js'

const BYTES = Number(process.argv[2] ?? 128 * 1024)
const ROUNDS = Number(process.argv[3] ?? 3000)
const WARMUP = 300
const child = fileURLToPath(new URL('./echo-child.js', import.meta.url))

function percentiles(samples: number[]): { p50: number; p99: number } {
  const s = [...samples].sort((x, y) => x - y)
  const at = (q: number) => (s[Math.min(s.length - 1, Math.floor(q * s.length))] as number) * 1000
  return { p50: at(0.5), p99: at(0.99) }
}

async function measure(roundTrip: () => Promise<void>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = []
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const t0 = performance.now()
    await roundTrip()
    if (i >= WARMUP) samples.push(performance.now() - t0)
  }
  return percentiles(samples)
}

function batch(): ArrayBuffer {
  const buffer = new ArrayBuffer(BYTES)
  new Float32Array(buffer).fill(0.5)
  return buffer
}

async function transferFile(): Promise<{ p50: number; p99: number }> {
  const paths = ['in', 'out'].map((d) => join(TRANSFER_FILE_DIR, `inferpool-bench-${process.pid}-${d}`))
  const [inFd, outFd] = paths.map((p) => openSync(p, 'w+')) as [number, number]
  const echo: ChildProcess = fork(child, ['file', ...paths], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  let answer: ((layout: TransferLayout) => void) | undefined
  echo.on('message', (layout: TransferLayout) => answer?.(layout))
  try {
    return await measure(async () => {
      const buffer = batch()
      const layout = writeTransferFile(inFd, { buffer }, [buffer])
      const back = await new Promise<TransferLayout>((resolve) => {
        answer = resolve
        echo.send(layout)
      })
      const value = readTransferFile(outFd, back) as { buffer: ArrayBuffer }
      if (new Float32Array(value.buffer)[0] !== 0.5) throw new Error('transfer file echo corrupted the batch')
    })
  } finally {
    echo.kill()
    closeSync(inFd)
    closeSync(outFd)
    for (const p of paths) rmSync(p, { force: true })
  }
}

async function uds(): Promise<{ p50: number; p99: number }> {
  const path = join(tmpdir(), `inferpool-bench-${process.pid}.sock`)
  rmSync(path, { force: true })
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(path, resolve))
  const echo = fork(child, ['uds', path], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const socket = await new Promise<Socket>((resolve) => server.once('connection', resolve))
  socket.setNoDelay(true)
  let answer: ((payload: Uint8Array) => void) | undefined
  const reader = new FrameReader((payload) => answer?.(payload))
  socket.on('data', (chunk: Buffer) => reader.push(chunk))
  try {
    return await measure(async () => {
      const payload = new Uint8Array(batch())
      const back = await new Promise<Uint8Array>((resolve) => {
        answer = resolve
        socket.write(frame(payload))
      })
      if (new Float32Array(back.buffer, back.byteOffset, back.byteLength / 4)[0] !== 0.5) throw new Error('uds echo corrupted the batch')
    })
  } finally {
    socket.destroy()
    echo.kill()
    server.close()
    rmSync(path, { force: true })
  }
}

const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')
// Interleaved, twice each, so both paths see the same machine load.
const results: Record<string, Array<{ p50: number; p99: number }>> = { file: [], uds: [] }
for (let round = 0; round < 2; round++) {
  results.file?.push(await transferFile())
  results.uds?.push(await uds())
}
console.log(`data path, ${BYTES} bytes, ${ROUNDS} round trips each (load average before: ${load})`)
for (const [name, runs] of Object.entries(results)) {
  console.log(`  ${name.padEnd(5)} ${runs.map((r) => `p50 ${r.p50.toFixed(0)} µs / p99 ${r.p99.toFixed(0)} µs`).join('  |  ')}`)
}
