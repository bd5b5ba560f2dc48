/**
 * The shorter of two timeouts in ms, either possibly absent: a request's own timeout
 * (Triton's `parameters.timeout`, a gRPC deadline) never lengthens the server's
 * `timeoutMs`, which bounds every request.
 */
export function shorterTimeout(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return a < b ? a : b
}
