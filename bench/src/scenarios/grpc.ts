/**
 * gRPC: closed-loop clients of our own (`@grpc/grpc-js`, one HTTP/2 connection per
 * caller) sending single-row `ModelInferRequest`s with `raw_input_contents`, unary and
 * over bidirectional streams, to
 *   (a) the inferpool server (`serve` with `grpcPort`: HTTP and gRPC on one pool), and
 *   (b) a no-op gRPC server that decodes each request and answers zeros (the door's own
 *       limit, servers/grpc-noop-server.ts);
 * plus JSON over HTTP (autocannon, as the `http` scenario) on the same inferpool
 * server, the reference the gRPC target is set against. Variants are interleaved
 * round by round (every variant once per round) so a change in the machine's load
 * hits them alike; the summary takes medians over rounds. One more point sends
 * 64-row requests over streams, to show how much of the engine the door lets through.
 *
 * The clients send pre-encoded request bytes and read only what they must of the
 * answers (as autocannon does for HTTP), so the client costs the shared CPU as little
 * as possible.
 */
import * as grpc from '@grpc/grpc-js'
import { GRPC_SERVICE_DEFINITION } from '@inferpool/server'
import { runClosedLoop } from '../closed-loop.js'
import { LatencyRecorder, type LatencySummary } from '../latency.js'
import { createRng, KSERVE_DATATYPE, randomArray, type ModelInfo } from '../model.js'
import type { ServerConfig, ServerMessage } from '../servers/protocol.js'
import type { Window } from './direct.js'
import { load, startServer, stopServer, v2RequestBody, type RunningServer } from './http.js'

export type GrpcVariant = 'noop-grpc-unary' | 'noop-grpc-stream' | 'grpc-unary' | 'grpc-stream' | 'http-json'

export interface GrpcPoint {
  kind: 'grpc'
  variant: GrpcVariant
  /** 1-based round; the 64-row point has its own round 1. */
  round: number
  /** Connections (HTTP) or callers, each on its own HTTP/2 connection (gRPC). */
  connections: number
  rowsPerRequest: number
  requests: number
  rowsPerSec: number
  windowMs: number
  latencyMs: LatencySummary
  /**
   * The server process's CPU time (every thread: event loop, workers, ONNX Runtime) per
   * row in the window, µs. Throughput on a shared 2-core machine moves with the other
   * load; CPU per row much less, and at saturation rows/s ≈ cores ÷ CPU per row.
   */
  serverCpuUsPerRow: number
}

export interface GrpcScenarioOptions {
  model: string
  modelName: string
  pool: { replicas: number; concurrency: number; maxBatchSize: number }
  connections: number
  rounds: number
  window: Window
}

const ORDER: readonly GrpcVariant[] = ['noop-grpc-unary', 'noop-grpc-stream', 'grpc-unary', 'grpc-stream', 'http-json']
const ServiceClient = grpc.makeGenericClientConstructor(GRPC_SERVICE_DEFINITION, 'GRPCInferenceService')
// Pre-encoded bytes out, raw bytes back: the client neither encodes nor decodes.
const identity = (bytes: Buffer): Buffer => bytes
const MODEL_INFER = GRPC_SERVICE_DEFINITION.ModelInfer.path
const MODEL_STREAM_INFER = GRPC_SERVICE_DEFINITION.ModelStreamInfer.path

/** One ModelInferRequest of `rows` random rows, encoded once. */
export function encodedRequest(info: ModelInfo, modelName: string, rows: number): Buffer {
  const rng = createRng(5)
  const inputs = info.inputs.map((t) => ({ name: t.name, datatype: KSERVE_DATATYPE[t.type], shape: [rows, ...t.rowDims] }))
  const raw = info.inputs.map((t) => {
    const data = randomArray(t, rows, rng) as unknown as ArrayBufferView
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  })
  return GRPC_SERVICE_DEFINITION.ModelInfer.requestSerialize({ model_name: modelName, inputs, raw_input_contents: raw })
}

/** `n` clients, each on its own connection (grpc-js shares one per target unless told not to). */
export function clientsFor(port: number, n: number): grpc.Client[] {
  return Array.from(
    { length: n },
    () =>
      new ServiceClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
        'grpc.use_local_subchannel_pool': 1,
        'grpc.max_receive_message_length': 64 * 2 ** 20,
        'grpc.max_send_message_length': 64 * 2 ** 20,
      }),
  )
}

let nextCpuRequest = 1

/**
 * The server child's CPU time so far (user + system, all threads), in µs, and the id
 * the answer carried (the request's). Each answer is matched to its request by id: the readings at a
 * window's start and end can both be in flight at once (a short window on a busy
 * machine), and each must get its own answer, not the first one to arrive.
 */
export function cpuReading(server: RunningServer): Promise<{ id: number; us: number }> {
  const id = nextCpuRequest++
  return new Promise((resolve, reject) => {
    const onMessage = (message: ServerMessage): void => {
      if (message.type !== 'cpu' || message.id !== id) return
      server.child.off('message', onMessage)
      resolve({ id: message.id, us: message.user + message.system })
    }
    server.child.on('message', onMessage)
    server.child.send({ type: 'cpu', id }, (error) => {
      if (error) {
        server.child.off('message', onMessage)
        reject(error)
      }
    })
  })
}

/** The server child's CPU time so far (user + system, all threads), in µs. */
async function cpuOf(server: RunningServer): Promise<number> {
  return (await cpuReading(server)).us
}

/** Resolves once every client's connection is up, so no window pays for 64 handshakes. */
export async function connect(clients: grpc.Client[]): Promise<void> {
  const deadline = Date.now() + 30_000
  await Promise.all(
    clients.map(
      (client) => new Promise<void>((resolve, reject) => client.waitForReady(deadline, (error) => (error ? reject(error) : resolve()))),
    ),
  )
}

