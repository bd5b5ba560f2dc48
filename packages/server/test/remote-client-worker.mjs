// A client thread: calls a pool living in the main thread and reports what it saw,
// including how errors arrived (class, code, details) on this side of the port.
import { parentPort, workerData } from 'node:worker_threads'
import { InferpoolError } from '@inferpool/core'
import { connectPool, InvalidInputError, RemotePoolClosedError } from '@inferpool/host'

const remote = await connectPool(workerData.port)
const report = (type, value) => parentPort.postMessage({ type, ...value })

if (workerData.script === 'hang') {
  // A call that never gets its batch; the thread is then terminated by the test.
  remote.infer({ input: new Float32Array(256) }).catch(() => {})
  report('submitted', {})
} else {
  const input = Float32Array.from({ length: 256 }, (_, i) => (i % 7) / 7)
  const copy = input.slice()
  const out = await remote.infer({ input })
  report('result', {
    inputByteLength: input.byteLength,
    sent: Array.from(copy),
    output: {
      type: out.output.type,
      dims: out.output.dims,
      data: Array.from(out.output.data),
      isFloat32: out.output.data instanceof Float32Array,
    },
  })
  try {
    await remote.infer({ nope: new Float32Array(3) })
  } catch (error) {
    report('error', {
      name: error.name,
      code: error.code,
      message: error.message,
      details: error.details,
      isInvalidInputError: error instanceof InvalidInputError,
      isInferpoolError: error instanceof InferpoolError,
    })
  }
  await remote.close()
  const afterClose = await remote.infer({ input: new Float32Array(256) }).catch((error) => error)
  report('closed', { code: afterClose.code, isClosedError: afterClose instanceof RemotePoolClosedError })
}
