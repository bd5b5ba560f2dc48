/**
 * The model repository extension over HTTP (Triton's `POST /v2/repository/index`,
 * `POST /v2/repository/models/{name}/load` and `.../unload`), on the served models'
 * `control`. The calls take the repository token, not the inference bearer. Their
 * bodies are small JSON objects (a load's `config` override is the largest), read here
 * whole, up to `maxBodyBytes`.
 */
import type { IncomingMessage } from 'node:http'
import {
  MalformedJsonError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RouteNotFoundError,
  UnauthorizedError,
} from '../protocol/errors.js'
import type { ServedModels } from '../protocol/served-models.js'
import { ModelUploadError } from '../repository/errors.js'
import { FILE_PARAMETER } from '../repository/uploads.js'

/** Paths of the extension start with this. */
export const REPOSITORY_PREFIX = '/v2/repository/'

/** A JSON answer. */
export interface RepositoryAnswer {
  readonly status: number
  readonly body: unknown
}

async function jsonBody(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length
    if (length > limit) throw new PayloadTooLargeError(limit)
    chunks.push(chunk)
  }
  if (length === 0) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch (error) {
    throw new MalformedJsonError((error as Error).message)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new MalformedJsonError('expected a JSON object')
  return parsed as Record<string, unknown>
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * The `config` parameter of a load request (a string of JSON) and its `file:<version>/<name>`
 * parameters (base64 strings, as Triton's HTTP client sends them), decoded.
 */
function loadParameters(name: string, body: Record<string, unknown>): { config: string | undefined; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>()
  const parameters = body.parameters
  if (parameters === undefined) return { config: undefined, files }
  if (typeof parameters !== 'object' || parameters === null) throw new MalformedJsonError('`parameters` must be an object')
  for (const [key, value] of Object.entries(parameters)) {
    if (!key.startsWith(FILE_PARAMETER)) continue
    if (typeof value !== 'string' || !BASE64.test(value)) throw new ModelUploadError(name, key, 'must be the file content, base64-encoded')
    files.set(key.slice(FILE_PARAMETER.length), Buffer.from(value, 'base64'))
  }
  const config = (parameters as Record<string, unknown>).config
  if (config !== undefined && typeof config !== 'string') throw new MalformedJsonError('`parameters.config` must be a string of JSON')
  return { config, files }
}

/** Answers one request under `/v2/repository/`; throws a registered error to be answered as such. */
export async function repositoryRoute(served: ServedModels, req: IncomingMessage, path: string): Promise<RepositoryAnswer> {
  const control = served.control
  if (control === undefined) throw new RouteNotFoundError(path)
  if (!served.authorizedControl(req.headers.authorization)) throw new UnauthorizedError()
  const method = req.method ?? 'GET'
  if (method !== 'POST') throw new MethodNotAllowedError(method, ['POST'])
  const parts = path.slice(REPOSITORY_PREFIX.length).split('/')
  const limit = served.options.maxBodyBytes
  if (parts.length === 1 && parts[0] === 'index') {
    const body = await jsonBody(req, limit)
    return { status: 200, body: control.index(body.ready === true) }
  }
  if (parts.length === 3 && parts[0] === 'models' && (parts[2] === 'load' || parts[2] === 'unload')) {
    let name: string
    try {
      name = decodeURIComponent(parts[1])
    } catch {
      throw new RouteNotFoundError(path)
    }
    const body = await jsonBody(req, limit)
    if (parts[2] === 'load') {
      const { config, files } = loadParameters(name, body)
      await control.load(name, config, files)
    } else {
      await control.unload(name)
    }
    return { status: 200, body: {} }
  }
  throw new RouteNotFoundError(path)
}
