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
  /** Git commit of the code under test, when available. */
  commit: string | null
  date: string
}

export function machineInfo(): MachineInfo {
  let commit: string | null
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim()
  } catch {
    commit = null
  }
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
