/**
 * What `pnpm bench compare` measures: the probes (one measured thing, run once per side
 * per round) and the table rows (metrics) each probe yields. Pure data, no I/O.
 */
import type { DoorEncoding } from '../scenarios/http.js'

/** Whether a bigger figure is better (throughput) or worse (CPU, latency). */
export type Better = 'higher' | 'lower'

export type Probe =
  /** Autocannon against `inferpool serve`: KServe v2 JSON or binary tensor data. */
  | { kind: 'door'; encoding: DoorEncoding; rows: number; connections: number }
  /** Closed-loop gRPC callers, each on its own connection, over ModelStreamInfer. */
  | { kind: 'grpc-stream'; connections: number }
  /**
   * Closed-loop callers of `pool.infer` in-process (the library, `createPool` defaults;
   * `isolation: 'process'`: the same with replica processes).
   */
  | { kind: 'pool'; callers: number; isolation?: 'process' }
  /** DynamicBatcher alone, every feature on (core-overhead.ts). */
  | { kind: 'core' }
  /**
   * The door (JSON, 1 row, 64 connections) of a second `inferpool serve` started with
   * OpenTelemetry tracing on, exporting over OTLP to a local sink (otlp-sink.ts):
   * `always`, every request sampled; `ratio-1%`, parent-based at 1 % (requests carry no
   * traceparent). A ref without tracing code ignores the variables: its figure is the
   * untraced baseline the ratio divides by. Tracing off is the plain door row.
   */
  | { kind: 'door-traced'; sampling: 'always' | 'ratio-1%' }

/** One row of the table. */
export interface Metric {
  /** Stable id (the JSON results and the tests use it). */
  id: string
  label: string
  unit: string
  better: Better
  /**
   * How much worse than A the row may be before it counts as a regression (a row with a
   * target of its own: tracing at 100 % may cost up to 15 %).
   * @default REGRESSION_SHARE (table.ts)
   */
  allowedShare?: number
}

export function probeId(probe: Probe): string {
  switch (probe.kind) {
    case 'door':
      return `door-${probe.encoding}-${probe.rows}row-c${probe.connections}`
    case 'grpc-stream':
      return `grpc-stream-c${probe.connections}`
    case 'pool':
      return `pool-${probe.isolation === 'process' ? 'process-' : ''}callers${probe.callers}`
    case 'core':
      return 'core'
    case 'door-traced':
      return `door-json-1row-c64-traced-${probe.sampling === 'always' ? 'always' : 'ratio1pct'}`
  }
}

/** The rows a probe yields, in table order. */
export function metricsOf(probe: Probe): Metric[] {
  const id = probeId(probe)
  switch (probe.kind) {
    case 'door': {
      const what = `door ${probe.encoding} ${probe.rows}-row, ${probe.connections} conn`
      return [
        { id, label: what, unit: 'req/s', better: 'higher' },
        { id: `${id}-main-cpu`, label: `${what}: main-thread CPU`, unit: 'µs/req', better: 'lower' },
      ]
    }
    case 'grpc-stream':
      return [{ id, label: `gRPC stream 1-row, ${probe.connections} conn`, unit: 'req/s', better: 'higher' }]
    case 'pool': {
      const what = `pool (library${probe.isolation === 'process' ? ', process replicas' : ''}), ${probe.callers} caller${probe.callers === 1 ? '' : 's'}`
      const rows: Metric[] = [{ id, label: what, unit: 'rows/s', better: 'higher' }]
      // At one caller the latency is the figure that matters (the hand-off to a worker).
      if (probe.callers === 1) rows.push({ id: `${id}-p50`, label: `${what}: p50`, unit: 'ms', better: 'lower' })
      return rows
    }
    case 'core':
      return [{ id, label: 'core: DynamicBatcher, 256 producers', unit: 'items/s', better: 'higher' }]
    case 'door-traced':
      // Issue 38's targets: >= 0.85x sampled at 100 % with the exporter, >= 0.97x at 1 %.
      return probe.sampling === 'always'
        ? [
            {
              id,
              label: 'door json 1-row, 64 conn, traced: 100 % sampled, OTLP export',
              unit: 'req/s',
              better: 'higher',
              allowedShare: 0.15,
            },
          ]
        : [{ id, label: 'door json 1-row, 64 conn, traced: parent-based 1 %', unit: 'req/s', better: 'higher', allowedShare: 0.03 }]
  }
}

/**
 * The full run: the door at 1 and 64 connections, gRPC streaming, the pool at 1 and 256
 * callers with thread and with process replicas, core, and the door traced.
 */
export const FULL_PROBES: readonly Probe[] = [
  ...(['json', 'binary'] as const).flatMap((encoding) =>
    [1, 64].flatMap((rows) => [1, 64].map((connections): Probe => ({ kind: 'door', encoding, rows, connections }))),
  ),
  { kind: 'grpc-stream', connections: 1 },
  { kind: 'grpc-stream', connections: 64 },
  { kind: 'pool', callers: 1 },
  { kind: 'pool', callers: 256 },
  { kind: 'pool', callers: 1, isolation: 'process' },
  { kind: 'pool', callers: 256, isolation: 'process' },
  { kind: 'core' },
  { kind: 'door-traced', sampling: 'always' },
  { kind: 'door-traced', sampling: 'ratio-1%' },
]

/** `--quick`: one probe of each kind that matters most, for a smoke run. */
export const QUICK_PROBES: readonly Probe[] = [
  { kind: 'door', encoding: 'json', rows: 1, connections: 64 },
  { kind: 'door', encoding: 'binary', rows: 1, connections: 64 },
  { kind: 'grpc-stream', connections: 64 },
  { kind: 'pool', callers: 1 },
  { kind: 'pool', callers: 256 },
  { kind: 'core' },
]
