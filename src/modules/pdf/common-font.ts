// The characters nearly every document draws, in a subset of each document font made once for the PDF engine's life
// and copied into each document (its font program shared, not copied), instead of a subset made for each document.
//
// Why: a document's own subset was most of its PDF's build (about 2 of a one-Line Invoice's 3.6 ms of processor
// time): fontkit writes the subset's tables glyph by glyph, and pdf-lib compresses it and writes its widths and
// ToUnicode map, in every document. And its cost grew with the number of distinct letters a document used, so the
// same Invoice cost more in a language with more of them (German's ä, ö, ü and ß: extensions §18). A subset made once
// holds the same glyphs for every document; a document copies its few objects (the font program already compressed).
// It is bigger than a one-document subset (about 24 kB compressed per weight, against 6 to 8), the price of that.
import type { PDFContext, PDFDocument, PDFRawStream, PDFRef } from 'pdf-lib'
import type { PdfEngine } from '../../shared/pdf-engine'
import { embedSubsetNow, encodeText, tagSubset, type Glyphs } from './subset'
import type { ContentStream } from './content-stream'

/**
 * The characters the common subset holds: ASCII; Latin-1's signs and letters (but the soft hyphen, which shaping
 * drops); Polish letters beyond Latin-1, and Œ œ; and what the catalogs and Intl write in the eight languages besides
 * (dashes, quotes, the ellipsis, the bullet, the euro sign, the thin and narrow no-break spaces, the minus sign), and
 * U+FFFD, drawn for a character no font has. Every word, figure, date and country name of the eight catalogs is among
 * them (common-font.test.ts), so a document's own subset is made only for a name or a description beyond them.
 */
export const COMMON_CHARACTERS: readonly number[] = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0xff).filter((cp) => cp !== 0xad),
  ...[...'ĄąĆćĘęŁłŃńŚśŹźŻżŒœ–—‘’‚“”„…•€\u2009\u202f\u2212\ufffd'].map((ch) => ch.codePointAt(0)!),
]

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}

/** Characters below this are looked up in an array (ASCII, Latin-1 and Polish); the few common ones above in a map. */
const DENSE = 0x250

/** A document font's common subset, made once (see commonFont). */
export class CommonFont {
  /** Each character's glyph id in the subset, 0 for a character not in it (for codes below DENSE). */
  private readonly dense = new Uint16Array(DENSE)
  private readonly rare = new Map<number, number>()
  /** Each glyph's width at size 1, by its id in the subset. */
  private readonly widths: Float64Array
  constructor(
    ids: ReadonlyMap<number, number>,
    widthOf: (cp: number) => number,
    /** The subset's objects, written by pdf-lib once into a document of their own, the font dictionary at `ref`. */
    readonly context: PDFContext,
    readonly ref: PDFRef,
  ) {
    this.widths = new Float64Array(Math.max(0, ...ids.values()) + 1)
    for (const [cp, id] of ids) {
      if (cp < DENSE) this.dense[cp] = id
      else this.rare.set(cp, id)
      this.widths[id] = widthOf(cp)
    }
  }

  /** A character's glyph id in the subset; 0 for one it does not hold. */
  id(cp: number): number {
    return cp < DENSE ? this.dense[cp]! : (this.rare.get(cp) ?? 0)
  }

  /**
   * The width at `size` of the first `n` UTF-16 units of `units` when the subset holds every one of them, else NaN
   * (its characters are each one unit: a surrogate is never one of them). Summed unit by unit, as layout.ts sums.
   */
  width(units: Uint16Array, n: number, size: number): number {
    let width = 0
    for (let i = 0; i < n; i++) {
      const id = this.id(units[i]!)
      if (id === 0) return Number.NaN
      width += this.widths[id]! * size
    }
    return width
  }

  /** The glyph ids of the first `n` units, every one of which the subset holds (see `width`), written into `out`. */
  write(units: Uint16Array, n: number, out: ContentStream): void {
    for (let i = 0; i < n; i++) out.glyph(this.id(units[i]!))
  }
}

/**
 * The common subset of one document font: pdf-lib embeds it once, in a document made for it alone, exactly as it
 * embeds a document's own subset (the same font program, widths, ToUnicode map and tagged name).
 */
export async function commonFont(
  engine: PdfEngine,
  parsed: unknown,
  bytes: Uint8Array,
  glyphs: Glyphs & { width(cp: number): number },
): Promise<CommonFont> {
  const pdf = await engine.pdf.PDFDocument.create()
  const font = embedSubsetNow(engine, pdf, parsed, bytes)
  const ids = new Map<number, number>()
  for (const cp of COMMON_CHARACTERS) {
    // A character the font lacks (none of DejaVu Sans's) is left out: layout.ts draws it from elsewhere.
    if (glyphs.glyph(cp).id === 0) continue
    ids.set(cp, Number.parseInt(encodeText(font, glyphs, String.fromCodePoint(cp), true).slice(1, -1), 16))
  }
  tagSubset(font)
  await font.embed()
  sharedCopies(engine, pdf.context, font.ref)
  return new CommonFont(ids, (cp) => glyphs.width(cp), pdf.context, font.ref)
}

/**
 * What each document copies of the subset, made cheap to copy. The widths (a few hundred numbers) are kept as the
 * bytes pdf-lib wrote for them: copied as an array, each number would be made again and written again in every
 * document (about a tenth of a millisecond). The font program and the ToUnicode map (about 27 kB a weight,
 * compressed) are shared, not copied: pdf-lib only reads a stream's bytes as it writes the file.
 */
function sharedCopies(engine: PdfEngine, context: PDFContext, ref: PDFRef): void {
  const { PDFArray, PDFDict, PDFInvalidObject, PDFName, PDFRawStream, PDFStream } = engine.pdf
  const type0 = context.lookup(ref, PDFDict)
  const descendants = type0.lookup(PDFName.of('DescendantFonts'), PDFArray)
  const cid = context.lookup(descendants.get(0) as PDFRef, PDFDict)
  const widths = cid.lookup(PDFName.of('W'), PDFArray)
  const bytes = new Uint8Array(widths.sizeInBytes())
  widths.copyBytesInto(bytes, 0)
  cid.set(PDFName.of('W'), PDFInvalidObject.of(engine.bytes(bytes)))
  const program = cid.lookup(PDFName.of('FontDescriptor'), PDFDict).lookup(PDFName.of('FontFile2'), PDFStream)
  for (const stream of [program, type0.lookup(PDFName.of('ToUnicode'), PDFStream)] as PDFRawStream[]) {
    stream.clone = (into?: PDFContext) => PDFRawStream.of(stream.dict.clone(into), stream.contents)
  }
}

/** The common subset's objects copied into a document; the font dictionary's reference there. */
export function embedCommon(engine: PdfEngine, pdf: PDFDocument, common: CommonFont): PDFRef {
  return engine.pdf.PDFObjectCopier.for(common.context, pdf.context).copy(common.ref) as PDFRef
}
