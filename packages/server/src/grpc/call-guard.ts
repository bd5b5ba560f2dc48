/**
 * The gRPC call guard: a grpc-js server interceptor that gives every call, before any
 * of its message bytes is buffered, the limits HTTP gives every request before its body
 * is read. grpc-js itself reads a message whole before the service sees it, with no time
 * limit and no authentication, so without the guard a client could pin up to
 * `maxMessageBytes` per call, for as long as it liked, without the key.
 *
 * - The bearer token is checked from the call's metadata as the call starts. A call
 *   without it is answered UNAUTHENTICATED (`ERR_UNAUTHORIZED`) before grpc-js starts
 *   reading the stream: grpc-js keeps a call's HTTP/2 stream paused until its handler
 *   asks for a message, and an interceptor that does not pass the metadata on never
 *   lets it ask (docs/runtime-facts.md). Health RPCs stay open, as `/v2/health/*` does.
 * - A request must arrive within `bodyTimeoutMs`: a unary call's message and half-close
 *   from the call's start, each message of a stream from its first byte. Past it the
 *   call ends with DEADLINE_EXCEEDED and `ERR_REQUEST_TIMEOUT`, HTTP's 408.
 * - Every byte of a request still arriving is taken from the served models' pending-bytes
 *   budget (../protocol/pending-body-bytes.ts), shared with HTTP bodies; a call whose next
 *   bytes do not fit is ended UNAVAILABLE (`ERR_PENDING_BODY_BYTES_FULL`). A message's
 *   bytes are given back once the service has taken it through the door
 *   (`passedDoor`), or the call ends: a request parked for room still holds them.
 *
 * Every status sent to a client that has not half-closed — the guard's own, or the
 * service's (a stream ended by a shutdown) — is followed by RST_STREAM(NO_ERROR), so a
 * client still sending stops (HTTP/2 allows a server to ask that once its response is
 * complete) and the stream frees its slot of the connection's concurrent streams.
 * Without it a stream whose client never half-closes (idle, or a message half-sent)
 * stays open after its status, and a draining shutdown waits for it until forced.
 *
 * grpc-js tells an interceptor of a message only once it is whole; the bytes as they
 * arrive are read from the call's HTTP/2 stream, which grpc-js's base call keeps as its
 * `stream` field (not public API: docs/runtime-facts.md, checked by the tests).
 */
import { constants as http2 } from 'node:http2'
import type { ServerHttp2Stream } from 'node:http2'
import { ServerInterceptingCall } from '@grpc/grpc-js'
import type { Metadata, ServerInterceptingCallInterface, ServerInterceptor, StatusObject } from '@grpc/grpc-js'
import { RequestTimeoutError, UnauthorizedError } from '../protocol/errors.js'
import type { PendingBodyBytes, PendingBodyHold } from '../protocol/pending-body-bytes.js'
import { MessageFraming } from './message-framing.js'

/** RPCs that answer without a token (the health checks, as HTTP's `/v2/health/*`). */
const OPEN_RPCS: ReadonlySet<string> = new Set(['ServerLive', 'ServerReady'])
/** RPCs that take the repository token instead of the inference bearer (as HTTP's `/v2/repository/*`). */
const REPOSITORY_RPCS: ReadonlySet<string> = new Set(['RepositoryIndex', 'RepositoryModelLoad', 'RepositoryModelUnload'])

/** The two tokens a call may carry; `ServedModels` decides both. */
export interface CallCredentials {
  /** The inference bearer (`apiKey`), or none required. */
  authorized(authorization: string | undefined): boolean
  /** The repository token (`repositoryToken`), or none required. */
  authorizedControl(authorization: string | undefined): boolean
}

export interface CallGuardOptions {
  /** Whether an `authorization` value may call the RPC at `path` (`mayCall`). */
  authorized(path: string, authorization: string | undefined): boolean
  /** Longest time for a request (a unary call's, or one stream message) to arrive, in ms. */
  bodyTimeoutMs: number
  /** The budget of bytes held by requests still arriving, shared with HTTP. */
  budget: PendingBodyBytes
  /** How an error ends a call (status, message, our code in the trailers). */
  failure(error: unknown): StatusObject
}

export interface GrpcCallGuard {
  /** Register in the server's `interceptors` option, first. */
  readonly interceptor: ServerInterceptor
  /**
   * The request `message` (as the service received it) has passed the door, or failed
   * before it: its bytes leave the pending-bytes budget. Until then a request parked
   * for room holds them, as an HTTP body still arriving does. (A call that ends first
   * gives them back as it ends.)
   */
  passedDoor(message: object): void
  /**
   * The guard authorized the call that carries `metadata` as it started (the same
   * object reaches the service when the guard is the first interceptor): the service
   * need not hash its bearer a second time. False for any other metadata, which the
   * service then checks itself.
   */
  vouchedFor(metadata: Metadata): boolean
}

/** The call's HTTP/2 stream, from grpc-js's base call at the end of the interceptor chain. */
function http2StreamOf(call: ServerInterceptingCallInterface): ServerHttp2Stream | undefined {
  let at: unknown = call
  for (let depth = 0; depth < 32 && typeof at === 'object' && at !== null; depth++) {
    const stream = (at as { stream?: unknown }).stream
    if (typeof stream === 'object' && stream !== null && 'respond' in stream && 'session' in stream) return stream as ServerHttp2Stream
    at = (at as { nextCall?: unknown }).nextCall
  }
  return undefined
}

