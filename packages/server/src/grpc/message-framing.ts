/**
 * Follows the gRPC length-prefixed framing of a call's request bytes as they arrive
 * (each message: 1 compression-flag byte, a 4-byte big-endian length, then the message),
 * so the call guard knows when a message starts and when it is complete — which
 * grpc-js does not tell before the whole message has been buffered.
 */

/** What `feed` reports, in order, for each message the chunk touches. */
export interface FramingEvents {
  /** The first byte of a message arrived. */
  started(): void
  /** `bytes` bytes of the current message (its prefix included) arrived. */
  bytes(bytes: number): void
  /** The current message's last byte arrived. */
  completed(): void
}

const PREFIX_BYTES = 5

export class MessageFraming {
  /** Prefix bytes seen of the current message: 0 between messages, 1–5 inside one. */
  #prefix = 0
  #length = 0
  /** Message bytes still to come once the prefix is complete. */
  #left = 0

  feed(chunk: Uint8Array, on: FramingEvents): void {
    let at = 0
    while (at < chunk.length) {
      if (this.#prefix === 0) on.started()
      if (this.#prefix < PREFIX_BYTES) {
        const take = Math.min(PREFIX_BYTES - this.#prefix, chunk.length - at)
        for (let k = 0; k < take; k++) {
          // Byte 0 is the compression flag; bytes 1–4 the length.
          if (this.#prefix + k >= 1) this.#length = this.#length * 256 + chunk[at + k]
        }
        this.#prefix += take
        at += take
        on.bytes(take)
        if (this.#prefix < PREFIX_BYTES) return
        this.#left = this.#length
      }
      const take = Math.min(this.#left, chunk.length - at)
      this.#left -= take
      at += take
      if (take > 0) on.bytes(take)
      if (this.#left > 0) return
      this.#prefix = 0
      this.#length = 0
      on.completed()
    }
  }
}
