import { describe, expect, it } from 'vitest'
import { httpStatusOf } from '@inferpool/server'

describe('httpStatusOf: the HTTP status of every error code', () => {
  it.each([
    ['ERR_INVALID_INPUT', 400],
    ['ERR_MALFORMED_JSON', 400],
    ['ERR_ITEM_TOO_LARGE', 400],
    ['ERR_UNAUTHORIZED', 401],
    ['ERR_MODEL_NOT_FOUND', 404],
    ['ERR_NOT_FOUND', 404],
    ['ERR_METHOD_NOT_ALLOWED', 405],
    ['ERR_PAYLOAD_TOO_LARGE', 413],
    ['ERR_UNSUPPORTED_MEDIA_TYPE', 415],
    ['ERR_QUEUE_FULL', 503],
    ['ERR_BATCHER_CLOSED', 503],
    ['ERR_MODEL_LOAD', 503],
    ['ERR_MODEL_NOT_READY', 503],
    ['ERR_SHUTTING_DOWN', 503],
    ['ERR_PROVIDER_UNAVAILABLE', 503],
    ['ERR_STARTUP_TIMEOUT', 503],
    ['ERR_TIMEOUT', 504],
    ['ERR_BATCH_TIMEOUT', 504],
    ['ERR_INFERENCE', 500],
    ['ERR_WORKER_CRASHED', 500],
    ['ERR_BATCH_SIZE_MISMATCH', 500],
    ['ERR_SOMETHING_NEW', 500],
  ])('maps %s to %i', (code, status) => {
    expect(httpStatusOf(code)).toBe(status)
  })
})
