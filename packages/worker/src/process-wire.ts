/**
 * The data path of process mode: a payload is written into a transfer file at fixed
 * offsets and read back by the other process, which is told where by a small notice
 * (a {@link TransferLayout}). Used by the host and by process-child.ts, so the layout is
 * defined once, here.
 *
 * Why files in /dev/shm: Node has no mmap and a SharedArrayBuffer cannot cross
 * processes; a tmpfs file written and read with `fs` at fixed offsets was the fastest
 * way to move a 128 KiB batch between processes we measured (docs/runtime-facts.md,
 * "Moving data between threads and processes"; bench/src/data-path/).
 *
 * Layout: a head at byte 0; then each out-of-band buffer (the tensors, which the thread
 * path would transfer) at the next multiple of 8. The reader reads every buffer straight
 * into an ArrayBuffer of its own, so every tensor starts at byte 0 of its buffer: a typed
 * array is never built on an unaligned offset.
 *
 * Two kinds of head, told apart by their first byte:
 * - a **tensor message** (`{`): the task or the result of a batch of the built-in ONNX
 *   worker (every batch of a tensor pool), its facts and each tensor's name, type and dims
 *   as JSON. v8's serializer took 6-7 µs per message for these few fields, more than the
 *   rest of a one-row batch's hand-over on either side; JSON takes about 1. A task's rows
 *   are written straight from the callers' arrays into the file ({@link TensorPieces}, one
 *   `writev`), with no batch buffer on the host.
 * - anything else (0xFF, v8's version tag): the value serialized with v8's structured clone,
 *   the buffers listed in `transfer` out of band — the boot data, a user worker's items and
 *   results, a failed result.
 *
 * A transfer file never shrinks: writing past its end grows the file, and later batches
 * reuse the pages. Files are named by the host's and the child's pid, so a stale one (both
 * processes killed at once) says whose it was.
 */
import { existsSync, readvSync, writevSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DefaultDeserializer, DefaultSerializer } from 'node:v8'
import type {
  RunSuccess,
  RunTask,
  RunTiming,
  TaskResult,
  TensorBatch,
  TensorBatchOutput,
  TransferLayout,
  WireTensor,
  WireTensorType,
} from './protocol.js'

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
function rest(parts: readonly ArrayBufferView[], done: number): ArrayBufferView[] {
  const left: ArrayBufferView[] = []
  for (const part of parts) {
    if (done >= part.byteLength) done -= part.byteLength
    else {
      left.push(done === 0 ? part : new Uint8Array(part.buffer, part.byteOffset + done, part.byteLength - done))
      done = 0
    }
  }
  return left
}

const total = (parts: readonly ArrayBufferView[]): number => parts.reduce((sum, p) => sum + p.byteLength, 0)

// One writev/readv per payload (head, gaps and buffers in one system call): each call
// is a system call on the hand-over path of every batch.
function writeAll(fd: number, parts: readonly ArrayBufferView[]): void {
  let position = 0
  for (let left = parts; left.length > 0;) {
    const n = writevSync(fd, left as NodeJS.ArrayBufferView[], position)
    position += n
    left = rest(left, n)
  }
}

