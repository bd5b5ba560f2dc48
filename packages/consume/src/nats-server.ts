/**
 * `@inferpool/consume/nats-server`: a local `nats-server -js` on a free port of
 * 127.0.0.1, with its store in a temporary directory that `stop()` removes. The one
 * start-up the package's tests and the bench's `bulk` scenario share; also a way to try
 * `inferpool consume` without a NATS deployment. Needs the `nats-server` binary (Debian:
 * `apt-get install nats-server`).
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface NatsServer {
  readonly url: string
  readonly port: number
  /** The version it reports in its start-up log (`unknown` when it does not). */
  readonly version: string
  /** Kills the server (SIGKILL) and starts it again on the same port and store: the server going away, as a consumer must survive. */
  restart(): Promise<void>
  /** Stops the server (SIGTERM) and removes its store. */
  stop(): Promise<void>
}

/** Longest start-up log kept for the error of a server that exits before it is ready. */
const MAX_LOG = 8000

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()))
}

/** Starts `nats-server -js`; rejects with its log when it exits before it is ready, or naming the package when it is not installed. */
export async function startNatsServer(): Promise<NatsServer> {
  const store = mkdtempSync(join(tmpdir(), 'inferpool-nats-'))
  const port = await freePort()
  let started: { child: ChildProcess; log: string }
  try {
    started = await launch(port, store)
  } catch (error) {
    rmSync(store, { recursive: true, force: true })
    throw error
  }
  let child = started.child
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    version: /Version:\s+(\S+)/.exec(started.log)?.[1] ?? 'unknown',
    async restart() {
      child.kill('SIGKILL')
      await exited(child)
      child = (await launch(port, store)).child
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exited(child)
      }
      rmSync(store, { recursive: true, force: true })
    },
  }
}

async function launch(port: number, store: string): Promise<{ child: ChildProcess; log: string }> {
  const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`nats-server could not start (apt-get install nats-server): ${error.message}`)))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      log = (log + chunk).slice(-MAX_LOG)
      if (log.includes('Server is ready')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`nats-server exited with ${code} before it was ready:\n${log}`)))
  })
  // Its later output is read and dropped, so a full pipe never stalls it.
  child.stderr!.removeAllListeners('data')
  child.stderr!.resume()
  return { child, log }
}
