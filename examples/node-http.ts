/**
 * inferpool inside a plain `node:http` server, next to the application's own routes.
 *
 *   pnpm --filter @inferpool/examples node-http          (PORT=8000 by default)
 *   curl -s localhost:8000/v2/models/demo                 (metadata)
 *   curl -s localhost:8000/metrics                        (Prometheus)
 *
 * Every HTTP request carries one row (or a few); the pool batches rows of concurrent
 * requests together behind the scenes.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPool } from '@inferpool/host'
import { createRequestHandler } from '@inferpool/server'
import { demoModelPath } from './demo-model.js'

const pool = await createPool({
  model: process.env.MODEL ?? demoModelPath(),
  batching: { maxBatchSize: 64, maxQueueSize: 4096 },
  timeoutMs: 30_000,
})
const inference = createRequestHandler({ demo: pool })

const server = createServer((req, res) => {
  if (req.url === '/') {
    res.setHeader('content-type', 'text/plain')
    res.end('my app; inference under /v2, metrics under /metrics\n')
    return
  }
  inference(req, res)
})

server.listen(Number(process.env.PORT ?? 8000), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo
  console.log(`listening on http://127.0.0.1:${port}`)
})

// Graceful shutdown: stop accepting, answer what is in progress, then free the workers.
async function shutdown(): Promise<void> {
  server.close()
  await inference.close()
  await pool.close()
}
process.once('SIGTERM', () => void shutdown())
process.once('SIGINT', () => void shutdown())
