/**
 * Overhead of `DynamicBatcher` itself: items per second through a no-op `processBatch`,
 * beside facebook's `dataloader` measured in the same process, same run, same load
 * shape (N concurrent producers, each awaiting one item at a time).
 *
 * The inferpool run switches on every batcher feature in its options — cost budget
 * with a cost function, bounded queue with `whenFull`, several concurrent batches,
 * `batchKey`, `isolateFailures`, `minBatchSize`/`maxWaitMs`, and per-item priorities —
 * so the figure is the cost of the whole machinery, not of a stripped-down path. The
 * limits are set so they do not change the batch shape (the budget and queue bound are
 * never hit): the comparison is overhead, not a different batching policy.
 *
 * Run directly: `node bench/dist/core-overhead.js [items] [producers] [maxBatchSize]`.
 */
import { pathToFileURL } from 'node:url'
import DataLoader from 'dataloader'
import { DynamicBatcher } from '@inferpool/core'

export interface CoreOverheadOptions {
  /** Items per measured round, per contender. @default 500_000 */
  items?: number
  /** Concurrent producers, each awaiting one item at a time. @default 256 */
  producers?: number
  /** @default 128 */
  maxBatchSize?: number
  /** Measured rounds per contender (median reported), after one warm-up round. @default 5 */
  rounds?: number
}

export interface CoreOverheadResult {
  /** Median items/s through DynamicBatcher with every feature on. */
  inferpoolItemsPerSec: number
  /** Median items/s through DataLoader (cache off, same maxBatchSize). */
  dataloaderItemsPerSec: number
  /** inferpool / dataloader (target: >= 1.0). */
  ratio: number
  /** Every measured round, for the record. */
  inferpoolRounds: number[]
  dataloaderRounds: number[]
  /** Mean items per batch in the last inferpool round (a sanity check of the load). */
  inferpoolAvgBatchSize: number
  items: number
  producers: number
  maxBatchSize: number
  rounds: number
}

/** One round's shared count: the next item to submit and how many came back right. */
interface Round {
  next: number
  matched: number
  readonly items: number
}

/**
 * Runs `producers` copies of `producer` over one round of `items` items: items/s. Each
 * contender has its own producer function rather than one taking a `load` callback: V8
 * keeps type feedback per function, so a shared producer's call and `await` would be
 * shaped by whichever contender ran first (differently run to run), and its figure with it.
 */
async function drive(producer: (round: Round) => Promise<void>, items: number, producers: number): Promise<number> {
  const round: Round = { next: 0, matched: 0, items }
  const start = performance.now()
  const running: Array<Promise<void>> = []
  for (let p = 0; p < producers; p++) running.push(producer(round))
  await Promise.all(running)
  const seconds = (performance.now() - start) / 1000
  if (round.matched !== items) throw new Error(`Wrong results: ${round.matched} of ${items} matched`)
  return items / seconds
}

/**
 * Unmeasured rounds each contender runs first. Two, not one: every round makes a new
 * batcher with new `cost`/`batchKey`/`processBatch` closures, and the code optimised in
 * the first round called that round's closures directly. In the next round those calls
 * meet other closures and the code is thrown away ("wrong call target") and optimised
 * again. With one warm-up round, the first measured round paid for that: a median of
 * 3.2 M items/s (2.5–4.1) against 5.1 in the later rounds of the same 14 runs; with two,
 * 5.2 against 4.9. A server makes its batcher once, so this is start-up cost, not
 * overhead per item. Dataloader's first measured round has no such dip (4.7 against 5.2).
 */
export const WARM_UP_ROUNDS = 2

/** `DynamicBatcher`'s constructor: this checkout's, or another build's (`pnpm bench compare`). */
export type DynamicBatcherClass = typeof DynamicBatcher

async function inferpoolRound(items: number, producers: number, maxBatchSize: number): Promise<[number, number]> {
  return batcherRound(DynamicBatcher, items, producers, maxBatchSize)
}

