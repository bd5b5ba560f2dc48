/**
 * `pnpm bench compare <git-ref>`: the regression gate of every change on the request
 * path. A = the ref, built in a temporary worktree; B = this working tree. Every probe
 * runs A then B once per round, for several rounds, so drift in a shared machine's load
 * falls on both sides alike; each side runs its own build, the load generator (this
 * process: autocannon, the gRPC and closed-loop callers) is the same for both.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type * as grpc from '@grpc/grpc-js'
import { runClosedLoop } from '../closed-loop.js'
import { UsageError } from '../config.js'
import { readModelInfo, type ModelInfo } from '../model.js'
import { defaultResultsDir, demoModelPath, repoRoot } from '../paths.js'
import { clientsFor, connect, encodedRequest, streamCaller } from '../scenarios/grpc.js'
import { doorRequest, load, type DoorEncoding, type DoorRequest } from '../scenarios/http.js'
import { poolRows } from '../scenarios/pool.js'
import { mainThreadCpuMs } from '../thread-cpu.js'
import { loadAverage, loadVerdict, MAX_LOAD } from './machine-load.js'
import { COMPARE_USAGE, parseCompareOptions, type CompareOptions } from './options.js'
import { metricsOf, probeId, type Probe } from './probes.js'
import { checkoutAndBuild, describeWorkingTree, resolveCommit, type RefCheckout } from './ref-checkout.js'
import { expectAnswer, startAgent, startServe, stopChild, type Agent, type Serve } from './side.js'
import { compareRow, formatTable, type ComparedRow } from './table.js'
import { startOtlpSink, type OtlpSink } from './otlp-sink.js'

const MODEL_NAME = 'bench'
/** Items per core probe (after one warm-up round in the agent). */
const CORE_ITEMS = { full: 300_000, quick: 100_000 }

interface Side {
  label: 'A' | 'B'
  root: string
  serve: Serve
  /** The servers the traced probes start with OTEL_* set, by probe id (started on first use). */
  traced: Map<string, Serve>
  agent: Agent
  grpcClients: Map<number, grpc.Client[]>
  /** Samples per metric id. */
  samples: Map<string, number[]>
  /** Why a probe has no figure on this side (it failed once and is not retried). */
  failed: Map<string, string>
}

