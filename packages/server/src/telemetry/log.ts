/**
 * The log lines of `inferpool serve`, written by pino: `--log-format json` (the default
 * when stdout is not a terminal, as pino and fastify do) writes one JSON object a line
 * to stdout with `level`, `time`, `msg`, the `model` and `version` where one applies,
 * and `trace_id` / `span_id` when a span is active; `text` (the default on a terminal)
 * writes the message as the server always has (info to stdout, warnings and errors to
 * stderr), followed by those fields as `key=value`.
 *
 * The library keeps taking an injected logger (`PoolOptions.logger`,
 * `ServerOptions.logger`): this is the CLI's.
 */
import { format } from 'node:util'
import { context, trace } from '@opentelemetry/api'
import { pino } from 'pino'
import type { Logger } from 'pino'

export type LogFormat = 'json' | 'text'

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'text']

/** `text` on a terminal, `json` otherwise. */
export function defaultLogFormat(stdout: { readonly isTTY?: boolean } = process.stdout): LogFormat {
  return stdout.isTTY === true ? 'text' : 'json'
}

/** The ids of the active span, on every line written while one is. */
function traceIds(): Record<string, string> {
  const span = trace.getSpan(context.active())
  if (span === undefined) return {}
  const { traceId, spanId } = span.spanContext()
  return { trace_id: traceId, span_id: spanId }
}

/** Where the lines go: stdout, and stderr for text's warnings and errors. */
export interface LogStreams {
  readonly stdout: { write(text: string): unknown }
  readonly stderr: { write(text: string): unknown }
}

/** Fields of a pino line that text does not repeat after the message. */
const TEXT_OMITS = new Set(['level', 'time', 'msg', 'pid'])

/** pino's JSON line as text: the message, then the other fields as `key=value`. */
function textLine(json: string): { line: string; error: boolean } {
  const record = JSON.parse(json) as Record<string, unknown>
  let line = String(record.msg ?? '')
  for (const [key, value] of Object.entries(record)) {
    if (!TEXT_OMITS.has(key)) line += ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`
  }
  return { line: `${line}\n`, error: typeof record.level === 'string' && record.level !== 'info' && record.level !== 'debug' }
}

/** The CLI's logger, in `logFormat`. */
export function createLog(logFormat: LogFormat, streams: LogStreams = process): Logger {
  const options = {
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: traceIds,
  }
  if (logFormat === 'json') return pino(options, { write: (json: string) => streams.stdout.write(json) })
  return pino(options, {
    write(json: string) {
      const { line, error } = textLine(json)
      ;(error ? streams.stderr : streams.stdout).write(line)
    },
  })
}

/** A `console`-shaped view of a logger (what the library's `logger` options take); extra arguments are formatted into the message. */
export function consoleOf(logger: Logger): {
  info(...args: unknown[]): void
  warn(...args: unknown[]): void
  error(...args: unknown[]): void
} {
  return {
    info: (...args) => logger.info(format(...args)),
    warn: (...args) => logger.warn(format(...args)),
    error: (...args) => logger.error(format(...args)),
  }
}
