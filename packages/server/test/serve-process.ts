/**
 * Helpers of the tests that run `inferpool serve` as a user does (the built CLI in a
 * child process) — the cluster, deploy-manifest and load-balancer tests. Not a test file
 * itself. Every process started here is tracked, and `stopAll()` (called from
 * `afterAll`/`afterEach`) kills whatever is still running, also when a test failed.
 */
import { execFile, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

export const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

export interface ServeProcess {
  readonly child: ChildProcess
  readonly pid: number
  /** `http://127.0.0.1:port`, from the `listening on` line. */
  readonly url: string
  /** Everything written to stdout and stderr so far. */
  output(): string
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exit: Promise<number | null>
}

const started = new Set<ChildProcess>()

/** Starts a tracked child process. */
export function track(child: ChildProcess): ChildProcess {
  started.add(child)
  child.once('exit', () => started.delete(child))
  return child
}

/** SIGKILLs every tracked process still running and waits for their exits. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...started].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          child.once('exit', () => resolve())
          child.kill('SIGKILL')
        }),
    ),
  )
}

/**
 * Starts `inferpool serve <args>` and resolves once it prints `inferpool: ready`; rejects
 * with its output if it exits first. gRPC is off unless `args` name a `--grpc-port`: its
 * default (8001) is one fixed port, which servers started side by side would fight over.
 */
export function startServe(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<ServeProcess> {
  const grpc = args.some((arg) => arg === '--grpc-port' || arg.startsWith('--grpc-port=')) ? [] : ['--grpc-port', '0']
  const child = track(
    spawn(process.execPath, [cli, 'serve', ...args, ...grpc], {
      // The tests read the text lines (a pipe would make them JSON).
      env: { ...process.env, INFERPOOL_LOG_FORMAT: 'text', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  let text = ''
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      text += chunk.toString()
      if (text.includes('inferpool: ready\n')) {
        const url = /listening on (http:\/\/\S+)/.exec(text)?.[1]
        if (url === undefined) return reject(new Error(`no "listening on" line:\n${text}`))
        resolve({ child, pid: child.pid as number, url, output: () => text, exit })
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()))
    void exit.then((code) => reject(new Error(`inferpool exited with ${code} before it was ready:\n${text}`)))
  })
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Process ids whose parent is `pid`. */
export function childPids(pid: number): Promise<number[]> {
  return new Promise((resolve, reject) =>
    execFile('ps', ['-o', 'pid=', '--ppid', String(pid)], (error, stdout) => {
      // ps exits 1 when no process matches.
      if (error !== null && stdout.trim() !== '') return reject(error)
      resolve(
        stdout
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean)
          .map(Number)
          .sort((a, b) => a - b),
      )
    }),
  )
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Polls `check` until it returns a value other than `undefined`, pausing `pauseMs`
 * between tries so a poll does not load the server it watches. Bounded only by the
 * test's own timeout (a hang guard, not a timing assertion).
 */
export async function poll<T>(check: () => Promise<T | undefined> | T | undefined, pauseMs = 50): Promise<T> {
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
}

/**
 * GET `url` over a fresh connection; `undefined` on a connection error or no answer
 * within `timeoutMs`. For polls while processes come and go: node:cluster can hand a
 * connection to a server process just as it dies, and that connection is never answered.
 */
export function tryGet(url: string, timeoutMs = 2_000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve(res.statusCode === 200 ? text : undefined))
      res.on('error', () => resolve(undefined))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(undefined))
    req.end()
  })
}
