/**
 * The body reader's join over real HTTP on 127.0.0.1: a body of several socket reads comes
 * back whole, with the byte a binary request's tensors start at aligned when asked.
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BodyReader } from '../src/http/body.js'

interface Joined {
  equal: boolean
  alignedMod8: number
  length: number
}

/** Sends `body`; the server reads it all and answers how `bytes(alignAt)` joined it. */
let url = ''
const server = createServer((req, res) => {
  const alignAt = req.headers['x-align-at'] === undefined ? undefined : Number(req.headers['x-align-at'])
  const reader = new BodyReader(req, 1 << 24)
  reader.read(Infinity).then(
    () => {
      const joined = reader.bytes(alignAt)
      const expected = pattern(joined.length)
      const answer: Joined = {
        equal: joined.equals(expected),
        alignedMod8: (joined.byteOffset + (alignAt ?? 0)) % 8,
        length: joined.length,
      }
      res.end(JSON.stringify(answer))
    },
    (error: unknown) => {
      res.statusCode = 500
      res.end(String(error))
    },
  )
})

function pattern(length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length)
  for (let i = 0; i < length; i++) bytes[i] = (i * 7 + 3) & 0xff
  return bytes
}

function send(length: number, alignAt: number | undefined): Promise<Joined> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-length': String(length) }
    if (alignAt !== undefined) headers['x-align-at'] = String(alignAt)
    const req = request(`${url}/`, { method: 'POST', headers }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve(JSON.parse(text) as Joined))
    })
    req.on('error', reject)
    req.end(pattern(length))
  })
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

describe('BodyReader.bytes', () => {
  // 300,000 bytes: several socket reads of at most 64 KiB each.
  it.each([0, 1, 3, 5, 213, 4099])('joins a body of several reads whole, with byte %i 8-byte aligned', async (alignAt) => {
    expect(await send(300_000, alignAt)).toEqual({ equal: true, alignedMod8: 0, length: 300_000 })
  })

  it('joins a body whole without alignment when none is asked', async () => {
    expect(await send(300_000, undefined)).toMatchObject({ equal: true, length: 300_000 })
  })

  it('aligns a small body too (one read)', async () => {
    expect(await send(37, 13)).toEqual({ equal: true, alignedMod8: 0, length: 37 })
  })
})

describe('BodyReader.abort', () => {
  it('ends the read in progress with the given error, and does nothing between reads', async () => {
    const reason = new Error('body timeout')
    const outcome = new Promise<{ first: string; second: unknown; length: number }>((resolve) => {
      const stalled = createServer((req, res) => {
        const reader = new BodyReader(req, 1 << 20)
        // Between reads: nothing to end.
        reader.abort(new Error('not reading'))
        void reader.read(10).then(async () => {
          const first = 'read 10'
          const pending = reader.read(Infinity)
          reader.abort(reason)
          const second = await pending.then(
            () => 'resolved',
            (error: unknown) => error,
          )
          resolve({ first, second, length: reader.length })
          res.end()
          req.destroy()
          stalled.close()
        })
      })
      stalled.listen(0, '127.0.0.1', () => {
        const port = (stalled.address() as AddressInfo).port
        // 100 bytes declared, 20 sent: the rest never comes.
        const req = request(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-length': '100' } })
        req.on('error', () => {})
        req.write(Buffer.alloc(20, 1))
      })
    })
    const { first, second, length } = await outcome
    expect(first).toBe('read 10')
    expect(second).toBe(reason)
    expect(length).toBe(20)
  })
})
