/**
 * `createGrpcService`: `inference.GRPCInferenceService` (the Open Inference Protocol's
 * gRPC form, with Triton's ModelConfig and ModelStatistics) on the pools of an HTTP
 * request handler. The service owns no model state: model lookup, readiness, the
 * bearer token, limits, metrics and the shutdown gates are the handler's, so rows from
 * HTTP and gRPC requests meet in the same pools (and the same batches), and one
 * graceful shutdown drains both.
 *
 * Inference requests are checked by the server's own decoder (through request.ts), once,
 * with the messages HTTP gives; a failure is answered with a gRPC status (status.ts).
 * ModelStreamInfer answers each request with one response carrying its request's id,
 * in completion order; a failing request gets `error_message` (and our code in the
 * response's `inferpool_code` parameter) and the stream goes on.
 */
import { performance } from 'node:perf_hooks'
import type { Metadata, ServerDuplexStream, ServerUnaryCall, UntypedServiceImplementation, sendUnaryData } from '@grpc/grpc-js'
import { servesAny } from '../pool/health.js'
import type { BlockOutput, RowOutput } from '../types.js'
import { MODEL_VERSION } from '../server/encode.js'
import { ModelNotFoundError, ShuttingDownError, UnauthorizedError } from '../server/errors.js'
import { handlerInternals } from '../server/handler.js'
import type { InferpoolRequestHandler } from '../server/handler.js'
import { SERVER_EXTENSIONS, SERVER_NAME, SERVER_VERSION, modelMetadata } from '../server/metadata.js'
import { submitRequest } from '../server/submit-rows.js'
import { modelConfigOf } from '../server/triton/config.js'
import { statsCollectorOf } from '../server/triton/stats.js'
import { createCallGuard } from './call-guard.js'
import type { GrpcCallGuard } from './call-guard.js'
import { GRPC_SERVICE_DEFINITION, inference } from './definition.js'
import { decodeGrpcInferRequest } from './request.js'
import { inferResponse } from './response.js'
import { grpcFailure, statusName } from './status.js'
import type { GrpcFailure } from './status.js'

type Handler = ReturnType<typeof handlerInternals>
type ModelEntry = Handler['models'] extends ReadonlyMap<string, infer E> ? E : never
type InferRequest = inference.ModelInferRequest
type InferResponse = inference.ModelInferResponse.$Properties
type StreamResponse = inference.ModelStreamInferResponse.$Properties

/** The service, ready for `grpc.Server#addService(definition, implementation)`. */
export interface InferpoolGrpcService {
  readonly definition: typeof GRPC_SERVICE_DEFINITION
  readonly implementation: UntypedServiceImplementation
  /**
   * The call guard (call-guard.ts): the bearer token, the body timeout and the
   * pending-bytes budget applied as each call starts, before its message is buffered.
   * Register `guard.interceptor` first in your server's `interceptors` option
   * (`createGrpcServer` does).
   */
  readonly guard: GrpcCallGuard
  /** Unary calls and stream requests being answered now. */
  readonly activeCalls: number
  /**
   * Ends the open ModelStreamInfer streams (UNAVAILABLE, `ERR_SHUTTING_DOWN`) once each
   * has answered the requests it had already sent, and resolves when they have; ends
   * unary calls whose message is still arriving at once (UNAVAILABLE). New requests are
   * refused as soon as the handler closes. A second call returns the same promise.
   */
  close(): Promise<void>
}

/** One open ModelStreamInfer call. */
interface OpenStream {
  /** Requests sent and not yet answered. */
  pending: number
  /** Ends the stream once `pending` is 0 (the client half-closed, or the server closes). */
  endWhenIdle(status?: GrpcFailure): void
}

class GrpcService {
  readonly #inner: Handler
  readonly #streams = new Set<OpenStream>()
  readonly #streamsEnded: Array<() => void> = []
  #active = 0
  #closing: Promise<void> | undefined

  constructor(handler: InferpoolRequestHandler) {
    this.#inner = handlerInternals(handler)
  }

  get activeCalls(): number {
    return this.#active
  }

  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      if (this.#streams.size === 0) return resolve()
      this.#streamsEnded.push(resolve)
      // Each stream gets its own status (its trailing metadata is sent with it).
      for (const stream of [...this.#streams]) stream.endWhenIdle(this.#failure(new ShuttingDownError()))
    })
    return this.#closing
  }

