// The logo's header reader (logo.ts): the size an image declares, read without decoding it, never past its bytes.
import { describe, expect, test } from 'bun:test'
import { bombPng, jpegHeader, solidPng } from '../../../test/png'
import { imageDimensions, logoDimensionsFault } from './logo'

describe('imageDimensions', () => {
  test('reads a PNG IHDR and a JPEG frame header found past other segments and fill bytes', () => {
    expect(imageDimensions(solidPng(120, 40))).toEqual({ width: 120, height: 40 })
    expect(imageDimensions(bombPng(6000, 6000))).toEqual({ width: 6000, height: 6000 })
    expect(imageDimensions(jpegHeader(640, 480))).toEqual({ width: 640, height: 480 })
    const j = jpegHeader(64000, 3)
    // Fill bytes (0xFF repeated) before the frame header's marker are allowed by the JPEG format.
    const filled = new Uint8Array([...j.subarray(0, 20), 0xff, 0xff, ...j.subarray(20)])
    expect(imageDimensions(filled)).toEqual({ width: 64000, height: 3 })
  })

  test('every cut of a header, a segment length running past the end, or image data before any frame header gives null, never a throw', () => {
    // The header is whole at 24 bytes of a PNG (signature and IHDR) and 33 of this JPEG (SOI, APP0 and SOF0).
    for (const [whole, complete] of [
      [solidPng(3, 3), 24],
      [jpegHeader(100, 100), 33],
    ] as const) {
      for (let n = 0; n < complete; n++) expect(imageDimensions(whole.subarray(0, n))).toBeNull()
      expect(imageDimensions(whole.subarray(0, complete))).not.toBeNull()
    }
    const long = jpegHeader(10, 10)
    long[5] = 0xff // APP0's length now runs far past the end.
    expect(imageDimensions(long)).toBeNull()
    expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6]))).toBeNull()
    expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01]))).toBeNull()
    for (let i = 0; i < 2000; i++) {
      const junk = new Uint8Array(4 + Math.floor(Math.random() * 40)).map(() => Math.floor(Math.random() * 256))
      junk.set([0xff, 0xd8, 0xff])
      expect(() => imageDimensions(junk)).not.toThrow()
    }
  })

  test('a side over 2000 pixels is refused, 2000 taken; a declared 0 cannot be read', () => {
    expect(logoDimensionsFault(jpegHeader(2000, 2000))).toBeNull()
    expect(logoDimensionsFault(jpegHeader(2001, 1))).toContain('2001 × 1 pixels')
    expect(logoDimensionsFault(jpegHeader(0, 10))).toBe('cannot be read as a JPEG image')
  })
})
