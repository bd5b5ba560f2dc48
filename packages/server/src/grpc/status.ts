/**
 * How a failure is answered over gRPC: the status the error registry declares for the
 * error's class, the message, our stable error code in the trailing metadata
 * (`inferpool-code`), and for transient failures (queue full, closing) a retry hint
 * (`grpc-retry-pushback-ms`, the trailer gRPC clients' retry policies read).
 */
import { Metadata } from '@grpc/grpc-js'
import type { StatusObject, status as GrpcStatusCode } from '@grpc/grpc-js'
import { GrpcStatus, grpcStatusOf, isRetryable, publicErrorOf } from '../error-registry.js'

/** Trailing-metadata key of our stable error code. */
export const CODE_METADATA_KEY = 'inferpool-code'
/** Trailing-metadata key of the retry hint, in milliseconds. */
export const RETRY_METADATA_KEY = 'grpc-retry-pushback-ms'

/** A failure as the service answers it. */
export interface GrpcFailure extends StatusObject {
  /** Our stable code (`ERR_…`), also in `metadata`. */
  readonly errorCode: string
}

/**
 * The status of a failure. An error whose code our registry does not declare (nor a user
 * worker raised) is unexpected: it is answered INTERNAL with a generic message, its text
 * never sent. The message is bounded (`publicErrorOf`): a status message travels in a
 * trailer, and a long one is never sent. With `logger`, an INTERNAL failure (not the
 * caller's doing, like HTTP's 500) is logged: pass it where the failure is answered,
 * once, not where it is only counted. A call its client cancelled is not logged:
 * nothing failed on the server's side.
 */
export function grpcFailure(error: unknown, retryAfterMs: number, logger?: Pick<Console, 'error'>): GrpcFailure {
  const { code: errorCode, message } = publicErrorOf(error)
  const code = grpcStatusOf(errorCode) as GrpcStatusCode
  if (code === GrpcStatus.INTERNAL && !cancelledByClient(error)) logger?.error('inferpool: gRPC request failed', error)
  const metadata = new Metadata()
  metadata.set(CODE_METADATA_KEY, errorCode)
  if (isRetryable(errorCode)) metadata.set(RETRY_METADATA_KEY, String(retryAfterMs))
  return { code, details: message, metadata, errorCode }
}

/**
 * The call's own abort: a client that cancels its call (or goes away) aborts the call's
 * rows with the call's signal, whose reason is an `AbortError`, and nobody is left to
 * answer.
 */
function cancelledByClient(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError'
}

const NAMES: ReadonlyMap<number, string> = new Map(Object.entries(GrpcStatus).map(([name, code]) => [code, name]))

/** The canonical name of a status code (`'INVALID_ARGUMENT'`), for metrics labels. */
export function statusName(code: number): string {
  return NAMES.get(code) ?? String(code)
}
