#!/usr/bin/env node
/**
 * Renders bench/README.md's tables from the result JSON: for each scenario, the newest
 * `bench/results/bench-<UTC time>.json` (quick runs left out) that ran it without an error
 * replaces the region between `<!-- table:<scenario>:start -->` and
 * `<!-- table:<scenario>:end -->`, with a line naming that file. Only what is inside the
 * markers changes; the rest of the README is written by hand.
 *   node bench/scripts/render-readme.mjs          # rewrite the README
 *   node bench/scripts/render-readme.mjs --check  # exit 1 when the README is not up to date
 * (`pnpm --filter @inferpool/bench run readme` runs the first.) Plain Node, no build needed.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const benchDir = fileURLToPath(new URL('..', import.meta.url))
const resultsDir = `${benchDir}results`
const readmePath = `${benchDir}README.md`

// ---- formatting -------------------------------------------------------------------

const dash = '–'
const missing = (x) => x === null || x === undefined || Number.isNaN(x)
const n0 = (x) => (missing(x) ? dash : Math.round(x).toLocaleString('en-US'))
const n1 = (x) => (missing(x) ? dash : x.toFixed(1))
const n2 = (x) => (missing(x) ? dash : x.toFixed(2))
const ms = (x) => (missing(x) ? dash : x.toFixed(x < 10 ? 3 : 1))
const ratio = (x) => (missing(x) ? dash : `${x.toFixed(2)}×`)
const yesNo = (met) => (met === null || met === undefined ? 'n/a' : met ? 'yes' : 'no')

function median(xs) {
  const s = xs.filter((x) => !missing(x)).sort((a, b) => a - b)
  if (s.length === 0) return null
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** A Markdown table with its columns padded as prettier pads them. */
function table(headers, rows) {
  const cells = rows.map((r) => r.map((c) => String(c).replaceAll('|', '\\|')))
  const widths = headers.map((h, i) => Math.max(3, h.length, ...cells.map((r) => r[i].length)))
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)]
}

/** A target check of the result's summary (or the slo scenario's) as `actual (goal ≥ x: met)`. */
function judged(t, format) {
  if (t === undefined) return dash
  const goal = `${t.comparison === '>=' ? '≥' : '≤'} ${t.target}`
  return `${format(t.actual)} (goal ${goal}: ${yesNo(t.met)})`
}

const targetOf = (r, id) => r.summary?.targets?.find((t) => t.id === id && t.actual !== null)

// ---- one renderer per scenario: result => { notes: sentences before the table, rows } ----

