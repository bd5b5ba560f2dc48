import { describe, expect, it } from 'vitest'
import { decodeStrings, encodeStrings, joinBytesElements, splitBytesElements } from '@inferpool/worker'

/** The wire form written by hand: a 4-byte little-endian length, then the bytes. */
function wire(...parts: Array<number[] | string>): Uint8Array {
  const bytes: number[] = []
  for (const part of parts) {
    if (typeof part === 'string') bytes.push(...new TextEncoder().encode(part))
    else bytes.push(...part)
  }
  return Uint8Array.from(bytes)
}

describe('the BYTES codec', () => {
  it('writes each element as its 4-byte little-endian length, then its bytes', () => {
    const buffer = joinBytesElements([new TextEncoder().encode('ab'), new Uint8Array(0), Uint8Array.of(255)])
    expect([...new Uint8Array(buffer)]).toEqual([2, 0, 0, 0, 97, 98, 0, 0, 0, 0, 1, 0, 0, 0, 255])
  })

  it('splits the wire form into views of the same bytes, without copying', () => {
    const bytes = wire([1, 0, 0, 0], 'x', [2, 0, 0, 0], 'yz')
    const elements = splitBytesElements(bytes, 2) as Uint8Array[]
    expect(elements.map((e) => new TextDecoder().decode(e))).toEqual(['x', 'yz'])
    expect(elements.every((e) => e.buffer === bytes.buffer)).toBe(true)
  })

  it.each([
    ['bytes after the expected elements', wire([1, 0, 0, 0], 'x', [9]), 1, { fault: 'trailing', left: 1 }],
    ['a length cut short', wire([1, 0, 0, 0], 'x', [1, 0]), 2, { fault: 'truncated-length', element: 1 }],
    ['an element longer than what is left', wire([5, 0, 0, 0], 'ab'), 1, { fault: 'short-element', element: 0, declared: 5, left: 2 }],
    ['fewer elements than expected', wire([1, 0, 0, 0], 'x'), 3, { fault: 'count', actual: 1 }],
  ])('reports %s as a fault, not a throw', (_name, bytes, expected, fault) => {
    expect(splitBytesElements(bytes, expected)).toEqual(fault)
  })

  it('round-trips strings through UTF-8, empty and multi-byte ones included', () => {
    const strings = ['', 'héllo', '日本', 'a'.repeat(1000)]
    expect(decodeStrings(encodeStrings(strings))).toEqual(strings)
  })

  it('refuses to decode an element that is not UTF-8', () => {
    expect(() => decodeStrings(wire([1, 0, 0, 0], [0xff]).buffer as ArrayBuffer)).toThrow(TypeError)
  })
})
