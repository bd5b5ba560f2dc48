/**
 * Reads a request body into memory, never holding more than `limit` bytes: a declared
 * `Content-Length` over the limit is refused before reading, and a body that streams
 * past the limit is refused as soon as the limit is crossed (what follows is left to
 * linger.ts: discarded, or the connection closed gently). A read can stop part way
 * (`read(upTo)`: a binary request's JSON header, which tells its rows before admission)
 * and go on later; in between the rest stays in the socket, its client held by TCP
 * flow control. `signal` ends a read early (the body timeout, a shutdown) with its
 * reason.
 */
import type { IncomingMessage } from 'node:http'
import { MalformedJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../protocol/errors.js'
import type { PendingBodyBytes, PendingBodyHold } from '../protocol/pending-body-bytes.js'

/** The client went away before the body was complete; nobody is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('Client closed the request before its body was complete')
  }
}

const EMPTY = Buffer.alloc(0)
/** The widest element of a protocol datatype (FP64, INT64, UINT64). */
const ALIGNMENT = 8

export class BodyReader {
  readonly #req: IncomingMessage
  readonly #limit: number
  readonly #chunks: Buffer[] = []
  #length = 0
  #ended = false
  #checked = false
  /** Fails the read in progress (`abort`); undefined while none is. */
  #fail: ((error: unknown) => void) | undefined
  /** The server's pending-bytes budget (pending-body-bytes.ts), which a body still arriving draws on. */
  readonly #budget: PendingBodyBytes | undefined
  /** This body's share of the budget, made once a read has to wait for bytes. */
  #hold: PendingBodyHold | undefined

  constructor(req: IncomingMessage, limit: number, budget?: PendingBodyBytes) {
    this.#req = req
    this.#limit = limit
    this.#budget = budget
  }

  /** Gives this body's bytes back to the pending-bytes budget (the request ended before its body did). */
  release(): void {
    this.#hold?.release()
  }

  /** Bytes read so far. */
  get length(): number {
    return this.#length
  }

  /** The whole body has been read. */
  get ended(): boolean {
    return this.#ended
  }

  /**
   * The bytes read so far, as one buffer (joined once). With `alignAt`, the byte at that
   * offset is 8-byte aligned in memory: a binary request's tensors start right after its
   * JSON header, and aligned they are read in place (protocol/tensor-bytes.ts
   * `typedArrayOver`) rather than copied a second time. A body that arrived as one chunk (aligned, when asked) is
   * returned as it is.
   */
  bytes(alignAt?: number): Buffer {
    const chunks = this.#chunks
    if (chunks.length === 0) return EMPTY
    if (chunks.length === 1 && (alignAt === undefined || (chunks[0].byteOffset + alignAt) % ALIGNMENT === 0)) return chunks[0]
    const pad = alignAt === undefined ? 0 : (ALIGNMENT - (alignAt % ALIGNMENT)) % ALIGNMENT
    // Uninitialised memory: the body's bytes are all written below, the padding zeroed.
    const whole = Buffer.allocUnsafeSlow(pad + this.#length)
    whole.fill(0, 0, pad)
    let offset = pad
    for (const chunk of chunks) {
      whole.set(chunk, offset)
      offset += chunk.length
    }
    const joined = whole.subarray(pad)
    chunks.splice(0, chunks.length, joined)
    return joined
  }

  /**
   * Reads until at least `upTo` bytes have arrived (`Infinity`: the whole body) or the
   * body ends, then stops reading. Rejects with `PayloadTooLargeError` past the limit,
   * `ClientGoneError` when the client leaves, `abort`'s reason when that is called.
   */
  read(upTo: number): Promise<void> {
    const req = this.#req
    try {
      this.#check()
    } catch (error) {
      return Promise.reject(error)
    }
    if (this.#ended || this.#length >= upTo) return Promise.resolve()
    // Destroyed while no read was listening (between two reads): no 'close' will come.
    if (req.destroyed) return Promise.reject(new ClientGoneError())
    if (this.#budget !== undefined) this.#hold ??= this.#budget.hold()
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        req.off('data', onData)
        req.off('end', onEnd)
        req.off('error', onGone)
        req.off('close', onGone)
        this.#fail = undefined
      }
      const fail = (error: unknown): void => {
        cleanup()
        this.#chunks.length = 0
        this.#hold?.release()
        reject(error)
      }
      const onData = (chunk: Buffer): void => {
        this.#length += chunk.length
        if (this.#length > this.#limit) return fail(new PayloadTooLargeError(this.#limit))
        try {
          this.#hold?.take(chunk.length)
        } catch (error) {
          return fail(error)
        }
        this.#chunks.push(chunk)
        if (this.#length >= upTo) {
          // Stop here: what follows stays in the socket until the next read (or linger.ts).
          req.pause()
          cleanup()
          resolve()
        }
      }
      const onEnd = (): void => {
        this.#ended = true
        // Complete: no longer a body still arriving.
        this.#hold?.release()
        cleanup()
        resolve()
      }
      const onGone = (): void => fail(new ClientGoneError())
      req.on('data', onData)
      req.on('end', onEnd)
      req.on('error', onGone)
      req.on('close', onGone)
      this.#fail = fail
      // A stream paused by an earlier partial read does not resume on a new 'data' listener.
      req.resume()
    })
  }

  /**
   * Reads the rest of the body at once, when it has all arrived already: a body that came
   * in the same reads as its headers is, once they are parsed (after-parse.ts). No listener, timer
   * or promise, and the whole body is taken, whatever a partial read would have asked
   * for (it is in memory already). Returns `false`, having read nothing, when the body is
   * still arriving (`read` then waits for it); throws what `read` would reject with. Its
   * bytes pass the pending-bytes budget's check (a body that arrived whole is refused
   * where one arriving would have been) but are not held: none are still on the wire.
   */
  readBuffered(): boolean {
    const req = this.#req
    this.#check()
    if (this.#ended) return true
    if (!req.complete || req.destroyed || req.readableFlowing === true) return false
    let chunk: Buffer | null
    let length = this.#length
    while ((chunk = req.read() as Buffer | null) !== null) {
      length += chunk.length
      this.#chunks.push(chunk)
    }
    try {
      if (length > this.#limit) throw new PayloadTooLargeError(this.#limit)
      const added = length - this.#length
      // A body partly read before (a binary header) holds its first bytes: the rest is
      // taken on top of them, as it would have been arriving.
      if (this.#hold !== undefined) this.#hold.take(added)
      else this.#budget?.pass(added)
    } catch (error) {
      this.#chunks.length = 0
      this.#hold?.release()
      throw error
    }
    this.#length = length
    this.#ended = true
    this.#hold?.release()
    return true
  }

  /** The checks made once, before the first byte is read. */
  #check(): void {
    if (this.#checked) return
    this.#checked = true
    const req = this.#req
    const encoding = req.headers['content-encoding']
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      throw new UnsupportedMediaTypeError(`Content-Encoding '${encoding}'`)
    }
    const declared = req.headers['content-length']
    if (declared !== undefined && Number(declared) > this.#limit) throw new PayloadTooLargeError(this.#limit)
  }

  /**
   * Ends the read in progress, if any, with `error` (a body timeout, a shutdown). A plain
   * method rather than an AbortSignal: a request's reads would otherwise cost an
   * AbortController each, a measurable share of the host thread per request at full load.
   */
  abort(error: unknown): void {
    this.#fail?.(error)
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Parses a JSON body; invalid UTF-8 or JSON is `MalformedJsonError`. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw new MalformedJsonError('the body is empty')
  let text: string
  try {
    text = utf8.decode(body)
  } catch {
    throw new MalformedJsonError('the body is not UTF-8')
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    // V8's JSON.parse is iterative, so deep nesting cannot overflow the stack here; the
    // catch still covers RangeError in case an engine differs.
    throw new MalformedJsonError(error instanceof Error ? error.message : String(error))
  }
}
