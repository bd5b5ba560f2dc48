/**
 * The one error registry: every error class inferpool raises, with what it means on
 * each wire. The HTTP status, the gRPC status, the per-error response headers and
 * the README's error table are all read from {@link ERROR_REGISTRY}; nothing else maps
 * codes to anything. A test fails when an exported error class is missing here or
 * from the README's table.
 *
 * The classes live with the code that raises them (the batcher's in @inferpool/core,
 * the pool's and the comlink bridge's in @inferpool/host, the server's in
 * `protocol/errors.ts` and `repository/errors.ts`); this module only describes them.
 * Rebuilding an error that crossed a thread or process boundary is the pool's
 * (`fromWire` in @inferpool/host), for the classes the pool can receive.
 */
import {
  BatchSizeMismatchError,
  BatcherClosedError,
  DeadlineExceededError,
  DeadlineUnattainableError,
  InferpoolError,
  ItemTooLargeError,
  QueueFullError,
  RequestTooLargeError,
  TimeoutError,
} from '@inferpool/core'
import {
  BatchTimeoutError,
  InferenceError,
  InvalidInputError,
  ModelLoadError,
  ProviderUnavailableError,
  StartupTimeoutError,
  WorkerCrashedError,
  RemoteConnectTimeoutError,
  RemotePoolClosedError,
  RemoteWorkerError,
} from '@inferpool/host'
import {
  ModelConfigSyntaxError,
  ModelControlPollingError,
  ModelLoadAbortedError,
  ModelNotInRepositoryError,
  ModelOverBudgetError,
  ModelRepositoryLayoutError,
  ModelUploadDisabledError,
  ModelUploadError,
  UnsupportedModelConfigError,
} from './repository/errors.js'
import {
  bounded,
  MalformedBinaryError,
  MalformedJsonError,
  MethodNotAllowedError,
  ModelNotFoundError,
  ModelNotReadyError,
  NonFiniteOutputError,
  OutputShapeMismatchError,
  PayloadTooLargeError,
  PendingBodyBytesFullError,
  RequestTimeoutError,
  RouteNotFoundError,
  ShuttingDownError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from './protocol/errors.js'

/**
 * gRPC status codes (the numbers are fixed by the gRPC protocol; named here so this
 * module needs no gRPC library).
 */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const

export type GrpcStatusName = keyof typeof GrpcStatus

/** An error class that the registry can describe: it declares its stable `code`. */
export type RegisteredErrorClass = (abstract new (...args: never[]) => InferpoolError) & { readonly code: string }

/** What one failure mode means on the wire. */
export interface ErrorSpec {
  readonly class: RegisteredErrorClass
  readonly code: string
  /** HTTP status of a response failed with it. */
  readonly http: number
  /** gRPC status of a call failed with it. */
  readonly grpc: GrpcStatusName
  /**
   * Transient: the same request may succeed later. HTTP answers carry `Retry-After`,
   * gRPC answers a retry hint in the trailing metadata.
   */
  readonly retryable: boolean
  /** One line for the README's table: when it happens. */
  readonly summary: string
  /** Extra HTTP response headers this error asks for. */
  readonly headers?: (error: InferpoolError) => Record<string, string>
}

type SpecInput = Omit<ErrorSpec, 'code' | 'retryable'> & { retryable?: boolean }

function spec(input: SpecInput): ErrorSpec {
  return { ...input, code: input.class.code, retryable: input.retryable ?? false }
}

/** The body was not (fully) read: the connection is closed rather than read to the end. */
const closeConnection = (): Record<string, string> => ({ connection: 'close' })

/** Every error class inferpool raises on purpose, in the order of the README's table. */
export const ERROR_REGISTRY: readonly ErrorSpec[] = Object.freeze([
  // The caller's request is wrong: fix it, do not retry it.
  spec({
    class: InvalidInputError,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    summary: 'The request does not match the model (name, datatype, shape, value); rejected before it is queued.',
  }),
  spec({ class: MalformedJsonError, http: 400, grpc: 'INVALID_ARGUMENT', summary: 'The body is not valid JSON (or not UTF-8).' }),
  spec({
    class: MalformedBinaryError,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    summary: 'Binary tensor data whose framing does not add up (header length, sizes, shape × datatype, trailing bytes).',
  }),
  spec({
    class: ItemTooLargeError,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    summary: "A row's cost exceeds `maxBatchCost`: it could never fit a batch.",
  }),
  spec({
    class: UnauthorizedError,
    http: 401,
    grpc: 'UNAUTHENTICATED',
    summary: '`apiKey` is set and the bearer token is missing or wrong.',
    headers: () => ({ 'www-authenticate': 'Bearer' }),
  }),
  spec({
    class: ModelConfigSyntaxError,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    summary: "A model's config.pbtxt (or a load request's `config`) is not valid protobuf text for Triton's ModelConfig; names the line.",
  }),
  spec({
    class: UnsupportedModelConfigError,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    summary: 'A config field that would change how the model runs is not supported (sequence batcher, ensemble, platform…); names it.',
  }),
  spec({
    class: ModelRepositoryLayoutError,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    summary: 'A model directory gives nothing to serve: no version directory, no model file, a version the policy names is missing.',
  }),
  spec({
    class: ModelUploadDisabledError,
    http: 403,
    grpc: 'PERMISSION_DENIED',
    summary: 'A load request carries model files (`file:<version>/<name>`) and the server was not started with `--allow-model-upload`.',
  }),
  spec({
    class: ModelUploadError,
    http: 400,
    grpc: 'INVALID_ARGUMENT',
    summary:
      "A load request's model files cannot be taken: no `config` beside them, a path outside a version directory (or too deep, too long, with NUL), bad base64, more than 1,024 files.",
  }),
  spec({
    class: ModelNotInRepositoryError,
    http: 409,
    grpc: 'FAILED_PRECONDITION',
    summary: 'A load or unload call names a model the server was given (`--model`), not the repository: it serves until the server stops.',
  }),
  spec({
    class: ModelLoadAbortedError,
    http: 409,
    grpc: 'ABORTED',
    summary: 'A load did not finish: an unload of the model or the server shutting down aborted it; the pools it started are closed.',
  }),
  spec({ class: ModelNotFoundError, http: 404, grpc: 'NOT_FOUND', summary: 'No model (or version) by that name is served.' }),
  spec({ class: RouteNotFoundError, http: 404, grpc: 'NOT_FOUND', summary: 'No route matches the path.' }),
  spec({
    class: MethodNotAllowedError,
    http: 405,
    grpc: 'UNIMPLEMENTED',
    summary: 'The route exists, not for this method (the `Allow` header lists those that work).',
    headers: (error) => ({ allow: (error as MethodNotAllowedError).allowed.join(', ') }),
  }),
  spec({
    class: NonFiniteOutputError,
    http: 406,
    grpc: 'INTERNAL',
    summary: 'An output holds NaN or Infinity and was asked for as JSON, which cannot carry it; ask for binary output.',
  }),
  spec({
    class: RequestTimeoutError,
    http: 408,
    grpc: 'DEADLINE_EXCEEDED',
    summary:
      'The request body (a gRPC request message) did not arrive within `bodyTimeoutMs` (a stalled client); the connection (the call) is closed.',
    headers: closeConnection,
  }),
  spec({
    class: RequestTooLargeError,
    http: 413,
    grpc: 'RESOURCE_EXHAUSTED',
    summary: 'The request has more rows than the whole queue holds (`maxQueueSize`): it could never be admitted.',
  }),
  spec({
    class: PayloadTooLargeError,
    http: 413,
    grpc: 'RESOURCE_EXHAUSTED',
    summary: 'The body is longer than `maxBodyBytes`, or alone than the whole `maxPendingBodyBytes` budget.',
    headers: closeConnection,
  }),
  spec({
    class: UnsupportedMediaTypeError,
    http: 415,
    grpc: 'INVALID_ARGUMENT',
    summary: 'The body is compressed or otherwise encoded.',
    headers: closeConnection,
  }),
  // The server cannot take it now: retry later, elsewhere.
  spec({
    class: QueueFullError,
    http: 503,
    grpc: 'UNAVAILABLE',
    retryable: true,
    summary: "The model's queue is full (`whenFull: 'reject'`).",
  }),
  spec({
    class: PendingBodyBytesFullError,
    http: 503,
    grpc: 'UNAVAILABLE',
    retryable: true,
    summary: 'The bodies and messages still arriving hold `maxPendingBodyBytes` already: the request is refused, not held.',
  }),
  spec({
    class: ShuttingDownError,
    http: 503,
    grpc: 'UNAVAILABLE',
    retryable: true,
    summary: 'The server is shutting down and takes no new requests.',
  }),
  spec({
    class: BatcherClosedError,
    http: 503,
    grpc: 'UNAVAILABLE',
    retryable: true,
    summary: 'The pool is closing or closed; a row queued when it was destroyed fails with it too.',
  }),
  spec({
    class: ModelNotReadyError,
    http: 503,
    grpc: 'UNAVAILABLE',
    retryable: true,
    summary: "The model's pool has not finished loading, or failed to load.",
  }),
  spec({
    class: ModelLoadError,
    http: 503,
    grpc: 'UNAVAILABLE',
    summary: "The model (or a user worker's `load`) failed to load in a replica.",
  }),
  spec({
    class: ModelOverBudgetError,
    http: 507,
    grpc: 'RESOURCE_EXHAUSTED',
    summary:
      'A model that alone passes the memory budget (`--model-memory-budget`): its measured size plus what the server holds without models; names the sizes.',
  }),
  spec({
    class: ProviderUnavailableError,
    http: 503,
    grpc: 'UNAVAILABLE',
    summary: 'The execution provider (CUDA) is not installed or cannot load.',
  }),
  spec({
    class: ModelControlPollingError,
    http: 503,
    grpc: 'UNAVAILABLE',
    summary:
      'A load or unload call to a repository not in explicit control mode (poll: its scans decide what serves; none: the models loaded at start serve); Triton refuses these calls then too.',
  }),
  spec({ class: StartupTimeoutError, http: 503, grpc: 'UNAVAILABLE', summary: 'Not every replica loaded within `startupTimeoutMs`.' }),
  spec({
    class: DeadlineUnattainableError,
    http: 503,
    grpc: 'UNAVAILABLE',
    retryable: true,
    summary:
      "With `formation: 'deadline'`: the request's timeout is shorter than the drain of the queue ahead of it even at the fastest batches measured; refused at once rather than left to time out.",
    // Retry once the queue ahead of it has drained, by the estimate.
    headers: (error) => ({ 'retry-after': String(Math.max(1, Math.ceil(Number(error.details?.drainMs) / 1000))) }),
  }),
  spec({
    class: RemotePoolClosedError,
    http: 503,
    grpc: 'UNAVAILABLE',
    retryable: true,
    summary: 'The thread owning a pool reached through `connectPool` closed its end or ended.',
  }),
  spec({
    class: RemoteConnectTimeoutError,
    http: 503,
    grpc: 'UNAVAILABLE',
    summary: '`connectPool` got no answer within `connectTimeoutMs`.',
  }),
  // Deadlines.
  spec({
    class: TimeoutError,
    http: 504,
    grpc: 'DEADLINE_EXCEEDED',
    summary: "The request's `timeoutMs` passed before its result arrived.",
  }),
  spec({
    class: DeadlineExceededError,
    http: 504,
    grpc: 'DEADLINE_EXCEEDED',
    summary:
      "The row's deadline had passed when its batch started, under any formation, so it was not run; or, with `formation: 'deadline'`, it was out of reach even by the fastest batch of one measured when a replica freed up, or right before its batch ran (on the replica, or when it was sent again); it failed at once instead of running late.",
  }),
  spec({ class: BatchTimeoutError, http: 504, grpc: 'DEADLINE_EXCEEDED', summary: 'The batch holding the row ran past `batchTimeoutMs`.' }),
  // The model or a replica failed on this row.
  spec({
    class: InferenceError,
    http: 500,
    grpc: 'INTERNAL',
    summary: "ONNX Runtime (or a user worker's `run`) failed on this row, alone.",
  }),
  spec({ class: WorkerCrashedError, http: 500, grpc: 'INTERNAL', summary: 'The replica died running this row, even alone in its batch.' }),
  spec({
    class: BatchSizeMismatchError,
    http: 500,
    grpc: 'INTERNAL',
    summary: 'A worker returned a different number of results (or output rows) than the batch had rows.',
  }),
  spec({
    class: OutputShapeMismatchError,
    http: 500,
    grpc: 'INTERNAL',
    summary: 'The rows of one request have outputs of different shapes, which cannot form one tensor.',
  }),
])

/** The code of an error the server did not raise on purpose (its message is not sent to the client). */
export const INTERNAL_ERROR_CODE = 'ERR_INTERNAL'

/**
 * How an error with a code nobody registered is answered: a user worker's own code
 * (rebuilt as `RemoteWorkerError`) or anything unexpected.
 */
const UNREGISTERED = { http: 500, grpc: 'INTERNAL', retryable: false } as const

const BY_CODE: ReadonlyMap<string, ErrorSpec> = new Map(ERROR_REGISTRY.map((s) => [s.code, s]))

/** The registry's entry for a code, if the code is registered. */
export function errorSpecOf(code: string): ErrorSpec | undefined {
  return BY_CODE.get(code)
}

/** The stable `code` of an error, if it has one. */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** HTTP status for an error code (or an error); 500 for codes that are not registered. */
export function httpStatusOf(codeOrError: string | unknown): number {
  const code = typeof codeOrError === 'string' ? codeOrError : errorCodeOf(codeOrError)
  return (code === undefined ? undefined : BY_CODE.get(code)?.http) ?? UNREGISTERED.http
}

/** gRPC status number for an error code (or an error); INTERNAL for codes that are not registered. */
export function grpcStatusOf(codeOrError: string | unknown): number {
  const code = typeof codeOrError === 'string' ? codeOrError : errorCodeOf(codeOrError)
  return GrpcStatus[(code === undefined ? undefined : BY_CODE.get(code)?.grpc) ?? UNREGISTERED.grpc]
}

/** Whether the same request may succeed later (Retry-After / a gRPC retry hint). */
export function isRetryable(codeOrError: string | unknown): boolean {
  const code = typeof codeOrError === 'string' ? codeOrError : errorCodeOf(codeOrError)
  return (code === undefined ? undefined : BY_CODE.get(code)?.retryable) ?? UNREGISTERED.retryable
}

/**
 * What a client is told about a failure, the same for every protocol: the stable code,
 * and the message when the error is one of ours. Anything else is an unexpected
 * failure whose text stays in the server's log.
 */
export interface PublicError {
  readonly code: string
  readonly message: string
  /** Not raised on purpose: log it. */
  readonly internal: boolean
}

/**
 * Longest message a client is sent, over HTTP and gRPC alike: the last guard. An error
 * bounds its own echoes of the client's input where it is built (protocol/errors.ts);
 * messages built elsewhere (an input's name in a validation error) are cut here.
 */
const PUBLIC_MESSAGE_MAX_CHARS = 1024

const INTERNAL: PublicError = { code: INTERNAL_ERROR_CODE, message: 'Internal server error', internal: true }

export function publicErrorOf(error: unknown): PublicError {
  if (!(error instanceof InferpoolError)) return INTERNAL
  // Only a code we declare is answered as is; a user worker's own code (rebuilt as
  // RemoteWorkerError) is one it chose to raise. Node's `ERR_*` errors and anything else
  // unexpected carry text meant for the log (paths, internals), not for the client.
  if (!BY_CODE.has(error.code) && !(error instanceof RemoteWorkerError)) return INTERNAL
  return { code: error.code, message: bounded(error.message, PUBLIC_MESSAGE_MAX_CHARS), internal: false }
}

/**
 * HTTP headers an error's response carries: Retry-After for transient failures
 * (`retryAfterSeconds`, the caller's current estimate), and the error's own
 * (`Allow`, `WWW-Authenticate`, `Connection: close`).
 */
export function httpHeadersOf(error: unknown, retryAfterSeconds: number): Record<string, string> {
  const code = errorCodeOf(error)
  const entry = code === undefined ? undefined : BY_CODE.get(code)
  if (entry === undefined) return {}
  const headers: Record<string, string> = entry.retryable ? { 'retry-after': String(retryAfterSeconds) } : {}
  return entry.headers && error instanceof InferpoolError ? { ...headers, ...entry.headers(error) } : headers
}

/** The README's error table, rendered from the registry (a test keeps the README in step). */
export function errorTableMarkdown(): string {
  const rows = ERROR_REGISTRY.map(
    (s) => `| \`${s.code}\` | \`${s.class.name}\` | ${s.http} | ${s.grpc} | ${s.retryable ? 'yes' : ''} | ${s.summary} |`,
  )
  return [
    '| code | class | HTTP | gRPC | retry | when |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    `| \`${INTERNAL_ERROR_CODE}\` | any other error | 500 | INTERNAL | | Not raised on purpose; the message stays in the server's log. |`,
  ].join('\n')
}
