/**
 * `inferpool serve` as a user runs it: the built CLI in a child process, real pools,
 * real HTTP, real signals.
 */
import { execFile, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer as createNetServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { alive, childrenOf, poll } from '../../host/test/process-helpers.js'
import { grpcClient, rawBytes } from './grpc-helpers.js'
import { otlpReceiver } from './otlp-receiver.js'
import { demoModel, demoRequest, demoRows, http, metric, post, repoModel } from './server-helpers.js'

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: { ...process.env, INFERPOOL_LOG_FORMAT: 'text' } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error.code as number | null), stdout, stderr })
    })
  })
}

interface Started {
  child: ChildProcess
  url: string
  output: () => string
  exit: Promise<number | null>
}

/** Starts `inferpool serve` and resolves once it prints `inferpool: ready`. */
function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  // gRPC off unless a test asks for it: its default port (8001) may be taken on a shared machine.
  const grpc = args.includes('--grpc-port') ? [] : ['--grpc-port', '0']
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...grpc, ...args], {
    // The tests read the text lines (a pipe would make them JSON).
    env: { ...process.env, INFERPOOL_LOG_FORMAT: 'text', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('inferpool: ready\n') || stdout.includes('"msg":"inferpool: ready"')) {
        const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1] as string
        resolve({ child, url, output: () => stdout, exit })
      }
    })
    void exit.then((code) => reject(new Error(`inferpool exited with ${code} before it was ready:\n${stdout}\n${stderr}`)))
  })
}

