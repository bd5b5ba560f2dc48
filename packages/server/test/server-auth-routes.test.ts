/**
 * Every HTTP route (from the declared table, http/routes.ts) and every gRPC RPC (from the
 * service definition) refuses a caller without its token, unless the table or the call
 * guard says it is open: a route or an RPC added later is checked here without anyone
 * listing it. Real HTTP and HTTP/2 on 127.0.0.1, a real model repository (empty).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { GRPC_SERVICE_DEFINITION, ModelRepository, serve } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import type { InferpoolServer } from '@inferpool/server'
import { mayCall } from '../src/grpc/call-guard.js'
import { HTTP_ROUTES, MODEL_PATH } from '../src/http/routes.js'
import { drain, grpcClient } from './grpc-helpers.js'
import type { TestClient } from './grpc-helpers.js'
import { demoModel, http } from './server-helpers.js'

const API_KEY = 'inference-key'
const REPOSITORY_TOKEN = 'repository-token'
const UNAUTHENTICATED = 16
const quiet = { error() {}, info() {}, warn() {} }

let pool: Pool
let server: InferpoolServer
let client: TestClient
let root: string
beforeAll(async () => {
  pool = await createPool({ model: demoModel, replicas: 1, logger: quiet })
  root = mkdtempSync(join(tmpdir(), 'inferpool-auth-'))
  const control = new ModelRepository({ repositories: [root], createPool: () => Promise.reject(new Error('not used')), logger: quiet })
  server = await serve(
    { demo: pool },
    { port: 0, grpcPort: 0, closePools: false, logger: quiet, apiKey: API_KEY, repositoryToken: REPOSITORY_TOKEN, modelControl: control },
  )
  control.serveInto(server.handler.served)
  client = grpcClient(server.grpcAddress as string)
})
afterAll(async () => {
  client?.close()
  await server?.close()
  await pool?.close()
  rmSync(root, { recursive: true, force: true })
})

/** Concrete paths of a declared route: a model route with and without its version, a prefix with one of its paths. */
function pathsOf(path: string): string[] {
  if (path.startsWith(MODEL_PATH)) {
    const action = path.slice(MODEL_PATH.length)
    return [`/v2/models/demo${action}`, `/v2/models/demo/versions/1${action}`]
  }
  if (path.endsWith('/*')) return [`${path.slice(0, -1)}index`]
  return [path]
}

const httpCases = HTTP_ROUTES.flatMap((route) =>
  pathsOf(route.path).flatMap((path) => route.method.map((method) => ({ method, path, auth: route.auth ?? 'bearer' }))),
)

describe('every HTTP route of the table', () => {
  it('covers the table (a route the table gains is checked below)', () => {
    expect(new Set(httpCases.map((c) => c.auth))).toEqual(new Set(['open', 'bearer', 'repository']))
    expect(httpCases.length).toBeGreaterThanOrEqual(HTTP_ROUTES.length)
  })

  it.each(httpCases)('$method $path ($auth) refuses a missing or wrong token unless open', async ({ method, path, auth }) => {
    const url = `${server.url as string}${path}`
    const body = method === 'POST' ? '{}' : undefined
    const headers = { 'content-type': 'application/json' }
    const missing = await http(url, { method, body, headers })
    const wrong = await http(url, { method, body, headers: { ...headers, authorization: 'Bearer nope' } })
    // The other token: the inference bearer does not open the repository routes, nor the repository token the others.
    const other = await http(url, {
      method,
      body,
      headers: { ...headers, authorization: `Bearer ${auth === 'repository' ? API_KEY : REPOSITORY_TOKEN}` },
    })
    const right = await http(url, {
      method,
      body,
      headers: { ...headers, authorization: `Bearer ${auth === 'repository' ? REPOSITORY_TOKEN : API_KEY}` },
    })
    const statuses = [missing.status, wrong.status, other.status]
    if (auth === 'open') expect(statuses.filter((status) => status === 401)).toEqual([])
    else {
      expect(statuses).toEqual([401, 401, 401])
      // A HEAD answer has no body to say it in.
      if (method !== 'HEAD') expect(missing.json).toEqual({ error: expect.any(String) as string, code: 'ERR_UNAUTHORIZED' })
    }
    expect(right.status).not.toBe(401)
  })
})

/** Whether the call guard lets a call without any token through: the open RPCs. */
const nobody = { authorized: () => false, authorizedControl: () => false }
const rpcs = Object.entries(GRPC_SERVICE_DEFINITION).map(([name, method]) => ({
  name,
  stream: method.requestStream,
  open: mayCall(nobody, method.path, undefined),
}))

describe('every gRPC RPC of the service definition', () => {
  it('covers the definition, with the health RPCs open', () => {
    expect(rpcs.filter((rpc) => rpc.open).map((rpc) => rpc.name)).toEqual(['ServerLive', 'ServerReady'])
    expect(rpcs.length).toBe(Object.keys(GRPC_SERVICE_DEFINITION).length)
  })

  it.each(rpcs)('$name refuses a missing or wrong token unless open (open: $open)', async ({ name, stream, open }) => {
    for (const token of [undefined, 'nope']) {
      let code: number
      if (stream) {
        const call = client.stream(token === undefined ? {} : { token })
        call.end()
        code = (await drain(call)).status.code
      } else {
        const outcome = await client.call(name, {}, token === undefined ? {} : { token })
        code = outcome.ok ? 0 : outcome.code
      }
      if (open) expect(code).not.toBe(UNAUTHENTICATED)
      else expect(code).toBe(UNAUTHENTICATED)
    }
  })
})
