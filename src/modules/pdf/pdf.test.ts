// The document PDF read back with pdftotext (poppler-utils): number, Unicode Client names, total, DRAFT on a Draft,
// SAMPLE for a Test business, served as an application/pdf attachment named after the number.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { type Harness, harnessForFile, type ClientSetup as Setup, draftFor, issuedFor } from '../../../test/harness'
import { watermarkOf } from './document-pdf'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

async function setup(
  clientBody: Record<string, unknown>,
  business: Parameters<Harness['business']>[0] = {},
): Promise<Setup> {
  const b = await h.business({ currency: 'EUR', legalName: 'Seller Ltd', ...business })
  const c = await h.request('POST', '/v1/clients', {
    key: b.key,
    body: { email: 'billing@client.example', country: 'DE', ...clientBody },
  })
  if (c.status !== 201) throw new Error(c.text)
  return { bizId: b.id, key: b.key, clientId: c.body.id }
}

const LINE = { description: 'Consulting', quantity: '1', unit_price: '1234.56', vat_rate: '19.00' }
const draft = (s: Setup, body: Record<string, unknown> = {}) => draftFor(h, s, { lines: [LINE], ...body })
const issued = (s: Setup, body: Record<string, unknown> = {}) => issuedFor(h, s, { lines: [LINE], ...body })

let fileNo = 0

/** Fetches the PDF as bytes (the contract check runs on the same request through h.request first). */
async function pdf(s: Setup, id: number) {
  const checked = await h.request('GET', `/v1/documents/${id}/pdf`, { key: s.key })
  expect(checked.status).toBe(200)
  const res = await h.app.fetch(
    new Request(`http://localhost/v1/documents/${id}/pdf`, { headers: { authorization: `Bearer ${s.key}` } }),
  )
  expect(res.status).toBe(200)
  const bytes = new Uint8Array(await res.arrayBuffer())
  return { headers: res.headers, bytes }
}

/** Text of the PDF by pdftotext: `text` in reading order, `raw` in content-stream order (rotated watermark letters one per line). */
async function textOf(bytes: Uint8Array): Promise<{ text: string; raw: string; pages: number }> {
  const file = join(h.dir, `doc-${++fileNo}.pdf`)
  await Bun.write(file, bytes)
  const run = (args: string[]) => {
    const p = Bun.spawnSync(['pdftotext', ...args, '-enc', 'UTF-8', file, '-'])
    if (p.exitCode !== 0) throw new Error(`pdftotext failed: ${p.stderr.toString()}`)
    return p.stdout.toString()
  }
  const text = run([])
  const raw = run(['-raw'])
  // pdftotext ends every page with a form feed.
  return { text, raw, pages: (raw.match(/\f/g) ?? []).length }
}

/** The diagonal watermark of each page: its letters come out one per line in raw mode; joined they spell the word. */
function watermarks(raw: string): string[] {
  return raw.split('\f').map((page) =>
    page
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^[A-Z]$/.test(l))
      .join(''),
  )
}