describe('inferpool --version', () => {
  it('prints the package version', async () => {
    expect(await run(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' })
  })
})

describe('inferpool serve --help', () => {
  it('documents every flag with its default', async () => {
    const { code, stdout } = await run(['serve', '--help'])
    expect(code).toBe(0)
    const help = stdout.replace(/\s+/g, ' ')
    const flags: Array<[string, string]> = [
      ['--model <name=path>', '(default, without --model-repository: the built-in demo model as "demo")'],
      ['--model-repository <dir>', "a model repository in Triton's layout"],
      ['--model-control-mode <mode>', '(choices: "none", "explicit", "poll", "on-demand", default: "none")'],
      ['--repository-poll-secs <s>', 'put new versions in place with a rename) (default: 15)'],
      ['--model-memory-budget <size>', 'per server process with --processes (default: no budget)'],
      ['--min-eviction-age-ms <ms>', '(default: 10000)'],
      ['--load-model <name>', "('*': all); repeatable"],
      ['--repository-token <token>', '(env: INFERPOOL_REPOSITORY_TOKEN)'],
      ['--processes <n>', 'inference threads per model = processes × replicas × intra-op threads (default: 1)'],
      ['--replicas <n>', 'worker threads per model in each process'],
      ['--intra-op-threads <n>', '(default: cores / (processes × replicas), at least 1)'],
      ['--concurrency <n>', '(default: 1)'],
      ['--max-batch-size <n>', '(default: 128)'],
      ['--min-batch-size <n>', '(default: 1)'],
      ['--max-wait-ms <ms>', '(default: 0)'],
      ['--max-queue-size <n>', '(default: 4096)'],
      ['--when-full <policy>', '(choices: "reject", "wait", default: "reject")'],
      ['--admission-wait-ms <ms>', '(default: 1000)'],
      ['--timeout-ms <ms>', '(default: 30000)'],
      ['--port <port>', '(default: 8000, env: PORT)'],
      ['--grpc-port <port>', '0 turns gRPC off (default: 8001)'],
      ['--host <address>', '(default: "127.0.0.1")'],
      ['--api-key <token>', '(default: none, no authentication) (env: INFERPOOL_API_KEY)'],
      ['--provider <name>', '(choices: "cpu", "cuda", default: "cpu")'],
      ['--isolation <mode>', '(choices: "thread", "process", default: "thread")'],
      ['--max-body-bytes <n>', '(default: 16777216 (16 MiB))'],
      ['--max-pending-body-bytes <n>', '(default: 134217728 (128 MiB))'],
      ['--max-concurrent-streams <n>', '(default: 100)'],
      ['--headers-timeout-ms <ms>', '(default: 20000)'],
      ['--body-timeout-ms <ms>', '(default: 30000)'],
      ['--idle-timeout-ms <ms>', '(default: 30000)'],
      ['--shutdown-timeout-ms <ms>', '(default: 30000)'],
      ['--drain-delay-ms <ms>', '(default: 0)'],
      ['--log-format <format>', '(choices: "json", "text", default: text on a terminal, json otherwise, env: INFERPOOL_LOG_FORMAT)'],
      ['--otel ', 'export OpenTelemetry traces over OTLP'],
      ['--otel-endpoint <url>', '(as OTEL_EXPORTER_OTLP_ENDPOINT)'],
      ['--otel-protocol <protocol>', '(choices: "http/protobuf", "http/json")'],
      ['--otel-sample-ratio <ratio>', "a caller's traceparent decides for its own (parent-based)"],
    ]
    for (const [i, [flag, text]] of flags.entries()) {
      const from = help.indexOf(flag)
      const to = i + 1 < flags.length ? help.indexOf(flags[i + 1][0]) : help.length
      expect([flag, from >= 0 && help.slice(from, to).includes(text)]).toEqual([flag, true])
    }
  })
})

describe('flag validation', () => {
  it.each([
    [['--replicas', '0'], "error: option '--replicas <n>' argument '0' is invalid. Expected an integer >= 1."],
    [['--replicas', 'two'], "error: option '--replicas <n>' argument 'two' is invalid. Expected an integer >= 1."],
    [['--processes', '0'], "error: option '--processes <n>' argument '0' is invalid. Expected an integer >= 1."],
    [['--intra-op-threads', '1.5'], "error: option '--intra-op-threads <n>' argument '1.5' is invalid. Expected an integer >= 1."],
    [['--max-batch-size', '1.5'], "error: option '--max-batch-size <n>' argument '1.5' is invalid. Expected an integer >= 1."],
    [['--max-wait-ms', '-1'], "error: option '--max-wait-ms <ms>' argument '-1' is invalid. Expected a number of milliseconds >= 0."],
    [
      ['--timeout-ms', '0'],
      "error: option '--timeout-ms <ms>' argument '0' is invalid. Expected a number of milliseconds > 0 and <= 2147483647.",
    ],
    [['--port', '70000'], "error: option '-p, --port <port>' argument '70000' is invalid. Expected a port number in [0, 65535]."],
    [['--provider', 'tpu'], "error: option '--provider <name>' argument 'tpu' is invalid. Allowed choices are cpu, cuda."],
    [['--isolation', 'vm'], "error: option '--isolation <mode>' argument 'vm' is invalid. Allowed choices are thread, process."],
    [['--otel-sample-ratio', '2'], "error: option '--otel-sample-ratio <ratio>' argument '2' is invalid. Expected a number from 0 to 1."],
    [['--log-format', 'xml'], "error: option '--log-format <format>' argument 'xml' is invalid. Allowed choices are json, text."],
    [['--when-full', 'drop'], "error: option '--when-full <policy>' argument 'drop' is invalid. Allowed choices are reject, wait."],
    [['--max-pending-body-bytes', '0'], "error: option '--max-pending-body-bytes <n>' argument '0' is invalid. Expected an integer >= 1."],
    [['--max-concurrent-streams', '0'], "error: option '--max-concurrent-streams <n>' argument '0' is invalid. Expected an integer >= 1."],
    [['--body-timeout-ms', '0'], "error: option '--body-timeout-ms <ms>' argument '0' is invalid. Expected an integer in [1, 2147483647]."],
    [['--model', 'demo'], "error: option '-m, --model <name=path>' argument 'demo' is invalid. Expected name=path.onnx."],
    [
      ['--model-repository', '/no/such/repository'],
      "error: option '--model-repository <dir>' argument '/no/such/repository' is invalid. No directory at /no/such/repository.",
    ],
    [
      ['--model', 'x=/no/such/model.onnx'],
      "error: option '-m, --model <name=path>' argument 'x=/no/such/model.onnx' is invalid. No model file at /no/such/model.onnx.",
    ],
    [['--model', `a=${demoModel}`, '--model', `a=${demoModel}`], "Model name 'a' is given twice."],
    [['--model', `-x=${demoModel}`], 'must be letters, digits'],
    [['--min-batch-size', '10', '--max-batch-size', '4'], "error: option '--min-batch-size <n>' (10) must be <= --max-batch-size (4)"],
    [['--bogus'], "error: unknown option '--bogus'"],
    [
      ['--model-memory-budget', '12XB'],
      "error: option '--model-memory-budget <size>' argument '12XB' is invalid. Expected a size of at least 1MiB, as 400MiB, 1.5GiB, 500MB or a number of bytes.",
    ],
    [
      ['--model-memory-budget', '1KiB'],
      "error: option '--model-memory-budget <size>' argument '1KiB' is invalid. Expected a size of at least 1MiB",
    ],
    [
      ['--model-memory-budget', '-400MiB'],
      "error: option '--model-memory-budget <size>' argument '-400MiB' is invalid. Expected a size of at least 1MiB",
    ],
    [
      ['--model-memory-budget', '400MiB'],
      "error: option '--model-memory-budget' needs --model-control-mode on-demand or explicit, got --model-control-mode none",
    ],
    [
      ['--model-control-mode', 'explicit', '--processes', '2'],
      "error: option '--model-control-mode explicit' serves one process only, got --processes 2 (a load would reach one of them)",
    ],
  ])('refuses %j with a clear message and exit code 1', async (args, message) => {
    const { code, stderr } = await run(['serve', ...args])
    expect(code).toBe(1)
    expect(stderr).toContain(message)
  })

  it('with --model-control-mode on-demand and a memory budget, lists the repository and loads a model on its first request', async () => {
    const root = mkdtempSync(join(tmpdir(), 'inferpool-cli-on-demand-'))
    try {
      for (const name of ['a', 'b']) {
        mkdirSync(join(root, name, '1'), { recursive: true })
        copyFileSync(repoModel('fixed-batch.onnx'), join(root, name, '1', 'model.onnx'))
      }
      const { url } = await start(['--model-repository', root, '--model-control-mode', 'on-demand', '--model-memory-budget', '4GiB'])
      expect((await post(`${url}/v2/repository/index`, {})).json).toEqual([
        { name: 'a', state: 'UNAVAILABLE', reason: 'not loaded', cache: { loads: 0, evictions: 0 } },
        { name: 'b', state: 'UNAVAILABLE', reason: 'not loaded', cache: { loads: 0, evictions: 0 } },
      ])
      const res = await post(`${url}/v2/models/b/infer`, {
        inputs: [{ name: 'x', shape: [1, 8], datatype: 'FP32', data: [1, 2, 3, 4, 5, 6, 7, 8] }],
      })
      expect([res.status, (res.json as { model_version: string }).model_version]).toEqual([200, '1'])
      const index = (await post(`${url}/v2/repository/index`, {})).json as Array<{ cache: { memory_bytes?: number } }>
      expect(index).toEqual([
        { name: 'a', state: 'UNAVAILABLE', reason: 'not loaded', cache: { loads: 0, evictions: 0 } },
        {
          name: 'b',
          version: '1',
          state: 'READY',
          reason: '',
          cache: { loads: 1, evictions: 0, memory_bytes: expect.any(Number), last_used: expect.any(String) },
        },
      ])
      expect(index[1].cache.memory_bytes).toBeGreaterThan(0)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('exits 1 naming the failure when a model cannot be loaded', async () => {
    // gRPC off: the default port 8001 may be taken by another server on the machine, which would fail first.
    const { code, stderr } = await run([
      'serve',
      '--port',
      '0',
      '--grpc-port',
      '0',
      '--replicas',
      '1',
      '--model',
      `bad=${repoModel('README.md')}`,
    ])
    expect(code).toBe(1)
    expect(stderr).toContain('inferpool: a model failed to load:')
    expect(stderr).toContain('README.md')
  })
})

describe('inferpool serve', () => {
  it('serves the demo model by default and prints a curl example that works as pasted', async () => {
    const server = await start(['--replicas', '1'])
    const out = server.output()
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(out).toContain(`model demo: ${demoModel} — 1 replica × concurrency 1, max batch 128, cpu`)
    const curl = out
      .split('\n')
      .find((line) => line.trim().startsWith('curl '))
      ?.trim() as string
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile('sh', ['-c', curl], (error, stdout) => (error ? reject(error) : resolve({ stdout }))),
    )
    const answer = JSON.parse(stdout) as { model_name: string; outputs: Array<{ name: string; shape: number[]; datatype: string }> }
    expect(answer).toMatchObject({ model_name: 'demo', outputs: [{ name: 'output', shape: [1, 16], datatype: 'FP32' }] })
    expect(await http(`${server.url}/v2/health/ready`)).toMatchObject({ status: 200 })

    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
    expect(server.output()).toContain('inferpool: shut down cleanly')
  })

  it('runs a garbage collection once idle after inference requests, and scrapes alone bring no new one', async () => {
    const server = await start(['--replicas', '1', '--idle-gc-ms', '1'])
    const collections = async (): Promise<number | undefined> =>
      metric((await http(`${server.url}/metrics`)).text, 'inferpool_idle_collections_total', {})
    expect(await collections()).toBe(0)
    expect((await post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(7, 2)))).status).toBe(200)
    // Each scrape is a request too, so the collection comes in a gap between two of them.
    while ((await collections()) === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    // No inference since: the scrapes do not make another one worth its pause.
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(await collections()).toBe(1)
    }
    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
  })

  it('--isolation process serves from replica processes and ends them on SIGTERM', async () => {
    const server = await start(['--replicas', '1', '--isolation', 'process'])
    const replicas = childrenOf(server.child.pid as number)
    expect(replicas).toHaveLength(1)
    const answer = await post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(3, 2)))
    expect(answer.status).toBe(200)
    expect((answer.json as { outputs: Array<{ shape: number[] }> }).outputs[0].shape).toEqual([2, 16])
    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
    await poll(() => !replicas.some(alive), 'the replica process to exit')
  })

  it('takes the API key from INFERPOOL_API_KEY and puts it in the curl example', async () => {
    const server = await start(['--replicas', '1'], { INFERPOOL_API_KEY: 'from-env' })
    expect((await http(`${server.url}/v2/models/demo`)).status).toBe(401)
    expect((await http(`${server.url}/v2/models/demo`, { headers: { authorization: 'Bearer from-env' } })).status).toBe(200)
    const curl = server
      .output()
      .split('\n')
      .find((line) => line.trim().startsWith('curl '))
      ?.trim() as string
    expect(curl).toContain('-H "authorization: Bearer $INFERPOOL_API_KEY"')
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile('sh', ['-c', curl], { env: { ...process.env, INFERPOOL_API_KEY: 'from-env' } }, (error, stdout) =>
        error ? reject(error) : resolve({ stdout }),
      ),
    )
    expect(JSON.parse(stdout)).toMatchObject({ model_name: 'demo' })
    server.child.kill('SIGINT')
    expect(await server.exit).toBe(0)
  })

  it('on SIGTERM answers every request in flight, closes the pools and exits 0', async () => {
    // Rows wait until 8 are queued; 5 never fill a batch, so they are still queued at the
    // signal and only the graceful shutdown (which flushes the queue) can answer them.
    const server = await start(['--replicas', '1', '--min-batch-size', '8', '--max-batch-size', '8', '--max-wait-ms', '600000'])
    const rows = demoRows(41, 5)
    const answers = Promise.all(rows.map((row) => post(`${server.url}/v2/models/demo/infer`, demoRequest([row]))))
    for (;;) {
      const text = (await http(`${server.url}/metrics`)).text
      if (metric(text, 'inferpool_queue_length', { model: 'demo' }) === 5) break
    }
    server.child.kill('SIGTERM')
    const answered = await answers
    expect(answered.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect(answered.map((a) => (a.json as { outputs: Array<{ shape: number[] }> }).outputs[0].shape)).toEqual(new Array(5).fill([1, 16]))
    expect(await server.exit).toBe(0)
    expect(server.output()).toContain('inferpool: shut down cleanly')
  })

  it('with --grpc-port prints both addresses, and SIGTERM answers HTTP and gRPC requests in flight', async () => {
    const grpcPort = await freePort()
    const server = await start([
      '--grpc-port',
      String(grpcPort),
      '--replicas',
      '1',
      '--min-batch-size',
      '8',
      '--max-batch-size',
      '8',
      '--max-wait-ms',
      '600000',
    ])
    expect(server.output()).toContain(`and grpc://127.0.0.1:${grpcPort} (loading 1 model…)`)
    const client = grpcClient(`127.0.0.1:${grpcPort}`)
    try {
      const rows = demoRows(42, 4)
      const httpAnswers = Promise.all(rows.slice(0, 2).map((row) => post(`${server.url}/v2/models/demo/infer`, demoRequest([row]))))
      const grpcAnswers = Promise.all(
        rows.slice(2).map((row) =>
          client.call('ModelInfer', {
            model_name: 'demo',
            inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 256] }],
            raw_input_contents: [rawBytes(Float32Array.from(row))],
          }),
        ),
      )
      for (;;) {
        const text = (await http(`${server.url}/metrics`)).text
        if (metric(text, 'inferpool_queue_length', { model: 'demo' }) === 4) break
      }
      server.child.kill('SIGTERM')
      expect((await httpAnswers).map((a) => a.status)).toEqual([200, 200])
      expect((await grpcAnswers).map((a) => (a.ok ? a.response.outputs[0].shape : a.code))).toEqual([
        [1, 16],
        [1, 16],
      ])
      expect(await server.exit).toBe(0)
    } finally {
      client.close()
    }
  })
})