/**
 * Asks a client still sending to stop (RST_STREAM with NO_ERROR), once the status is on
 * its way: a trailers-only status was queued already; trailers after response headers
 * are written when the stream asks for them ('wantTrailers'), and a reset before that
 * would drop them.
 */
function resetAfterStatus(stream: ServerHttp2Stream, trailersOnly: boolean): void {
  const reset = (): void => {
    if (!stream.closed && !stream.destroyed) stream.close(http2.NGHTTP2_NO_ERROR)
  }
  if (trailersOnly) reset()
  // grpc-js writes the trailers from its own 'wantTrailers' listener, in the same emit.
  else stream.once('wantTrailers', () => setImmediate(reset))
}

/**
 * Whether an `authorization` value may call the RPC at `path`
 * (`'/inference.GRPCInferenceService/ServerLive'`): the health RPCs are open, the
 * repository RPCs take the repository token, every other the inference bearer. The one
 * rule both the guard and the service read.
 */
export function mayCall(credentials: CallCredentials, path: string, authorization: string | undefined): boolean {
  const rpc = path.slice(path.lastIndexOf('/') + 1)
  if (OPEN_RPCS.has(rpc)) return true
  return REPOSITORY_RPCS.has(rpc) ? credentials.authorizedControl(authorization) : credentials.authorized(authorization)
}

export function createCallGuard(options: CallGuardOptions): GrpcCallGuard {
  const { authorized, bodyTimeoutMs, budget, failure } = options
  /** Gives a delivered request message's bytes back, by the message. */
  const heldUntilDoor = new WeakMap<object, () => void>()
  /** Metadata of calls this guard authorized (`vouchedFor`). */
  const vouched = new WeakSet<Metadata>()

  const interceptor: ServerInterceptor = (method, next) => {
    const unary = !method.requestStream
    const framing = new MessageFraming()
    /** Each message's hold, from its first byte until it passes the door (or the call ends). */
    const holds = new Set<PendingBodyHold>()
    /** The hold of the message arriving now. */
    let hold: PendingBodyHold | undefined
    /** Holds of messages complete on the wire, not yet delivered by grpc-js (in order). */
    const complete: PendingBodyHold[] = []
    let stream: ServerHttp2Stream | undefined
    let timer: NodeJS.Timeout | undefined
    let done = false

    const stopTimer = (): void => {
      clearTimeout(timer)
      timer = undefined
    }
    const startTimer = (): void => {
      stopTimer()
      timer = setTimeout(() => end(new RequestTimeoutError(bodyTimeoutMs)), bodyTimeoutMs)
    }
    /** The request has arrived: no longer timed. */
    const arrived = (): void => {
      stopTimer()
    }
    const finish = (): void => {
      if (done) return
      done = true
      arrived()
      for (const held of holds) held.release()
      holds.clear()
      stream?.off('data', onData)
    }
    const end = (error: unknown): void => {
      if (!done) call.sendStatus(failure(error))
    }
    const events = {
      started: () => {
        hold = budget.hold()
        holds.add(hold)
        if (!unary) startTimer()
      },
      bytes: (bytes: number) => hold?.take(bytes),
      completed: () => {
        if (hold !== undefined) complete.push(hold)
        hold = undefined
        if (!unary) arrived()
      },
    }
    function onData(chunk: Buffer): void {
      if (done) return
      try {
        framing.feed(chunk, events)
      } catch (error) {
        end(error)
      }
    }

    const call: ServerInterceptingCall = new ServerInterceptingCall(next, {
      start: (startNext) =>
        startNext({
          onReceiveMetadata: (metadata, metadataNext) => {
            if (!authorized(method.path, metadata.get('authorization')[0]?.toString())) return end(new UnauthorizedError())
            vouched.add(metadata)
            stream = http2StreamOf(next)
            if (stream === undefined) {
              return end(new Error('inferpool: the gRPC call guard found no HTTP/2 stream on the call (a grpc-js change?)'))
            }
            stream.on('data', onData)
            if (unary) startTimer()
            metadataNext(metadata)
          },
          onReceiveMessage: (message: unknown, messageNext) => {
            const held = complete.shift()
            if (held !== undefined) {
              const release = (): void => {
                held.release()
                holds.delete(held)
              }
              // Kept until the service says the request passed the door (`passedDoor`).
              if (typeof message === 'object' && message !== null) heldUntilDoor.set(message, release)
              else release()
            }
            messageNext(message)
          },
          onReceiveHalfClose: (halfCloseNext) => {
            if (unary) arrived()
            halfCloseNext()
          },
          onCancel: finish,
        }),
      sendStatus: (status, statusNext) => {
        finish()
        const http2Stream = stream ?? http2StreamOf(next)
        const trailersOnly = http2Stream?.headersSent === false
        // The peer's END_STREAM as the HTTP/2 session has it (the call may not have read that far).
        const halfClosed = http2Stream?.state.remoteClose === 1
        statusNext(status)
        if (http2Stream !== undefined && !halfClosed) resetAfterStatus(http2Stream, trailersOnly)
      },
    })
    return call
  }

  return {
    interceptor,
    passedDoor(message) {
      heldUntilDoor.get(message)?.()
      heldUntilDoor.delete(message)
    },
    vouchedFor(metadata) {
      return vouched.has(metadata)
    },
  }
}
