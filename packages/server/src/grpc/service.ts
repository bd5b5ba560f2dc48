/**
 * `createGrpcService`: `inference.GRPCInferenceService` (the Open Inference Protocol's
 * gRPC form, with Triton's ModelConfig and ModelStatistics) on served models
 * (served-models.ts), the ones an HTTP handler serves too. The service owns no model
 * state: model lookup, readiness, the bearer token, the door, limits, metrics and the
 * shutdown gates are the served models', so rows from HTTP and gRPC requests meet in the
 * same pools (and the same batches), both protocols give the same answers, and one
 * graceful shutdown drains both.
 *
 * An inference request takes the steps HTTP's take, in the same order: its exchange
 * (../protocol/exchange.ts; gRPC's side in infer-exchange.ts) counts it at the pool's
 * door from the shapes its inputs declare, before its contents are decoded — a request
 * the queue cannot take is refused UNAVAILABLE with a retry hint without that work —
 * then it is checked by the server's own decoder (through request.ts), once, with the
 * messages HTTP gives; a failure is answered with a gRPC status (status.ts).
 * ModelStreamInfer answers each request with one response carrying its request's id,
 * in completion order; a failing request gets `error_message` (and our code in the
 * response's `inferpool_code` parameter) and the stream goes on.
 */
import { ServerInterceptingCall } from '@grpc/grpc-js'
import type {
  Metadata,
  ServerDuplexStream,
  ServerInterceptor,
  ServerUnaryCall,
  UntypedServiceImplementation,
  sendUnaryData,
} from '@grpc/grpc-js'
import { ShuttingDownError, UnauthorizedError } from '../protocol/errors.js'
import { SERVER_NAME, SERVER_VERSION, modelMetadata } from '../protocol/metadata.js'
import { repositoryIndex, repositoryModelLoad, repositoryModelUnload } from './repository-rpcs.js'
import { ServedModels } from '../protocol/served-models.js'
import type { ServedModel } from '../protocol/served-models.js'
import { modelConfigOf } from '../protocol/triton/config.js'
import { createCallGuard, mayCall } from './call-guard.js'
import type { GrpcCallGuard } from './call-guard.js'
import { GRPC_SERVICE_DEFINITION, inference } from './definition.js'
import { GrpcExchange } from './infer-exchange.js'
import type { GrpcExchangeContext } from './infer-exchange.js'
import { grpcFailure, statusName } from './status.js'
import type { GrpcFailure } from './status.js'

type InferRequest = inference.ModelInferRequest
type InferResponse = inference.ModelInferResponse.$Properties
type StreamResponse = inference.ModelStreamInferResponse.$Properties

/** The service, ready for `grpc.Server#addService(definition, implementation)`. */
export interface InferpoolGrpcService {
  readonly definition: typeof GRPC_SERVICE_DEFINITION
  readonly implementation: UntypedServiceImplementation
  /**
   * The call guard (call-guard.ts): the bearer token, the body timeout and the
   * pending-bytes budget applied as each call starts, before its message is buffered;
   * and, outside it, a unary ModelInfer call's exchange begun as the call arrives.
   * Register `guard.interceptor` first in your server's `interceptors` option
   * (`createGrpcServer` does).
   */
  readonly guard: GrpcCallGuard
  /** Unary calls and stream requests being answered now. */
  readonly activeCalls: number
  /**
   * Ends the open ModelStreamInfer streams (UNAVAILABLE, `ERR_SHUTTING_DOWN`) once each
   * has answered the requests it had already sent, and resolves when they have. A unary
   * call that arrived before the served models closed is served, its message still
   * arriving or not (the body timeout ends a stalled one); requests arriving after are
   * refused. A second call returns the same promise.
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
  readonly #served: ServedModels
  readonly #streams = new Set<OpenStream>()
  readonly #streamsEnded: Array<() => void> = []
  /** Retry hints (seconds) of refusals for lack of room, by error: from the refused pool's drain rate. */
  readonly #retryAfter = new WeakMap<object, number>()
  #active = 0
  #closing: Promise<void> | undefined

  /** What every inference exchange shares (made once). */
  readonly #exchanges: GrpcExchangeContext

  /** The call guard's `vouchedFor`: it authorized this call already. */
  readonly #vouchedFor: (metadata: Metadata) => boolean

