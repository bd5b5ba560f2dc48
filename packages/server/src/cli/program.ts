/**
 * The `inferpool` command line: `inferpool serve` starts the HTTP server (Open
 * Inference Protocol) on one or more models — by default the built-in demo model.
 */
import cluster from 'node:cluster'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { batcherDefaults } from '@inferpool/core'
import { Command, InvalidArgumentError, Option } from 'commander'
import { exposeGc } from '@inferpool/worker'
import { runClusterPrimary } from '../cluster/primary.js'
import { poolFromPrimaryCopy } from '../cluster/model-copies.js'
import { joinCluster } from '../cluster/worker.js'
import { GRPC_SERVER_DEFAULTS } from '../grpc/server.js'
import { POOL_DEFAULTS, createPool, defaultIntraOpThreads } from '@inferpool/host'
import { HANDLER_DEFAULTS } from '../protocol/options.js'
import { ModelRepository, modelNames, readRepositories, repositoryPoolOptions } from '../repository/index.js'
import type { ModelRepositoryOptions, RepositoryModel } from '../repository/index.js'
import type { PoolsByModel } from '../protocol/served-models.js'
import { SERVER_DEFAULTS, createServer } from '../server/serve.js'
import { LOG_FORMATS, consoleOf, createLog, defaultLogFormat } from '../telemetry/log.js'
import type { LogFormat } from '../telemetry/log.js'
import type { Tracing, TracingFlags } from '../telemetry/tracing.js'
import type { Pool, PoolOptions } from '@inferpool/host'
import { curlExample } from './curl.js'
import { DEMO_MODEL_NAME, demoModelPath } from './demo.js'
import { MAX_TIMER_MS } from '@inferpool/core/internal'
import { NATS_ONLY_FLAGS, bulkPlace, createBulkConsumer, loadConsume, stopBulkConsumer } from './nats.js'
import type { BulkConsumer, NatsFlags } from './nats.js'
import {
  integerAtLeast,
  loadModelFlag,
  milliseconds,
  modelFlag,
  natsFlag,
  port,
  repositoryFlag,
  sizeFlag,
  timerMs,
  timerSeconds,
} from './parse.js'
import type { ModelFlag } from './parse.js'

/** Bounded by default so an overloaded server answers 503 at once instead of queueing without end. */
export const CLI_DEFAULTS = {
  maxQueueSize: 4096,
  timeoutMs: 30_000,
} as const

export const API_KEY_ENV = 'INFERPOOL_API_KEY'
export const REPOSITORY_TOKEN_ENV = 'INFERPOOL_REPOSITORY_TOKEN'
/** The port variable Knative and KServe set for a container. */
export const PORT_ENV = 'PORT'

const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version

interface ServeFlags extends TracingFlags, NatsFlags {
  logFormat: LogFormat
  model?: ModelFlag[]
  modelRepository?: string[]
  modelControlMode: 'none' | 'explicit' | 'poll' | 'on-demand'
  repositoryPollSecs: number
  modelMemoryBudget?: number
  minEvictionAgeMs: number
  loadModel?: string[]
  repositoryToken?: string
  allowModelUpload: boolean
  processes: number
  replicas: number
  intraOpThreads?: number
  concurrency: number
  maxBatchSize: number
  minBatchSize: number
  maxWaitMs: number
  maxQueueSize: number
  whenFull: 'wait' | 'reject'
  admissionWaitMs: number
  timeoutMs: number
  port: number
  grpcPort: number
  host: string
  apiKey?: string
  provider: 'cpu' | 'cuda'
  isolation: 'thread' | 'process'
  maxBodyBytes: number
  maxPendingBodyBytes: number
  maxConcurrentStreams: number
  headersTimeoutMs: number
  bodyTimeoutMs: number
  idleTimeoutMs: number
  shutdownTimeoutMs: number
  drainDelayMs: number
  idleGcMs: number
}

export interface CliOutput {
  log(line: string): void
  error(line: string): void
  /** What the server takes as its `logger`. @default console */
  logger?: Pick<Console, 'info' | 'warn' | 'error'>
  /** A pool's logger, its lines carrying the model and version. @default console */
  labelled?(bindings: { model: string; version?: string }): Pick<Console, 'info' | 'warn'>
}

/** The environment variable of `--log-format`. */
export const LOG_FORMAT_ENV = 'INFERPOOL_LOG_FORMAT'

