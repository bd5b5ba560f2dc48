/**
 * `connectPool`: the client side of `exposePool`. The handle has the pool's `infer`
 * signature and types; row buffers are transferred, not cloned; errors arrive with
 * their class and `code`; an `AbortSignal` aborts the row in the owning thread too.
 */
import { MessagePort } from 'node:worker_threads'
import { releaseProxy, transfer, wrap } from 'comlink'
import type { Remote } from 'comlink'
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs'
import { Lifecycle } from '../lifecycle.js'
import type { InferOptions, PoolMetadata, PoolStats, RowInput, RowOutput } from '../types.js'
import { prepareTransfer } from './buffers.js'
import { installErrorTransferHandler } from './error-transfer.js'
import { RemoteConnectTimeoutError, RemotePoolClosedError } from './errors.js'
import type { PoolEndpoint, WireInferOptions } from './wire.js'

export interface ConnectOptions {
  /**
   * Move input buffers to the pool's thread (the caller's typed arrays are detached,
   * `byteLength` 0, once `infer` returns) instead of copying them. A view that does
   * not span its whole buffer is copied first either way, so no other data is moved.
   * @default true
   */
  transferInputs?: boolean
  /**
   * Longest wait for the other end to answer the first call; then `connectPool`
   * rejects with `RemoteConnectTimeoutError` and closes the port.
   * @default 10000
   */
  connectTimeoutMs?: number
}

/** A pool living in another thread, as seen from this one. */
export interface RemotePool<In = RowInput, Out = RowOutput> {
  /** Same contract as `Pool.infer`: one row in, one row's outputs out. */
  infer(input: In, options?: InferOptions): Promise<Out>
  /**
   * The pool's metadata as it was at `connectPool` (inputs and outputs never change;
   * `maxBatchSize` can be lowered later — `refreshMetadata()` re-reads it).
   */
  readonly metadata: PoolMetadata
  refreshMetadata(): Promise<PoolMetadata>
  /** A snapshot of the pool's stats, read in its thread (the server's `/metrics` uses it). */
  readStats(): Promise<PoolStats>
  /** Calls of this handle not yet settled. */
  readonly pending: number
  /**
   * Releases the connection: new calls reject with `RemotePoolClosedError`; with
   * `drain: true` (default) pending calls settle first, with `drain: false` they reject
   * at once (and are aborted in the pool's thread). The port is closed; the pool is
   * not. A second call returns the same promise; a later `close({ drain: false })` or
   * `destroy()` takes over at once.
   */
  close(options?: { drain?: boolean }): Promise<void>
  /**
   * Ends now: pending calls reject (with `error` if given, else `RemotePoolClosedError`)
   * and are aborted in the pool's thread; the port is closed without waiting for the
   * other side. The pool is not closed.
   */
  destroy(error?: Error): Promise<void>
  /** `close()` or `destroy()` was called. */
  readonly closed: boolean
  /** `destroy()` was called. */
  readonly destroyed: boolean
  [Symbol.asyncDispose](): Promise<void>
}

interface PendingCall {
  readonly settled: Promise<unknown>
  fail(error: unknown): void
}

/**
 * Connects to a pool exposed with `exposePool` on the other end of `port`; resolves
 * once the connection answers, with the pool's metadata.
 */
