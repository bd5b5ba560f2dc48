/**
 * gRPC's side of an inference request's exchange (../protocol/exchange.ts): the rows its
 * inputs' shapes declare, counted at the door before its contents are decoded; the
 * decode; the response message. The exchange does the rest, in the order both protocols
 * share.
 */
import type { Metadata } from '@grpc/grpc-js'
import type { DecodeLimits, DecodedInferRequest } from '../protocol/decode.js'
import type { Door } from '../protocol/door.js'
import { InferenceExchange } from '../protocol/exchange.js'
import type { SubmitOptions } from '../protocol/submit-rows.js'
import type { ServedModel, ServedModels } from '../protocol/served-models.js'
import type { ServedPool } from '../protocol/served-pool.js'
import type { BlockOutput, RowOutput } from '@inferpool/host'
import type { inference } from './definition.js'
import { declaredRowsOf, decodeGrpcInferRequest } from './request.js'
import { inferResponse } from './response.js'

type InferResponse = inference.ModelInferResponse.$Properties

/** What every gRPC exchange of one service shares (made once). */
export interface GrpcExchangeContext {
  /** The decoder's limits: the same for every request. */
  readonly limits: DecodeLimits
  /** The call guard's `passedDoor`: a request's bytes leave the pending-bytes budget. */
  passedDoor(message: object): void
}

export class GrpcExchange extends InferenceExchange<InferResponse> {
  /** The request message, once it has arrived (a unary call's exchange starts with the call, before it). */
  request: inference.ModelInferRequest | undefined
  /** The call's metadata, for its trace headers (`traceHeader`). */
  metadata: Metadata | undefined
  readonly #context: GrpcExchangeContext

  constructor(served: ServedModels, context: GrpcExchangeContext) {
    super(served)
    this.#context = context
  }

  /** `traceparent` / `tracestate` from the call's metadata. */
  override traceHeader(name: string): string | undefined {
    const value = this.metadata?.get(name)[0]
    return typeof value === 'string' ? value : undefined
  }

  /** The door, before the contents are decoded: under overload that decode is the expense a refusal saves. */
  protected override doorRows(door: Door): number {
    const declared = declaredRowsOf(this.request as inference.ModelInferRequest)
    return door.declaredRows(declared?.rows ?? 0, declared?.input ?? '')
  }

  protected override decode(): DecodedInferRequest {
    return decodeGrpcInferRequest(this.request as inference.ModelInferRequest, (this.pool as ServedPool).metadata, this.#context.limits)
  }

  protected override answer(decoded: DecodedInferRequest, model: ServedModel, results: RowOutput[] | BlockOutput): InferResponse {
    return inferResponse(
      model.name,
      model.version,
      decoded.id,
      decoded.outputs.map((output) => output.name),
      results,
    )
  }

  /**
   * One row, the gRPC request most clients send, goes in as a row (`pool.infer`): it has
   * no siblings to fail with, so the call's own signal is enough, and it skips the block
   * packing a multi-row request pays for.
   */
  protected override submit(pool: ServedPool, decoded: DecodedInferRequest, options: SubmitOptions): Promise<RowOutput[] | BlockOutput> {
    if (decoded.rowCount !== 1) return super.submit(pool, decoded, options)
    const level = decoded.priorityLevel
    return pool.infer(decoded.rows[0], level === undefined ? options : { ...options, priorityLevel: level }).then(asRows)
  }

  protected override passedDoor(): void {
    const request = this.request
    if (request !== undefined) this.#context.passedDoor(request)
  }
}

/** A single row's result as the rows of its request. */
function asRows(result: RowOutput): RowOutput[] {
  return [result]
}
