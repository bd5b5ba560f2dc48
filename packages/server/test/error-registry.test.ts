import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as core from '@inferpool/core'
import * as host from '@inferpool/host'
import * as server from '@inferpool/server'
import { errorTableMarkdown } from '../src/error-registry.js'

const { InferpoolError } = core
const { RemoteWorkerError, fromWire } = host
const { ERROR_REGISTRY, GrpcStatus, grpcStatusOf, httpHeadersOf, httpStatusOf, publicErrorOf } = server

/** Every exported class that extends InferpoolError, by name. */
function exportedErrorClasses(module: Record<string, unknown>): Map<string, unknown> {
  const found = new Map<string, unknown>()
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function' && value.prototype instanceof InferpoolError) found.set(name, value)
  }
  return found
}

describe('the error registry', () => {
  it('registers every exported error class of @inferpool/core, @inferpool/host and @inferpool/server (RemoteWorkerError stands for unregistered codes)', () => {
    const registered = new Set<unknown>(ERROR_REGISTRY.map((s) => s.class))
    const exported = new Map([...exportedErrorClasses(core), ...exportedErrorClasses(host), ...exportedErrorClasses(server)])
    const missing = [...exported].filter(([, cls]) => !registered.has(cls) && cls !== RemoteWorkerError).map(([name]) => name)
    expect(missing).toEqual([])
    expect(exported.size).toBe(ERROR_REGISTRY.length + 1)
  })

  it('gives every class one entry, under its own static code', () => {
    const codes = ERROR_REGISTRY.map((s) => s.code)
    expect(new Set(codes).size).toBe(codes.length)
    for (const s of ERROR_REGISTRY) expect(s.code).toBe(s.class.code)
  })

  it("is the README's error table, row for row", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
    const block = readme.slice(
      readme.indexOf('<!-- errors:start -->') + '<!-- errors:start -->'.length,
      readme.indexOf('<!-- errors:end -->'),
    )
    expect(block.trim()).toBe(errorTableMarkdown())
    for (const s of ERROR_REGISTRY) expect(block).toContain(`| \`${s.code}\` | \`${s.class.name}\` |`)
  })

  it.each([
    ['ERR_INVALID_INPUT', 400, GrpcStatus.INVALID_ARGUMENT],
    ['ERR_ITEM_TOO_LARGE', 400, GrpcStatus.INVALID_ARGUMENT],
    ['ERR_UNAUTHORIZED', 401, GrpcStatus.UNAUTHENTICATED],
    ['ERR_MODEL_NOT_FOUND', 404, GrpcStatus.NOT_FOUND],
    ['ERR_PAYLOAD_TOO_LARGE', 413, GrpcStatus.RESOURCE_EXHAUSTED],
    ['ERR_QUEUE_FULL', 503, GrpcStatus.UNAVAILABLE],
    ['ERR_SHUTTING_DOWN', 503, GrpcStatus.UNAVAILABLE],
    ['ERR_REMOTE_CLOSED', 503, GrpcStatus.UNAVAILABLE],
    ['ERR_TIMEOUT', 504, GrpcStatus.DEADLINE_EXCEEDED],
    ['ERR_BATCH_TIMEOUT', 504, GrpcStatus.DEADLINE_EXCEEDED],
    ['ERR_WORKER_CRASHED', 500, GrpcStatus.INTERNAL],
    ['ERR_A_USER_WORKERS_OWN', 500, GrpcStatus.INTERNAL],
  ])('maps %s to HTTP %i and gRPC status %i', (code, http, grpc) => {
    expect([httpStatusOf(code), grpcStatusOf(code)]).toEqual([http, grpc])
  })

  it('reads the status from an error as from its code; an error without a code is a 500 / INTERNAL', () => {
    expect(httpStatusOf(new core.QueueFullError(4))).toBe(503)
    expect(grpcStatusOf(new core.TimeoutError(5))).toBe(GrpcStatus.DEADLINE_EXCEEDED)
    expect([httpStatusOf(new Error('boom')), grpcStatusOf(new Error('boom'))]).toEqual([500, GrpcStatus.INTERNAL])
  })

  it('asks for Retry-After on transient failures only, and for each error its own headers', () => {
    expect(httpHeadersOf(new core.QueueFullError(4), 2)).toEqual({ 'retry-after': '2' })
    expect(httpHeadersOf(new server.ShuttingDownError(), 7)).toEqual({ 'retry-after': '7' })
    expect(httpHeadersOf(new host.InvalidInputError('bad'), 2)).toEqual({})
    expect(httpHeadersOf(new server.UnauthorizedError(), 2)).toEqual({ 'www-authenticate': 'Bearer' })
    expect(httpHeadersOf(new server.MethodNotAllowedError('PUT', ['GET', 'HEAD']), 2)).toEqual({ allow: 'GET, HEAD' })
    expect(httpHeadersOf(new server.PayloadTooLargeError(10), 2)).toEqual({ connection: 'close' })
    expect(httpHeadersOf(new Error('x'), 2)).toEqual({})
  })

  it("tells a client only about errors it declares: Node's own ERR_* errors are internal, their text kept from the client", () => {
    const nodeError = Object.assign(new Error("ENOENT: no such file or directory, open '/tmp/inferpool-upload-x1y2/1/model.onnx'"), {
      code: 'ERR_FS_FILE_TOO_LARGE',
    })
    const internal = { code: 'ERR_INTERNAL', message: 'Internal server error', internal: true }
    expect(publicErrorOf(nodeError)).toEqual(internal)
    expect(publicErrorOf(new TypeError('x'))).toEqual(internal)
    expect(publicErrorOf({ code: 'ERR_MODEL_NOT_FOUND', message: 'not one of ours' })).toEqual(internal)
    expect(publicErrorOf(new server.ModelNotFoundError('m'))).toEqual({
      code: 'ERR_MODEL_NOT_FOUND',
      message: "Unknown model 'm'",
      internal: false,
    })
    // A user worker's own code is one it raised on purpose.
    expect(publicErrorOf(fromWire({ code: 'ERR_TOKENIZER', message: 'no vocab' }))).toEqual({
      code: 'ERR_TOKENIZER',
      message: 'no vocab',
      internal: false,
    })
  })

  it('bounds what an error repeats of a client input, and every message a client is sent', () => {
    const name = 'x'.repeat(100_000)
    expect(new server.ModelNotFoundError(name, '7'.repeat(300)).message).toBe(
      `Unknown model '${'x'.repeat(256)}… (100000 characters)' version '${'7'.repeat(256)}… (300 characters)'`,
    )
    expect(new server.ModelNotReadyError(name).message).toBe(`Model '${'x'.repeat(256)}… (100000 characters)' is not ready`)
    expect(new server.RouteNotFoundError(`/${name}`).message).toBe(`No route for /${'x'.repeat(255)}… (100001 characters)`)
    expect(publicErrorOf(new host.InvalidInputError(name)).message).toBe(`${'x'.repeat(1024)}… (100000 characters)`)
  })
})
