/**
 * The call guard's reading of gRPC's length-prefixed framing as chunks arrive: where a
 * message starts and where it is complete, whatever the chunk boundaries.
 */
import { describe, expect, it } from 'vitest'
import { MessageFraming } from '../src/grpc/message-framing.js'

function framed(...lengths: number[]): Buffer {
  return Buffer.concat(
    lengths.map((length) => {
      const message = Buffer.alloc(5 + length, 0xab)
      message.writeUInt8(0, 0)
      message.writeUInt32BE(length, 1)
      return message
    }),
  )
}

/** Feeds `bytes` in chunks of the given sizes; returns the events, bytes summed per run. */
function events(bytes: Buffer, chunkSizes: number[]): string[] {
  const framing = new MessageFraming()
  const log: string[] = []
  let at = 0
  for (const size of chunkSizes) {
    framing.feed(bytes.subarray(at, at + size), {
      started: () => log.push('start'),
      bytes: (n) => log.push(`+${n}`),
      completed: () => log.push('done'),
    })
    at += size
  }
  return log
}

describe('MessageFraming', () => {
  it('finds each message of one chunk, an empty message included', () => {
    expect(events(framed(3, 0, 2), [20])).toEqual(['start', '+5', '+3', 'done', 'start', '+5', 'done', 'start', '+5', '+2', 'done'])
  })

  it('follows a prefix split across chunks, and a message split byte by byte', () => {
    expect(events(framed(2), [1, 1, 3, 1, 1])).toEqual(['start', '+1', '+1', '+3', '+1', '+1', 'done'])
  })

  it('reads lengths past 2^24 and completes a message only at its last byte', () => {
    const framing = new MessageFraming()
    const prefix = Buffer.from([0, 0x01, 0x00, 0x00, 0x00]) // 16 MiB
    const log: string[] = []
    const on = { started: () => log.push('start'), bytes: (n: number) => log.push(`+${n}`), completed: () => log.push('done') }
    framing.feed(prefix, on)
    framing.feed(Buffer.alloc(16 * 1024 * 1024 - 1), on)
    expect(log).toEqual(['start', '+5', `+${16 * 1024 * 1024 - 1}`])
    framing.feed(Buffer.alloc(1), on)
    expect(log.slice(3)).toEqual(['+1', 'done'])
  })
})
