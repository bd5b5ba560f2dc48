import type { TypedArray } from '../types.js'

export function isTypedArray(value: unknown): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView)
}

/**
 * A typed array that owns its whole `ArrayBuffer`, so transferring the buffer moves
 * exactly this data. A view into a larger buffer (a per-row view of a batch output, a
 * `Buffer` from Node's shared pool) is copied first: transferring its buffer would
 * detach the neighbours' data, and cloning it would copy the whole buffer.
 */
export function ownBuffer<T extends TypedArray>(data: T): T {
  const buffer = data.buffer
  if (buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === buffer.byteLength) return data
  return data.slice() as T
}

/**
 * Replaces every typed array found at the top level or one `{ data }` level down of
 * `record` with one that owns its buffer, and collects those buffers for transfer.
 */
export function prepareTransfer<R extends Record<string, unknown>>(record: R): { value: R; transfer: ArrayBuffer[] } {
  const transfer = new Set<ArrayBuffer>()
  // fromEntries defines own properties, so even a key named `__proto__` stays data.
  const value = Object.fromEntries(
    Object.entries(record).map(([key, entry]): [string, unknown] => {
      if (isTypedArray(entry)) {
        const own = ownBuffer(entry)
        transfer.add(own.buffer as ArrayBuffer)
        return [key, own]
      }
      if (typeof entry === 'object' && entry !== null && isTypedArray((entry as { data?: unknown }).data)) {
        const own = ownBuffer((entry as { data: TypedArray }).data)
        transfer.add(own.buffer as ArrayBuffer)
        return [key, { ...entry, data: own }]
      }
      return [key, entry]
    }),
  )
  return { value: value as R, transfer: [...transfer] }
}
