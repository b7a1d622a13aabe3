// Names in Chinese, Japanese and Korean on the document PDF and on Factur-X (PDF/A-3b), read back with poppler: every
// font embedded and subset-tagged (pdffonts), no character drawn with the .notdef glyph (PDF/A forbids it), the names
// read back by pdftotext; the East Asian fonts embedded only in a PDF that draws such a character.
import { describe, expect, test } from 'bun:test'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { constants, inflateSync } from 'node:zlib'
import { harnessForFile, type Harness } from '../../../test/harness'
import { pdfEngine } from '../../shared/pdf-engine'
import { GERMAN_SELLER } from '../einvoice/einvoice.testkit'
import { fallbackFontBytes } from './fonts'
import { PageWriter } from './layout'
import { fontsOf, subsetOf, type SubsetFont } from './subset.testkit'

let h: Harness
let fileNo = 0

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

/** A Business whose documents export as CII (and so as Factur-X). */
const SELLER = GERMAN_SELLER

const NAMES = {
  chinese: {
    name: '北京星辰科技有限公司',
    country: 'CN',
    city: '北京市',
    postal_code: '100000',
    address: '朝阳区建国路88号',
  },
  japanese: {
    name: '株式会社さくらテクノロジー',
    country: 'JP',
    city: '東京都',
    postal_code: '100-0001',
    address: '千代田区丸の内1丁目',
  },
  korean: {
    name: '한빛소프트 주식회사',
    country: 'KR',
    city: '서울특별시',
    postal_code: '04524',
    address: '중구 세종대로 110',
  },
} as const

interface Made {
  pdf: string
  facturx: string
}