/**
 * The `inferpool` command. `out`: where `serve` writes its lines; by default a pino
 * logger in `--log-format` (telemetry/log.ts).
 */
export function createProgram(given?: CliOutput): Command {
  const program = new Command('inferpool')
    .description('High-throughput ONNX inference for Node.js: dynamic batching over worker threads.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')

  program
    .command('serve')
    .description(
      'Serve ONNX models over HTTP with the Open Inference Protocol (KServe v2 REST): ' +
        '/v2/models/{name}/infer, /v2/health/ready, /metrics.',
    )
    .addOption(
      new Option(
        '-m, --model <name=path>',
        `a model to serve as {name}; repeat for several models (default, without --model-repository: the built-in demo model as "${DEMO_MODEL_NAME}")`,
      ).argParser(modelFlag),
    )
    .addOption(
      new Option(
        '--model-repository <dir>',
        "a model repository in Triton's layout (<dir>/<model>/[config.pbtxt], <dir>/<model>/<version>/model.onnx); repeatable",
      ).argParser(repositoryFlag),
    )
    .addOption(
      new Option(
        '--model-control-mode <mode>',
        'none: load every repository model at start (the index call is served; load and unload calls are refused); explicit: load only --load-model ones, then load, reload and unload ' +
          'through the model repository extension (POST /v2/repository/...); poll: load every model at start, then ' +
          'reload a model whose files changed and unload one whose directory is gone, every --repository-poll-secs ' +
          '(the index call is served; load and unload calls are refused, as in Triton); on-demand: list every repository model ' +
          'and load it on its first request (HTTP or gRPC), the requests meanwhile waiting within their timeout; load and ' +
          'unload calls work as in explicit, and --load-model ones load at start',
      )
        .choices(['none', 'explicit', 'poll', 'on-demand'])
        .default('none'),
    )
    .addOption(
      new Option(
        '--repository-poll-secs <s>',
        'with --model-control-mode poll, seconds between two scans of the repositories (a scan can meet a file still ' +
          'being written: put new versions in place with a rename)',
      )
        .argParser(timerSeconds)
        .default(15),
    )
    .addOption(
      new Option(
        '--model-memory-budget <size>',
        'with --model-control-mode on-demand or explicit, most memory the server may hold (PSS of the server process and its ' +
          'replica processes, e.g. 400MiB, 1.5GiB): a load that would pass it first evicts the least recently used models ' +
          '(not one serving a request, one loaded less than --min-eviction-age-ms ago, or one pinned by the config.pbtxt ' +
          'parameter inferpool_pinned); per server process with --processes (default: no budget)',
      ).argParser(sizeFlag),
    )
    .addOption(
      new Option('--min-eviction-age-ms <ms>', 'with --model-memory-budget, youngest a model may be when it is evicted to make room')
        .argParser(timerMs(0))
        .default(10_000),
    )
    .addOption(
      new Option(
        '--load-model <name>',
        "with --model-control-mode explicit or on-demand, a repository model to load at start ('*': all); repeatable",
      ).argParser(loadModelFlag),
    )
    .addOption(
      new Option(
        '--repository-token <token>',
        'bearer token of the model repository calls, apart from --api-key (loading a model runs code on the server); without it they take --api-key',
      ).env(REPOSITORY_TOKEN_ENV),
    )
    .addOption(
      new Option(
        '--allow-model-upload',
        'take model files in a load request (file:<version>/<name> parameters, with its config), served from a private ' +
          'temporary directory removed when they stop serving; a model file is code the server runs (default: refused)',
      ).default(false),
    )
    .addOption(
      new Option(
        '--processes <n>',
        'server processes sharing the port (node:cluster), each with its own pools; ' +
          'inference threads per model = processes × replicas × intra-op threads',
      )
        .argParser(integerAtLeast(1))
        .default(1),
    )
    .addOption(
      new Option('--replicas <n>', 'worker threads per model in each process, each holding one ONNX Runtime session')
        .argParser(integerAtLeast(1))
        .default(POOL_DEFAULTS.replicas, `${POOL_DEFAULTS.replicas}: one per core, at most 2`),
    )
    .addOption(
      new Option(
        '--intra-op-threads <n>',
        "threads of each session's intra-op pool (default: cores / (processes × replicas), at least 1)",
      ).argParser(integerAtLeast(1)),
    )
    .addOption(
      new Option('--concurrency <n>', 'batches in flight per replica').argParser(integerAtLeast(1)).default(POOL_DEFAULTS.concurrency),
    )
    .addOption(
      new Option('--max-batch-size <n>', 'most rows in one batch (capped by a fixed batch dim of the model)')
        .argParser(integerAtLeast(1))
        .default(POOL_DEFAULTS.maxBatchSize),
    )
    .addOption(
      new Option('--min-batch-size <n>', 'a smaller batch waits up to --max-wait-ms for more rows')
        .argParser(integerAtLeast(1))
        .default(batcherDefaults.minBatchSize),
    )
    .addOption(
      new Option('--max-wait-ms <ms>', 'longest wait for a batch to reach --min-batch-size (0: never wait)')
        .argParser(milliseconds(false))
        .default(POOL_DEFAULTS.maxWaitMs),
    )
    .addOption(
      new Option('--max-queue-size <n>', 'rows waiting per model before requests get 503 + Retry-After')
        .argParser(integerAtLeast(1))
        .default(CLI_DEFAULTS.maxQueueSize),
    )
    .addOption(
      new Option(
        '--when-full <policy>',
        "when a request's rows do not fit the queue: reject them at once with 503 + Retry-After (before reading the body " +
          'when its length tells), or wait for room (bounded by --timeout-ms)',
      )
        .choices(['reject', 'wait'])
        .default('reject'),
    )
    .addOption(
      new Option(
        '--admission-wait-ms <ms>',
        'with --when-full reject, how long a request that does not fit waits for room (body unread, first come first served) ' +
          'before its 503; 0: at once',
      )
        .argParser(timerMs(0))
        .default(HANDLER_DEFAULTS.admissionWaitMs),
    )
    .addOption(
      new Option('--timeout-ms <ms>', 'deadline of a request from its arrival; past it the request gets 504 and its rows leave the queue')
        .argParser(milliseconds(true, MAX_TIMER_MS))
        .default(CLI_DEFAULTS.timeoutMs),
    )
    .addOption(new Option('-p, --port <port>', 'TCP port (0: any free port)').argParser(port).env(PORT_ENV).default(SERVER_DEFAULTS.port))
    .addOption(
      new Option('--grpc-port <port>', 'gRPC port (inference.GRPCInferenceService, as Triton); 0 turns gRPC off')
        .argParser(port)
        .default(GRPC_SERVER_DEFAULTS.port),
    )
    .addOption(
      new Option('--host <address>', 'address to bind; 0.0.0.0 serves other machines (set --api-key)').default(SERVER_DEFAULTS.host),
    )
    .addOption(
      new Option(
        '--api-key <token>',
        'require "Authorization: Bearer <token>" on every route but /v2/health/* (default: none, no authentication)',
      ).env(API_KEY_ENV),
    )
    .addOption(
      new Option('--provider <name>', 'ONNX Runtime execution provider (cuda needs the CUDA 12 provider libraries)')
        .choices(['cpu', 'cuda'])
        .default('cpu'),
    )
    .addOption(
      new Option(
        '--isolation <mode>',
        'replicas as worker threads, or as child processes (a native crash then costs one batch, not the server)',
      )
        .choices(['thread', 'process'])
        .default('thread'),
    )
    .addOption(
      new Option('--max-body-bytes <n>', 'largest request body; longer ones get 413')
        .argParser(integerAtLeast(1))
        .default(HANDLER_DEFAULTS.maxBodyBytes, `${HANDLER_DEFAULTS.maxBodyBytes} (16 MiB)`),
    )
    .addOption(
      new Option(
        '--max-pending-body-bytes <n>',
        'most bytes all requests still arriving (HTTP bodies and gRPC messages) may hold at once; past it a request gets 503 ' +
          '(gRPC UNAVAILABLE) instead of being held',
      )
        .argParser(integerAtLeast(1))
        .default(HANDLER_DEFAULTS.maxPendingBodyBytes, `${HANDLER_DEFAULTS.maxPendingBodyBytes} (128 MiB)`),
    )
    .addOption(
      new Option('--max-concurrent-streams <n>', 'most gRPC calls open at once on one HTTP/2 connection')
        .argParser(integerAtLeast(1))
        .default(GRPC_SERVER_DEFAULTS.maxConcurrentStreams),
    )
    .addOption(
      new Option('--headers-timeout-ms <ms>', "longest time for a request's headers to arrive; a slower client gets 408")
        .argParser(timerMs(1))
        .default(SERVER_DEFAULTS.headersTimeoutMs),
    )
    .addOption(
      new Option(
        '--body-timeout-ms <ms>',
        "longest time for a request's body (a gRPC call's message; each message of a stream) to arrive after its headers " +
          '(its first byte); a stalled body gets 408 (gRPC DEADLINE_EXCEEDED)',
      )
        .argParser(timerMs(1))
        .default(HANDLER_DEFAULTS.bodyTimeoutMs),
    )
    .addOption(
      new Option('--idle-timeout-ms <ms>', 'longest time a keep-alive connection stays open between requests')
        .argParser(timerMs(1))
        .default(SERVER_DEFAULTS.idleTimeoutMs),
    )
    .addOption(
      new Option('--shutdown-timeout-ms <ms>', 'on SIGTERM/SIGINT, longest wait for requests in progress')
        .argParser(timerMs(0))
        .default(SERVER_DEFAULTS.shutdownTimeoutMs),
    )
    .addOption(
      new Option(
        '--drain-delay-ms <ms>',
        'on SIGTERM/SIGINT, report not-ready (503) and keep serving this long before the listener closes, so a load balancer ' +
          'stops sending connections first',
      )
        .argParser(timerMs(0))
        .default(SERVER_DEFAULTS.drainDelayMs),
    )
    .addOption(
      new Option(
        '--idle-gc-ms <ms>',
        'once no request has been in progress for this long after serving some, run a full garbage collection (and one ' +
          'more 5.2 s later) so memory a burst left behind is freed (see the README on memory); replica processes ' +
          '(--isolation process) do the same after their last batch; 0: never',
      )
        .argParser(timerMs(0))
        .default(SERVER_DEFAULTS.idleCollectMs),
    )
    .addOption(
      new Option('--log-format <format>', 'log lines as JSON objects (level, time, msg, model, version, trace_id) or as text')
        .choices(LOG_FORMATS)
        .env(LOG_FORMAT_ENV)
        .default(defaultLogFormat(), 'text on a terminal, json otherwise'),
    )
    .addOption(
      new Option(
        '--otel',
        'export OpenTelemetry traces over OTLP (to OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318); also on when ' +
          'OTEL_TRACES_EXPORTER or an OTLP endpoint is set (see docs/observability.md)',
      ),
    )
    .addOption(new Option('--otel-endpoint <url>', 'the OTLP/HTTP collector to export traces to (as OTEL_EXPORTER_OTLP_ENDPOINT)'))
    .addOption(
      new Option('--otel-protocol <protocol>', 'OTLP encoding (as OTEL_EXPORTER_OTLP_PROTOCOL)').choices(['http/protobuf', 'http/json']),
    )
    .addOption(
      new Option(
        '--otel-sample-ratio <ratio>',
        "share of new traces sampled, 0 to 1; a caller's traceparent decides for its own (parent-based)",
      ).argParser(ratioFlag),
    )
    .addOption(
      new Option(
        '--nats <url>',
        'also consume bulk requests from this NATS JetStream server (repeat for a cluster), in the same pools, behind every ' +
          'online request (needs @inferpool/consume; see its README)',
      ).argParser(natsFlag),
    )
    .addOption(
      new Option('--requests-subject <prefix>', 'with --nats, requests of model m arrive on <prefix>.m (default: inferpool.requests)'),
    )
    .addOption(new Option('--results-subject <prefix>', 'with --nats, results of model m go to <prefix>.m (default: inferpool.results)'))
    .addOption(new Option('--dead-subject <prefix>', 'with --nats, dead letters of model m go to <prefix>.m (default: inferpool.dead)'))
    .addOption(new Option('--requests-stream <name>', 'with --nats, the work-queue stream of the requests (default: INFERPOOL_REQUESTS)'))
    .addOption(new Option('--results-stream <name>', 'with --nats, the stream of the results (default: INFERPOOL_RESULTS)'))
    .addOption(new Option('--dead-stream <name>', 'with --nats, the stream of the dead letters (default: INFERPOOL_DEAD)'))
    .addOption(new Option('--durable-prefix <name>', "with --nats, prefix of each model's durable consumer (default: inferpool)"))
    .addOption(
      new Option('--stream-replicas <n>', 'with --nats, replicas of each stream it creates (default: 1)').argParser(integerAtLeast(1)),
    )
    .addOption(
      new Option('--max-deliver <n>', 'with --nats, deliveries of a request before it is dead-lettered (default: 5)').argParser(
        integerAtLeast(1),
      ),
    )
    .addOption(
      new Option('--ack-wait-ms <ms>', 'with --nats, how long a delivered request may go unacknowledged (default: 30000)').argParser(
        timerMs(1000),
      ),
    )
    .addOption(
      new Option(
        '--max-ack-pending <n>',
        'with --nats, most bulk requests per model delivered and unacknowledged (default: replicas × max batch size × 2)',
      ).argParser(integerAtLeast(1)),
    )
    .addOption(new Option('--retry-delay-ms <ms>', 'with --nats, delay of a bulk request given back (default: 1000)').argParser(timerMs(0)))
    .addOption(
      new Option(
        '--duplicate-window-ms <ms>',
        'with --nats, duplicate window of the results and dead-letter streams (default and minimum: max deliver × (ack wait + timeout))',
      ).argParser(integerAtLeast(1)),
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const out = given ?? logOutput(createLog(flags.logFormat))
      if (flags.nats === undefined) {
        const stray = NATS_ONLY_FLAGS.find((name) => flags[name] !== undefined)
        if (stray !== undefined) command.error(`error: option '--${kebab(stray)}' needs --nats`)
      } else if (flags.processes > 1 || flags.modelControlMode !== 'none') {
        // A consumer holds its pools for its life: a repository call or scan may replace them, and each process of a cluster would consume.
        command.error(
          `error: option '--nats' consumes in one process whose models stay loaded, got ` +
            (flags.processes > 1 ? `--processes ${flags.processes}` : `--model-control-mode ${flags.modelControlMode}`) +
            '; run more `inferpool serve --nats` (or `inferpool consume`) processes instead',
        )
      }
      // A repository call reaches the one process that accepted its connection: the others would keep the old model.
      if (flags.modelControlMode === 'explicit' && flags.processes > 1) {
        command.error(
          `error: option '--model-control-mode explicit' serves one process only, got --processes ${flags.processes} ` +
            '(a load would reach one of them); use --model-control-mode poll, which every process runs',
        )
      }
      if (flags.modelMemoryBudget !== undefined && flags.modelControlMode !== 'on-demand' && flags.modelControlMode !== 'explicit') {
        command.error(
          `error: option '--model-memory-budget' needs --model-control-mode on-demand or explicit, got --model-control-mode ${flags.modelControlMode}`,
        )
      }
      if (flags.minBatchSize > flags.maxBatchSize) {
        command.error(`error: option '--min-batch-size <n>' (${flags.minBatchSize}) must be <= --max-batch-size (${flags.maxBatchSize})`)
      }
      // The primary of several processes only supervises them; each of them runs serveCommand.
      if (flags.processes > 1 && cluster.isPrimary) {
        process.exit(await runClusterPrimary({ ...flags, log: out.log, error: out.error }))
      }
      await serveCommand(flags, out)
    })

  return program
}

