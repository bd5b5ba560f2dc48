/** What the tests share: a NATS client, demo-model requests, and reading a stream whole. */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { RetentionPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream'
import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream'
import { connect, headers } from '@nats-io/transport-node'
import type { NatsConnection } from '@nats-io/transport-node'

export const DEMO_INPUT = 256
export const DEMO_OUTPUT = 16
export const DEMO_MODEL = join(dirname(createRequire(import.meta.url).resolve('@inferpool/host/package.json')), 'models', 'demo-mlp.onnx')

export interface Client {
  readonly nc: NatsConnection
  readonly js: JetStreamClient
  readonly jsm: JetStreamManager
  close(): Promise<void>
}

export async function client(url: string): Promise<Client> {
  const nc = await connect({ servers: url })
  return { nc, js: jetstream(nc), jsm: await jetstreamManager(nc), close: () => nc.close() }
}

/** Row `i` of the tests' inputs: 256 distinct float32 values. */
export function row(i: number): Float32Array {
  return Float32Array.from({ length: DEMO_INPUT }, (_, k) => Math.sin(i * 0.37 + k * 0.011))
}

export function jsonRequest(i: number, id?: string): Uint8Array {
  const body = {
    ...(id === undefined ? {} : { id }),
    inputs: [{ name: 'input', shape: [1, DEMO_INPUT], datatype: 'FP32', data: Array.from(row(i)) }],
  }
  return Buffer.from(JSON.stringify(body))
}

/** A request of the binary extension: its JSON header and its `Inference-Header-Content-Length`, the output asked as binary. */
export function binaryRequest(i: number): { body: Uint8Array; headerLength: number } {
  const data = row(i)
  const header = Buffer.from(
    JSON.stringify({
      inputs: [{ name: 'input', shape: [1, DEMO_INPUT], datatype: 'FP32', parameters: { binary_data_size: data.byteLength } }],
      outputs: [{ name: 'output', parameters: { binary_data: true } }],
    }),
  )
  return { body: Buffer.concat([header, Buffer.from(data.buffer)]), headerLength: header.length }
}

/** A request no model takes: its input has 3 values where the demo model needs 256. */
export function poisonRequest(i: number): Uint8Array {
  return Buffer.from(JSON.stringify({ id: `poison-${i}`, inputs: [{ name: 'input', shape: [1, 3], datatype: 'FP32', data: [1, 2, 3] }] }))
}

export async function publish(js: JetStreamClient, subject: string, body: Uint8Array, hdrs: Record<string, string> = {}): Promise<number> {
  const h = headers()
  for (const [k, v] of Object.entries(hdrs)) h.set(k, v)
  return (await js.publish(subject, body, { headers: h })).seq
}

/** Every message a stream holds, in order (an ordered consumer read to its end). */
export async function readStream(c: Client, stream: string): Promise<JsMsg[]> {
  const count = (await c.jsm.streams.info(stream)).state.messages
  if (count === 0) return []
  const consumer = await c.js.consumers.get(stream)
  const messages = await consumer.consume({ max_messages: 1000 })
  const read: JsMsg[] = []
  for await (const msg of messages) {
    read.push(msg)
    if (msg.info.pending === 0) break
  }
  await messages.close()
  return read
}

export async function streamCount(c: Client, stream: string): Promise<number> {
  return (await c.jsm.streams.info(stream)).state.messages
}

/** Polls `condition` every 20 ms until it holds (a hang guard: the test's timeout). */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20))
}

/** The requests stream as a publisher makes it: a work queue on `inferpool.requests.>`. */
export async function requestsStream(c: Client): Promise<void> {
  await c.jsm.streams.add({ name: 'INFERPOOL_REQUESTS', subjects: ['inferpool.requests.>'], retention: RetentionPolicy.Workqueue })
}
