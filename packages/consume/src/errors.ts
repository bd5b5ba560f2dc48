/**
 * The consumer's own failure modes, each with a stable `code` under `InferpoolError`.
 * Errors of the pool and of the protocol (a bad request, a full queue) keep their codes:
 * a dead letter carries the code of whatever failed.
 */
import { InferpoolError } from '@inferpool/core'

/** Which JetStream object a setting belongs to. */
export type JetStreamObject = 'stream' | 'consumer'

/**
 * An existing stream or durable consumer has a setting the consumer cannot work with
 * (a work queue that is not one, a duplicate window shorter than redelivery can take, a
 * different ack wait). It is not changed behind anyone's back: fix it or delete it.
 */
export class JetStreamSettingError extends InferpoolError {
  static readonly code = 'ERR_JETSTREAM_SETTING'
  constructor(object: JetStreamObject, name: string, setting: string, actual: unknown, expected: string) {
    super(
      JetStreamSettingError.code,
      `The existing ${object} ${name} has ${setting} ${JSON.stringify(actual)}; inferpool consume needs ${expected}`,
      { details: { object, name, setting, actual } },
    )
  }
}

/** A request was delivered more than `maxDeliver` times (it may crash its replica): dead-lettered, not run again. */
export class MaxDeliverError extends InferpoolError {
  static readonly code = 'ERR_MAX_DELIVER'
  constructor(deliveries: number, maxDeliver: number) {
    super(MaxDeliverError.code, `Delivered ${deliveries} times, more than maxDeliver (${maxDeliver}); not run again`, {
      details: { deliveries, maxDeliver },
    })
  }
}

/** Why a result or a dead letter was not stored: `timeout` (no PubAck in time), `no-stream`, `refused` (the stream's error), `not-sent`. */
export type PublishFailure = 'timeout' | 'no-stream' | 'refused' | 'not-sent'

/**
 * A result or a dead letter has no PubAck from its stream. Its request is not
 * acknowledged and is delivered again; should the message have been stored after all,
 * the stream drops the second one as a duplicate (`Nats-Msg-Id`).
 */
export class PublishError extends InferpoolError {
  static readonly code = 'ERR_NATS_PUBLISH'
  constructor(subject: string, reason: PublishFailure, message: string) {
    super(PublishError.code, `Publishing to ${subject} failed (${reason}): ${message}`, { details: { subject, reason }, stack: false })
  }
}
