// The one rule of what a Business logo may be (extensions §2): a PNG or JPEG of at most 1 MB and at most
// 2000 × 2000 pixels that the PDF writer can draw. The CLI (`business update --logo`) and the application's Business
// setup both go through setBusinessLogo, which judges with this; the PDFs skip a stored logo it would refuse.
import { embedImage, pdfEngine } from '../../shared/pdf-engine'

export const LOGO_MAX_BYTES = 1024 * 1024
/**
 * A side of at most this many pixels (so at most 4 MP). The PDF writer decodes a PNG whole (4 bytes a pixel and
 * more): a 35 KB file declaring 6000 × 6000 took 3.8 s and 437 MB on every PDF. A logo is drawn at most 160 × 56 pt.
 */
export const LOGO_MAX_SIDE = 2000

/** The media type of a logo by its first bytes: PNG and JPEG are what every PDF reader draws. */
export function logoTypeOf(bytes: Uint8Array): 'image/png' | 'image/jpeg' | null {
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return 'image/png'
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  return null
}

/** Why a file of `size` bytes is too large for a logo (null when it is not), judged before the file is read. */
export function logoSizeFault(size: number): string | null {
  return size > LOGO_MAX_BYTES ? `is ${(size / 1024 / 1024).toFixed(1)} MB; a logo is at most 1 MB` : null
}

/**
 * The width and height an image declares in its header, read without decoding it (null when the header cannot be
 * read): a PNG's IHDR, which must be its first chunk; a JPEG's first frame header (SOFn, the marker pdf-lib reads),
 * found by walking the segments by their lengths, every read checked against the end of the bytes.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const type = logoTypeOf(bytes)
  if (type === 'image/png') {
    // Signature (8), then the IHDR chunk: length (4), "IHDR", width (4), height (4).
    if (bytes.length < 24 || view.getUint32(12) !== 0x49484452) return null
    return { width: view.getUint32(16), height: view.getUint32(20) }
  }
  if (type !== 'image/jpeg') return null
  let at = 2
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null
    const marker = bytes[at + 1]!
    // Fill bytes before a marker, and the markers that stand alone (TEM, RSTn) carry no length.
    if (marker === 0xff) {
      at += 1
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    // The image data (SOS) or its end (EOI) before any frame header: no dimensions to read.
    if (marker === 0xda || marker === 0xd9) return null
    const length = view.getUint16(at + 2)
    if (length < 2 || at + 2 + length > bytes.length) return null
    // SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC): precision (1), height (2), width (2).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 7) return null
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) }
    }
    at += 2 + length
  }
  return null
}

/**
 * Why these bytes' declared size is not a logo's (null when it is), read from the header alone, so an image bomb is
 * refused before anything decodes it.
 */
export function logoDimensionsFault(bytes: Uint8Array): string | null {
  const type = logoTypeOf(bytes)
  if (!type) return 'must be a PNG or JPEG image'
  const size = imageDimensions(bytes)
  if (!size || size.width === 0 || size.height === 0)
    return `cannot be read as a ${type === 'image/png' ? 'PNG' : 'JPEG'} image`
  if (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE)
    return `is ${size.width} × ${size.height} pixels; a logo is at most ${LOGO_MAX_SIDE} × ${LOGO_MAX_SIDE} pixels`
  return null
}

/** Why these bytes cannot be the logo (null when they can), in words for the `logo` field. */
export async function logoFault(bytes: Uint8Array): Promise<string | null> {
  const tooLarge = logoSizeFault(bytes.length)
  if (tooLarge) return tooLarge
  const unfit = logoDimensionsFault(bytes)
  if (unfit) return unfit
  const type = logoTypeOf(bytes)!
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
