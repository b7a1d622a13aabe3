// Files the binary carries (fonts, the PDF engine's script) are stored gzipped by its build (scripts/build.ts): a
// server keeps resident the pages of its own file it has read, and read gzipped they are a third to a half as many.
// From a checkout the same files are read as they are.
import { gunzipSync } from 'node:zlib'

/** A file's bytes, inflated when it starts with gzip's two magic bytes (none of the files stored plain does). */
export async function readEmbedded(path: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(await Bun.file(path).arrayBuffer())
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b
  return gzipped ? new Uint8Array(gunzipSync(bytes)) : bytes
}
