/**
 * Child of the data-path bench: echoes each payload back over the path under test.
 *   argv: slot <in-file> <out-file>   — read a slot, write it back to the out slot, notify over IPC
 *   argv: uds <socket-path>           — read 8-byte-aligned frames, write each back
 */
import { openSync } from 'node:fs'
import { connect } from 'node:net'
import { readSlot, writeSlot } from '@inferpool/worker'
import type { SlotLayout } from '@inferpool/worker'
import { FrameReader, frame } from './frames.js'

const [mode, a, b] = process.argv.slice(2)
if (mode === 'slot') {
  const inFd = openSync(a as string, 'r')
  const outFd = openSync(b as string, 'r+')
  process.on('message', (layout: SlotLayout) => {
    const value = readSlot(inFd, layout) as { buffer: ArrayBuffer }
    process.send?.(writeSlot(outFd, value, [value.buffer]))
  })
} else {
  const socket = connect(a as string)
  const reader = new FrameReader((payload) => socket.write(frame(payload)))
  socket.on('data', (chunk: Buffer) => reader.push(chunk))
  socket.on('close', () => process.exit(0))
}
