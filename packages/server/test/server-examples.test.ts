/**
 * The examples in /examples run as a user would run them: compiled with tsc, started
 * with node, importing `@inferpool/host` by name, answering real HTTP.
 */
import { execFile, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { demoRequest, demoRows, http, post } from './server-helpers.js'

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url))
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

beforeAll(async () => {
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [tsc, '-p', `${examples}tsconfig.json`], (error, stdout) =>
      error ? reject(new Error(`tsc failed:\n${stdout}`)) : resolve(),
    ),
  )
})

function start(file: string): Promise<{ url: string; child: ChildProcess; exit: Promise<number | null>; output: () => string }> {
  const child = spawn(process.execPath, [`${examples}dist/${file}`], {
    env: { ...process.env, PORT: '0', GRPC_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url !== undefined) resolve({ url, child, exit, output: () => out })
    })
    void exit.then((code) => reject(new Error(`${file} exited with ${code}: ${out}`)))
  })
}

describe.each([['node-http.js'], ['fastify.js']])('examples/%s', (file) => {
  it('serves inference, metadata, metrics and its own routes, and exits 0 on SIGTERM', async () => {
    const { url, child, exit } = await start(file)
    expect((await http(`${url}/`)).status).toBe(200)
    expect(await http(`${url}/v2/health/ready`)).toMatchObject({ status: 200, json: { ready: true } })
    expect(await http(`${url}/v2/models/demo`)).toMatchObject({ status: 200, json: { name: 'demo' } })

    const rows = demoRows(51, 3)
    const batched = await post(`${url}/v2/models/demo/infer`, demoRequest(rows, { id: 'ex' }))
    const singles = await Promise.all(rows.map((row) => post(`${url}/v2/models/demo/infer`, demoRequest([row]))))
    type Out = { id?: string; outputs: Array<{ shape: number[]; data: number[] }> }
    expect(batched.status).toBe(200)
    expect((batched.json as Out).id).toBe('ex')
    expect((batched.json as Out).outputs[0].shape).toEqual([3, 16])
    expect((batched.json as Out).outputs[0].data).toEqual(singles.flatMap((s) => (s.json as Out).outputs[0].data))

    // The body reaches inferpool unparsed by the framework: its own errors answer.
    const malformed = await post(`${url}/v2/models/demo/infer`, '{"inputs": [')
    expect([malformed.status, (malformed.json as { code: string }).code]).toEqual([400, 'ERR_MALFORMED_JSON'])

    const metrics = await http(`${url}/metrics`)
    expect(metrics.text).toContain('inferpool_requests_total{model="demo",version="1",protocol="http",status="200"} 4')

    child.kill('SIGTERM')
    expect(await exit).toBe(0)
  })
})

describe('examples/grpc.js and examples/grpc-client.js', () => {
  it('serves HTTP and gRPC on one pool; the Node gRPC client gets what HTTP answers; exits 0 on SIGTERM', async () => {
    const { url, child, exit, output } = await start('grpc.js')
    const grpcAddress = /grpc:\/\/(\S+)/.exec(output())?.[1] as string
    const ran = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [`${examples}dist/grpc-client.js`],
        { env: { ...process.env, GRPC_ADDRESS: grpcAddress } },
        (error, stdout) => resolve({ code: error === null ? 0 : (error.code as number | null), stdout }),
      )
    })
    expect(ran.code).toBe(0)
    const first = async (value: number): Promise<number> => {
      const res = await post(`${url}/v2/models/demo/infer`, demoRequest([new Array(256).fill(value)]))
      return (res.json as { outputs: Array<{ data: number[] }> }).outputs[0].data[0]
    }
    expect(JSON.parse(ran.stdout)).toEqual({
      unary: { id: 'unary', shape: [1, 16], first: await first(0.5) },
      stream: [
        { id: 'stream-0', error: '', first: await first(0) },
        { id: 'stream-1', error: '', first: await first(1) },
        { id: 'stream-2', error: '', first: await first(2) },
      ],
    })
    child.kill('SIGTERM')
    expect(await exit).toBe(0)
  })
})
