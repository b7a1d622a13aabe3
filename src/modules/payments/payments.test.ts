// Payments over HTTP against a real temp-file database: Record, Amend and Reverse as the contract states them,
// every refusal and invalid_request with nothing written, document status, events, idempotency, lists, isolation.
import { beforeAll, describe, expect, test } from 'bun:test'
import { asc, eq, getTableColumns, sql } from 'drizzle-orm'
import { allPages, harnessForFile, type Harness, type TestResponse } from '../../../test/harness'
import { documents, idempotencyKeys, numberCounters, outbox, payments, receipts } from '../../db/schema'
import { createApiKey, revokeApiKey, setNumbering } from '../business'
import { BAD_LIST_QUERIES, cash, paidIn, workDraft, workIssued } from './payments.testkit'

let h: Harness
let biz: { id: number; key: string }
let other: { id: number; key: string }
let clientId: number
let otherClientId: number
let bank: number
let otherBank: number
let viewer: string

// The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
harnessForFile((made) => (h = made), { freshMinute: true })

beforeAll(async () => {
  biz = await h.business({ currency: 'EUR' })
  other = await h.business({ currency: 'EUR' })
  clientId = await newClient(biz.key)
  otherClientId = await newClient(other.key)
  bank = await h.bankAccount(biz.id)
  otherBank = await h.bankAccount(other.id, 'Other business account')
  viewer = await h.key(biz.id, 'viewer', 'Viewer key')
})

// ------------------------------------------------------------------------------------------------------------
// Helpers

async function newClient(key: string, currency = 'EUR'): Promise<number> {
  const r = await h.request('POST', '/v1/clients', {
    key,
    body: { name: `Client ${currency}`, email: 'pay@client.example', country: 'DE', currency },
  })
  if (r.status !== 201) throw new Error(`client refused: ${r.status} ${r.text}`)
  return r.body.id
}

interface DocOpts {
  key?: string
  client?: number
  currency?: string
  extra?: Record<string, unknown>
}

const at = (o: DocOpts) => ({
  key: o.key ?? biz.key,
  client: o.client ?? clientId,
  currency: o.currency,
  extra: o.extra,
})

/** A Draft of one Line whose Total is `amount` (VAT 0). */
const draft = (type: string, amount: string, o: DocOpts = {}) => workDraft(h, type, amount, at(o))

const issued = (type: string, amount: string, o: DocOpts = {}) => workIssued(h, type, amount, at(o))

const invoice = (amount: string, o: DocOpts = {}) => issued('invoice', amount, o)

async function getDoc(id: number, key = biz.key): Promise<any> {
  const r = await h.request('GET', `/v1/documents/${id}`, { key })
  expect(r.status).toBe(200)
  return r.body
}

function record(docId: number, body: unknown, key = biz.key, headers?: Record<string, string>): Promise<TestResponse> {
  return h.request('POST', `/v1/documents/${docId}/payments`, { key, body, headers })
}

function amend(id: number, body: unknown, key = biz.key): Promise<TestResponse> {
  return h.request('PATCH', `/v1/payments/${id}`, { key, body })
}

function reverse(id: number, key = biz.key, headers?: Record<string, string>): Promise<TestResponse> {
  return h.request('POST', `/v1/payments/${id}/reverse`, { key, headers })
}

/** Records a Payment that must be accepted and answers it. */
const paid = (docId: number, amount: string, extra: Record<string, unknown> = {}, key = biz.key) =>
  paidIn(h, key, docId, amount, extra)

// Minor units may pass 2^53 (money at the limits): read them as text.
const paymentRow = { ...getTableColumns(payments), amountMinor: sql<string>`CAST(${payments.amountMinor} AS TEXT)` }
const documentRow = {
  ...getTableColumns(documents),
  netMinor: sql<string>`CAST(${documents.netMinor} AS TEXT)`,
  vatMinor: sql<string>`CAST(${documents.vatMinor} AS TEXT)`,
  totalMinor: sql<string>`CAST(${documents.totalMinor} AS TEXT)`,
  paidMinor: sql<string>`CAST(${documents.paidMinor} AS TEXT)`,
}

/** Everything a Payment request could write: rows of the tables it touches, whole. */
async function snapshot() {
  const db = h.deps.db.read
  return {
    payments: await db.select(paymentRow).from(payments).orderBy(asc(payments.id)),
    receipts: await db.select().from(receipts).orderBy(asc(receipts.id)),
    outbox: await db.select().from(outbox).orderBy(asc(outbox.id)),
    documents: await db.select(documentRow).from(documents).orderBy(asc(documents.id)),
    counters: await db.select().from(numberCounters),
    idempotency: await db.select().from(idempotencyKeys),
  }
}

/** Runs the request and proves it wrote nothing: no Payment, Receipt, event, number, document change or key. */
async function nothingWritten(act: () => Promise<TestResponse>): Promise<TestResponse> {
  const before = await snapshot()
  const r = await act()
  const after = await snapshot()
  expect(after.payments.length).toBe(before.payments.length)
  expect(after.receipts.length).toBe(before.receipts.length)
  expect(after.outbox.length).toBe(before.outbox.length)
  expect(after).toEqual(before)
  return r
}

function expectRefusal(r: TestResponse, code: string): any {
  if (r.status !== 422 || r.body?.error?.type !== 'refusal')
    throw new Error(`expected refusal ${code}, got ${r.status} ${r.text}`)
  expect(r.body.error.code).toBe(code)
  expect(r.body.error.message).toBeString()
  expect(r.body.error.errors).toBeUndefined()
  return r.body.error
}

function expectInvalid(r: TestResponse, field: string): any {
  if (r.status !== 422 || r.body?.error?.type !== 'invalid_request')
    throw new Error(`expected invalid_request under ${field}, got ${r.status} ${r.text}`)
  expect(Object.keys(r.body.error.errors)).toContain(field)
  expect(r.body.error.errors[field]).toBeArray()
  expect(r.body.error.errors[field].length).toBeGreaterThan(0)
  expect(r.body.error.code).toBeUndefined()
  return r.body.error
}

