import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const host = fileURLToPath(new URL('..', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'inferpool-proto-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

describe('generated protobuf code', () => {
  it('regenerates from proto/*.proto into a fresh folder, identical to the committed files', () => {
    execFileSync(process.execPath, [join(host, 'scripts', 'generate-proto.mjs'), out], { stdio: 'pipe' })
    for (const file of ['inference.js', 'inference.d.ts']) {
      const fresh = readFileSync(join(out, file), 'utf8')
      const committed = readFileSync(join(host, 'generated', file), 'utf8')
      expect([file, fresh === committed]).toEqual([file, true])
    }
  })
})
