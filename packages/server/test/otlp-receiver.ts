/**
 * An in-process OTLP/HTTP receiver for the tracing tests: a real node:http server on
 * 127.0.0.1 that takes what the exporter posts to /v1/traces as OTLP JSON
 * (`http/json`) and keeps the spans, decoded. Not a test file itself.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

type OtlpValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean }
interface OtlpKeyValue {
  key: string
  value: OtlpValue
}
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  traceState?: string
  name: string
  kind: number
  startTimeUnixNano: string | number
  endTimeUnixNano: string | number
  attributes?: OtlpKeyValue[]
  events?: Array<{ name: string; timeUnixNano: string | number; attributes?: OtlpKeyValue[] }>
  links?: Array<{ traceId: string; spanId: string; traceState?: string }>
  status?: { code?: number; message?: string }
}
interface OtlpExport {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>
}

/** A received span, its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  /** The W3C `tracestate` of its context, '' without one. */
  traceState: string
  name: string
  /** 1 internal, 2 server. */
  kind: number
  startNs: bigint
  endNs: bigint
  attributes: Record<string, string | number | boolean>
  events: Array<{ name: string; timeNs: bigint; attributes: Record<string, string | number | boolean> }>
  links: Array<{ traceId: string; spanId: string; traceState?: string }>
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number
  /** `service.name` of the resource that sent it. */
  service: string
  /** `process.pid` of the resource that sent it. */
  pid: number
}

function plain(attributes: OtlpKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const { key, value } of attributes ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue
    else if (value.intValue !== undefined) out[key] = Number(value.intValue)
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue
    else if (value.boolValue !== undefined) out[key] = value.boolValue
  }
  return out
}

export interface OtlpReceiver {
  /** Base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  readonly url: string
  readonly spans: ReceivedSpan[]
  /** Export requests received. */
  readonly posts: number
  close(): Promise<void>
}

export async function otlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = []
  let posts = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || req.headers['content-type'] !== 'application/json') {
        res.writeHead(415).end()
        return
      }
      posts++
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport
      for (const resource of body.resourceSpans ?? []) {
        const attributes = plain(resource.resource?.attributes)
        const service = String(attributes['service.name'])
        const pid = Number(attributes['process.pid'])
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              traceState: span.traceState ?? '',
              name: span.name,
              kind: span.kind,
              startNs: BigInt(span.startTimeUnixNano),
              endNs: BigInt(span.endTimeUnixNano),
              attributes: plain(span.attributes),
              events: (span.events ?? []).map((e) => ({ name: e.name, timeNs: BigInt(e.timeUnixNano), attributes: plain(e.attributes) })),
              links: (span.links ?? []).map((l) =>
                l.traceState === undefined || l.traceState === ''
                  ? { traceId: l.traceId, spanId: l.spanId }
                  : { traceId: l.traceId, spanId: l.spanId, traceState: l.traceState },
              ),
              statusCode: span.status?.code ?? 0,
              service,
              pid,
            })
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    get posts() {
      return posts
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** The spans as an indented tree per trace (children under parents, in start order), links shown: for docs and failures. */
export function renderTraces(spans: readonly ReceivedSpan[]): string {
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  const lines: string[] = []
  const traces = [...new Set(spans.map((s) => s.traceId))]
  const origin = spans.reduce((min, s) => (s.startNs < min ? s.startNs : min), spans[0]?.startNs ?? 0n)
  const ms = (ns: bigint): string => (Number(ns) / 1e6).toFixed(2)
  const walk = (span: ReceivedSpan, depth: number): void => {
    const attributes = Object.entries(span.attributes)
      .map(([k, v]) => `${k}=${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(3) : String(v)}`)
      .join(' ')
    const links = span.links.map((l) => `${byId.get(l.spanId)?.name ?? '?'}@${l.traceId.slice(0, 8)}/${l.spanId.slice(0, 8)}`).join(', ')
    const events = span.events.map((e) => `${e.name}${Object.keys(e.attributes).length > 0 ? JSON.stringify(e.attributes) : ''}`).join(', ')
    lines.push(
      `${'  '.repeat(depth)}${span.name} [${span.spanId.slice(0, 8)}] +${ms(span.startNs - origin)} ms, ${ms(span.endNs - span.startNs)} ms` +
        `${span.statusCode === 2 ? ' ERROR' : ''}${attributes === '' ? '' : `  {${attributes}}`}` +
        `${events === '' ? '' : `  events: ${events}`}${links === '' ? '' : `  links → ${links}`}`,
    )
    const children = spans.filter((s) => s.parentSpanId === span.spanId && s.traceId === span.traceId)
    children.sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0))
    for (const child of children) walk(child, depth + 1)
  }
  for (const traceId of traces) {
    const inTrace = spans.filter((s) => s.traceId === traceId)
    const roots = inTrace.filter((s) => !inTrace.some((p) => p.spanId === s.parentSpanId))
    lines.push(`trace ${traceId}`)
    for (const root of roots) {
      if (root.parentSpanId !== '') lines.push(`  (caller's span ${root.parentSpanId.slice(0, 8)})`)
      walk(root, root.parentSpanId !== '' ? 2 : 1)
    }
  }
  return lines.join('\n')
}
