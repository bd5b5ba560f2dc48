// comlink has no `exports` map, and TypeScript looks for `.d.mts` next to an `.mjs`
// file: declare the ESM node adapter's one export here (docs/runtime-facts.md#comlink).
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink'
  import type { MessagePort, Worker } from 'node:worker_threads'
  export default function nodeEndpoint(endpoint: MessagePort | Worker): Endpoint
}