/** `maxAckPending` as its flag: `max-ack-pending`. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
}

/** `--otel-sample-ratio`: a number from 0 to 1. */
function ratioFlag(value: string): number {
  const ratio = Number(value)
  if (value.trim() === '' || !(ratio >= 0 && ratio <= 1)) throw new InvalidArgumentError('Expected a number from 0 to 1.')
  return ratio
}

/** Whether `startTracing` could turn tracing on: an exporter named, an endpoint given, or `--otel`. */
function mayTrace(flags: TracingFlags, env: NodeJS.ProcessEnv): boolean {
  if (flags.otel === true || flags.otelEndpoint !== undefined) return true
  const names = ['OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT']
  return names.some((name) => (env[name] ?? '').trim() !== '')
}

/** The CLI's lines through a pino logger; `logger`: what the pools and the server take (`console`-shaped). */
function logOutput(log: ReturnType<typeof createLog>): CliOutput {
  return {
    log: (line) => log.info(line),
    error: (line) => log.error(line),
    logger: consoleOf(log),
    labelled: (bindings) => consoleOf(log.child(bindings)),
  }
}

/**
 * Scans the repositories every `everyMs` until `closed()`: a scan that fails is logged
 * (the models serving serve on) and the next one tries again; it never takes the process
 * down. A scan still running when the next is due is not doubled.
 */
