/**
 * deploy/ tied to the code: every manifest parses; a server started with a manifest's own
 * args and env answers every probe the manifest declares, exports the metric (with the
 * labels) its KEDA query reads, and knows every flag it passes. Only what a cluster
 * changes is changed here: the host (127.0.0.1), the ports (free local ones) and the
 * model directory (/mnt/models → a temporary copy of the demo model).
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { connect } from 'node:http2'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { createPool } from '@inferpool/host'
import { demoModel, demoRequest, demoRows, http, metric, post } from './server-helpers.js'
import { cli, freePort, startServe, stopAll } from './serve-process.js'
import type { ServeProcess } from './serve-process.js'

/**
 * Flip to `true` once the grpc branch (`inferpool serve --grpc-port`) is merged: the
 * ServingRuntime passes `--grpc-port` and names that port h2c. Until then its gRPC flag is
 * left out when the server is started, and the gRPC checks below are skipped. The test
 * "GRPC_MERGED matches serve --help" fails as soon as the two disagree, so it cannot be
 * forgotten.
 */
const GRPC_MERGED = true
const GRPC_FLAGS = ['--grpc-port']

const deployDir = fileURLToPath(new URL('../../../deploy/', import.meta.url))
const serverDir = fileURLToPath(new URL('../', import.meta.url))

/** Debian's jemalloc on this machine (package libjemalloc2), as the image installs it. */
function hostJemalloc(): string {
  const found = readdirSync('/usr/lib', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.endsWith('-linux-gnu'))
    .map((entry) => join('/usr/lib', entry.name, 'libjemalloc.so.2'))
    .find((path) => existsSync(path))
  if (found === undefined) throw new Error('libjemalloc.so.2 is not installed (Debian package libjemalloc2; .ci/run installs it)')
  return found
}
/** Labels Prometheus adds to a series when it scrapes a pod: not exported by the server itself. */
const TARGET_LABELS = new Set(['namespace', 'pod', 'instance', 'job', 'service', 'container'])

interface HttpGetProbe {
  httpGet: { path: string; port: number | string }
  periodSeconds?: number
  failureThreshold?: number
}
interface Container {
  name: string
  image: string
  args?: string[]
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>
  ports?: Array<{ name?: string; containerPort: number; protocol?: string }>
  startupProbe?: HttpGetProbe
  readinessProbe?: HttpGetProbe
  livenessProbe?: HttpGetProbe
  lifecycle?: { preStop?: { exec?: { command: string[] } } }
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> }
}
interface Manifest {
  apiVersion: string
  kind: string
  metadata: { name: string; annotations?: Record<string, string> }
  spec: Record<string, unknown>
}
interface DeploymentSpec {
  selector: { matchLabels: Record<string, string> }
  template: {
    metadata: { labels: Record<string, string>; annotations?: Record<string, string> }
    spec: { terminationGracePeriodSeconds: number; containers: Container[] }
  }
}
interface ScaledObjectSpec {
  scaleTargetRef: { name: string }
  triggers: Array<{ type: string; metadata: { serverAddress: string; query: string; threshold: string } }>
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? yamlFiles(join(dir, entry.name)) : /\.ya?ml$/.test(entry.name) ? [join(dir, entry.name)] : [],
  )
}

function load(relative: string): Manifest[] {
  return parseAllDocuments(readFileSync(join(deployDir, relative), 'utf8'))
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((doc): doc is Manifest => doc !== null)
}

function one(relative: string, kind: string): Manifest {
  const found = load(relative).filter((m) => m.kind === kind)
  expect(found.map((m) => m.kind)).toEqual([kind])
  return found[0]
}

/** `--flag=value` or `--flag value` → value. */
function flagValue(args: readonly string[], flag: string): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1)
    if (arg === flag) return args[i + 1]
  }
  return undefined
}

function flagsOf(args: readonly string[]): string[] {
  return args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0])
}

