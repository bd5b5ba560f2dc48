/**
 * The body reader's join over real HTTP on 127.0.0.1: a body of several socket reads comes
 * back whole, with the byte a binary request's tensors start at aligned when asked.
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { afterParse } from '../src/http/after-parse.js'
import { BodyReader } from '../src/http/body.js'
import { PendingBodyBytes } from '../src/protocol/pending-body-bytes.js'

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

/** What a server saw reading one request's body with `readBuffered`. */
interface Buffered {
  inTheRequestEvent: boolean
  whenParsed: boolean | string
  equal: boolean
  dataListeners: number
  held: number
  refused: number
}

/** Sends `sent` of a body declaring `length` bytes (all of it when `sent` is omitted) to a server that reads it with `readBuffered`. */
function readBufferedOnce(length: number, budget: PendingBodyBytes, holdFirst = 0, sent = length): Promise<Buffered> {
  return new Promise((resolve) => {
    const other = budget.hold()
    other.take(holdFirst)
    const once = createServer((req, res) => {
      const reader = new BodyReader(req, 1 << 20, budget)
      const inTheRequestEvent = reader.readBuffered()
      void afterParse().then(() => {
        let whenParsed: boolean | string
        try {
          whenParsed = reader.readBuffered()
        } catch (error) {
          whenParsed = (error as { code: string }).code
        }
        resolve({
          inTheRequestEvent,
          whenParsed,
          equal: reader.bytes().equals(pattern(length)),
          dataListeners: req.listenerCount('data'),
          held: budget.held,
          refused: budget.refused,
        })
        other.release()
        res.end()
        req.destroy()
        once.close()
      })
    })
    once.listen(0, '127.0.0.1', () => {
      const port = (once.address() as AddressInfo).port
      const req = request(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-length': String(length) } })
      req.on('error', () => {})
      req.write(pattern(length).subarray(0, sent))
    })
  })
}

describe('BodyReader.readBuffered', () => {
  it('reads a body that came with its headers once the reads it came in are parsed, with no listener and nothing held', async () => {
    expect(await readBufferedOnce(1964, new PendingBodyBytes(1 << 20))).toEqual({
      inTheRequestEvent: false,
      whenParsed: true,
      equal: true,
      dataListeners: 0,
      held: 0,
      refused: 0,
    })
  })

  it('leaves a body still arriving to read(), taking nothing', async () => {
    expect(await readBufferedOnce(100, new PendingBodyBytes(1 << 20), 0, 20)).toMatchObject({
      whenParsed: false,
      dataListeners: 0,
      held: 0,
    })
  })

  it('refuses a whole body the pending-bytes budget cannot take now, as one arriving would be, holding nothing of it', async () => {
    expect(await readBufferedOnce(37, new PendingBodyBytes(40), 5)).toMatchObject({
      whenParsed: 'ERR_PENDING_BODY_BYTES_FULL',
      held: 5,
      refused: 1,
    })
  })

  it('refuses a whole body larger than the whole budget as too large', async () => {
    expect(await readBufferedOnce(37, new PendingBodyBytes(30))).toMatchObject({
      whenParsed: 'ERR_PAYLOAD_TOO_LARGE',
      held: 0,
      refused: 0,
    })
  })
})
