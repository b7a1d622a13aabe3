// The one rule of what a Business logo may be (extensions §2): a PNG or JPEG of at most 1 MB that the PDF writer
// can draw. The CLI (`business update --logo`) and the application's Business setup both go through setBusinessLogo,
// which judges with this.
import { embedImage, pdfEngine } from '../../shared/pdf-engine'

export const LOGO_MAX_BYTES = 1024 * 1024

/** The media type of a logo by its first bytes: PNG and JPEG are what every PDF reader draws. */
export function logoTypeOf(bytes: Uint8Array): 'image/png' | 'image/jpeg' | null {
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png'
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  return null
}

/** Why a file of `size` bytes is too large for a logo (null when it is not), judged before the file is read. */
export function logoSizeFault(size: number): string | null {
  return size > LOGO_MAX_BYTES ? `is ${(size / 1024 / 1024).toFixed(1)} MB; a logo is at most 1 MB` : null
}

/** Why these bytes cannot be the logo (null when they can), in words for the `logo` field. */
export async function logoFault(bytes: Uint8Array): Promise<string | null> {
  const tooLarge = logoSizeFault(bytes.length)
  if (tooLarge) return tooLarge
  const type = logoTypeOf(bytes)
  if (!type) return 'must be a PNG or JPEG image'
  // Read by the same library that draws it on the PDFs, so a logo taken is one every PDF can carry.
  const engine = await pdfEngine()
  try {
    const pdf = await engine.pdf.PDFDocument.create()
    await embedImage(engine, pdf, { bytes, type })
    return null
  } catch {
    return `cannot be read as a ${type === 'image/png' ? 'PNG' : 'JPEG'} image`
  }
}
