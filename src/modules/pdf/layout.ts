// A small page writer over pdf-lib: text at positions, wrapped paragraphs, rules, page breaks, and a watermark on
// every page.
//
// Layout is linear in a text's length: every character's width is looked up once per font (a table kept for the
// process) and lines are broken by running sums of those widths. Measuring a growing string again for every
// character cut (what this file once did) made one 4,000-character address block the only JavaScript thread for
// nearly a minute.
import type { PDFDocument, PDFFont, PDFPage, PDFRef } from 'pdf-lib'
import { ours, pdfEngine, releasePdfEngine, type PdfEngine } from '../../shared/pdf-engine'
import { commonFont, embedCommon, type CommonFont } from './common-font'
import { ContentStream } from './content-stream'
import { fallbackFontBytes, fontBytes, releaseFontBytes, type Fallback } from './fonts'
import { embedSubsetNow, encodeText, hex4, tagSubset, UNSHAPED } from './subset'
import { nextTurn } from '../../shared/turns'
import { shapeFigure, type Formats } from '../words'

interface Fontkit {
  create(bytes: Uint8Array): unknown
}
/**
 * What a build takes from the engine: the engine itself, its fontkit sharing parsed fonts, and the faces of each
 * weight (which font draws each character: the document font's common subset and file, and the fallback fonts).
 */
interface Libs {
  engine: PdfEngine
  fontkit: Fontkit
  /** A fallback font's file in the engine's realm, read on the first character that needs it (see fonts.ts). */
  fallback(which: Fallback): Uint8Array
  faces: { regular: Faces; bold: Faces }
}
// The engine starts with the first PDF, not at start: a server may never need it (see shared/pdf-engine).
let libs: Promise<Libs> | null = null
function loadLibs(): Promise<Libs> {
  libs ??= Promise.all([pdfEngine(), fontBytes()]).then(async ([engine, bytes]) => {
    // One view of each file in the engine's realm, for all its documents: the parsed fonts are kept by these bytes.
    const fallbacks = new Map<Fallback, Uint8Array>()
    const fontkit = sharedFontkit(engine.fontkit as Fontkit)
    const fallback = (which: Fallback): Uint8Array => {
      let b = fallbacks.get(which)
      if (!b) fallbacks.set(which, (b = engine.bytes(fallbackFontBytes(which))))
      return b
    }
    const fallbackTable = (which: Fallback) => glyphTableOf(fontkit.create(fallback(which)) as ParsedFont)
    const facesOf = async (file: Uint8Array) => {
      const parsed = fontkit.create(file)
      const table = glyphTableOf(parsed as ParsedFont)
      return new Faces(file, table, await commonFont(engine, parsed, file, table), fallbackTable)
    }
    const faces = { regular: await facesOf(engine.bytes(bytes.regular)), bold: await facesOf(engine.bytes(bytes.bold)) }
    return { engine, fontkit, fallback, faces }
  })
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
      if (!font)
        parsed.set(bytes, (font = keepCodePoints(lightTables(fontkit.create(bytes) as GlyphSource & FontTables))))
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
  for (const key of ['postscriptName', 'fullName', 'fontFamily', 'fontSubfamily'])
    kept[key] = records[key]?.en === undefined ? undefined : { en: records[key]!.en }
  font._tables.name = { records: kept }
  return font
}

interface GlyphSource {
  getGlyph(id: number, codePoints?: number[]): SharedGlyph | null
}
/** What of a fontkit glyph the sharing below touches (fontkit's own, not in pdf-lib's types). */
interface SharedGlyph {
  codePoints: number[]
  _decode?: () => unknown
}
/**
 * fontkit keeps each glyph it makes, with the characters it was asked for first. Subsetting one document makes
 * the parts of composite glyphs with no characters (ή is η and an accent), so once the font is shared, a later
 * document asking for η would get a glyph with none and its text would copy out without it. A glyph asked for
 * by a character takes that character when it has none.
 *
 * A glyph's outline is decoded once for the font's life too: fontkit's subset decodes each glyph it takes, in every
 * document, only to learn whether the glyph is built of others (ä is a and ¨), and that was most of the cost of each
 * glyph a document uses. The decoded outline is font data that the subset, the widths and fontkit's drawing only read.
 */
function keepCodePoints(font: GlyphSource): GlyphSource {
  const getGlyph = font.getGlyph.bind(font)
  font.getGlyph = (id, codePoints = []) => {
    const glyph = getGlyph(id, codePoints)
    if (glyph && codePoints.length && !glyph.codePoints.length) glyph.codePoints = codePoints
    if (glyph?._decode && !Object.hasOwn(glyph, '_decode')) {
      const decoded = glyph._decode()
      glyph._decode = () => decoded
    }
    return glyph
  }
  return font
}

