/**
 * Process mode's per-batch notices, binary: the host's `run` (which lane's `in` file holds
 * a batch, and its layout) and the child's `result` (which lane's `out` file holds the
 * answer, its layout, the child's RSS). They travel over a pipe of their own (the child's
 * fd {@link NOTICE_FD}), not over Node's IPC channel, whose every message is a
 * `JSON.stringify`, a line split and a `JSON.parse`: a 16-byte round trip measured
 * 26 µs over a pipe against 38 µs as JSON over IPC (bench/scripts/ipc-notice.mjs). The
 * control messages (boot, loaded, dispose, collected) stay on the IPC channel.
 *
 * A notice is little-endian uint32 words: its length in bytes, its kind, the batch id,
 * the lane, the layout's head length, the count of out-of-band buffers and each
 * buffer's length; a result ends with the RSS as a float64.
 */
import type { TransferLayout } from './protocol.js'

/** The child's file descriptor of the notice pipe (after stdin, stdout, stderr and the IPC channel). */
export const NOTICE_FD = 4

const RUN = 1
const RESULT = 2
/** Words before the buffers' lengths: length, kind, id, lane, head, count. */
const FIXED_WORDS = 6

export type Notice =
  | { t: 'run'; id: number; lane: number; layout: TransferLayout }
  | { t: 'result'; id: number; lane: number; layout: TransferLayout; rss: number }

/** One notice as bytes, ready for one write. */
export function encodeNotice(notice: Notice): Buffer {
  const buffers = notice.layout.buffers
  const length = (FIXED_WORDS + buffers.length) * 4 + (notice.t === 'result' ? 8 : 0)
  const bytes = Buffer.allocUnsafe(length)
  bytes.writeUInt32LE(length, 0)
  bytes.writeUInt32LE(notice.t === 'run' ? RUN : RESULT, 4)
  bytes.writeUInt32LE(notice.id, 8)
  bytes.writeUInt32LE(notice.lane, 12)
  bytes.writeUInt32LE(notice.layout.head, 16)
  bytes.writeUInt32LE(buffers.length, 20)
  for (let i = 0; i < buffers.length; i++) bytes.writeUInt32LE(buffers[i] as number, 24 + 4 * i)
  if (notice.t === 'result') bytes.writeDoubleLE(notice.rss, length - 8)
  return bytes
}

function decodeNotice(bytes: Buffer, at: number): Notice {
  const kind = bytes.readUInt32LE(at + 4)
  const id = bytes.readUInt32LE(at + 8)
  const lane = bytes.readUInt32LE(at + 12)
  const head = bytes.readUInt32LE(at + 16)
  const count = bytes.readUInt32LE(at + 20)
  const buffers = new Array<number>(count)
  for (let i = 0; i < count; i++) buffers[i] = bytes.readUInt32LE(at + 24 + 4 * i)
  const layout = { head, buffers }
  if (kind === RUN) return { t: 'run', id, lane, layout }
  if (kind === RESULT) return { t: 'result', id, lane, layout, rss: bytes.readDoubleLE(at + (FIXED_WORDS + count) * 4) }
  throw new Error(`Unknown process notice kind ${kind}`)
}

/**
 * Cuts a pipe's chunks into notices: a chunk may hold several, or end inside one (the
 * rest is kept until the next chunk; the pieces are joined once a notice is whole).
 */
export class NoticeReader {
  #pending: Buffer | undefined

  constructor(private readonly onNotice: (notice: Notice) => void) {}

  feed(chunk: Buffer): void {
    let bytes = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk])
    this.#pending = undefined
    let at = 0
    while (bytes.length - at >= 4) {
      const length = bytes.readUInt32LE(at)
      if (bytes.length - at < length) break
      this.onNotice(decodeNotice(bytes, at))
      at += length
    }
    if (at < bytes.length) {
      // A copy: the chunk's memory is not kept behind a view.
      bytes = Buffer.from(bytes.subarray(at))
      this.#pending = bytes
    }
  }
}
