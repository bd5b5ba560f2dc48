/**
 * The binary tensor data extension of the Open Inference Protocol's HTTP/REST binding
 * (as Triton and KServe publish it; our reading is in docs/protocol.md):
 *
 *   body = JSON header (Inference-Header-Content-Length bytes) + raw tensors
 *
 * Raw tensors follow the header back to back, in the order the header lists the binary
 * tensors; each is little-endian, row-major, without padding; BOOL is one byte (0 or
 * 1); each BYTES element is a 4-byte little-endian unsigned length and then its bytes.
 * `Inference-Header-Content-Length: 0` is the raw form: the whole body is the one input
 * of a single-input model, as a batch of one row.
 *
 * This module only frames and unframes bytes; what the tensors mean is decode.ts's and
 * encode.ts's business. It never allocates from a size the client declares: sizes are
 * compared with the bytes actually received (which the body limit bounds) before any
 * view is made, and the only copy is of a tensor whose bytes are not aligned for its
 * element type.
 */
import { endianness } from 'node:os'
import type { TypedArray } from '../types.js'
import { parseJson } from '../http/body.js'
import { MalformedBinaryError } from './errors.js'

/** The request and response header naming the length of the JSON header. */
export const HEADER_LENGTH_HEADER = 'inference-header-content-length'

/** Content type of a response that carries binary tensor data. */
export const BINARY_CONTENT_TYPE = 'application/octet-stream'

// Typed arrays are in the host's byte order; the wire is little-endian. Every platform
// Node ships for is little-endian, but a big-endian host gets swapped copies, not garbage.
const LITTLE_ENDIAN_HOST = endianness() === 'LE'

/**
 * Reads the `Inference-Header-Content-Length` request header: `undefined` when absent
 * (a plain JSON body), else the JSON header's length, checked against the body.
 */
export function headerLengthOf(value: string | string[] | undefined, bodyLength: number): number | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value) || !/^[0-9]{1,16}$/.test(value.trim())) {
    throw new MalformedBinaryError(`Inference-Header-Content-Length must be one non-negative integer, got '${String(value)}'`)
  }
  const length = Number(value.trim())
  if (length > bodyLength) {
    throw new MalformedBinaryError(`Inference-Header-Content-Length is ${length} but the body has only ${bodyLength} bytes`, {
      headerLength: length,
      bodyLength,
    })
  }
  return length
}

/**
 * The JSON header of a binary body: its first `headerLength` bytes, parsed. `body` may
 * hold only the header so far (the server reads it before the tensors: see
 * `declaredRows`).
 */
export function readBinaryHeader(body: Buffer, headerLength: number): unknown {
  return parseJson(body.subarray(0, headerLength))
}

/**
 * The rows a binary request's JSON header declares, read before its tensor bytes so
 * the door can count the request's real rows instead of estimating them from its
 * length: the largest first dim of its inputs' `shape` (decode.ts later refuses inputs
 * that disagree), with the input that declares it. `undefined` when no input declares
 * a usable one; decode.ts then says what is wrong with the header.
 */
export function declaredRows(header: unknown): { rows: number; input: string } | undefined {
  if (typeof header !== 'object' || header === null) return undefined
  const inputs = (header as { inputs?: unknown }).inputs
  if (!Array.isArray(inputs)) return undefined
  let declared: { rows: number; input: string } | undefined
  for (const input of inputs as unknown[]) {
    if (typeof input !== 'object' || input === null) continue
    const { name, shape } = input as { name?: unknown; shape?: unknown }
    const rows: unknown = Array.isArray(shape) ? shape[0] : undefined
    if (typeof name !== 'string' || typeof rows !== 'number' || !Number.isSafeInteger(rows) || rows < 1) continue
    if (declared === undefined || rows > declared.rows) declared = { rows, input: name }
  }
  return declared
}

/** The bytes after the JSON header, handed out tensor by tensor in order. */
export class BinaryTail {
  readonly bytes: Buffer
  #offset = 0