const renderers = {
  core(r) {
    const c = r.core
    const spread = (xs) => `${n0(Math.min(...xs))}–${n0(Math.max(...xs))}`
    return {
      notes: [`${n0(c.items)} items, ${c.producers} producers, maxBatchSize ${c.maxBatchSize}, medians of ${c.rounds} rounds.`],
      rows: table(
        ['contender', 'items/s', 'rounds min–max'],
        [
          ['`DynamicBatcher`, every feature on', n0(c.inferpoolItemsPerSec), spread(c.inferpoolRounds)],
          ['`dataloader`', n0(c.dataloaderItemsPerSec), spread(c.dataloaderRounds)],
          ['ratio', judged(targetOf(r, 'core-vs-dataloader'), ratio), ''],
        ],
      ),
    }
  },

  direct(r) {
    const rows = r.direct.row.map((p) => [
      `one row per \`run()\`, main thread, ${p.callers} caller(s)`,
      n0(p.rowsPerSec),
      ms(p.latencyMs.p50),
      ms(p.latencyMs.p99),
    ])
    const limit = r.direct.practicalLimit
    for (const v of limit?.variants ?? []) {
      rows.push([`${v.description}${v.name === limit.best ? ' (the practical limit)' : ''}`, n0(v.rowsPerSec), dash, dash])
    }
    return { notes: [], rows: table(['baseline', 'rows/s', 'p50 ms', 'p99 ms'], rows) }
  },

  pool(r) {
    const most = Math.max(...r.pool.map((p) => p.callers))
    const at = r.pool.filter((p) => p.callers === most)
    const sizes = [...new Set(at.map((p) => p.maxBatchSize))].sort((a, b) => a - b)
    const shapes = [...new Set(at.map((p) => `${p.replicas} × ${p.concurrency}`))]
    const rows = shapes.map((shape) => [
      shape,
      ...sizes.map((b) => {
        const p = at.find((q) => `${q.replicas} × ${q.concurrency}` === shape && q.maxBatchSize === b)
        return p === undefined ? dash : `${n0(p.rowsPerSec)} (${ratio(p.efficiency)})`
      }),
    ])
    return {
      notes: [`Rows/s at ${most} callers (efficiency: ÷ the practical limit), one window each.`],
      rows: table(['replicas × concurrency', ...sizes.map((b) => `maxBatchSize ${b}`)], rows),
    }
  },

  shapes(r) {
    const s = r.shapes
    const [few, most] = [Math.min(...s.callers), Math.max(...s.callers)]
    const shapes = [...new Set(s.median.map((m) => `${m.replicas} × ${m.concurrency}`))]
    const pick = (shape, callers) => s.median.find((m) => `${m.replicas} × ${m.concurrency}` === shape && m.callers === callers)
    const rounds = Math.max(...s.points.map((p) => p.round))
    return {
      notes: [`At maxBatchSize ${s.maxBatchSize}, medians of ${rounds} interleaved rounds.`],
      rows: table(
        ['replicas × concurrency', `rows/s, ${few} caller`, `p50 ms, ${few} caller`, `rows/s, ${most} callers`, `p99 ms, ${most} callers`],
        shapes.map((shape) => [
          shape,
          n0(pick(shape, few)?.rowsPerSec),
          ms(pick(shape, few)?.p50Ms),
          n0(pick(shape, most)?.rowsPerSec),
          ms(pick(shape, most)?.p99Ms),
        ]),
      ),
    }
  },

  waits(r) {
    const callers = [...new Set(r.waits.map((p) => p.callers))].sort((a, b) => a - b)
    const policies = [...new Set(r.waits.map((p) => `${p.minBatchSize}, ${p.maxWaitMs}`))]
    const first = r.waits[0]
    return {
      notes: [`Replicas ${first.replicas}, concurrency ${first.concurrency}, maxBatchSize ${first.maxBatchSize}; rows/s and p50.`],
      rows: table(
        ['minBatchSize, maxWaitMs', ...callers.map((c) => `${c} caller${c === 1 ? '' : 's'}`)],
        policies.map((policy) => [
          policy,
          ...callers.map((c) => {
            const p = r.waits.find((q) => `${q.minBatchSize}, ${q.maxWaitMs}` === policy && q.callers === c)
            return p === undefined ? dash : `${n0(p.rowsPerSec)}, p50 ${ms(p.latencyMs.p50)} ms`
          }),
        ]),
      ),
    }
  },

  targets(r) {
    const t = r.targets
    const ids = {
      'pool-vs-practical-limit': ratio,
      'pool-vs-batching-off': ratio,
      'p50-at-1-caller': (x) => `+${ms(x)} ms`,
      'host-cpu-per-row': (x) => `${n2(x)} µs`,
    }
    const rows = Object.entries(ids)
      .map(([id, format]) => [id, targetOf(r, id), format])
      .filter(([, check]) => check !== undefined)
      .map(([id, check, format]) => [`\`${id}\``, judged(check, format), check.detail])
    return {
      notes: [
        `Replicas ${t.shape.replicas}, concurrency ${t.shape.concurrency}, maxBatchSize ${t.shape.maxBatchSize}, ${t.callers} callers, ${t.rounds.length} interleaved rounds.`,
      ],
      rows: table(['target', 'measured', 'from'], rows),
    }
  },

  isolation(r) {
    const x = r.isolation
    const m = x.memory
    return {
      notes: [
        `Replicas ${x.shape.replicas}, concurrency ${x.shape.concurrency}, maxBatchSize ${x.shape.maxBatchSize}, medians of ${x.rounds.length} interleaved rounds.`,
      ],
      rows: table(
        ['replicas', `rows/s, ${x.callers} callers`, 'p50 ms, 1 caller', 'MiB per replica'],
        [
          ['threads', n0(x.median.threadRowsPerSec), ms(x.median.threadP50MsAt1), n1(m?.threadPerReplicaMiB)],
          ['processes', n0(x.median.processRowsPerSec), ms(x.median.processP50MsAt1), n1(m?.processPerReplicaMiB)],
          [
            'process vs thread',
            judged(targetOf(r, 'process-vs-thread'), ratio),
            judged(targetOf(r, 'process-p50-at-1-caller'), (d) => `+${ms(d)} ms`),
            '',
          ],
        ],
      ),
    }
  },

  http(r) {
    const conns = [...new Set(r.http.map((p) => p.connections))].sort((a, b) => a - b)
    const servers = [...new Set(r.http.map((p) => p.server))]
    const at = (server, c) => r.http.find((p) => p.server === server && p.connections === c)
    const rows = servers.map((server) => [
      server,
      ...conns.map((c) => {
        const p = at(server, c)
        return p === undefined ? dash : `${n0(p.rowsPerSec)} (${p.rowsPerSecRounds?.map(n0).join(', ') ?? ''})`
      }),
    ])
    const notes = [`Rows/s, median (rounds) of ${r.http[0]?.rounds ?? 1} interleaved round(s).`]
    const python = conns
      .filter((c) => at('batched', c) && at('python-fastapi', c))
      .map((c) => `${ratio(at('batched', c).rowsPerSec / at('python-fastapi', c).rowsPerSec)} at ${c}`)
    if (python.length) notes.push(`Batched ÷ naive Python: ${python.join(', ')} connection(s).`)
    if (r.door) {
      const d = r.door.summary
      notes.push(
        `Door, single-row, ${d.connections} connections, medians of ${d.rounds} rounds: inferpool JSON ${n0(d.single.inferpool.json)} req/s, binary ${n0(d.single.inferpool.binary)}; no-op JSON ${n0(d.single.noop.json)}, binary ${n0(d.single.noop.binary)}; ${d.multiRows}-row requests JSON ${n0(d.multi.json)} rows/s, binary ${n0(d.multi.binary)}.`,
      )
    }
    const checks = [
      ['Door JSON ÷ no-op', targetOf(r, 'door-json-vs-noop')],
      ['binary ÷ JSON', targetOf(r, 'door-binary-vs-json')],
    ].filter(([, t]) => t !== undefined)
    if (checks.length) notes.push(`${checks.map(([label, t]) => `${label} ${judged(t, ratio)}`).join('; ')}.`)
    return { notes, rows: table(['server', ...conns.map((c) => `${c} connection${c === 1 ? '' : 's'}`)], rows) }
  },

  grpc(r) {
    const groups = new Map()
    for (const p of r.grpc) {
      const key = `${p.variant}|${p.rowsPerRequest}|${p.connections}`
      groups.set(key, [...(groups.get(key) ?? []), p])
    }
    const rows = [...groups.values()].map((ps) => [
      ps[0].variant,
      ps[0].rowsPerRequest,
      ps[0].connections,
      n0(median(ps.map((p) => p.rowsPerSec))),
      ms(median(ps.map((p) => p.latencyMs.p50))),
      n1(median(ps.map((p) => p.serverCpuUsPerRow))),
    ])
    const check = targetOf(r, 'grpc-stream-vs-json')
    return {
      notes: check ? [`gRPC stream ÷ JSON ${judged(check, ratio)}.`] : [],
      rows: table(['variant', 'rows/request', 'connections', 'rows/s (median)', 'p50 ms', 'server CPU µs/row'], rows),
    }
  },

  processes(r) {
    const conns = [...new Set(r.processes.map((p) => p.connections))].sort((a, b) => a - b)
    const configs = [...new Set(r.processes.map((p) => `${p.processes} × ${p.replicas} × ${p.intraOpThreads}`))]
    return {
      notes: ['Rows/s (p99 ms).'],
      rows: table(
        ['processes × replicas × intra-op', ...conns.map((c) => `${c} connections`)],
        configs.map((config) => [
          config,
          ...conns.map((c) => {
            const p = r.processes.find((q) => `${q.processes} × ${q.replicas} × ${q.intraOpThreads}` === config && q.connections === c)
            return p === undefined ? dash : `${n0(p.rowsPerSec)} (${ms(p.latencyMs.p99)})`
          }),
        ]),
      ),
    }
  },

  'third-party'(r) {
    const t = r.thirdParty
    return {
      notes: [
        `\`${t.model.split('/').pop()}\`, input \`${t.input.name}\` [${t.input.dims.join(', ')}], fixed batch ${t.fixedBatchSize ?? 'none'}; 2 replicas ÷ 1: ${ratio(t.replicaSpeedup)}.`,
      ],
      rows: table(
        ['runner', 'callers', 'rows/s', 'p50 ms', 'p99 ms', 'mean batch'],
        [
          ...t.direct.map((p) => ['direct, main thread', p.callers, n0(p.rowsPerSec), ms(p.latencyMs.p50), ms(p.latencyMs.p99), '1.00']),
          ...t.pool.map((p) => [
            `pool, ${p.replicas} replica(s)`,
            p.callers,
            n0(p.rowsPerSec),
            ms(p.latencyMs.p50),
            ms(p.latencyMs.p99),
            n2(p.meanBatchSize),
          ]),
        ],
      ),
    }
  },

  memory(r) {
    const replicas = [...new Set(r.memory.map((p) => p.replicas))].sort((a, b) => a - b)
    const models = [...new Set(r.memory.map((p) => p.model))]
    return {
      notes: ['Resident MiB after the requests (in brackets: per replica, above the 0-replica floor).'],
      rows: table(
        ['model', ...replicas.map((n) => `${n} replica${n === 1 ? '' : 's'}`)],
        models.map((model) => [
          model,
          ...replicas.map((n) => {
            const p = r.memory.find((q) => q.model === model && q.replicas === n)
            if (p === undefined) return dash
            return p.perReplicaMiB === null ? n1(p.rssAfterRunMiB) : `${n1(p.rssAfterRunMiB)} (${n1(p.perReplicaMiB)})`
          }),
        ]),
      ),
    }
  },

  overload(r) {
    const o = r.overload
    const series = new Map()
    for (const p of o.points) {
      const key = `${p.encoding}, ${p.rowsPerRequest} row${p.rowsPerRequest === 1 ? '' : 's'}`
      series.set(key, [...(series.get(key) ?? []), p])
    }
    const loads = [...new Set(o.points.map((p) => p.load))].sort((a, b) => a - b)
    const top = loads[loads.length - 1]
    const rounds = Math.max(...o.points.map((p) => p.round))
    const rows = [...series].map(([key, ps]) => {
      const at = (load) => ps.filter((p) => p.load === load)
      return [
        key,
        ...loads.map((load) =>
          load === 1 ? n0(median(at(1).map((p) => p.okPerSec))) : ratio(median(at(load).map((p) => p.goodputVsCapacity))),
        ),
        `${n1(median(at(top).map((p) => p.share503 * 100)))} %`,
        ms(median(at(top).map((p) => p.okLatencyMs.p99))),
        at(top).reduce((sum, p) => sum + p.deadlineMisses, 0),
      ]
    })
    const serve = o.serveArgs.length ? `\`inferpool serve ${o.serveArgs.join(' ')}\`` : '`inferpool serve` defaults'
    return {
      notes: [
        `${serve}, malloc ${o.allocator ?? 'glibc'}; capacity = 2xx/s at ${o.comfortable} connections; medians of ${rounds} round(s).`,
      ],
      rows: table(
        [
          'encoding, rows',
          ...loads.map((l) => (l === 1 ? '2xx/s at 1×' : `goodput ÷ capacity, ${l}×`)),
          `503 share, ${top}×`,
          `p99 ms, ${top}×`,
          `late, ${top}×`,
        ],
        rows,
      ),
    }
  },

  repository(r) {
    const o = r.repository
    const rows = ['steady', 'swap'].map((phase) => {
      const ws = o.windows.filter((w) => w.phase === phase)
      const sum = (f) => ws.reduce((s, w) => s + f(w), 0)
      return [
        phase === 'swap' ? `a reload every ${o.reloadEveryMs} ms` : 'steady',
        ws.map((w) => n0(w.okPerSec)).join(', '),
        ws.map((w) => n2(w.latencyMs.p50)).join(', '),
        ws.map((w) => n2(w.latencyMs.p99)).join(', '),
        sum((w) => Object.values(w.non2xx).reduce((a, b) => a + b, 0) + w.errors + w.timeouts),
        phase === 'swap' ? `${sum((w) => w.swaps)} (${sum((w) => w.failedSwaps)} failed)` : dash,
      ]
    })
    const memory = o.memory
      .map((m) => `${m.isolation} isolation ${m.growthAfterCycles.toFixed(3)}× (${n1(m.returnedOnUnloadMiB)} MiB given back per unload)`)
      .join(', ')
    return {
      notes: [
        `${o.connections} connections, malloc ${o.allocator}; per window.`,
        `Resident memory after ${o.memory[0]?.cycles ?? dash} load/unload cycles ÷ after the first unload: ${memory}.`,
      ],
      rows: table(['windows', '2xx/s', 'p50 ms', 'p99 ms', 'non-2xx and errors', 'reloads'], rows),
    }
  },

  slo(r) {
    const s = r.slo
    const rows = []
    const find = (model, pattern, deadlineMs, load, policy) =>
      s.medians.find(
        (m) => m.model === model && m.pattern === pattern && m.deadlineMs === deadlineMs && m.load === load && m.policy === policy,
      )
    const policies = ['deadline', 'count', 'max-queue-delay']
    const cells = (key, load, format) => policies.map((policy) => format(find(...key, load, policy))).join(' / ')
    for (const model of s.options.models)
      for (const pattern of s.options.patterns)
        for (const deadlineMs of s.options.deadlinesMs) {
          const key = [model, pattern, deadlineMs]
          rows.push([
            `${model}, ${pattern}, ${deadlineMs} ms`,
            cells(key, 0.5, (m) => (m === undefined ? dash : (m.attainment * 100).toFixed(2))),
            cells(key, 2, (m) => (m === undefined ? dash : `${ratio(m.goodputVsCapacity)} (${n0(m.wastedRows)})`)),
          ])
        }
    const caps = s.models.map((m) => `${m.model} ${n0(m.capacityRowsPerSec)} rows/s (closed loop ${n0(m.closedLoopRowsPerSec)})`).join(', ')
    const missed = s.targets.filter((t) => !t.met).map((t) => `${t.id} (${t.model}, ${t.pattern}, ${t.deadlineMs} ms)`)
    return {
      notes: [
        `Capacity: ${caps}; medians of ${s.options.rounds} rounds; each cell deadline-aware / count/time / Triton max_queue_delay.`,
        `Targets missed: ${missed.length ? missed.join(', ') : 'none'}.`,
      ],
      rows: table(['model, arrivals, deadline', '0.5×: within deadline, %', '2×: goodput ÷ capacity (wasted rows)'], rows),
    }
  },

  bulk(r) {
    const b = r.bulk
    const o = b.options
    const target = (id, model) => b.targets.find((t) => t.id === id && t.model === model)
    const windows = (backlog) => b.online.windows.filter((w) => w.backlog === backlog)
    const list = (xs, format) => xs.map(format).join(', ')
    const models = b.throughput
    return {
      notes: [
        `nats-server ${b.natsServerVersion} on the same cores; replicas ${o.replicas}, max batch ${o.maxBatchSize}, ${b.intraOpThreads} intra-op thread(s); ${o.rounds} interleaved round(s).`,
        `Throughput: binary single-row requests drained by \`inferpool consume\` ÷ the in-process pool (same replicas, batch, rows in flight) on ${models.map((t) => `${t.model} (${t.description})`).join(', ')}.`,
        `Online: ${o.onlineRatePerSec} single-row JSON requests/s over HTTP (Poisson), ${o.window.durationMs} ms windows, to \`inferpool serve --nats\` with a bulk backlog ÷ without (a backlog left at a window's end lasted it).`,
      ],
      rows: table(
        ['measure', 'per round', 'ratio'],
        [
          [
            `rows/s consume / pool: ${models.map((t) => t.model).join('; ')}`,
            models.map((t) => `${list(t.consumeRowsPerSec, n0)} / ${list(t.poolRowsPerSec, n0)}`).join('; '),
            models.map((t) => judged(target('consume-vs-pool', t.model), ratio)).join('; '),
          ],
          [
            'online p99 ms with / without a backlog; backlog start → end, bulk rows/s',
            `${list(windows(true), (w) => ms(w.answered.p99))} / ${list(windows(false), (w) => ms(w.answered.p99))}; ` +
              list(windows(true), (w) => `${n0(w.backlogAtStart)} → ${n0(w.backlogAtEnd)}, ${n0(w.bulkRowsPerSec)}`),
            judged(target('online-p99-with-backlog'), ratio),
          ],
        ],
      ),
    }
  },
}

