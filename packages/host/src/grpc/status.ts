/**
 * How a failure is answered over gRPC: a status code, the message, and our stable
 * error code in the trailing metadata (`inferpool-code`), plus a retry hint
 * (`grpc-retry-pushback-ms`, the trailer gRPC clients' retry policies read) when the
 * queue is full or the server is closing.
 *
 * The status is derived from the error code's HTTP status (the one table in
 * server/errors.ts) by the standard HTTP-to-gRPC correspondence, so there is no
 * second table of codes to keep in step.
 */
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js'
import type { StatusObject } from '@grpc/grpc-js'
import { INTERNAL_ERROR_CODE, httpStatusOf } from '../server/errors.js'

/** Trailing-metadata key of our stable error code. */
export const CODE_METADATA_KEY = 'inferpool-code'
/** Trailing-metadata key of the retry hint, in milliseconds. */
export const RETRY_METADATA_KEY = 'grpc-retry-pushback-ms'

const GRPC_BY_HTTP: ReadonlyMap<number, GrpcStatus> = new Map([
  [400, GrpcStatus.INVALID_ARGUMENT],
  [401, GrpcStatus.UNAUTHENTICATED],
  [404, GrpcStatus.NOT_FOUND],
  [413, GrpcStatus.RESOURCE_EXHAUSTED],
  [503, GrpcStatus.UNAVAILABLE],
  [504, GrpcStatus.DEADLINE_EXCEEDED],
])

/** A failure as the service answers it. */
export interface GrpcFailure extends StatusObject {
  /** Our stable code (`ERR_…`), also in `metadata`. */
  readonly errorCode: string
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/**
 * The status of a failure. An error without one of our `ERR_` codes is unexpected: it
 * is answered INTERNAL with a generic message and logged, its text never sent.
 */
export function grpcFailure(
  error: unknown,
  retryAfterMs: number,
  logger: Pick<Console, 'error'>,
): GrpcFailure {
  const own = codeOf(error)
  const known = own !== undefined && own.startsWith('ERR_')
  const errorCode = known ? own : INTERNAL_ERROR_CODE
  const code = GRPC_BY_HTTP.get(httpStatusOf(errorCode)) ?? GrpcStatus.INTERNAL
  const details = known && error instanceof Error ? error.message : 'Internal server error'
  if (code === GrpcStatus.INTERNAL) logger.error('inferpool: gRPC request failed', error)
  const metadata = new Metadata()
  metadata.set(CODE_METADATA_KEY, errorCode)
  if (code === GrpcStatus.UNAVAILABLE) metadata.set(RETRY_METADATA_KEY, String(retryAfterMs))
  return { code, details, metadata, errorCode }
}

/** The canonical name of a status code (`'INVALID_ARGUMENT'`), for metrics labels. */
export function statusName(code: GrpcStatus): string {
  return GrpcStatus[code] ?? String(code)
}
