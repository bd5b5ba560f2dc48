/**
 * `pnpm bench compare` runs each side from its own checkout: `inferpool serve` and an
 * agent process importing that checkout's packages. Here both run from this checkout
 * (the ref's worktree takes a full install and build, too slow for a test); the figures
 * are never looked at, only that every probe gets answers and every process ends.
 */
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveCommit } from '../src/compare/ref-checkout.js'
import { expectAnswer, startAgent, startServe, stopChild, type Agent, type Serve } from '../src/compare/side.js'
import { readModelInfo, type ModelInfo } from '../src/model.js'
import { repoRoot } from '../src/paths.js'
import { doorRequest } from '../src/scenarios/http.js'
import { poolRows } from '../src/scenarios/pool.js'

const model = fileURLToPath(new URL('../../packages/host/models/demo-mlp.onnx', import.meta.url))
let info: ModelInfo

beforeAll(async () => {
  info = await readModelInfo(model)
})

describe("a side's inferpool serve", () => {
  let serve: Serve | undefined
  afterAll(async () => {
    if (serve) await stopChild(serve.child)
  })

  it('listens on 127.0.0.1 with HTTP and gRPC, answers the door probe, and ends on stop', async () => {
    serve = await startServe(repoRoot, model, 'bench')
    expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(serve.grpcPort).toEqual(expect.any(Number))
    const request = doorRequest(info, 'json', 1)
    const response = await fetch(`${serve.url}/v2/models/bench/infer`, { method: 'POST', headers: request.headers, body: request.body })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { outputs: Array<{ name: string; shape: number[] }> }
    expect(body.outputs.map((o) => [o.name, o.shape])).toEqual([['output', [1, 16]]])
    // A request the side refuses fails its probe with the side's own words.
    await expect(expectAnswer(`${serve.url}/v2/models/bench/infer`, request)).resolves.toBeUndefined()
    await expect(expectAnswer(`${serve.url}/v2/models/nope/infer`, request)).rejects.toThrow(
      "this version answers HTTP 404: Unknown model 'nope'",
    )
    await stopChild(serve.child)
    expect(serve.child.exitCode !== null || serve.child.signalCode !== null).toBe(true)
  })
})

describe("a side's agent", () => {
  let agent: Agent | undefined
  afterAll(async () => {
    await agent?.stop()
  })

  it('answers the pool and core probes with their figures, and exits once stopped', async () => {
    agent = await startAgent(repoRoot)
    const pool = await agent.ask({ type: 'pool', model, rows: poolRows(info), callers: 2, window: { warmupMs: 0, durationMs: 50 } })
    expect(Object.keys(pool).sort()).toEqual(['p50Ms', 'rowsPerSec'])
    const core = await agent.ask({ type: 'core', items: 2_000, producers: 4, maxBatchSize: 8 })
    expect(Object.keys(core)).toEqual(['itemsPerSec'])
    await agent.stop()
    expect(agent.child.exitCode).toBe(0)
  })

  it('rejects a probe that fails there with its error, and keeps serving the next', async () => {
    agent = await startAgent(repoRoot)
    await expect(
      agent.ask({
        type: 'pool',
        model: '/nonexistent/model.onnx',
        rows: poolRows(info),
        callers: 1,
        window: { warmupMs: 0, durationMs: 10 },
      }),
    ).rejects.toThrow(/nonexistent\/model\.onnx/)
    expect(Object.keys(await agent.ask({ type: 'core', items: 1_000, producers: 2, maxBatchSize: 4 }))).toEqual(['itemsPerSec'])
  })

  it('fails to start, with the reason, where the checkout has no build', async () => {
    await expect(startAgent('/nonexistent-checkout')).rejects.toThrow(
      /compare agent \(\/nonexistent-checkout\) exited with code 1: .*Cannot find module/s,
    )
  })
})

describe('resolveCommit', () => {
  it('gives the full commit of a ref, and names the ref it cannot find', async () => {
    expect(await resolveCommit(repoRoot, 'HEAD')).toMatch(/^[0-9a-f]{40}$/)
    await expect(resolveCommit(repoRoot, 'no-such-ref-21')).rejects.toThrow(new Error(`not a commit in ${repoRoot}: "no-such-ref-21"`))
  })
})