describe('the document PDF', () => {
  test.each([
    ['Greek', 'Ακμή Α.Ε.'],
    ['Cyrillic', 'Жук ООО'],
    ['accented Latin', 'Café Müller'],
  ])(
    'an issued Invoice for a Client with a %s name shows its number, the name as written and the total',
    async (_script, name) => {
      const s = await setup({ name })
      const doc = await issued(s)
      expect(doc.total).toBe('1469.13')
      const { bytes } = await pdf(s, doc.id)
      const { text } = await textOf(bytes)
      expect(text).toContain(doc.document_number)
      expect(text.normalize('NFC')).toContain(name.normalize('NFC'))
      expect(text).toContain('1469.13')
      expect(text).not.toContain('DRAFT')
      expect(text).not.toContain('SAMPLE')
    },
  )

  test('Unicode in the legal name, Line descriptions and Line notes comes back as written', async () => {
    const s = await setup({ name: 'Ακμή', legal_name: 'Ακμή Ανώνυμη Εταιρεία' })
    const doc = await issued(s, {
      lines: [
        {
          description: 'Услуги по договору',
          quantity: '2',
          unit_price: '10.00',
          vat_rate: '19.00',
          notes: 'Größe: groß',
        },
        { description: 'Ζ-zero', quantity: '1', unit_price: '5.00', vat_rate: '0' },
      ],
    })
    const { text } = await textOf((await pdf(s, doc.id)).bytes)
    for (const s of [
      'Ακμή Ανώνυμη Εταιρεία',
      'Услуги по договору',
      'Größe: groß',
      doc.total,
      doc.vat_total,
      doc.net_total,
    ]) {
      expect(text.normalize('NFC')).toContain(s.normalize('NFC'))
    }
  })

  test("a Draft's PDF says DRAFT (across the page, and in place of the number)", async () => {
    const s = await setup({ name: 'Café Müller' })
    const d = await draft(s)
    const { text, raw } = await textOf((await pdf(s, d.id)).bytes)
    expect(text).toContain('DRAFT')
    expect(watermarks(raw)[0]).toBe('DRAFT')
    expect(text).toContain('Café Müller')
    expect(text).toContain('1469.13')
  })

  test("an issued document's PDF carries no watermark", async () => {
    const s = await setup({ name: 'Plain Client' })
    const doc = await issued(s)
    const { raw } = await textOf((await pdf(s, doc.id)).bytes)
    expect(watermarks(raw)[0]).toBe('')
  })

  test("a Test business's PDF says SAMPLE, issued or Draft, and its number starts with TEST-", async () => {
    const s = await setup({ name: 'Жук ООО' }, { isTest: true })
    const doc = await issued(s)
    expect(doc.document_number).toBe('TEST-INV-2026-0001')
    const one = await textOf((await pdf(s, doc.id)).bytes)
    expect(watermarks(one.raw)[0]).toBe('SAMPLE')
    expect(one.text).toContain('TEST-INV-2026-0001')
    expect(one.text).toContain('Жук ООО')
    const d = await draft(s)
    const two = await textOf((await pdf(s, d.id)).bytes)
    expect(watermarks(two.raw)[0]).toBe('SAMPLE')
    expect(two.text).toContain('DRAFT')
  })

  test('a PDF of many pages carries the watermark on every page', async () => {
    const s = await setup({ name: 'Long Ltd' }, { isTest: true })
    const lines = Array.from({ length: 90 }, (_, i) => ({
      description: `Item ${i + 1}`,
      quantity: '1',
      unit_price: '1.00',
      vat_rate: '19.00',
    }))
    const d = await draft(s, { lines })
    const { text, raw, pages } = await textOf((await pdf(s, d.id)).bytes)
    expect(pages).toBeGreaterThan(1)
    expect(watermarks(raw).slice(0, pages)).toEqual(Array.from({ length: pages }, () => 'SAMPLE'))
    expect(text).toContain('Item 1\n')
    expect(text).toContain('Item 90')
    expect(text).toContain('107.10') // 90.00 + 17.10 VAT
  })

  test('the PDF is served as application/pdf, an attachment named after the number', async () => {
    const s = await setup({ name: 'Header Check' })
    const doc = await issued(s)
    const { headers, bytes } = await pdf(s, doc.id)
    expect(headers.get('content-type')).toBe('application/pdf')
    const cd = headers.get('content-disposition') ?? ''
    expect(cd).toMatch(/^attachment;/)
    expect(cd).toContain(`filename="${doc.document_number}.pdf"`)
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
  })

  test("a Draft's PDF is an attachment too, named without a number it does not have", async () => {
    const s = await setup({ name: 'Header Check' })
    const d = await draft(s)
    const { headers } = await pdf(s, d.id)
    expect(headers.get('content-type')).toBe('application/pdf')
    expect(headers.get('content-disposition') ?? '').toMatch(/^attachment; filename="[A-Za-z0-9._-]+\.pdf"$/)
  })

  test("the PDF shows the due date, the amount to pay and the document's bank accounts", async () => {
    const s = await setup({ name: 'Bank Client', payment_terms: 14 })
    const acc = await h.bankAccount(s.bizId, 'Main account')
    const doc = await issued(s, { bank_account_ids: [acc] })
    const { text } = await textOf((await pdf(s, doc.id)).bytes)
    expect(text).toContain(doc.due_date)
    expect(text).toContain(`Please pay 1469.13 EUR by ${doc.due_date}`)
    expect(text).toContain('DE89370400440532013000')
  })

  test("another Business's document PDF is 404, and so is an unknown id", async () => {
    const mine = await setup({ name: 'Mine' })
    const theirs = await setup({ name: 'Theirs' })
    const doc = await issued(theirs)
    const r = await h.request('GET', `/v1/documents/${doc.id}/pdf`, { key: mine.key })
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
    expect((await h.request('GET', '/v1/documents/999999/pdf', { key: mine.key })).status).toBe(404)
  })

  test('a Viewer may read the PDF', async () => {
    const s = await setup({ name: 'Viewer Check' })
    const doc = await issued(s)
    const viewer = await h.key(s.bizId, 'viewer')
    const r = await h.request('GET', `/v1/documents/${doc.id}/pdf`, { key: viewer })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/pdf')
  })
})

describe('watermarkOf', () => {
  test('SAMPLE for a Test business whatever the status, DRAFT for a Draft, none otherwise', () => {
    expect(watermarkOf(true, 'draft')).toBe('SAMPLE')
    expect(watermarkOf(true, 'issued')).toBe('SAMPLE')
    expect(watermarkOf(false, 'draft')).toBe('DRAFT')
    for (const status of ['issued', 'partially_paid', 'paid', 'cancelled'])
      expect(watermarkOf(false, status)).toBeNull()
  })
})
