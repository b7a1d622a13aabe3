// A small page writer over pdf-lib: text at positions, wrapped paragraphs, rules, page breaks, and a watermark on
// every page.
//
// Layout is linear in a text's length: every character's width is looked up once per font (a table kept for the
// process) and lines are broken by running sums of those widths. Measuring a growing string again for every
// character cut (what this file once did) made one 4,000-character address block the only JavaScript thread for
// nearly a minute.
import type { PDFDocument, PDFFont, PDFPage, PDFRef } from 'pdf-lib'
import { deflateSync } from 'node:zlib'
import { ours, pdfEngine, releasePdfEngine, type PdfEngine } from '../../shared/pdf-engine'
import { fontBytes, releaseFontBytes } from './fonts'

interface Fontkit {
  create(bytes: Uint8Array): unknown
}
/** What a build takes from the engine: the engine itself, its fontkit sharing parsed fonts, and the font files in it. */
interface Libs {
  engine: PdfEngine
  fontkit: Fontkit
  fonts: { regular: Uint8Array; bold: Uint8Array }
}
// The engine starts with the first PDF, not at start: a server may never need it (see shared/pdf-engine).
let libs: Promise<Libs> | null = null
function loadLibs(): Promise<Libs> {
  libs ??= Promise.all([pdfEngine(), fontBytes()]).then(([engine, bytes]) => ({
    engine,
    fontkit: sharedFontkit(engine.fontkit as Fontkit),
    // One view of each file in the engine's realm, for all its documents: the parsed fonts are kept by these bytes.
    fonts: { regular: engine.bytes(bytes.regular), bold: engine.bytes(bytes.bold) },
  }))
  libs.catch(() => (libs = null))
  return libs
}

/**
 * Lets the PDF engine go when the server falls idle: the parsed fonts and the font files (about 15 MB after a stream
 * of PDFs) and everything pdf-lib and fontkit made. The next PDF starts it again. A build under way keeps what it
 * holds; the queue is not touched.
 */
export function releasePdfMemory(): void {
  libs = null
  releaseFontBytes()
  releasePdfEngine()
}

/**
 * A fontkit whose parsed fonts are kept for the engine's life: pdf-lib parses the font file again for every document
 * (two ~700 KB files decoded into tables and glyph caches), which under a stream of PDFs is most of what a build
 * allocates. A parsed font is read-only for pdf-lib (each document takes its own subset of it), so one serves all.
 */
function sharedFontkit(fontkit: Fontkit): Fontkit {
  const parsed = new Map<Uint8Array, unknown>()
  return {
    create(bytes) {
      let font = parsed.get(bytes)
      if (!font) parsed.set(bytes, (font = keepCodePoints(lightTables(fontkit.create(bytes) as GlyphSource & FontTables))))
      return font
    },
  }
}

/** The parts of a fontkit font that lightTables reads and replaces (fontkit keeps each decoded table in `_tables`). */
interface FontTables {
  post?: { italicAngle: number; underlinePosition: number; underlineThickness: number; isFixedPitch: number }
  name?: { records: Record<string, Record<string, string> | undefined> }
  _tables: Record<string, unknown>
}
/**
 * pdf-lib reads three things of a font's `post` and `name` tables (italic angle, fixed pitch, PostScript name), and
 * fontkit decodes each table whole to give them: DejaVu's are every glyph's name and every name record, about 48,000
 * strings a font that a server building PDFs kept alive. Each table is decoded once by fontkit here, and what is read
 * of it is kept in its place; a version 3 `post` table is one without glyph names, which no PDF of ours uses.
 */
function lightTables<F extends FontTables>(font: F): F {
  // A font without either table (none of ours) is left as fontkit made it.
  if (!font.post || !font.name) return font
  const { italicAngle, underlinePosition, underlineThickness, isFixedPitch } = font.post
  const records = font.name.records
  font._tables.post = { version: 3, italicAngle, underlinePosition, underlineThickness, isFixedPitch }
  const kept: Record<string, Record<string, string> | undefined> = {}
  for (const key of ['postscriptName', 'fullName', 'fontFamily', 'fontSubfamily']) kept[key] = records[key]?.en === undefined ? undefined : { en: records[key]!.en }
  font._tables.name = { records: kept }
  return font
}

