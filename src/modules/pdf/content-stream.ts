// A page's content stream as it is written: operators and numbers as ASCII, glyph ids as hex digits, straight into
// bytes. Text is most of a PDF's build, and a language whose words are longer writes more of it; built as strings,
// each character of each line was a piece of a string joined, then copied into bytes (extensions §18, and
// bench/language-pdf.ts).
import { deflateSync } from 'node:zlib'

/** The ASCII codes of the hex digits. */
const HEX = new Uint8Array([...'0123456789abcdef'].map((c) => c.charCodeAt(0)))

/**
 * Compression of a page: zlib's fastest levels keep a page's text within a few percent of the default level's size
 * (a 100-Line Invoice's three pages: 10.3 kB against 8.4), in a sixth of the time (0.17 ms against 1.0).
 */
const LEVEL = 2

export class ContentStream {
  private bytes = new Uint8Array(8192)
  private length = 0

  /** Nothing written since the last `take`. */
  get empty(): boolean {
    return this.length === 0
  }

  /** Operators and numbers: ASCII only (a content stream's syntax is). */
  ascii(s: string): void {
    this.room(s.length)
    const bytes = this.bytes
    let n = this.length
    for (let i = 0; i < s.length; i++) bytes[n++] = s.charCodeAt(i)
    this.length = n
  }

  /** A glyph id of a two-byte font as four hex digits (inside a hex string `<...>`). */
  glyph(id: number): void {
    this.room(4)
    const bytes = this.bytes
    const n = this.length
    bytes[n] = HEX[(id >> 12) & 15]!
    bytes[n + 1] = HEX[(id >> 8) & 15]!
    bytes[n + 2] = HEX[(id >> 4) & 15]!
    bytes[n + 3] = HEX[id & 15]!
    this.length = n + 4
  }

  /** The stream so far, compressed (FlateDecode), and a fresh start for the next page. */
  take(): Buffer {
    const out = deflateSync(this.bytes.subarray(0, this.length), { level: LEVEL })
    this.length = 0
    return out
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n))
    grown.set(this.bytes.subarray(0, this.length))
    this.bytes = grown
  }
}
