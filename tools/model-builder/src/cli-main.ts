/**
 * The CLI's logic, separate from `cli.ts` so tests can run it in-process.
 *
 *   node tools/model-builder/dist/cli.js            regenerate every model into its place
 *   node tools/model-builder/dist/cli.js --check    fail (exit 1) if a committed file differs
 *   node tools/model-builder/dist/cli.js mlp --sizes 256,1024,1024,16 [--seed 1] --out file.onnx
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { checkModels, repoRoot, writeModels } from './catalog.js'
import { serializeModel } from './graph.js'
import { buildMlp, mlpWeights } from './models/mlp.js'

/** Where the CLI writes; injectable for tests. */
export interface CliIo {
  out(line: string): void
  err(line: string): void
  /** Repository root the catalog paths are relative to. */
  root: string
  /** Directory relative `--out` paths resolve against. */
  cwd: string
}

const USAGE = `usage:
  cli.js                 regenerate every model into its place in the repository
  cli.js --check         regenerate in memory; exit 1 if a committed file differs or is missing
  cli.js mlp --sizes 256,1024,1024,16 [--seed 1] [--batch-dim batch] --out <file.onnx>
                         write an MLP of any size (e.g. a heavier bench model)`

/** Run the CLI; resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined) {
    for (const path of await writeModels(io.root)) io.out(`wrote ${path}`)
    return 0
  }
  if (command === '--check') {
    if (rest.length > 0) return usageError(io, `unexpected argument ${JSON.stringify(rest[0])}`)
    const results = await checkModels(io.root)
    const bad = results.filter((r) => r.status !== 'same')
    for (const r of results) io.out(`${r.status.padEnd(7)} ${r.path}`)
    if (bad.length > 0) {
      io.err(`${bad.length} model file(s) do not match the builder; run \`pnpm models\` and commit the result`)
      return 1
    }
    return 0
  }
  if (command === 'mlp') return mlpCommand(rest, io)
  if (command === '--help' || command === '-h') {
    io.out(USAGE)
    return 0
  }
  return usageError(io, `unknown command ${JSON.stringify(command)}`)
}

async function mlpCommand(args: readonly string[], io: CliIo): Promise<number> {
  const flags = new Map<string, string>()
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i]
    const value = args[i + 1]
    if (!['--sizes', '--seed', '--out', '--batch-dim'].includes(flag)) return usageError(io, `unknown option ${JSON.stringify(flag)}`)
    if (value === undefined) return usageError(io, `option ${flag} needs a value`)
    flags.set(flag, value)
  }
  const sizesText = flags.get('--sizes')
  const out = flags.get('--out')
  if (sizesText === undefined || out === undefined) return usageError(io, 'mlp needs --sizes and --out')
  const sizes = sizesText.split(',').map(Number)
  const seedText = flags.get('--seed') ?? '1'
  const seed = Number(seedText)
  if (!Number.isInteger(seed)) return usageError(io, `--seed must be an integer, got ${JSON.stringify(seedText)}`)
  const batchDimText = flags.get('--batch-dim') ?? 'batch'
  const batchDim = /^\d+$/.test(batchDimText) ? Number(batchDimText) : batchDimText
  let bytes: Uint8Array
  try {
    bytes = serializeModel(buildMlp(mlpWeights({ sizes, seed }), { batchDim, name: `mlp-${sizes.join('-')}` }))
  } catch (err) {
    return usageError(io, (err as Error).message)
  }
  const file = resolve(io.cwd, out)
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, bytes)
  io.out(`wrote ${file} (${bytes.length} bytes)`)
  return 0
}

function usageError(io: CliIo, message: string): number {
  io.err(`error: ${message}`)
  io.err(USAGE)
  return 2
}

function defaultIo(): CliIo {
  return {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    root: repoRoot,
    cwd: process.cwd(),
  }
}
