import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import type { Resource } from '@opentelemetry/resources'

/**
 * The resource of a server's spans, built alike on the main thread and on the export
 * thread: OTEL_SERVICE_NAME (and OTEL_RESOURCE_ATTRIBUTES) win over the default name; the
 * pid tells a cluster's processes apart.
 */
export function tracingResource(): Resource {
  return resourceFromAttributes({ 'service.name': 'inferpool', 'process.pid': process.pid }).merge(
    detectResources({ detectors: [envDetector] }),
  )
}