/** Runs `compare`; resolves with the exit code (0 ok, 1 a regression or a failure, 2 usage, 3 refused under load). */
export async function runCompare(argv: string[]): Promise<number> {
  let options: CompareOptions | null
  try {
    options = parseCompareOptions(argv)
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\n\n${COMPARE_USAGE}`)
      return 2
    }
    throw error
  }
  if (options === null) {
    console.log(COMPARE_USAGE)
    return 0
  }
  const loadBefore = await loadAverage()
  const verdict = loadVerdict(loadBefore, options.allowLoad)
  if (!verdict.run) {
    console.error(
      `compare: refused: the 1-minute load is ${loadBefore.toFixed(2)} (>= ${MAX_LOAD}): other work shares the cores and ` +
        'the ratios would measure it. Wait for a quiet machine, or pass --allow-load (the table is then marked).',
    )
    return 3
  }
  if (verdict.warning) console.error(`compare: WARNING: ${verdict.warning}`)

  let commit: string
  try {
    commit = await resolveCommit(repoRoot, options.ref)
  } catch (error) {
    console.error(`compare: ${(error as Error).message}`)
    return 2
  }
  const model = demoModelPath()
  const info = await readModelInfo(model)
  const say = (line: string) => console.error(line)
  const started = performance.now()

  let checkout: RefCheckout | undefined
  let sink: OtlpSink | undefined
  const sides: Side[] = []
  const stopAll = async (): Promise<void> => {
    for (const side of sides) for (const clients of side.grpcClients.values()) for (const c of clients) c.close()
    await Promise.all(
      sides.flatMap((side) => [
        stopChild(side.serve.child),
        ...[...side.traced.values()].map((s) => stopChild(s.child)),
        side.agent.stop(),
      ]),
    )
    sides.length = 0
    await sink?.close()
    sink = undefined
    await checkout?.remove()
  }
  // Ctrl-C: the servers, agents and the temporary worktree go with the run.
  const onSignal = () => {
    say('compare: interrupted; cleaning up')
    void stopAll().finally(() => process.exit(130))
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    checkout = await checkoutAndBuild(repoRoot, commit, say)
    for (const [label, root] of [
      ['A', checkout.dir],
      ['B', repoRoot],
    ] as const) {
      say(`compare: starting side ${label} (${root})`)
      const [serve, agent] = await Promise.allSettled([startServe(root, model, MODEL_NAME), startAgent(root)])
      if (serve.status === 'rejected' || agent.status === 'rejected') {
        // The one that did start must not outlive the run.
        if (serve.status === 'fulfilled') await stopChild(serve.value.child)
        if (agent.status === 'fulfilled') await agent.value.stop()
        throw serve.status === 'rejected' ? serve.reason : (agent as PromiseRejectedResult).reason
      }
      sides.push({
        label,
        root,
        serve: serve.value,
        traced: new Map(),
        agent: agent.value,
        grpcClients: new Map(),
        samples: new Map(),
        failed: new Map(),
      })
    }
    if (options.probes.some((p) => p.kind === 'door-traced')) sink = await startOtlpSink()
    const probe = new Prober(info, model, options, sink?.url ?? '')
    for (let round = 1; round <= options.rounds; round++) {
      say(`compare: round ${round}/${options.rounds}`)
      for (const p of options.probes)
        for (const side of sides) {
          const id = probeId(p)
          if (side.failed.has(id)) continue
          try {
            const figures = await probe.run(p, side)
            for (const [metric, value] of Object.entries(figures)) {
              const list = side.samples.get(metric) ?? []
              list.push(value)
              side.samples.set(metric, list)
            }
          } catch (error) {
            side.failed.set(id, (error instanceof Error ? error.message : String(error)).split('\n')[0])
          }
        }
    }
    const loadAfter = await loadAverage()
    const [a, b] = sides
    const rows: ComparedRow[] = options.probes.flatMap((p) =>
      metricsOf(p).map((metric) => {
        const id = probeId(p)
        const note = a.failed.has(id) ? `A failed: ${a.failed.get(id)}` : b.failed.has(id) ? `B failed: ${b.failed.get(id)}` : null
        return compareRow(metric, a.samples.get(metric.id) ?? [], b.samples.get(metric.id) ?? [], note)
      }),
    )
    const header = {
      a: `${options.ref} (${commit.slice(0, 10)})`,
      b: describeWorkingTree(repoRoot),
      rounds: options.rounds,
      windowMs: options.window.durationMs,
      loadBefore,
      loadAfter,
      loadWarning: verdict.warning,
    }
    console.log(formatTable(rows, header))
    await mkdir(defaultResultsDir, { recursive: true })
    const stem = `compare-${new Date().toISOString().replace(/[:.]/g, '-')}${options.quick ? '-quick' : ''}`
    const jsonPath = join(defaultResultsDir, `${stem}.json`)
    const durationSec = (performance.now() - started) / 1000
    await writeFile(jsonPath, `${JSON.stringify({ header, options, durationSec, rows }, null, 2)}\n`)
    console.log(`\nresults: ${jsonPath} (${Math.round(durationSec)} s)`)
    const failures = sides.some((side) => side.failed.size > 0)
    return rows.some((r) => r.regression) || failures ? 1 : 0
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await stopAll()
  }
}

/** Runs one probe against one side; returns its figures by metric id. */
class Prober {
  readonly #doorRequests = new Map<string, DoorRequest>()
  readonly #grpcRequest: Buffer
  readonly #rows

  constructor(
    readonly info: ModelInfo,
    readonly model: string,
    readonly options: CompareOptions,
    /** Where the traced probes' servers export (otlp-sink.ts). */
    readonly sinkUrl: string,
  ) {
    this.#grpcRequest = encodedRequest(info, MODEL_NAME, 1)
    this.#rows = poolRows(info)
  }

  async run(probe: Probe, side: Side): Promise<Record<string, number>> {
    const id = probeId(probe)
    const { window } = this.options
    switch (probe.kind) {
      case 'door':
        return this.#door(side.serve, id, probe.encoding, probe.rows, probe.connections)
      case 'door-traced': {
        let serve = side.traced.get(id)
        if (!serve) {
          const sampler: Record<string, string> =
            probe.sampling === 'always'
              ? { OTEL_TRACES_SAMPLER: 'parentbased_always_on' }
              : { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' }
          const env = {
            OTEL_TRACES_EXPORTER: 'otlp',
            OTEL_EXPORTER_OTLP_ENDPOINT: this.sinkUrl,
            OTEL_SERVICE_NAME: 'inferpool-bench',
            ...sampler,
          }
          side.traced.set(id, (serve = await startServe(side.root, this.model, MODEL_NAME, env)))
        }
        // The main-thread CPU row is the door's; this one only reports the rate.
        const figures = await this.#door(serve, id, 'json', 1, 64)
        return { [id]: figures[id] }
      }
      case 'grpc-stream': {
        if (side.serve.grpcPort === null) throw new Error('this version of inferpool serve has no gRPC')
        let clients = side.grpcClients.get(probe.connections)
        if (!clients) {
          clients = clientsFor(side.serve.grpcPort, probe.connections)
          side.grpcClients.set(probe.connections, clients)
          await connect(clients)
        }
        const callers = clients.map((client) => streamCaller(client, this.#grpcRequest))
        try {
          const result = await runClosedLoop({ callers: callers.length, ...window, call: (i) => callers[i].call() })
          return { [id]: result.callsPerSec }
        } finally {
          for (const caller of callers) caller.end()
        }
      }
      case 'pool': {
        const figures = await side.agent.ask({
          type: 'pool',
          model: this.model,
          rows: this.#rows,
          callers: probe.callers,
          window,
          ...(probe.isolation === undefined ? {} : { isolation: probe.isolation }),
        })
        const out: Record<string, number> = { [id]: figures.rowsPerSec }
        if (probe.callers === 1) out[`${id}-p50`] = figures.p50Ms
        return out
      }
      case 'core': {
        const items = this.options.quick ? CORE_ITEMS.quick : CORE_ITEMS.full
        const figures = await side.agent.ask({ type: 'core', items, producers: 256, maxBatchSize: 128 })
        return { [id]: figures.itemsPerSec }
      }
    }
  }

  /** Autocannon against one server's infer route: its rate, and its main thread's CPU per request. */
  async #door(serve: Serve, id: string, encoding: DoorEncoding, rows: number, connections: number): Promise<Record<string, number>> {
    const { window } = this.options
    const key = `${encoding}-${rows}`
    let request = this.#doorRequests.get(key)
    if (!request) this.#doorRequests.set(key, (request = doorRequest(this.info, encoding, rows)))
    const url = `${serve.url}/v2/models/${MODEL_NAME}/infer`
    await expectAnswer(url, request)
    if (window.warmupMs > 0) await load(url, request.body, connections, window.warmupMs, undefined, request.headers)
    const pid = serve.child.pid as number
    const cpuBefore = mainThreadCpuMs(pid)
    const { ok, elapsedMs } = await load(url, request.body, connections, window.durationMs, undefined, request.headers)
    const cpuAfter = mainThreadCpuMs(pid)
    const figures: Record<string, number> = { [id]: (ok * 1000) / elapsedMs }
    if (cpuBefore !== null && cpuAfter !== null && ok > 0) figures[`${id}-main-cpu`] = ((cpuAfter - cpuBefore) * 1000) / ok
    return figures
  }
}