interface GlyphSource {
  getGlyph(id: number, codePoints?: number[]): { codePoints: number[] } | null
}
/**
 * fontkit keeps each glyph it makes, with the characters it was asked for first. Subsetting one document makes
 * the parts of composite glyphs with no characters (ή is η and an accent), so once the font is shared, a later
 * document asking for η would get a glyph with none and its text would copy out without it. A glyph asked for
 * by a character takes that character when it has none.
 */
function keepCodePoints(font: GlyphSource): GlyphSource {
  const getGlyph = font.getGlyph.bind(font)
  font.getGlyph = (id, codePoints = []) => {
    const glyph = getGlyph(id, codePoints)
    if (glyph && codePoints.length && !glyph.codePoints.length) glyph.codePoints = codePoints
    return glyph
  }
  return font
}

/** The parsed font under a pdf-lib font: fontkit's, shared by every document (see sharedFontkit). */
interface ParsedFont {
  unitsPerEm: number
  glyphForCodePoint(cp: number): { id: number; advanceWidth: number }
}
/** What pdf-lib's subset embedder holds (not in its public types): the parsed font and the document's subset. */
interface SubsetEmbedder {
  font: ParsedFont
  subset: { includeGlyph(glyph: { id: number }): number }
  glyphs: unknown[]
  glyphIdMap: Map<number, number>
  glyphCache: { invalidate(): void }
  encodeText(text: string): unknown
}

/** Each character's glyph and its width at size 1, looked up once per parsed font and kept with it. */
class GlyphTable {
  private readonly glyphs = new Map<number, { id: number; advanceWidth: number }>()
  private readonly widths = new Map<number, number>()
  constructor(private readonly font: ParsedFont) {}
  glyph(cp: number): { id: number; advanceWidth: number } {
    let g = this.glyphs.get(cp)
    if (!g) this.glyphs.set(cp, (g = this.font.glyphForCodePoint(cp)))
    return g
  }
  width(cp: number): number {
    let w = this.widths.get(cp)
    if (w === undefined) this.widths.set(cp, (w = this.glyph(cp).advanceWidth / this.font.unitsPerEm))
    return w
  }
}
const glyphTables = new WeakMap<ParsedFont, GlyphTable>()
function glyphTableOf(font: PDFFont): GlyphTable {
  const parsed = embedderOf(font).font
  let table = glyphTables.get(parsed)
  if (!table) glyphTables.set(parsed, (table = new GlyphTable(parsed)))
  return table
}
function embedderOf(font: PDFFont): SubsetEmbedder {
  return (font as unknown as { embedder: SubsetEmbedder }).embedder
}

// Scripts drawn glyph for character with no shaping: Latin, Greek, Cyrillic, Armenian and their punctuation,
// general punctuation, super- and subscripts, currency and letterlike signs; not combining marks, which the shaper
// composes with the letter before them, nor the zero-width and direction controls. DejaVu Sans's only substitutions
// among them are the ff/fi/fl ligatures (drawn as two letters here, the same text to a reader or a copy) and the
// soft hyphen.
const UNSHAPED = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0482\u048a-\u058f\u1e00-\u1fff\u2010-\u2027\u2030-\u205e\u2070-\u20cf\u2100-\u214f]*$/

/**
 * Four hex digits of a subset's glyph id, each made once when first used: a subset holds a few hundred glyphs at
 * most, and making all 65,536 up front kept as many strings alive in every server (about 3 MB), PDFs or not.
 */
const HEX4: string[] = []
function hex4(id: number): string {
  return (HEX4[id] ??= id.toString(16).padStart(4, '0'))
}