function startPolling(control: Pick<ModelRepository, 'poll'>, everyMs: number, closed: () => boolean, out: CliOutput): NodeJS.Timeout {
  let scanning = false
  const timer = setInterval(() => {
    if (closed()) return clearInterval(timer)
    if (scanning) return
    scanning = true
    control
      .poll()
      .catch((error: unknown) => out.error(`inferpool: repository scan failed, retried at the next scan: ${(error as Error).message}`))
      .finally(() => (scanning = false))
  }, everyMs)
  timer.unref()
  return timer
}

/** The model repository, or the process ends with why it cannot be made (a memory budget this system cannot measure). */
function repositoryOrExit(options: ModelRepositoryOptions, out: CliOutput): ModelRepository {
  try {
    return new ModelRepository(options)
  } catch (error) {
    out.error(`inferpool: ${(error as Error).message}`)
    process.exit(1)
  }
}

/** Inference threads per model and how they multiply, for the banner. */
function threadsLine(flags: ServeFlags, intraOpThreads: number): string {
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`
  const total = flags.processes * flags.replicas * intraOpThreads
  return (
    `  threads per model: ${count(flags.processes, 'process', 'processes')} × ${count(flags.replicas, 'replica', 'replicas')} × ` +
    `${count(intraOpThreads, 'intra-op thread', 'intra-op threads')} = ${total}, on ${count(availableParallelism(), 'core', 'cores')}`
  )
}

async function serveCommand(flags: ServeFlags, out: CliOutput): Promise<void> {
  // A process forked by `--processes n`'s primary (see ../cluster/primary.ts).
  const member = cluster.isWorker ? joinCluster() : undefined
  const models = flags.model ?? (flags.modelRepository === undefined ? [{ name: DEMO_MODEL_NAME, path: demoModelPath() }] : [])
  const intraOpThreads =
    flags.intraOpThreads ?? defaultIntraOpThreads({ cores: availableParallelism(), replicas: flags.replicas, processes: flags.processes })
  let consume: Awaited<ReturnType<typeof loadConsume>> | undefined
  try {
    // Before any model loads: a missing package costs no load.
    if (flags.nats !== undefined) consume = await loadConsume()
  } catch (error) {
    out.error(`inferpool: ${(error as Error).message}`)
    process.exit(1)
  }
  let tracing: Tracing | undefined
  try {
    // Each process of a cluster starts its own SDK and exports its own spans.
    // The SDK and its exporters (about 2 MB of live heap, which each full garbage collection
    // marks while requests are served) are loaded only when tracing may be on: what
    // `startTracing` turns it on with (it still decides, and refuses bad settings).
    if (mayTrace(flags, process.env)) tracing = (await import('../telemetry/tracing.js')).startTracing(flags)
  } catch (error) {
    out.error(`inferpool: ${(error as Error).message}`)
    process.exit(1)
  }
  const poolOptions = (path: string, labels?: { model: string; version?: string }): PoolOptions & { worker?: undefined } => ({
    model: path,
    ...(labels === undefined ? {} : { labels, ...(out.labelled === undefined ? {} : { logger: out.labelled(labels) }) }),
    replicas: flags.replicas,
    concurrency: flags.concurrency,
    batching: {
      maxBatchSize: flags.maxBatchSize,
      minBatchSize: flags.minBatchSize,
      maxWaitMs: flags.maxWaitMs,
      maxQueueSize: flags.maxQueueSize,
      whenFull: flags.whenFull,
    },
    session: { executionProviders: [flags.provider], intraOpNumThreads: intraOpThreads },
    isolation: flags.isolation,
    // Replica processes collect after a burst as the server does, on the same quiet time.
    ...(flags.isolation === 'process' ? { processes: { idleCollectMs: flags.idleGcMs } } : {}),
    timeoutMs: flags.timeoutMs,
  })
  const explicit = flags.modelControlMode !== 'none'
  const repositories = flags.modelRepository ?? []
  if (explicit && repositories.length === 0) {
    out.error(`inferpool: --model-control-mode ${flags.modelControlMode} needs a --model-repository`)
    process.exit(1)
  }
  // With a repository, the repository calls are served in every mode (in `none` the index
  // only, from the models loaded at start), as Triton serves them.
  const control =
    repositories.length > 0
      ? repositoryOrExit(
          {
            repositories,
            createPool: (model, file) =>
              createPool(
                repositoryPoolOptions(
                  model,
                  file,
                  poolOptions(file, { model: model.name, version: model.versions.find((v) => v.file === file)?.version }),
                ),
              ),
            logger: { warn: (line) => out.error(`inferpool: ${line}`), info: (line) => out.log(`inferpool: ${line}`) },
            allowModelUpload: flags.allowModelUpload,
            maxWarmupBytes: flags.maxBodyBytes,
            mode: flags.modelControlMode,
            ...(flags.modelMemoryBudget === undefined
              ? {}
              : { memoryBudget: flags.modelMemoryBudget, minEvictionAgeMs: flags.minEvictionAgeMs }),
          },
          out,
        )
      : undefined
  let repositoryModels: RepositoryModel[]
  try {
    // In explicit mode the repository loads its models itself, on request.
    repositoryModels = explicit ? [] : readRepositories(repositories, { warn: (line) => out.error(`inferpool: ${line}`) })
  } catch (error) {
    out.error(`inferpool: ${(error as Error).message}`)
    process.exit(1)
  }
  for (const model of repositoryModels) {
    if (models.some((m) => m.name === model.name)) {
      out.error(`inferpool: model '${model.name}' is given by --model and by the repository ${model.directory}`)
      process.exit(1)
    }
  }
  // Pools load while the server already answers /v2/health/live (ready comes after).
  // In a cluster, a --model file comes from the primary's copy, read once for every process (a replacement too).
  const pools = new Map<string, Promise<Pool> | Map<string, Promise<Pool>>>(
    models.map((m) => [m.name, poolFromPrimaryCopy(m.path, (path) => createPool(poolOptions(path, { model: m.name })))]),
  )
  // With --nats: the pool each model's bulk requests go to, and their place in its queue.
  const bulkPools = new Map<string, Promise<Pool>>()
  const bulkPlaces = new Map<string, ReturnType<typeof bulkPlace>>()
  for (const m of models) {
    bulkPools.set(m.name, pools.get(m.name) as Promise<Pool>)
    bulkPlaces.set(m.name, bulkPlace(poolOptions(m.path)))
  }
  for (const model of repositoryModels) {
    const versions = new Map<string, Promise<Pool>>()
    for (const v of model.versions) {
      const options = repositoryPoolOptions(model, v.file, poolOptions(v.file, { model: model.name, version: v.version }))
      versions.set(v.version, createPool(options))
      // Bulk requests name no version: they go to the newest (listed first), as an online request that names none.
      if (v === model.versions[0]) {
        bulkPools.set(model.name, versions.get(v.version)!)
        bulkPlaces.set(model.name, bulkPlace(options))
      }
    }
    pools.set(model.name, versions)
  }
  const server = createServer(pools as PoolsByModel, {
    port: flags.port,
    // On the command line 0 turns gRPC off (a free port is of little use to a client).
    grpcPort: flags.grpcPort === 0 ? undefined : flags.grpcPort,
    host: flags.host,
    apiKey: flags.apiKey,
    modelControl: control,
    repositoryToken: flags.repositoryToken,
    maxBodyBytes: flags.maxBodyBytes,
    maxPendingBodyBytes: flags.maxPendingBodyBytes,
    maxConcurrentStreams: flags.maxConcurrentStreams,
    timeoutMs: flags.timeoutMs,
    admissionWaitMs: flags.admissionWaitMs,
    headersTimeoutMs: flags.headersTimeoutMs,
    bodyTimeoutMs: flags.bodyTimeoutMs,
    idleTimeoutMs: flags.idleTimeoutMs,
    shutdownTimeoutMs: flags.shutdownTimeoutMs,
    drainDelayMs: flags.drainDelayMs,
    idleCollectMs: flags.idleGcMs,
    collectGarbage: flags.idleGcMs === 0 ? undefined : exposeGc(),
    processMetrics: true,
    handleSignals: member === undefined,
    collectMetrics: member?.collectMetrics,
    ...(out.logger === undefined ? {} : { logger: out.logger }),
    // The spans still buffered leave before the process exits.
    ...(tracing === undefined ? {} : { afterClose: () => tracing.shutdown() }),
    // The consumer stops first, while the pools still serve: what it holds gets its results and acks.
    ...(consume === undefined
      ? {}
      : { beforeClose: () => (bulk === undefined ? Promise.resolve() : stopBulkConsumer(bulk, flags.shutdownTimeoutMs, out)) }),
  })
  let bulk: BulkConsumer | undefined
  try {
    bulk =
      consume === undefined
        ? undefined
        : createBulkConsumer(
            consume,
            bulkPools,
            bulkPlaces,
            { ...flags, nats: flags.nats!, timeoutMs: flags.timeoutMs },
            server.handler.registry,
            out,
          )
  } catch (error) {
    await server.close().catch(() => {})
    out.error(`inferpool: ${(error as Error).message}`)
    process.exit(1)
  }
  member?.attach(server, server.handler.registry)
  control?.serveInto(server.handler.served)

  const fail = async (message: string): Promise<never> => {
    out.error(`inferpool: ${message}`)
    await server.close().catch(() => {})
    process.exit(1)
  }

  const listen = async (): Promise<string> => {
    try {
      return await server.listen()
    } catch (error) {
      const ports = flags.grpcPort === 0 ? `${flags.port}` : `${flags.port} (HTTP) / ${flags.grpcPort} (gRPC)`
      return fail(`cannot listen on ${flags.host}:${ports}: ${(error as Error).message}`)
    }
  }
  // A lone server listens at once (/v2/health/live answers while the models load). A
  // process of a cluster joins the shared ports only once its models have loaded, so a
  // port never hands a connection to a process that cannot serve it yet — a replacement
  // for a process that died included.
  let url = member === undefined ? await listen() : undefined
  if (url !== undefined) {
    const grpcPart = server.grpcAddress === undefined ? '' : ` and grpc://${server.grpcAddress}`
    const count = pools.size
    out.log(`inferpool listening on ${url}${grpcPart} (loading ${count} model${count === 1 ? '' : 's'}…)`)
  }
  try {
    await server.handler.ready()
    if (control !== undefined && flags.modelControlMode === 'poll') {
      await control.poll()
      startPolling(control, flags.repositoryPollSecs * 1000, () => server.handler.closed, out)
    } else if (control !== undefined && explicit) {
      const asked = [...(flags.loadModel ?? []), ...(flags.modelControlMode === 'on-demand' ? control.eagerModels() : [])]
      const names = asked.includes('*') ? [...new Set(repositories.flatMap((r) => modelNames(r)))] : [...new Set(asked)]
      for (const name of names) await control.load(name)
    }
  } catch (error) {
    return fail(`a model failed to load: ${(error as Error).message}`)
  }
  if (bulk !== undefined && !server.closed) {
    try {
      // Once the models serve: the streams and durable consumers are created or checked, then pulling starts.
      await bulk.start()
    } catch (error) {
      return fail(`the NATS consumer did not start: ${(error as Error).message}`)
    }
  }
  if (member?.stopping) return
  url ??= await listen()

  const loaded = await Promise.all([
    ...models.map(async (m) => ({ ...m, label: m.name, pool: await (pools.get(m.name) as Promise<Pool>) })),
    ...repositoryModels.flatMap((model) =>
      model.versions.map(async (v) => ({
        name: model.name,
        label: `${model.name} version ${v.version}`,
        path: v.file,
        pool: await (pools.get(model.name) as Map<string, Promise<Pool>>).get(v.version)!,
      })),
    ),
  ])
  const banner: string[] = []
  for (const { label, path, pool } of loaded) {
    const md = pool.metadata
    banner.push(
      `  model ${label}: ${path} — ${md.replicas} replica${md.replicas === 1 ? '' : 's'} × concurrency ${md.concurrency}, ` +
        `max batch ${md.maxBatchSize}, ${md.executionProvider}`,
    )
  }
  banner.push(threadsLine(flags, intraOpThreads))
  if (bulk !== undefined) {
    banner.push(`  bulk: consuming from NATS ${flags.nats!.join(', ')}, each model's requests behind its online ones`)
  }
  if (tracing !== undefined) banner.push(`  traces: ${tracing.description}`)
  const first = loaded[0] as (typeof loaded)[number] | undefined
  if (first !== undefined) {
    banner.push('Try it:')
    banner.push(`  ${curlExample(url, first.name, first.pool.metadata, flags.apiKey !== undefined)}`)
  }
  banner.push(`Metrics at ${url}/metrics. Ctrl-C (SIGINT) or SIGTERM shuts down gracefully.`)
  if (member !== undefined) return member.ready(url, banner, server.grpcAddress)
  for (const line of banner) out.log(line)
  out.log('inferpool: ready')
}