async function eventsSince(outboxId: number): Promise<Array<{ type: string; subjectType: string; subjectId: number }>> {
  const rows = await h.deps.db.read.select().from(outbox).orderBy(asc(outbox.id))
  return rows
    .filter((r) => r.id > outboxId)
    .map((r) => ({ type: r.type, subjectType: r.subjectType, subjectId: r.subjectId }))
}

async function lastOutboxId(): Promise<number> {
  const rows = await h.deps.db.read.select({ id: outbox.id }).from(outbox).orderBy(asc(outbox.id))
  return rows.at(-1)?.id ?? 0
}

// ------------------------------------------------------------------------------------------------------------

describe('recording a Payment', () => {
  test('a recorded Payment answers 201 with every field and its numbered Receipt, and the document follows', async () => {
    const inv = await invoice('100.00')
    const r = await record(inv.id, {
      amount: '40.00',
      payment_date: '2026-03-08',
      payment_method: 'bank_transfer',
      bank_account_id: bank,
      reference: 'SEPA 123',
      notes: 'first half',
    })
    expect(r.status).toBe(201)
    const p = r.body
    expect(p).toMatchObject({
      document_id: inv.id,
      status: 'completed',
      amount: '40.00',
      currency: 'EUR',
      payment_date: '2026-03-08',
      payment_method: 'bank_transfer',
      bank_account_id: bank,
      reference: 'SEPA 123',
      notes: 'first half',
      recorded_by: { type: 'api_key', name: 'admin key' },
      amended_by: null,
    })
    expect(p.receipt).toMatchObject({
      payment_id: p.id,
      document_id: inv.id,
      amount: '40.00',
      currency: 'EUR',
      payment_date: '2026-03-08',
      payment_method: 'bank_transfer',
      reference: 'SEPA 123',
      issue_date: h.clock.now().toISOString().slice(0, 10),
      voided_at: null,
      voided_by: null,
    })
    expect(p.receipt.receipt_number).toMatch(/^RCT-2026-\d{5}$/)
    const d = await getDoc(inv.id)
    expect(d).toMatchObject({
      status: 'partially_paid',
      amount_paid: '40.00',
      amount_due: '60.00',
      still_takes_payment: true,
    })
    const g = await h.request('GET', `/v1/payments/${p.id}`, { key: viewer })
    expect(g.status).toBe(200)
    expect(g.body).toEqual(p)
  })

  test("a currency sent equal to the document's is accepted", async () => {
    const inv = await invoice('10.00')
    const p = await paid(inv.id, '10.00', { currency: 'EUR' })
    expect(p.currency).toBe('EUR')
    expect((await getDoc(inv.id)).status).toBe('paid')
  })

  test("a Payment on another Business's document is 404 and writes nothing", async () => {
    const theirs = await invoice('10.00', { key: other.key, client: otherClientId })
    const r = await nothingWritten(() => record(theirs.id, cash('5.00')))
    expect(r.status).toBe(404)
    expect(r.body.error.type).toBe('not_found')
    expect((await nothingWritten(() => record(999999, cash('5.00')))).status).toBe(404)
  })
})

describe('Record refusals: each answers its code and writes nothing', () => {
  test('type_takes_no_payments: a Credit Note takes no Payment', async () => {
    const inv = await invoice('50.00')
    const cn = await issued('credit_note', '10.00', { extra: { credited_document_id: inv.id } })
    expect(cn.actions.record_payment).toMatchObject({ open: false, code: 'type_takes_no_payments' })
    expectRefusal(await nothingWritten(() => record(cn.id, cash('5.00'))), 'type_takes_no_payments')
  })

  test('type_takes_no_payments: a Quote takes no Payment, issued or not', async () => {
    const q = await issued('quote', '30.00')
    expectRefusal(await nothingWritten(() => record(q.id, cash('5.00'))), 'type_takes_no_payments')
    const qd = await draft('quote', '30.00')
    expectRefusal(await nothingWritten(() => record(qd.id, cash('5.00'))), 'type_takes_no_payments')
  })

  test('draft_takes_no_payments: a Draft Invoice takes no Payment', async () => {
    const d = await draft('invoice', '30.00')
    expect(d.actions.record_payment).toMatchObject({ open: false, code: 'draft_takes_no_payments' })
    expectRefusal(await nothingWritten(() => record(d.id, cash('5.00'))), 'draft_takes_no_payments')
    expect((await getDoc(d.id)).status).toBe('draft')
  })

  test('cancelled_takes_no_payments: an issued Invoice cancelled without Payments takes none', async () => {
    const inv = await invoice('30.00')
    const c = await h.request('POST', `/v1/documents/${inv.id}/cancel`, { key: biz.key })
    expect(c.status).toBe(200)
    expect(c.body.actions.record_payment).toMatchObject({ open: false, code: 'cancelled_takes_no_payments' })
    expectRefusal(await nothingWritten(() => record(inv.id, cash('5.00'))), 'cancelled_takes_no_payments')
  })

  test('nothing_due: a paid Invoice takes no further Payment', async () => {
    const inv = await invoice('20.00')
    await paid(inv.id, '20.00')
    const d = await getDoc(inv.id)
    expect(d).toMatchObject({ status: 'paid', amount_due: '0.00', still_takes_payment: false })
    expect(d.actions.record_payment).toMatchObject({ open: false, code: 'nothing_due' })
    expectRefusal(await nothingWritten(() => record(inv.id, cash('0.01'))), 'nothing_due')
  })

  test('payment_goes_to_its_invoice: a converted Proforma names the Invoice to record on', async () => {
    const pro = await issued('proforma', '80.00')
    await paid(pro.id, '30.00')
    const conv = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: biz.key })
    expect(conv.status).toBe(201)
    const inv = conv.body
    const e = expectRefusal(await nothingWritten(() => record(pro.id, cash('10.00'))), 'payment_goes_to_its_invoice')
    expect(e.remedy).toBe('record_on_its_invoice')
    expect(e.invoice).toEqual({ id: inv.id, document_number: inv.document_number })
    expect(inv.document_number).toMatch(/^INV-2026-/)
    expect((await getDoc(pro.id)).actions.record_payment).toMatchObject({
      open: false,
      code: 'payment_goes_to_its_invoice',
      remedy: 'record_on_its_invoice',
    })
  })

  test("payment_currency_mismatch: a currency other than the document's is refused", async () => {
    const inv = await invoice('20.00')
    expectRefusal(
      await nothingWritten(() => record(inv.id, cash('5.00', { currency: 'USD' }))),
      'payment_currency_mismatch',
    )
  })

  test('payment_exceeds_amount_due: an amount above what is still due is refused, the exact amount due is taken', async () => {
    const inv = await invoice('100.00')
    expectRefusal(await nothingWritten(() => record(inv.id, cash('100.01'))), 'payment_exceeds_amount_due')
    await paid(inv.id, '70.00')
    expectRefusal(await nothingWritten(() => record(inv.id, cash('30.01'))), 'payment_exceeds_amount_due')
    await paid(inv.id, '30.00')
    expect(await getDoc(inv.id)).toMatchObject({ status: 'paid', amount_paid: '100.00', amount_due: '0.00' })
  })

  test("numbering_at_its_end: when the next Receipt number is the numbering's largest, the Payment is refused, no number taken", async () => {
    const b = await h.business({ currency: 'EUR' })
    const cl = await newClient(b.key)
    await setNumbering(h.deps.db, b.id, 'receipt', 'R{N}')
    const inv = await invoice('100.00', { key: b.key, client: cl })
    const numbers: string[] = []
    for (let i = 0; i < 8; i++) numbers.push((await paid(inv.id, '1.00', {}, b.key)).receipt.receipt_number)
    expect(numbers).toEqual(['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8'])
    expect((await getDoc(inv.id, b.key)).actions.record_payment).toMatchObject({
      open: false,
      code: 'numbering_at_its_end',
    })
    expectRefusal(await nothingWritten(() => record(inv.id, cash('1.00'), b.key)), 'numbering_at_its_end')
    expect(await getDoc(inv.id, b.key)).toMatchObject({ status: 'partially_paid', amount_paid: '8.00' })
  })
})

