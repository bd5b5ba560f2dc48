/**
 * `inferpool consume` (and the `inferpool-consume` binary): the server's model and pool
 * flags, plus NATS and JetStream flags; pools are created here and consumed by
 * `createConsumer`, with a `/metrics` endpoint beside them. `inferpool consume …` in
 * @inferpool/server's binary delegates here when this package is installed.
 */
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { availableParallelism } from 'node:os'
import { POOL_DEFAULTS, createPool, defaultIntraOpThreads } from '@inferpool/host'
import type { Pool } from '@inferpool/host'
import { DEMO_MODEL_NAME, demoModelPath, integerAtLeast, milliseconds, modelFlag, natsFlag, port } from '@inferpool/server'
import type { ModelFlag, ServedPool } from '@inferpool/server'
import { Command, Option } from 'commander'
import { collectDefaultMetrics } from 'prom-client'
import { createConsumer } from './consumer.js'
import type { InferpoolConsumer } from './consumer.js'
import { CONSUMER_DEFAULTS } from './options.js'

/** The NATS URL variable (as the nats CLI reads it), for a container. */
export const NATS_URL_ENV = 'NATS_URL'

export const CONSUME_CLI_DEFAULTS = {
  nats: 'nats://127.0.0.1:4222',
  metricsPort: 9464,
  metricsHost: '127.0.0.1',
  maxQueueSize: 4096,
  shutdownTimeoutMs: 60_000,
} as const

interface ConsumeFlags {
  model?: ModelFlag[]
  nats?: string[]
  replicas: number
  intraOpThreads?: number
  concurrency: number
  isolation: 'thread' | 'process'
  maxBatchSize: number
  maxWaitMs: number
  maxQueueSize: number
  timeoutMs: number
  maxDeliver: number
  ackWaitMs: number
  maxAckPending?: number
  retryDelayMs: number
  duplicateWindowMs?: number
  requestsSubject: string
  resultsSubject: string
  deadSubject: string
  requestsStream: string
  resultsStream: string
  deadStream: string
  durablePrefix: string
  streamReplicas: number
  metricsPort: number
  metricsHost: string
  shutdownTimeoutMs: number
}

export interface ConsumeCliOutput {
  log(line: string): void
  error(line: string): void
}

