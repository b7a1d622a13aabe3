// Refunds of Credit Notes (extensions §20) over HTTP against a real temp-file database (through MCP's tools with the
// SDK's Client: src/doors/mcp/mcp.test.ts): a Credit Note made from an Invoice starts with its Lines and the two link
// each other; refunds are recorded and reversed with their refusals, events and amount_refunded; the Client's statement
// reaches zero.
import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { harnessForFile, type Harness } from '../../../test/harness'
import { outbox, refunds } from '../../db/schema'

let h: Harness
let biz: { id: number; key: string }
let other: { id: number; key: string }
let clientId: number
let bank: number
let viewer: string

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

beforeAll(async () => {
  biz = await h.business({ currency: 'EUR' })
  other = await h.business({ currency: 'EUR' })
  clientId = await h.client(biz.key)
  bank = await h.bankAccount(biz.id)
  viewer = await h.key(biz.id, 'viewer', 'Viewer key')
})

const LINES = [
  { description: 'Design', quantity: '2', unit_price: '50.00', vat_rate: '19.00' },
  { description: 'Hosting', quantity: '1', unit_price: '50.00', vat_rate: '19.00' },
]

async function issuedInvoice(): Promise<any> {
  const d = await h.request('POST', '/v1/documents', {
    key: biz.key,
    body: { type: 'invoice', client_id: clientId, lines: LINES },
  })
  const r = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: biz.key })
  expect(r.status).toBe(200)
  return r.body
}

/** An issued Credit Note of a new Invoice, made with no Lines of its own. */
async function issuedCreditNote(): Promise<{ invoice: any; credit: any }> {
  const invoice = await issuedInvoice()
  const d = await h.request('POST', '/v1/documents', {
    key: biz.key,
    body: { type: 'credit_note', client_id: clientId, credited_document_id: invoice.id },
  })
  expect(d.status).toBe(201)
  const credit = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: biz.key })
  expect(credit.status).toBe(200)
  return { invoice, credit: credit.body }
}

function refund(docId: number, body: Record<string, unknown>, key = biz.key, headers: Record<string, string> = {}) {
  return h.request('POST', `/v1/documents/${docId}/refunds`, { key, body, headers })
}

describe('a Credit Note made from an Invoice', () => {
  test("starts with the Invoice's Lines and totals when it is sent none", async () => {
    const { invoice, credit } = await issuedCreditNote()
    expect(credit.lines.map((l: any) => [l.description, l.quantity, l.unit_price, l.vat_rate])).toEqual(
      invoice.lines.map((l: any) => [l.description, l.quantity, l.unit_price, l.vat_rate]),
    )
    expect(credit.total).toBe('178.50')
    expect(credit.total).toBe(invoice.total)
  })

  test('with Lines of its own keeps them', async () => {
    const invoice = await issuedInvoice()
    const d = await h.request('POST', '/v1/documents', {
      key: biz.key,
      body: {
        type: 'credit_note',
        client_id: clientId,
        credited_document_id: invoice.id,
        lines: [{ description: 'Discount', quantity: '1', unit_price: '10.00', vat_rate: '19.00' }],
      },
    })
    expect(d.body.lines.map((l: any) => l.description)).toEqual(['Discount'])
  })

  test('its PDF names the credited Invoice whole: "Credits Invoice <number> of <date>" is wrapped, never cut', async () => {
    // A Test business's numbers are the longest (TEST-INV-2026-0001), as the issue met them.
    const t = await h.business({ isTest: true, currency: 'EUR' })
    const tc = await h.client(t.key)
    const d = await h.request('POST', '/v1/documents', {
      key: t.key,
      body: { type: 'invoice', client_id: tc, lines: LINES },
    })
    const invoice = (await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: t.key })).body
    expect(invoice.document_number).toStartWith('TEST-INV-')
    const cn = await h.request('POST', '/v1/documents', {
      key: t.key,
      body: { type: 'credit_note', client_id: tc, credited_document_id: invoice.id },
    })
    expect((await h.request('POST', `/v1/documents/${cn.body.id}/issue`, { key: t.key })).status).toBe(200)
    const res = await h.app.fetch(
      new Request(`http://localhost/v1/documents/${cn.body.id}/pdf`, { headers: { authorization: `Bearer ${t.key}` } }),
    )
    const file = join(h.dir, 'credit-note.pdf')
    await Bun.write(file, new Uint8Array(await res.arrayBuffer()))
    const text = Bun.spawnSync(['pdftotext', '-raw', '-enc', 'UTF-8', file, '-']).stdout.toString()
    expect(text.replace(/\s+/g, ' ')).toContain(`Credits Invoice ${invoice.document_number} of ${invoice.issue_date}`)
  })

  test('the Invoice answers credit_note_ids naming it; other documents answer an empty list', async () => {
    const { invoice, credit } = await issuedCreditNote()
    const again = await h.request('GET', `/v1/documents/${invoice.id}`, { key: biz.key })
    expect(again.body.credit_note_ids).toEqual([credit.id])
    expect(credit.credit_note_ids).toEqual([])
    expect(credit.credited_document_id).toBe(invoice.id)
  })
})

