/**
 * String tensors (ONNX `string`, the protocol's BYTES) between threads: a batch's
 * strings travel in one transferable ArrayBuffer in the BYTES wire form of the Open
 * Inference Protocol — each element a 4-byte little-endian byte length, then its UTF-8
 * bytes — rather than as a cloned array of JS strings. The host packs with
 * `encodeStrings`, the worker decodes for ORT with `decodeStrings`, and back.
 */
const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

/** The BYTES wire form of `strings`, in a buffer of its own (transferable). */
export function encodeStrings(strings: readonly string[]): ArrayBuffer {
  const encoded = strings.map((s) => encoder.encode(s))
  let total = 0
  for (const bytes of encoded) total += 4 + bytes.length
  const buffer = new ArrayBuffer(total)
  const view = new DataView(buffer)
  const out = new Uint8Array(buffer)
  let offset = 0
  for (const bytes of encoded) {
    view.setUint32(offset, bytes.length, true)
    out.set(bytes, offset + 4)
    offset += 4 + bytes.length
  }
  return buffer
}

/**
 * The strings of a BYTES wire buffer (written by `encodeStrings`, so well formed).
 * Throws a TypeError if an element is not valid UTF-8.
 */
export function decodeStrings(buffer: ArrayBuffer): string[] {
  const view = new DataView(buffer)
  const bytes = new Uint8Array(buffer)
  const strings: string[] = []
  let offset = 0
  while (offset < buffer.byteLength) {
    const length = view.getUint32(offset, true)
    strings.push(decoder.decode(bytes.subarray(offset + 4, offset + 4 + length)))
    offset += 4 + length
  }
  return strings
}