/** The metric selectors of a PromQL query: `name{label="value", …}`. */
function selectors(query: string): Array<{ name: string; labels: Record<string, string> }> {
  return [...query.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}/g)].map((m) => ({
    name: m[1],
    labels: Object.fromEntries([...m[2].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"([^"]*)"/g)].map((l) => [l[1], l[2]])),
  }))
}

/** What a cluster gives the container, mapped to this machine. */
interface Local {
  models: string
  ports: Map<number, number>
  name?: string
  /** A model repository standing for the volume at /mnt/repository. */
  repository?: string
  /** The value of each Secret key the env reads (`<secret>/<key>`). */
  secrets?: Record<string, string>
}

function localize(value: string, local: Local): string {
  let out = value.replaceAll('/mnt/models', local.models).replace(/^--host=0\.0\.0\.0$/, '--host=127.0.0.1')
  if (local.repository !== undefined) out = out.replaceAll('/mnt/repository', local.repository)
  if (local.name !== undefined) out = out.replaceAll('{{.Name}}', local.name)
  const port = /^(--port|--grpc-port)=(\d+)$/.exec(out)
  if (port !== null) out = `${port[1]}=${local.ports.get(Number(port[2]))}`
  return out
}

async function localPorts(numbers: number[]): Promise<Map<number, number>> {
  const map = new Map<number, number>()
  for (const n of numbers) map.set(n, await freePort())
  return map
}

/** Starts `inferpool serve` with a container's args and env, localized. */
function startContainer(container: Container, local: Local): Promise<ServeProcess> {
  const args = (container.args ?? [])
    .filter((arg) => GRPC_MERGED || !GRPC_FLAGS.includes(arg.split('=')[0]))
    .map((arg) => localize(arg, local))
  const env: Record<string, string> = {}
  for (const { name, value, valueFrom } of container.env ?? []) {
    const secret = valueFrom?.secretKeyRef
    env[name] =
      name === 'PORT'
        ? String(local.ports.get(Number(value)))
        : secret !== undefined
          ? (local.secrets?.[`${secret.name}/${secret.key}`] as string)
          : (value as string)
  }
  return startServe(args, { PORT: undefined, ...env })
}

/** The container port a probe targets: a port name resolves through `ports`. */
function probePort(container: Container, probe: HttpGetProbe): number {
  const port = probe.httpGet.port
  if (typeof port === 'number') return port
  const named = container.ports?.find((p) => p.name === port)
  expect(named, `port "${port}" of ${container.name}`).toBeDefined()
  return (named as { containerPort: number }).containerPort
}

let help = ''
let models = ''

beforeAll(async () => {
  help = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [cli, 'serve', '--help'], (error, stdout) => (error ? reject(error) : resolve(stdout))),
  )
  models = await mkdtemp(join(tmpdir(), 'inferpool-models-'))
  await copyFile(demoModel, join(models, 'model.onnx'))
})

afterAll(async () => {
  await stopAll()
  if (models !== '') await rm(models, { recursive: true, force: true })
})

const helpFlags = (): Set<string> => new Set(help.match(/--[a-z][a-z-]*/g))

describe('deploy/', () => {
  it('every YAML file parses, each document with an apiVersion, a kind and a name', () => {
    const files = yamlFiles(deployDir)
    expect(files.length).toBeGreaterThanOrEqual(5)
    for (const file of files) {
      const docs = parseAllDocuments(readFileSync(file, 'utf8'))
      for (const doc of docs) {
        expect([file, doc.errors.map((e) => e.message)]).toEqual([file, []])
        const m = doc.toJS() as Manifest
        expect([file, typeof m.apiVersion, typeof m.kind, typeof m.metadata.name]).toEqual([file, 'string', 'string', 'string'])
      }
    }
  })

  it('GRPC_MERGED matches whether serve --help lists --grpc-port', () => {
    expect(helpFlags().has('--grpc-port')).toBe(GRPC_MERGED)
  })
})