describe("Record invalid_request: the body's field rules, never rounded, nothing written", () => {
  let inv: any
  beforeAll(async () => {
    inv = await invoice('1000.00')
  })

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['amount as a JSON number', { amount: 10, payment_date: '2026-03-09', payment_method: 'cash' }, 'amount'],
    ['amount as a JSON float', { amount: 10.5, payment_date: '2026-03-09', payment_method: 'cash' }, 'amount'],
    ['amount zero', cash('0'), 'amount'],
    ['amount 0.00', cash('0.00'), 'amount'],
    ['a negative amount', cash('-5.00'), 'amount'],
    ['amount with three decimals in EUR', cash('10.001'), 'amount'],
    ['amount with a third decimal in EUR even when it is a zero', cash('10.500'), 'amount'],
    ['amount not a number', cash('ten'), 'amount'],
    ['amount with a comma', cash('10,00'), 'amount'],
    ['amount with an exponent of four digits', cash('1e1000'), 'amount'],
    ['amount missing', { payment_date: '2026-03-09', payment_method: 'cash' }, 'amount'],
    ['payment_date missing', { amount: '10.00', payment_method: 'cash' }, 'payment_date'],
    ['payment_date malformed', cash('10.00', { payment_date: '09/03/2026' }), 'payment_date'],
    ['payment_date not a real day', cash('10.00', { payment_date: '2026-02-30' }), 'payment_date'],
    ['payment_method missing', { amount: '10.00', payment_date: '2026-03-09' }, 'payment_method'],
    ['payment_method unknown', cash('10.00', { payment_method: 'bitcoin' }), 'payment_method'],
    ['bank_transfer without bank_account_id', cash('10.00', { payment_method: 'bank_transfer' }), 'bank_account_id'],
    [
      'bank_transfer with bank_account_id null',
      cash('10.00', { payment_method: 'bank_transfer', bank_account_id: null }),
      'bank_account_id',
    ],
    [
      "bank_transfer to another Business's bank account",
      cash('10.00', { payment_method: 'bank_transfer', bank_account_id: -1 }),
      'bank_account_id',
    ],
    ['reference over 255 characters', cash('10.00', { reference: 'x'.repeat(256) }), 'reference'],
    ['reference of 256 emoji (256 characters)', cash('10.00', { reference: '😀'.repeat(256) }), 'reference'],
    ['an unknown field', cash('10.00', { tip: '1.00' }), 'tip'],
    ['currency not a code', cash('10.00', { currency: 'eur' }), 'currency'],
  ]

  for (const [name, body, field] of cases) {
    test(`${name} is invalid_request under ${field}`, async () => {
      const sent = body.bank_account_id === -1 ? { ...body, bank_account_id: otherBank } : body
      expectInvalid(await nothingWritten(() => record(inv.id, sent)), field)
    })
  }

  test('a reference of exactly 255 characters is taken', async () => {
    const p = await paid(inv.id, '1.00', { reference: 'r'.repeat(255) })
    expect(p.reference).toBe('r'.repeat(255))
    expect(p.receipt.reference).toBe('r'.repeat(255))
  })

  test('a reference is counted in characters as stored: 255 emoji are taken, 200 emoji are taken, spaces around 255 letters are trimmed away', async () => {
    const emoji = await paid(inv.id, '1.00', { reference: '😀'.repeat(255) })
    expect(emoji.reference).toBe('😀'.repeat(255))
    expect(emoji.receipt.reference).toBe('😀'.repeat(255))
    expect((await paid(inv.id, '1.00', { reference: '😀'.repeat(200) })).reference).toBe('😀'.repeat(200))
    expect((await paid(inv.id, '1.00', { reference: ` ${'r'.repeat(255)}  ` })).reference).toBe('r'.repeat(255))
    const e = expectInvalid(
      await nothingWritten(() => record(inv.id, cash('1.00', { reference: '😀'.repeat(256) }))),
      'reference',
    )
    expect(e.errors.reference).toEqual(['must be at most 255 characters'])
  })

  test('an amount\'s decimals count as written: "10.500" in EUR and "10.0" in JPY are refused under amount, never cut to the scale', async () => {
    const e = expectInvalid(await nothingWritten(() => record(inv.id, cash('10.500'))), 'amount')
    expect(e.errors.amount).toEqual(['must have at most 2 decimals (EUR)'])
    const jpy = await invoice('1000', { client: await newClient(biz.key, 'JPY') })
    expectInvalid(await nothingWritten(() => record(jpy.id, cash('10.0'))), 'amount')
    expect((await paid(inv.id, '10.50')).amount).toBe('10.50')
  })

  test("too many decimals is refused by the document's currency: JPY takes none, KWD takes three, never rounded", async () => {
    const jpyClient = await newClient(biz.key, 'JPY')
    const kwdClient = await newClient(biz.key, 'KWD')
    const jpy = await invoice('1000', { client: jpyClient })
    const kwd = await invoice('100.000', { client: kwdClient })
    expect(jpy.currency).toBe('JPY')
    expect(kwd.currency).toBe('KWD')
    expect(jpy.total).toBe('1000')
    expect(kwd.total).toBe('100.000')
    const e = expectInvalid(await nothingWritten(() => record(jpy.id, cash('10.5'))), 'amount')
    expect(e.errors.amount.join(' ')).toContain('JPY')
    expectInvalid(await nothingWritten(() => record(kwd.id, cash('10.0001'))), 'amount')
    expect((await paid(jpy.id, '10')).amount).toBe('10')
    expect((await paid(kwd.id, '10.001')).amount).toBe('10.001')
  })

  test("a Viewer is answered 403 before the body and before the document: invalid body, Credit Note, another Business's document", async () => {
    const cn = await issued('credit_note', '10.00', { extra: { credited_document_id: inv.id } })
    const theirs = await invoice('10.00', { key: other.key, client: otherClientId })
    for (const [id, body] of [
      [inv.id, { amount: 10, payment_method: 'bitcoin' }],
      [cn.id, cash('5.00')],
      [cn.id, { amount: 'x' }],
      [theirs.id, cash('5.00')],
      [999999, cash('5.00')],
    ] as const) {
      const r = await nothingWritten(() => record(id, body, viewer))
      expect(r.status).toBe(403)
      expect(r.body.error.type).toBe('permission')
    }
  })

  test('an invalid body on a Credit Note is invalid_request, not the refusal', async () => {
    const cn = await issued('credit_note', '10.00', { extra: { credited_document_id: inv.id } })
    expectInvalid(await nothingWritten(() => record(cn.id, cash('0'))), 'amount')
    expectInvalid(await nothingWritten(() => record(cn.id, cash('10.001'))), 'amount')
    expectInvalid(
      await nothingWritten(() => record(cn.id, { amount: 5, payment_date: '2026-03-09', payment_method: 'cash' })),
      'amount',
    )
    expectInvalid(
      await nothingWritten(() => record(cn.id, cash('5.00', { payment_method: 'bank_transfer' }))),
      'bank_account_id',
    )
  })

  test('an invalid body on a paid document is invalid_request, not nothing_due', async () => {
    const p = await invoice('5.00')
    await paid(p.id, '5.00')
    expectInvalid(await nothingWritten(() => record(p.id, cash('-1'))), 'amount')
  })
})