/**
 * The text as a PDF hex string of the document's subset glyph ids. pdf-lib lays every string out through fontkit's
 * shaper (about half a millisecond for a 45-character line, six seconds for the largest legal document), though for
 * the scripts above the glyphs come out the same as one lookup per character (pdf-lib keeps glyph ids only, never
 * the shaper's positions). Text in any other script (Arabic joins its letters, Indic scripts reorder them) keeps
 * pdf-lib's own shaping.
 */
function encodeText(font: PDFFont, table: GlyphTable, text: string): string {
  const e = embedderOf(font)
  if (!UNSHAPED.test(text)) return String(e.encodeText(text))
  let hex = '<'
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!
    if (cp > 0xffff) i++
    const glyph = table.glyph(cp)
    const id = e.subset.includeGlyph(glyph)
    // The same bookkeeping pdf-lib's own encodeText does: the subset's widths and ToUnicode map come from these.
    e.glyphs[id - 1] = glyph
    e.glyphIdMap.set(glyph.id, id)
    hex += hex4(id)
  }
  e.glyphCache.invalidate()
  return hex + '>'
}

/** A number as a content stream writes it: at most three decimals, no exponent. */
function num(n: number): string {
  return String(Math.round(n * 1000) / 1000)
}

/** Resolves on a later turn of the event loop, after the requests and timers already waiting have run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

let queue: Promise<unknown> = Promise.resolve()
/**
 * Builds PDFs one at a time. A build is pure work on the only JavaScript thread, done in short turns (see
 * `breathe`); builds taking turns with each other would make a request arriving between turns wait for one turn
 * of each, and would hold every document's pages in memory at once. One at a time, a request waits for one turn
 * at most and one document's pages are alive; the last of four PDFs comes no later than it would have.
 */
export function oneAtATime<A extends unknown[], R>(build: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => {
    const run = queue.then(() => build(...args))
    // The queue waits for the build and keeps nothing of it (a PDF's bytes are the caller's to keep or drop).
    queue = run.then(
      () => undefined,
      () => undefined,
    )
    return run
  }
}

export const A4: [number, number] = [595.28, 841.89]
export const MARGIN = 48
/** Time a build may hold the thread before it lets other requests in (see `breathe`). */
const SLICE_MS = Number(process.env.SLICE_MS ?? 8)

export class PageWriter {
  page!: PDFPage
  y = 0
  /** Called after every page break (a table's header on each continuation page). */
  onNewPage: (() => void) | null = null
  private sliceStart = performance.now()
  /** The current page's drawing operators, and its resource names for the two fonts (set on first use). */
  private ops: string[] = []
  private watermarkState: PDFRef | null = null
  private fontKeys: { regular: string; bold: string } | null = null
  private readonly regularGlyphs: GlyphTable
  private readonly boldGlyphs: GlyphTable
  private constructor(
    readonly engine: PdfEngine,
    readonly pdf: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    private readonly watermarks: string[],
  ) {
    this.regularGlyphs = glyphTableOf(font)
    this.boldGlyphs = glyphTableOf(bold)
  }

  /** `watermark`: one word across every page, or several (SAMPLE and VOID) on parallel diagonals. */
  static async create(title: string, watermark: string | string[] | null): Promise<PageWriter> {
    const { engine, fontkit, fonts } = await loadLibs()
    const pdf = await engine.pdf.PDFDocument.create()
    pdf.registerFontkit(fontkit as never)
    pdf.setTitle(title)
    pdf.setProducer('invoicing')
    // Subsetting keeps the file small: only the glyphs used are embedded.
    const font = await pdf.embedFont(fonts.regular, { subset: true })
    const bold = await pdf.embedFont(fonts.bold, { subset: true })
    const w = new PageWriter(engine, pdf, font, bold, watermark === null ? [] : typeof watermark === 'string' ? [watermark] : watermark)
    w.newPage()
    return w
  }

