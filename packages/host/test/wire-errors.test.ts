import { describe, expect, it } from 'vitest'
import * as core from '@inferpool/core'
import * as host from '@inferpool/host'

const { InferpoolError } = core
const { POOL_ERROR_CLASSES, RemoteWorkerError, fromWire, toWire } = host

describe('errors crossing a thread or process boundary', () => {
  it('knows every exported error class of @inferpool/core and @inferpool/host with a fixed code', () => {
    const exported = [...Object.values(core), ...Object.values(host)].filter(
      (value) => typeof value === 'function' && value.prototype instanceof InferpoolError && value !== RemoteWorkerError,
    )
    expect(new Set(POOL_ERROR_CLASSES)).toEqual(new Set(exported))
  })

  it('rebuilds every class from its wire form with its class, name, code, message and details', () => {
    for (const cls of POOL_ERROR_CLASSES) {
      const wire = { code: cls.code, message: `a ${cls.code}`, name: cls.name, details: { n: 1 } }
      const error = fromWire(structuredClone(wire))
      expect(error).toBeInstanceOf(cls)
      expect([error.name, error.code, error.message, error.details]).toEqual([cls.name, cls.code, `a ${cls.code}`, { n: 1 }])
    }
  })

  it('rebuilds an unknown code as a RemoteWorkerError keeping the code, and round-trips through toWire', () => {
    const error = fromWire({ code: 'ERR_TOKENIZER', message: 'no vocab', details: { file: 'v.txt' } })
    expect(error).toBeInstanceOf(RemoteWorkerError)
    expect([error.name, error.code, error.message, error.details]).toEqual([
      'RemoteWorkerError',
      'ERR_TOKENIZER',
      'no vocab',
      { file: 'v.txt' },
    ])
    const original = new core.QueueFullError(4)
    const back = fromWire(structuredClone(toWire(original)))
    expect(back).toBeInstanceOf(core.QueueFullError)
    expect([back.message, back.details, back.stack]).toEqual([original.message, original.details, original.stack])
  })

  it('drops details that cannot be cloned instead of failing the transfer', () => {
    const error = new host.InvalidInputError('bad', { details: { fn: () => 1 } })
    expect(toWire(error)).toEqual({ code: 'ERR_INVALID_INPUT', message: 'bad', name: 'InvalidInputError', stack: error.stack })
  })
})
