// An HTTP server in a worker thread whose model is a pool living in the main thread
// (connected over the MessagePort in workerData). Imports the built package by name.
import { parentPort, workerData } from 'node:worker_threads'
import { connectPool } from '@inferpool/host'
import { serve } from '@inferpool/server'

const remote = await connectPool(workerData.port)
const server = await serve({ demo: remote }, { port: 0 })
parentPort.postMessage({ type: 'listening', url: server.url })
const onMessage = async (message) => {
  if (message.type !== 'close') return
  // Nothing else holds the thread once the server is closed: it exits by itself.
  // (`off`, not `removeAllListeners`: only `off` unrefs a MessagePort on Node 20.)
  parentPort.off('message', onMessage)
  const result = await server.close()
  parentPort.postMessage({ type: 'closed', result, pending: remote.pending })
}
parentPort.on('message', onMessage)
