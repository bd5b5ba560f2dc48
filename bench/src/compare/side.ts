/**
 * One side of a comparison, running its own build: `inferpool serve` from that checkout
 * (HTTP, and gRPC where that version has it) and an agent process for the in-process
 * probes (agent.ts). Both stay up for the whole run so no round pays for start-ups.
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { distFile } from '../paths.js'
import type { DoorRequest } from '../scenarios/http.js'
import type { AgentAnswer, AgentRequest } from './agent.js'

const START_TIMEOUT_MS = 120_000

export interface Serve {
  child: ChildProcess
  /** http://127.0.0.1:<port> */
  url: string
  /** null: this version of `inferpool serve` has no gRPC. */
  grpcPort: number | null
}

/** A free TCP port on 127.0.0.1 (the CLI's gRPC port cannot be 0: 0 turns gRPC off). */
async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  server.close()
  await once(server, 'close')
  return port
}

/**
 * The `inferpool` launcher of a checkout: in @inferpool/server, or in @inferpool/host for
 * a main from before the server had its own package (a comparison runs either).
 */
function cliOf(root: string): string {
  const server = join(root, 'packages', 'server', 'bin', 'inferpool.js')
  return existsSync(server) ? server : join(root, 'packages', 'host', 'bin', 'inferpool.js')
}

/**
 * `inferpool serve` of the checkout at `root` with its defaults, on ephemeral ports of
 * 127.0.0.1; `env`: variables added to this process's (the traced probes' OTEL_*).
 */
export async function startServe(root: string, model: string, modelName: string, env: Record<string, string> = {}): Promise<Serve> {
  const bin = cliOf(root)
  const { stdout: help } = await promisify(execFile)(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' })
  const grpcPort = help.includes('--grpc-port') ? await freePort() : null
  const args = [bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--model', `${modelName}=${model}`]
  if (grpcPort !== null) args.push('--grpc-port', String(grpcPort))
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err = (err + chunk).slice(-4000)
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inferpool serve (${root}) did not get ready: ${out}${err}`)), START_TIMEOUT_MS)
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out = (out + chunk).slice(-4000)
        const match = /listening on (http:\/\/[^\s/]+)/.exec(out)
        if (match && out.includes('inferpool: ready')) {
          clearTimeout(timer)
          resolve(match[1])
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`inferpool serve (${root}) exited with code ${code}: ${err}`))
      })
    })
    return { child, url, grpcPort }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
}

/**
 * Sends one request before a door probe's load: a version that refuses the request (an
 * old one without binary tensor data, say) fails the probe with its own words (the
 * error body's `error`) instead of a count of non-200 answers.
 */
export async function expectAnswer(url: string, request: Pick<DoorRequest, 'body' | 'headers'>): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: request.headers, body: request.body })
  const text = await res.text()
  if (res.status === 200) return
  let message = text
  try {
    // Our error body's `error` is a string; an older version's may be an object (then the whole body is shown).
    const error = (JSON.parse(text) as { error?: unknown }).error
    if (typeof error === 'string') message = error
  } catch {
    // Not JSON: the body as it is.
  }
  throw new Error(`this version answers HTTP ${res.status}: ${message.slice(0, 200)}`)
}

/** SIGTERM, then SIGKILL after 30 s (the CLI drains first); resolves once the child has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  await exited
  clearTimeout(timer)
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never

/** The agent of one side: sends a request, resolves with its figures. */
export interface Agent {
  child: ChildProcess
  ask(request: WithoutId<AgentRequest>): Promise<Record<string, number>>
  /** Disconnects (the agent closes its pool and exits); resolves once it has exited. */
  stop(): Promise<void>
}

export async function startAgent(root: string): Promise<Agent> {
  const child = fork(distFile('compare', 'agent.js'), [root], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
  let err = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err = (err + chunk).slice(-4000)
  })
  const pending = new Map<number, { resolve(f: Record<string, number>): void; reject(e: Error): void }>()
  let nextId = 1
  child.on('message', (answer: AgentAnswer) => {
    const waiter = pending.get(answer.id)
    pending.delete(answer.id)
    if (answer.ok) waiter?.resolve(answer.figures)
    else waiter?.reject(new Error(answer.message))
  })
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`compare agent (${root}) exited with code ${code}: ${err}`))
    pending.clear()
  })
  const ask = (request: WithoutId<AgentRequest>): Promise<Record<string, number>> =>
    new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      child.send({ ...request, id } as AgentRequest, (error) => {
        if (error) {
          pending.delete(id)
          reject(error)
        }
      })
    })
  // The agent says hello (id 0) once it has imported the side's packages.
  let timer: NodeJS.Timeout | undefined
  await new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: () => resolve(), reject })
    timer = setTimeout(() => reject(new Error(`compare agent (${root}) did not start: ${err}`)), START_TIMEOUT_MS)
  })
    .catch((error: unknown) => {
      child.kill('SIGKILL')
      throw error
    })
    .finally(() => clearTimeout(timer))
  return {
    child,
    ask,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = once(child, 'exit')
      child.disconnect()
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(timer)
    },
  }
}
