// Files the binary carries (fonts, the PDF engine's script) are stored gzipped by its build (scripts/build.ts): a
// server keeps resident the pages of its own file it has read, and read gzipped they are a third to a half as many.
// From a checkout the same files are read as they are.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

/** The bytes, inflated when they start with gzip's two magic bytes (none of the files stored plain does). */
function inflated(bytes: Uint8Array): Uint8Array {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b
  return gzipped ? new Uint8Array(gunzipSync(bytes)) : bytes
}

/** A file's bytes, inflated when the build gzipped it. */
export async function readEmbedded(path: string): Promise<Uint8Array> {
  return inflated(new Uint8Array(await Bun.file(path).arrayBuffer()))
}

/** The same, synchronously: for a file read in the middle of work that cannot wait (a font met while laying out text). */
export function readEmbeddedSync(path: string): Uint8Array {
  return inflated(new Uint8Array(readFileSync(path)))
}