/** Whether a result holds a scenario's figures. */
function holds(r, scenario) {
  const key = scenario === 'third-party' ? 'thirdParty' : scenario
  const v = r[key]
  if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) return false
  return !(r.errors ?? []).some((e) => e.scenario === scenario)
}

/** The charts (`src/charts.ts`) that draw each scenario's figures. */
const chartsOf = {
  pool: ['throughput', 'latency'],
  shapes: ['heatmap'],
  http: ['http'],
  'third-party': ['replicas'],
  memory: ['replicas'],
  slo: ['slo-attainment', 'slo-goodput'],
}

function sourceLine(scenario, file, r) {
  const m = r.machine ?? {}
  const when = (r.startedAt ?? m.date ?? '').slice(0, 16).replace('T', ' ')
  const commit = m.commit ? `, commit \`${m.commit}\`` : ''
  const charts = (r.charts ?? []).filter(
    (c) => (chartsOf[scenario] ?? []).some((name) => c.endsWith(`Z-${name}.svg`)) && existsSync(`${resultsDir}/${c}`),
  )
  const chartLinks = charts.length
    ? `; charts: ${charts.map((c) => `[${c.replace(/^.*Z-/, '').replace(/\.svg$/, '')}](results/${c})`).join(', ')}`
    : ''
  return `From [\`results/${file}\`](results/${file}) (${when} UTC${commit}, load ${m.loadAverage1m} at start${chartLinks}).`
}

