// A document's own subset of a font: embedded on first need, its glyphs added as its text comes, its characters
// written as the subset's glyph ids, and its name tagged as PDF asks. The document fonts' common characters come from
// a subset made once instead (./common-font.ts); the rest of the document font and the fallback fonts come from here.
import type { PDFDocument, PDFFont } from 'pdf-lib'
import { createHash } from 'node:crypto'
import type { PdfEngine } from '../../shared/pdf-engine'

/** A font's glyph for each character (layout.ts keeps one table per parsed font). */
export interface Glyphs {
  glyph(cp: number): { id: number; advanceWidth: number }
}
/** What pdf-lib's subset embedder holds (not in its public types): the parsed font and the document's subset. */
export interface SubsetEmbedder {
  font: { unitsPerEm: number; glyphForCodePoint(cp: number): { id: number; advanceWidth: number } }
  subset: { includeGlyph(glyph: { id: number }): number }
  glyphs: unknown[]
  glyphIdMap: Map<number, number>
  glyphCache: { invalidate(): void }
  encodeText(text: string): unknown
}

export function embedderOf(font: PDFFont): SubsetEmbedder {
  return (font as unknown as { embedder: SubsetEmbedder }).embedder
}

/**
 * A subset embedded at once: pdf-lib's embedFont awaits only because fontkit's API looked asynchronous once, and the
 * text that needs a fallback font is met while a line is being drawn, synchronously. The same three steps it takes.
 */
export function embedSubsetNow(engine: PdfEngine, pdf: PDFDocument, parsed: unknown, bytes: Uint8Array): PDFFont {
  const Embedder = engine.pdf.CustomFontSubsetEmbedder as unknown as new (font: unknown, data: Uint8Array) => never
  const font = engine.pdf.PDFFont.of(pdf.context.nextRef(), pdf, new Embedder(parsed, bytes))
  ;(pdf as unknown as { fonts: PDFFont[] }).fonts.push(font)
  return font
}

/**
 * Names each subset font as ISO 32000 (9.6.4) asks: a tag of six capital letters, a plus sign and the font's name.
 * The tag comes from the glyphs the subset holds, so the same document gives the same file and two subsets of one
 * font in different documents are told apart.
 */
export function tagSubset(font: PDFFont): void {
  const e = embedderOf(font) as SubsetEmbedder & { fontName: string; customName?: string }
  const ids = [...e.glyphIdMap.keys()].sort((a, b) => a - b).join(',')
  const digest = createHash('sha256').update(`${e.fontName}:${ids}`).digest()
  let tag = ''
  for (let i = 0; i < 6; i++) tag += String.fromCharCode(65 + (digest[i]! % 26))
  e.customName = `${tag}+${e.fontName}`
}

// Scripts drawn glyph for character with no shaping: Latin, Greek, Cyrillic, Armenian and their punctuation,
// general punctuation, super- and subscripts, currency and letterlike signs; not combining marks, which the shaper
// composes with the letter before them, nor the zero-width and direction controls. DejaVu Sans's only substitutions
// among them are the ff/fi/fl ligatures (drawn as two letters here, the same text to a reader or a copy) and the
// soft hyphen. U+FFFD stands for a character no font has.
export const UNSHAPED =
  /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0482\u048a-\u058f\u1e00-\u1fff\u2010-\u2027\u2030-\u205e\u2070-\u20cf\u2100-\u214f\ufffd]*$/

/**
 * Four hex digits of a subset's glyph id, each made once when first used: a subset holds a few hundred glyphs at
 * most, and making all 65,536 up front kept as many strings alive in every server (about 3 MB), PDFs or not.
 */
const HEX4: string[] = []
export function hex4(id: number): string {
  return (HEX4[id] ??= id.toString(16).padStart(4, '0'))
}

/**
 * The text as a PDF hex string of the document's subset glyph ids. pdf-lib lays every string out through fontkit's
 * shaper (about half a millisecond for a 45-character line, six seconds for the largest legal document), though for
 * the scripts above the glyphs come out the same as one lookup per character (pdf-lib keeps glyph ids only, never
 * the shaper's positions). Text in any other script (Arabic joins its letters, Indic scripts reorder them) keeps
 * pdf-lib's own shaping.
 */
export function encodeText(font: PDFFont, table: Glyphs, text: string, unshaped = UNSHAPED.test(text)): string {
  const e = embedderOf(font)
  if (!unshaped) return String(e.encodeText(text))
  const known = hexOfEmbedder(e)
  let hex = '<'
  let added = false
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!
    if (cp > 0xffff) i++
    let h = known.get(cp)
    if (h === undefined) {
      const glyph = table.glyph(cp)
      const id = e.subset.includeGlyph(glyph)
      // The same bookkeeping pdf-lib's own encodeText does: the subset's widths and ToUnicode map come from these.
      e.glyphs[id - 1] = glyph
      e.glyphIdMap.set(glyph.id, id)
      known.set(cp, (h = hex4(id)))
      added = true
    }
    hex += h
  }
  if (added) e.glyphCache.invalidate()
  return hex + '>'
}

/**
 * Each character's four hex digits in one document's subset, kept with the subset: a character's glyph keeps its id
 * for the document's life, so the subset's bookkeeping is done on its first use only and every later use is one
 * lookup. Characters are most of a PDF's build, and a language whose words are longer does more of them.
 */
const hexOfSubset = new WeakMap<SubsetEmbedder, Map<number, string>>()
function hexOfEmbedder(e: SubsetEmbedder): Map<number, string> {
  let known = hexOfSubset.get(e)
  if (!known) hexOfSubset.set(e, (known = new Map()))
  return known
}