/** One round of `items` items through a DynamicBatcher with every feature on: [items/s, mean batch size]. */
export async function batcherRound(
  Batcher: DynamicBatcherClass,
  items: number,
  producers: number,
  maxBatchSize: number,
): Promise<[number, number]> {
  const batcher = new Batcher<number, number>((batch) => batch, {
    maxBatchSize,
    minBatchSize: Math.max(1, maxBatchSize >> 2),
    maxWaitMs: 1,
    cost: () => 1,
    maxBatchCost: maxBatchSize * 4,
    maxQueueSize: producers * 4,
    whenFull: 'wait',
    maxConcurrentBatches: 2,
    batchKey: () => 0,
    isolateFailures: true,
  })
  // Two priority levels in use, so the priority path is exercised too.
  const batcherProducer = async (round: Round): Promise<void> => {
    while (round.next < round.items) {
      const i = round.next++
      const result = await batcher.submit(i, { priority: i & 1 })
      if (result === i) round.matched++
    }
  }
  const rate = await drive(batcherProducer, items, producers)
  const avg = batcher.stats.avgBatchSize
  await batcher.close()
  return [rate, avg]
}

async function dataloaderRound(items: number, producers: number, maxBatchSize: number): Promise<number> {
  // cache: false — a cache would turn repeated keys into hits and measure a Map instead.
  const loader = new DataLoader<number, number>((keys) => Promise.resolve(keys), { maxBatchSize, cache: false })
  const dataloaderProducer = async (round: Round): Promise<void> => {
    while (round.next < round.items) {
      const i = round.next++
      const result = await loader.load(i)
      if (result === i) round.matched++
    }
  }
  return drive(dataloaderProducer, items, producers)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export async function runCoreOverhead(options: CoreOverheadOptions = {}): Promise<CoreOverheadResult> {
  const items = options.items ?? 500_000
  const producers = options.producers ?? 256
  const maxBatchSize = options.maxBatchSize ?? 128
  const rounds = options.rounds ?? 5
  // Warm-up: let both reach optimised code before anything is measured.
  for (let w = 0; w < WARM_UP_ROUNDS; w++) {
    await inferpoolRound(Math.min(items, 100_000), producers, maxBatchSize)
    await dataloaderRound(Math.min(items, 100_000), producers, maxBatchSize)
  }
  const inferpoolRounds: number[] = []
  const dataloaderRounds: number[] = []
  let inferpoolAvgBatchSize = 0
  // Interleaved, so drift in machine load (it is shared) hits both alike.
  for (let r = 0; r < rounds; r++) {
    const [rate, avg] = await inferpoolRound(items, producers, maxBatchSize)
    inferpoolRounds.push(rate)
    inferpoolAvgBatchSize = avg
    dataloaderRounds.push(await dataloaderRound(items, producers, maxBatchSize))
  }
  const inferpoolItemsPerSec = median(inferpoolRounds)
  const dataloaderItemsPerSec = median(dataloaderRounds)
  return {
    inferpoolItemsPerSec,
    dataloaderItemsPerSec,
    ratio: inferpoolItemsPerSec / dataloaderItemsPerSec,
    inferpoolRounds,
    dataloaderRounds,
    inferpoolAvgBatchSize,
    items,
    producers,
    maxBatchSize,
    rounds,
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [items, producers, maxBatchSize] = process.argv.slice(2).map(Number)
  const result = await runCoreOverhead({
    items: items || undefined,
    producers: producers || undefined,
    maxBatchSize: maxBatchSize || undefined,
  })
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')
  console.log(`DynamicBatcher (all features on): ${fmt(result.inferpoolItemsPerSec)} items/s`)
  console.log(`dataloader (cache off):           ${fmt(result.dataloaderItemsPerSec)} items/s`)
  console.log(`ratio:                            ${result.ratio.toFixed(2)} (target >= 1.00)`)
  console.log(
    `(${result.items.toLocaleString('en-US')} items × ${result.rounds} rounds, ${result.producers} producers, ` +
      `maxBatchSize ${result.maxBatchSize}, median; avg batch ${result.inferpoolAvgBatchSize.toFixed(1)})`,
  )
}