/** An issued Invoice for a Client of that name, its PDF and its Factur-X written to files. */
async function documentFor(client: Record<string, string>): Promise<Made> {
  const b = await h.business(SELLER)
  await h.bankAccount(b.id)
  const clientId = await h.client(b.key, { email: 'billing@client.example', ...client })
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: {
      type: 'invoice',
      client_id: clientId,
      lines: [{ description: `Consulting for ${client.name}`, quantity: '1', unit_price: '100.00', vat_rate: '19.00' }],
    },
  })
  const issued = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
  expect(issued.status).toBe(200)
  const file = async (query: string) => {
    const res = await h.app.fetch(
      new Request(`http://localhost/v1/documents/${d.body.id}/pdf${query}`, {
        headers: { authorization: `Bearer ${b.key}` },
      }),
    )
    const bytes = new Uint8Array(await res.arrayBuffer())
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${new TextDecoder().decode(bytes)}`)
    const path = join(h.dir, `scripts-${++fileNo}.pdf`)
    writeFileSync(path, bytes)
    return path
  }
  return { pdf: await file(''), facturx: await file('?format=facturx') }
}

/** Every glyph id each text-showing operator of the PDF's content streams draws (all our fonts are 2-byte Identity-H). */
function glyphIdsShown(path: string): number[] {
  const raw = readFileSync(path)
  const ids: number[] = []
  let at = 0
  for (;;) {
    const start = raw.indexOf('stream', at)
    if (start < 0) break
    const body = raw.indexOf('\n', start) + 1
    const end = raw.indexOf('endstream', body)
    if (end < 0) break
    at = end + 9
    if (raw.subarray(start - 3, start).toString('latin1') === 'end') continue
    let text: string
    try {
      text = inflateSync(raw.subarray(body, end), { finishFlush: constants.Z_SYNC_FLUSH }).toString('latin1')
    } catch {
      continue
    }
    if (!text.includes(' Tj')) continue
    for (const m of text.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g))
      for (let i = 0; i < m[1]!.length; i += 4) ids.push(Number.parseInt(m[1]!.slice(i, i + 4), 16))
  }
  return ids
}

const textOf = (path: string) => Bun.spawnSync(['pdftotext', '-enc', 'UTF-8', path, '-']).stdout.toString()

describe('a Client named in Chinese, Japanese or Korean', () => {
  for (const [script, client] of Object.entries(NAMES)) {
    test(`${script}: the PDF and the Factur-X embed every font subset-tagged, draw no .notdef, and read the name back`, async () => {
      const made = await documentFor(client)
      for (const path of [made.pdf, made.facturx]) {
        const fonts = fontsOf(path)
        expect(fonts.length).toBeGreaterThanOrEqual(2)
        for (const f of fonts) {
          expect(f.name).toMatch(/^[A-Z]{6}\+/)
          expect([f.name, f.emb, f.sub]).toEqual([f.name, 'yes', 'yes'])
        }
        // Han and kana come from Noto Sans SC, Hangul from Noto Sans KR.
        expect(
          fonts.some((f) => f.name.endsWith(script === 'korean' ? '+NotoSansKR-Regular' : '+NotoSansSC-Regular')),
        ).toBe(true)
        const ids = glyphIdsShown(path)
        expect(ids.length).toBeGreaterThan(100)
        expect(ids.filter((id) => id === 0)).toEqual([])
        const text = textOf(path)
        for (const words of [client.name, client.city, client.address]) expect(text).toContain(words)
      }
    })
  }
})

test('a document in Latin script embeds no East Asian font, and its fonts are subset-tagged too', async () => {
  const made = await documentFor({ name: 'Buyer AG', country: 'DE', city: 'Hamburg', postal_code: '20095' })
  for (const path of [made.pdf, made.facturx]) {
    const fonts = fontsOf(path)
    expect(fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold'])
    for (const f of fonts) expect([f.name, f.emb, f.sub]).toEqual([expect.stringMatching(/^[A-Z]{6}\+/), 'yes', 'yes'])
    expect(glyphIdsShown(path).filter((id) => id === 0)).toEqual([])
  }
})

test('characters no font has are drawn as U+FFFD, never as .notdef; the ones that draw nothing are dropped', async () => {
  const w = await PageWriter.create('scripts test', null)
  // An emoji (no font has it), a zero-width joiner and a variation selector (nothing to draw), Thai (no font).
  w.text('Rocket 🚀 ok\u200d✓\ufe0f ไทย 日本 한국', 48, { size: 10 })
  w.text('Bold 🚀 東京 서울', 48, { size: 10, bold: true, y: 700 })
  const path = join(h.dir, `scripts-${++fileNo}.pdf`)
  writeFileSync(path, await w.save())
  expect(glyphIdsShown(path).filter((id) => id === 0)).toEqual([])
  const text = textOf(path)
  const [first, second] = text.split('\n').filter(Boolean)
  // One mark for the emoji and one for each Thai letter; none for the joiner and the variation selector.
  expect(first!.replace(/ /g, '')).toBe('Rocket\ufffdok✓\ufffd\ufffd\ufffd日本한국')
  expect(second).toBe('Bold \ufffd 東京 서울')
  for (const f of fontsOf(path)) expect([f.emb, f.sub]).toEqual(['yes', 'yes'])
})

test('a TrueType subset of each fallback font reads back glyph for glyph (fontkit wrote odd-length glyphs under a short loca)', async () => {
  const engine = await pdfEngine()
  type Glyph = { id: number; advanceWidth: number; path: { commands: unknown[] } }
  type Font = SubsetFont<Glyph>
  const fontkit = engine.fontkit as unknown as { create(bytes: Uint8Array): Font }
  for (const [which, text] of [
    ['han', '北京星辰科技有限公司株式会社さくら東京都千代田区'],
    ['hangul', '한빛소프트 주식회사 서울특별시 중구 세종대로'],
  ] as const) {
    const font = fontkit.create(engine.bytes(fallbackFontBytes(which)))
    const glyphs = [...text].map((ch) => font.glyphForCodePoint(ch.codePointAt(0)!))
    const { bytes, ids } = await subsetOf(font, text)
    const back = fontkit.create(engine.bytes(bytes))
    const differing = glyphs.filter(
      (g, i) => JSON.stringify(back.getGlyph(ids[i]!).path.commands) !== JSON.stringify(g.path.commands),
    )
    expect(differing.map((g) => g.id)).toEqual([])
  }
})
