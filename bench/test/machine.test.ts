/**
 * A result file names the commit its figures were taken on. A working tree with edits,
 * or a copy of another build sharing a checkout's git link, must not pass for that commit.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeWorkingTree } from '../src/compare/ref-checkout.js'
import { checkoutState, machineInfo } from '../src/machine.js'

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

describe('checkoutState', () => {
  it('is null outside a git checkout', () => {
    expect(checkoutState(dir)).toBeNull()
  })

  it('names the short commit of a checkout, and says dirty once a tracked file differs from it', () => {
    git('init', '-q')
    writeFileSync(join(dir, 'a.txt'), 'one\n')
    git('add', 'a.txt')
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'a')
    const head = git('rev-parse', '--short', 'HEAD')
    expect(checkoutState(dir)).toEqual({ commit: head, dirty: false })
    expect(describeWorkingTree(dir)).toBe(`working tree at ${head}`)

    // An untracked file (a build output, a result file) leaves it clean.
    writeFileSync(join(dir, 'b.txt'), 'untracked\n')
    expect(checkoutState(dir)).toEqual({ commit: head, dirty: false })

    writeFileSync(join(dir, 'a.txt'), 'two\n')
    expect(checkoutState(dir)).toEqual({ commit: head, dirty: true })
    expect(describeWorkingTree(dir)).toBe(`working tree at ${head} + uncommitted changes`)
  })
})

describe('machineInfo', () => {
  it("records this checkout's commit, suffixed -dirty exactly when its tracked files differ", () => {
    const checkout = checkoutState(fileURLToPath(new URL('../..', import.meta.url)))
    expect(checkout).not.toBeNull()
    expect(machineInfo().commit).toBe(`${checkout!.commit}${checkout!.dirty ? '-dirty' : ''}`)
  })
})
