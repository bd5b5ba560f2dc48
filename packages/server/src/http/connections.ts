/**
 * The connections of a server at shutdown. Node's `server.close()` also destroys every
 * connection without a request in progress (`closeIdleConnections`) — including one
 * just accepted whose request is still in the socket buffer, unread: its client gets
 * a reset for a request that had reached the server. So a shutdown here stops the
 * listener only, closes the keep-alive connections that sit idle between requests
 * (as Node does; a client must expect that of keep-alive), and gives connections that
 * have not sent their first request a short grace to send it: it is answered (503 and
 * `Connection: close` once the handler is closed), never reset. What the kernel still
 * holds in its accept queue when the listener closes is reset by the kernel; the
 * server's `drainDelayMs` (readiness 503 while still serving) is the answer to that.
 */
import type { IncomingMessage, Server } from 'node:http'
import { Server as NetServer } from 'node:net'
import type { Socket } from 'node:net'
import { performance } from 'node:perf_hooks'

export class ConnectionTracker {
  /** Open connections, and how many requests each has started. */
  readonly #requests = new Map<Socket, number>()
  /** Connections with a request in progress (a response not yet finished). */
  readonly #busy = new Map<Socket, number>()
  #stopping = false
  #graceMs = 0
  #lastAccept = -Infinity

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.#lastAccept = performance.now()
      this.#requests.set(socket, 0)
      socket.once('close', () => {
        this.#requests.delete(socket)
        this.#busy.delete(socket)
      })
    })
    server.on('request', (req: IncomingMessage, res: { once(event: 'finish' | 'close', fn: () => void): void }) => {
      const socket = req.socket
      this.#requests.set(socket, (this.#requests.get(socket) ?? 0) + 1)
      this.#busy.set(socket, (this.#busy.get(socket) ?? 0) + 1)
      let done = false
      const finished = (): void => {
        if (done) return
        done = true
        const left = (this.#busy.get(socket) ?? 1) - 1
        if (left > 0) this.#busy.set(socket, left)
        else {
          this.#busy.delete(socket)
          // Idle again during a shutdown: nothing more will come on it.
          if (this.#stopping) this.#endSoon(socket)
        }
      }
      res.once('finish', finished)
      res.once('close', finished)
    })
  }

  /**
   * Resolves once no connection has been accepted for `quietMs`, or after `maxMs`.
   * A burst of clients that connected just before a shutdown is then taken out of the
   * kernel's accept queue (and answered) before the listener closes, instead of reset.
   */
  async acceptQuiet(quietMs: number, maxMs: number): Promise<void> {
    const deadline = performance.now() + maxMs
    // At least one quiet period: connections already in the accept queue are only seen
    // once the event loop polls the listener, which may not have happened yet.
    this.#lastAccept = Math.max(this.#lastAccept, performance.now())
    for (;;) {
      const now = performance.now()
      const quietAt = this.#lastAccept + quietMs
      if (now >= deadline) return
      if (now >= quietAt) {
        // A timer runs before the poll phase of its turn: on a busy loop it can find the
        // quiet period over while the kernel holds connections that turn's poll would
        // accept. One poll phase more (setImmediate runs after it) takes them; quiet only
        // if it took none.
        const before = this.#lastAccept
        await new Promise((resolve) => setImmediate(resolve))
        if (this.#lastAccept === before) return
        continue
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietAt, deadline) - now))
    }
  }

  /** Open connections now. */
  get size(): number {
    return this.#requests.size
  }

  /**
   * Stops accepting and ends idle keep-alive connections; connections that have not
   * sent a request get `graceMs` to send one before they are destroyed. Resolves when
   * the listener is closed and every connection has ended.
   */
  stopAccepting(server: Server, graceMs: number): Promise<void> {
    this.#stopping = true
    this.#graceMs = graceMs
    const closed = server.listening
      ? new Promise<void>((resolve) => {
          // net.Server's close: the listener only (http.Server's own close would first
          // destroy the idle connections, fresh ones included).
          NetServer.prototype.close.call(server, () => resolve())
        })
      : Promise.resolve()
    for (const [socket, requests] of this.#requests) {
      if (this.#busy.has(socket)) continue
      if (requests > 0) {
        this.#endSoon(socket)
        continue
      }
      const timer = setTimeout(() => {
        if (!this.#busy.has(socket)) socket.destroy()
      }, graceMs)
      timer.unref()
      socket.once('close', () => clearTimeout(timer))
    }
    return closed
  }

  /** Half-closes; destroys after the grace if the client does not close its side. */
  #endSoon(socket: Socket): void {
    if (socket.destroyed) return
    socket.end()
    const timer = setTimeout(() => socket.destroy(), this.#graceMs)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  }

  /** Destroys every connection (a forced shutdown). */
  destroyAll(): void {
    for (const socket of this.#requests.keys()) socket.destroy()
  }
}
