// Real images written by hand (zlib from node), for tests that upload or draw a logo: a PNG of one colour, a PNG
// bomb (a small file declaring a huge image), and a JPEG's header declaring any size.
import { deflateSync } from 'node:zlib'

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc(b: Buffer): number {
  let c = 0xffffffff
  for (const x of b) c = crcTable[(c ^ x) & 255]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const c = Buffer.alloc(4)
  c.writeUInt32BE(crc(td))
  return Buffer.concat([len, td, c])
}

/** A valid PNG: IHDR of `w` × `hgt` at 8 bits of `colorType` (2 RGB, 0 grey), the rows given raw (filter bytes in). */
function png(w: number, hgt: number, colorType: number, raw: Buffer): Uint8Array {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(hgt, 4)
  ihdr[8] = 8
  ihdr[9] = colorType
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  )
}

export function solidPng(w: number, hgt: number, rgb: [number, number, number] = [31, 111, 235]): Uint8Array {
  const raw = Buffer.alloc((w * 3 + 1) * hgt)
  for (let y = 0; y < hgt; y++) for (let x = 0; x < w; x++) raw.set(rgb, y * (w * 3 + 1) + 1 + x * 3)
  return png(w, hgt, 2, raw)
}

/** An image bomb: a valid grey PNG of `w` × `hgt` black pixels, whose IDAT compresses about 1000 to 1 (6000 × 6000: 35 KB). */
export function bombPng(w: number, hgt: number): Uint8Array {
  return png(w, hgt, 0, Buffer.alloc((w + 1) * hgt))
}

/**
 * A JPEG whose frame header (SOF0) declares `w` × `hgt`, after an APP0 segment, so a reader must walk the segments to
 * find it. Nothing follows but the end marker: a header, never decodable pixels (pdf-lib reads no more than that).
 */
export function jpegHeader(w: number, hgt: number): Uint8Array {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ])
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, hgt >> 8, hgt & 255, w >> 8, w & 255, 0x01, 0x01, 0x11, 0x00])
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]))
}
