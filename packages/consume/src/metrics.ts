/**
 * The consumer's Prometheus series (prom-client), in a registry of its own or the one a
 * server passes in. Labels are the configured model names and registered error codes
 * only, so a request can never add a series.
 */
import { Counter, Gauge, Registry } from 'prom-client'

/** What the lag gauge reads at each scrape: a model's consumer's pending and unacknowledged counts. */
export type LagSource = (model: string) => Promise<{ pending: number; ackPending: number } | undefined>

export class ConsumeMetrics {
  readonly registry: Registry
  readonly inFlight: Gauge<'model'>
  readonly results: Counter<'model'>
  readonly duplicates: Counter<'model'>
  readonly redeliveries: Counter<'model'>
  readonly deadLetters: Counter<'model' | 'code'>
  readonly retries: Counter<'model' | 'code'>

  constructor(models: readonly string[], lag: LagSource, registry = new Registry()) {
    this.registry = registry
    const registers = [registry]
    this.inFlight = new Gauge({
      name: 'inferpool_consume_in_flight',
      help: 'Requests delivered to this process and not yet acknowledged (or nakked, or terminated).',
      labelNames: ['model'],
      registers,
    })
    this.results = new Counter({
      name: 'inferpool_consume_results_total',
      help: 'Results published and acknowledged by the results stream (rate() of it: results per second).',
      labelNames: ['model'],
      registers,
    })
    this.duplicates = new Counter({
      name: 'inferpool_consume_duplicate_results_total',
      help: "Results the results stream dropped as duplicates: a redelivered request's second result.",
      labelNames: ['model'],
      registers,
    })
    this.redeliveries = new Counter({
      name: 'inferpool_consume_redeliveries_total',
      help: 'Requests delivered to this process that had been delivered before.',
      labelNames: ['model'],
      registers,
    })
    this.deadLetters = new Counter({
      name: 'inferpool_consume_dead_letters_total',
      help: 'Requests sent to the dead-letter subject and terminated, by error code.',
      labelNames: ['model', 'code'],
      registers,
    })
    this.retries = new Counter({
      name: 'inferpool_consume_retries_total',
      help: 'Requests given back (nak with a delay) to be delivered again, by error code.',
      labelNames: ['model', 'code'],
      registers,
    })
    const byModel = async (gauge: Gauge<'model'>, field: 'pending' | 'ackPending'): Promise<void> => {
      gauge.reset()
      for (const model of models) {
        const counts = await lag(model).catch(() => undefined)
        if (counts !== undefined) gauge.set({ model }, counts[field])
      }
    }
    new Gauge({
      name: 'inferpool_consume_lag',
      help: "Requests in the stream not yet delivered to the model's consumer (its num_pending), read at each scrape.",
      labelNames: ['model'],
      registers,
      async collect() {
        await byModel(this, 'pending')
      },
    })
    new Gauge({
      name: 'inferpool_consume_ack_pending',
      help: "Requests delivered to any of the model's consumer processes and not yet acknowledged (num_ack_pending).",
      labelNames: ['model'],
      registers,
      async collect() {
        await byModel(this, 'ackPending')
      },
    })
    for (const model of models) {
      this.inFlight.set({ model }, 0)
      this.results.inc({ model }, 0)
      this.duplicates.inc({ model }, 0)
      this.redeliveries.inc({ model }, 0)
    }
  }
}
