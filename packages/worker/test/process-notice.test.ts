import { describe, expect, it } from 'vitest'
import { encodeNotice, NoticeReader } from '@inferpool/worker'
import type { Notice } from '@inferpool/worker'

const run: Notice = { t: 'run', id: 7, lane: 1, layout: { head: 312, buffers: [131072, 8, 0] } }
const result: Notice = { t: 'result', id: 4294967295, lane: 0, layout: { head: 40, buffers: [] }, rss: 88_604_672 }

function readAll(chunks: Buffer[]): Notice[] {
  const seen: Notice[] = []
  const reader = new NoticeReader((notice) => seen.push(notice))
  for (const chunk of chunks) reader.feed(chunk)
  return seen
}

describe('process notices', () => {
  it('reads back a run and a result notice exactly as written', () => {
    expect(readAll([encodeNotice(run), encodeNotice(result)])).toEqual([run, result])
  })

  it('reads several notices from one chunk, and a notice cut across chunks at every byte', () => {
    const bytes = Buffer.concat([encodeNotice(run), encodeNotice(result), encodeNotice(run)])
    expect(readAll([bytes])).toEqual([run, result, run])
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(readAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([run, result, run])
    }
    expect(readAll([...bytes].map((byte) => Buffer.from([byte])))).toEqual([run, result, run])
  })

  it('holds nothing back from an unfinished notice', () => {
    const bytes = encodeNotice(result)
    expect(readAll([bytes.subarray(0, bytes.length - 1)])).toEqual([])
  })
})
