/**
 * The one BYTES codec: the Open Inference Protocol's BYTES wire form, each element a
 * 4-byte little-endian byte length then its bytes. String tensors (ONNX `string`) travel
 * between threads in it, as one transferable ArrayBuffer rather than a cloned array of
 * JS strings (the host packs with `encodeStrings`, the worker decodes for ORT with
 * `decodeStrings`, and back); the server reads and writes request and response tensors,
 * and warm-up files, with `splitBytesElements` and `joinBytesElements`.
 */
const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

/** Why a buffer is not `expected` BYTES elements, with what the caller needs to say so. */
export type BytesFramingFault =
  | { readonly fault: 'trailing'; readonly left: number }
  | { readonly fault: 'truncated-length'; readonly element: number }
  | { readonly fault: 'short-element'; readonly element: number; readonly declared: number; readonly left: number }
  | { readonly fault: 'count'; readonly actual: number }

/**
 * Splits BYTES wire data into its elements (views into `bytes`, no copy). With
 * `expected`, the data must hold exactly that many elements and nothing after them;
 * without it, as many as are there. Returns the fault instead of throwing, so each
 * caller raises its own typed error.
 */
export function splitBytesElements(bytes: Uint8Array, expected = Infinity): Uint8Array[] | BytesFramingFault {
  const elements: Uint8Array[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = 0
  while (offset < bytes.length) {
    if (elements.length === expected) return { fault: 'trailing', left: bytes.length - offset }
    if (bytes.length - offset < 4) return { fault: 'truncated-length', element: elements.length }
    const length = view.getUint32(offset, true)
    offset += 4
    if (length > bytes.length - offset) {
      return { fault: 'short-element', element: elements.length, declared: length, left: bytes.length - offset }
    }
    elements.push(bytes.subarray(offset, offset + length))
    offset += length
  }
  if (expected !== Infinity && elements.length !== expected) return { fault: 'count', actual: elements.length }
  return elements
}

/** BYTES elements in the wire form, in a buffer of its own (transferable). */
export function joinBytesElements(elements: readonly Uint8Array[]): ArrayBuffer {
  let total = 0
  for (const element of elements) total += 4 + element.length
  const buffer = new ArrayBuffer(total)
  const view = new DataView(buffer)
  const out = new Uint8Array(buffer)
  let offset = 0
  for (const element of elements) {
    view.setUint32(offset, element.length, true)
    out.set(element, offset + 4)
    offset += 4 + element.length
  }
  return buffer
}

/** The BYTES wire form of `strings` (UTF-8), in a buffer of its own (transferable). */
export function encodeStrings(strings: readonly string[]): ArrayBuffer {
  return joinBytesElements(strings.map((s) => encoder.encode(s)))
}

/**
 * The strings of a BYTES wire buffer (written by `encodeStrings`, so well formed).
 * Throws a TypeError if an element is not valid UTF-8.
 */
export function decodeStrings(buffer: ArrayBuffer): string[] {
  const elements = splitBytesElements(new Uint8Array(buffer))
  if (!Array.isArray(elements)) throw new TypeError(`Not BYTES wire data (${elements.fault})`)
  return elements.map((element) => decoder.decode(element))
}
