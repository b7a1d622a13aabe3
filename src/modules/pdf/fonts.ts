// The PDF fonts: DejaVu Sans (Latin, Greek, Cyrillic), embedded in the binary so any Unicode name renders offline.
import regularPath from '../../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf' with { type: 'file' }
import boldPath from '../../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' with { type: 'file' }
import { gunzipSync } from 'node:zlib'

let cache: Promise<{ regular: Uint8Array; bold: Uint8Array }> | null = null

export function fontBytes(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  cache ??= (async () => ({ regular: await fontFile(regularPath), bold: await fontFile(boldPath) }))()
  return cache
}

/** A font file's bytes: the built binary holds them gzipped (scripts/build.ts), a checkout as they are. */
export async function fontFile(path: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(await Bun.file(path).arrayBuffer())
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b // a TrueType file starts 00 01 00 00
  return gzipped ? new Uint8Array(gunzipSync(bytes)) : bytes
}

/** Lets the font files go (an idle server hands its memory back); the next PDF reads them again. */
export function releaseFontBytes(): void {
  cache = null
}
