/**
 * The model repository extension over HTTP (Triton's `POST /v2/repository/index`,
 * `POST /v2/repository/models/{name}/load` and `.../unload`), on the served models'
 * `control`. The calls take the repository token, not the inference bearer. Their
 * bodies are JSON objects (a load's model files, base64-encoded, the largest), read here
 * whole, up to `maxBodyBytes`, as an inference body is: drawing on the pending-bytes
 * budget while they arrive, and within `bodyTimeoutMs` (408 past it).
 */
import type { IncomingMessage } from 'node:http'
import {
  MalformedJsonError,
  MethodNotAllowedError,
  RequestTimeoutError,
  RouteNotFoundError,
  UnauthorizedError,
} from '../protocol/errors.js'
import type { ServedModels } from '../protocol/served-models.js'
import { ModelUploadError } from '../repository/errors.js'
import { checkUploadCount, FILE_PARAMETER } from '../repository/uploads.js'
import { BodyReader } from './body.js'

/** Paths of the extension start with this. */
export const REPOSITORY_PREFIX = '/v2/repository/'

/** A JSON answer. */
export interface RepositoryAnswer {
  readonly status: number
  readonly body: unknown
}

/** The body as a JSON object (none: `{}`), read within the server's body limit, pending-bytes budget and body timeout. */
async function jsonBody(served: ServedModels, req: IncomingMessage): Promise<Record<string, unknown>> {
  const { maxBodyBytes, bodyTimeoutMs } = served.options
  const reader = new BodyReader(req, maxBodyBytes, served.pendingBodyBytes)
  if (!reader.readBuffered()) {
    const timer = setTimeout(() => reader.abort(new RequestTimeoutError(bodyTimeoutMs)), bodyTimeoutMs)
    try {
      await reader.read(Infinity)
    } finally {
      clearTimeout(timer)
      reader.release()
    }
  }
  if (reader.length === 0) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(reader.bytes().toString('utf8'))
  } catch (error) {
    throw new MalformedJsonError((error as Error).message)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new MalformedJsonError('expected a JSON object')
  return parsed as Record<string, unknown>
}

/** 'A'-'Z', 'a'-'z', '0'-'9', '+', '/', by char code. */
function isBase64Char(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47
}

/**
 * Whether `text` is padded base64 (RFC 4648 §4), checked in one pass: a regular
 * expression with a repeated group backtracks through the stack in V8 and overflows it
 * on a few MB.
 */
function isBase64(text: string): boolean {
  const length = text.length
  if (length % 4 !== 0) return false
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  for (let i = 0; i < length - padding; i++) if (!isBase64Char(text.charCodeAt(i))) return false
  return true
}

/**
 * The `config` parameter of a load request (a string of JSON) and its `file:<version>/<name>`
 * parameters (base64 strings, as Triton's HTTP client sends them), decoded.
 */
function loadParameters(name: string, body: Record<string, unknown>): { config: string | undefined; files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>()
  const parameters = body.parameters
  if (parameters === undefined) return { config: undefined, files }
  if (typeof parameters !== 'object' || parameters === null) throw new MalformedJsonError('`parameters` must be an object')
  const entries = Object.entries(parameters).filter(([key]) => key.startsWith(FILE_PARAMETER))
  // Counted before any is decoded.
  checkUploadCount(name, entries.length)
  for (const [key, value] of entries) {
    if (typeof value !== 'string' || !isBase64(value)) throw new ModelUploadError(name, key, 'must be the file content, base64-encoded')
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
  if (parts.length === 1 && parts[0] === 'index') {
    const body = await jsonBody(served, req)
    return { status: 200, body: control.index(body.ready === true) }
  }
  if (parts.length === 3 && parts[0] === 'models' && (parts[2] === 'load' || parts[2] === 'unload')) {
    let name: string
    try {
      name = decodeURIComponent(parts[1])
    } catch {
      throw new RouteNotFoundError(path)
    }
    const body = await jsonBody(served, req)
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