  constructor(served: ServedModels, guard: Pick<GrpcCallGuard, 'passedDoor' | 'vouchedFor'>) {
    this.#served = served
    this.#exchanges = { limits: { maxRows: served.options.maxRowsPerRequest }, passedDoor: (request) => guard.passedDoor(request) }
    this.#vouchedFor = (metadata) => guard.vouchedFor(metadata)
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
    const options = this.#served.options
    const seconds = (typeof error === 'object' && error !== null && this.#retryAfter.get(error)) || options.retryAfterSeconds
    return grpcFailure(error, seconds * 1000, options.logger)
  }

  /**
   * Whether the call may be answered (`mayCall`: an open RPC, the repository token or
   * the inference bearer). The call guard decided this already as the call started; the
   * service asks again (the same rule) because its
   * `implementation` can be added to a server that does not register the guard's
   * interceptor, and a forgotten interceptor must not serve models without the key.
   * A call the guard did authorize is not checked twice (each check hashes the bearer).
   */
  #authorized(call: { readonly metadata: Metadata; getPath(): string }): boolean {
    if (this.#vouchedFor(call.metadata)) return true
    return mayCall(this.#served, call.getPath(), call.metadata.get('authorization')[0]?.toString())
  }

  /**
   * The exchanges of unary ModelInfer calls, begun as each call arrived (its headers), by
   * the call's metadata (`passingOnArrival`): one that arrived while the served models were
   * open is accepted work from then on, as an HTTP request from its headers — a draining
   * shutdown waits for its message and serves it.
   */
  readonly arrivals = new WeakMap<Metadata, GrpcExchange>()

  /** A unary call's exchange, begun as it arrived (`passingOnArrival`). */
  startExchange(): GrpcExchange {
    return new GrpcExchange(this.#served, this.#exchanges)
  }

  /** The model a request names; an empty version means "the server's choice". */
  #model(name: string, version: string): ServedModel {
    return this.#served.model(name, version === '' ? undefined : version)
  }

  /** A unary RPC: counted as active, authorized, every outcome answered. */
  #unary<Req, Res>(
    answer: (request: Req, call: ServerUnaryCall<Req, Res>) => Res | Promise<Res>,
  ): (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void {
    return (call, callback) => {
      const active = this.#served.active
      active.enter()
      this.#active++
      const settle = (error: GrpcFailure | null, response?: Res): void => {
        this.#active--
        active.leave()
        callback(error, response)
      }
      new Promise<Res>((resolve) => {
        if (!this.#authorized(call)) throw new UnauthorizedError()
        resolve(answer(call.request, call))
      }).then(
        (response) => settle(null, response),
        (error: unknown) => settle(this.#failure(error)),
      )
    }
  }

  /**
   * One inference request, from a unary call (its exchange started with the call:
   * `passingOnArrival`) or a stream: its exchange (infer-exchange.ts) takes it from the
   * door to the response. Records the request metrics.
   */
  async #infer(
    request: InferRequest,
    metadata: Metadata,
    signal: AbortSignal,
    deadline: number,
    arrival: GrpcExchange | undefined,
  ): Promise<InferResponse> {
    // A request without an exchange from its arrival (a stream's, or a call the guard did
    // not see) arrives now, with its message.
    const exchange = arrival ?? new GrpcExchange(this.#served, this.#exchanges)
    exchange.request = request
    exchange.metadata = metadata
    let response: InferResponse
    try {
      response = await exchange.run({ model: this.#model(request.model_name, request.model_version), signal, deadline })
    } catch (error) {
      const retryAfter = exchange.retryAfterSeconds
      if (retryAfter !== undefined && typeof error === 'object' && error !== null) this.#retryAfter.set(error, retryAfter)
      if (exchange.model === undefined) exchange.finish('grpc', '', false, undefined)
      else {
        // Only counted here; the caller answers (and logs) it.
        const failure = grpcFailure(error, 0)
        const status = signal.aborted ? 'CANCELLED' : statusName(failure.code)
        exchange.finish('grpc', status, false, signal.aborted ? undefined : failure.errorCode)
      }
      throw error
    }
    exchange.finish('grpc', 'OK', true, undefined)
    return response
  }

  #streamInfer(call: ServerDuplexStream<InferRequest, StreamResponse>): void {
    if (!this.#authorized(call)) {
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
      this.#served.active.enter()
      this.#active++
      // Never rejects: both outcomes become a response.
      // A stream's request arrives with its message: one sent after the close is refused.
      void this.#infer(request, call.metadata, controller.signal, deadlineOf(call), undefined)
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
          this.#served.active.leave()
          if (halfClosed || endStatus !== undefined) stream.endWhenIdle()
        })
    })
  }

  readonly implementation: UntypedServiceImplementation = {
    ServerLive: this.#unary((): inference.ServerLiveResponse.$Properties => ({ live: true })),
    ServerReady: this.#unary((): inference.ServerReadyResponse.$Properties => ({
      ready: this.#served.isReady(),
    })),
    ModelReady: this.#unary((request: inference.ModelReadyRequest): inference.ModelReadyResponse.$Properties => ({
      ready: this.#served.isModelReady(request.name, request.version === '' ? undefined : request.version),
    })),
    ServerMetadata: this.#unary((): inference.ServerMetadataResponse.$Properties => ({
      name: SERVER_NAME,
      version: SERVER_VERSION,
      extensions: [...this.#served.extensions],
    })),
    ModelMetadata: this.#unary((request: inference.ModelMetadataRequest): inference.ModelMetadataResponse.$Properties => {
      const model = this.#model(request.name, request.version)
      return modelMetadata(model.name, this.#served.versionsOf(model), this.#served.poolOf(model).metadata)
    }),
    ModelInfer: this.#unary((request: InferRequest, call) => {
      const controller = new AbortController()
      call.once('cancelled', () => controller.abort())
      return this.#infer(request, call.metadata, controller.signal, deadlineOf(call), this.arrivals.get(call.metadata))
    }),
    ModelStreamInfer: (call: ServerDuplexStream<InferRequest, StreamResponse>) => this.#streamInfer(call),
    ModelConfig: this.#unary((request: inference.ModelConfigRequest): inference.ModelConfigResponse.$Properties => {
      const model = this.#model(request.name, request.version)
      // The JSON form HTTP answers with, mapped onto the generated message (enum names
      // and 64-bit numbers are what fromObject takes).
      return { config: inference.ModelConfig.fromObject(modelConfigOf(model.name, this.#served.poolOf(model))) }
    }),
    ModelStatistics: this.#unary((request: inference.ModelStatisticsRequest): inference.ModelStatisticsResponse.$Properties => {
      // No name: every model that has loaded.
      const model = request.name === '' ? undefined : this.#model(request.name, request.version)
      return { model_stats: this.#served.statistics(model) }
    }),
    // These take the repository token instead of the inference bearer (mayCall).
    RepositoryIndex: this.#unary((request: inference.RepositoryIndexRequest) => repositoryIndex(this.#served, request)),
    RepositoryModelLoad: this.#unary((request: inference.RepositoryModelLoadRequest) => repositoryModelLoad(this.#served, request)),
    RepositoryModelUnload: this.#unary((request: inference.RepositoryModelUnloadRequest) => repositoryModelUnload(this.#served, request)),
  }
}

