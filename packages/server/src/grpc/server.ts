/**
 * `createGrpcServer`: a `@grpc/grpc-js` server (HTTP/2, no TLS) serving one
 * `createGrpcService`, with the message-size limits set and a shutdown that lets calls
 * in progress finish.
 */
import { Server, ServerCredentials } from '@grpc/grpc-js'
import { checkInteger } from '../protocol/options.js'
import type { InferpoolGrpcService } from './service.js'

export interface GrpcServerOptions {
  /**
   * TCP port; 0 picks a free one (read it from `address`).
   * @default 8001 (Triton's gRPC port)
   */
  port?: number
  /**
   * Address to bind.
   * @default '127.0.0.1'
   */
  host?: string
  /**
   * Largest message received or sent, in bytes. A larger request is refused with
   * RESOURCE_EXHAUSTED before it is decoded.
   * @default 16777216 (16 MiB, the HTTP handler's default `maxBodyBytes`)
   */
  maxMessageBytes?: number
  /**
   * Most calls one HTTP/2 connection may have open at once (the connection's
   * SETTINGS_MAX_CONCURRENT_STREAMS); a client opens more only once some end. Bounds
   * what one connection can hold: streams × what each may hold (see `maxPendingBodyBytes`).
   * @default 100
   */
  maxConcurrentStreams?: number
}

export const GRPC_SERVER_DEFAULTS = {
  port: 8001,
  host: '127.0.0.1',
  maxMessageBytes: 16 * 1024 * 1024,
  maxConcurrentStreams: 100,
} as const

export interface InferpoolGrpcServer {
  readonly server: Server
  readonly service: InferpoolGrpcService
  /** `host:port` once listening, else `undefined`. */
  readonly address: string | undefined
  /** Binds `options.host:options.port`; resolves with `host:port`. */
  listen(): Promise<string>
  /**
   * Refuses new calls at once, ends open streams once they have answered what they
   * were sent, and resolves when every call has finished. `force` cancels the calls
   * still running instead.
   */
  close(options?: { force?: boolean }): Promise<void>
}

function formatAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
}

/** Validates the options once; throws naming the option and echoing the bad value. */
export function resolveGrpcServerOptions(options: GrpcServerOptions = {}): Required<GrpcServerOptions> {
  const port = checkInteger('grpcPort', options.port ?? GRPC_SERVER_DEFAULTS.port, 0)
  if (port > 65535) throw new RangeError(`Expected \`grpcPort\` to be an integer in [0, 65535], got \`${port}\``)
  const host = options.host ?? GRPC_SERVER_DEFAULTS.host
  if (typeof host !== 'string' || host.length === 0) {
    throw new TypeError(`Expected \`host\` to be a non-empty string, got \`${String(host)}\``)
  }
  const maxMessageBytes = checkInteger('maxMessageBytes', options.maxMessageBytes ?? GRPC_SERVER_DEFAULTS.maxMessageBytes, 1)
  const maxConcurrentStreams = checkInteger(
    'maxConcurrentStreams',
    options.maxConcurrentStreams ?? GRPC_SERVER_DEFAULTS.maxConcurrentStreams,
    1,
    2 ** 31 - 1,
  )
  return { port, host, maxMessageBytes, maxConcurrentStreams }
}

/** Creates (but does not start) a gRPC server for `service`. */
export function createGrpcServer(service: InferpoolGrpcService, options: GrpcServerOptions = {}): InferpoolGrpcServer {
  const { port, host, maxMessageBytes, maxConcurrentStreams } = resolveGrpcServerOptions(options)
  const server = new Server({
    'grpc.max_receive_message_length': maxMessageBytes,
    'grpc.max_send_message_length': maxMessageBytes,
    'grpc.max_concurrent_streams': maxConcurrentStreams,
    // First: the token, the body timeout and the byte budget, before a message is buffered.
    interceptors: [service.guard.interceptor],
  })
  server.addService(service.definition, service.implementation)
  let address: string | undefined
  let closing: Promise<void> | undefined
  return {
    server,
    service,
    get address() {
      return address
    },
    listen() {
      return new Promise<string>((resolve, reject) => {
        server.bindAsync(formatAddress(host, port), ServerCredentials.createInsecure(), (error, bound) => {
          if (error !== null) return reject(error)
          address = formatAddress(host, bound)
          resolve(address)
        })
      })
    },
    close({ force = false } = {}) {
      if (force) {
        // Cancels every call now ('cancelled' on each, so streams and rows are aborted).
        server.forceShutdown()
        return Promise.resolve()
      }
      closing ??= new Promise<void>((resolve) => {
        // tryShutdown refuses new calls now and calls back once the open ones end; the
        // service ends its open streams once they are idle.
        server.tryShutdown(() => resolve())
        void service.close()
      })
      return closing
    },
  }
}
