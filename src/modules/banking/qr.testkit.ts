// Test kit: a PDF's text (pdftotext) and the QR codes on its pages, rendered with pdftoppm and read with zbarimg
// (poppler-utils, zbar-tools: installed by .ci/run).
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

let files = 0

/** The PDF's text as pdftotext reads it. */
export async function textOfPdf(dir: string, bytes: Uint8Array): Promise<string> {
  const file = join(dir, `qr-text-${++files}.pdf`)
  await Bun.write(file, bytes)
  const p = Bun.spawnSync(['pdftotext', '-enc', 'UTF-8', file, '-'])
  if (p.exitCode !== 0) throw new Error(`pdftotext failed: ${p.stderr.toString()}`)
  return p.stdout.toString()
}

/** Every QR code's text in an image file (PNG), as zbarimg decodes it (UTF-8); none is an empty list. */
export function qrCodesOfImage(file: string): string[] {
  const z = Bun.spawnSync(['zbarimg', '--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', '-Sbinary', file])
  // zbarimg exits 4 when it found no code in the image.
  if (z.exitCode === 4) return []
  if (z.exitCode !== 0) throw new Error(`zbarimg failed (${z.exitCode}): ${z.stderr.toString()}`)
  const out = z.stdout.toString('utf8')
  return out ? [out.replace(/\n$/, '')] : []
}

/** Every QR code on every page of the PDF, rendered at 200 dpi. */
export async function qrCodesOfPdf(dir: string, bytes: Uint8Array): Promise<string[]> {
  const n = ++files
  const file = join(dir, `qr-${n}.pdf`)
  await Bun.write(file, bytes)
  const prefix = join(dir, `qr-${n}-page`)
  const r = Bun.spawnSync(['pdftoppm', '-r', '200', '-png', file, prefix])
  if (r.exitCode !== 0) throw new Error(`pdftoppm failed: ${r.stderr.toString()}`)
  const pages = readdirSync(dir)
    .filter((f) => f.startsWith(`qr-${n}-page`) && f.endsWith('.png'))
    .sort()
  return pages.flatMap((p) => qrCodesOfImage(join(dir, p)))
}
