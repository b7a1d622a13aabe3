// The PDF engine's own code, run only inside its realm (./index.ts), never imported by the server: pdf-lib, fontkit
// and pako, and what makes the server's values this realm's own. pdf-lib checks its arguments with `instanceof`
// (Uint8Array, Array, Date), which a value made in another realm never passes, so bytes, lists and dates cross over
// through these; plain objects and strings cross as they are.
import fontkit from '@pdf-lib/fontkit'
import pako from 'pako'
import * as pdf from 'pdf-lib'

/** What of fontkit's TrueType subset the patches below reach: its font, its glyphs' bytes and the next one's offset. */
interface TrueTypeSubset {
  font: { getGlyph(gid: number): GlyfGlyph; _variationProcessor?: unknown }
  glyf: { length: number; constructor: { concat(parts: unknown[]): unknown; alloc(n: number): unknown } }[]
  offset: number
  _addGlyph(gid: number): number
}
/** A TrueType glyph of fontkit: `_decode` reads its outline (every point, or a composite's parts) from the font file. */
interface GlyfGlyph {
  _decode(): unknown
}

/**
 * fontkit writes a TrueType subset's glyphs as long as each is, then a short `loca` (offsets halved) whenever the
 * subset is small: a glyph of odd length shifts every glyph after it by half a byte's offset, and readers draw them
 * as nothing or fail. DejaVu's glyphs all have even lengths; Noto Sans SC and KR (Google's builds) have odd ones. Each
 * glyph is padded to an even length, as the TrueType specification asks of a short `loca`.
 */
function evenGlyphs(subsetClass: TrueTypeSubset): void {
  const add = subsetClass._addGlyph
  subsetClass._addGlyph = function (this: TrueTypeSubset, gid: number): number {
    const index = add.call(this, gid)
    const bytes = this.glyf[index]!
    if (bytes.length % 2 === 1) {
      // fontkit's own Buffer (its encoder takes no other): the glyph and one zero byte.
      this.glyf[index] = bytes.constructor.concat([bytes, bytes.constructor.alloc(1)]) as TrueTypeSubset['glyf'][number]
      this.offset += 1
    }
    return index
  }
}

/**
 * fontkit's subset decodes each glyph's whole outline again in every document, point by point, only to learn whether
 * it is made of other glyphs (an ä is an a and a diaeresis): about 0.6 ms of a PDF's 8 (two fonts), and the more the
 * more letters a language's text uses. The parsed font is shared by every document (layout.ts), and so are its glyph
 * objects; the outline of a glyph of a font without variations never changes, so it is decoded once for the font's
 * life (until the engine is let go). The subset writes exactly the bytes it wrote before (fonts.test.ts).
 */
function decodedOnce(subsetClass: TrueTypeSubset): void {
  const add = subsetClass._addGlyph
  subsetClass._addGlyph = function (this: TrueTypeSubset, gid: number): number {
    const glyph = this.font.getGlyph(gid)
    if (!this.font._variationProcessor && !Object.hasOwn(glyph, '_decode')) {
      const decoded = glyph._decode()
      glyph._decode = () => decoded
    }
    return add.call(this, gid)
  }
}

// The subset classes are not exported: each is patched through the first subset made of it.
const patched = new WeakSet<object>()
const create = fontkit.create.bind(fontkit)
fontkit.create = ((...args: Parameters<typeof fontkit.create>) => {
  const font = create(...args) as ReturnType<typeof fontkit.create> & { createSubset?: () => object }
  const createSubset = font.createSubset?.bind(font)
  if (createSubset) {
    font.createSubset = () => {
      const subset = createSubset()
      const proto = Object.getPrototypeOf(subset) as TrueTypeSubset
      // TrueType subsets alone write glyphs this way (a CFF subset has no _addGlyph of its own).
      if (!patched.has(proto) && Object.prototype.hasOwnProperty.call(proto, '_addGlyph')) {
        patched.add(proto)
        evenGlyphs(proto)
        decodedOnce(proto)
      }
      return subset
    }
  }
  return font
}) as typeof fontkit.create

/** What of pdf-lib's embedder of a custom font the patch below reaches (not in its public types). */
interface FontEmbedder {
  serializeFont(): Promise<Uint8Array>
  isCFF(): boolean
}
/**
 * A TrueType font program's stream names its length before compression (Length1): ISO 32000-1 (9.9, table 127)
 * requires it of every TrueType font program, and PDF/A (Factur-X) asks a file to follow ISO 32000. pdf-lib writes the
 * stream without it; this is its embedFontStream with Length1 added (a CFF program has no Length1).
 */
const embedder = pdf.CustomFontEmbedder.prototype as unknown as FontEmbedder & {
  embedFontStream(context: pdf.PDFContext): Promise<pdf.PDFRef>
}
embedder.embedFontStream = async function (this: FontEmbedder, context: pdf.PDFContext): Promise<pdf.PDFRef> {
  const program = await this.serializeFont()
  const cff = this.isCFF()
  const stream = context.flateStream(program, cff ? { Subtype: 'CIDFontType0C' } : { Length1: program.length })
  return context.register(stream)
}

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