/** The parsed font under a pdf-lib font: fontkit's, shared by every document (see sharedFontkit). */
interface ParsedFont {
  unitsPerEm: number
  glyphForCodePoint(cp: number): { id: number; advanceWidth: number }
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
function glyphTableOf(parsed: ParsedFont): GlyphTable {
  let table = glyphTables.get(parsed)
  if (!table) glyphTables.set(parsed, (table = new GlyphTable(parsed)))
  return table
}

// ---------------------------------------------------------------------------------------------------------------
// Fallback fonts: a character the document font (DejaVu Sans) lacks is drawn in the East Asian font that has it, and
// one no font has as U+FFFD, never as the .notdef glyph (a box, which PDF/A forbids in any text shown).

/**
 * Where a character is drawn from: the document font's common subset (./common-font.ts), the document's own subset of
 * the document font, a fallback font, or none (drawn as the replacement mark).
 */
type Face = 'common' | 'main' | Fallback | 'none'

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff\uffa0-\uffdc]/u
const HAN =
  /[\u2e80-\u2fff\u3000-\u312f\u3190-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef\u{1b000}-\u{1b16f}\u{20000}-\u{323af}]/u
/** Characters nothing draws (joiners, variation selectors, direction marks): a font without them drops them. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u
const REPLACEMENT = 0xfffd

/** The fallback fonts to ask for a character, in order: only East Asian scripts have one. */
function fallbacksFor(cp: number): Fallback[] {
  const ch = String.fromCodePoint(cp)
  if (HANGUL.test(ch)) return ['hangul', 'han']
  return HAN.test(ch) ? ['han', 'hangul'] : []
}

/**
 * The faces of one weight: which font draws each character and its width at size 1, decided once per character
 * (and kept for the engine's life, like the document font's glyph table). A fallback font is parsed only when a
 * character of its script comes.
 */
class Faces {
  private readonly faces = new Map<number, Face>()
  private readonly widths = new Map<number, number>()
  /** What a character no font has is drawn as: U+FFFD when the document font has it, else a question mark. */
  readonly replacement: number
  constructor(
    /** The document font's file in this weight, for a document's own subset of it. */
    readonly file: Uint8Array,
    readonly main: GlyphTable,
    readonly common: CommonFont,
    private readonly fallback: (which: Fallback) => GlyphTable,
  ) {
    this.replacement = main.glyph(REPLACEMENT).id !== 0 ? REPLACEMENT : 0x3f
  }
  faceOf(cp: number): Face {
    let face = this.faces.get(cp)
    if (face === undefined) this.faces.set(cp, (face = this.choose(cp)))
    return face
  }
  private choose(cp: number): Face {
    if (this.common.id(cp) !== 0) return 'common'
    if (this.main.glyph(cp).id !== 0) return 'main'
    for (const which of fallbacksFor(cp)) if (this.fallback(which).glyph(cp).id !== 0) return which
    return 'none'
  }
  table(face: Fallback | 'main' | 'common'): GlyphTable {
    return face === 'main' || face === 'common' ? this.main : this.fallback(face)
  }
  /** Text of common characters only, as the hex string of their glyph ids in the common subset. */
  commonHex(text: string): string {
    let out = '<'
    // Every common character is a single UTF-16 unit.
    for (let i = 0; i < text.length; i++) out += hex4(this.common.id(text.charCodeAt(i)))
    return out + '>'
  }
  width(cp: number): number {
    let w = this.widths.get(cp)
    if (w === undefined) {
      const face = this.faceOf(cp)
      w =
        face === 'none'
          ? IGNORABLE.test(String.fromCodePoint(cp))
            ? 0
            : this.main.width(this.replacement)
          : this.table(face).width(cp)
      this.widths.set(cp, w)
    }
    return w
  }
}
/** A run of text drawn in one font. */
interface Run {
  face: Fallback | 'main' | 'common'
  text: string
}

/**
 * The text cut into runs by the font that draws each character: one run of the whole text when one font draws all
 * of it (the usual case, no string made). A character no font has becomes the replacement mark, or nothing when it
 * is one that draws nothing. Text that needs shaping (`shaped`: a combining mark, say) keeps the document font's
 * characters in its own subset, one run for the shaper, rather than cut at the common ones.
 */
