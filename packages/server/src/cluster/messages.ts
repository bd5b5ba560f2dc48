/**
 * The IPC messages between the primary of `inferpool serve --processes n` and its server
 * processes, defined once for both sides. Every type starts with `inferpool:`, so other
 * messages on the same channel (node:cluster's own, a user's) pass by untouched.
 */
import type { MetricObjectWithValues, MetricValue } from 'prom-client'

/** One registry's metrics as `registry.getMetricsAsJSON()` gives them (plain data: it crosses IPC). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[]

/** Server process → primary. */
export type ToPrimary =
  /** Models loaded and the shared port joined: this process takes connections now. */
  | { type: 'inferpool:ready'; url: string; banner: string[]; grpcAddress?: string }
  /** A client asked this process for `/metrics`: the primary answers with the aggregate of all processes. */
  | { type: 'inferpool:aggregate'; id: number }
  /** This process's own metrics, for an aggregate the primary is building. */
  | { type: 'inferpool:own-metrics'; id: number; metrics: MetricsJson }

/** Primary → server process. */
export type ToServer =
  /** Drain and exit: the primary got SIGTERM or SIGINT. */
  | { type: 'inferpool:shutdown' }
  /** Send your own metrics (`inferpool:own-metrics` with the same id). */
  | { type: 'inferpool:collect'; id: number }
  /** The answer to `inferpool:aggregate`. */
  | { type: 'inferpool:aggregated'; id: number; text: string }
  | { type: 'inferpool:aggregated'; id: number; error: string }

/** Longest wait for one process's own metrics; a process that does not answer is left out of that scrape. */
export const COLLECT_TIMEOUT_MS = 5_000

/** Narrows an IPC message to one of ours. */
export function isOurs<M extends { type: string }>(message: unknown): message is M {
  const type = (message as { type?: unknown } | null)?.type
  return typeof type === 'string' && type.startsWith('inferpool:')
}
