// Receipts over HTTP against a real temp-file database: numbering, the snapshot of their Payment, lists,
// tenant isolation and the PDF read back with pdftotext.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { harnessForFile, type Harness, type TestResponse } from '../../../test/harness'
import { BAD_LIST_QUERIES, paidIn, workIssued } from './payments.testkit'

let h: Harness
let biz: { id: number; key: string }
let other: { id: number; key: string }
let clientId: number
let otherClientId: number
let viewer: string
let pdfDir: string

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

beforeAll(async () => {
  biz = await h.business({ currency: 'EUR', name: 'Receipts Ltd' })
  other = await h.business({ currency: 'EUR' })
  clientId = await newClient(biz.key, 'Paying Client')
  otherClientId = await newClient(other.key, 'Their Client')
  viewer = await h.key(biz.id, 'viewer', 'Viewer key')
  pdfDir = mkdtempSync(join(tmpdir(), 'receipt-pdf-'))
})
afterAll(() => rmSync(pdfDir, { recursive: true, force: true }))

async function newClient(key: string, name: string): Promise<number> {
  const r = await h.request('POST', '/v1/clients', { key, body: { name, email: 'pay@client.example', country: 'DE' } })
  if (r.status !== 201) throw new Error(`client refused: ${r.status} ${r.text}`)
  return r.body.id
}

const issued = (type: string, amount: string, o: { key?: string; client?: number; currency?: string } = {}) =>
  workIssued(h, type, amount, { key: o.key ?? biz.key, client: o.client ?? clientId, currency: o.currency })

const invoice = (amount: string, o: { key?: string; client?: number; currency?: string } = {}) =>
  issued('invoice', amount, o)

const paid = (docId: number, amount: string, extra: Record<string, unknown> = {}, key = biz.key) =>
  paidIn(h, key, docId, amount, extra)

async function reverse(paymentId: number, key = biz.key): Promise<any> {
  const r = await h.request('POST', `/v1/payments/${paymentId}/reverse`, { key })
  expect(r.status).toBe(200)
  return r.body
}

/** The PDF as bytes (the harness reads answers as text, which would mangle a binary body). */
async function pdf(receiptId: number, key = biz.key): Promise<{ res: Response; text: string; squashed: string }> {
  const res = await h.app.fetch(
    new Request(`http://localhost/v1/receipts/${receiptId}/pdf`, { headers: { authorization: `Bearer ${key}` } }),
  )
  expect(res.status).toBe(200)
  const bytes = new Uint8Array(await res.arrayBuffer())
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
  const file = join(pdfDir, `r${receiptId}-${Date.now()}.pdf`)
  writeFileSync(file, bytes)
  // -raw keeps content-stream order: label and value on one line, the rotated watermark's letters together.
  const out = Bun.spawnSync(['/usr/bin/pdftotext', '-raw', file, '-'])
  if (out.exitCode !== 0) throw new Error(`pdftotext failed: ${out.stderr.toString()}`)
  const text = out.stdout.toString()
  return { res, text, squashed: text.replace(/\s+/g, '') }
}

function expectInvalid(r: TestResponse, field: string): void {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('invalid_request')
  expect(Object.keys(r.body.error.errors)).toContain(field)
}

async function walk(
  path: string,
  key: string,
  params: Record<string, string>,
  limit: number,
): Promise<{ items: any[]; pages: number }> {
  const items: any[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const q = new URLSearchParams({ ...params, limit: String(limit) })
    if (cursor) q.set('cursor', cursor)
    const r = await h.request('GET', `${path}?${q}`, { key })
    expect(r.status).toBe(200)
    expect(r.body.data.length).toBeLessThanOrEqual(limit)
    items.push(...r.body.data)
    cursor = r.body.next_cursor
    pages++
  } while (cursor)
  return { items, pages }
}

// ------------------------------------------------------------------------------------------------------------