/** The call's deadline in ms since the epoch, Infinity without one. */
function deadlineOf(call: { getDeadline(): Date | number }): number {
  const deadline = call.getDeadline()
  return deadline instanceof Date ? deadline.getTime() : deadline
}

/** The one unary inference RPC, whose message may still be arriving when a shutdown begins. */
const MODEL_INFER_PATH = '/inference.GRPCInferenceService/ModelInfer'

/**
 * The guard's interceptor, outside which each unary ModelInfer call begins its exchange
 * as it arrives (`service.arrivals`, by its metadata): from its arrival it counts in the
 * `admitting` gate a draining shutdown waits on, and one that arrived while the served
 * models were open is served, as an HTTP request is from its headers — its message is
 * waited for. The exchange gives its place back as the call ends (grpc-js tells
 * `onCancel` after every status). A call the guard refuses never reaches it (its
 * metadata is not passed on).
 */
function passingOnArrival(guard: ServerInterceptor, service: GrpcService): ServerInterceptor {
  return (method, next) => {
    const call = guard(method, next)
    if (method.path !== MODEL_INFER_PATH || method.requestStream) return call
    let exchange: GrpcExchange | undefined
    return new ServerInterceptingCall(call, {
      start: (startNext) =>
        startNext({
          onReceiveMetadata: (metadata, metadataNext) => {
            exchange = service.startExchange()
            service.arrivals.set(metadata, exchange)
            metadataNext(metadata)
          },
          onCancel: () => exchange?.through(),
        }),
    })
  }
}

/**
 * Creates the gRPC service over served models — the ones an HTTP handler made by
 * `createRequestHandler` serves (pass the handler, or its `served`) — to register in
 * your own `@grpc/grpc-js` server (or use `createGrpcServer`):
 *
 * ```ts
 * const handler = createRequestHandler({ mymodel: pool })
 * const service = createGrpcService(handler.served)
 * grpcServer.addService(service.definition, service.implementation)
 * ```
 */
export function createGrpcService(served: ServedModels | { readonly served: ServedModels }): InferpoolGrpcService {
  const models = served instanceof ServedModels ? served : served?.served
  if (!(models instanceof ServedModels)) {
    throw new TypeError(`Expected served models (or a handler made by createRequestHandler), got \`${String(served)}\``)
  }
  const options = models.options
  const guard = createCallGuard({
    authorized: (path, authorization) => mayCall(models, path, authorization),
    bodyTimeoutMs: options.bodyTimeoutMs,
    budget: models.pendingBodyBytes,
    failure: (error) => grpcFailure(error, options.retryAfterSeconds * 1000, options.logger),
  })
  const inner = new GrpcService(models, guard)
  return {
    definition: GRPC_SERVICE_DEFINITION,
    implementation: inner.implementation,
    guard: { ...guard, interceptor: passingOnArrival(guard.interceptor, inner) },
    get activeCalls() {
      return inner.activeCalls
    },
    // A unary call whose message is still arriving is accepted work, as an HTTP body still
    // arriving: served (the guard's body timeout still ends a stalled one). A forced close
    // (grpc-js's forceShutdown) cancels it with the rest.
    close: () => inner.close(),
  }
}
