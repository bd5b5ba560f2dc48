/**
 * The failure modes of the bridge itself. How any inferpool error keeps its class,
 * `code` and `details` on the way over is `toWire`/`fromWire` (wire-errors.ts).
 */
import { InferpoolError } from '@inferpool/core'

/**
 * The remote handle was closed, or the port to the thread that owns the pool closed
 * (that thread ended or released it): the call cannot be answered.
 */
export class RemotePoolClosedError extends InferpoolError {
  static readonly code = 'ERR_REMOTE_CLOSED'
  constructor(reason = 'The remote pool handle is closed') {
    super(RemotePoolClosedError.code, reason)
  }
}

/** `connectPool` got no answer from the other end of the port within `connectTimeoutMs`. */
export class RemoteConnectTimeoutError extends InferpoolError {
  static readonly code = 'ERR_REMOTE_CONNECT_TIMEOUT'
  constructor(timeoutMs: number) {
    super(
      RemoteConnectTimeoutError.code,
      `No pool answered on the port within ${timeoutMs} ms; call exposePool(pool, port) on the other end`,
      { details: { timeoutMs } },
    )
  }
}
