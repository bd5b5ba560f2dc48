/**
 * `createConsumer`: pulls inference requests from a JetStream work queue into pools,
 * publishes each result, and acknowledges a request only once the results stream has
 * acknowledged its result.
 *
 * Exactly one result per request (README.md, "Exactly once"): a result carries
 * `Nats-Msg-Id: <requests stream>:<request seq>`, so when a request is delivered again
 * after its result was stored but before its ack arrived (a crash, a lost ack, the NATS
 * server going away), the second result is dropped by the results stream's duplicate
 * window, which `ensureStreams` checks outlasts every redelivery. A request leaves the
 * work queue only by its ack (a result is stored) or its term (a dead letter is stored):
 * whatever dies in between, the request is delivered again.
 */
import { setMaxListeners } from 'node:events'
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import type { Consumer, ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream'
import { Match, connect, headers } from '@nats-io/transport-node'
import type { MsgHdrs, NatsConnection } from '@nats-io/transport-node'
import type { ServedPool } from '@inferpool/server'
import type { Registry } from 'prom-client'
import { MaxDeliverError } from './errors.js'
import { HEADER_LENGTH_HEADER, codeLabel, exchange, failureOf } from './exchange.js'
import type { ExchangeResult } from './exchange.js'
import { ConsumeMetrics } from './metrics.js'
import { OnlineWatch } from './online-watch.js'
import { durableName, resolveConsumerOptions } from './options.js'
import { StreamPublisher } from './publisher.js'
import type { ConsumerOptions, ResolvedConsumerOptions } from './options.js'
import { consumerConfig, ensureConsumer, ensureStreams } from './streams.js'

/** The headers a result and a dead letter carry. */
export const CONSUME_HEADERS = {
  /** The request's sequence in the requests stream. */
  requestSeq: 'Inferpool-Request-Seq',
  /** The request's `id`, or its `Nats-Msg-Id` when it has none. */
  requestId: 'Inferpool-Request-Id',
  /** A dead letter's error code (`ERR_INVALID_INPUT`, `ERR_MAX_DELIVER`…). */
  errorCode: 'Inferpool-Error-Code',
  /** A dead letter's error message. */
  errorMessage: 'Inferpool-Error-Message',
  /** How many times the dead-lettered request had been delivered. */
  deliveries: 'Inferpool-Deliveries',
  /** JetStream's de-duplication id: `<requests stream>:<request seq>`. */
  msgId: 'Nats-Msg-Id',
} as const

/** The version a result names (`model_version`): the consumer serves one version per model. */
const MODEL_VERSION = '1'

/** How often a pool is checked for online rows, and how long after the last one the consumer takes its full share again (`OnlineWatch`). */
const ONLINE_SAMPLE_MS = 20
const ONLINE_QUIET_MS = 1000

/** How long one pull stays open for requests to arrive: the longest `close` waits for the open one to end. */
const PULL_EXPIRES_MS = 1000

/** How long a result or a dead letter waits for its stream's PubAck (as `js.publish`'s default) before its request is left for redelivery. */
const PUBLISH_TIMEOUT_MS = 5000

/** Longest header value echoed from a request or an error (a client-given `id`, a message naming its input). */
const MAX_HEADER_VALUE = 1024

/** NATS header values cannot hold CR or LF; client-given text is bounded and kept on one line. */
function headerValue(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ')
  return line.length > MAX_HEADER_VALUE ? `${line.slice(0, MAX_HEADER_VALUE)}…` : line
}

function header(msg: JsMsg, name: string): string | undefined {
  const value = msg.headers?.get(name, Match.IgnoreCase)
  return value === undefined || value === '' ? undefined : value
}

/** A plain snapshot of what the consumer has done since it started. */
export interface ConsumerStats {
  /** Requests delivered to this process and not yet settled. */
  readonly inFlight: number
  /** Results stored (not counting duplicates). */
  readonly results: number
  /** Results the results stream dropped as the duplicate of one it had. */
  readonly duplicates: number
  readonly deadLetters: number
  /** Requests given back with a nak, to be delivered again. */
  readonly retries: number
  /** Requests delivered to this process that had been delivered before. */
  readonly redeliveries: number
}

type MutableStats = { -readonly [K in keyof ConsumerStats]: ConsumerStats[K] }

export class InferpoolConsumer {
  readonly #options: ResolvedConsumerOptions
  readonly metrics: ConsumeMetrics
  readonly #stats: MutableStats = { inFlight: 0, results: 0, duplicates: 0, deadLetters: 0, retries: 0, redeliveries: 0 }
  #nc: NatsConnection | undefined
  #js: JetStreamClient | undefined
  #jsm: JetStreamManager | undefined
  #publisher: StreamPublisher | undefined
  readonly #durables = new Map<string, string>()
  /** Delivered and not settled: `working()` keeps their ack wait from running out. */
  readonly #inFlight = new Set<JsMsg>()
  /** Every request's handling, until it settles: `close` waits on them. */
  readonly #handling = new Set<Promise<void>>()
  readonly #iterators = new Set<ConsumerMessages>()
  readonly #loops: Promise<void>[] = []
  /** No more pulling: set by `close` and `destroy`. */
  #stopping = false
  /** Aborted by `destroy`: in-flight requests are cut short and left unacknowledged (to be redelivered). */
  readonly #hard = new AbortController()
  #working: NodeJS.Timeout | undefined
  #started: Promise<void> | undefined
  #closing: Promise<void> | undefined

  constructor(options: ConsumerOptions, registry?: Registry) {
    this.#options = resolveConsumerOptions(options)
    // Every request in flight listens on it (at most max ack pending per model), not a leak.
    setMaxListeners(0, this.#hard.signal)
    this.metrics = new ConsumeMetrics([...this.#options.pools.keys()], (model) => this.#lag(model), registry)
  }

  get stats(): ConsumerStats {
    return { ...this.#stats }
  }

  /**
   * Connects, creates or checks the streams and each model's durable consumer, and
   * starts pulling. Resolves once every model is consumed (a loading pool is waited
   * for); rejects with the first failure (a stream setting, no NATS server), the
   * connection then closed.
   */
  start(): Promise<void> {
    this.#started ??= this.#start()
    return this.#started
  }

  async #start(): Promise<void> {
    const options = this.#options
    try {
      // `noAsyncTraces`: otherwise every publish captures a stack trace for an error it almost never raises (a tenth of the CPU per request).
      const nc = await connect({
        servers: [...options.servers],
        name: options.connectionName,
        maxReconnectAttempts: -1,
        noAsyncTraces: true,
      })
      this.#nc = nc
      void this.#logStatus(nc)
      this.#jsm = await jetstreamManager(nc)
      this.#js = jetstream(nc)
      this.#publisher = new StreamPublisher(nc, PUBLISH_TIMEOUT_MS)
      await ensureStreams(this.#jsm, options)
      // A third of the ack wait: two `working()` may be lost before a request is redelivered under us.
      this.#working = setInterval(() => this.#keepWorking(), Math.max(1, Math.floor(options.ackWaitMs / 3)))
      this.#working.unref()
      await Promise.all([...options.pools].map(([model, pool]) => this.#startModel(model, pool)))
    } catch (error) {
      this.#stopping = true
      clearInterval(this.#working)
      this.#publisher?.close()
      await this.#nc?.close().catch(() => {})
      throw error
    }
  }

  async #startModel(model: string, loading: ServedPool | Promise<ServedPool>): Promise<void> {
    const options = this.#options
    const pool = await loading
    const { replicas, maxBatchSize } = pool.metadata
    const maxAckPending = options.maxAckPending ?? replicas * maxBatchSize * 2
    const onlineMaxInFlight = Math.min(maxAckPending, options.onlineMaxInFlight ?? Math.max(1, Math.ceil(maxBatchSize / 16)))
    const durable = durableName(options.durablePrefix, model)
    await ensureConsumer(this.#jsm!, options.streams.requests, consumerConfig(options, durable, model, maxAckPending))
    this.#durables.set(model, durable)
    const consumer = await this.#js!.consumers.get(options.streams.requests, durable)
    if (this.#stopping) return
    this.#loops.push(this.#pull(model, pool, consumer, maxAckPending, onlineMaxInFlight))
    options.logger.info(
      `inferpool consume: model ${model} from ${options.subjects.requests}.${model} (consumer ${durable}, max ack pending ${maxAckPending})`,
    )
  }

  /**
   * Pulls a model's requests until the consumer stops, one `fetch` at a time, each for
   * what the in-flight cap leaves room for, open at most `PULL_EXPIRES_MS`. The cap is
   * `maxAckPending`, or `onlineMaxInFlight` while the pool serves online rows.
   *
   * Not `consume()`: stopping it unsubscribes while its pull requests are still open on
   * the server, which goes on delivering into the closed inbox; those requests then wait
   * out the ack wait before anyone gets them. A fetch is never abandoned: `close` lets the
   * open one end (at most `PULL_EXPIRES_MS`) and handles all it delivered.
   */
  async #pull(model: string, pool: ServedPool, consumer: Consumer, maxAckPending: number, onlineMaxInFlight: number): Promise<void> {
    const handling = new Set<Promise<void>>()
    const online = new OnlineWatch(pool, ONLINE_SAMPLE_MS, ONLINE_QUIET_MS)
    while (!this.#stopping) {
      const cap = online.active ? onlineMaxInFlight : maxAckPending
      // Pull when half the cap is free, so that a pull brings a batch, not one request at a time.
      if (cap - handling.size < Math.ceil(cap / 2)) {
        await Promise.race(handling)
        continue
      }
      let messages: ConsumerMessages
      try {
        messages = await consumer.fetch({ max_messages: cap - handling.size, expires: PULL_EXPIRES_MS })
      } catch (error) {
        this.#options.logger.warn(`inferpool consume: pulling ${model} failed, retrying: ${(error as Error).message}`)
        await this.#pause(this.#options.retryDelayMs)
        continue
      }
      this.#iterators.add(messages)
      // The requests of one socket read reach the iterator one microtask apart, and the
      // pool forms a batch in a microtask of its own: handled as they come, the first
      // would run alone. Gathered until the reads of this turn are in, and submitted in
      // one go, they make one batch.
      let arrived: JsMsg[] = []
      const submit = (): void => {
        const these = arrived
        arrived = []
        for (const msg of these) {
          const handled = this.#handle(model, pool, online, msg)
          handling.add(handled)
          this.#track(handled)
          void handled.finally(() => handling.delete(handled))
        }
      }
      try {
        for await (const msg of messages) {
          if (arrived.push(msg) === 1) setImmediate(submit)
        }
      } catch (error) {
        // The server away (heartbeats missed), or `destroy`: pull again once it is back.
        if (!this.#stopping) {
          this.#options.logger.warn(`inferpool consume: pulling ${model} stopped, retrying: ${(error as Error).message}`)
          await this.#pause(this.#options.retryDelayMs)
        }
      } finally {
        this.#iterators.delete(messages)
        // What arrived is handled before the next pull counts what is in flight.
        submit()
      }
    }
  }

  #track(handling: Promise<void>): void {
    this.#handling.add(handling)
    void handling.finally(() => this.#handling.delete(handling))
  }

  /** Settles one request: a result (then ack), a dead letter (then term), a nak, or, after `destroy` or a lost connection, nothing (it is redelivered). Never rejects. */
  async #handle(model: string, pool: ServedPool, online: OnlineWatch, msg: JsMsg): Promise<void> {
    const options = this.#options
    const deliveries = msg.info.deliveryCount
    this.#inFlight.add(msg)
    this.#stats.inFlight++
    this.metrics.inFlight.inc({ model })
    if (deliveries > 1) {
      this.#stats.redeliveries++
      this.metrics.redeliveries.inc({ model })
    }
    try {
      if (deliveries > options.maxDeliver) {
        const error = new MaxDeliverError(deliveries, options.maxDeliver)
        await this.#deadLetter(model, msg, error.code, error.message)
        return
      }
      let result: ExchangeResult
      try {
        result = await exchange(pool, model, MODEL_VERSION, msg.data, header(msg, HEADER_LENGTH_HEADER), {
          maxRows: options.maxRowsPerRequest,
          timeoutMs: options.timeoutMs,
          signal: this.#hard.signal,
          queued: (rows) => online.queued(rows),
          ...options.queuePlace(model),
        })
      } catch (error) {
        if (this.#hard.signal.aborted) return
        const failure = failureOf(error)
        if (failure.internal)
          options.logger.warn(`inferpool consume: ${model} request ${msg.seq} failed: ${(error as Error)?.stack ?? String(error)}`)
        // A failure that is not a mere refusal (a crashed replica, a timeout) counts
        // against the request: on its last delivery it is dead-lettered, not given back.
        if (failure.verdict === 'dead' || (!failure.transient && deliveries >= options.maxDeliver)) {
          await this.#deadLetter(model, msg, failure.code, failure.message)
        } else {
          msg.nak(options.retryDelayMs)
          this.#stats.retries++
          this.metrics.retries.inc({ model, code: failure.label })
        }
        return
      }
      await this.#publishResult(model, msg, result)
    } catch (error) {
      // Publishing failed (the NATS server away longer than the publish timeout): the
      // request stays unacknowledged and is delivered again; its result, if it was
      // stored after all, makes the next one a duplicate.
      if (!this.#hard.signal.aborted) {
        this.#options.logger.warn(`inferpool consume: ${model} request ${msg.seq} left for redelivery: ${(error as Error).message}`)
      }
    } finally {
      this.#inFlight.delete(msg)
      this.#stats.inFlight--
      this.metrics.inFlight.dec({ model })
    }
  }

  #msgId(msg: JsMsg): string {
    return `${this.#options.streams.requests}:${msg.seq}`
  }

  async #publishResult(model: string, msg: JsMsg, result: ExchangeResult): Promise<void> {
    const h = headers()
    h.set(CONSUME_HEADERS.requestSeq, String(msg.seq))
    const id = result.id ?? header(msg, CONSUME_HEADERS.msgId)
    if (id !== undefined) h.set(CONSUME_HEADERS.requestId, headerValue(id))
    if (result.headerLength !== undefined) h.set(HEADER_LENGTH_HEADER, String(result.headerLength))
    h.set(CONSUME_HEADERS.msgId, this.#msgId(msg))
    const ack = await this.#publisher!.publish(`${this.#options.subjects.results}.${model}`, result.body, h)
    // Only now is the result safe: the request may leave the queue.
    msg.ack()
    if (ack.duplicate) {
      this.#stats.duplicates++
      this.metrics.duplicates.inc({ model })
    } else {
      this.#stats.results++
      this.metrics.results.inc({ model })
    }
  }

  /** Stores the request (its body and headers, with the error) on the dead-letter subject, then terminates it. */
  async #deadLetter(model: string, msg: JsMsg, code: string, message: string): Promise<void> {
    const h = headers()
    for (const [key, values] of (msg.headers as (MsgHdrs & Iterable<[string, string[]]>) | undefined) ?? []) {
      if (key.toLowerCase() === 'nats-msg-id' || key.toLowerCase().startsWith('nats-expected-')) continue
      for (const value of values) h.append(key, value)
    }
    h.set(CONSUME_HEADERS.errorCode, code)
    h.set(CONSUME_HEADERS.errorMessage, headerValue(message))
    h.set(CONSUME_HEADERS.requestSeq, String(msg.seq))
    h.set(CONSUME_HEADERS.deliveries, String(msg.info.deliveryCount))
    const id = header(msg, CONSUME_HEADERS.msgId)
    if (id !== undefined) h.set(CONSUME_HEADERS.requestId, headerValue(id))
    h.set(CONSUME_HEADERS.msgId, this.#msgId(msg))
    await this.#publisher!.publish(`${this.#options.subjects.dead}.${model}`, msg.data, h)
    msg.term()
    this.#stats.deadLetters++
    this.metrics.deadLetters.inc({ model, code: codeLabel(code) })
  }

  #keepWorking(): void {
    try {
      for (const msg of this.#inFlight) msg.working()
    } catch {
      // The connection is closing: the requests are delivered again after the ack wait.
    }
  }

  async #lag(model: string): Promise<{ pending: number; ackPending: number } | undefined> {
    const durable = this.#durables.get(model)
    if (durable === undefined || this.#jsm === undefined) return undefined
    const info = await this.#jsm.consumers.info(this.#options.streams.requests, durable)
    return { pending: info.num_pending, ackPending: info.num_ack_pending }
  }

  async #logStatus(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') this.#options.logger.warn(`inferpool consume: disconnected from ${status.server}; reconnecting`)
      else if (status.type === 'reconnect') this.#options.logger.info(`inferpool consume: reconnected to ${status.server}`)
    }
  }

  /** Waits `ms`, or less when the consumer stops. */
  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.#hard.signal
      const stop = (): void => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', stop)
        resolve()
      }, ms)
      signal.addEventListener('abort', stop, { once: true })
    })
  }

  /**
   * Stops pulling (the open pull ends within a second), finishes what was delivered
   * (each request gets its result and its ack, or its dead letter, or its nak), then closes the connection once every ack has
   * been written. A second call waits on the first; `destroy()` still cuts it short.
   */
  close(): Promise<void> {
    this.#closing ??= this.#drain()
    return this.#closing
  }

  async #drain(): Promise<void> {
    this.#stopping = true
    await this.#started?.catch(() => {})
    // Each loop ends with its open pull, whose requests are handled like the rest.
    await Promise.all(this.#loops)
    while (this.#handling.size > 0) await Promise.all(this.#handling)
    clearInterval(this.#working)
    this.#publisher?.close()
    // `drain` writes what is buffered (the last acks) before closing.
    if (!this.#hard.signal.aborted && this.#nc !== undefined && !this.#nc.isClosed()) await this.#nc.drain()
  }

  /**
   * Stops at once: pulling ends, in-flight requests are cut short and left
   * unacknowledged (the server delivers them again after the ack wait), and the
   * connection closes. Wins over a `close()` in progress.
   */
  async destroy(): Promise<void> {
    this.#stopping = true
    this.#hard.abort(new Error('The consumer was destroyed'))
    for (const messages of this.#iterators) messages.stop()
    clearInterval(this.#working)
    this.#publisher?.close()
    await this.#nc?.close().catch(() => {})
    await this.#closing?.catch(() => {})
  }
}

/**
 * A consumer of `options.pools`' models from NATS JetStream (not started: call
 * `start()`). `registry` is a prom-client registry to add its series to (a server's);
 * by default it has its own (`consumer.metrics.registry`).
 */
export function createConsumer(options: ConsumerOptions, registry?: Registry): InferpoolConsumer {
  return new InferpoolConsumer(options, registry)
}
