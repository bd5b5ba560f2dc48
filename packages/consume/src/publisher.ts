/**
 * Publishes results and dead letters to their streams and reads each stream's PubAck,
 * many in flight at once, without `js.publish`'s price per message.
 *
 * `js.publish` is a request per message: a timer of its own, a slot in the connection's
 * request table, and (in @nats-io/nats-core 3.x) an `Error` built with a stack trace
 * when the request is settled, whether or not it failed. At a batch of results per
 * pool run that was a third of the consumer's CPU. The JetStream protocol underneath is
 * a plain publish with a reply subject: the stream that stores the message answers on
 * that subject with `{ stream, seq, duplicate }`, or `{ error }` when it refuses it.
 * Here every publish replies to one subscription (`<inbox>.<n>`), the PubAcks settle a
 * map, and one timer sweeps the publishes no PubAck answered in `timeoutMs`.
 *
 * A publish written in the same tick as others goes out in the same socket write (the
 * client flushes once per microtask turn), so a batch of results costs one write, and
 * their PubAcks come back together.
 */
import { createInbox } from '@nats-io/transport-node'
import type { Msg, MsgHdrs, NatsConnection, Subscription } from '@nats-io/transport-node'
import { PublishError } from './errors.js'

/** What the stream answered: where it stored the message, or that it had it already (`Nats-Msg-Id`). */
export interface PubAck {
  readonly stream: string
  readonly seq: number
  readonly duplicate: boolean
}

interface Waiting {
  readonly subject: string
  readonly resolve: (ack: PubAck) => void
  readonly reject: (error: PublishError) => void
  readonly deadline: number
}

/** The status a NATS server sends to a reply subject when nothing listens on the subject published to. */
const NO_RESPONDERS = 503

export class StreamPublisher {
  readonly #nc: NatsConnection
  readonly #timeoutMs: number
  readonly #inbox = createInbox()
  readonly #sub: Subscription
  /** In publish order, so the oldest deadlines come first. */
  readonly #waiting = new Map<string, Waiting>()
  #next = 0
  readonly #sweep: NodeJS.Timeout

  constructor(nc: NatsConnection, timeoutMs: number) {
    this.#nc = nc
    this.#timeoutMs = timeoutMs
    this.#sub = nc.subscribe(`${this.#inbox}.*`, {
      callback: (error, msg) => {
        if (error === null) this.#answer(msg)
      },
    })
    this.#sweep = setInterval(() => this.#expire(), Math.max(1, Math.floor(timeoutMs / 4)))
    this.#sweep.unref()
  }

  /** Publishes `data` to `subject`; resolves with the stream's PubAck, rejects with a `PublishError`. */
  publish(subject: string, data: Uint8Array, headers: MsgHdrs): Promise<PubAck> {
    const token = String(++this.#next)
    return new Promise<PubAck>((resolve, reject) => {
      try {
        this.#nc.publish(subject, data, { reply: `${this.#inbox}.${token}`, headers })
      } catch (error) {
        reject(new PublishError(subject, 'not-sent', (error as Error).message))
        return
      }
      this.#waiting.set(token, { subject, resolve, reject, deadline: performance.now() + this.#timeoutMs })
    })
  }

  #answer(msg: Msg): void {
    const token = msg.subject.slice(this.#inbox.length + 1)
    const waiting = this.#waiting.get(token)
    if (waiting === undefined) return // Answered after its timeout: the request is redelivered, and its result is a duplicate then.
    this.#waiting.delete(token)
    if (msg.data.length === 0 && msg.headers?.code === NO_RESPONDERS) {
      waiting.reject(new PublishError(waiting.subject, 'no-stream', 'no stream stores this subject'))
      return
    }
    let ack: { stream?: unknown; seq?: unknown; duplicate?: unknown; error?: { code?: unknown; description?: unknown } }
    try {
      ack = msg.json()
    } catch {
      waiting.reject(new PublishError(waiting.subject, 'refused', 'the PubAck is not JSON'))
      return
    }
    if (ack.error !== undefined || typeof ack.stream !== 'string' || typeof ack.seq !== 'number') {
      const description = typeof ack.error?.description === 'string' ? ack.error.description : 'no stream in the PubAck'
      waiting.reject(new PublishError(waiting.subject, 'refused', description))
      return
    }
    waiting.resolve({ stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate === true })
  }

  #expire(): void {
    const now = performance.now()
    for (const [token, waiting] of this.#waiting) {
      if (waiting.deadline > now) break
      this.#waiting.delete(token)
      waiting.reject(new PublishError(waiting.subject, 'timeout', `no PubAck within ${this.#timeoutMs} ms`))
    }
  }

  /** Stops reading PubAcks: publishes still waiting reject (their requests are delivered again). */
  close(): void {
    clearInterval(this.#sweep)
    this.#sub.unsubscribe()
    for (const waiting of this.#waiting.values()) waiting.reject(new PublishError(waiting.subject, 'not-sent', 'the consumer stopped'))
    this.#waiting.clear()
  }
}
