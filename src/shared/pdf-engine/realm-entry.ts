// The PDF engine's own code, run only inside its realm (./index.ts), never imported by the server: pdf-lib, fontkit
// and pako, and what makes the server's values this realm's own. pdf-lib checks its arguments with `instanceof`
// (Uint8Array, Array, Date), which a value made in another realm never passes, so bytes, lists and dates cross over
// through these; plain objects and strings cross as they are.
import fontkit from '@pdf-lib/fontkit'
import pako from 'pako'
import * as pdf from 'pdf-lib'

const engine = {
  pdf,
  fontkit,
  pako,
  /** The same bytes (no copy), as a Uint8Array of this realm. */
  bytes: (u: Uint8Array): Uint8Array => new Uint8Array(u.buffer, u.byteOffset, u.byteLength),
  list: <T>(items: readonly T[]): T[] => Array.from(items),
  date: (ms: number): Date => new Date(ms),
}
export type RealmEngine = typeof engine
;(globalThis as { __pdfEngine?: RealmEngine }).__pdfEngine = engine
