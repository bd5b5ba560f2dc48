/**
 * One side's in-process probes for `pnpm bench compare`: the pool through the library
 * and DynamicBatcher alone, run against that side's own build. The bench forks one agent
 * per side: `node agent.js <checkout root>`; the agent imports @inferpool/host and
 * @inferpool/core from that checkout's dist/, so the ref's pool runs the ref's code (and
 * its onnxruntime-node), while the load (the closed loop, the rows) is this bench's.
 *
 * Requests and answers travel over the fork IPC channel ('advanced' serialization: the
 * rows are typed arrays). The pool opens on the first pool request and stays open for
 * the run; the agent ends when its parent goes away.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Pool, RowInput } from '@inferpool/host'
import { runClosedLoop } from '../closed-loop.js'
import { batcherRound, WARM_UP_ROUNDS, type DynamicBatcherClass } from '../core-overhead.js'
import type { Window } from '../scenarios/direct.js'

export type AgentRequest =
  | { id: number; type: 'pool'; model: string; rows: RowInput[]; callers: number; window: Window; isolation?: 'process' }
  | { id: number; type: 'core'; items: number; producers: number; maxBatchSize: number }

export type AgentAnswer = { id: number; ok: true; figures: Record<string, number> } | { id: number; ok: false; message: string }

type CreatePool = (options: { model: string; isolation?: 'process'; logger: Pick<Console, 'warn' | 'info'> }) => Promise<Pool>

const root = process.argv[2]
if (root === undefined) throw new Error('usage: node agent.js <checkout root>')
const host = (await import(pathToFileURL(join(root, 'packages', 'host', 'dist', 'index.js')).href)) as { createPool: CreatePool }
const core = (await import(pathToFileURL(join(root, 'packages', 'core', 'dist', 'index.js')).href)) as {
  DynamicBatcher: DynamicBatcherClass
}

/** This process's child processes (Linux: every thread's `children` list). */
function childProcessCount(): number {
  const task = `/proc/${process.pid}/task`
  let count = 0
  for (const tid of readdirSync(task))
    count += readFileSync(`${task}/${tid}/children`, 'utf8')
      .split(' ')
      .filter((pid) => pid.trim() !== '').length
  return count
}

/** The open pools, by isolation ('thread': createPool's default). */
const pools = new Map<'thread' | 'process', Promise<Pool>>()
let coreWarm = false

async function answer(request: AgentRequest): Promise<Record<string, number>> {
  if (request.type === 'core') {
    // The first request warms the batcher up to optimised code; only later rounds are measured.
    for (let w = 0; !coreWarm && w < WARM_UP_ROUNDS; w++) {
      await batcherRound(core.DynamicBatcher, request.items, request.producers, request.maxBatchSize)
    }
    coreWarm = true
    const [itemsPerSec] = await batcherRound(core.DynamicBatcher, request.items, request.producers, request.maxBatchSize)
    return { itemsPerSec }
  }
  // createPool's defaults: the pool a user of that version gets (with process replicas when asked).
  const isolation = request.isolation ?? 'thread'
  let pool = pools.get(isolation)
  if (pool === undefined) {
    const logger = { warn: () => {}, info: () => {} }
    pool = host.createPool(
      request.isolation === undefined ? { model: request.model, logger } : { model: request.model, isolation: request.isolation, logger },
    )
    pools.set(isolation, pool)
  }
  const open = await pool
  if (isolation === 'process' && childProcessCount() === 0) {
    // A version before process replicas ignores the option and runs threads: its figures would pass for process mode.
    throw new Error('this version has no process replicas (createPool ran isolation: process on threads)')
  }
  const { rows } = request
  let next = 0
  const result = await runClosedLoop({
    callers: request.callers,
    ...request.window,
    call: () => open.infer(rows[next++ % rows.length]),
  })
  return { rowsPerSec: result.rowsPerSec, p50Ms: result.latencyMs.p50 }
}

process.on('message', (request: AgentRequest) => {
  answer(request).then(
    (figures) => process.send?.({ id: request.id, ok: true, figures } satisfies AgentAnswer),
    (error: unknown) =>
      process.send?.({
        id: request.id,
        ok: false,
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies AgentAnswer),
  )
})

// The parent went away (or asked to end by disconnecting): close the pools so their threads and processes end, then exit.
process.once('disconnect', () => {
  void Promise.all([...pools.values()].map((p) => p.then((open) => open.close()).catch(() => {}))).finally(() => process.exit(0))
})
process.send?.({ id: 0, ok: true, figures: {} } satisfies AgentAnswer)
