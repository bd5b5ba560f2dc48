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

function start(file: string): Promise<{ url: string; child: ChildProcess; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [`${examples}dist/${file}`], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve))
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url !== undefined) resolve({ url, child, exit })
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
    expect(metrics.text).toContain('inferpool_requests_total{model="demo",status="200"} 4')

    child.kill('SIGTERM')
    expect(await exit).toBe(0)
  })
})