function readAll(fd: number, parts: readonly ArrayBufferView[]): void {
  let position = 0
  for (let left = parts; left.length > 0;) {
    const n = readvSync(fd, left as NodeJS.ArrayBufferView[], position)
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

/**
 * One tensor of a tensor message as its writer holds it: its bytes as pieces written one
 * after the other — a batch's rows as the callers' own arrays (process mode writes them
 * straight into the transfer file), or one buffer.
 */
export interface TensorPieces {
  readonly name: string
  readonly type: WireTensorType
  /** Full dims, batch dimension first. */
  readonly dims: readonly number[]
  /** The tensor's bytes in order; together exactly `byteLength`. */
  readonly pieces: readonly ArrayBufferView[]
  readonly byteLength: number
}

/** A tensor message's facts: the task's or the result's. */
type TensorFacts =
  /** `d`, `r`: the task's `deadlines` (JSON has no Infinity: a row without one is `null`) and `runMs`. */
  | { k: 'task'; batchId: number; rows: number; d?: Array<number | null>; r?: number }
  /** `x`: the result's `dropped`. */
  | { k: 'result'; threadId: number; busyMs: number; timing?: RunTiming; x?: number[] }

/** A tensor message's head: its facts, and `[name, type, dims]` per tensor. */
type TensorHead = TensorFacts & { t: Array<[string, WireTensorType, readonly number[]]> }

/** The first byte of a tensor message's head (`{`); v8's serializer starts with 0xFF. */
const TENSOR_HEAD = 0x7b

function writeTensorMessage(fd: number, facts: TensorFacts, tensors: readonly TensorPieces[]): TransferLayout {
  const t = tensors.map((tensor): [string, WireTensorType, readonly number[]] => [tensor.name, tensor.type, tensor.dims])
  const head: TensorHead = { ...facts, t }
  const bytes = Buffer.from(JSON.stringify(head))
  const parts: ArrayBufferView[] = [bytes]
  const lengths = new Array<number>(tensors.length)
  let offset = bytes.byteLength
  for (let i = 0; i < tensors.length; i++) {
    const tensor = tensors[i] as TensorPieces
    if (offset !== align8(offset)) parts.push(gap(offset))
    for (const piece of tensor.pieces) if (piece.byteLength > 0) parts.push(piece)
    offset = align8(offset) + tensor.byteLength
    lengths[i] = tensor.byteLength
  }
  writeAll(fd, parts)
  return { head: bytes.byteLength, buffers: lengths }
}

/**
 * Writes a batch of the ONNX tensor worker as a tensor message: each input's pieces
 * straight into the file (one `writev` for the whole batch). The reader gets a
 * {@link RunTask} whose payload is a {@link TensorBatch}.
 */
export function writeTensorTask(
  fd: number,
  batchId: number,
  rows: number,
  inputs: readonly TensorPieces[],
  deadlines?: { deadlines: readonly number[]; runMs: number },
): TransferLayout {
  const facts: TensorFacts = { k: 'task', batchId, rows }
  if (deadlines !== undefined) {
    facts.d = deadlines.deadlines.map((d) => (d === Infinity ? null : d))
    facts.r = deadlines.runMs
  }
  return writeTensorMessage(fd, facts, inputs)
}

/** A plain ArrayBuffer (not shared, not a subclass). */
const isArrayBuffer = (value: unknown): value is ArrayBuffer => value instanceof ArrayBuffer && value.constructor === ArrayBuffer

/** `value` is exactly a {@link TensorBatchOutput}: `outputs` of wire tensors, and `timing` if any. */
function isTensorOutput(value: unknown): value is TensorBatchOutput {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false
  for (const key in value) if (key !== 'outputs' && key !== 'timing') return false
  const { outputs, timing } = value as Partial<TensorBatchOutput>
  if (typeof outputs !== 'object' || outputs === null || Object.getPrototypeOf(outputs) !== Object.prototype) return false
  if (timing !== undefined) {
    if (typeof timing !== 'object' || timing === null || Object.keys(timing).length !== 2) return false
    if (!Number.isFinite(timing.runStartMs) || !Number.isFinite(timing.runEndMs)) return false
  }
  for (const name in outputs) {
    const wire = (outputs as Record<string, unknown>)[name] as Partial<WireTensor> | null
    if (typeof wire !== 'object' || wire === null || Object.keys(wire).length !== 3) return false
    if (typeof wire.type !== 'string' || !isArrayBuffer(wire.buffer) || !Array.isArray(wire.dims)) return false
    if (!wire.dims.every((d) => Number.isSafeInteger(d))) return false
  }
  return true
}

/**
 * Writes a task's result: a successful run of the ONNX tensor worker as a tensor message
 * (its outputs out of band), anything else as v8 writes it ({@link writeTransferFile},
 * with `transfer`). Throws as `writeTransferFile` does.
 */
export function writeResult(fd: number, result: TaskResult, transfer: readonly ArrayBuffer[]): TransferLayout {
  if (!result.ok || result.kind !== 'run' || !isTensorOutput(result.value) || !Number.isFinite(result.busyMs)) {
    return writeTransferFile(fd, result, transfer)
  }
  const { outputs, timing } = result.value
  const names = Object.keys(outputs)
  const tensors = new Array<TensorPieces>(names.length)
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string
    const { type, dims, buffer } = outputs[name] as WireTensor
    tensors[i] = { name, type, dims, pieces: [new Uint8Array(buffer)], byteLength: buffer.byteLength }
  }
  const facts: TensorFacts = { k: 'result', threadId: result.threadId, busyMs: result.busyMs }
  if (timing !== undefined) facts.timing = { runStartMs: timing.runStartMs, runEndMs: timing.runEndMs }
  if (result.dropped !== undefined) facts.x = result.dropped
  return writeTensorMessage(fd, facts, tensors)
}

/**
 * The buffers a reader puts a lane's tensors into, kept from one batch to the next: one
 * per tensor, reused when the next batch's tensor has the same length (the usual case
 * under steady load: batches of one row at light load, full batches at heavy load).
 * Reading into a fresh ArrayBuffer cost more than the read itself (a zero-filled
 * allocation and its pages' first touch: 8 µs of 20 for 128 KiB). Only for payloads the
 * reader is done with before the next one arrives: a replica's batch inputs, which
 * onnxruntime no longer holds once `run` returns, and a lane takes its next batch only
 * after the host has its result.
 */
export class ReusedBuffers {
  readonly #buffers: ArrayBuffer[] = []

  /** An ArrayBuffer of exactly `length` bytes for tensor `index` (its contents are overwritten). */
  take(index: number, length: number): ArrayBuffer {
    const kept = this.#buffers[index]
    if (kept !== undefined && kept.byteLength === length) return kept
    const fresh = uninitializedArrayBuffer(length)
    this.#buffers[index] = fresh
    return fresh
  }
}

/**
 * A fresh ArrayBuffer of exactly `length` bytes, not zero-filled, for a caller that
 * overwrites it whole (a read, a batch's packing). Its own allocation, never a view over
 * Node's shared Buffer slab: a typed array may stay a view into it, and it can be
 * transferred (a slab would be cloned instead). Skipping the zero fill of
 * `new ArrayBuffer` saves a pass over the whole buffer
 * (docs/runtime-facts.md#moving-data-between-threads-and-processes).
 */
export function uninitializedArrayBuffer(length: number): ArrayBuffer {
  return Buffer.allocUnsafeSlow(length).buffer as ArrayBuffer
}

function tensorValue(head: TensorHead, buffers: ArrayBuffer[]): RunTask | TaskResult {
  const tensors: Record<string, WireTensor> = {}
  for (let i = 0; i < head.t.length; i++) {
    const [name, type, dims] = head.t[i] as [string, WireTensorType, number[]]
    tensors[name] = { type, dims, buffer: buffers[i] as ArrayBuffer }
  }
  if (head.k === 'task') {
    const task: RunTask = { kind: 'run', batchId: head.batchId, payload: { rows: head.rows, inputs: tensors } satisfies TensorBatch }
    if (head.d !== undefined) {
      task.deadlines = head.d.map((d) => (d === null ? Infinity : d))
      task.runMs = head.r ?? 0
    }
    return task
  }
  const value: TensorBatchOutput = { outputs: tensors }
  if (head.timing !== undefined) value.timing = head.timing
  const result: RunSuccess = { ok: true, kind: 'run', value, threadId: head.threadId, busyMs: head.busyMs }
  if (head.x !== undefined) result.dropped = head.x
  return result
}

/**
 * Reads back what {@link writeTransferFile}, {@link writeTensorTask} or
 * {@link writeResult} wrote: each out-of-band buffer as its own ArrayBuffer — fresh, or
 * taken from `reuse` (see {@link ReusedBuffers}).
 */
export function readTransferFile(fd: number, layout: TransferLayout, reuse?: ReusedBuffers): unknown {
  // Its own memory (not the shared Buffer pool): typed arrays inside the value may stay views into it.
  const head = Buffer.allocUnsafeSlow(layout.head)
  const parts: Uint8Array[] = [head]
  const buffers = new Array<ArrayBuffer>(layout.buffers.length)
  let offset = layout.head
  for (let i = 0; i < layout.buffers.length; i++) {
    const length = layout.buffers[i] as number
    const buffer = reuse === undefined ? uninitializedArrayBuffer(length) : reuse.take(i, length)
    if (offset !== align8(offset)) parts.push(SCRATCH.subarray(0, align8(offset) - offset))
    if (length > 0) parts.push(new Uint8Array(buffer))
    buffers[i] = buffer
    offset = align8(offset) + length
  }
  readAll(fd, parts)
  if (head[0] === TENSOR_HEAD) return tensorValue(JSON.parse(head.toString('utf8')) as TensorHead, buffers)
  const deserializer = new DefaultDeserializer(head)
  for (let i = 0; i < buffers.length; i++) deserializer.transferArrayBuffer(i, buffers[i] as ArrayBuffer)
  deserializer.readHeader()
  return deserializer.readValue()
}