  /** How a failure is answered (and logged when it is INTERNAL). */
  #failure(error: unknown): GrpcFailure {
    const options = this.#inner.options
    return grpcFailure(error, options.retryAfterSeconds * 1000, options.logger)
  }

  #authorized(metadata: Metadata): boolean {
    return this.#inner.authorizedBearer(metadata.get('authorization')[0]?.toString())
  }

  #entry(name: string, version: string): ModelEntry {
    const entry = this.#inner.models.get(name)
    // An empty version means "the server's choice": the one version served.
    if (entry === undefined || (version !== '' && version !== MODEL_VERSION)) {
      throw new ModelNotFoundError(name, version === '' ? undefined : version)
    }
    return entry
  }

  /** A unary RPC: counted as active, authorized unless `open`, every outcome answered. */
  #unary<Req, Res>(
    open: boolean,
    answer: (request: Req, call: ServerUnaryCall<Req, Res>) => Res | Promise<Res>,
  ): (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void {
    return (call, callback) => {
      this.#inner.active.enter()
      this.#active++
      const settle = (error: GrpcFailure | null, response?: Res): void => {
        this.#active--
        this.#inner.active.leave()
        callback(error, response)
      }
      new Promise<Res>((resolve) => {
        if (!open && !this.#authorized(call.metadata)) throw new UnauthorizedError()
        resolve(answer(call.request, call))
      }).then(
        (response) => settle(null, response),
        (error: unknown) => settle(this.#failure(error)),
      )
    }
  }

  /**
   * One inference request, from a unary call or a stream: checked, its rows handed to
   * the pool (aborted with `signal`), the answer built. Records the request metrics.
   */
  async #infer(request: InferRequest, signal: AbortSignal, deadline: number): Promise<InferResponse> {
    const started = performance.now()
    const inner = this.#inner
    let rows = 0
    let entry: ModelEntry | undefined
    let stats: ReturnType<typeof statsCollectorOf> | undefined
    inner.admitting.enter()
    let admitted = true
    const admit = (): void => {
      if (admitted) {
        admitted = false
        inner.admitting.leave()
      }
    }
    try {
      entry = this.#entry(request.model_name, request.model_version)
      if (inner.closing) throw new ShuttingDownError()
      const pool = inner.poolOf(entry)
      stats = statsCollectorOf(pool)
      const decoded = decodeGrpcInferRequest(request, pool.metadata, { maxRows: inner.options.maxRowsPerRequest })
      rows = decoded.rowCount
      const timeoutMs = timeoutOf(inner.options.timeoutMs, deadline)
      let results: RowOutput[] | BlockOutput
      if (rows === 1) {
        // One row has no siblings to abort when it fails: the call's (or stream's) own
        // signal is enough, and single-row requests skip an AbortController each.
        const pending = pool.infer(decoded.rows[0], { signal, timeoutMs })
        admit()
        results = [await pending]
      } else {
        // All the request's rows or none, one signal for all, as one block where the pool takes one (as over HTTP).
        const pending = submitRequest(pool, decoded, { signal, timeoutMs })
        admit()
        results = await pending
      }
      const response = inferResponse(
        entry.name,
        decoded.id,
        decoded.outputs.map((output) => output.name),
        results,
      )
      const ms = performance.now() - started
      inner.metrics.request(entry.name, 'grpc', 'OK', ms / 1000, rows, undefined)
      stats.request({ ok: true, rows, durationNs: ms * 1e6 })
      return response
    } catch (error) {
      const ms = performance.now() - started
      if (entry !== undefined) {
        // Only counted here; the caller answers (and logs) it.
        const failure = grpcFailure(error, 0)
        const status = signal.aborted ? 'CANCELLED' : statusName(failure.code)
        const code = signal.aborted ? undefined : failure.errorCode
        inner.metrics.request(entry.name, 'grpc', status, ms / 1000, rows, code)
      }
      stats?.request({ ok: false, rows, durationNs: ms * 1e6 })
      throw error
    } finally {
      admit()
    }
  }

  #streamInfer(call: ServerDuplexStream<InferRequest, StreamResponse>): void {
    if (!this.#authorized(call.metadata)) {
      call.emit('error', this.#failure(new UnauthorizedError()))
      return
    }
    const controller = new AbortController()
    let halfClosed = false
    let ended = false
    let endStatus: GrpcFailure | undefined
    const end = (): void => {
      if (ended) return
      ended = true
      this.#streams.delete(stream)
      if (!call.cancelled && !call.destroyed) {
        if (endStatus === undefined) call.end()
        else call.emit('error', endStatus)
      }
      if (this.#streams.size === 0) for (const wake of this.#streamsEnded.splice(0)) wake()
    }
    const stream: OpenStream = {
      pending: 0,
      endWhenIdle: (status) => {
        endStatus ??= status
        if (stream.pending === 0) end()
      },
    }
    this.#streams.add(stream)
    if (this.#closing !== undefined) stream.endWhenIdle(this.#failure(new ShuttingDownError()))

    call.on('cancelled', () => {
      controller.abort()
      end()
    })
    // A failed write (the peer went away) also shows as 'cancelled'; never unhandled.
    call.on('error', () => {})
    call.on('end', () => {
      halfClosed = true
      stream.endWhenIdle()
    })
    call.on('data', (request: InferRequest) => {
      if (ended) return
      stream.pending++
      this.#inner.active.enter()
      this.#active++
      // Never rejects: both outcomes become a response.
      void this.#infer(request, controller.signal, deadlineOf(call))
        .then(
          (response): StreamResponse => ({ error_message: '', infer_response: response }),
          (error: unknown): StreamResponse => {
            const failure = this.#failure(error)
            return {
              error_message: failure.details,
              infer_response: {
                model_name: request.model_name,
                model_version: request.model_version,
                id: request.id,
                parameters: { inferpool_code: { string_param: failure.errorCode } },
              },
            }
          },
        )
        .then((response) => {
          if (!ended && !call.cancelled) call.write(response)
          stream.pending--
          this.#active--
          this.#inner.active.leave()
          if (halfClosed || endStatus !== undefined) stream.endWhenIdle()
        })
    })
  }

  readonly implementation: UntypedServiceImplementation = {
    ServerLive: this.#unary(true, (): inference.ServerLiveResponse.$Properties => ({ live: true })),
    ServerReady: this.#unary(true, (): inference.ServerReadyResponse.$Properties => ({
      ready: !this.#inner.closing && [...this.#inner.models.values()].every((e) => e.state.kind === 'ready' && servesAny(e.state.pool)),
    })),
    ModelReady: this.#unary(false, (request: inference.ModelReadyRequest): inference.ModelReadyResponse.$Properties => {
      const entry = this.#entry(request.name, request.version)
      return { ready: !this.#inner.closing && entry.state.kind === 'ready' && servesAny(entry.state.pool) }
    }),
    ServerMetadata: this.#unary(false, (): inference.ServerMetadataResponse.$Properties => ({
      name: SERVER_NAME,
      version: SERVER_VERSION,
      extensions: [...SERVER_EXTENSIONS],
    })),
    ModelMetadata: this.#unary(false, (request: inference.ModelMetadataRequest): inference.ModelMetadataResponse.$Properties => {
      const entry = this.#entry(request.name, request.version)
      return modelMetadata(entry.name, this.#inner.poolOf(entry).metadata)
    }),
    ModelInfer: this.#unary(false, (request: InferRequest, call) => {
      const controller = new AbortController()
      call.once('cancelled', () => controller.abort())
      return this.#infer(request, controller.signal, deadlineOf(call))
    }),
    ModelStreamInfer: (call: ServerDuplexStream<InferRequest, StreamResponse>) => this.#streamInfer(call),
    ModelConfig: this.#unary(false, (request: inference.ModelConfigRequest): inference.ModelConfigResponse.$Properties => {
      const entry = this.#entry(request.name, request.version)
      // The JSON form HTTP answers with, mapped onto the generated message (enum names
      // and 64-bit numbers are what fromObject takes).
      return { config: inference.ModelConfig.fromObject(modelConfigOf(entry.name, this.#inner.poolOf(entry))) }
    }),
    ModelStatistics: this.#unary(false, (request: inference.ModelStatisticsRequest): inference.ModelStatisticsResponse.$Properties => {
      // No name: every model that has loaded.
      const entries = request.name === '' ? [...this.#inner.models.values()] : [this.#entry(request.name, request.version)]
      const ready = entries.filter((entry) => request.name !== '' || entry.state.kind === 'ready')
      return {
        model_stats: ready.map((entry) => statsCollectorOf(this.#inner.poolOf(entry)).snapshot(entry.name, MODEL_VERSION)),
      }
    }),
  }
}