describe('Receipt numbers and fields', () => {
  test('each recorded Payment takes the next Receipt number of the Business, RCT-2026-00001 onwards, without gaps', async () => {
    const inv = await invoice('100.00')
    const numbers = []
    for (let i = 0; i < 3; i++) numbers.push((await paid(inv.id, '10.00')).receipt.receipt_number)
    expect(numbers).toEqual(['RCT-2026-00001', 'RCT-2026-00002', 'RCT-2026-00003'])
    // Another Business counts its own Receipts from 1.
    const theirs = await invoice('10.00', { key: other.key, client: otherClientId })
    expect((await paid(theirs.id, '1.00', {}, other.key)).receipt.receipt_number).toBe('RCT-2026-00001')
    // A refused Payment takes no number.
    const r = await h.request('POST', `/v1/documents/${inv.id}/payments`, {
      key: biz.key,
      body: { amount: '70.01', payment_date: '2026-03-09', payment_method: 'cash' },
    })
    expect(r.body.error.code).toBe('payment_exceeds_amount_due')
    expect((await paid(inv.id, '70.00')).receipt.receipt_number).toBe('RCT-2026-00004')
  })

  test('GET /v1/receipts/{id} answers the Receipt as its Payment carries it, for any Role', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '25.00', { reference: 'Cheque 7', payment_method: 'check' })
    const r = await h.request('GET', `/v1/receipts/${p.receipt.id}`, { key: viewer })
    expect(r.status).toBe(200)
    expect(r.body).toEqual(p.receipt)
    expect(r.body).toMatchObject({
      payment_id: p.id,
      document_id: inv.id,
      amount: '25.00',
      currency: 'EUR',
      payment_method: 'check',
      reference: 'Cheque 7',
      payment_date: '2026-03-09',
      voided_at: null,
      voided_by: null,
    })
    expect(r.body.issue_date).toBe(h.clock.now().toISOString().slice(0, 10))
  })

  test("an amended Payment's Receipt keeps its number and takes the new values", async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '25.00')
    h.clock.advance(5000)
    const a = await h.request('PATCH', `/v1/payments/${p.id}`, {
      key: biz.key,
      body: { amount: '30.00', reference: 'fixed', payment_date: '2026-03-05' },
    })
    expect(a.status).toBe(200)
    const r = await h.request('GET', `/v1/receipts/${p.receipt.id}`, { key: biz.key })
    expect(r.body).toMatchObject({
      receipt_number: p.receipt.receipt_number,
      amount: '30.00',
      reference: 'fixed',
      payment_date: '2026-03-05',
      issue_date: p.receipt.issue_date,
    })
    expect(r.body.updated_at).not.toBe(p.receipt.updated_at)
  })

  test("a reversed Payment's Receipt stays with its number and gets voided_at and voided_by", async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '25.00')
    const v = await reverse(p.id)
    const r = await h.request('GET', `/v1/receipts/${p.receipt.id}`, { key: biz.key })
    expect(r.body).toEqual(v.receipt)
    expect(r.body).toMatchObject({
      receipt_number: p.receipt.receipt_number,
      amount: '25.00',
      voided_at: h.clock.now().toISOString(),
      voided_by: { type: 'api_key', name: 'admin key' },
    })
  })

  test("a Test business's Receipt number starts with TEST-", async () => {
    const t = await h.business({ currency: 'EUR', isTest: true })
    const cl = await newClient(t.key, 'Sandbox Client')
    const inv = await invoice('10.00', { key: t.key, client: cl })
    expect(inv.document_number).toStartWith('TEST-')
    const p = await paid(inv.id, '10.00', {}, t.key)
    expect(p.receipt.receipt_number).toBe('TEST-RCT-2026-00001')
    const { res, text, squashed } = await pdf(p.receipt.id, t.key)
    expect(text).toContain('TEST-RCT-2026-00001')
    // A Test business's PDFs are marked SAMPLE (the watermark).
    expect(squashed).toContain('SAMPLE')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="TEST-RCT-2026-00001.pdf"')
  })
})

