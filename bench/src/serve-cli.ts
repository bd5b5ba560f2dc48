/**
 * `inferpool serve` as a child process, for the scenarios that measure the whole server
 * (overload, repository): start it on a free port, wait for its ready line, stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** A running `inferpool serve`. */
export interface ServeCli {
  readonly child: ChildProcess
  /** Its HTTP address, from the "listening on" line. */
  readonly url: string
}

export interface ServeCliOptions {
  /** Node's own flags, before the CLI's path (e.g. `--import` of a probe). */
  readonly nodeArgs?: readonly string[]
  /** An IPC channel to the child, for a preloaded probe to answer on. */
  readonly ipc?: boolean
}

/** Starts `node <bin> serve --port 0 <args>` and resolves once it prints "inferpool: ready". */
export async function startServeCli(
  bin: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: ServeCliOptions = {},
): Promise<ServeCli> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bin, 'serve', '--port', '0', ...args], {
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    env,
  })
  let out = ''
  let err = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err = (err + chunk).slice(-4000)
  })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inferpool serve did not get ready: ${out}${err}`)), 60_000)
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match && out.includes('inferpool: ready')) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`inferpool serve exited with code ${code}: ${err}`))
    })
  })
  return { child, url }
}

/** SIGTERM (a draining shutdown), then SIGKILL if it has not exited within 40 s. */
export function stopServeCli(cli: ServeCli): Promise<void> {
  return stopChild(cli.child, 40_000)
}

/** SIGTERM, then SIGKILL if `child` has not exited within `killAfterMs`; resolves once it has exited. */
export async function stopChild(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
  await exited
  clearTimeout(timer)
}

/** The server's malloc: the system's glibc, or jemalloc preloaded as the Docker image does. */
export type Allocator = 'glibc' | 'jemalloc'

/** The Docker image's jemalloc options (deploy/Dockerfile). */
const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0'

/** Debian's libjemalloc.so.2 (package libjemalloc2), or undefined. */
export function findJemalloc(): string | undefined {
  try {
    return readdirSync('/usr/lib', { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.endsWith('-linux-gnu'))
      .map((entry) => join('/usr/lib', entry.name, 'libjemalloc.so.2'))
      .find((path) => existsSync(path))
  } catch {
    return undefined
  }
}

/** The environment that makes the server run on `allocator` (`library`: the jemalloc found, if any). */
export function allocatorEnv(allocator: Allocator, library: string | undefined): NodeJS.ProcessEnv {
  if (allocator === 'glibc') return process.env
  if (library === undefined)
    throw new Error(
      'jemalloc asked for (--overload-allocator jemalloc), but libjemalloc.so.2 is not installed (apt-get install libjemalloc2)',
    )
  return { ...process.env, LD_PRELOAD: library, MALLOC_CONF: JEMALLOC_CONF }
}
