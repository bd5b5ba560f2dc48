/**
 * The abort controller of each inference request, and the set of those in progress (a
 * forced close aborts them all).
 *
 * An `AbortController` costs its signal (an `EventTarget`) and the listeners the queue
 * adds to it: a few microseconds, once per request, on the main thread. Over HTTP/1.x a
 * connection carries its requests one after another (pipelined ones too are answered in
 * order), and the two reasons to abort are the connection's: its client closing it (a
 * response's 'close' before it finished only happens as the socket goes) and the
 * handler's forced close (which ends every request). So each HTTP/1.x connection has one
 * controller, made for its first inference request and used by all that follow; any
 * other request (HTTP/2's compatibility API, whose streams end one by one) has its own.
 */
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { setMaxListeners } from 'node:events'

export class RequestSignals {
  /** One controller per HTTP/1.x connection, kept as long as its socket lives. */
  readonly #byConnection = new WeakMap<Socket, AbortController>()
  /** Controllers of requests in progress, with how many requests use each now. */
  readonly #inFlight = new Map<AbortController, number>()

  /** The controller of `req`: its connection's over HTTP/1.x, a new one otherwise. */
  of(req: IncomingMessage): AbortController {
    const socket = req.socket as Socket | null
    if (req.httpVersionMajor !== 1 || socket === null) return new AbortController()
    let controller = this.#byConnection.get(socket)
    if (controller === undefined) {
      controller = new AbortController()
      // Pipelined requests in progress on one connection each add a listener to its
      // signal while queued: more than Node's default of 10 is no leak.
      setMaxListeners(0, controller.signal)
      this.#byConnection.set(socket, controller)
    }
    return controller
  }

  /** A request using `controller` is in progress. */
  enter(controller: AbortController): void {
    this.#inFlight.set(controller, (this.#inFlight.get(controller) ?? 0) + 1)
  }

  /** A request using `controller` is done. */
  leave(controller: AbortController): void {
    const users = (this.#inFlight.get(controller) ?? 1) - 1
    if (users === 0) this.#inFlight.delete(controller)
    else this.#inFlight.set(controller, users)
  }

  /** Aborts every request in progress (and its connection's later ones) with `reason`. */
  abortInFlight(reason: Error): void {
    for (const controller of this.#inFlight.keys()) controller.abort(reason)
  }
}
