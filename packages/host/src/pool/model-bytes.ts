/**
 * A loaded model version is immutable: the pool reads its model once, at creation, and
 * every replica it ever starts (the first ones, a replacement after a crash, a rebuilt
 * set) runs those same bytes. A model file replaced or truncated on disk afterwards
 * reaches no replica; only a new pool (an explicit reload) reads the file again.
 *
 * The bytes live in a SharedArrayBuffer: worker threads get a view of the same memory
 * through `workerData` instead of a copy each (each thread still copies them once into
 * its own buffer to load, as ORT refuses shared memory: docs/runtime-facts.md). Replica
 * processes cannot share memory with the host: the process transport writes the bytes
 * to a private file of its own (process/model-file.ts).
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { ModelLoadError } from '../errors.js'
import { externalDataFiles } from './external-data.js'
import type { ResolvedPoolOptions } from './options.js'

/** The model of a pool, as read once at its creation. */
export interface ModelBytes {
  /** The model's bytes, over a SharedArrayBuffer. */
  readonly bytes: Uint8Array
  /** Hex SHA-256 of `bytes`: which model version the pool serves (`pool.metadata.modelSha256`). */
  readonly sha256: string
}

/** SHA-256 of some bytes, in hex. */
export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/**
 * Reads the model once (a path) or takes the caller's bytes, and copies them into
 * shared memory: the caller's array stays theirs to reuse. Rejects with
 * `ModelLoadError` naming the path when the file cannot be read or is empty.
 */
export async function readModelBytes(model: string | Uint8Array): Promise<ModelBytes> {
  let source: Uint8Array
  if (typeof model === 'string') {
    try {
      source = await readFile(model)
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      throw new ModelLoadError(`Failed to load model ${model}: ${message}`, {
        cause: err,
        details: { model, runtimeMessage: message },
      })
    }
    // ORT's own message for an empty buffer does not say what is wrong.
    if (source.byteLength === 0) {
      throw new ModelLoadError(`Failed to load model ${model}: the file is empty`, { details: { model } })
    }
  } else {
    source = model
  }
  refuseExternalData(source, typeof model === 'string' ? model : `<bytes: ${model.byteLength}>`)
  const bytes = new Uint8Array(new SharedArrayBuffer(source.byteLength))
  bytes.set(source)
  return { bytes, sha256: sha256Of(bytes) }
}

/**
 * A model whose tensor data lives in files beside it (ONNX external data) cannot be
 * served from bytes read once: ORT would look for those files relative to the working
 * directory, and a file changed on disk would change a loaded version. Refused here,
 * at `createPool`, naming the files, rather than failing in every replica.
 */
function refuseExternalData(source: Uint8Array, model: string): void {
  let files: string[]
  try {
    files = externalDataFiles(source)
  } catch {
    // Not a protobuf at all: ORT's load reports it, with its own message.
    return
  }
  if (files.length === 0) return
  throw new ModelLoadError(
    `Failed to load model ${model}: its tensor data is kept in external file${files.length > 1 ? 's' : ''} ${files.join(', ')} ` +
      `(ONNX external data), which inferpool does not load: it reads a model once, as one file, so that every replica runs ` +
      `the same bytes. Save the model with its data inside (it must be under 2 GB).`,
    { details: { model, externalData: files } },
  )
}

/**
 * How a replica's messages name the model (`OnnxWorkerOptions.label`): the user's path,
 * or `<bytes: N>` for bytes they gave — never the private copy a replica loads.
 */
export function modelLabelFor(options: Pick<ResolvedPoolOptions, 'model' | 'modelLabel'>): string | undefined {
  if (options.modelLabel !== '<bytes>') return options.modelLabel
  return typeof options.model === 'string' ? undefined : `<bytes: ${options.model.byteLength}>`
}

/**
 * The options a pool keeps once its replicas have started. Process replicas load their
 * transport's private copy (process/model-file.ts), a respawn too, so in process mode
 * the bytes are let go (`model` becomes the label, which is all that is read of it from
 * then on): the host would otherwise hold the whole model for the pool's life. Thread
 * replicas need the bytes for every replacement.
 */
export function withoutUnneededBytes(options: ResolvedPoolOptions): ResolvedPoolOptions {
  if (options.isolation !== 'process' || typeof options.model === 'string') return options
  return { ...options, model: options.modelLabel }
}
