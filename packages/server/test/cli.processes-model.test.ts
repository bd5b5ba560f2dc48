/**
 * `inferpool serve --processes n --model name=file`: the primary reads the model file
 * once, before its first fork, and every server process, a replacement after a crash
 * too, loads the primary's private copy of it — whatever has happened to the file on
 * disk since. Real server processes (node:cluster), real pools, real HTTP.
 *
 * The models are y = x⁴ and y = x³ for square matrices x: for a 2×2 matrix of ones every
 * element is 8 under the first and 4 under the second, so each answer tells which model ran it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { buildMatrixPower, serializeModel } from '@inferpool/model-builder'
import { MODEL_DIR_PREFIX } from '../../host/src/pool/process/model-file.js'
import { metric, post } from './server-helpers.js'
import { childPids, poll, startServe, stopAll, tryGet } from './serve-process.js'

afterEach(stopAll)
const scratch = mkdtempSync(join(tmpdir(), 'inferpool-cluster-model-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** y = x^power for square matrices x [batch, n, n] (model-builder's buildMatrixPower). */
const matrixPower = (power: number): Uint8Array => serializeModel(buildMatrixPower(power))

const onesRequest = { inputs: [{ name: 'x', shape: [1, 2, 2], datatype: 'FP32', data: [1, 1, 1, 1] }] }

/**
 * The primary's copy directories (named after its pid) in the OS temp dir, leaving out
 * those in `before`: a process killed with SIGKILL (other tests kill primaries and pool
 * owners) cannot remove its copy, and a later process may get the same pid.
 */
const copiesOf = (pid: number, before: ReadonlySet<string>): string[] =>
  readdirSync(tmpdir()).filter((name) => name.startsWith(`${MODEL_DIR_PREFIX}${pid}-`) && !before.has(name))

describe('inferpool serve --processes 2 --model', () => {
  it('answers from the model it started with after the file is replaced and a server process is replaced, and removes its copy at exit', async () => {
    const file = join(scratch, 'power.onnx')
    writeFileSync(file, matrixPower(4))
    const before = new Set(readdirSync(tmpdir()))
    const server = await startServe(['--port', '0', '--processes', '2', '--replicas', '1', '--model', `power=${file}`])
    const copies = copiesOf(server.pid, before)
    expect(copies).toHaveLength(1)

    writeFileSync(file, matrixPower(3))
    const [victim] = await childPids(server.pid)
    process.kill(victim, 'SIGKILL')
    await poll(async () => {
      const scraped = await tryGet(`${server.url}/metrics`)
      return scraped !== undefined &&
        metric(scraped, 'inferpool_processes_ready', {}) === 2 &&
        metric(scraped, 'inferpool_process_restarts_total', {}) === 1
        ? true
        : undefined
    })
    const now = await childPids(server.pid)
    expect(now).toHaveLength(2)
    expect(now).not.toContain(victim)

    // Fresh connections, which the primary spreads over both processes, the replacement included.
    const answers: unknown[] = []
    for (let i = 0; i < 40; i++) {
      const answer = await post(`${server.url}/v2/models/power/infer`, onesRequest)
      answers.push([answer.status, (answer.json as { outputs: Array<{ data: number[] }> }).outputs[0]?.data])
    }
    const concurrent = await Promise.all(Array.from({ length: 40 }, () => post(`${server.url}/v2/models/power/infer`, onesRequest)))
    for (const answer of concurrent) answers.push([answer.status, (answer.json as { outputs: Array<{ data: number[] }> }).outputs[0]?.data])
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify([200, [8, 8, 8, 8]])]))

    server.child.kill('SIGTERM')
    expect(await server.exit).toBe(0)
    expect(existsSync(join(tmpdir(), copies[0]!))).toBe(false)
    expect(copiesOf(server.pid, before)).toEqual([])
  })

  it('exits 1 before forking when a model file is empty', async () => {
    const file = join(scratch, 'empty.onnx')
    writeFileSync(file, new Uint8Array(0))
    const error = await startServe(['--port', '0', '--processes', '2', '--replicas', '1', '--model', `empty=${file}`]).then(
      () => undefined,
      (e: Error) => e.message,
    )
    expect(error).toContain('inferpool exited with 1 before it was ready')
    expect(error).toContain(`inferpool: a model failed to load: Failed to load model ${file}: the file is empty`)
    expect(error).not.toContain('starting 2 server processes')
  })
})
