/**
 * The inferpool server as a user deploys it: `createPool` + `createRequestHandler` on a
 * plain `node:http` server bound to 127.0.0.1. Run as a child process by the bench so
 * that the load generator does not share the server's event loop:
 * `node pool-server.js '<PoolServerConfig JSON>'`.
 */
import { createServer } from 'node:http'
import { createRequestHandler } from '@inferpool/server'
import { createTensorPool } from '../pool-api.js'
import { openPool } from '../scenarios/pool.js'
import { listenAndReport, reportStartupFailure, type PoolServerConfig } from './protocol.js'

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as PoolServerConfig
  const pool = await openPool(createTensorPool, { path: config.model }, config)
  const server = createServer(createRequestHandler({ [config.modelName]: pool }))
  listenAndReport(server, () => pool.close({ drain: false }))
}

main().catch(reportStartupFailure)
