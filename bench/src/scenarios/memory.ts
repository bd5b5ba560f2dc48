/**
 * Memory: resident memory of a fresh process holding a pool of N replicas. Each probe
 * is its own child process, so one measurement cannot inherit another's heap, and the
 * N = 0 probe gives the floor (Node + @inferpool/host + onnxruntime-node loaded).
 */
import { fork } from 'node:child_process'
import { basename } from 'node:path'
import { distFile } from '../paths.js'
import type { MemoryProbeConfig, MemoryProbeMessage } from './memory-probe.js'

export interface MemoryPoint {
  kind: 'memory'
  model: string
  replicas: number
  rssAfterLoadMiB: number
  rssAfterRunMiB: number
  /** rssAfterRun minus the 0-replica floor, divided by replicas (null for 0). */
  perReplicaMiB: number | null
}

const PROBE_TIMEOUT_MS = 120_000

export function probe(config: MemoryProbeConfig): Promise<Extract<MemoryProbeMessage, { type: 'done' }>> {
  return new Promise((resolve, reject) => {
    const child = fork(distFile('scenarios', 'memory-probe.js'), [JSON.stringify(config)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    let result: MemoryProbeMessage | undefined
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(
          `memory probe (${config.replicas} replicas, ${config.isolation ?? 'thread'}) did not finish within ${PROBE_TIMEOUT_MS} ms`,
        ),
      )
    }, PROBE_TIMEOUT_MS)
    child.on('message', (m: MemoryProbeMessage) => {
      result = m
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (result?.type === 'done') resolve(result)
      else if (result?.type === 'error') reject(new Error(`memory probe: ${result.message}`))
      else reject(new Error(`memory probe (${config.replicas} replicas) exited with code ${code} without a result`))
    })
  })
}

export async function runMemory(model: string, replicasList: number[], onPoint: (label: string) => void): Promise<MemoryPoint[]> {
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10
  const points: MemoryPoint[] = []
  let floor: number | undefined
  for (const replicas of [0, ...replicasList.filter((r) => r > 0)]) {
    const r = await probe({ model, replicas })
    if (replicas === 0) floor = r.rssAfterRunBytes
    points.push({
      kind: 'memory',
      model: basename(model),
      replicas,
      rssAfterLoadMiB: mib(r.rssAfterLoadBytes),
      rssAfterRunMiB: mib(r.rssAfterRunBytes),
      perReplicaMiB: replicas > 0 && floor !== undefined ? mib((r.rssAfterRunBytes - floor) / replicas) : null,
    })
    onPoint(`memory ${basename(model)}, ${replicas} replica(s)`)
  }
  return points
}
