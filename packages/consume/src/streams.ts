/**
 * The JetStream side of the setup: the three streams and one durable pull consumer per
 * model, created when missing and checked when present. A setting the consumer cannot
 * work with is an error naming it (`JetStreamSettingError`), never silently changed:
 * other consumer processes, or the publishers, may rely on it.
 */
import { AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError, RetentionPolicy } from '@nats-io/jetstream'
import type { ConsumerConfig, JetStreamManager, StreamConfig, StreamInfo } from '@nats-io/jetstream'
import { JetStreamSettingError } from './errors.js'
import type { ResolvedConsumerOptions } from './options.js'

const NANOS_PER_MS = 1_000_000

function notFound(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code
}

/** Ensures one stream: added when missing; else its subjects, and what `check` asks, verified. */
async function ensureStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string; subjects: string[] },
  check: (info: StreamInfo) => void,
): Promise<StreamInfo> {
  let info: StreamInfo
  try {
    info = await jsm.streams.info(config.name)
  } catch (error) {
    if (!notFound(error, JetStreamApiCodes.StreamNotFound)) throw error
    try {
      return await jsm.streams.add(config)
    } catch (addError) {
      // Another consumer process added it first: check theirs.
      info = await jsm.streams.info(config.name).catch(() => Promise.reject(addError))
    }
  }
  const [wanted] = config.subjects
  if (!info.config.subjects?.includes(wanted)) {
    throw new JetStreamSettingError('stream', config.name, 'subjects', info.config.subjects ?? [], `them to include "${wanted}"`)
  }
  check(info)
  return info
}

/** Ensures the requests (work queue), results and dead-letter streams. */
export async function ensureStreams(jsm: JetStreamManager, options: ResolvedConsumerOptions): Promise<void> {
  const { streams, subjects, duplicateWindowMs, streamReplicas } = options
  const window = duplicateWindowMs * NANOS_PER_MS
  const checkWindow = (info: StreamInfo): void => {
    if (info.config.duplicate_window < window) {
      throw new JetStreamSettingError(
        'stream',
        info.config.name,
        'duplicate_window',
        `${info.config.duplicate_window / NANOS_PER_MS} ms`,
        `at least ${duplicateWindowMs} ms (maxDeliver × (ackWaitMs + timeoutMs)), or a redelivered request's second result is kept`,
      )
    }
  }
  await ensureStream(
    jsm,
    { name: streams.requests, subjects: [`${subjects.requests}.>`], retention: RetentionPolicy.Workqueue, num_replicas: streamReplicas },
    (info) => {
      if (info.config.retention !== RetentionPolicy.Workqueue) {
        throw new JetStreamSettingError('stream', streams.requests, 'retention', info.config.retention, `"${RetentionPolicy.Workqueue}"`)
      }
    },
  )
  const kept = { retention: RetentionPolicy.Limits, duplicate_window: window, num_replicas: streamReplicas }
  await ensureStream(jsm, { name: streams.results, subjects: [`${subjects.results}.>`], ...kept }, checkWindow)
  await ensureStream(jsm, { name: streams.dead, subjects: [`${subjects.dead}.>`], ...kept }, checkWindow)
}

/** The settings of a model's durable consumer that the consumer relies on. */
export function consumerConfig(
  options: ResolvedConsumerOptions,
  durable: string,
  model: string,
  maxAckPending: number,
): Partial<ConsumerConfig> & { durable_name: string } {
  return {
    durable_name: durable,
    filter_subject: `${options.subjects.requests}.${model}`,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: options.ackWaitMs * NANOS_PER_MS,
    // Unlimited on the server: the consumer itself dead-letters a request delivered more
    // than maxDeliver times, so the request leaves the work queue instead of staying in it
    // undeliverable (which is what the server's own limit would do).
    max_deliver: -1,
    max_ack_pending: maxAckPending,
  }
}

/** Ensures a model's durable pull consumer: added when missing; else each setting it relies on verified. */
export async function ensureConsumer(jsm: JetStreamManager, stream: string, config: ReturnType<typeof consumerConfig>): Promise<void> {
  let existing: Partial<ConsumerConfig>
  try {
    existing = (await jsm.consumers.info(stream, config.durable_name)).config
  } catch (error) {
    if (!notFound(error, JetStreamApiCodes.ConsumerNotFound)) throw error
    try {
      await jsm.consumers.add(stream, config)
      return
    } catch (addError) {
      existing = (await jsm.consumers.info(stream, config.durable_name).catch(() => Promise.reject(addError))).config
    }
  }
  for (const key of ['filter_subject', 'ack_policy', 'ack_wait', 'max_deliver', 'max_ack_pending'] as const) {
    if (existing[key] !== config[key]) {
      const shown = (value: unknown): unknown => (key === 'ack_wait' ? `${Number(value) / NANOS_PER_MS} ms` : value)
      throw new JetStreamSettingError(
        'consumer',
        `${stream} > ${config.durable_name}`,
        key,
        shown(existing[key]),
        `${JSON.stringify(shown(config[key]))} (delete the consumer, or start with the options it was made with)`,
      )
    }
  }
  if ((existing as { deliver_subject?: string }).deliver_subject !== undefined) {
    throw new JetStreamSettingError(
      'consumer',
      `${stream} > ${config.durable_name}`,
      'deliver_subject',
      existing.deliver_subject,
      'a pull consumer',
    )
  }
}
