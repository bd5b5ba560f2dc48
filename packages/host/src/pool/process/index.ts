export { createProcessTransport, ProcessTransport, PROCESS_STOP_BOUND_MS } from './process-transport.js'
