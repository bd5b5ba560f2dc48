/**
 * Every option of the handler and the server that becomes a timer is refused at
 * construction past `setTimeout`'s bound (2^31 − 1 ms), naming the option and echoing the
 * value: past it Node fires the timer after 1 ms, so such a value used to be accepted and
 * then fail every request (500). The CLI passes its flags through, so it refuses them too.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createPool } from '@inferpool/host'
import { createRequestHandler, createServer } from '@inferpool/server'
import type { Pool } from '@inferpool/host'
import { demoModel } from './server-helpers.js'

const TOO_LONG = 99_999_999_999
const LONGEST = 2 ** 31 - 1

let pool: Pool
afterAll(async () => {
  await pool?.close()
})

describe('timer options past 2^31 − 1 ms', () => {
  it.each(['timeoutMs', 'bodyTimeoutMs', 'lingerMs', 'admissionWaitMs'])(
    'the handler refuses %s, naming it and echoing the value',
    async (name) => {
      pool ??= await createPool({ model: demoModel, replicas: 1 })
      expect(() => createRequestHandler({ demo: pool }, { [name]: TOO_LONG })).toThrow(
        new RangeError(
          `Expected \`${name}\` to be ${name === 'timeoutMs' ? `a finite number > 0 and <= ${LONGEST}` : `an integer in [${name === 'bodyTimeoutMs' ? 1 : 0}, ${LONGEST}]`}, got \`${TOO_LONG}\` (number)`,
        ),
      )
      // The bound itself is a valid timer.
      expect(() => createRequestHandler({ demo: pool }, { [name]: LONGEST })).not.toThrow()
    },
  )

  it.each([
    'timeoutMs',
    'shutdownTimeoutMs',
    'headersTimeoutMs',
    'idleTimeoutMs',
    'drainDelayMs',
    'idleCollectMs',
    'bodyTimeoutMs',
    'lingerMs',
  ])('the server refuses %s', async (name) => {
    pool ??= await createPool({ model: demoModel, replicas: 1 })
    expect(() => createServer({ demo: pool }, { port: 0, [name]: TOO_LONG })).toThrow(RangeError)
    expect(() => createServer({ demo: pool }, { port: 0, [name]: TOO_LONG })).toThrow(`\`${name}\``)
  })

  it('inferpool serve --timeout-ms 99999999999 exits 1 naming the option, instead of serving 500s', async () => {
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli, 'serve', '--port', '0', '--grpc-port', '0', '--timeout-ms', String(TOO_LONG)],
        { timeout: 60_000 },
        (error, _stdout, stderr) => resolve({ code: error === null ? 0 : (error.code as number | null), stderr }),
      )
    })
    expect(code).toBe(1)
    expect(stderr).toContain('timeoutMs')
    expect(stderr).toContain(String(TOO_LONG))
  })
})
