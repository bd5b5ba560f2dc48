/**
 * Where the traced probes' servers export their spans: an OTLP/HTTP endpoint on
 * 127.0.0.1 that reads each export and answers 200, keeping nothing (the probe measures
 * the server's cost of tracing and exporting, not a collector's).
 */
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'

export interface OtlpSink {
  /** http://127.0.0.1:<port>, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string
  close(): Promise<void>
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const server: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' }).end())
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
