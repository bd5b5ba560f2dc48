/**
 * The data path of process mode: a payload is written into a transfer file at fixed
 * offsets and read back by the other process, which is told where by a small IPC
 * message (a {@link TransferLayout}). Used by the host and by process-child.ts, so the
 * layout is defined once, here.
 *
 * Why files in /dev/shm: Node has no mmap and a SharedArrayBuffer cannot cross
 * processes; a tmpfs file written and read with `fs` at fixed offsets was the fastest
 * way to move a 128 KiB batch between processes we measured (docs/runtime-facts.md,
 * "Moving data between threads and processes"; bench/src/data-path.ts).
 *
 * Layout: the value, serialized with v8's structured clone, at byte 0; then each
 * out-of-band ArrayBuffer (the tensors, which the thread path would transfer) at the
 * next multiple of 8. The reader allocates one fresh ArrayBuffer per buffer and reads
 * straight into it, so every tensor starts at byte 0 of its own buffer: a typed array
 * is never built on an unaligned offset, and there is one copy each way.
 *
 * A transfer file never shrinks: writing past its end grows the file, and later batches reuse
 * the pages. Files are named by the host's and the child's pid, so a stale one (both
 * processes killed at once) says whose it was.
 */
import { existsSync, readvSync, writevSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DefaultDeserializer, DefaultSerializer } from 'node:v8'
import type { TransferLayout } from './protocol.js'

/** Where transfer files live: tmpfs when the system has it, else the temp directory. */
export const TRANSFER_FILE_DIR = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()

/** The transfer file of one lane of one replica: `in` is written by the host, `out` by the child. */
export function transferFilePath(hostPid: number, childPid: number, direction: 'in' | 'out', lane: number): string {
  return join(TRANSFER_FILE_DIR, `inferpool-${hostPid}-${childPid}-${direction}${lane}`)
}

const align8 = (n: number): number => (n + 7) & ~7
/** Zeros for the gaps that align each buffer (never more than 7 bytes). */
const PAD = new Uint8Array(8)
/** The gap after `n` bytes up to the next multiple of 8, as a view to read into or write from. */
const gap = (n: number): Uint8Array => PAD.subarray(0, align8(n) - n)
/** Where a reader puts the gaps' bytes (never looked at). */
const SCRATCH = new Uint8Array(8)

/** What is left of `parts` after the first `done` bytes (a short writev/readv continues from there). */
function rest(parts: Uint8Array[], done: number): Uint8Array[] {
  const left: Uint8Array[] = []
  for (const part of parts) {
    if (done >= part.byteLength) done -= part.byteLength
    else {
      left.push(done === 0 ? part : part.subarray(done))
      done = 0
    }
  }
  return left
}

const total = (parts: Uint8Array[]): number => parts.reduce((sum, p) => sum + p.byteLength, 0)

// One writev/readv per payload (head, gaps and buffers in one system call): each call
// is a system call on the hand-over path of every batch.
function writeAll(fd: number, parts: Uint8Array[]): void {
  let position = 0
  for (let left = parts; left.length > 0;) {
    const n = writevSync(fd, left, position)
    position += n
    left = rest(left, n)
  }
}

function readAll(fd: number, parts: Uint8Array[]): void {
  let position = 0
  for (let left = parts; left.length > 0;) {
    const n = readvSync(fd, left, position)
    if (n === 0) throw new Error(`Transfer file ended at byte ${position}, ${total(left)} bytes short`)
    position += n
    left = rest(left, n)
  }
}

/**
 * Writes `value` into the transfer file `fd`, with the ArrayBuffers in `transfer` out of
 * band. Throws what v8's serializer throws for a value that cannot be cloned (a
 * function, a symbol): nothing is written then that the reader would be told about.
 */
export function writeTransferFile(fd: number, value: unknown, transfer: readonly ArrayBuffer[]): TransferLayout {
  const buffers = transfer.length < 2 ? transfer : [...new Set(transfer)]
  const serializer = new DefaultSerializer()
  for (let i = 0; i < buffers.length; i++) serializer.transferArrayBuffer(i, buffers[i] as ArrayBuffer)
  serializer.writeHeader()
  serializer.writeValue(value)
  const head = serializer.releaseBuffer()
  const parts: Uint8Array[] = [head]
  const lengths: number[] = []
  for (const buffer of buffers) {
    parts.push(gap(total(parts)), new Uint8Array(buffer))
    lengths.push(buffer.byteLength)
  }
  writeAll(fd, parts)
  return { head: head.byteLength, buffers: lengths }
}

/** Reads back what {@link writeTransferFile} wrote: each out-of-band buffer as its own ArrayBuffer. */
export function readTransferFile(fd: number, layout: TransferLayout): unknown {
  // Its own memory (not the shared Buffer pool): typed arrays inside the value may stay views into it.
  const head = Buffer.allocUnsafeSlow(layout.head)
  const parts: Uint8Array[] = [head]
  const deserializer = new DefaultDeserializer(head)
  let offset = layout.head
  for (let i = 0; i < layout.buffers.length; i++) {
    const length = layout.buffers[i] as number
    const buffer = new ArrayBuffer(length)
    parts.push(SCRATCH.subarray(0, align8(offset) - offset), new Uint8Array(buffer))
    deserializer.transferArrayBuffer(i, buffer)
    offset = align8(offset) + length
  }
  readAll(fd, parts)
  deserializer.readHeader()
  return deserializer.readValue()
}