function render(scenario, files) {
  const file = files.find((f) => holds(f.result, scenario))
  if (file === undefined) return [`No result in \`bench/results\` yet: \`pnpm bench --only ${scenario}\`.`]
  const { notes, rows } = renderers[scenario](file.result)
  return [[sourceLine(scenario, file.name, file.result), ...notes].join(' '), '', ...rows]
}

const files = readdirSync(resultsDir)
  .filter((f) => /^bench-.*Z\.json$/.test(f))
  .sort()
  .reverse()
  .map((name) => ({ name, result: JSON.parse(readFileSync(`${resultsDir}/${name}`, 'utf8')) }))
  .filter((f) => !f.result.quick)

const before = readFileSync(readmePath, 'utf8')
let after = before
const region = /(<!-- table:([a-z-]+):start -->\n)[\s\S]*?(<!-- table:\2:end -->)/g
const seen = new Set()
after = after.replace(region, (_, start, scenario, end) => {
  if (!(scenario in renderers)) throw new Error(`README.md: no renderer for the table "${scenario}"`)
  seen.add(scenario)
  return `${start}${render(scenario, files).join('\n')}\n\n${end}`
})
for (const scenario of Object.keys(renderers)) {
  if (!seen.has(scenario)) console.error(`README.md has no table:${scenario} markers; left out`)
}

if (process.argv.includes('--check')) {
  if (after !== before) {
    console.error('bench/README.md is not what the result JSON renders: run `pnpm --filter @inferpool/bench run readme`')
    process.exit(1)
  }
} else if (after !== before) {
  writeFileSync(readmePath, after)
  console.log(`bench/README.md: ${seen.size} tables rendered`)
} else {
  console.log('bench/README.md: up to date')
}