  newPage(): void {
    this.flushPage()
    this.page = this.pdf.addPage(this.engine.list(A4) as [number, number])
    this.fontKeys = null
    this.y = A4[1] - MARGIN
    const n = this.watermarks.length
    if (!n) return
    const size = n > 1 ? 80 : 96
    const c = Math.cos(Math.PI / 4)
    // Faint: one graphics state (18% opacity) per document, named on each page that has a watermark.
    this.watermarkState ??= this.pdf.context.register(this.pdf.context.obj({ Type: 'ExtGState', ca: 0.18, CA: 0.18 }))
    const gs = this.page.node.newExtGState('GS', this.watermarkState).toString()
    this.watermarks.forEach((word, i) => {
      const width = this.measure(word, size, true)
      // Several words sit on parallel diagonals, centred as a group, so none covers another.
      const shift = (i - (n - 1) / 2) * size * 1.2
      const x = A4[0] / 2 - (width / 2) * c + shift * c
      const y = A4[1] / 2 - (width / 2) * c - shift * c
      const hex = encodeText(this.bold, this.boldGlyphs, word)
      this.ops.push(`q ${gs} gs BT ${this.fontKey(true)} ${size} Tf 0.85 0.2 0.2 rg ${num(c)} ${num(c)} ${num(-c)} ${num(c)} ${num(x)} ${num(y)} Tm ${hex} Tj ET Q`)
    })
  }

  /** Starts a new page when fewer than `needed` points are left. */
  ensure(needed: number): void {
    if (this.y - needed < MARGIN) {
      this.newPage()
      this.onNewPage?.()
    }
  }

  /**
   * Lets the event loop run when this build has held the thread for a slice: a long document is built in short
   * turns, so `/health` and every other request are answered while several large PDFs are being made.
   */
  async breathe(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return
    await nextTurn()
    this.sliceStart = performance.now()
  }

  /**
   * Width at `size` of each UTF-16 unit of `text`: a character's width on its first unit, 0 on the second half of
   * a surrogate pair (so no line is ever broken inside a character). No string per character is made: a large
   * document has a million characters, and garbage is time the collector takes from every request.
   */
  private widthsOf(text: string, size: number, bold: boolean): Float64Array {
    const table = bold ? this.boldGlyphs : this.regularGlyphs
    const widths = new Float64Array(text.length)
    for (let i = 0; i < text.length; i++) {
      const cp = text.codePointAt(i)!
      widths[i] = table.width(cp) * size
      if (cp > 0xffff) i++
    }
    return widths
  }

  /** Width of `text` at `size`: the sum of its characters' widths. */
  measure(text: string, size: number, bold = false): number {
    let sum = 0
    for (const w of this.widthsOf(text, size, bold)) sum += w
    return sum
  }

  /** Cuts text to fit `maxWidth`, ending with an ellipsis when cut: one pass over running widths. */
  fit(text: string, size: number, maxWidth: number, bold = false): string {
    const widths = this.widthsOf(text, size, bold)
    let total = 0
    for (const w of widths) total += w
    if (total <= maxWidth) return text
    const room = maxWidth - this.measure('…', size, bold)
    let sum = 0
    let n = 0
    // A character's second half has no width of its own, so the cut never falls inside a character.
    while (n < text.length && sum + widths[n]! <= room) sum += widths[n++]!
    return text.slice(0, Math.max(1, n)) + '…'
  }

  /**
   * Breaks text into lines no wider than `maxWidth`, in one pass: at the last space that fits, or inside a word
   * wider than the whole line. Line breaks in the text are kept; tabs become spaces. Nothing is dropped except
   * the spaces a line is broken at.
   */
  wrap(text: string, size: number, maxWidth: number, bold = false): string[] {
    const out: string[] = []
    for (const para of text.replace(/\t/g, ' ').split(/\r\n|\r|\n/)) {
      const widths = this.widthsOf(para, size, bold)
      let start = 0 // first unit of the current line
      let width = 0 // width of para[start..i)
      let lastSpace = -1 // the last space in the current line, where it may break
      let widthToSpace = 0 // width of para[start..lastSpace]
      for (let i = 0; i < para.length; i++) {
        const w = widths[i]!
        const space = para.charCodeAt(i) === 32
        if (width + w > maxWidth && i > start) {
          if (space) {
            // The space itself overflows: the line ends before it and the space is dropped.
            out.push(para.slice(start, i))
            start = i + 1
            width = 0
            lastSpace = -1
            continue
          }
          if (lastSpace >= start) {
            // Break at the last space; the word begun after it moves down with its width already summed.
            out.push(para.slice(start, lastSpace))
            start = lastSpace + 1
            width -= widthToSpace
            lastSpace = -1
          }
          if (width + w > maxWidth && i > start) {
            // One word wider than the line: cut it where it stops fitting (w > 0, so never inside a character).
            out.push(para.slice(start, i))
            start = i
            width = 0
          }
        }
        width += w
        if (space) {
          lastSpace = i
          widthToSpace = width
        }
      }
      out.push(para.slice(start))
    }
    return out
  }

