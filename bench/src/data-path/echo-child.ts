/**
 * Child of the data-path bench: echoes each payload back over the path under test.
 *   argv: file <in-file> <out-file>   — read a transfer file, write it back to the out file, notify over IPC
 *   argv: uds <socket-path>           — read 8-byte-aligned frames, write each back
 */
import { openSync } from 'node:fs'
import { connect } from 'node:net'
import { readTransferFile, writeTransferFile } from '@inferpool/worker'
import type { TransferLayout } from '@inferpool/worker'
import { FrameReader, frame } from './frames.js'

const [mode, a, b] = process.argv.slice(2)
if (mode === 'file') {
  const inFd = openSync(a as string, 'r')
  const outFd = openSync(b as string, 'r+')
  process.on('message', (layout: TransferLayout) => {
    const value = readTransferFile(inFd, layout) as { buffer: ArrayBuffer }
    process.send?.(writeTransferFile(outFd, value, [value.buffer]))
  })
} else {
  const socket = connect(a as string)
  const reader = new FrameReader((payload) => socket.write(frame(payload)))
  socket.on('data', (chunk: Buffer) => reader.push(chunk))
  socket.on('close', () => process.exit(0))
}
