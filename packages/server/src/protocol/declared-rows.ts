/**
 * The rows a request declares before its contents are decoded, the same rule for every
 * binding (a binary HTTP request's JSON header, a gRPC ModelInferRequest): the largest
 * first dim of its inputs' `shape`, with the input that declares it, so the door counts
 * the request as it is rather than estimating it. Inputs that disagree are the decode's
 * to refuse; here a shape without a usable first dim declares nothing.
 */

/** What a request declares: its rows, and the input that declares them. */
export interface DeclaredRows {
  readonly rows: number
  readonly input: string
}

/** The rows a shape's first dim declares: a positive safe integer (a protobuf int64 read as a number), else 0. */
export function rowsOfFirstDim(first: unknown): number {
  const toNumber = (first as { toNumber?: unknown } | null | undefined)?.toNumber
  const rows = typeof first === 'number' ? first : typeof toNumber === 'function' ? (toNumber as () => number).call(first) : NaN
  return Number.isSafeInteger(rows) && rows >= 1 ? rows : 0
}

/**
 * The most rows any input declares, by its name and the first dim of its shape;
 * `undefined` when none declares a usable count (the decode then says what is wrong).
 */
export function mostDeclaredRows(inputs: readonly unknown[]): DeclaredRows | undefined {
  let declared: DeclaredRows | undefined
  for (const input of inputs) {
    if (typeof input !== 'object' || input === null) continue
    const { name, shape } = input as { name?: unknown; shape?: unknown }
    if (typeof name !== 'string' || !Array.isArray(shape)) continue
    const rows = rowsOfFirstDim(shape[0])
    if (rows > (declared?.rows ?? 0)) declared = { rows, input: name }
  }
  return declared
}
