/**
 * A codec: what a pool's requests are and how a batch of them travels — one interface,
 * two implementations, chosen once at start-up, so nothing else branches on the kind of
 * worker:
 * - `tensor` (tensor.ts): the built-in ONNX worker. A request is a row of named typed
 *   arrays, checked against the model at the door, packed into one buffer per input and
 *   transferred; outputs come back as views into one buffer per output.
 * - `user` (user.ts): a user worker (`defineWorker`). A request is any cloneable value,
 *   the batch is the array of them, and the result array has one place per item.
 */
import type { TaskResult } from '@inferpool/worker'
import type { BlockInput, BlockOutput, TensorInfo } from '../../types.js'

/** One attempt's task: packed anew per send (a transferred buffer is detached after the first). */
export interface PackedTask {
  payload: unknown
  transfer: ArrayBuffer[]
  /** Per-input dims, for `onBatchSent`. */
  dims?: Record<string, number[]>
  /** The rows' deadlines and the answer's time once the run starts (`RunTask.deadlines`, `runMs`), with deadline formation. */
  deadlines?: number[]
  runMs?: number
}

export interface Codec<Item> {
  /** The model's inputs and outputs as `pool.metadata` states them. */
  readonly inputs: TensorInfo[]
  readonly outputs: TensorInfo[]
  /** The model's fixed batch size, or `null` when the batch axis is dynamic (or there is no model). */
  readonly fixedBatchSize: number | null
  /** Groups items that may share a batch (rows of one size on an unpadded dynamic axis), if any must be kept apart. */
  readonly batchKey: ((item: Item) => string) | undefined
  /** The cost rule: an item's cost against `maxBatchCost` (a request's own `cost` overrides it). */
  readonly cost: ((item: Item) => number) | undefined
  /** Checks a request at the door and turns it into the queued item; throws `InvalidInputError`. */
  admit(input: unknown): Item
  /**
   * The batch as a worker task, packed anew per send (transferred buffers are detached by a
   * send). `asPieces`: the transport writes the rows where they go itself
   * (`ReplicaTransport.takesPieces`), so a tensor batch comes as its rows' own arrays
   * (pack.ts `BatchPieces`) instead of one packed buffer per input.
   */
  pack(items: readonly Item[], asPieces?: boolean): PackedTask
  /** The worker's result → one output or `Error` per item; throws when the whole batch failed. */
  decode(result: TaskResult, items: readonly Item[]): Array<unknown>
  /** Where the model takes blocks (block.ts): checks one and makes its queued rows; throws `InvalidInputError`. */
  readonly admitBlock?: (inputs: BlockInput) => Item[]
  /** The block's outputs from its rows' results, in row order. */
  readonly joinBlock?: (results: readonly unknown[]) => BlockOutput
}
