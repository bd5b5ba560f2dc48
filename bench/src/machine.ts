import { execFileSync } from 'node:child_process'
import os from 'node:os'
import { hostPackageJson, packageVersion, repoRoot } from './paths.js'

export interface MachineInfo {
  /** Logical cores visible to Node (`os.availableParallelism()`). */
  cores: number
  cpuModel: string
  totalMemoryGiB: number
  platform: string
  arch: string
  node: string
  onnxruntime: string
  piscina: string
  /** 1-minute load average when the run started: a busy machine makes figures noisy. */
  loadAverage1m: number
  /**
   * Git commit of the code under test, when available, with `-dirty` when its tracked
   * files differ from that commit (a working tree with edits, or a copy of another
   * build that shares this checkout's git link): such figures are not that commit's.
   */
  commit: string | null
  date: string
}

/** The commit checked out in a git checkout, and whether its tracked files differ from it. */
export interface CheckoutState {
  /** Short commit of HEAD. */
  commit: string
  /** Tracked files differ from HEAD (untracked files, such as build outputs, do not count). */
  dirty: boolean
}

/** The checkout at `dir`; null outside a git checkout (or without git). */
export function checkoutState(dir: string): CheckoutState | null {
  const git = (args: string[]): string => execFileSync('git', args, { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] }).toString()
  try {
    const commit = git(['rev-parse', '--short', 'HEAD']).trim()
    const dirty = git(['status', '--porcelain', '--untracked-files=no']).trim() !== ''
    return { commit, dirty }
  } catch {
    return null
  }
}

export function machineInfo(): MachineInfo {
  const checkout = checkoutState(repoRoot)
  const commit = checkout && `${checkout.commit}${checkout.dirty ? '-dirty' : ''}`
  return {
    cores: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: os.platform(),
    arch: os.arch(),
    node: process.version,
    onnxruntime: packageVersion('onnxruntime-node'),
    piscina: packageVersion('piscina', hostPackageJson()),
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
    commit,
    date: new Date().toISOString(),
  }
}