describe('Dockerfile', () => {
  const lines = readFileSync(join(deployDir, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
  const final = lines.slice(lines.findLastIndex((l) => l.startsWith('FROM ')))
  const instruction = (name: string): string[] => final.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1).trim())

  it('runs Node 20 slim as a non-root user, numeric so runAsNonRoot can check it', () => {
    expect(final[0]).toBe('FROM node:20-slim')
    const [user] = instruction('USER')
    expect(user).toMatch(/^\d+(:\d+)?$/)
    expect(Number(user.split(':')[0])).toBeGreaterThan(0)
  })

  it('installs production dependencies only, and the launcher its ENTRYPOINT names is in the package', () => {
    const build = lines.join('\n')
    expect(build).toContain('pnpm --filter @inferpool/server deploy --prod')
    const entrypoint = JSON.parse(instruction('ENTRYPOINT')[0]) as string[]
    expect(entrypoint).toEqual(['node', '/app/bin/inferpool.js', 'serve'])
    expect(existsSync(join(serverDir, 'bin/inferpool.js'))).toBe(true)
  })

  it('serves its CMD on the PORT it sets and EXPOSEs, with models from /mnt/models', async () => {
    const port = Number(/^PORT=(\d+)$/.exec(instruction('ENV').find((e) => e.startsWith('PORT=')) ?? '')?.[1])
    expect(instruction('EXPOSE')).toEqual([String(port)])
    const cmd = JSON.parse(instruction('CMD')[0]) as string[]
    expect(flagValue(cmd, '--model')).toBe('model=/mnt/models/model.onnx')
    for (const flag of flagsOf(cmd)) expect([flag, helpFlags().has(flag)]).toEqual([flag, true])
    const local = { models, ports: await localPorts([port]) }
    const server = await startServe([...cmd.map((arg) => localize(arg, local)), '--replicas=1'], { PORT: String(local.ports.get(port)) })
    expect(server.url).toBe(`http://127.0.0.1:${local.ports.get(port)}`)
    expect((await http(`${server.url}/v2/models/model/ready`)).status).toBe(200)
    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
  })

  it('preloads jemalloc with a decay time, and the server runs under it', async () => {
    const env = Object.fromEntries(instruction('ENV').map((e) => e.split('=', 2) as [string, string]))
    expect(env.LD_PRELOAD).toBe('/usr/local/lib/libjemalloc.so.2')
    expect(env.MALLOC_CONF).toBe('background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0')
    // The image links Debian's library to that path; here it is Debian's own (.ci/run installs it).
    const library = hostJemalloc()
    const server = await startServe(['--replicas=1'], { LD_PRELOAD: library, MALLOC_CONF: env.MALLOC_CONF })
    expect(readFileSync(`/proc/${server.pid}/maps`, 'utf8')).toContain('libjemalloc.so.2')
    const answer = await post(`${server.url}/v2/models/demo/infer`, demoRequest(demoRows(5, 3)))
    expect(answer.status).toBe(200)
    expect((answer.json as { outputs: Array<{ shape: number[] }> }).outputs[0].shape).toEqual([3, 16])
    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
    // jemalloc rejects an unknown MALLOC_CONF option on stderr; the image's options are all known.
    expect(server.output()).not.toContain('<jemalloc>')
  })
})