function runsOf(faces: Faces, text: string, shaped: boolean): Run[] {
  const runs: Run[] = []
  const drawnBy = (f: Exclude<Face, 'none'>): Run['face'] => (shaped && f === 'common' ? 'main' : f)
  const replacement = drawnBy(faces.faceOf(faces.replacement) as Exclude<Face, 'none'>)
  let face: Run['face'] = 'common'
  let run = '' // the current run's text before `from`
  let from = 0 // where the stretch copied as it is begins
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!
    const next = i + (cp > 0xffff ? 2 : 1)
    const f = faces.faceOf(cp)
    if (f === 'none' && IGNORABLE.test(String.fromCodePoint(cp))) {
      run += text.slice(from, i)
      from = next
    } else if (f === 'none') {
      if (face !== replacement) {
        run += text.slice(from, i)
        if (run) runs.push({ face, text: run })
        run = ''
        face = replacement
      } else run += text.slice(from, i)
      run += String.fromCodePoint(faces.replacement)
      from = next
    } else if (drawnBy(f) !== face) {
      run += text.slice(from, i)
      if (run) runs.push({ face, text: run })
      run = ''
      face = drawnBy(f)
      from = i
    }
    i = next
  }
  run += text.slice(from)
  if (run) runs.push({ face, text: run })
  return runs
}

/** `#RRGGBB` as three fractions of 1. */
function rgbOf(hex: string): number[] {
  const n = Number.parseInt(hex.slice(1), 16)
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255]
}