export function createConsumeProgram(out: ConsumeCliOutput = { log: console.log, error: console.error }): Command {
  return new Command('consume')
    .description(
      'Bulk inference from NATS JetStream: Open Inference Protocol requests from <requests-subject>.<model> (a work-queue ' +
        'stream), each result exactly once to <results-subject>.<model>, bad requests to <dead-subject>.<model>.',
    )
    .showHelpAfterError('(run with --help for usage)')
    .addOption(
      new Option(
        '-m, --model <name=path>',
        `a model to consume for; repeatable (default: the built-in demo model as "${DEMO_MODEL_NAME}")`,
      ).argParser(modelFlag),
    )
    .addOption(
      new Option('--nats <url>', `a NATS server; repeat for a cluster (default: ${CONSUME_CLI_DEFAULTS.nats})`)
        .argParser(natsFlag)
        .env(NATS_URL_ENV),
    )
    .addOption(
      new Option('--replicas <n>', 'worker threads per model, each holding one ONNX Runtime session')
        .argParser(integerAtLeast(1))
        .default(POOL_DEFAULTS.replicas),
    )
    .addOption(
      new Option('--intra-op-threads <n>', "threads of each session's intra-op pool (default: cores / replicas)").argParser(
        integerAtLeast(1),
      ),
    )
    .addOption(
      new Option('--concurrency <n>', 'batches in flight per replica').argParser(integerAtLeast(1)).default(POOL_DEFAULTS.concurrency),
    )
    .addOption(
      new Option('--isolation <mode>', 'replicas as worker threads, or as child processes')
        .choices(['thread', 'process'])
        .default('thread'),
    )
    .addOption(
      new Option('--max-batch-size <n>', 'most rows in one batch (capped by a fixed batch dim of the model)')
        .argParser(integerAtLeast(1))
        .default(POOL_DEFAULTS.maxBatchSize),
    )
    .addOption(
      new Option('--max-wait-ms <ms>', 'longest wait for more rows before a batch runs')
        .argParser(milliseconds(false))
        .default(POOL_DEFAULTS.maxWaitMs),
    )
    .addOption(
      new Option('--max-queue-size <n>', 'rows waiting per model; a request that does not fit waits for room')
        .argParser(integerAtLeast(1))
        .default(CONSUME_CLI_DEFAULTS.maxQueueSize),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'deadline of a request in the pool; past it the request is given back (nak) to be delivered again')
        .argParser(integerAtLeast(1))
        .default(CONSUMER_DEFAULTS.timeoutMs),
    )
    .addOption(
      new Option('--max-deliver <n>', 'deliveries of a request before it is dead-lettered instead of run again')
        .argParser(integerAtLeast(1))
        .default(CONSUMER_DEFAULTS.maxDeliver),
    )
    .addOption(
      new Option(
        '--ack-wait-ms <ms>',
        'how long a delivered request may go unacknowledged before it is redelivered (kept alive while it runs)',
      )
        .argParser(integerAtLeast(1000))
        .default(CONSUMER_DEFAULTS.ackWaitMs),
    )
    .addOption(
      new Option(
        '--max-ack-pending <n>',
        'most requests per model delivered and unacknowledged, over all consumer processes (default: replicas × max batch size × 2)',
      ).argParser(integerAtLeast(1)),
    )
    .addOption(
      new Option('--retry-delay-ms <ms>', 'delay of a request given back (a full queue, a crashed replica, a timeout)')
        .argParser(integerAtLeast(0))
        .default(CONSUMER_DEFAULTS.retryDelayMs),
    )
    .addOption(
      new Option(
        '--duplicate-window-ms <ms>',
        'duplicate window of the results and dead-letter streams when created, and the least accepted (default and minimum: max deliver × (ack wait + timeout))',
      ).argParser(integerAtLeast(1)),
    )
    .addOption(
      new Option('--requests-subject <prefix>', 'requests of model m arrive on <prefix>.m').default(CONSUMER_DEFAULTS.subjects.requests),
    )
    .addOption(new Option('--results-subject <prefix>', 'results of model m go to <prefix>.m').default(CONSUMER_DEFAULTS.subjects.results))
    .addOption(new Option('--dead-subject <prefix>', 'dead letters of model m go to <prefix>.m').default(CONSUMER_DEFAULTS.subjects.dead))
    .addOption(new Option('--requests-stream <name>', 'the work-queue stream of the requests').default(CONSUMER_DEFAULTS.streams.requests))
    .addOption(new Option('--results-stream <name>', 'the stream of the results').default(CONSUMER_DEFAULTS.streams.results))
    .addOption(new Option('--dead-stream <name>', 'the stream of the dead letters').default(CONSUMER_DEFAULTS.streams.dead))
    .addOption(
      new Option('--durable-prefix <name>', "prefix of each model's durable consumer (<prefix>_<model>)").default(
        CONSUMER_DEFAULTS.durablePrefix,
      ),
    )
    .addOption(
      new Option('--stream-replicas <n>', 'replicas of each stream it creates (3 on a three-node JetStream cluster)')
        .argParser(integerAtLeast(1))
        .default(CONSUMER_DEFAULTS.streamReplicas),
    )
    .addOption(
      new Option(
        '--shutdown-timeout-ms <ms>',
        'on SIGTERM/SIGINT, longest wait for the requests in flight; past it the consumer stops at once (exit 1) and they are delivered again',
      )
        .argParser(integerAtLeast(0))
        .default(CONSUME_CLI_DEFAULTS.shutdownTimeoutMs),
    )
    .addOption(
      new Option('--metrics-port <port>', 'port of GET /metrics (0: any free port)')
        .argParser(port)
        .default(CONSUME_CLI_DEFAULTS.metricsPort),
    )
    .addOption(
      new Option('--metrics-host <address>', 'address of the metrics endpoint (0.0.0.0 for a scraper on another machine)').default(
        CONSUME_CLI_DEFAULTS.metricsHost,
      ),
    )
    .action(async (flags: ConsumeFlags, command: Command) => {
      const models = flags.model ?? [{ name: DEMO_MODEL_NAME, path: demoModelPath() }]
      // The pools start after every option has been checked, so a bad option costs no model load.
      const loads = new Map(models.map((m) => [m.name, deferred<ServedPool>()]))
      let consumer: InferpoolConsumer
      try {
        consumer = createConsumer({
          pools: new Map([...loads].map(([name, load]) => [name, load.promise])),
          nats: flags.nats ?? [CONSUME_CLI_DEFAULTS.nats],
          subjects: { requests: flags.requestsSubject, results: flags.resultsSubject, dead: flags.deadSubject },
          streams: { requests: flags.requestsStream, results: flags.resultsStream, dead: flags.deadStream },
          durablePrefix: flags.durablePrefix,
          streamReplicas: flags.streamReplicas,
          maxDeliver: flags.maxDeliver,
          ackWaitMs: flags.ackWaitMs,
          maxAckPending: flags.maxAckPending,
          timeoutMs: flags.timeoutMs,
          retryDelayMs: flags.retryDelayMs,
          duplicateWindowMs: flags.duplicateWindowMs,
          logger: { info: out.log, warn: out.error },
        })
      } catch (error) {
        command.error(`error: ${(error as Error).message}`)
      }
      const intraOpNumThreads =
        flags.intraOpThreads ?? defaultIntraOpThreads({ cores: availableParallelism(), replicas: flags.replicas, processes: 1 })
      const pools: Promise<Pool>[] = []
      for (const m of models) {
        const pool = createPool({
          model: m.path,
          replicas: flags.replicas,
          concurrency: flags.concurrency,
          // A request that does not fit waits for room: what is in flight is bounded by max ack pending already.
          batching: { maxBatchSize: flags.maxBatchSize, maxWaitMs: flags.maxWaitMs, maxQueueSize: flags.maxQueueSize, whenFull: 'wait' },
          session: { intraOpNumThreads },
          isolation: flags.isolation,
          timeoutMs: flags.timeoutMs,
        })
        pools.push(pool)
        pool.then(loads.get(m.name)!.resolve, loads.get(m.name)!.reject)
      }
      process.exitCode = await runConsumer(consumer, pools, flags, out)
    })
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  // A load that fails is reported by `start`; this copy must not be an unhandled rejection too.
  promise.catch(() => {})
  return { promise, resolve, reject }
}

