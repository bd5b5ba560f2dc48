/**
 * Teaches comlink to keep an error's `code` and `details` (and, on the receiving
 * side, its class). Comlink's built-in `'throw'` handler sends only `message`, `name`
 * and `stack`. comlink keeps its handlers in one process-wide (per-thread) map, so the
 * built-in handler is wrapped, not replaced: errors without a string `code`, and every
 * other thrown value, go through it unchanged.
 */
import { transferHandlers } from 'comlink'
import type { TransferHandler } from 'comlink'
import type { SerializedError } from '@inferpool/core'
import { fromWire, toWire } from '../wire-errors.js'

interface SerializedThrow {
  readonly isError: boolean
  readonly value: unknown
  readonly inferpool?: SerializedError
}

const INSTALLED = Symbol.for('inferpool.comlink.errorTransfer')

function hasCode(value: unknown): value is Error & { code: string } {
  return value instanceof Error && typeof (value as { code?: unknown }).code === 'string'
}

/** Installs the handler in this thread (idempotent). Both sides of a port need it. */
export function installErrorTransferHandler(): void {
  const base = transferHandlers.get('throw') as TransferHandler<{ value: unknown }, SerializedThrow> | undefined
  if (base === undefined || (base as { [INSTALLED]?: true })[INSTALLED]) return
  const handler: TransferHandler<{ value: unknown }, SerializedThrow> & { [INSTALLED]: true } = {
    [INSTALLED]: true,
    canHandle: (value): value is { value: unknown } => base.canHandle(value),
    serialize(thrown) {
      const [serialized, transferables] = base.serialize(thrown)
      if (!hasCode(thrown.value)) return [serialized, transferables]
      return [{ ...serialized, inferpool: toWire(thrown.value) }, transferables]
    },
    deserialize(serialized) {
      if (serialized.inferpool !== undefined) throw fromWire(serialized.inferpool)
      return base.deserialize(serialized)
    },
  }
  transferHandlers.set('throw', handler)
}
