/**
 * Frames of the Unix-socket variant of the data-path bench: an 8-byte header (payload
 * length as a u32, 4 bytes of padding) and the payload, so that within a frame the
 * payload starts 8-byte aligned. Chunks are kept in a list and concatenated once per
 * frame (concatenating on every 'data' event is quadratic).
 */
const HEADER = 8

export function frame(payload: Uint8Array): Buffer {
  const header = Buffer.alloc(HEADER)
  header.writeUInt32LE(payload.byteLength, 0)
  return Buffer.concat([header, payload])
}

export class FrameReader {
  private chunks: Buffer[] = []
  private have = 0

  constructor(private readonly onFrame: (payload: Uint8Array) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.have += chunk.byteLength
    for (;;) {
      if (this.have < HEADER) return
      const head = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks)
      const length = head.readUInt32LE(0)
      if (this.have < HEADER + length) {
        this.chunks = [head]
        return
      }
      // The payload gets its own ArrayBuffer from byte 0 (one copy), so any typed array fits it.
      const payload = new Uint8Array(new ArrayBuffer(length))
      payload.set(head.subarray(HEADER, HEADER + length))
      const rest = head.subarray(HEADER + length)
      this.chunks = rest.byteLength > 0 ? [rest] : []
      this.have = rest.byteLength
      this.onFrame(payload)
    }
  }
}