describe('amending a Payment', () => {
  test("the Payment's own amount is given back first: a 60 Payment on a 100 Invoice is amended to 100, not above", async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '60.00')
    expectRefusal(await nothingWritten(() => amend(p.id, { amount: '100.01' })), 'payment_exceeds_amount_due')
    const r = await amend(p.id, { amount: '100.00' })
    expect(r.status).toBe(200)
    expect(r.body.amount).toBe('100.00')
    expect(r.body.receipt.amount).toBe('100.00')
    expect(r.body.receipt.receipt_number).toBe(p.receipt.receipt_number)
    expect(r.body.receipt.id).toBe(p.receipt.id)
    expect(await getDoc(inv.id)).toMatchObject({ status: 'paid', amount_paid: '100.00', amount_due: '0.00' })
    // Given back, never counted twice: with a second Payment beside it, only what the others leave is open.
    const inv2 = await invoice('100.00')
    const a = await paid(inv2.id, '60.00')
    await paid(inv2.id, '30.00')
    expectRefusal(await nothingWritten(() => amend(a.id, { amount: '70.01' })), 'payment_exceeds_amount_due')
    expect((await amend(a.id, { amount: '70.00' })).status).toBe(200)
    expect(await getDoc(inv2.id)).toMatchObject({ status: 'paid', amount_paid: '100.00' })
  })

  test('amending down moves the document back: paid → partially_paid, and the Receipt takes the new values', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '100.00', { reference: 'old' })
    const r = await amend(p.id, { amount: '40.00', payment_date: '2026-03-01', reference: 'new', notes: 'corrected' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      amount: '40.00',
      payment_date: '2026-03-01',
      reference: 'new',
      notes: 'corrected',
      status: 'completed',
    })
    expect(r.body.receipt).toMatchObject({
      amount: '40.00',
      payment_date: '2026-03-01',
      reference: 'new',
      receipt_number: p.receipt.receipt_number,
      voided_at: null,
    })
    expect(await getDoc(inv.id)).toMatchObject({ status: 'partially_paid', amount_paid: '40.00', amount_due: '60.00' })
  })

  test("amending to cash drops the bank account; to bank_transfer needs one of the Business's accounts", async () => {
    const inv = await invoice('100.00')
    const r0 = await record(inv.id, {
      amount: '10.00',
      payment_date: '2026-03-09',
      payment_method: 'bank_transfer',
      bank_account_id: bank,
    })
    expect(r0.status).toBe(201)
    expect(r0.body.bank_account_id).toBe(bank)
    const r = await amend(r0.body.id, { payment_method: 'cash' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ payment_method: 'cash', bank_account_id: null })
    expect(r.body.receipt.payment_method).toBe('cash')
    expectInvalid(await nothingWritten(() => amend(r0.body.id, { payment_method: 'bank_transfer' })), 'bank_account_id')
    expectInvalid(
      await nothingWritten(() => amend(r0.body.id, { payment_method: 'bank_transfer', bank_account_id: otherBank })),
      'bank_account_id',
    )
    const back = await amend(r0.body.id, { payment_method: 'bank_transfer', bank_account_id: bank })
    expect(back.status).toBe(200)
    expect(back.body).toMatchObject({ payment_method: 'bank_transfer', bank_account_id: bank })
  })

  test('PATCH with no field is 422 invalid_request under errors.payment, nothing written', async () => {
    const inv = await invoice('10.00')
    const p = await paid(inv.id, '5.00')
    const e = expectInvalid(await nothingWritten(() => amend(p.id, {})), 'payment')
    expect(e.errors.payment.join(' ')).toMatch(/nothing to change/i)
  })

  test('Amend field rules are those of Record: each invalid field is invalid_request, nothing written', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '5.00')
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 5 }, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ amount: '-1.00' }, 'amount'],
      [{ amount: '1.001' }, 'amount'],
      [{ payment_date: '2026-13-01' }, 'payment_date'],
      [{ payment_method: 'barter' }, 'payment_method'],
      [{ reference: 'y'.repeat(256) }, 'reference'],
      [{ reference: '😀'.repeat(256) }, 'reference'],
      [{ amount: '5.000' }, 'amount'],
      [{ surprise: true }, 'surprise'],
    ]
    for (const [body, field] of cases) expectInvalid(await nothingWritten(() => amend(p.id, body)), field)
  })

  test('an amended reference is counted in characters as stored: 255 emoji are taken, spaces around it are trimmed', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '5.00')
    expect((await amend(p.id, { reference: '😀'.repeat(255) })).body.reference).toBe('😀'.repeat(255))
    const r = await amend(p.id, { reference: ` ${'z'.repeat(255)} ` })
    expect(r.body.reference).toBe('z'.repeat(255))
    expect(r.body.receipt.reference).toBe('z'.repeat(255))
  })

  test("payment_currency_mismatch on Amend: a currency other than the document's is refused", async () => {
    const inv = await invoice('10.00')
    const p = await paid(inv.id, '5.00')
    expectRefusal(await nothingWritten(() => amend(p.id, { currency: 'GBP' })), 'payment_currency_mismatch')
    expect((await amend(p.id, { currency: 'EUR', notes: 'same currency' })).status).toBe(200)
  })

  test("a Viewer may not amend or reverse (403), whatever the body; another Business's Payment is 404", async () => {
    const inv = await invoice('10.00')
    const p = await paid(inv.id, '5.00')
    for (const r of [
      await nothingWritten(() => amend(p.id, { amount: '6.00' }, viewer)),
      await nothingWritten(() => amend(p.id, { amount: 6 }, viewer)),
      await nothingWritten(() => reverse(p.id, viewer)),
    ]) {
      expect(r.status).toBe(403)
      expect(r.body.error.type).toBe('permission')
    }
    for (const r of [
      await nothingWritten(() => amend(p.id, { amount: '6.00' }, other.key)),
      await nothingWritten(() => reverse(p.id, other.key)),
      await nothingWritten(() => h.request('GET', `/v1/payments/${p.id}`, { key: other.key })),
    ]) {
      expect(r.status).toBe(404)
      expect(r.body.error.type).toBe('not_found')
    }
  })

  test('a Payment on a converted Proforma is amended against what its Invoice still owes: amount_paid never above the Total', async () => {
    const pro = await issued('proforma', '100.00')
    const onPro = await paid(pro.id, '60.00')
    const conv = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: biz.key })
    expect(conv.status).toBe(201)
    await paid(conv.body.id, '40.00')
    expect(await getDoc(conv.body.id)).toMatchObject({ status: 'paid', amount_paid: '100.00' })
    expectRefusal(await nothingWritten(() => amend(onPro.id, { amount: '60.01' })), 'payment_exceeds_amount_due')
    expectRefusal(await nothingWritten(() => amend(onPro.id, { amount: '100.00' })), 'payment_exceeds_amount_due')
    expect((await amend(onPro.id, { amount: '50.00' })).status).toBe(200)
    expect(await getDoc(conv.body.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid: '90.00',
      amount_due: '10.00',
    })
  })
})

