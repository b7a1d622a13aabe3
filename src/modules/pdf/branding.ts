// The Business's branding on every PDF (documents and Receipts): its logo at the top left and its colour in a band
// across the top of each page and in the title. Drawn over the page writer, so the text layout stays the writer's.
import type { PDFImage } from 'pdf-lib'
import { embedImage } from '../../shared/pdf-engine'
import { logoDimensionsFault } from '../business'
import { A4, MARGIN, type PageWriter } from './layout'

export interface Branding {
  logo: { bytes: Uint8Array; type: string } | null
  /** `#RRGGBB` or null. */
  color: string | null
}

export const NO_BRANDING: Branding = { logo: null, color: null }

/** The logo is scaled down (never up) to fit this box, in points. */
const LOGO_BOX = { width: 160, height: 56 }

/** A band of the brand colour across the top of the current page. */
export function drawBand(w: PageWriter, brand: Branding): void {
  if (!brand.color) return
  w.page.drawRectangle({ x: 0, y: A4[1] - 10, width: A4[0], height: 10, color: w.color(brand.color) })
}

/**
 * Draws the logo at the top left and moves the writer below it; a logo that cannot be drawn is left out rather than
 * failing the PDF (it was checked when set; this guards against a stored image damaged since). One whose header
 * declares more pixels than a logo may have (taken before that rule, or written into the database) is left out
 * before it is decoded: decoding it would cost every PDF seconds and hundreds of MB.
 */
export async function drawLogo(w: PageWriter, brand: Branding): Promise<void> {
  if (!brand.logo || logoDimensionsFault(brand.logo.bytes)) return
  let image: PDFImage
  try {
    image = await embedImage(w.engine, w.pdf, brand.logo)
  } catch {
    return
  }
  const scale = Math.min(LOGO_BOX.width / image.width, LOGO_BOX.height / image.height, 1)
  const width = image.width * scale
  const height = image.height * scale
  // The writer's y is a text baseline; the logo's top sits where a 14-point line's top would.
  w.page.drawImage(image, { x: MARGIN, y: w.y + 10 - height, width, height })
  w.down(height + 8)
}

/** The document's title (right-aligned at `x`), in the brand colour when there is one. */
export function drawTitle(w: PageWriter, brand: Branding, title: string, x: number): void {
  w.text(title, x, { size: 18, bold: true, right: true, ...(brand.color ? { color: brand.color } : {}) })
}
