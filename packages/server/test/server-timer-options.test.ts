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

  // Refused by the flag's own parser, before anything starts: the message names the flag and echoes the value.
  it.each([
    ['--timeout-ms', 'Expected a number of milliseconds > 0 and <= 2147483647.'],
    ['--shutdown-timeout-ms', 'Expected an integer in [0, 2147483647].'],
    ['--body-timeout-ms', 'Expected an integer in [1, 2147483647].'],
    ['--headers-timeout-ms', 'Expected an integer in [1, 2147483647].'],
    ['--idle-timeout-ms', 'Expected an integer in [1, 2147483647].'],
    ['--drain-delay-ms', 'Expected an integer in [0, 2147483647].'],
    ['--idle-gc-ms', 'Expected an integer in [0, 2147483647].'],
    ['--admission-wait-ms', 'Expected an integer in [0, 2147483647].'],
    // Seconds between two scans: past the bound a scan would run every millisecond.
    ['--repository-poll-secs', 'Expected an integer in [1, 2147483].'],
  ])('inferpool serve %s 99999999999 exits 1 naming the flag, instead of serving 500s or spinning', async (flag, expected) => {
    const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli, 'serve', '--port', '0', '--grpc-port', '0', flag, String(TOO_LONG)],
        { timeout: 60_000 },
        (error, _stdout, stderr) => resolve({ code: error === null ? 0 : (error.code as number | null), stderr }),
      )
    })
    const unit = flag === '--repository-poll-secs' ? 's' : 'ms'
    expect([code, stderr.split('\n')[0]]).toEqual([1, `error: option '${flag} <${unit}>' argument '${TOO_LONG}' is invalid. ${expected}`])
  })
})
