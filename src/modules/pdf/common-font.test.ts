// The document fonts' common subsets (./common-font.ts): every fixed word, figure, date and country name of the eight
// languages is drawn from them, so an English and a German document embed the very same fonts; a name beyond them
// adds the document's own subset and reads back as written; every font program names its length (Length1).
import { expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import countries from 'i18n-iso-countries/index'
import type { PDFDict, PDFRawStream } from 'pdf-lib'
import { harnessForFile, issuedFor, type Harness } from '../../../test/harness'
import { pdfEngine } from '../../shared/pdf-engine'
import { GERMAN_SELLER } from '../einvoice/einvoice.testkit'
import { catalogs, LANGUAGES, words } from '../words'
import { COMMON_CHARACTERS } from './common-font'
import { fontsOf } from './subset.testkit'

let h: Harness
let fileNo = 0

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

/** Every string a value holds: a catalog's words, and what each of its sentences writes (given words for figures). */
function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v)
  else if (typeof v === 'function') stringsOf(v(...Array.from({ length: v.length }, () => 'Wort')), out)
  else if (v && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out)
  return out
}

test('every word, sentence, figure, amount, date, month and country name of the eight languages is a common character', () => {
  const common = new Set(COMMON_CHARACTERS)
  const missing: string[] = []
  for (const lang of LANGUAGES) {
    const w = words(lang)
    const written = [
      ...stringsOf(catalogs()[lang]),
      ...Object.keys(countries.getAlpha2Codes()).map((code) => w.country(code)),
      ...Array.from({ length: 12 }, (_, m) => w.month(m + 1)),
      ...['EUR', 'USD', 'GBP', 'CHF', 'PLN', 'CZK', 'JPY', 'BHD'].flatMap((c) => [
        w.money('1234567.891', c),
        w.money('-1234.5', c),
      ]),
      w.number('-1234567.89'),
      w.percent('7.50'),
      w.date('2026-11-27'),
    ]
    for (const s of written)
      for (const ch of s) if (!common.has(ch.codePointAt(0)!)) missing.push(`${lang}: ${ch} in ${s}`)
  }
  expect(missing).toEqual([])
})

/** An issued Invoice for a Client of that name reading `language`, its PDF written to a file. */
async function pdfFor(client: { name: string; language: string }): Promise<string> {
  const b = await h.business(GERMAN_SELLER)
  const clientId = await h.client(b.key, { country: 'AT', city: 'Wien', ...client })
  const doc = await issuedFor(
    h,
    { bizId: b.id, key: b.key, clientId },
    {
      lines: [{ description: 'Beratung und Lieferung', quantity: '1.5', unit_price: '1250.00', vat_rate: '19.00' }],
    },
  )
  const res = await h.app.fetch(
    new Request(`http://localhost/v1/documents/${doc.id}/pdf`, { headers: { authorization: `Bearer ${b.key}` } }),
  )
  expect(res.status).toBe(200)
  const path = join(h.dir, `common-${++fileNo}.pdf`)
  writeFileSync(path, new Uint8Array(await res.arrayBuffer()))
  return path
}

const textOf = (path: string) => Bun.spawnSync(['pdftotext', '-enc', 'UTF-8', path, '-']).stdout.toString()

test('an English and a German Invoice embed the very same two fonts: the common subsets of DejaVu Sans', async () => {
  const en = fontsOf(await pdfFor({ name: 'Buyer', language: 'en' }))
  const de = await pdfFor({ name: 'Käufer', language: 'de' })
  expect(en.map((f) => f.name).sort()).toEqual(
    fontsOf(de)
      .map((f) => f.name)
      .sort(),
  )
  expect(en.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold'])
  expect(textOf(de)).toContain('Käufer')
  expect(textOf(de)).toContain('1.875,00')
})

test("a name beyond the common characters adds the document's own subset of DejaVu Sans, and reads back as written", async () => {
  const path = await pdfFor({ name: 'Čapek Dvořák', language: 'de' })
  const regular = fontsOf(path).filter((f) => f.name.endsWith('+DejaVuSans'))
  // The common subset, and the document's own with Č and ř: two tags.
  expect(new Set(regular.map((f) => f.name)).size).toBe(2)
  for (const f of regular) expect([f.emb, f.sub]).toEqual(['yes', 'yes'])
  expect(textOf(path)).toContain('Čapek Dvořák')
})

test('a name that needs shaping (a letter and a combining accent) is drawn in one run and reads back as the letter', async () => {
  const path = await pdfFor({ name: 'Cafe\u0301 Mu\u0308ller', language: 'fr' })
  expect(textOf(path).normalize('NFC')).toContain('Café Müller')
})

test('every TrueType font program in a PDF names its length before compression (Length1), as ISO 32000-1 requires', async () => {
  // The common subsets and a document's own subset (Č and ř are beyond the common characters).
  const bytes = readFileSync(await pdfFor({ name: 'Čapek Dvořák', language: 'de' }))
  const engine = await pdfEngine()
  const { pdf } = engine
  const doc = await pdf.PDFDocument.load(engine.bytes(new Uint8Array(bytes)))
  const programs = doc.context
    .enumerateIndirectObjects()
    .map(([, o]) => o)
    .filter((o): o is PDFDict => o instanceof pdf.PDFDict)
    .filter((d) => d.get(pdf.PDFName.of('Type')) === pdf.PDFName.of('FontDescriptor'))
    .map((d) => d.lookup(pdf.PDFName.of('FontFile2'), pdf.PDFStream) as PDFRawStream)
  expect(programs.length).toBe(3)
  for (const p of programs) {
    const length1 = p.dict.lookup(pdf.PDFName.of('Length1'), pdf.PDFNumber).asNumber()
    expect(length1).toBe(inflateSync(p.contents).length)
  }
})
