/**
 * Answers sent before the request body was read must reach the client.
 *
 * A server that closes a connection while the client is still sending makes the
 * kernel answer the unread bytes with a reset, and a client that gets a reset before
 * it read the response sees ECONNRESET/EPIPE instead of the 503 or 413 (Node's own
 * `Connection: close` path destroys the socket as soon as the response is flushed).
 * So, like Go's net/http:
 *   - a body that fits the bound is read and discarded (no parsing, no buffering), and
 *     the connection stays open for the next request;
 *   - a longer one (or one the server must not wait for: shutdown, a stalled body)
 *     gets `Connection: close`, then a half-close — the response and a FIN go out —
 *     while the rest is still read and discarded for up to `lingerMs`, after which the
 *     socket is destroyed (a client that stops sending closes its side before that).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export interface LingerOptions {
  /** Most bytes discarded before the connection is closed instead. */
  readonly maxBytes: number
  /** Longest time a closing connection keeps reading after its response. */
  readonly lingerMs: number
  /** Close even when the body would fit (shutdown, a stalled or timed-out body). */
  readonly close: boolean
}

/** Whether the body of `req` is still (partly) on the wire. */
export function bodyUnread(req: IncomingMessage): boolean {
  return !req.complete && !req.destroyed
}

/**
 * Call before writing an answer to a request whose body was not read to the end.
 * Decides between discarding the body (keep-alive) and closing gently, and sets
 * `Connection: close` on `res` in the second case.
 */
export function lingerOnUnreadBody(req: IncomingMessage, res: ServerResponse, options: LingerOptions): void {
  const declared = Number(req.headers['content-length'])
  // An error may ask for the close itself (`Connection: close` from the error registry).
  let close = options.close || res.getHeader('connection') === 'close' || (Number.isFinite(declared) && declared > options.maxBytes)
  let seen = 0
  const discard = (chunk: Buffer): void => {
    seen += chunk.length
    if (!close && seen > options.maxBytes) {
      close = true
      // The answer may already be out, with keep-alive: close from here.
      if (res.writableFinished) closeGently(res.socket ?? undefined, options.lingerMs)
    }
  }
  req.on('data', discard)
  req.resume()
  if (close) {
    res.setHeader('connection', 'close')
    holdOpenAfterResponse(res, options.lingerMs)
  }
}

/**
 * With `Connection: close`, Node ends the socket once the response is flushed and
 * destroys it right after the FIN (`socket.destroySoon`). That destroy is what turns
 * the client's unsent bytes into a reset; it is replaced here by a bounded linger.
 * Node registers its own 'finish' handler on `res` when the request arrives, so ours
 * runs after it, when its destroy listener is in place to be taken off.
 */
function holdOpenAfterResponse(res: ServerResponse, lingerMs: number): void {
  const socket = res.socket
  if (socket === null) return
  res.once('finish', () => {
    socket.removeListener('finish', socket.destroy)
    closeGently(socket, lingerMs)
  })
}

/** Half-close now; destroy when the client closes its side or after `lingerMs`. */
function closeGently(socket: Socket | undefined, lingerMs: number): void {
  if (socket === undefined || socket.destroyed) return
  const timer = setTimeout(() => socket.destroy(), lingerMs)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
  socket.once('end', () => socket.destroy())
  // Reading must go on: unread bytes in the kernel buffer at close are what resets.
  socket.resume()
  socket.end()
}