describe('listing Receipts', () => {
  test('document_id filters, voided Receipts are included, paging meets each Receipt once in order', async () => {
    const inv = await invoice('100.00')
    const noise = await invoice('100.00')
    const mine: any[] = []
    for (let i = 0; i < 5; i++) {
      mine.push(await paid(inv.id, '2.00'))
      await paid(noise.id, '2.00')
    }
    await reverse(mine[3]!.id)
    const { items, pages } = await walk('/v1/receipts', viewer, { document_id: String(inv.id) }, 2)
    expect(pages).toBe(3)
    expect(items.map((r) => r.id)).toEqual(mine.map((p) => p.receipt.id))
    expect(items.every((r) => r.document_id === inv.id)).toBe(true)
    expect(items[3].voided_at).not.toBeNull()
    expect(items.filter((r) => r.voided_at === null)).toHaveLength(4)
    // Payments of the same document, same order, each carrying the Receipt the Receipts list answers.
    const pays = await walk('/v1/payments', viewer, { document_id: String(inv.id) }, 100)
    expect(pays.items.map((p) => p.receipt)).toEqual(items)
  })

  test("the unfiltered list holds only this Business's Receipts, and another Business's document_id lists none", async () => {
    const theirs = await invoice('10.00', { key: other.key, client: otherClientId })
    const tp = await paid(theirs.id, '5.00', {}, other.key)
    const { items } = await walk('/v1/receipts', biz.key, {}, 100)
    expect(items.length).toBeGreaterThan(0)
    expect(items.map((r) => r.id)).not.toContain(tp.receipt.id)
    const numbers = items.map((r) => r.receipt_number)
    expect(new Set(numbers).size).toBe(numbers.length)
    const filtered = await h.request('GET', `/v1/receipts?document_id=${theirs.id}`, { key: biz.key })
    expect(filtered.status).toBe(200)
    expect(filtered.body).toEqual({ data: [], next_cursor: null })
  })

  test('a bad document_id, limit or cursor is 422 invalid_request naming it', async () => {
    for (const [q, field] of BAD_LIST_QUERIES)
      expectInvalid(await h.request('GET', `/v1/receipts?${q}`, { key: biz.key }), field)
  })
})

describe('tenant isolation', () => {
  test("another Business's Payment, Receipt and Receipt PDF are answered 404", async () => {
    const theirs = await invoice('10.00', { key: other.key, client: otherClientId })
    const tp = await paid(theirs.id, '5.00', {}, other.key)
    for (const path of [
      `/v1/payments/${tp.id}`,
      `/v1/receipts/${tp.receipt.id}`,
      `/v1/receipts/${tp.receipt.id}/pdf`,
    ]) {
      const r = await h.request('GET', path, { key: biz.key })
      expect(r.status).toBe(404)
      expect(r.body.error.type).toBe('not_found')
      // The owner reads them.
      expect((await h.request('GET', path, { key: other.key })).status).toBe(200)
    }
    for (const path of ['/v1/receipts/999999', '/v1/receipts/999999/pdf', '/v1/receipts/abc']) {
      expect((await h.request('GET', path, { key: biz.key })).status).toBe(404)
    }
  })
})