describe('reversing a Payment', () => {
  test("the document's status follows every step: issued → partially_paid → paid → partially_paid → issued", async () => {
    const inv = await invoice('100.00')
    expect(inv.status).toBe('issued')
    const a = await paid(inv.id, '30.00')
    expect(await getDoc(inv.id)).toMatchObject({ status: 'partially_paid', amount_paid: '30.00' })
    const b = await paid(inv.id, '70.00')
    expect(await getDoc(inv.id)).toMatchObject({ status: 'paid', amount_paid: '100.00', amount_due: '0.00' })
    const r1 = await reverse(b.id)
    expect(r1.status).toBe(200)
    expect(r1.body.status).toBe('voided')
    expect(r1.body.receipt.receipt_number).toBe(b.receipt.receipt_number)
    expect(r1.body.receipt.voided_at).toBe(h.clock.now().toISOString())
    expect(r1.body.receipt.voided_by).toEqual({ type: 'api_key', name: 'admin key' })
    expect(await getDoc(inv.id)).toMatchObject({ status: 'partially_paid', amount_paid: '30.00', amount_due: '70.00' })
    const r2 = await reverse(a.id)
    expect(r2.status).toBe(200)
    expect(await getDoc(inv.id)).toMatchObject({
      status: 'issued',
      amount_paid: '0.00',
      amount_due: '100.00',
      still_takes_payment: true,
    })
    // The reversed amount is owed again and can be paid anew.
    await paid(inv.id, '100.00')
    expect((await getDoc(inv.id)).status).toBe('paid')
  })

  test('payment_reversed: a voided Payment is neither reversed again nor amended, nothing written', async () => {
    const inv = await invoice('50.00')
    const p = await paid(inv.id, '20.00')
    expect((await reverse(p.id)).status).toBe(200)
    expectRefusal(await nothingWritten(() => reverse(p.id)), 'payment_reversed')
    expectRefusal(await nothingWritten(() => amend(p.id, { amount: '10.00' })), 'payment_reversed')
    expectRefusal(await nothingWritten(() => amend(p.id, { notes: 'late note' })), 'payment_reversed')
    const g = await h.request('GET', `/v1/payments/${p.id}`, { key: biz.key })
    expect(g.body).toMatchObject({ status: 'voided', amount: '20.00', notes: null })
    expect(g.body.receipt.voided_at).not.toBeNull()
  })

  test('a voided Payment counts in no figure and is never deleted', async () => {
    const inv = await invoice('50.00')
    const p = await paid(inv.id, '50.00')
    await reverse(p.id)
    expect(await getDoc(inv.id)).toMatchObject({ status: 'issued', amount_paid: '0.00' })
    const rows = await h.deps.db.read.select(paymentRow).from(payments).where(eq(payments.id, p.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.status).toBe('voided')
    // With nothing counted, the full amount is due again.
    expect((await paid(inv.id, '50.00')).status).toBe('completed')
  })
})

describe('who recorded, amended and voided', () => {
  test('recorded_by, amended_by and voided_by name the API key as named then, and stay after the key is revoked', async () => {
    const inv = await invoice('100.00')
    const recorder = await createApiKey(h.deps.db, h.clock, biz.id, { name: 'Till 1', role: 'member' })
    const amender = await createApiKey(h.deps.db, h.clock, biz.id, { name: 'Bookkeeper', role: 'admin' })
    const voider = await createApiKey(h.deps.db, h.clock, biz.id, { name: 'Ops script', role: 'member' })
    const p = await paid(inv.id, '10.00', {}, recorder.key)
    expect(p.recorded_by).toEqual({ type: 'api_key', name: 'Till 1' })
    expect(p.amended_by).toBeNull()
    const a = await amend(p.id, { amount: '12.00' }, amender.key)
    expect(a.body).toMatchObject({
      recorded_by: { type: 'api_key', name: 'Till 1' },
      amended_by: { type: 'api_key', name: 'Bookkeeper' },
    })
    const v = await reverse(p.id, voider.key)
    expect(v.body.receipt.voided_by).toEqual({ type: 'api_key', name: 'Ops script' })
    for (const k of [recorder, amender, voider]) await revokeApiKey(h.deps.db, h.clock, k.id)
    expect((await h.request('GET', `/v1/payments/${p.id}`, { key: recorder.key })).status).toBe(401)
    const g = await h.request('GET', `/v1/payments/${p.id}`, { key: viewer })
    expect(g.status).toBe(200)
    expect(g.body).toMatchObject({
      recorded_by: { type: 'api_key', name: 'Till 1' },
      amended_by: { type: 'api_key', name: 'Bookkeeper' },
      receipt: { voided_by: { type: 'api_key', name: 'Ops script' } },
    })
    const rc = await h.request('GET', `/v1/receipts/${p.receipt.id}`, { key: viewer })
    expect(rc.body.voided_by).toEqual({ type: 'api_key', name: 'Ops script' })
  })
})

describe('idempotency', () => {
  test('the same Payment body twice without an Idempotency-Key records two Payments with two Receipts', async () => {
    const inv = await invoice('100.00')
    const a = await record(inv.id, cash('10.00'))
    const b = await record(inv.id, cash('10.00'))
    expect(a.status).toBe(201)
    expect(b.status).toBe(201)
    expect(b.body.id).not.toBe(a.body.id)
    expect(b.body.receipt.receipt_number).not.toBe(a.body.receipt.receipt_number)
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect((await getDoc(inv.id)).amount_paid).toBe('20.00')
  })

  test('the same body under one Idempotency-Key records once; the replay is byte-identical with Idempotent-Replayed: true', async () => {
    const inv = await invoice('100.00')
    const headers = { 'Idempotency-Key': `pay-${inv.id}` }
    const a = await record(inv.id, cash('10.00'), biz.key, headers)
    expect(a.status).toBe(201)
    expect(a.headers.get('idempotent-replayed')).toBeNull()
    h.clock.advance(1000)
    const b = await nothingWritten(() => record(inv.id, cash('10.00'), biz.key, headers))
    expect(b.status).toBe(201)
    expect(b.headers.get('idempotent-replayed')).toBe('true')
    expect(b.text).toBe(a.text)
    expect((await getDoc(inv.id)).amount_paid).toBe('10.00')
    // Another body under the same key: 422 idempotency, nothing done.
    const c = await nothingWritten(() => record(inv.id, cash('11.00'), biz.key, headers))
    expect(c.status).toBe(422)
    expect(c.body.error.type).toBe('idempotency')
  })

  test('a refused Payment keeps no key: corrected and resent under it, it is recorded', async () => {
    const inv = await invoice('10.00')
    const headers = { 'Idempotency-Key': `retry-${inv.id}` }
    expectRefusal(
      await nothingWritten(() => record(inv.id, cash('20.00'), biz.key, headers)),
      'payment_exceeds_amount_due',
    )
    expectInvalid(await nothingWritten(() => record(inv.id, cash('0'), biz.key, headers)), 'amount')
    const ok = await record(inv.id, cash('10.00'), biz.key, headers)
    expect(ok.status).toBe(201)
  })

  test('Reverse under an Idempotency-Key twice: the second is a replay (200), not payment_reversed', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '25.00')
    const headers = { 'Idempotency-Key': `rev-${p.id}` }
    const a = await reverse(p.id, biz.key, headers)
    expect(a.status).toBe(200)
    expect(a.body.status).toBe('voided')
    h.clock.advance(1000)
    const b = await nothingWritten(() => reverse(p.id, biz.key, headers))
    expect(b.status).toBe(200)
    expect(b.headers.get('idempotent-replayed')).toBe('true')
    expect(b.text).toBe(a.text)
    // Without the key the same request meets the record as it stands.
    expectRefusal(await nothingWritten(() => reverse(p.id)), 'payment_reversed')
  })
})

