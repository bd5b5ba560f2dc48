/** `inferpool-consume` as a child process, the way a user or a deployment runs it. */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const CONSUME_BIN = fileURLToPath(new URL('../bin/inferpool-consume.js', import.meta.url))
export const SERVER_BIN = fileURLToPath(new URL('../../server/bin/inferpool.js', import.meta.url))

export interface ConsumeProcess {
  readonly child: ChildProcess
  readonly metricsUrl: string
  /** Everything it wrote so far, stdout and stderr. */
  output(): string
  /** Its exit code (`null` when killed by a signal) and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `inferpool-consume` with `args` and resolves once it says it is ready. */
export async function startConsume(args: readonly string[]): Promise<ConsumeProcess> {
  const child = spawn(process.execPath, [CONSUME_BIN, '--metrics-port', '0', '--intra-op-threads', '1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: string): void => {
      output += chunk
      if (output.includes('inferpool consume: ready')) resolve()
    }
    child.stdout!.setEncoding('utf8').on('data', onData)
    child.stderr!.setEncoding('utf8').on('data', onData)
    void exited.then(({ code }) => reject(new Error(`inferpool-consume exited with ${code} before it was ready:\n${output}`)))
  })
  await ready
  const port = /metrics at http:\/\/[^:]+:(\d+)\/metrics/.exec(output)![1]
  return { child, metricsUrl: `http://127.0.0.1:${port}/metrics`, output: () => output, exited }
}