/** A port free right now (bound to 0 and released), for flags where 0 means "off". */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

describe('inferpool serve --log-format json', () => {
  it('writes one JSON object a line with level, time and the message', async () => {
    const server = await start(['--log-format', 'json', '--model', `tiny=${demoModel}`])
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const ready = lines.find((line) => line.msg === 'inferpool: ready') as Record<string, unknown>
    expect(Object.keys(ready).sort()).toEqual(['level', 'msg', 'pid', 'time'])
    expect([ready.level, typeof ready.time, Number.isNaN(Date.parse(ready.time as string))]).toEqual(['info', 'string', false])
    expect(lines.every((line) => typeof line.level === 'string' && typeof line.time === 'string')).toBe(true)
  })
})

describe('inferpool serve --otel-endpoint', () => {
  it("exports a request's spans in its caller's trace, under OTEL_SERVICE_NAME, before it exits on SIGTERM", async () => {
    const receiver = await otlpReceiver()
    try {
      const server = await start(['--replicas', '1', '--otel-endpoint', receiver.url, '--otel-protocol', 'http/json'], {
        OTEL_SERVICE_NAME: 'inferpool-test',
      })
      expect(server.output()).toContain(`  traces: otlp http/json to ${receiver.url}`)
      const traceId = '5b8efff798038103d269b633813fc60c'
      const answer = await post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(51, 1)), {
        traceparent: `00-${traceId}-eee19b7ec3c1b174-01`,
      })
      expect(answer.status).toBe(200)
      // Nothing is waited on by time: the spans leave with the shutdown, before the exit.
      server.child.kill('SIGTERM')
      expect(await server.exit).toBe(0)
      expect(receiver.spans.map((span) => [span.name, span.traceId, span.service]).sort()).toEqual(
        ['batch demo', 'execute', 'infer demo', 'queue', 'run', 'transfer'].map((name) => [name, traceId, 'inferpool-test']),
      )
    } finally {
      await receiver.close()
    }
  })

  it('starts tracing from OTEL_EXPORTER_OTLP_ENDPOINT alone, with no flag (the SDK is loaded only when asked for)', async () => {
    const receiver = await otlpReceiver()
    try {
      const server = await start(['--replicas', '1'], {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      })
      expect(server.output()).toContain(`  traces: otlp http/json to ${receiver.url}`)
      const answer = await post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(52, 1)))
      expect(answer.status).toBe(200)
      server.child.kill('SIGTERM')
      expect(await server.exit).toBe(0)
      expect(receiver.spans.map((span) => span.name).sort()).toEqual(['batch demo', 'execute', 'infer demo', 'queue', 'run', 'transfer'])
    } finally {
      await receiver.close()
    }
  })
})
