// A PDF's text as pdftotext (poppler-utils) reads it, for tests that hold what a person reads on a PDF.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

let files = 0

/** The PDF's text: `reading` order (columns side by side), or `raw` content-stream order (a watermark's letters together). */
export function pdfText(bytes: Uint8Array, dir: string, mode: 'reading' | 'raw' = 'reading'): string {
  const file = join(dir, `text-${process.pid}-${++files}.pdf`)
  writeFileSync(file, bytes)
  const p = Bun.spawnSync(['pdftotext', ...(mode === 'raw' ? ['-raw'] : []), '-enc', 'UTF-8', file, '-'])
  if (p.exitCode !== 0) throw new Error(`pdftotext failed: ${p.stderr.toString()}`)
  return p.stdout.toString().normalize('NFC')
}

/** Every run of white space (no-break spaces too) as one space: a line's words as a reader sees them. */
export function spaced(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, ' ')
}

/** The text with no white space at all: words broken over lines or laid out in columns still read in order. */
export function squashed(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, '')
}
