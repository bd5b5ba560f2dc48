/**
 * The HTTP routes, declared: each with its methods, its path, who may call it and what
 * answers it. Who may call a route is a property of the route (`auth`), never of where
 * it sits: a route that does not say needs the inference bearer (`apiKey`), as every gRPC
 * RPC does unless the call guard lists it as open (grpc/call-guard.ts `mayCall`).
 *
 *   'open'        no token (the health checks, as gRPC's ServerLive / ServerReady)
 *   'bearer'      the inference bearer, `apiKey` (the default)
 *   'repository'  the repository token, `repositoryToken` (or `apiKey` without one)
 *
 * Paths: a literal path; `/v2/models/{name}[/versions/{version}]` followed by an action
 * (the model's version optional, its name and version percent-decoded); or a prefix
 * ending in `/*` (the repository extension's routes, which read the rest themselves).
 * Matching keeps to a split of the path and one map lookup: the door is hot.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ECHO_MAX_CHARS, MethodNotAllowedError, RouteNotFoundError, UnauthorizedError, bounded } from '../protocol/errors.js'
import { SERVER_NAME, SERVER_VERSION, modelMetadata } from '../protocol/metadata.js'
import type { ServedModel, ServedModels } from '../protocol/served-models.js'
import { modelConfigOf } from '../protocol/triton/config.js'
import type { HttpExchange } from './infer-exchange.js'
import { REPOSITORY_PREFIX, repositoryRoute } from './repository-routes.js'
import type { ResponseWriter } from './response-writer.js'

/** Who may call a route. */
export type RouteAuth = 'open' | 'bearer' | 'repository'

/** A request's state, from its route's match to its 'close' (one object per request). */
export interface RequestState {
  /** Its inference exchange, if it is one (its 'close' records it). */
  exchange: HttpExchange | undefined
  /** A model route's model name and version (`undefined`: the server's choice), as matched. */
  name: string
  version: string | undefined
}

/** What a route's handler is given of the request handler. */
export interface RouteContext {
  readonly served: ServedModels
  readonly writer: ResponseWriter
  /** An inference request, answered by its exchange. */
  infer(req: IncomingMessage, res: ServerResponse, model: ServedModel, state: RequestState): Promise<void>
}

/** Answers a request on a matched route; `model` is the version a model route names (looked up after the auth check). */
export type RouteHandler = (
  context: RouteContext,
  req: IncomingMessage,
  res: ServerResponse,
  state: RequestState,
  model: ServedModel | undefined,
  path: string,
) => void | Promise<void>

export interface HttpRoute {
  readonly method: readonly string[]
  readonly path: string
  /** @default 'bearer' */
  readonly auth?: RouteAuth
  /**
   * Whether a model route's model is looked up before its handler (an unknown one: 404);
   * `false`: the handler reads the name and version from the request's state.
   * @default true
   */
  readonly lookup?: boolean
  readonly handler: RouteHandler
}

const GET = ['GET', 'HEAD'] as const
const POST = ['POST'] as const

/** The path of the model routes, before their action. */
export const MODEL_PATH = '/v2/models/{name}[/versions/{version}]'

/** What every model route's path starts with. */
const MODELS_PREFIX = '/v2/models/'

function modelOf(model: ServedModel | undefined): ServedModel {
  return model as ServedModel
}

