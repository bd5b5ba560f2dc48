/**
 * Side A of `pnpm bench compare`: the ref checked out in a temporary git worktree,
 * installed from pnpm's store (offline: the store is the cache shared between runs) and
 * built, then removed with the worktree once the comparison ends.
 */
import { execFile, type ExecFileOptions } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { checkoutState } from '../machine.js'

const run = promisify(execFile)

async function exec(command: string, args: string[], options: ExecFileOptions): Promise<string> {
  try {
    const { stdout } = await run(command, args, { maxBuffer: 64 * 2 ** 20, encoding: 'utf8', ...options })
    return String(stdout)
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    const tail = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n')
    throw new Error(`${command} ${args.join(' ')} failed in ${String(options.cwd)}:\n${tail || e.message}`, { cause: error })
  }
}

/** The commit `ref` names in the repository at `repo`; the error echoes the ref. */
export async function resolveCommit(repo: string, ref: string): Promise<string> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repo, encoding: 'utf8' })
    return stdout.trim()
  } catch {
    throw new Error(`not a commit in ${repo}: "${ref}"`)
  }
}

/** The working tree's commit, with "+ uncommitted changes" when it has any. */
export function describeWorkingTree(repo: string): string {
  const checkout = checkoutState(repo)
  if (!checkout) throw new Error(`not a git checkout: ${repo}`)
  return `working tree at ${checkout.commit}${checkout.dirty ? ' + uncommitted changes' : ''}`
}

export interface RefCheckout {
  dir: string
  commit: string
  /** Removes the worktree (and its node_modules and dist/). Safe to call twice. */
  remove(): Promise<void>
}

/** Checks `commit` out into a new temporary worktree, installs and builds it. */
export async function checkoutAndBuild(repo: string, commit: string, say: (line: string) => void): Promise<RefCheckout> {
  const started = performance.now()
  const dir = await mkdtemp(join(tmpdir(), 'inferpool-compare-'))
  let removed = false
  const remove = async (): Promise<void> => {
    if (removed) return
    removed = true
    await run('git', ['worktree', 'remove', '--force', dir], { cwd: repo }).catch(() => {})
    // `worktree remove` refuses some states (a half-made worktree); the directory goes regardless.
    await rm(dir, { recursive: true, force: true })
    await run('git', ['worktree', 'prune'], { cwd: repo }).catch(() => {})
  }
  try {
    say(`compare: checking out ${commit.slice(0, 10)} in ${dir}`)
    await exec('git', ['worktree', 'add', '--detach', dir, commit], { cwd: repo })
    say('compare: pnpm install --frozen-lockfile --offline')
    await exec('pnpm', ['install', '--frozen-lockfile', '--offline'], { cwd: dir, env: { ...process.env, CI: '1' } })
    say('compare: pnpm build')
    await exec('pnpm', ['build'], { cwd: dir })
    say(`compare: ${commit.slice(0, 10)} checked out, installed and built in ${Math.round((performance.now() - started) / 1000)} s`)
    return { dir, commit, remove }
  } catch (error) {
    await remove()
    throw error
  }
}