describe('events in the outbox', () => {
  test('recording a Payment that leaves something due raises payment.recorded alone', async () => {
    const inv = await invoice('100.00')
    const since = await lastOutboxId()
    const p = await paid(inv.id, '40.00')
    expect(await eventsSince(since)).toEqual([{ type: 'payment.recorded', subjectType: 'payment', subjectId: p.id }])
  })

  test('recording the settling Payment raises payment.recorded and document.paid', async () => {
    const inv = await invoice('100.00')
    await paid(inv.id, '40.00')
    const since = await lastOutboxId()
    const p = await paid(inv.id, '60.00')
    const events = await eventsSince(since)
    expect(events).toHaveLength(2)
    expect(events).toContainEqual({ type: 'payment.recorded', subjectType: 'payment', subjectId: p.id })
    expect(events).toContainEqual({ type: 'document.paid', subjectType: 'document', subjectId: inv.id })
  })

  test('reversing raises payment.reversed (and no document.paid)', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '100.00')
    const since = await lastOutboxId()
    expect((await reverse(p.id)).status).toBe(200)
    expect(await eventsSince(since)).toEqual([{ type: 'payment.reversed', subjectType: 'payment', subjectId: p.id }])
  })

  test('a refused Payment raises nothing', async () => {
    const inv = await invoice('10.00')
    const since = await lastOutboxId()
    expectRefusal(await record(inv.id, cash('11.00')), 'payment_exceeds_amount_due')
    expectRefusal(await record(inv.id, cash('1.00', { currency: 'USD' })), 'payment_currency_mismatch')
    expect(await eventsSince(since)).toEqual([])
  })

  test('amending raises none of payment.recorded, document.paid, payment.reversed, even when the amend settles the document', async () => {
    const inv = await invoice('100.00')
    const p = await paid(inv.id, '60.00')
    const since = await lastOutboxId()
    expect((await amend(p.id, { reference: 'typo fixed' })).status).toBe(200)
    expect((await amend(p.id, { amount: '100.00' })).status).toBe(200)
    expect((await getDoc(inv.id)).status).toBe('paid')
    expect((await amend(p.id, { amount: '50.00' })).status).toBe(200)
    expect((await getDoc(inv.id)).status).toBe('partially_paid')
    const types = (await eventsSince(since)).map((e) => e.type)
    expect(types).not.toContain('payment.recorded')
    expect(types).not.toContain('document.paid')
    expect(types).not.toContain('payment.reversed')
  })
})

