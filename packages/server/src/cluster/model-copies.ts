/**
 * A loaded model version is immutable in a cluster too: the primary of `inferpool serve
 * --processes n` reads each `--model` file once, before its first fork, and keeps a
 * private copy of it (the same mechanism as a pool's replica processes,
 * ../pool/process/model-file.ts). Every server process it forks, the first ones and every
 * replacement after a crash, loads that copy and checks its SHA-256: a model file
 * replaced or truncated on disk afterwards reaches no process. The primary removes the
 * copies when it exits.
 *
 * The copies travel to the server processes in their environment (`INFERPOOL_MODEL_COPIES`),
 * a JSON map from the flag's path to the copy's path and SHA-256.
 */
import cluster from 'node:cluster'
import { ModelLoadError } from '@inferpool/host'
import { readModelBytes } from '@inferpool/host/internal'
import { ModelFile } from '@inferpool/host/internal'
import type { Pool } from '@inferpool/host'

/** The environment variable that carries the primary's copies to a server process. */
const MODEL_COPIES_ENV = 'INFERPOOL_MODEL_COPIES'

/** One `--model` file as the primary read it. */
interface ModelCopy {
  /** The private copy's path. */
  readonly path: string
  /** Hex SHA-256 of the bytes read. */
  readonly sha256: string
}

/** The primary's copies of the `--model` files, for its forks' environment; removed by `remove()`. */
export interface ModelCopies {
  /** `{ [MODEL_COPIES_ENV]: JSON }` for `cluster.fork`. */
  readonly env: Readonly<Record<string, string>>
  remove(): Promise<void>
}

/** Reads every model file once and writes its private copy. Rejects with `ModelLoadError` naming an unreadable file. */
export async function copyModels(paths: readonly string[]): Promise<ModelCopies> {
  const files: ModelFile[] = []
  const remove = async (): Promise<void> => {
    await Promise.all(files.splice(0).map((file) => file.remove()))
  }
  const copies: Record<string, ModelCopy> = {}
  try {
    for (const path of new Set(paths)) {
      const { bytes, sha256 } = await readModelBytes(path)
      const file = await ModelFile.write(bytes)
      files.push(file)
      copies[path] = { path: file.path, sha256 }
    }
  } catch (err) {
    await remove()
    throw err
  }
  return { env: { [MODEL_COPIES_ENV]: JSON.stringify(copies) }, remove }
}

/**
 * The pool for the `--model` file at `path`: in a server process of a cluster, created
 * from the primary's copy and checked against the SHA-256 the primary read; elsewhere
 * (or for a path the primary did not copy), from `path` itself.
 */
export async function poolFromPrimaryCopy(path: string, create: (path: string) => Promise<Pool>): Promise<Pool> {
  const copies = cluster.isWorker ? (JSON.parse(process.env[MODEL_COPIES_ENV] ?? '{}') as Record<string, ModelCopy>) : {}
  const copy = copies[path] as ModelCopy | undefined
  if (copy === undefined) return create(path)
  const pool = await create(copy.path)
  if (pool.metadata.modelSha256 !== copy.sha256) {
    await pool.destroy()
    throw new ModelLoadError(
      `Failed to load model ${path}: the primary's copy ${copy.path} has SHA-256 ${pool.metadata.modelSha256}, not ${copy.sha256}`,
      { details: { model: path } },
    )
  }
  return pool
}
