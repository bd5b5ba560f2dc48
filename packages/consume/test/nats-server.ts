/**
 * A real `nats-server -js` for the tests: on a free port of 127.0.0.1, with its store in
 * a temporary directory that `stop()` removes. `kill()`/`start()` restart it on the same
 * port and store (the server going away is part of what the consumer must survive).
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
  /** Kills the server (SIGKILL) and starts it again on the same port and store. */
  restart(): Promise<void>
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

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()))
}

export async function startNatsServer(): Promise<NatsServer> {
  const store = mkdtempSync(join(tmpdir(), 'inferpool-nats-'))
  const port = await freePort()
  let child = await launch(port, store)
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    async restart() {
      child.kill('SIGKILL')
      await exited(child)
      child = await launch(port, store)
    },
    async stop() {
      child.kill('SIGTERM')
      await exited(child)
      rmSync(store, { recursive: true, force: true })
    },
  }
}

async function launch(port: number, store: string): Promise<ChildProcess> {
  const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk
  })
  await new Promise<void>((resolve, reject) => {
    const onData = (): void => {
      if (!log.includes('Server is ready')) return
      child.stderr!.off('data', onData)
      resolve()
    }
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`nats-server exited with ${code} before it was ready:\n${log}`)))
  })
  return child
}