/** Every route of the handler. */
export const HTTP_ROUTES: readonly HttpRoute[] = [
  { method: GET, path: '/v2/health/live', auth: 'open', handler: (c, req, res) => c.writer.json(req, res, 200, { live: true }) },
  {
    method: GET,
    path: '/v2/health/ready',
    auth: 'open',
    handler: (c, req, res) => {
      const ready = c.served.isReady()
      c.writer.json(req, res, ready ? 200 : 503, { ready })
    },
  },
  {
    method: GET,
    path: '/v2',
    handler: (c, req, res) => c.writer.json(req, res, 200, { name: SERVER_NAME, version: SERVER_VERSION, extensions: c.served.extensions }),
  },
  {
    method: GET,
    path: '/metrics',
    handler: async (c, req, res) => {
      const metrics = c.served.metrics
      await metrics.refresh()
      const text = await c.served.options.collectMetrics(metrics.registry)
      c.writer.send(req, res, 200, text, metrics.registry.contentType)
    },
  },
  // Every loaded model (Triton lists the models it has loaded).
  { method: GET, path: '/v2/models/stats', handler: (c, req, res) => c.writer.json(req, res, 200, { model_stats: c.served.statistics() }) },
  {
    method: GET,
    path: MODEL_PATH,
    handler: (c, req, res, _state, model) => {
      const entry = modelOf(model)
      const metadata = c.served.poolOf(entry).metadata
      c.writer.json(req, res, 200, {
        ...modelMetadata(entry.name, c.served.versionsOf(entry), metadata),
        parameters: {
          max_batch_size: metadata.maxBatchSize,
          fixed_batch_size: metadata.fixedBatchSize,
          replicas: metadata.replicas,
          concurrency: metadata.concurrency,
          execution_provider: metadata.executionProvider,
        },
      })
    },
  },
  {
    method: GET,
    path: `${MODEL_PATH}/ready`,
    // An unknown or unloaded model is not ready, not a 404: the same answer as gRPC's ModelReady.
    lookup: false,
    handler: (c, req, res, state) => {
      const ready = c.served.isModelReady(state.name, state.version)
      // Triton's HTTP endpoint answers 400 for a model version that is not ready (http_server.cc).
      c.writer.json(req, res, ready ? 200 : 400, { name: bounded(state.name, ECHO_MAX_CHARS), ready })
    },
  },
  {
    method: GET,
    path: `${MODEL_PATH}/config`,
    handler: (c, req, res, _state, model) => {
      const entry = modelOf(model)
      c.writer.json(req, res, 200, modelConfigOf(entry.name, c.served.poolOf(entry)))
    },
  },
  {
    method: GET,
    path: `${MODEL_PATH}/stats`,
    handler: (c, req, res, _state, model) => c.writer.json(req, res, 200, { model_stats: c.served.statistics(modelOf(model)) }),
  },
  { method: POST, path: `${MODEL_PATH}/infer`, handler: (c, req, res, state, model) => c.infer(req, res, modelOf(model), state) },
  // The model repository extension: its routes read their own paths (repository-routes.ts).
  {
    method: POST,
    path: `${REPOSITORY_PREFIX}*`,
    auth: 'repository',
    handler: async (c, req, res, _state, _model, path) => {
      const answer = await repositoryRoute(c.served, req, path)
      c.writer.json(req, res, answer.status, answer.body)
    },
  },
]

/** A path segment with its percent-escapes decoded (most have none: returned as it is). */
function decodePathPart(part: string): string {
  return part.includes('%') ? decodeURIComponent(part) : part
}

/** Routes compiled for matching (`routeTable`). */
export interface RouteTable {
  /**
   * The route of `path` (its methods not checked), or `RouteNotFoundError`; a model route
   * leaves its model's name and version in `state`.
   */
  match(path: string, state: RequestState): HttpRoute
}

/**
 * Compiles `routes` for matching: literal paths in a map, model routes by action,
 * prefixes in order. `served` leaves out the repository routes when the extension is off
 * (they answer 404, as a path the server does not know).
 */
export function routeTable(routes: readonly HttpRoute[], served: ServedModels): RouteTable {
  const literal = new Map<string, HttpRoute>()
  /** Model routes by action ('' for the model's metadata). */
  const actions = new Map<string, HttpRoute>()
  const prefixes: Array<[string, HttpRoute]> = []
  for (const route of routes) {
    if (route.path.startsWith(MODEL_PATH)) actions.set(route.path.slice(MODEL_PATH.length + 1), route)
    else if (route.path.endsWith('/*')) {
      if (route.path.startsWith(REPOSITORY_PREFIX) && served.control === undefined) continue
      prefixes.push([route.path.slice(0, -1), route])
    } else literal.set(route.path, route)
  }
  /** Literal paths that have the model routes' shape (`/v2/models/stats`): they win over a model of that name. */
  const modelShaped = [...literal.keys()].filter((path) => path.startsWith(MODELS_PREFIX))
  return {
    match(path, state) {
      // The model routes first (inference is the hot one): a prefix, then the split path.
      if (!path.startsWith(MODELS_PREFIX) || modelShaped.includes(path)) {
        const exact = literal.get(path)
        if (exact !== undefined) return exact
        for (const [prefix, route] of prefixes) if (path.startsWith(prefix)) return route
        throw new RouteNotFoundError(path)
      }
      // /v2/models/{name}[/versions/{version}][/{action}]
      const parts = path.split('/')
      let name: string
      let version: string | undefined
      try {
        name = decodePathPart(parts[3])
        version = parts[4] === 'versions' ? decodePathPart(parts[5] ?? '') : undefined
      } catch {
        throw new RouteNotFoundError(path)
      }
      const after = version === undefined ? 4 : 6
      const action = parts.length === after ? '' : parts.length === after + 1 ? parts[after] : undefined
      const route = action === undefined || name === '' ? undefined : actions.get(action)
      if (route === undefined) throw new RouteNotFoundError(path)
      state.name = name
      state.version = version
      return route
    },
  }
}

/** Refuses a request that may not call `route` (401), or not with its method (405). */
export function checkRoute(route: HttpRoute, req: IncomingMessage, served: ServedModels): void {
  const auth = route.auth ?? 'bearer'
  if (auth !== 'open') {
    const authorization = req.headers.authorization
    if (!(auth === 'repository' ? served.authorizedControl(authorization) : served.authorized(authorization))) throw new UnauthorizedError()
  }
  const method = req.method ?? 'GET'
  if (!route.method.includes(method)) throw new MethodNotAllowedError(method, route.method)
}