describe('a converted Proforma', () => {
  test('Payments on the Proforma count on its Invoice (amount_paid), and the Invoice takes the rest', async () => {
    const pro = await issued('proforma', '100.00')
    await paid(pro.id, '30.00')
    const conv = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: biz.key })
    expect(conv.status).toBe(201)
    expect(conv.body).toMatchObject({
      type: 'invoice',
      status: 'partially_paid',
      amount_paid: '30.00',
      amount_due: '70.00',
      proforma_id: pro.id,
    })
    expectRefusal(await nothingWritten(() => record(conv.body.id, cash('70.01'))), 'payment_exceeds_amount_due')
    const since = await lastOutboxId()
    const p = await paid(conv.body.id, '70.00')
    expect(await getDoc(conv.body.id)).toMatchObject({ status: 'paid', amount_paid: '100.00', amount_due: '0.00' })
    const events = await eventsSince(since)
    expect(events).toContainEqual({ type: 'document.paid', subjectType: 'document', subjectId: conv.body.id })
    expect(events).toContainEqual({ type: 'payment.recorded', subjectType: 'payment', subjectId: p.id })
  })

  test('a Proforma fully paid then converted gives an Invoice already paid', async () => {
    const pro = await issued('proforma', '45.50')
    await paid(pro.id, '45.50')
    expect((await getDoc(pro.id)).status).toBe('paid')
    const since = await lastOutboxId()
    const conv = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: biz.key })
    expect(conv.status).toBe(201)
    expect(conv.body).toMatchObject({
      type: 'invoice',
      status: 'paid',
      amount_paid: '45.50',
      amount_due: '0.00',
      still_takes_payment: false,
    })
    expect(conv.body.actions.record_payment).toMatchObject({ open: false, code: 'nothing_due' })
    const types = (await eventsSince(since)).map((e) => e.type)
    expect(types).toEqual(['document.issued', 'document.paid'])
  })

  test("reversing a Proforma's Payment after conversion is owed again on the Invoice", async () => {
    const pro = await issued('proforma', '100.00')
    const onPro = await paid(pro.id, '100.00')
    const conv = await h.request('POST', `/v1/documents/${pro.id}/convert`, { key: biz.key })
    expect(conv.body.status).toBe('paid')
    expect((await reverse(onPro.id)).status).toBe(200)
    expect(await getDoc(conv.body.id)).toMatchObject({ status: 'issued', amount_paid: '0.00', amount_due: '100.00' })
  })
})