export async function connectPool<In = RowInput, Out = RowOutput>(
  port: MessagePort,
  options: ConnectOptions = {},
): Promise<RemotePool<In, Out>> {
  if (!(port instanceof MessagePort)) {
    throw new TypeError(`Expected \`port\` to be a MessagePort from node:worker_threads, got \`${String(port)}\``)
  }
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`Expected \`options\` to be an object, got \`${String(options)}\``)
  }
  if (options.transferInputs !== undefined && typeof options.transferInputs !== 'boolean') {
    throw new TypeError(`Expected \`transferInputs\` to be a boolean, got \`${String(options.transferInputs)}\``)
  }
  const transferInputs = options.transferInputs ?? true
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000
  if (typeof connectTimeoutMs !== 'number' || !Number.isFinite(connectTimeoutMs) || connectTimeoutMs <= 0) {
    throw new RangeError(`Expected \`connectTimeoutMs\` to be a finite number > 0, got \`${String(connectTimeoutMs)}\``)
  }
  installErrorTransferHandler()
  const remote: Remote<PoolEndpoint> = wrap<PoolEndpoint>(nodeEndpoint(port))
  const calls = new Map<number, PendingCall>()
  let nextCallId = 0
  let portClosed = false

  // comlink never settles a call whose answer cannot arrive; the port's close event is
  // the only sign that the owning thread is gone, so every pending call fails on it.
  const failAll = (error: unknown): void => {
    for (const call of [...calls.values()]) call.fail(error)
  }
  const onPortClose = new Promise<void>((resolve) => {
    port.once('close', () => {
      portClosed = true
      failAll(new RemotePoolClosedError('The port to the pool closed'))
      resolve()
    })
  })

  // First round trip: proves the other side is there, and fetches the metadata. comlink
  // would wait forever for a port nobody serves, so the wait is bounded.
  let timer: NodeJS.Timeout | undefined
  let metadata: PoolMetadata
  try {
    metadata = await Promise.race([
      remote.metadata(),
      onPortClose.then(() => Promise.reject(new RemotePoolClosedError('The port to the pool closed'))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RemoteConnectTimeoutError(connectTimeoutMs)), connectTimeoutMs)
      }),
    ])
  } catch (error) {
    port.close()
    throw error
  } finally {
    clearTimeout(timer)
  }

  function infer(input: In, inferOptions: InferOptions = {}): Promise<Out> {
    if (lifecycle.closed || portClosed) return Promise.reject(new RemotePoolClosedError())
    const { signal, timeoutMs, priority } = inferOptions
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (typeof input !== 'object' || input === null) {
      // Let the pool's own validation answer, with its own error.
      return call(input, [])
    }
    const prepared = transferInputs
      ? prepareTransfer(input as Record<string, unknown>)
      : { value: input as Record<string, unknown>, transfer: [] }
    return call(prepared.value, prepared.transfer)

    function call(value: unknown, buffers: ArrayBuffer[]): Promise<Out> {
      const callId = ++nextCallId
      const wire: WireInferOptions = {
        callId,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(priority === undefined ? {} : { priority }),
      }
      let fail!: (error: unknown) => void
      const result = new Promise<Out>((resolve, reject) => {
        let done = false
        const finish = (): boolean => {
          if (done) return false
          done = true
          calls.delete(callId)
          signal?.removeEventListener('abort', onAbort)
          return true
        }
        fail = (error) => {
          if (finish()) reject(error)
        }
        // Settle here at once with the signal's reason; the row in the pool's thread
        // is aborted too, so it leaves the queue instead of running for nobody.
        const onAbort = (): void => {
          fail(signal?.reason)
          remote.abort(callId).catch(() => {})
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        remote.infer(buffers.length > 0 ? transfer(value, buffers) : value, wire).then(
          (output) => {
            if (finish()) resolve(output as Out)
          },
          (error: unknown) => fail(error),
        )
      })
      calls.set(callId, { settled: result.catch(() => {}), fail })
      return result
    }
  }

  /** Aborts every pending call in the pool's thread and rejects it here with `error`. */
  const abandonAll = (error: unknown): void => {
    for (const callId of calls.keys()) remote.abort(callId).catch(() => {})
    failAll(error)
  }
  const settled = async (): Promise<void> => {
    await Promise.all([...calls.values()].map((c) => c.settled))
  }
  const lifecycle = new Lifecycle({
    drain: settled,
    abandon: async () => {
      abandonAll(new RemotePoolClosedError())
      await settled()
    },
    async release() {
      if (!portClosed) {
        // RELEASE makes the exposing side stop listening and close its end; bounded by
        // the port closing in case that side is already gone.
        // (comlink types the release as void; it returns the round trip's promise.)
        const released = Promise.resolve(remote[releaseProxy]() as unknown).catch(() => {})
        await Promise.race([released, onPortClose])
      }
      port.close()
    },
    destroy(error) {
      abandonAll(error ?? new RemotePoolClosedError())
      // Closing our end closes the other end too: the exposing side stops listening.
      port.close()
      return Promise.resolve()
    },
  })

  return {
    infer,
    get metadata() {
      return metadata
    },
    async refreshMetadata() {
      metadata = await remote.metadata()
      return metadata
    },
    readStats: () => remote.stats() as Promise<PoolStats>,
    get pending() {
      return calls.size
    },
    close: (closeOptions) => lifecycle.close(closeOptions),
    destroy: (error) => lifecycle.destroy(error),
    get closed() {
      return lifecycle.closed
    },
    get destroyed() {
      return lifecycle.destroyed
    },
    [Symbol.asyncDispose]: () => lifecycle.close(),
  }
}
