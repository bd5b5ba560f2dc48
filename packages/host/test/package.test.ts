/**
 * The pool is a package of its own: a program that embeds it installs none of the
 * server's dependencies (grpc-js, prom-client, commander…). Checked on the built files,
 * what an installed tarball runs.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? builtFiles(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : [],
  )
}

/** The package an import specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative and `node:` ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

describe('@inferpool/host as a package', () => {
  it('depends on the pool only: core, worker, piscina, onnxruntime-node, comlink, protobufjs (ONNX external data) and the OpenTelemetry API', () => {
    expect(Object.keys(manifest.dependencies).sort()).toEqual(
      ['@inferpool/core', '@inferpool/worker', '@opentelemetry/api', 'comlink', 'onnxruntime-node', 'piscina', 'protobufjs'].sort(),
    )
  })

  it('imports, in every built file, only its own dependencies and Node built-ins', () => {
    const imported = new Set<string>()
    for (const file of builtFiles(join(root, 'dist'))) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
        const name = packageOf(match[1])
        if (name !== undefined) imported.add(name)
      }
    }
    expect([...imported].filter((name) => !(name in manifest.dependencies))).toEqual([])
    expect(imported.has('@inferpool/core')).toBe(true)
  })
})
