// The PDF fonts: DejaVu Sans (Latin, Greek, Cyrillic), embedded in the binary so any Unicode name renders offline.
import regularPath from '../../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf' with { type: 'file' }
import boldPath from '../../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' with { type: 'file' }
import { readEmbedded } from '../../shared/embedded-file'

let cache: Promise<{ regular: Uint8Array; bold: Uint8Array }> | null = null

export function fontBytes(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  cache ??= (async () => ({ regular: await readEmbedded(regularPath), bold: await readEmbedded(boldPath) }))()
  return cache
}

/** Lets the font files go (an idle server hands its memory back); the next PDF reads them again. */
export function releaseFontBytes(): void {
  cache = null
}
