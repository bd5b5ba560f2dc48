/**
 * Helpers of the server tests: real HTTP on 127.0.0.1, no mocks. Not a test file
 * itself (vitest only collects `*.test.ts`).
 */
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { prng } from '../../host/test/fixtures/models.js'

export const demoModel = fileURLToPath(new URL('../../host/models/demo-mlp.onnx', import.meta.url))
export const repoModel = (name: string): string => fileURLToPath(new URL(`../../../fixtures/models/${name}`, import.meta.url))

export interface HttpResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: unknown
}

/** One HTTP request over a fresh connection; resolves with the whole answer. */
export function http(
  url: string,
  options: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? (options.body === undefined ? 'GET' : 'POST'), headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = text.length > 0 ? JSON.parse(text) : undefined
          } catch {
            json = undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  return http(url, {
    method: 'POST',
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  })
}

// Deterministic PRNG (mulberry32), shared with the pool tests.
export { prng }

/** `rows` rows of 256 float32 values (exactly representable as JSON numbers). */
export function demoRows(seed: number, rows: number): number[][] {
  const rand = prng(seed)
  return Array.from({ length: rows }, () => Array.from({ length: 256 }, () => Math.fround(rand() * 2 - 1)))
}

export function demoRequest(rows: number[][], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...extra,
    inputs: [{ name: 'input', shape: [rows.length, 256], datatype: 'FP32', data: rows.flat() }],
  }
}

/** The value of one sample line of a Prometheus text exposition. */
export function metric(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const open = line.indexOf('{')
    const close = line.lastIndexOf('}')
    const labelText = open === -1 ? '' : line.slice(open + 1, close)
    const found = Object.fromEntries([...labelText.matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    if (Object.entries(labels).every(([k, v]) => found[k] === v) && Object.keys(found).length === Object.keys(labels).length) {
      return Number(line.slice(close === -1 ? line.indexOf(' ') : close + 1).trim())
    }
  }
  return undefined
}

/** Resolves once `condition()` holds, checking after every turn of the event loop (no timers). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => setImmediate(resolve))
}