describe('Kubernetes: deploy/k8s', () => {
  const deployment = one('k8s/deployment.yaml', 'Deployment')
  const spec = deployment.spec as unknown as DeploymentSpec
  const pod = spec.template.spec
  const [container] = pod.containers
  const port = Number(container.env?.find((e) => e.name === 'PORT')?.value)
  let server: ServeProcess

  beforeAll(async () => {
    server = await startContainer(container, { models, ports: await localPorts([port]) })
  })

  it('passes only flags that serve --help lists', () => {
    for (const flag of flagsOf(container.args ?? [])) expect([flag, helpFlags().has(flag)]).toEqual([flag, true])
  })

  it('declares the PORT the server listens on as its http container port', () => {
    expect(container.ports).toEqual([{ name: 'http', containerPort: port, protocol: 'TCP' }])
  })

  it('every probe answers 200 on the path and port the manifest gives', async () => {
    const probes = [container.startupProbe, container.readinessProbe, container.livenessProbe]
    expect(probes.map((p) => p?.httpGet.path)).toEqual(['/v2/health/live', '/v2/health/ready', '/v2/health/live'])
    for (const probe of probes as HttpGetProbe[]) {
      expect(probePort(container, probe)).toBe(port)
      expect([probe.httpGet.path, (await http(`${server.url}${probe.httpGet.path}`)).status]).toEqual([probe.httpGet.path, 200])
    }
  })

  it('scrape annotations point at /metrics on the server port', async () => {
    const annotations = spec.template.metadata.annotations ?? {}
    expect(annotations['prometheus.io/port']).toBe(String(port))
    const scraped = await http(`${server.url}${annotations['prometheus.io/path']}`)
    expect(scraped.status).toBe(200)
    expect(scraped.text).toContain('# TYPE inferpool_queue_length gauge')
  })

  it('terminationGracePeriodSeconds covers the preStop sleep and --shutdown-timeout-ms', () => {
    const command = container.lifecycle?.preStop?.exec?.command ?? []
    expect(command[0]).toBe('sleep')
    const preStopSeconds = Number(command[1])
    const shutdownMs = Number(flagValue(container.args ?? [], '--shutdown-timeout-ms'))
    expect(preStopSeconds).toBeGreaterThan(0)
    expect(shutdownMs).toBeGreaterThan(0)
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(preStopSeconds + shutdownMs / 1000)
  })

  it('sets CPU requests and limits to the threads the args start: processes × replicas × intra-op threads', () => {
    const args = container.args ?? []
    const threads = ['--processes', '--replicas', '--intra-op-threads'].map((f) => Number(flagValue(args, f))).reduce((a, b) => a * b, 1)
    expect(container.resources?.requests?.cpu).toBe(String(threads))
    expect(container.resources?.limits?.cpu).toBe(String(threads))
    expect(server.output()).toContain(`= ${threads}, on `)
  })

  it('the Service selects the pods and targets the http port by name', () => {
    const service = one('k8s/deployment.yaml', 'Service')
    const s = service.spec as { selector: Record<string, string>; ports: Array<{ targetPort: string }> }
    expect(s.selector).toEqual(spec.selector.matchLabels)
    expect(spec.template.metadata.labels).toMatchObject(s.selector)
    expect(s.ports.map((p) => p.targetPort)).toEqual(['http'])
  })

  it('KEDA scales this Deployment on a metric /metrics exports with the labels the query selects', async () => {
    const scaled = one('k8s/scaledobject.yaml', 'ScaledObject').spec as unknown as ScaledObjectSpec
    expect(scaled.scaleTargetRef.name).toBe(deployment.metadata.name)
    await expectQueryAnswerable(scaled, server.url)
  })
})

/** A repository standing for the volume a manifest mounts: the demo model as `demo` version 1 (no config.pbtxt). */
async function localRepository(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'inferpool-repository-'))
  await mkdir(join(root, 'demo', '1'), { recursive: true })
  await copyFile(demoModel, join(root, 'demo', '1', 'model.onnx'))
  return root
}

