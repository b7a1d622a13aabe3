// The PDF fonts: the files as the binary carries them, and their subsets as the PDF engine writes them.
import { afterAll, expect, test } from 'bun:test'
import fontkit from '@pdf-lib/fontkit'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { readEmbedded } from '../../shared/embedded-file'
import { pdfEngine } from '../../shared/pdf-engine'
import { fontBytes } from './fonts'
import { subsetOf as subset, type SubsetFont } from './subset.testkit'

const dir = mkdtempSync(join(tmpdir(), 'fonts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('a font file the build gzipped reads back byte for byte as the TrueType file it was; a plain one as it is', async () => {
  const { regular } = await fontBytes()
  expect([...regular.subarray(0, 4)]).toEqual([0, 1, 0, 0])
  const gz = join(dir, 'regular.ttf')
  writeFileSync(gz, gzipSync(regular, { level: 9 }))
  expect(Buffer.from(await readEmbedded(gz)).equals(Buffer.from(regular))).toBe(true)
  const plain = join(dir, 'plain.ttf')
  writeFileSync(plain, regular)
  expect(Buffer.from(await readEmbedded(plain)).equals(Buffer.from(regular))).toBe(true)
})

/** A subset's bytes alone. */
const subsetOf = async (font: SubsetFont, text: string) => (await subset(font, text)).bytes

test('the engine writes a subset byte for byte as fontkit alone does, again and again from one parsed font, its glyphs decoded once', async () => {
  const { regular } = await fontBytes()
  const alone = (text: string) => subsetOf(fontkit.create(Buffer.from(regular)) as unknown as SubsetFont, text)
  // Composite letters (ä is a and a diaeresis), the signs of amounts in the eight languages, and plain ASCII.
  const text = 'Rechnungsempfänger Größe Übersicht Façade Łódź São 1.234,56 € 19 % Invoice'
  const engine = await pdfEngine()
  const font = (engine.fontkit as unknown as { create(b: Uint8Array): SubsetFont }).create(engine.bytes(regular))
  expect((await subsetOf(font, text)).equals(await alone(text))).toBe(true)
  // The second subset reads the outlines the first decoded, and writes the same bytes; so does a third with more.
  const glyphs = [...text].map((ch) => font.getGlyph(font.glyphForCodePoint(ch.codePointAt(0)!).id))
  expect(glyphs.every((g) => Object.hasOwn(g, '_decode'))).toBe(true)
  expect((await subsetOf(font, text)).equals(await alone(text))).toBe(true)
  expect((await subsetOf(font, `Straße ${text} ÀÉÎÕÜ`)).equals(await alone(`Straße ${text} ÀÉÎÕÜ`))).toBe(true)
})
