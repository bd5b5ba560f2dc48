/**
 * A result file names the commit its figures were taken on. A working tree with edits,
 * or a copy of another build sharing a checkout's git link, must not pass for that commit.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkoutCommit } from '../src/machine.js'

let dir: string
const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim()

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'inferpool-machine-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('checkoutCommit', () => {
  it('is null outside a git checkout', () => {
    expect(checkoutCommit(dir)).toBeNull()
  })

  it('names the short commit of a clean checkout, and marks it -dirty once a tracked file differs', () => {
    git('init', '-q')
    writeFileSync(join(dir, 'a.txt'), 'one\n')
    git('add', 'a.txt')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'a')
    const head = git('rev-parse', '--short', 'HEAD')
    expect(checkoutCommit(dir)).toBe(head)

    // An untracked file (a build output, a result file) leaves it clean.
    writeFileSync(join(dir, 'b.txt'), 'untracked\n')
    expect(checkoutCommit(dir)).toBe(head)

    writeFileSync(join(dir, 'a.txt'), 'two\n')
    expect(checkoutCommit(dir)).toBe(`${head}-dirty`)
  })
})