/** A number as a content stream writes it: at most three decimals, no exponent. */
function num(n: number): string {
  return String(Math.round(n * 1000) / 1000)
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

/** How `text` and `figure` draw a line. `color`: `#RRGGBB`, the text's dark grey otherwise. */
export interface TextOptions {
  size?: number
  bold?: boolean
  right?: boolean
  maxWidth?: number
  y?: number
  color?: string
}

/** A font a page draws with: pdf-lib's for a document's own subset, or the copied common subset's dictionary. */
interface DrawnFont {
  ref: PDFRef
}

export class PageWriter {
  page!: PDFPage
  y = 0
  /** Called after every page break (a table's header on each continuation page). */
  onNewPage: (() => void) | null = null
  private sliceStart = performance.now()
  /** The current page's drawing operators, and the fonts named in its resources (each on first use). */
  private readonly content = new ContentStream()
  private watermarkState: PDFRef | null = null
  private pageFonts = new Set<DrawnFont>()
  /** Each font's resource name, the same on every page of the document: F1, F2, ... in the order of first use. */
  private readonly fontKeys = new Map<DrawnFont, string>()
  private readonly regularFaces: Faces
  private readonly boldFaces: Faces
  /** The common subsets as copied into this document, each on its first use. */
  private readonly commons = new Map<Faces, DrawnFont>()
  /**
   * The document's own subsets (of the document font in each weight beyond its common characters, and of each
   * fallback font), each embedded on the first character that needs it.
   */
  private readonly subsets = new Map<Faces | Fallback, PDFFont>()
  /** A line's UTF-16 units as `text` and `figure` draw them (grown for a longer line). */
  private units = new Uint16Array(256)
  private constructor(
    private readonly libs: Libs,
    readonly pdf: PDFDocument,
    private readonly watermarks: string[],
  ) {
    this.regularFaces = libs.faces.regular
    this.boldFaces = libs.faces.bold
  }

  get engine(): PdfEngine {
    return this.libs.engine
  }

  /** `watermark`: one word across every page, or several (SAMPLE and VOID) on parallel diagonals. */
  static async create(title: string, watermark: string | string[] | null): Promise<PageWriter> {
    const libs = await loadLibs()
    const pdf = await libs.engine.pdf.PDFDocument.create()
    pdf.setTitle(title)
    pdf.setProducer('invoicing')
    const w = new PageWriter(
      libs,
      pdf,
      watermark === null ? [] : typeof watermark === 'string' ? [watermark] : watermark,
    )
    w.newPage()
    return w
  }

  newPage(): void {
    this.flushPage()
    this.page = this.pdf.addPage(this.engine.list(A4) as [number, number])
    this.pageFonts = new Set()
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
      this.content.ascii(
        `q ${gs} gs BT 0.85 0.2 0.2 rg ${num(c)} ${num(c)} ${num(-c)} ${num(c)} ${num(x)} ${num(y)} Tm ${this.shown(word, size, true)} ET Q\n`,
      )
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
    const faces = bold ? this.boldFaces : this.regularFaces
    const widths = new Float64Array(text.length)
    for (let i = 0; i < text.length; i++) {
      const cp = text.codePointAt(i)!
      widths[i] = faces.width(cp) * size
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
    return this.fitted(text, size, maxWidth, bold).text
  }

  /** `fit`, with the width of what it gives (measured once: a right-aligned figure needs both). */
  private fitted(text: string, size: number, maxWidth: number, bold: boolean): { text: string; width: number } {
    const widths = this.widthsOf(text, size, bold)
    let total = 0
    for (const w of widths) total += w
    if (total <= maxWidth) return { text, width: total }
    const ellipsis = this.measure('…', size, bold)
    const room = maxWidth - ellipsis
    let sum = 0
    let n = 0
    // A character's second half has no width of its own, so the cut never falls inside a character.
    while (n < text.length && sum + widths[n]! <= room) sum += widths[n++]!
    if (n === 0) sum = widths[0]!
    return { text: text.slice(0, Math.max(1, n)) + '…', width: sum + ellipsis }
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

  /**
   * One line of text at x (its right end at x with `right`), cut with an ellipsis to `maxWidth`. Written straight
   * into the page's stream: pdf-lib's drawText builds some twenty objects per line, which for a document of thousands
   * of lines was most of the build's time and memory.
   */
  text(text: string, x: number, opts: TextOptions = {}): void {
    if (!text) return
    if (this.drawCommon(this.unitsOf(text), text.length, x, opts)) return
    const size = opts.size ?? 10
    const bold = !!opts.bold
    // One line only: line breaks and tabs become spaces.
    let s = text.replace(/[\r\n\t]+/g, ' ')
    let width = 0
    if (opts.maxWidth) {
      const fitted = this.fitted(s, size, opts.maxWidth, bold)
      s = fitted.text
      width = fitted.width
    } else if (opts.right) width = this.measure(s, size, bold)
    if (!s) return
    this.begin(opts.right ? x - width : x, opts)
    this.content.ascii(`${this.shown(s, size, bold)} ET\n`)
  }

  /**
   * A figure (a decimal string: "1234.5") in the document's language, then `suffix` (" pcs"), drawn as `text` draws
   * a line: straight from its digits in the language's signs (shapeFigure), no string made, as figures are most of a
   * document's characters; anything but a plain figure (a negative amount) as the text `t.number` writes.
   */
  figure(t: Formats, decimal: string, x: number, opts: TextOptions = {}, suffix = ''): void {
    let n = shapeFigure(decimal, t.figureShape, this.units)
    if (n >= 0 && n + suffix.length <= this.units.length) {
      for (let i = 0; i < suffix.length; i++) this.units[n++] = suffix.charCodeAt(i)
      if (this.drawCommon(this.units, n, x, opts)) return
    }
    this.text(`${t.number(decimal)}${suffix}`, x, opts)
  }

  /** A line's UTF-16 units, in a buffer kept for the document. */
  private unitsOf(text: string): Uint16Array {
    if (text.length > this.units.length) this.units = new Uint16Array(text.length * 2)
    const units = this.units
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i)
    return units
  }

  /**
   * The usual line: when the common subset holds every unit (no line break or tab either) and it fits, the line is
   * drawn, measured and written in two passes over its units, and true; else nothing is drawn.
   */
  private drawCommon(units: Uint16Array, n: number, x: number, opts: TextOptions): boolean {
    const size = opts.size ?? 10
    const faces = opts.bold ? this.boldFaces : this.regularFaces
    const width = faces.common.width(units, n, size)
    if (Number.isNaN(width) || (opts.maxWidth && width > opts.maxWidth)) return false
    this.begin(opts.right ? x - width : x, opts)
    this.content.ascii(`${this.fontKey(this.commonFont(faces))} ${size} Tf <`)
    faces.common.write(units, n, this.content)
    this.content.ascii('> Tj ET\n')
    return true
  }

  /** A text object begun at x and the line's y, in the text's colour (`#RRGGBB`, or the usual dark grey). */
  private begin(x: number, opts: { y?: number; color?: string }): void {
    const rgb = opts.color ? rgbOf(opts.color).map(num).join(' ') : '0.1 0.1 0.1'
    this.content.ascii(`BT ${rgb} rg ${num(x)} ${num(opts.y ?? this.y)} Td `)
  }

  /**
   * The operators that show `text` at `size`: each run in its font, one after the other (each Tj moves the text
   * position on by the run's width). A fallback font has one weight, drawn for bold text too.
   */
  private shown(text: string, size: number, bold: boolean): string {
    const faces = bold ? this.boldFaces : this.regularFaces
    let ops = ''
    for (const run of runsOf(faces, text, !UNSHAPED.test(text))) {
      let font: DrawnFont
      let hex: string
      if (run.face === 'common') {
        font = this.commonFont(faces)
        hex = faces.commonHex(run.text)
      } else {
        const subset = this.subsetFont(run.face === 'main' ? faces : run.face)
        // A fallback run is Han, kana or Hangul syllables: one glyph per character, no shaping.
        hex = encodeText(subset, faces.table(run.face), run.text, run.face === 'main' ? undefined : true)
        font = subset
      }
      ops += `${ops ? ' ' : ''}${this.fontKey(font)} ${size} Tf ${hex} Tj`
    }
    return ops
  }

  private commonFont(faces: Faces): DrawnFont {
    let font = this.commons.get(faces)
    if (!font) {
      const common = faces.common
      this.commons.set(faces, (font = { ref: embedCommon(this.engine, this.pdf, common) }))
    }
    return font
  }

  /** The document's own subset of the document font in the weight of `faces`, or of a fallback font. */
  private subsetFont(of: Faces | Fallback): PDFFont {
    let font = this.subsets.get(of)
    if (!font) {
      const file = of instanceof Faces ? of.file : this.libs.fallback(of)
      this.subsets.set(of, (font = embedSubsetNow(this.engine, this.pdf, this.libs.fontkit.create(file), file)))
    }
    return font
  }

  /**
   * The current page's resource name for a font, added to the page on first use. Short (pdf-lib's own are the
   * font's name and ten digits), as each line of text names its font once.
   */
  private fontKey(f: DrawnFont): string {
    let key = this.fontKeys.get(f)
    if (!key) this.fontKeys.set(f, (key = `/F${this.fontKeys.size + 1}`))
    if (!this.pageFonts.has(f)) {
      this.pageFonts.add(f)
      this.page.node.setFontDictionary(this.engine.pdf.PDFName.of(key.slice(1)), f.ref)
    }
    return key
  }

  /** Ends the current page: its operators become one compressed stream (native zlib, not pdf-lib's JS one). */
  private flushPage(): void {
    if (this.content.empty) return
    const ctx = this.pdf.context
    const stream = ctx.stream(this.engine.bytes(this.content.take()), {
      Filter: 'FlateDecode',
    })
    this.page.node.addContentStream(ctx.register(stream))
  }

  /**
   * Draws text wrapped to `maxWidth`, every line of it, moving down `lineHeight` after each and onto a new page
   * when the page is full. The first line is drawn at the current position.
   */
  async paragraph(
    text: string,
    x: number,
    opts: { size?: number; bold?: boolean; maxWidth: number; lineHeight: number },
  ): Promise<void> {
    const lines = this.wrap(text, opts.size ?? 10, opts.maxWidth, opts.bold)
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) this.ensure(opts.lineHeight)
      if (lines[i]) this.text(lines[i]!, x, { size: opts.size, bold: opts.bold })
      this.down(opts.lineHeight)
      await this.breathe()
    }
  }

  /**
   * A QR code's modules as filled squares, `size` points wide with its quiet zone of four modules, its top left corner
   * at (x, top): one path of rectangles, so a scanner sees sharp edges at any zoom.
   */
  qr(m: { size: number; dark(row: number, col: number): boolean }, x: number, top: number, size: number): void {
    const unit = size / (m.size + 8)
    const rects: string[] = []
    for (let r = 0; r < m.size; r++)
      for (let c = 0; c < m.size; c++)
        if (m.dark(r, c))
          rects.push(`${num(x + (c + 4) * unit)} ${num(top - (r + 5) * unit)} ${num(unit)} ${num(unit)} re`)
    this.content.ascii(
      `q 1 1 1 rg ${num(x)} ${num(top - size)} ${num(size)} ${num(size)} re f 0 0 0 rg ${rects.join(' ')} f Q\n`,
    )
  }

  rule(): void {
    this.content.ascii(
      `q 0.6 0.6 0.6 RG 0.5 w ${MARGIN} ${num(this.y)} m ${num(A4[0] - MARGIN)} ${num(this.y)} l S Q\n`,
    )
  }

  down(points: number): void {
    this.y -= points
  }

  /** The file, written a few objects per turn of the event loop (pdf-lib yields between them). */
  async save(): Promise<Uint8Array> {
    this.flushPage()
    for (const font of this.subsets.values()) tagSubset(font)
    return ours(await this.pdf.save({ objectsPerTick: 20 }))
  }

  /** `#RRGGBB` as the engine's colour. */
  color(hex: string): ReturnType<PdfEngine['pdf']['rgb']> {
    const [r, g, b] = rgbOf(hex)
    return this.engine.pdf.rgb(r!, g!, b!)
  }
}