  text(text: string, x: number, opts: { size?: number; bold?: boolean; right?: boolean; maxWidth?: number; y?: number } = {}): void {
    const size = opts.size ?? 10
    // One line only: line breaks and tabs become spaces.
    let s = text.replace(/[\r\n\t]+/g, ' ')
    if (opts.maxWidth) s = this.fit(s, size, opts.maxWidth, opts.bold)
    if (!s) return
    const width = opts.right ? this.measure(s, size, opts.bold) : 0
    const hex = encodeText(opts.bold ? this.bold : this.font, opts.bold ? this.boldGlyphs : this.regularGlyphs, s)
    // Written straight into the page's stream: pdf-lib's drawText builds some twenty objects per line, which for a
    // document of thousands of lines was most of the build's time and memory.
    this.ops.push(`BT ${this.fontKey(!!opts.bold)} ${size} Tf 0.1 0.1 0.1 rg ${num(opts.right ? x - width : x)} ${num(opts.y ?? this.y)} Td ${hex} Tj ET`)
  }

  /** The current page's resource name for the regular or bold font, added to the page on first use. */
  private fontKey(bold: boolean): string {
    this.fontKeys ??= { regular: '', bold: '' }
    const f = bold ? this.bold : this.font
    const which = bold ? 'bold' : 'regular'
    if (!this.fontKeys[which]) this.fontKeys[which] = this.page.node.newFontDictionary(f.name, f.ref).toString()
    return this.fontKeys[which]
  }

  /** Ends the current page: its operators become one compressed stream (native zlib, not pdf-lib's JS one). */
  private flushPage(): void {
    if (!this.ops.length) return
    const ctx = this.pdf.context
    const stream = ctx.stream(this.engine.bytes(deflateSync(Buffer.from(this.ops.join('\n'), 'latin1'))), { Filter: 'FlateDecode' })
    this.page.node.addContentStream(ctx.register(stream))
    this.ops = []
  }

  /**
   * Draws text wrapped to `maxWidth`, every line of it, moving down `lineHeight` after each and onto a new page
   * when the page is full. The first line is drawn at the current position.
   */
  async paragraph(text: string, x: number, opts: { size?: number; bold?: boolean; maxWidth: number; lineHeight: number }): Promise<void> {
    const lines = this.wrap(text, opts.size ?? 10, opts.maxWidth, opts.bold)
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) this.ensure(opts.lineHeight)
      if (lines[i]) this.text(lines[i]!, x, { size: opts.size, bold: opts.bold })
      this.down(opts.lineHeight)
      await this.breathe()
    }
  }

  rule(): void {
    this.ops.push(`q 0.6 0.6 0.6 RG 0.5 w ${MARGIN} ${num(this.y)} m ${num(A4[0] - MARGIN)} ${num(this.y)} l S Q`)
  }

  down(points: number): void {
    this.y -= points
  }

  /** The file, written a few objects per turn of the event loop (pdf-lib yields between them). */
  async save(): Promise<Uint8Array> {
    this.flushPage()
    return ours(await this.pdf.save({ objectsPerTick: 20 }))
  }

  /** `#RRGGBB` as the engine's colour. */
  color(hex: string): ReturnType<PdfEngine['pdf']['rgb']> {
    const n = Number.parseInt(hex.slice(1), 16)
    return this.engine.pdf.rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255)
  }
}
