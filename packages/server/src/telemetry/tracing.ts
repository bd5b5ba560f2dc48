/**
 * Starts OpenTelemetry tracing in an `inferpool serve` process, from the standard
 * environment and the `--otel*` flags (which win), or not at all: with nothing
 * configured no SDK is registered and every span check in the server and the pools
 * stays on the API's no-op path (docs/observability.md).
 *
 * The SDK is the trace SDK (`@opentelemetry/sdk-trace-node`) with one OTLP/HTTP exporter,
 * not `@opentelemetry/sdk-node`: that one also starts metrics and logs SDKs, defaults
 * `OTEL_TRACES_EXPORTER` to `otlp` (tracing on with nothing configured), and its current
 * releases need Node 22. The 2.x SDK and the 0.2xx exporters still support Node 20.
 * In a cluster (`--processes n`) each process starts its own SDK and exports its own spans.
 *
 * The environment read here: `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER` (`otlp`,
 * `console`, `none`), `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
 * `OTEL_EXPORTER_OTLP_PROTOCOL` / `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` (`http/protobuf`,
 * the default, or `http/json`). The SDK itself reads `OTEL_TRACES_SAMPLER` and
 * `OTEL_TRACES_SAMPLER_ARG`, the span limits and the batch processor's settings; the
 * resource detector reads `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
 */
import { context, propagation, trace } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { StackContextManager } from '@opentelemetry/sdk-trace'
import { NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node'
import type { NodeTracerConfig } from '@opentelemetry/sdk-trace-node'
import { tracingResource } from './resource.js'
import { ThreadSpanProcessor } from './span-thread.js'
import type { ExportPlan } from './span-thread.js'

/** The `--otel*` flags of `inferpool serve`. */
export interface TracingFlags {
  /** `--otel`: export over OTLP even without `OTEL_TRACES_EXPORTER` or an endpoint in the environment. */
  otel?: boolean
  /** `--otel-endpoint <url>`: the collector's base URL (`/v1/traces` is added), as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  otelEndpoint?: string
  /** `--otel-protocol`: as `OTEL_EXPORTER_OTLP_PROTOCOL`. */
  otelProtocol?: 'http/json' | 'http/protobuf'
  /** `--otel-sample-ratio <0..1>`: parent-based, by trace id ratio (as `OTEL_TRACES_SAMPLER=parentbased_traceidratio`). */
  otelSampleRatio?: number
}

/** A started SDK. */
export interface Tracing {
  /** What was configured, for the banner. */
  readonly description: string
  /** Exports what is buffered. */
  forceFlush(): Promise<void>
  /** Exports what is buffered and unregisters the SDK. */
  shutdown(): Promise<void>
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const

/** The value of a variable, `undefined` when unset or blank (as the SDK reads them). */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}

/**
 * Registers the SDK when tracing is configured; `undefined` when it is not (nothing
 * registered). Throws a `RangeError` naming the variable or flag for a value it cannot use.
 */
export function startTracing(flags: TracingFlags, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (read(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined
  const exporters = (read(env, 'OTEL_TRACES_EXPORTER') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const endpoint = flags.otelEndpoint ?? read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
  // Off unless asked for: an exporter named, an endpoint given, or --otel.
  if (exporters.length === 0) {
    if (flags.otel !== true && endpoint === undefined) return undefined
    exporters.push('otlp')
  }
  if (exporters.includes('none')) return undefined
  const protocol =
    flags.otelProtocol ?? read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? read(env, 'OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf'
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new RangeError(`Expected OTEL_EXPORTER_OTLP_PROTOCOL to be http/protobuf or http/json, got \`${protocol}\` (grpc is not bundled)`)
  }
  const plan: ExportPlan['exporters'][number][] = []
  const described: string[] = []
  for (const name of exporters) {
    if (name === 'otlp') {
      // Without a URL the exporters read the endpoint variables themselves (default http://localhost:4318).
      const url = flags.otelEndpoint === undefined ? undefined : `${flags.otelEndpoint.replace(/\/+$/, '')}/v1/traces`
      plan.push({ kind: 'otlp', protocol: protocol as (typeof PROTOCOLS)[number], url })
      described.push(`otlp ${protocol} to ${endpoint ?? 'http://localhost:4318'}`)
    } else if (name === 'console') {
      plan.push({ kind: 'console' })
      described.push('console')
    } else {
      throw new RangeError(`Expected OTEL_TRACES_EXPORTER to list otlp, console or none, got \`${name}\``)
    }
  }
  const ratio = flags.otelSampleRatio
  if (ratio !== undefined && !(ratio >= 0 && ratio <= 1)) {
    throw new RangeError(`Expected \`--otel-sample-ratio\` to be a number from 0 to 1, got \`${ratio}\``)
  }
  const config: NodeTracerConfig = {
    resource: tracingResource(),
    // Batched, serialized and sent from a thread of its own (span-thread.ts).
    spanProcessors: [new ThreadSpanProcessor({ exporters: plan })],
  }
  // Otherwise the SDK builds the sampler from OTEL_TRACES_SAMPLER (default: parent-based, always on).
  if (ratio !== undefined) config.sampler = new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) })
  const provider = new NodeTracerProvider(config)
  // W3C trace context only: `traceparent` / `tracestate` in, and out of nothing (the server calls no one).
  // The active context lasts a synchronous call and does not follow promises, unlike the
  // default AsyncLocalStorage one: on Node 20 that one turns on promise hooks for the whole
  // process at its first use (the batch processor's first export), and then every promise
  // of every request pays them, sampled or not (docs/runtime-facts.md). Nothing here needs
  // a context to cross an `await`: a request's goes to the pool explicitly, and the log
  // lines that carry trace ids are written inside `context.with` (log.ts).
  provider.register({ propagator: new W3CTraceContextPropagator(), contextManager: new StackContextManager() })
  const sampling = ratio !== undefined ? `, sampled ${ratio} (parent-based)` : ''
  return {
    description: `${described.join(' and ')}${sampling}`,
    forceFlush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown()
      trace.disable()
      propagation.disable()
      context.disable()
    },
  }
}
