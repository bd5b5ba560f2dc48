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
import { ModelRepositoryLayoutError } from '../repository/errors.js'

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

/**
 * The `config` parameter of a load request (a string of JSON); a `file:` parameter is
 * refused: inferpool takes no model files over the wire.
 */
function loadConfig(body: Record<string, unknown>): string | undefined {
  const parameters = body.parameters
  if (parameters === undefined) return undefined
  if (typeof parameters !== 'object' || parameters === null) throw new MalformedJsonError('`parameters` must be an object')
  for (const key of Object.keys(parameters)) {
    if (key.startsWith('file:')) {
      throw new ModelRepositoryLayoutError(key, 'model files in a load request are not accepted (they would be code run on the server)')
    }
  }
  const config = (parameters as Record<string, unknown>).config
  if (config !== undefined && typeof config !== 'string') throw new MalformedJsonError('`parameters.config` must be a string of JSON')
  return config
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
    if (parts[2] === 'load') await control.load(name, loadConfig(body))
    else await control.unload(name)
    return { status: 200, body: {} }
  }
  throw new RouteNotFoundError(path)
}