/**
 * Runs a started consumer until SIGTERM or SIGINT: then it stops pulling, finishes and
 * acknowledges what is in flight, closes the pools and answers 0. A second signal stops
 * at once (what was in flight is redelivered) and answers 1. A failed start answers 1.
 */
async function runConsumer(
  consumer: InferpoolConsumer,
  pools: Promise<Pool>[],
  flags: ConsumeFlags,
  out: ConsumeCliOutput,
): Promise<number> {
  collectDefaultMetrics({ register: consumer.metrics.registry })
  const metrics = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/metrics') {
      consumer.metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': consumer.metrics.registry.contentType }).end(text),
        (error: unknown) => res.writeHead(500).end(String(error)),
      )
    } else {
      res.writeHead(404).end()
    }
  })
  const closePools = async (): Promise<void> => {
    await Promise.all(pools.map((p) => p.then((pool) => pool.close()).catch(() => {})))
  }
  let signalled = 0
  let resolveStop!: (code: number) => void
  const stopped = new Promise<number>((resolve) => (resolveStop = resolve))
  let forced = false
  const stopNow = (why: string): void => {
    forced = true
    out.error(`inferpool consume: ${why}: stopping now; the requests in flight will be delivered again`)
    void consumer
      .destroy()
      .then(closePools)
      .then(() => resolveStop(1))
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    signalled++
    if (signalled > 1) return stopNow(`${signal} again`)
    out.log(`inferpool consume: ${signal}: finishing the requests in flight (again to stop at once)`)
    // A drain that cannot finish (the NATS server away for good) ends at the timeout.
    const timer = setTimeout(() => stopNow(`still draining after ${flags.shutdownTimeoutMs} ms`), flags.shutdownTimeoutMs)
    consumer.close().then(
      async () => {
        clearTimeout(timer)
        await closePools()
        resolveStop(forced ? 1 : 0)
      },
      (error: unknown) => {
        clearTimeout(timer)
        stopNow(`the drain failed (${(error as Error).message})`)
      },
    )
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
  try {
    await listen(metrics, flags.metricsPort, flags.metricsHost)
    const address = metrics.address() as { port: number }
    out.log(`inferpool consume: metrics at http://${flags.metricsHost}:${address.port}/metrics`)
    await consumer.start()
  } catch (error) {
    out.error(`inferpool consume: ${(error as Error).message}`)
    await consumer.destroy()
    await closePools()
    metrics.close()
    return 1
  }
  if (signalled === 0) out.log('inferpool consume: ready')
  const code = await stopped
  metrics.close()
  out.log(`inferpool consume: stopped (${JSON.stringify(consumer.stats)})`)
  return code
}

function listen(server: Server, portNumber: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(portNumber, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** Runs `inferpool consume` with `args` (what follows `consume` on the command line). */
export async function runConsume(args: readonly string[], out?: ConsumeCliOutput): Promise<void> {
  await createConsumeProgram(out).parseAsync([...args], { from: 'user' })
}