/** The call's deadline in ms since the epoch, Infinity without one. */
function deadlineOf(call: { getDeadline(): Date | number }): number {
  const deadline = call.getDeadline()
  return deadline instanceof Date ? deadline.getTime() : deadline
}

/**
 * The rows' timeout: the handler's, shortened to the call's deadline so rows the
 * client no longer waits for leave the queue. (The client's own timer answers
 * DEADLINE_EXCEEDED at the deadline either way.)
 */
function timeoutOf(handlerTimeoutMs: number | undefined, deadline: number): number | undefined {
  if (!Number.isFinite(deadline)) return handlerTimeoutMs
  const left = Math.max(1, deadline - Date.now())
  return handlerTimeoutMs === undefined ? left : Math.min(handlerTimeoutMs, left)
}

/**
 * Creates the gRPC service over the pools of an HTTP handler made by
 * `createRequestHandler`, to register in your own `@grpc/grpc-js` server (or use
 * `createGrpcServer`):
 *
 * ```ts
 * const handler = createRequestHandler({ mymodel: pool })
 * const service = createGrpcService(handler)
 * grpcServer.addService(service.definition, service.implementation)
 * ```
 */
export function createGrpcService(handler: InferpoolRequestHandler): InferpoolGrpcService {
  const inner = new GrpcService(handler)
  const internals = handlerInternals(handler)
  const guard = createCallGuard({
    authorized: (authorization) => internals.authorizedBearer(authorization),
    bodyTimeoutMs: internals.options.bodyTimeoutMs,
    budget: internals.pendingBodyBytes,
    failure: (error) => grpcFailure(error, internals.options.retryAfterSeconds * 1000, internals.options.logger),
  })
  return {
    definition: GRPC_SERVICE_DEFINITION,
    implementation: inner.implementation,
    guard,
    get activeCalls() {
      return inner.activeCalls
    },
    close: () => {
      // As over HTTP, a unary request still arriving is not waited for.
      guard.endArriving(new ShuttingDownError())
      return inner.close()
    },
  }
}
