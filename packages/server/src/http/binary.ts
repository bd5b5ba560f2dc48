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
 * This module only frames and unframes the HTTP body; the tensors' own bytes are
 * protocol/tensor-bytes.ts's, what they mean decode.ts's and encode.ts's business. It
 * never allocates from a size the client declares: sizes are compared with the bytes
 * actually received (which the body limit bounds) before any view is made.
 */
import { mostDeclaredRows } from '../protocol/declared-rows.js'
import type { DeclaredRows } from '../protocol/declared-rows.js'
import { MalformedBinaryError } from '../protocol/errors.js'
import { parseJson } from './body.js'

/** The request and response header naming the length of the JSON header. */
export const HEADER_LENGTH_HEADER = 'inference-header-content-length'

/** Content type of a response that carries binary tensor data. */
export const BINARY_CONTENT_TYPE = 'application/octet-stream'

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
 * The rows a binary request's JSON header declares, read before its tensor bytes
 * (protocol/declared-rows.ts): `undefined` when no input declares a usable count.
 */
export function declaredRows(header: unknown): DeclaredRows | undefined {
  if (typeof header !== 'object' || header === null) return undefined
  const inputs = (header as { inputs?: unknown }).inputs
  return Array.isArray(inputs) ? mostDeclaredRows(inputs) : undefined
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

/** A response body of the extension: the JSON header, then each binary tensor's bytes. */
export interface BinaryBody {
  /**
   * The header's bytes first, then the tensors' in order: written without joining them;
   * a small body is one chunk (`ONE_CHUNK_MAX_BYTES`).
   */
  chunks: Buffer[]
  /** The value of `Inference-Header-Content-Length`. */
  headerLength: number
  /** The value of `Content-Length`. */
  totalLength: number
}

/**
 * The largest response body framed as one buffer: the header written straight into it
 * and the tensors copied after it (one small allocation from Node's buffer pool, one
 * write) instead of a buffer for the header and a list of chunks. A single-row answer is
 * a few hundred bytes; a large one is not copied.
 */
export const ONE_CHUNK_MAX_BYTES = 16 * 1024

/** Frames a response: `header` (JSON text) followed by `tensors`, each a list of byte chunks. */
export function binaryBody(header: string, tensors: readonly Buffer[]): BinaryBody {
  const headerLength = Buffer.byteLength(header, 'utf8')
  let totalLength = headerLength
  for (const chunk of tensors) totalLength += chunk.length
  if (totalLength > ONE_CHUNK_MAX_BYTES) return { chunks: [Buffer.from(header, 'utf8'), ...tensors], headerLength, totalLength }
  const whole = Buffer.allocUnsafe(totalLength)
  let offset = whole.write(header, 0, 'utf8')
  for (const chunk of tensors) offset += chunk.copy(whole, offset)
  return { chunks: [whole], headerLength, totalLength }
}