  constructor(bytes: Buffer) {
    this.bytes = bytes
  }

  /** The next `size` bytes, for the tensor `input`; `size` is the header's `binary_data_size`. */
  take(input: string, size: unknown): Buffer {
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      throw new MalformedBinaryError(`"${input}": parameters.binary_data_size must be a non-negative integer, got ${String(size)}`, {
        input,
      })
    }
    const start = this.#offset
    const left = this.bytes.length - start
    if (size > left) {
      throw new MalformedBinaryError(
        `"${input}" declares binary_data_size ${size} but only ${left} of the ${this.bytes.length} bytes after the JSON header are left`,
        { input, size, left },
      )
    }
    this.#offset = start + size
    return this.bytes.subarray(start, start + size)
  }

  /** Throws when bytes are left over after every binary tensor was taken. */
  finish(): void {
    const left = this.bytes.length - this.#offset
    if (left > 0) {
      throw new MalformedBinaryError(
        `${left} trailing byte(s) after the binary tensor data: the binary_data_size values add up to ${this.#offset} ` +
          `but ${this.bytes.length} bytes follow the JSON header`,
        { declared: this.#offset, received: this.bytes.length },
      )
    }
  }
}

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
 * Splits a BYTES tensor's raw data into its elements (views, no copy): each a 4-byte
 * little-endian length and that many bytes. `expected` is the element count its shape
 * gives; the bytes must hold exactly that many elements, and nothing after them.
 */
export function readBytesElements(bytes: Buffer, expected: number, input: string): Buffer[] {
  const elements: Buffer[] = []
  let offset = 0
  while (offset < bytes.length) {
    if (elements.length === expected) {
      throw new MalformedBinaryError(`"${input}": ${bytes.length - offset} byte(s) left after its ${expected} BYTES element(s)`, { input })
    }
    if (bytes.length - offset < 4) {
      throw new MalformedBinaryError(`"${input}": BYTES element ${elements.length} has a truncated 4-byte length`, { input })
    }
    const length = bytes.readUInt32LE(offset)
    offset += 4
    if (length > bytes.length - offset) {
      throw new MalformedBinaryError(
        `"${input}": BYTES element ${elements.length} declares ${length} bytes but only ${bytes.length - offset} are left`,
        { input },
      )
    }
    elements.push(bytes.subarray(offset, offset + length))
    offset += length
  }
  if (elements.length !== expected) {
    throw new MalformedBinaryError(`"${input}": its shape holds ${expected} BYTES element(s), the binary data ${elements.length}`, {
      input,
      expected,
      actual: elements.length,
    })
  }
  return elements
}

/** BYTES elements in the wire form: each a 4-byte little-endian length, then its bytes. */
export function writeBytesElements(elements: readonly Uint8Array[]): Buffer {
  let total = 0
  for (const element of elements) total += 4 + element.length
  const out = Buffer.allocUnsafe(total)
  let offset = 0
  for (const element of elements) {
    out.writeUInt32LE(element.length, offset)
    offset += 4
    out.set(element, offset)
    offset += element.length
  }
  return out
}

/** A response body of the extension: the JSON header, then each binary tensor's bytes. */
export interface BinaryBody {
  /** The header's bytes first, then the tensors' in order: written without joining them. */
  chunks: Buffer[]
  /** The value of `Inference-Header-Content-Length`. */
  headerLength: number
  /** The value of `Content-Length`. */
  totalLength: number
}

/** Frames a response: `header` (JSON text) followed by `tensors`, each a list of byte chunks. */
export function binaryBody(header: string, tensors: readonly Buffer[]): BinaryBody {
  const head = Buffer.from(header, 'utf8')
  let totalLength = head.length
  for (const chunk of tensors) totalLength += chunk.length
  return { chunks: [head, ...tensors], headerLength: head.length, totalLength }
}
