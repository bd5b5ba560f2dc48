/**
 * A `nats-server -js` of the bulk scenario's own: on a free port of 127.0.0.1, with its
 * store in a temporary directory that `stop()` removes.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface NatsServer {
  readonly url: string
  /** The version it reports (`nats-server --version`'s, from its start-up log). */
  readonly version: string
  /** Stops the server and removes its store. */
  stop(): Promise<void>
}

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

/** Starts `nats-server -js`; rejects with its log when it exits before it is ready (or is not installed). */
export async function startNatsServer(): Promise<NatsServer> {
  const store = mkdtempSync(join(tmpdir(), 'inferpool-bench-nats-'))
  const port = await freePort()
  const child: ChildProcess = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('error', (error) => reject(new Error(`nats-server could not start (apt-get install nats-server): ${error.message}`)))
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        log = (log + chunk).slice(-8000)
        if (log.includes('Server is ready')) resolve()
      })
      child.once('exit', (code) => reject(new Error(`nats-server exited with ${code} before it was ready:\n${log}`)))
    })
  } catch (error) {
    rmSync(store, { recursive: true, force: true })
    throw error
  }
  child.stderr!.removeAllListeners('data')
  child.stderr!.resume()
  return {
    url: `nats://127.0.0.1:${port}`,
    version: /Version:\s+(\S+)/.exec(log)?.[1] ?? 'unknown',
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit')
        child.kill('SIGTERM')
        await exited
      }
      rmSync(store, { recursive: true, force: true })
    },
  }
}
