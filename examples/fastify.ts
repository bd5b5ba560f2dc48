/**
 * inferpool mounted in Fastify.
 *
 *   pnpm --filter @inferpool/examples fastify             (PORT=8000 by default)
 *
 * The inferpool handler reads the raw request body itself (with its own size limit and
 * hostile-input checks), so its routes live in a plugin scope where Fastify's body
 * parsing is switched off, and hand the raw request/response over with `reply.hijack()`.
 */
import Fastify from 'fastify'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { createPool } from '@inferpool/host'
import { createRequestHandler } from '@inferpool/server'
import { demoModelPath } from './demo-model.js'

const pool = await createPool({
  model: process.env.MODEL ?? demoModelPath(),
  batching: { maxBatchSize: 64, maxQueueSize: 4096 },
  timeoutMs: 30_000,
})
const inference = createRequestHandler({ demo: pool })

const app = Fastify()
app.get('/', async () => ({ app: 'mine', inference: '/v2', metrics: '/metrics' }))

await app.register(async (scope) => {
  // Leave the body unread for inferpool.
  scope.removeAllContentTypeParsers()
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null))
  const handOver = (request: FastifyRequest, reply: FastifyReply): void => {
    reply.hijack()
    inference(request.raw, reply.raw)
  }
  scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/v2', handler: handOver, exposeHeadRoute: false })
  scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/v2/*', handler: handOver, exposeHeadRoute: false })
  scope.route({ method: ['GET', 'HEAD'], url: '/metrics', handler: handOver, exposeHeadRoute: false })
})

// app.close() (on a signal below) stops accepting, then this finishes inferpool's part.
app.addHook('onClose', async () => {
  await inference.close()
  await pool.close()
})

const address = await app.listen({ port: Number(process.env.PORT ?? 8000), host: '127.0.0.1' })
console.log(`listening on ${address}`)

process.once('SIGTERM', () => void app.close())
process.once('SIGINT', () => void app.close())
