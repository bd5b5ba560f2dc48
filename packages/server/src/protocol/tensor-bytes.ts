/**
 * Tensor bytes as the Open Inference Protocol carries them, in every binding (HTTP's
 * binary tensor data extension, gRPC's `raw_input_contents` and `raw_output_contents`):
 * each tensor little-endian, row-major, without padding; BOOL one byte (0 or 1); each
 * BYTES element a 4-byte little-endian unsigned length and then its bytes.
 *
 * Views are made only over bytes whose count was checked against what the tensor's
 * shape implies; the only copy is of a tensor whose bytes are not aligned for its
 * element type.
 */
import { endianness } from 'node:os'
import type { TypedArray } from '@inferpool/host'
import { joinBytesElements, splitBytesElements } from '@inferpool/worker'
import { MalformedBinaryError } from './errors.js'

// Typed arrays are in the host's byte order; the wire is little-endian. Every platform
// Node ships for is little-endian, but a big-endian host gets swapped copies, not garbage.
const LITTLE_ENDIAN_HOST = endianness() === 'LE'

type TypedArrayClass = {
  new (length: number): TypedArray
  new (buffer: ArrayBuffer, byteOffset: number, length: number): TypedArray
  readonly BYTES_PER_ELEMENT: number
}

/** Reverses the bytes of each element in place (for a big-endian host). */
function swapElements(bytes: Uint8Array, size: number): void {
  if (size === 1) return
  for (let i = 0; i < bytes.length; i += size) {
    for (let a = i, b = i + size - 1; a < b; a++, b--) {
      const t = bytes[a]
      bytes[a] = bytes[b]
      bytes[b] = t
    }
  }
}

/**
 * A typed array over raw little-endian `bytes` holding `elements` elements: a view when
 * the bytes are aligned for the element type (no copy), else one aligned copy. The
 * caller has checked that `bytes.length` is `elements × BYTES_PER_ELEMENT`.
 */
export function typedArrayOver(bytes: Buffer, Ctor: TypedArrayClass, elements: number): TypedArray {
  const size = Ctor.BYTES_PER_ELEMENT
  if (LITTLE_ENDIAN_HOST && bytes.byteOffset % size === 0) {
    return new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, elements)
  }
  const out = new Ctor(elements)
  const outBytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
  outBytes.set(bytes)
  if (!LITTLE_ENDIAN_HOST) swapElements(outBytes, size)
  return out
}

/** The little-endian bytes of a typed array: a view on little-endian hosts, never a copy there. */
export function bytesOf(data: TypedArray): Buffer {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  if (LITTLE_ENDIAN_HOST) return view
  const copy = Buffer.from(view)
  swapElements(copy, data.BYTES_PER_ELEMENT)
  return copy
}

/**
 * Splits a BYTES tensor's raw data into its elements (views, no copy), with the one
 * BYTES codec (@inferpool/worker's `splitBytesElements`). `expected` is the element
 * count its shape gives; the bytes must hold exactly that many elements, and nothing
 * after them.
 */
export function readBytesElements(bytes: Buffer, expected: number, input: string): Buffer[] {
  const split = splitBytesElements(bytes, expected)
  // Views into a Buffer are Buffers (Buffer's own subarray).
  if (Array.isArray(split)) return split as Buffer[]
  switch (split.fault) {
    case 'trailing':
      throw new MalformedBinaryError(`"${input}": ${split.left} byte(s) left after its ${expected} BYTES element(s)`, { input })
    case 'truncated-length':
      throw new MalformedBinaryError(`"${input}": BYTES element ${split.element} has a truncated 4-byte length`, { input })
    case 'short-element':
      throw new MalformedBinaryError(
        `"${input}": BYTES element ${split.element} declares ${split.declared} bytes but only ${split.left} are left`,
        { input },
      )
    case 'count':
      throw new MalformedBinaryError(`"${input}": its shape holds ${expected} BYTES element(s), the binary data ${split.actual}`, {
        input,
        expected,
        actual: split.actual,
      })
  }
}

/** BYTES elements in the wire form (the one BYTES codec's `joinBytesElements`), as a Buffer over its own memory. */
export function writeBytesElements(elements: readonly Uint8Array[]): Buffer {
  return Buffer.from(joinBytesElements(elements))
}