describe('refunds', () => {
  test('a refund of the whole Credit Note is recorded: 201, amount_refunded, refund.recorded, the statement at zero', async () => {
    const { credit } = await issuedCreditNote()
    const r = await refund(credit.id, {
      amount: '178.50',
      refund_date: '2026-03-10',
      method: 'bank_transfer',
      bank_account_id: bank,
      reference: 'RF-1',
    })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({
      document_id: credit.id,
      amount: '178.50',
      currency: 'EUR',
      refund_date: '2026-03-10',
      method: 'bank_transfer',
      bank_account_id: bank,
      reference: 'RF-1',
      notes: null,
      status: 'completed',
    })
    const doc = await h.request('GET', `/v1/documents/${credit.id}`, { key: biz.key })
    expect(doc.body.amount_refunded).toBe('178.50')
    const events = await h.deps.db.read.select().from(outbox).where(eq(outbox.subjectId, r.body.id))
    expect(events.filter((e) => e.type === 'refund.recorded' && e.subjectType === 'refund')).toHaveLength(1)
    const listed = await h.request('GET', `/v1/refunds?document_id=${credit.id}`, { key: biz.key })
    expect(listed.body.data.map((x: any) => x.id)).toEqual([r.body.id])
  })

  test("the Client's statement shows the refund as a debit and ends at zero", async () => {
    const c = await h.client(biz.key, { name: 'Statement Client' })
    const inv = await h.request('POST', '/v1/documents', {
      key: biz.key,
      body: { type: 'invoice', client_id: c, lines: LINES },
    })
    await h.request('POST', `/v1/documents/${inv.body.id}/issue`, { key: biz.key })
    await h.request('POST', `/v1/documents/${inv.body.id}/payments`, {
      key: biz.key,
      body: { amount: '178.50', payment_date: '2026-03-10', payment_method: 'cash' },
    })
    const cn = await h.request('POST', '/v1/documents', {
      key: biz.key,
      body: { type: 'credit_note', client_id: c, credited_document_id: inv.body.id },
    })
    await h.request('POST', `/v1/documents/${cn.body.id}/issue`, { key: biz.key })
    const before = await h.request('GET', `/v1/reports/statement?client_id=${c}&from=2026-03-01&to=2026-03-31`, {
      key: biz.key,
    })
    expect(before.body.currencies[0].closing_balance).toBe('-178.50')
    expect((await refund(cn.body.id, { amount: '178.50', refund_date: '2026-03-10', method: 'cash' })).status).toBe(201)
    const after = await h.request('GET', `/v1/reports/statement?client_id=${c}&from=2026-03-01&to=2026-03-31`, {
      key: biz.key,
    })
    const block = after.body.currencies[0]
    expect(block.closing_balance).toBe('0.00')
    expect(block.lines.at(-1)).toMatchObject({ kind: 'refund', debit: '178.50', credit: null, balance: '0.00' })
  })

  test('above what is left is refused refund_exceeds_credit, nothing written; partial refunds add up to the total', async () => {
    const { credit } = await issuedCreditNote()
    expect((await refund(credit.id, { amount: '100.00', refund_date: '2026-03-10', method: 'cash' })).status).toBe(201)
    const over = await refund(credit.id, { amount: '78.51', refund_date: '2026-03-10', method: 'cash' })
    expect(over.status).toBe(422)
    expect(over.body.error.code).toBe('refund_exceeds_credit')
    expect(over.body.error.message).toContain('78.50')
    expect((await refund(credit.id, { amount: '78.50', refund_date: '2026-03-10', method: 'cash' })).status).toBe(201)
    const rows = await h.deps.db.read
      .select()
      .from(refunds)
      .where(eq(refunds.documentId, credit.id))
      .orderBy(refunds.id)
    expect(rows.map((r) => r.amount)).toEqual(['100.00', '78.50'])
  })

  test('an Invoice is refused not_a_credit_note; a Draft and a cancelled Credit Note are refused with their codes', async () => {
    const invoice = await issuedInvoice()
    const r = await refund(invoice.id, { amount: '1.00', refund_date: '2026-03-10', method: 'cash' })
    expect(r.body.error.code).toBe('not_a_credit_note')
    const d = await h.request('POST', '/v1/documents', {
      key: biz.key,
      body: { type: 'credit_note', client_id: clientId, credited_document_id: invoice.id },
    })
    expect(
      (await refund(d.body.id, { amount: '1.00', refund_date: '2026-03-10', method: 'cash' })).body.error.code,
    ).toBe('draft_takes_no_payments')
    await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: biz.key })
    await h.request('POST', `/v1/documents/${d.body.id}/cancel`, { key: biz.key })
    expect(
      (await refund(d.body.id, { amount: '1.00', refund_date: '2026-03-10', method: 'cash' })).body.error.code,
    ).toBe('cancelled_takes_no_payments')
  })

  test('bad bodies are 422 invalid_request per field: amount, date, a transfer with no bank account; a JSON number', async () => {
    const { credit } = await issuedCreditNote()
    const r = await refund(credit.id, { amount: '1.001', refund_date: '2026-03-10', method: 'bank_transfer' })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(Object.keys(r.body.error.errors).sort()).toEqual(['amount', 'bank_account_id'])
    const date = await refund(credit.id, { amount: '1.00', refund_date: '2026-02-30', method: 'cash' })
    expect(Object.keys(date.body.error.errors)).toEqual(['refund_date'])
    const zero = await refund(credit.id, { amount: '0', refund_date: '2026-03-10', method: 'cash' })
    expect(zero.body.error.errors.amount).toBeDefined()
    const num = await refund(credit.id, { amount: 5, refund_date: '2026-03-10', method: 'cash' })
    expect(num.status).toBe(422)
    expect(await h.deps.db.read.select().from(refunds).where(eq(refunds.documentId, credit.id))).toEqual([])
  })

  test('a reverse voids it, gives the amount back and raises refund.reversed; a second reverse is refund_reversed', async () => {
    const { credit } = await issuedCreditNote()
    const r = await refund(credit.id, { amount: '178.50', refund_date: '2026-03-10', method: 'cash' })
    const back = await h.request('POST', `/v1/refunds/${r.body.id}/reverse`, { key: biz.key })
    expect(back.status).toBe(200)
    expect(back.body.status).toBe('voided')
    expect((await h.request('GET', `/v1/documents/${credit.id}`, { key: biz.key })).body.amount_refunded).toBe('0.00')
    const again = await h.request('POST', `/v1/refunds/${r.body.id}/reverse`, { key: biz.key })
    expect(again.body.error.code).toBe('refund_reversed')
    const events = await h.deps.db.read.select().from(outbox).where(eq(outbox.subjectId, r.body.id))
    expect(events.map((e) => e.type).filter((t) => t.startsWith('refund.'))).toEqual([
      'refund.recorded',
      'refund.reversed',
    ])
  })

  test("a Viewer key is 403; another Business's Credit Note and Refund are 404", async () => {
    const { credit } = await issuedCreditNote()
    const body = { amount: '1.00', refund_date: '2026-03-10', method: 'cash' }
    expect((await refund(credit.id, body, viewer)).status).toBe(403)
    expect((await refund(credit.id, body, other.key)).status).toBe(404)
    const r = await refund(credit.id, body)
    expect((await h.request('POST', `/v1/refunds/${r.body.id}/reverse`, { key: other.key })).status).toBe(404)
    expect((await h.request('GET', `/v1/refunds?document_id=${credit.id}`, { key: other.key })).body.data).toEqual([])
  })

  test('an Idempotency-Key replays the same Refund once', async () => {
    const { credit } = await issuedCreditNote()
    const body = { amount: '5.00', refund_date: '2026-03-10', method: 'cash' }
    const a = await refund(credit.id, body, biz.key, { 'idempotency-key': 'rf-once' })
    const b = await refund(credit.id, body, biz.key, { 'idempotency-key': 'rf-once' })
    expect(b.body.id).toBe(a.body.id)
    expect(await h.deps.db.read.select().from(refunds).where(eq(refunds.documentId, credit.id))).toHaveLength(1)
  })
})