describe('Kubernetes: deploy/k8s/repository.yaml', () => {
  const deployment = one('k8s/repository.yaml', 'Deployment')
  const spec = deployment.spec as unknown as DeploymentSpec
  const pod = spec.template.spec as DeploymentSpec['template']['spec'] & {
    volumes: Array<{ name: string; persistentVolumeClaim?: { claimName: string; readOnly?: boolean } }>
  }
  const [container] = pod.containers
  const port = Number(container.env?.find((e) => e.name === 'PORT')?.value)
  const token = 'repository-secret'
  let server: ServeProcess
  let repository = ''

  beforeAll(async () => {
    repository = await localRepository()
    server = await startContainer(container, {
      models,
      repository,
      ports: await localPorts([port]),
      secrets: { 'inferpool-repository-token/token': token },
    })
  })
  afterAll(async () => {
    if (repository !== '') await rm(repository, { recursive: true, force: true })
  })

  it('passes only flags that serve --help lists, the repository token from a Secret in the env serve reads', () => {
    for (const flag of flagsOf(container.args ?? [])) expect([flag, helpFlags().has(flag)]).toEqual([flag, true])
    expect(container.env?.find((e) => e.name === 'INFERPOOL_REPOSITORY_TOKEN')?.valueFrom?.secretKeyRef).toEqual({
      name: 'inferpool-repository-token',
      key: 'token',
    })
    expect(help).toContain('INFERPOOL_REPOSITORY_TOKEN')
  })

  it('mounts the repository volume, read-only, at the directory --model-repository names, in poll mode (which every process runs)', () => {
    const args = container.args ?? []
    const directory = flagValue(args, '--model-repository')
    const mount = container.volumeMounts?.find((m) => m.mountPath === directory)
    expect(mount).toEqual({ name: 'repository', mountPath: '/mnt/repository', readOnly: true })
    expect(pod.volumes.find((v) => v.name === mount?.name)?.persistentVolumeClaim).toEqual({
      claimName: 'inferpool-repository',
      readOnly: true,
    })
    expect([flagValue(args, '--model-control-mode'), Number(flagValue(args, '--repository-poll-secs')) > 0]).toEqual(['poll', true])
  })

  it("serves the repository's models: every probe answers 200, the index takes the Secret's token", async () => {
    for (const probe of [container.startupProbe, container.readinessProbe, container.livenessProbe] as HttpGetProbe[]) {
      expect(probePort(container, probe)).toBe(port)
      expect([probe.httpGet.path, (await http(`${server.url}${probe.httpGet.path}`)).status]).toEqual([probe.httpGet.path, 200])
    }
    expect((await post(`${server.url}/v2/repository/index`, {})).status).toBe(401)
    const index = await post(`${server.url}/v2/repository/index`, {}, { authorization: `Bearer ${token}` })
    expect([index.status, index.json]).toEqual([200, [{ name: 'demo', version: '1', state: 'READY', reason: '' }]])
    const answer = await post(`${server.url}/v2/models/demo/versions/1/infer`, demoRequest(demoRows(9, 2)))
    expect([answer.status, (answer.json as { outputs: Array<{ shape: number[] }> }).outputs[0].shape]).toEqual([200, [2, 16]])
  })

  it('terminationGracePeriodSeconds covers the preStop sleep and --shutdown-timeout-ms', () => {
    const preStopSeconds = Number(container.lifecycle?.preStop?.exec?.command[1])
    const shutdownMs = Number(flagValue(container.args ?? [], '--shutdown-timeout-ms'))
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(preStopSeconds + shutdownMs / 1000)
  })
})

