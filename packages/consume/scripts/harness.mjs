// What crash-test.mjs and cluster-test.mjs share: nats-server processes on 127.0.0.1 with
// temporary stores, `inferpool-consume` children, the demo model's requests, and reading a
// stream whole. Not a test helper: these scripts run once by hand and print their numbers.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'

const CONSUME_BIN = fileURLToPath(new URL('../bin/inferpool-consume.js', import.meta.url))

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

function exited(child) {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve))
}

// A script that dies does not leave its NATS servers behind.
const running = new Set()
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** One nats-server with JetStream; `config` (a config file's text) for a cluster member. `start()` again after `kill()`. */
export function natsServer({ port, store, config }) {
  let child
  const self = {
    url: `nats://127.0.0.1:${port}`,
    async start() {
      const args = config === undefined ? ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store] : ['-c', config]
      child = spawn('nats-server', args, { stdio: ['ignore', 'ignore', 'pipe'] })
      running.add(child)
      child.once('exit', () => running.delete(child))
      let log = ''
      await new Promise((resolve, reject) => {
        child.stderr.setEncoding('utf8').on('data', (chunk) => {
          log += chunk
          if (log.includes('Server is ready')) resolve()
        })
        child.once('exit', (code) => reject(new Error(`nats-server exited with ${code}:\n${log}`)))
      })
      return self
    },
    async kill(signal = 'SIGKILL') {
      child.kill(signal)
      await exited(child)
    },
  }
  return self
}

export async function singleServer() {
  const store = mkdtempSync(join(tmpdir(), 'inferpool-nats-'))
  const server = await natsServer({ port: await freePort(), store }).start()
  return {
    servers: [server],
    urls: [server.url],
    async stop() {
      await server.kill('SIGTERM')
      rmSync(store, { recursive: true, force: true })
    },
  }
}

/** A three-node JetStream cluster on 127.0.0.1. */
export async function cluster() {
  const dir = mkdtempSync(join(tmpdir(), 'inferpool-nats-cluster-'))
  const ports = await Promise.all([0, 1, 2].map(() => freePort()))
  const routes = await Promise.all([0, 1, 2].map(() => freePort()))
  const servers = ports.map((port, i) => {
    const config = join(dir, `n${i}.conf`)
    writeFileSync(
      config,
      `server_name: n${i}\nlisten: 127.0.0.1:${port}\njetstream { store_dir: "${join(dir, `n${i}`)}" }\n` +
        `cluster { name: inferpool, listen: 127.0.0.1:${routes[i]}, routes: [${routes.map((r) => `nats-route://127.0.0.1:${r}`).join(', ')}] }\n`,
    )
    return natsServer({ port, store: undefined, config })
  })
  await Promise.all(servers.map((s) => s.start()))
  return {
    servers,
    urls: servers.map((s) => s.url),
    async stop() {
      await Promise.all(servers.map((s) => s.kill('SIGTERM').catch(() => {})))
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export async function client(urls) {
  const nc = await connect({ servers: urls, maxReconnectAttempts: -1 })
  // A new cluster answers JetStream requests once it has elected its meta leader.
  for (;;) {
    try {
      return { nc, js: jetstream(nc), jsm: await jetstreamManager(nc) }
    } catch {
      await sleep(250)
    }
  }
}

/** Row `i` of the inputs (as the package's tests make them). */
export function row(i) {
  return Float32Array.from({ length: 256 }, (_, k) => Math.sin(i * 0.37 + k * 0.011))
}

export function jsonRequest(i) {
  return JSON.stringify({ inputs: [{ name: 'input', shape: [1, 256], datatype: 'FP32', data: Array.from(row(i)) }] })
}

export function poisonRequest(i) {
  return JSON.stringify({ id: `poison-${i}`, inputs: [{ name: 'input', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] }] })
}

/** Publishes `bodies` (a function of i) with up to 256 publishes awaiting their ack; returns each one's stream seq. */
export async function publishAll(js, subject, count, body) {
  const seqs = new Array(count)
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      // A Nats-Msg-Id makes a publish retried after a lost ack store one copy.
      for (;;) {
        try {
          seqs[i] = (await js.publish(subject, body(i), { msgID: `load-${i}`, timeout: 10_000 })).seq
          break
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
    }
  }
  await Promise.all(Array.from({ length: 256 }, worker))
  return seqs
}

export async function streamCount(jsm, stream) {
  return (await jsm.streams.info(stream)).state.messages
}

/** Every message of a stream: [{ seq (Inferpool-Request-Seq), json or undefined, headers }]. */
export async function readStream(js, jsm, stream, parse = true) {
  const count = await streamCount(jsm, stream)
  const read = []
  if (count === 0) return read
  const consumer = await js.consumers.get(stream)
  const messages = await consumer.consume({ max_messages: 2000 })
  for await (const msg of messages) {
    read.push({ requestSeq: Number(msg.headers?.get('Inferpool-Request-Seq')), headers: msg.headers, body: parse ? msg.json() : msg.data })
    if (msg.info.pending === 0) break
  }
  await messages.close()
  return read
}

/** `inferpool-consume` as a child: resolves once it is ready, with its metrics URL. */
export async function consumeProcess(args) {
  const child = spawn(process.execPath, [CONSUME_BIN, '--metrics-port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const done = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk
      if (output.includes('inferpool consume: ready')) resolve()
    }
    child.stdout.setEncoding('utf8').on('data', onData)
    child.stderr.setEncoding('utf8').on('data', onData)
    void done.then(({ code }) => reject(new Error(`inferpool-consume exited with ${code}:\n${output}`)))
  })
  const port = /metrics at http:\/\/[^:]+:(\d+)\/metrics/.exec(output)[1]
  return { child, done, output: () => output, metrics: `http://127.0.0.1:${port}/metrics` }
}

/** A counter's value for the demo model from a /metrics text (0 when absent). */
export async function counter(url, name) {
  const text = await (await fetch(url)).text()
  const match = new RegExp(`^${name}\\{model="demo"\\} (\\d+)$`, 'm').exec(text)
  return match === null ? 0 : Number(match[1])
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
