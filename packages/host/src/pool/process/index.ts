export { createProcessTransport, ProcessTransport } from './process-transport.js'