function unaryCall(client: grpc.Client, request: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(MODEL_INFER, identity, identity, request, (error) => (error ? reject(error) : resolve()))
  })
}

/**
 * A closed-loop caller over one stream: `call()` writes the request and resolves with
 * the next response. A ModelStreamInferResponse whose first byte is field 1's tag
 * (0x0a) carries a non-empty `error_message` (proto3 omits an empty one): a failure.
 */
export function streamCaller(client: grpc.Client, request: Buffer): { call(): Promise<void>; end(): void } {
  const stream = client.makeBidiStreamRequest(MODEL_STREAM_INFER, identity, identity)
  const waiting: Array<{ resolve(): void; reject(error: Error): void }> = []
  stream.on('data', (response: Buffer) => {
    const next = waiting.shift()
    if (response[0] === 0x0a) next?.reject(new Error('ModelStreamInfer answered with an error_message'))
    else next?.resolve()
  })
  stream.on('error', (error: Error) => {
    for (const next of waiting.splice(0)) next.reject(error)
  })
  return {
    call: () =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ resolve, reject })
        stream.write(request)
      }),
    end: () => stream.end(),
  }
}

async function measureGrpc(
  server: RunningServer,
  clients: grpc.Client[],
  request: Buffer,
  streaming: boolean,
  rowsPerRequest: number,
  window: Window,
): Promise<Omit<GrpcPoint, 'kind' | 'variant' | 'round'>> {
  const callers = streaming ? clients.map((client) => streamCaller(client, request)) : undefined
  try {
    // The CPU readings are asked for as the window opens and closes (an IPC round trip
    // off, a fraction of a millisecond against the 2 s window).
    let cpuStart: Promise<number> | undefined
    let cpuEnd: Promise<number> | undefined
    const result = await runClosedLoop({
      callers: clients.length,
      warmupMs: window.warmupMs,
      durationMs: window.durationMs,
      rowsPerCall: rowsPerRequest,
      call: (i) => (callers ? callers[i].call() : unaryCall(clients[i], request)),
      onWindowStart: () => {
        cpuStart = cpuOf(server)
      },
      onWindowEnd: () => {
        cpuEnd = cpuOf(server)
      },
    })
    const cpuUs = (await (cpuEnd as Promise<number>)) - (await (cpuStart as Promise<number>))
    return {
      serverCpuUsPerRow: cpuUs / result.rows,
      connections: clients.length,
      rowsPerRequest,
      requests: result.calls,
      rowsPerSec: result.rowsPerSec,
      windowMs: result.windowMs,
      latencyMs: result.latencyMs,
    }
  } finally {
    for (const caller of callers ?? []) caller.end()
  }
}

/** Runs `rounds` interleaved rounds of every variant, then the 64-row point. */
export async function runGrpc(info: ModelInfo, options: GrpcScenarioOptions, onPoint: (label: string) => void): Promise<GrpcPoint[]> {
  const { connections, window } = options
  const servers: RunningServer[] = []
  const clients: grpc.Client[] = []
  const start = async (config: ServerConfig): Promise<RunningServer> => {
    const server = await startServer(config)
    servers.push(server)
    return server
  }
  try {
    const inferpool = await start({ kind: 'grpc', model: options.model, modelName: options.modelName, ...options.pool })
    const noop = await start({ kind: 'grpc-noop', model: options.model, modelName: options.modelName })
    const poolClients = clientsFor(inferpool.grpcPort as number, connections)
    const noopClients = clientsFor(noop.grpcPort as number, connections)
    clients.push(...poolClients, ...noopClients)
    await connect(clients)
    const single = encodedRequest(info, options.modelName, 1)
    const json = v2RequestBody(info)
    const httpUrl = `http://127.0.0.1:${inferpool.port}/v2/models/${options.modelName}/infer`

    const points: GrpcPoint[] = []
    for (let round = 1; round <= options.rounds; round++) {
      for (const variant of ORDER) {
        let figures: Omit<GrpcPoint, 'kind' | 'variant' | 'round'>
        if (variant === 'http-json') {
          if (window.warmupMs > 0) await load(httpUrl, json, connections, window.warmupMs)
          const latency = new LatencyRecorder()
          const cpuStart = await cpuOf(inferpool)
          const { ok, elapsedMs } = await load(httpUrl, json, connections, window.durationMs, latency)
          const cpuUs = (await cpuOf(inferpool)) - cpuStart
          figures = {
            serverCpuUsPerRow: cpuUs / ok,
            connections,
            rowsPerRequest: 1,
            requests: ok,
            rowsPerSec: (ok * 1000) / elapsedMs,
            windowMs: elapsedMs,
            latencyMs: latency.summary(),
          }
        } else {
          const target = variant.startsWith('noop') ? noop : inferpool
          const targetClients = variant.startsWith('noop') ? noopClients : poolClients
          figures = await measureGrpc(target, targetClients, single, variant.endsWith('stream'), 1, window)
        }
        points.push({ kind: 'grpc', variant, round, ...figures })
        onPoint(`grpc ${variant}, round ${round}`)
      }
    }
    const wide = encodedRequest(info, options.modelName, 64)
    points.push({
      kind: 'grpc',
      variant: 'grpc-stream',
      round: 1,
      ...(await measureGrpc(inferpool, poolClients, wide, true, 64, window)),
    })
    onPoint('grpc grpc-stream, 64-row requests')
    return points
  } finally {
    for (const client of clients) client.close()
    await Promise.all(servers.map(stopServer))
  }
}