describe('the Receipt PDF', () => {
  test('is an application/pdf attachment named after the Receipt, carrying its number, amount, date and method', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '40.00', { reference: 'Wire 42' })
    const { res, text } = await pdf(p.receipt.id, viewer)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${p.receipt.receipt_number}.pdf"`)
    expect(text).toContain(p.receipt.receipt_number)
    expect(text).toContain('40.00 EUR')
    expect(text).toContain('2026-03-09')
    expect(text).toContain('Cash')
    expect(text).toContain('Wire 42')
    expect(text).toContain(inv.document_number)
    expect(text).toContain('Paying Client')
    expect(text).toContain('Receipts Ltd')
  })

  test('says "Paid in full" only when the Payments up to this one reached the Total: first of two partial Payments no, the settling one yes', async () => {
    const inv = await invoice('100.00')
    const first = await paid(inv.id, '60.00')
    const second = await paid(inv.id, '40.00')
    const a = await pdf(first.receipt.id)
    expect(a.text).toContain('60.00 EUR')
    expect(a.text).not.toMatch(/paid in full/i)
    expect(a.text).not.toMatch(/void/i)
    const b = await pdf(second.receipt.id)
    expect(b.text).toContain('40.00 EUR')
    expect(b.text).toContain('Paid in full')
  })

  test('a single Payment of the whole Total says "Paid in full"; one short of it does not', async () => {
    const inv = await invoice('100.00')
    const short = await paid(inv.id, '99.99')
    expect((await pdf(short.receipt.id)).text).not.toMatch(/paid in full/i)
    const full = await invoice('100.00')
    const all = await paid(full.id, '100.00')
    expect((await pdf(all.receipt.id)).text).toContain('Paid in full')
  })

  test('a voided Receipt\'s PDF says it is void and never "Paid in full"', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '100.00')
    expect((await pdf(p.receipt.id)).text).toContain('Paid in full')
    await reverse(p.id)
    const { text, res, squashed } = await pdf(p.receipt.id)
    expect(text).toMatch(/\bvoid\b/i)
    expect(squashed).toContain('VOID')
    expect(text).not.toMatch(/paid in full/i)
    expect(text).toContain(p.receipt.receipt_number)
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${p.receipt.receipt_number}.pdf"`)
  })

  test('"Paid in full" counts only completed Payments up to this one: a later Payment after a reversal reaches the Total, the earlier one does not', async () => {
    const inv = await invoice('100.00')
    const a = await paid(inv.id, '50.00')
    const b = await paid(inv.id, '50.00')
    expect((await pdf(b.receipt.id)).text).toContain('Paid in full')
    await reverse(a.id)
    // Up to b only b stands now: 50 of 100.
    expect((await pdf(b.receipt.id)).text).not.toMatch(/paid in full/i)
    const c = await paid(inv.id, '50.00')
    expect((await pdf(c.receipt.id)).text).toContain('Paid in full')
  })

  test('on an Invoice converted from a Proforma, the Proforma\'s Payments count towards "Paid in full"', async () => {
    const pro = await issued('proforma', '100.00')
    const onPro = await paid(pro.id, '30.00')
    const conv = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: biz.key })
    expect(conv.status).toBe(201)
    const rest = await paid(conv.body.id, '70.00')
    expect((await pdf(onPro.receipt.id)).text).not.toMatch(/paid in full/i)
    const { text } = await pdf(rest.receipt.id)
    expect(text).toContain('Paid in full')
    expect(text).toContain(conv.body.document_number)
  })

  test('amounts at the limits print exactly: 999999999999999.99 EUR, KWD 3 decimals, JPY none', async () => {
    const big = await invoice('999999999999999.99')
    const b1 = await paid(big.id, '999999999999999.98')
    const b2 = await paid(big.id, '0.01')
    const t1 = await pdf(b1.receipt.id)
    expect(t1.text).toContain('999999999999999.98 EUR')
    expect(t1.text).not.toMatch(/paid in full/i)
    expect((await pdf(b2.receipt.id)).text).toContain('Paid in full')
    const kwd = await invoice('5.125', { currency: 'KWD' })
    const k = await paid(kwd.id, '5.125')
    const tk = await pdf(k.receipt.id)
    expect(tk.text).toContain('5.125 KWD')
    expect(tk.text).toContain('Paid in full')
    const jpy = await invoice('1500', { currency: 'JPY' })
    const j = await paid(jpy.id, '1500')
    const tj = await pdf(j.receipt.id)
    expect(tj.text).toContain('1500 JPY')
    expect(tj.text).toContain('Paid in full')
  })
})
