// A small page writer over pdf-lib: text at positions, rules, page breaks, and a watermark on every page.
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib'
import { fontBytes } from './fonts'

type PdfLib = typeof import('pdf-lib')
// pdf-lib and fontkit load with the first PDF, not at start: together they cost ~35 MB a server may never need.
let libs: Promise<{ pdf: PdfLib; fontkit: unknown }> | null = null
function loadLibs() {
  libs ??= Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]).then(([pdf, fk]) => ({ pdf, fontkit: fk.default }))
  return libs
}

export const A4: [number, number] = [595.28, 841.89]
export const MARGIN = 48

export class PageWriter {
  page!: PDFPage
  y = 0
  private constructor(
    private readonly lib: PdfLib,
    readonly pdf: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    private readonly watermarks: string[],
  ) {}

  /** `watermark`: one word across every page, or several (SAMPLE and VOID) on parallel diagonals. */
  static async create(title: string, watermark: string | string[] | null): Promise<PageWriter> {
    const { pdf: lib, fontkit } = await loadLibs()
    const pdf = await lib.PDFDocument.create()
    pdf.registerFontkit(fontkit as never)
    pdf.setTitle(title)
    pdf.setProducer('invoicing')
    const bytes = await fontBytes()
    // Subsetting keeps the file small: only the glyphs used are embedded.
    const font = await pdf.embedFont(bytes.regular, { subset: true })
    const bold = await pdf.embedFont(bytes.bold, { subset: true })
    const w = new PageWriter(lib, pdf, font, bold, watermark === null ? [] : typeof watermark === 'string' ? [watermark] : watermark)
    w.newPage()
    return w
  }

  newPage(): void {
    this.page = this.pdf.addPage(A4)
    this.y = A4[1] - MARGIN
    const n = this.watermarks.length
    const size = n > 1 ? 80 : 96
    const c = Math.cos(Math.PI / 4)
    this.watermarks.forEach((word, i) => {
      const width = this.bold.widthOfTextAtSize(word, size)
      // Several words sit on parallel diagonals, centred as a group, so none covers another.
      const shift = (i - (n - 1) / 2) * size * 1.2
      this.page.drawText(word, {
        x: A4[0] / 2 - (width / 2) * c + shift * c,
        y: A4[1] / 2 - (width / 2) * c - shift * c,
        size,
        font: this.bold,
        color: this.lib.rgb(0.85, 0.2, 0.2),
        opacity: 0.18,
        rotate: this.lib.degrees(45),
      })
    })
  }

  /** Starts a new page when fewer than `needed` points are left. */
  ensure(needed: number): void {
    if (this.y - needed < MARGIN) this.newPage()
  }

  /** Cuts text to fit `maxWidth`, ending with an ellipsis when cut. */
  fit(text: string, size: number, maxWidth: number, bold = false): string {
    const f = bold ? this.bold : this.font
    if (f.widthOfTextAtSize(text, size) <= maxWidth) return text
    let s = text
    while (s.length > 1 && f.widthOfTextAtSize(s + '…', size) > maxWidth) s = s.slice(0, -1)
    return s + '…'
  }

  text(text: string, x: number, opts: { size?: number; bold?: boolean; right?: boolean; maxWidth?: number; y?: number } = {}): void {
    const size = opts.size ?? 10
    const f = opts.bold ? this.bold : this.font
    // pdf-lib draws only single lines; line breaks and tabs become spaces.
    let s = text.replace(/[\r\n\t]+/g, ' ')
    if (opts.maxWidth) s = this.fit(s, size, opts.maxWidth, opts.bold)
    const width = f.widthOfTextAtSize(s, size)
    this.page.drawText(s, { x: opts.right ? x - width : x, y: opts.y ?? this.y, size, font: f, color: this.lib.rgb(0.1, 0.1, 0.1) })
  }

  rule(): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: A4[0] - MARGIN, y: this.y }, thickness: 0.5, color: this.lib.rgb(0.6, 0.6, 0.6) })
  }

  down(points: number): void {
    this.y -= points
  }

  save(): Promise<Uint8Array> {
    return this.pdf.save()
  }
}
