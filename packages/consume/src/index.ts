// @inferpool/consume: bulk inference from NATS JetStream on @inferpool/host pools.
export { createConsumer, InferpoolConsumer, CONSUME_HEADERS } from './consumer.js'
export type { ConsumerStats } from './consumer.js'
export { CONSUMER_DEFAULTS } from './options.js'
export type { ConsumeLogger, ConsumeStreams, ConsumeSubjects, ConsumerOptions } from './options.js'
export { JetStreamSettingError, MaxDeliverError } from './errors.js'
export type { JetStreamObject } from './errors.js'
export { ConsumeMetrics } from './metrics.js'
