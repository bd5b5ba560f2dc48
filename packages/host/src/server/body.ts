/**
 * Reads a request body into memory, never holding more than `limit` bytes: a declared
 * `Content-Length` over the limit is refused before reading, and a body that streams
 * past the limit is refused as soon as the limit is crossed (what follows is left to
 * linger.ts: discarded, or the connection closed gently). `signal` ends the read early
 * (the body timeout, a shutdown) with its reason.
 */
import type { IncomingMessage } from 'node:http'
import { MalformedJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.js'

/** The client went away before the body was complete; nobody is left to answer. */
export class ClientGoneError extends Error {
  constructor() {
    super('Client closed the request before its body was complete')
  }
}

export function readBody(req: IncomingMessage, limit: number, signal?: AbortSignal): Promise<Buffer> {
  const encoding = req.headers['content-encoding']
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return Promise.reject(new UnsupportedMediaTypeError(`Content-Encoding '${encoding}'`))
  }
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(new PayloadTooLargeError(limit))
  }
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    const cleanup = (): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onGone)
      req.off('close', onGone)
      signal?.removeEventListener('abort', onAbort)
    }
    const onAbort = (): void => {
      cleanup()
      chunks.length = 0
      reject((signal as AbortSignal).reason)
    }
    const onData = (chunk: Buffer): void => {
      length += chunk.length
      if (length > limit) {
        cleanup()
        chunks.length = 0
        reject(new PayloadTooLargeError(limit))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = (): void => {
      cleanup()
      resolve(Buffer.concat(chunks, length))
    }
    const onGone = (): void => {
      cleanup()
      reject(new ClientGoneError())
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onGone)
    req.on('close', onGone)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
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
