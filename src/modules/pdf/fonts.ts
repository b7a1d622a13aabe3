// The PDF fonts, embedded in the binary so any name renders offline: DejaVu Sans (Latin, Greek, Cyrillic) for all
// text, and for the characters it lacks Noto Sans SC (Han, kana, CJK punctuation and fullwidth forms) and Noto Sans KR
// (Hangul), read only when a PDF draws one of them.
import regularPath from '../../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf' with { type: 'file' }
import boldPath from '../../../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' with { type: 'file' }
import hanPath from '../../../node_modules/@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf' with {
  type: 'file',
}
import hangulPath from '../../../node_modules/@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf' with {
  type: 'file',
}
import { readEmbedded, readEmbeddedSync } from '../../shared/embedded-file'

let cache: Promise<{ regular: Uint8Array; bold: Uint8Array }> | null = null

export function fontBytes(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  cache ??= (async () => ({ regular: await readEmbedded(regularPath), bold: await readEmbedded(boldPath) }))()
  return cache
}

/** The fonts for East Asian scripts, one weight each (bold text in them is drawn regular). */
export type Fallback = 'han' | 'hangul'
const FALLBACK_PATHS: Record<Fallback, string> = { han: hanPath, hangul: hangulPath }
const fallbacks = new Map<Fallback, Uint8Array>()

/**
 * A fallback font's file (10.5 and 6.2 MB), read on the first character that needs it: layout meets that character
 * while it measures text, which is synchronous, so the file is read synchronously too.
 */
export function fallbackFontBytes(which: Fallback): Uint8Array {
  let bytes = fallbacks.get(which)
  if (!bytes) fallbacks.set(which, (bytes = readEmbeddedSync(FALLBACK_PATHS[which])))
  return bytes
}

/** The fallback fonts read so far (a PDF without East Asian text reads none). */
export function fallbacksRead(): Fallback[] {
  return [...fallbacks.keys()]
}

/** Lets the font files go (an idle server hands its memory back); the next PDF reads them again. */
export function releaseFontBytes(): void {
  cache = null
  fallbacks.clear()
}
