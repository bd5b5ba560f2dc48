/**
 * Thread mode against process mode (`isolation: 'process'`), same pool shape, same run:
 * both pools stay open and are measured in interleaved rounds — process at the most
 * callers, thread at the most callers, then both at 1 caller — medians reported, so a
 * drift of the machine's load hits both sides of each ratio alike. Then resident
 * memory per replica in both modes, each in a fresh probe process: (everything the
 * pool holds − the 0-replica floor) ÷ replicas, where "everything" is the host's RSS
 * plus, in process mode, every replica process's RSS.
 */
import type { Pool } from '@inferpool/host'
import type { ModelInfo } from '../model.js'
import type { CreatePool } from '../pool-api.js'
import type { Window } from './direct.js'
import { probe } from './memory.js'
import { measurePool, openPool, poolRows, type PoolConfig, type PoolPoint } from './pool.js'
import { median } from './targets.js'

export interface IsolationRound {
  thread: PoolPoint
  process: PoolPoint
  thread1: PoolPoint
  process1: PoolPoint
}

export interface IsolationMemory {
  replicas: number
  floorMiB: number
  /** Host RSS with a thread pool of `replicas`, after requests. */
  threadTotalMiB: number
  /** Host RSS plus every replica process's RSS, after requests. */
  processTotalMiB: number
  /** RSS of each replica process, after requests. */
  processReplicaMiB: number[]
  threadPerReplicaMiB: number
  processPerReplicaMiB: number
}

export interface IsolationResult {
  shape: { replicas: number; concurrency: number; maxBatchSize: number }
  callers: number
  rounds: IsolationRound[]
  median: {
    threadRowsPerSec: number
    processRowsPerSec: number
    threadP50MsAt1: number
    processP50MsAt1: number
  }
  memory: IsolationMemory | null
}

const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10

export async function runIsolation(
  createPool: CreatePool,
  info: ModelInfo,
  shape: { replicas: number; concurrency: number; maxBatchSize: number },
  callers: number,
  roundCount: number,
  window: Window,
  onPoint: (label: string) => void,
): Promise<IsolationResult> {
  const threadConfig: PoolConfig = { ...shape }
  const processConfig: PoolConfig = { ...shape, isolation: 'process' }
  const opened = await Promise.allSettled([openPool(createPool, info, threadConfig), openPool(createPool, info, processConfig)])
  const failed = opened.find((o) => o.status === 'rejected')
  if (failed) {
    await Promise.all(opened.map((o) => (o.status === 'fulfilled' ? o.value.close() : undefined)))
    throw failed.reason
  }
  const [thread, proc] = opened.map((o) => (o as PromiseFulfilledResult<Pool>).value)
  const rounds: IsolationRound[] = []
  try {
    const rows = poolRows(info)
    for (let r = 1; r <= roundCount; r++) {
      // Alternate which mode goes first, so neither always gets the fresher machine.
      const first = r % 2 === 1
      const pair = async (n: number) => {
        const a = first
          ? await measurePool(proc, rows, processConfig, n, window, null)
          : await measurePool(thread, rows, threadConfig, n, window, null)
        const b = first
          ? await measurePool(thread, rows, threadConfig, n, window, null)
          : await measurePool(proc, rows, processConfig, n, window, null)
        return first ? { process: a, thread: b } : { thread: a, process: b }
      }
      const most = await pair(callers)
      const one = await pair(1)
      rounds.push({ thread: most.thread, process: most.process, thread1: one.thread, process1: one.process })
      onPoint(`isolation round ${r}/${roundCount}`)
    }
  } finally {
    await Promise.all([thread.close(), proc.close()])
  }

  const floor = await probe({ model: info.path, replicas: 0 })
  const threadProbe = await probe({ model: info.path, replicas: shape.replicas })
  const processProbe = await probe({ model: info.path, replicas: shape.replicas, isolation: 'process' })
  onPoint('isolation memory')
  const replicaBytes = processProbe.replicaRssBytes ?? []
  const processTotal = processProbe.rssAfterRunBytes + replicaBytes.reduce((a, b) => a + b, 0)
  return {
    shape,
    callers,
    rounds,
    median: {
      threadRowsPerSec: median(rounds.map((x) => x.thread.rowsPerSec)),
      processRowsPerSec: median(rounds.map((x) => x.process.rowsPerSec)),
      threadP50MsAt1: median(rounds.map((x) => x.thread1.latencyMs.p50)),
      processP50MsAt1: median(rounds.map((x) => x.process1.latencyMs.p50)),
    },
    memory: {
      replicas: shape.replicas,
      floorMiB: mib(floor.rssAfterRunBytes),
      threadTotalMiB: mib(threadProbe.rssAfterRunBytes),
      processTotalMiB: mib(processTotal),
      processReplicaMiB: replicaBytes.map(mib),
      threadPerReplicaMiB: mib((threadProbe.rssAfterRunBytes - floor.rssAfterRunBytes) / shape.replicas),
      processPerReplicaMiB: mib((processTotal - floor.rssAfterRunBytes) / shape.replicas),
    },
  }
}