describe('Dockerfile.cuda (built and run on no GPU here: what can be checked without one)', () => {
  const text = readFileSync(join(deployDir, 'Dockerfile.cuda'), 'utf8')
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
  const final = lines.slice(lines.findLastIndex((l) => l.startsWith('FROM ')))
  const instruction = (name: string): string[] => final.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1).trim())

  it('says it is untested here, and runs on a CUDA 12 + cuDNN image as a numeric non-root user with the same entrypoint', () => {
    expect(text).toContain('UNTESTED HERE')
    expect(final[0]).toMatch(/^FROM nvidia\/cuda:12\.[0-9.]+-cudnn-runtime-/)
    const [user] = instruction('USER')
    expect(user).toMatch(/^\d+(:\d+)?$/)
    expect(Number(user.split(':')[0])).toBeGreaterThan(0)
    expect(JSON.parse(instruction('ENTRYPOINT')[0])).toEqual(['node', '/app/bin/inferpool.js', 'serve'])
  })

  it("runs onnxruntime-node's own install script with the ONNXRUNTIME_NODE_INSTALL value a missing CUDA provider's error names", async () => {
    const build = lines.join('\n')
    expect(build).toContain('ONNXRUNTIME_NODE_INSTALL=cuda12 node ./script/install')
    const require = createRequire(join(serverDir, 'package.json'))
    const ort = JSON.parse(readFileSync(require.resolve('onnxruntime-node/package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(ort.scripts.postinstall).toBe('node ./script/install')
    const error = await createPool({
      model: demoModel,
      replicas: 1,
      session: { executionProviders: ['cuda'] },
      logger: { warn() {}, info() {} },
    }).then(
      (pool) => pool.close().then(() => undefined),
      (e: unknown) => e,
    )
    expect((error as Error).message).toContain('ONNXRUNTIME_NODE_INSTALL=cuda12')
  })

  it('serves a model repository with its CMD on the PORT it sets and EXPOSEs', async () => {
    const port = Number(/^PORT=(\d+)$/.exec(instruction('ENV').find((e) => e.startsWith('PORT=')) ?? '')?.[1])
    expect(instruction('EXPOSE')).toEqual([String(port)])
    const cmd = JSON.parse(instruction('CMD')[0]) as string[]
    expect(flagValue(cmd, '--model-repository')).toBe('/mnt/repository')
    for (const flag of flagsOf(cmd)) expect([flag, helpFlags().has(flag)]).toEqual([flag, true])
    const repository = await localRepository()
    try {
      const local = { models, repository, ports: await localPorts([port]) }
      const server = await startServe([...cmd.map((arg) => localize(arg, local)), '--replicas=1'], { PORT: String(local.ports.get(port)) })
      expect((await http(`${server.url}/v2/models/demo/versions/1/ready`)).status).toBe(200)
      server.child.kill('SIGTERM')
      expect(await server.exit).toBe(0)
    } finally {
      await rm(repository, { recursive: true, force: true })
    }
  })
})

/** Each selector of each prometheus trigger names a sample that `/metrics` has, with the server-side labels. */
async function expectQueryAnswerable(scaled: ScaledObjectSpec, url: string): Promise<void> {
  const text = (await http(`${url}/metrics`)).text
  const triggers = scaled.triggers.filter((t) => t.type === 'prometheus')
  expect(triggers.length).toBeGreaterThan(0)
  for (const trigger of triggers) {
    expect(Number(trigger.metadata.threshold)).toBeGreaterThan(0)
    const found = selectors(trigger.metadata.query)
    expect(found.map((s) => s.name)).toEqual(['inferpool_queue_length'])
    for (const { name, labels } of found) {
      const own = Object.fromEntries(Object.entries(labels).filter(([label]) => !TARGET_LABELS.has(label)))
      expect([name, own, metric(text, name, own)]).toEqual([name, own, 0])
    }
  }
}

describe('KServe: deploy/kserve', () => {
  const runtime = one('kserve/servingruntime.yaml', 'ServingRuntime')
  const isvc = one('kserve/inferenceservice.yaml', 'InferenceService')
  const rspec = runtime.spec as {
    supportedModelFormats: Array<{ name: string; version: string; autoSelect?: boolean }>
    protocolVersions: string[]
    annotations: Record<string, string>
    containers: Container[]
  }
  const [container] = rspec.containers
  const predictor = (isvc.spec as { predictor: { model: { modelFormat: { name: string }; runtime: string; protocolVersion: string } } })
    .predictor
  const httpPort = Number(flagValue(container.args ?? [], '--port'))
  const grpcPort = Number(flagValue(container.args ?? [], '--grpc-port'))
  let server: ServeProcess
  let ports: Map<number, number>

  beforeAll(async () => {
    ports = await localPorts([httpPort, grpcPort])
    server = await startContainer(container, { models, ports, name: isvc.metadata.name })
  })

  it('the runtime takes ONNX over the Open Inference Protocol, REST and gRPC, gRPC on the port named h2c', () => {
    expect(rspec.supportedModelFormats).toContainEqual({ name: 'onnx', version: '1', autoSelect: true })
    expect(rspec.protocolVersions).toEqual(['v2', 'grpc-v2'])
    expect(container.name).toBe('kserve-container')
    expect(container.ports).toEqual([{ name: 'h2c', containerPort: grpcPort, protocol: 'TCP' }])
    expect(rspec.annotations['prometheus.kserve.io/port']).toBe(String(httpPort))
  })

  it('sets CPU requests and limits to the threads the args start: processes × replicas × intra-op threads', () => {
    const args = container.args ?? []
    const threads = ['--processes', '--replicas', '--intra-op-threads'].map((f) => Number(flagValue(args, f))).reduce((a, b) => a * b, 1)
    expect(container.resources?.requests?.cpu).toBe(String(threads))
    expect(container.resources?.limits?.cpu).toBe(String(threads))
    expect(server.output()).toContain(`= ${threads}, on `)
  })

  it('passes only flags that serve --help lists (the gRPC ones once GRPC_MERGED)', () => {
    const flags = flagsOf(container.args ?? []).filter((flag) => GRPC_MERGED || !GRPC_FLAGS.includes(flag))
    for (const flag of flags) expect([flag, helpFlags().has(flag)]).toEqual([flag, true])
  })

  it('the InferenceService uses this runtime for its ONNX model, in RawDeployment mode with an external autoscaler', () => {
    expect(predictor.model).toMatchObject({ modelFormat: { name: 'onnx' }, runtime: runtime.metadata.name, protocolVersion: 'v2' })
    expect(isvc.metadata.annotations).toEqual({
      'serving.kserve.io/deploymentMode': 'RawDeployment',
      'serving.kserve.io/autoscalerClass': 'external',
    })
  })

  it('serves the model under the InferenceService name and answers every probe with 200', async () => {
    expect((await http(`${server.url}/v2/models/${isvc.metadata.name}/ready`)).status).toBe(200)
    for (const probe of [container.readinessProbe, container.livenessProbe] as HttpGetProbe[]) {
      expect(probePort(container, probe)).toBe(httpPort)
      expect([probe.httpGet.path, (await http(`${server.url}${probe.httpGet.path}`)).status]).toEqual([probe.httpGet.path, 200])
    }
    expect((await http(`${server.url}${rspec.annotations['prometheus.kserve.io/path']}`)).status).toBe(200)
  })

  it("KEDA scales the InferenceService's predictor on a metric /metrics exports with the labels the query selects", async () => {
    const scaled = one('kserve/scaledobject.yaml', 'ScaledObject').spec as unknown as ScaledObjectSpec
    expect(scaled.scaleTargetRef.name).toBe(`${isvc.metadata.name}-predictor`)
    await expectQueryAnswerable(scaled, server.url)
  })

  describe.runIf(GRPC_MERGED)('gRPC (enable GRPC_MERGED once the grpc branch is merged)', () => {
    it('answers ServerLive on the h2c port (--grpc-port)', async () => {
      const session = connect(`http://127.0.0.1:${ports.get(grpcPort)}`)
      try {
        const reply = await new Promise<{ status: string | undefined; body: Buffer }>((resolve, reject) => {
          const stream = session.request({
            ':method': 'POST',
            ':path': '/inference.GRPCInferenceService/ServerLive',
            'content-type': 'application/grpc',
            te: 'trailers',
          })
          const chunks: Buffer[] = []
          let status: string | undefined
          stream.on('trailers', (trailers) => (status = String(trailers['grpc-status'])))
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => resolve({ status, body: Buffer.concat(chunks) }))
          stream.on('error', reject)
          // An empty ServerLiveRequest: uncompressed flag 0, length 0.
          stream.end(Buffer.from([0, 0, 0, 0, 0]))
        })
        // ServerLiveResponse { live: true }: field 1, varint 1.
        expect(reply).toEqual({ status: '0', body: Buffer.from([0, 0, 0, 0, 2, 0x08, 0x01]) })
      } finally {
        session.close()
      }
    })
  })
})