describe('only completed Payments count', () => {
  test('a pending Payment (older data, no Receipt) changes neither amount_paid nor status, and is listed as it is', async () => {
    const inv = await invoice('100.00')
    const now = h.clock.now().toISOString()
    const pending = await h.deps.db.write((tx) =>
      tx
        .insert(payments)
        .values({
          businessId: biz.id,
          documentId: inv.id,
          status: 'pending',
          amount: '90.00',
          amountMinor: '9000',
          currency: 'EUR',
          paymentDate: '2026-03-01',
          paymentMethod: 'cash',
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .get(),
    )
    // A Payment recorded after it recomputes the document: the pending one counts nowhere.
    const p = await paid(inv.id, '20.00')
    expect(await getDoc(inv.id)).toMatchObject({ status: 'partially_paid', amount_paid: '20.00', amount_due: '80.00' })
    // The whole amount due is still open: 80.00 is taken, as if the pending 90.00 were not there.
    expectRefusal(await nothingWritten(() => record(inv.id, cash('80.01'))), 'payment_exceeds_amount_due')
    const list = await h.request('GET', `/v1/payments?document_id=${inv.id}`, { key: biz.key })
    expect(list.status).toBe(200)
    expect(list.body.data.map((x: any) => [x.id, x.status])).toEqual([
      [pending.id, 'pending'],
      [p.id, 'completed'],
    ])
    expect(list.body.data[0]).toMatchObject({ amount: '90.00', receipt: null, recorded_by: null, amended_by: null })
    const one = await h.request('GET', `/v1/payments/${pending.id}`, { key: biz.key })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ status: 'pending', receipt: null })
    // It has no Receipt, so the Receipts of the document are only the completed Payment's.
    const rl = await h.request('GET', `/v1/receipts?document_id=${inv.id}`, { key: biz.key })
    expect(rl.body.data.map((x: any) => x.payment_id)).toEqual([p.id])
    // And it settles nothing: paying the remaining 80.00 makes the document paid at exactly 100.00.
    await paid(inv.id, '80.00')
    expect(await getDoc(inv.id)).toMatchObject({ status: 'paid', amount_paid: '100.00' })
  })
})

describe('listing Payments', () => {
  test('document_id filters, reversed Payments are included with their Receipt, paging walks each once', async () => {
    const inv = await invoice('100.00')
    const noise = await invoice('100.00')
    const ids: number[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await paid(inv.id, '1.00')).id)
      await paid(noise.id, '1.00')
    }
    await reverse(ids[1]!)
    const seen: any[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const q = new URLSearchParams({ document_id: String(inv.id), limit: '2' })
      if (cursor) q.set('cursor', cursor)
      const r = await h.request('GET', `/v1/payments?${q}`, { key: viewer })
      expect(r.status).toBe(200)
      expect(r.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...r.body.data)
      cursor = r.body.next_cursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen.map((p) => p.id)).toEqual(ids)
    expect(seen.every((p) => p.document_id === inv.id)).toBe(true)
    expect(seen[1]).toMatchObject({ status: 'voided' })
    expect(seen[1].receipt.voided_at).not.toBeNull()
    expect(seen.filter((p) => p.status === 'completed')).toHaveLength(4)
  })

  test("the unfiltered list holds only this Business's Payments", async () => {
    const theirs = await invoice('10.00', { key: other.key, client: otherClientId })
    const tp = await paid(theirs.id, '5.00', {}, other.key)
    const all = await allPages(h, '/v1/payments', biz.key)
    expect(all.length).toBeGreaterThan(0)
    expect(all.map((p) => p.id)).not.toContain(tp.id)
    const filtered = await h.request('GET', `/v1/payments?document_id=${theirs.id}`, { key: biz.key })
    expect(filtered.body).toEqual({ data: [], next_cursor: null })
  })

  test('a bad document_id, limit or cursor is 422 invalid_request naming it', async () => {
    for (const [q, field] of BAD_LIST_QUERIES)
      expectInvalid(await h.request('GET', `/v1/payments?${q}`, { key: biz.key }), field)
  })
})

describe('money at the limits', () => {
  test('an Invoice for 999999999999999.99 EUR paid in two Payments sums exactly', async () => {
    const inv = await invoice('999999999999999.99')
    expect(inv.total).toBe('999999999999999.99')
    await paid(inv.id, '500000000000000.00')
    expect(await getDoc(inv.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid: '500000000000000.00',
      amount_due: '499999999999999.99',
    })
    expectRefusal(await nothingWritten(() => record(inv.id, cash('500000000000000.00'))), 'payment_exceeds_amount_due')
    const last = await paid(inv.id, '499999999999999.99')
    expect(last.amount).toBe('499999999999999.99')
    expect(await getDoc(inv.id)).toMatchObject({
      status: 'paid',
      amount_paid: '999999999999999.99',
      amount_due: '0.00',
    })
  })

  test('a KWD Invoice (3 decimals) is paid exactly', async () => {
    const inv = await invoice('12.345', { currency: 'KWD' })
    expect(inv).toMatchObject({ currency: 'KWD', total: '12.345' })
    const a = await paid(inv.id, '12.344')
    expect(a).toMatchObject({ amount: '12.344', currency: 'KWD' })
    expect(await getDoc(inv.id)).toMatchObject({ status: 'partially_paid', amount_paid: '12.344', amount_due: '0.001' })
    expectRefusal(await nothingWritten(() => record(inv.id, cash('0.002'))), 'payment_exceeds_amount_due')
    await paid(inv.id, '0.001')
    expect(await getDoc(inv.id)).toMatchObject({ status: 'paid', amount_paid: '12.345', amount_due: '0.000' })
  })

  test('a JPY Invoice (0 decimals) is paid exactly', async () => {
    const inv = await invoice('10001', { currency: 'JPY' })
    expect(inv).toMatchObject({ currency: 'JPY', total: '10001' })
    await paid(inv.id, '5000')
    const b = await paid(inv.id, '5001')
    expect(b).toMatchObject({ amount: '5001', currency: 'JPY' })
    expect(await getDoc(inv.id)).toMatchObject({ status: 'paid', amount_paid: '10001', amount_due: '0' })
  })
})
