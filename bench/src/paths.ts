import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)

/** bench/ (the package root), from bench/dist/*.js. */
export const benchRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The repository root. */
export const repoRoot = resolve(benchRoot, '..')
export const defaultResultsDir = join(benchRoot, 'results')

/**
 * A built file of the bench (worker threads and child processes must run built `.js`).
 * Resolved from the package root, so it is the same whether the caller was loaded
 * from dist/ (the CLI) or from src/ (vitest transpiling the tests).
 */
export function distFile(...parts: string[]): string {
  return join(benchRoot, 'dist', ...parts)
}

/** The demo MLP shipped with @inferpool/host (input [batch,256] → output [batch,16]). */
export function demoModelPath(): string {
  return join(dirname(require.resolve('@inferpool/host/package.json')), 'models', 'demo-mlp.onnx')
}

/** A real third-party fixed-batch model from the repository's test fixtures, if present. */
export function defaultThirdPartyModel(): string | undefined {
  const candidates = [
    join(repoRoot, 'fixtures', 'models', 'third-party', 'light_squeezenet.onnx'),
    join(repoRoot, 'packages', 'host', 'test', 'fixtures', 'models', 'third-party', 'light_squeezenet.onnx'),
  ]
  return candidates.find((p) => existsSync(p))
}

/** Where @inferpool/host resolves its own dependencies (piscina is not a dependency of bench). */
export function hostPackageJson(): string {
  return require.resolve('@inferpool/host/package.json')
}

/** The `inferpool` launcher of this checkout (@inferpool/server's bin). */
export function serverBin(): string {
  return join(dirname(require.resolve('@inferpool/server/package.json')), 'bin', 'inferpool.js')
}

/** Version of an installed package, read from its package.json. */
export function packageVersion(name: string, from: string = import.meta.url): string {
  const require = createRequire(from)
  try {
    return (require(`${name}/package.json`) as { version: string }).version
  } catch {
    // onnxruntime-node has an exports map without ./package.json: find it from its main file.
    let dir = dirname(require.resolve(name))
    for (let i = 0; i < 5; i++) {
      const p = join(dir, 'package.json')
      if (existsSync(p)) {
        const pkg = require(p) as { name?: string; version: string }
        if (pkg.name === name) return pkg.version
      }
      dir = dirname(dir)
    }
    return 'unknown'
  }
}
