/**
 * `afterParse()`: resolves once the event loop's current round of socket reads has been
 * parsed, so a request body that came in the same reads as its headers is complete
 * (`req.complete`) and sits in the request's buffer, ready to be read in one call
 * (body.ts `readBuffered`) without the event-driven read's timer, listeners and promise.
 *
 * Node emits 'request' from inside its parser, as soon as the headers are parsed; the
 * body that follows them in the same read is pushed only after the 'request' handler
 * (and the microtasks it queued) returned. A microtask is therefore too early; the
 * event loop's check phase (`setImmediate`), which follows the poll phase that read the
 * socket, is not. One immediate serves every request that arrived in the same round.
 */
let waiting: Array<() => void> = []

function wake(): void {
  const woken = waiting
  waiting = []
  for (let i = 0; i < woken.length; i++) woken[i]()
}

export function afterParse(): Promise<void> {
  return new Promise((resolve) => {
    if (waiting.push(resolve) === 1) setImmediate(wake)
  })
}
