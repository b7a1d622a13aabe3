// Bank statement import (extensions §15) through the API on a real temp-file database: CAMT.053 of versions .02, .04
// and .08 and a CAMT.054, built from the ISO 20022 element names, with structured and unstructured references,
// partial and over-payments, another currency, debits, pending entries and duplicates; each match records the Payment
// Record a Payment records; never more than due, never another Business's document, never twice for one entry; the
// refusals (another IBAN, malformed XML, a DTD or external entity, over 10 MB) record nothing; matching by hand.
import { describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { type Harness, harnessForFile, type ClientSetup, issuedFor } from '../../../test/harness'
import { addBankAccount } from '../business'
import { camtFile, type TestEntry } from './camt.testkit'

let h: Harness
harnessForFile((made) => (h = made), { freshMinute: true })

const IBAN = 'DE89370400440532013000'
const OTHER_IBAN = 'FR1420041010050500013M02606'
const LINE = { description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '0', vat_category: 'Z' }

interface Setup extends ClientSetup {
  accountId: number
}

async function setup(iban = IBAN): Promise<Setup> {
  const b = await h.business()
  const account = await addBankAccount(h.deps.db, h.clock, b.id, { name: 'Main', iban, currency: 'EUR' })
  return { bizId: b.id, key: b.key, clientId: await h.client(b.key), accountId: account.id }
}

/** An issued EUR Invoice of `amount` (one zero-rated Line: total = amount). */
const invoice = (s: Setup, amount = '100.00', currency = 'EUR') =>
  issuedFor(h, s, { currency, lines: [{ ...LINE, unit_price: amount }] })

function post(s: Setup, xml: string, headers: Record<string, string> = {}) {
  return h.request('POST', '/v1/bank-statements', {
    key: s.key,
    raw: xml,
    headers: { 'content-type': 'application/xml', ...headers },
  })
}

async function paymentsOf(s: Setup): Promise<any[]> {
  const r = await h.request('GET', '/v1/payments?limit=100', { key: s.key })
  expect(r.status).toBe(200)
  return r.body.data
}

async function count(table: string, businessId: number): Promise<number> {
  const rows = (await h.deps.db.read.all(
    sql.raw(`SELECT count(*) AS n FROM ${table} WHERE business_id = ${businessId}`),
  )) as Array<{ n: number }>
  return Number(rows[0]!.n)
}

describe('matching booked credits', () => {
  test('CAMT.053.001.02, structured RF reference: a Payment as Record a Payment records it, with Receipt and events', async () => {
    const s = await setup()
    const inv = await invoice(s, '250.00')
    const r = await post(
      s,
      camtFile({
        version: 2,
        iban: IBAN,
        entries: [
          {
            amount: '250.00',
            structured: inv.payment_reference,
            debtor: 'Käufer AG',
            entryRef: 'E2E-0001',
            bookedOn: '2026-03-08',
          },
        ],
      }),
    )
    expect(r.status, r.text).toBe(201)
    expect(r.body).toMatchObject({
      account_id: s.accountId,
      message: 'camt.053.001.02',
      matched: 1,
      unmatched: 0,
      duplicates: 0,
    })
    expect(r.body.from).toBe('2026-03-01')
    expect(r.body.to).toBe('2026-03-09')
    const [e] = r.body.entries
    expect(e).toMatchObject({
      booked_on: '2026-03-08',
      amount: '250.00',
      currency: 'EUR',
      counterparty: 'Käufer AG',
      status: 'matched',
      document_id: inv.id,
    })
    const payment = await h.request('GET', `/v1/payments/${e.payment_id}`, { key: s.key })
    expect(payment.body).toMatchObject({
      document_id: inv.id,
      status: 'completed',
      amount: '250.00',
      currency: 'EUR',
      payment_date: '2026-03-08',
      payment_method: 'bank_transfer',
      bank_account_id: s.accountId,
      reference: 'E2E-0001',
    })
    expect(payment.body.receipt.receipt_number).toMatch(/^RCT-/)
    const doc = await h.request('GET', `/v1/documents/${inv.id}`, { key: s.key })
    expect(doc.body.status).toBe('paid')
    expect(doc.body.amount_due).toBe('0.00')
    const events = (await h.deps.db.read.all(
      sql`SELECT type, subject_id AS subjectId FROM outbox WHERE business_id = ${s.bizId} ORDER BY id`,
    )) as Array<{ type: string; subjectId: number }>
    // As Record a Payment raises them: payment.recorded for the Payment, then document.paid for the document.
    expect(events.slice(-2)).toEqual([
      { type: 'payment.recorded', subjectId: e.payment_id },
      { type: 'document.paid', subjectId: inv.id },
    ])
  })

  test('CAMT.053.001.04, unstructured text: the reference written in groups of four, or the document number, matches', async () => {
    const s = await setup()
    const a = await invoice(s, '10.00')
    const b = await invoice(s, '20.00')
    const spaced = a.payment_reference.replace(/(.{4})(?=.)/g, '$1 ')
    const r = await post(
      s,
      camtFile({
        version: 4,
        iban: IBAN,
        entries: [
          { amount: '10.00', text: [`Payment ${spaced.toLowerCase()} thank you`] },
          { amount: '20.00', text: ['Rechnung', `Nr. ${b.document_number}, March`] },
        ],
      }),
    )
    expect(r.status, r.text).toBe(201)
    expect(r.body.entries.map((e: any) => [e.status, e.document_id])).toEqual([
      ['matched', a.id],
      ['matched', b.id],
    ])
    expect(r.body.entries[1].remittance).toBe(`Rechnung Nr. ${b.document_number}, March`)
  })

  test('CAMT.053.001.08: a partial payment matches; more than is due, another currency, a debit and a pending entry do not', async () => {
    const s = await setup()
    const part = await invoice(s, '300.00')
    const over = await invoice(s, '50.00')
    const usdDoc = await invoice(s, '70.00')
    const entries: TestEntry[] = [
      { amount: '100.00', structured: part.payment_reference, debtor: 'Pty Name v8' },
      { amount: '50.01', structured: over.payment_reference },
      { amount: '70.00', currency: 'USD', structured: usdDoc.payment_reference },
      { amount: '70.00', credit: false, structured: usdDoc.payment_reference },
      { amount: '70.00', status: 'PDNG', structured: usdDoc.payment_reference },
      { amount: '5.00', text: ['no reference at all'] },
    ]
    const r = await post(s, camtFile({ version: 8, iban: IBAN, entries }))
    expect(r.status, r.text).toBe(201)
    expect(r.body.entries.map((e: any) => e.status)).toEqual([
      'matched',
      'unmatched',
      'unmatched',
      'ignored',
      'ignored',
      'unmatched',
    ])
    expect(r.body.entries[0].counterparty).toBe('Pty Name v8')
    expect(r.body).toMatchObject({ matched: 1, unmatched: 3, duplicates: 0, ignored: 2 })
    for (const e of r.body.entries.slice(1)) expect(e.payment_id).toBeNull()
    const payments = await paymentsOf(s)
    expect(payments.map((p: any) => [p.document_id, p.amount])).toEqual([[part.id, '100.00']])
    const doc = await h.request('GET', `/v1/documents/${part.id}`, { key: s.key })
    expect(doc.body).toMatchObject({ status: 'partially_paid', amount_due: '200.00' })
    const overDoc = await h.request('GET', `/v1/documents/${over.id}`, { key: s.key })
    expect(overDoc.body.amount_due).toBe('50.00')
  })

  test('CAMT.054.001.06 notification: matched like a statement; two credits for one document never pay more than is due', async () => {
    const s = await setup()
    const inv = await invoice(s, '80.00')
    const r = await post(
      s,
      camtFile({
        kind: '054',
        version: 6,
        iban: IBAN,
        entries: [
          { amount: '60.00', structured: inv.payment_reference },
          { amount: '60.00', structured: inv.payment_reference },
          { amount: '20.00', text: [inv.document_number] },
        ],
      }),
    )
    expect(r.status, r.text).toBe(201)
    expect(r.body.message).toBe('camt.054.001.06')
    expect(r.body.entries.map((e: any) => e.status)).toEqual(['matched', 'unmatched', 'matched'])
    const doc = await h.request('GET', `/v1/documents/${inv.id}`, { key: s.key })
    expect(doc.body).toMatchObject({ status: 'paid', amount_due: '0.00', amount_paid: '80.00' })
  })

  test("another Business's reference or number is never matched: the entry stays unmatched", async () => {
    const mine = await setup()
    const theirs = await setup('GB33BUKB20201555555555')
    const foreign = await invoice(theirs, '40.00')
    const r = await post(
      mine,
      camtFile({
        version: 2,
        iban: IBAN,
        entries: [
          { amount: '40.00', structured: foreign.payment_reference },
          { amount: '40.00', text: [foreign.document_number] },
        ],
      }),
    )
    expect(r.status, r.text).toBe(201)
    expect(r.body.entries.map((e: any) => e.status)).toEqual(['unmatched', 'unmatched'])
    expect(await paymentsOf(theirs)).toEqual([])
  })
})

describe('duplicates', () => {
  test('a file imported twice records nothing new: every credit of the second import is a duplicate', async () => {
    const s = await setup()
    const inv = await invoice(s, '100.00')
    const xml = camtFile({
      version: 4,
      iban: IBAN,
      entries: [
        { amount: '40.00', structured: inv.payment_reference },
        { amount: '9.99', text: ['unknown'] },
        { amount: '1.00', credit: false },
        // No bank reference: the same date, amount, party and text make it the same entry.
        { amount: '7.00', text: ['cash deposit'], debtor: 'Someone', entryRef: null },
      ],
    })
    const first = await post(s, xml)
    expect(first.body).toMatchObject({ matched: 1, unmatched: 2, duplicates: 0, ignored: 1 })
    const second = await post(s, xml)
    expect(second.status).toBe(201)
    expect(second.body).toMatchObject({ matched: 0, unmatched: 0, duplicates: 3, ignored: 1 })
    for (const e of second.body.entries) expect(e.payment_id).toBeNull()
    expect((await paymentsOf(s)).length).toBe(1)
    const doc = await h.request('GET', `/v1/documents/${inv.id}`, { key: s.key })
    expect(doc.body.amount_paid).toBe('40.00')
  })

  test('the same entry in a CAMT.054 and then the day statement (CAMT.053) is recorded once', async () => {
    const s = await setup()
    const inv = await invoice(s, '30.00')
    const e: TestEntry = { amount: '30.00', structured: inv.payment_reference, entryRef: 'SAME-ENTRY-1' }
    expect((await post(s, camtFile({ kind: '054', version: 8, iban: IBAN, entries: [e] }))).body.matched).toBe(1)
    const again = await post(s, camtFile({ kind: '053', version: 8, iban: IBAN, entries: [e] }))
    expect(again.body.entries[0].status).toBe('duplicate')
    expect((await paymentsOf(s)).length).toBe(1)
  })

  test('a keyed import sent again replays its answer and records nothing more', async () => {
    const s = await setup()
    const inv = await invoice(s, '30.00')
    const xml = camtFile({ version: 2, iban: IBAN, entries: [{ amount: '30.00', structured: inv.payment_reference }] })
    const a = await post(s, xml, { 'idempotency-key': 'camt-1' })
    const b = await post(s, xml, { 'idempotency-key': 'camt-1' })
    expect(a.status).toBe(201)
    expect(b.status).toBe(201)
    expect(b.text).toBe(a.text)
    expect(await count('bank_statements', s.bizId)).toBe(1)
    expect((await paymentsOf(s)).length).toBe(1)
  })
})

describe('refused files record nothing', () => {
  const nothingRecorded = async (s: Setup) => {
    expect(await count('bank_statements', s.bizId)).toBe(0)
    expect(await count('bank_statement_entries', s.bizId)).toBe(0)
    expect(await count('payments', s.bizId)).toBe(0)
  }

  test('a statement of another IBAN is 422 invalid_request naming account', async () => {
    const s = await setup()
    const inv = await invoice(s)
    const r = await post(
      s,
      camtFile({ version: 2, iban: OTHER_IBAN, entries: [{ amount: '1.00', structured: inv.payment_reference }] }),
    )
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(Object.keys(r.body.error.errors)).toEqual(['account'])
    await nothingRecorded(s)
  })

  test('malformed XML, another message, version 001.01 or 001.09, an entry without amount: 422 naming file', async () => {
    const s = await setup()
    const good = camtFile({ version: 2, iban: IBAN, entries: [{ amount: '1.00' }] })
    for (const xml of [
      good.slice(0, -20),
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>',
      good.replace('camt.053.001.02', 'camt.053.001.01'),
      good.replace('camt.053.001.02', 'camt.053.001.09'),
      good.replace(/<Amt Ccy="EUR">1.00<\/Amt>\s*<CdtDbtInd>/, '<CdtDbtInd>'),
      'not xml at all',
    ]) {
      const r = await post(s, xml)
      expect(r.status).toBe(422)
      expect(Object.keys(r.body.error.errors)).toEqual(['file'])
    }
    await nothingRecorded(s)
  })

  test('an external entity (XXE) is never read: the DTD is refused and the secret file appears nowhere', async () => {
    const s = await setup()
    const secret = join(h.dir, 'secret.txt')
    writeFileSync(secret, 'TOP-SECRET-CONTENT')
    const good = camtFile({ version: 2, iban: IBAN, entries: [{ amount: '1.00', text: ['&xxe;'] }] })
    const xxe = good
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY xxe SYSTEM "file://${secret}">]>`,
      )
      .replace('&amp;xxe;', '&xxe;')
    const laughs = good.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>',
    )
    for (const xml of [xxe, laughs]) {
      const r = await post(s, xml)
      expect(r.status).toBe(422)
      expect(Object.keys(r.body.error.errors)).toEqual(['file'])
      expect(r.text).not.toContain('TOP-SECRET')
    }
    await nothingRecorded(s)
  })

  test('a file over 10 MB is 413 (declared or not, as every body over its limit: the door never reads past it), another content type 415', async () => {
    const s = await setup()
    const big = camtFile({
      version: 2,
      iban: IBAN,
      entries: [{ amount: '1.00', text: ['x'.repeat(10 * 1024 * 1024)] }],
    })
    const declared = await post(s, big)
    expect(declared.status).toBe(413)
    expect(declared.body.error.type).toBe('invalid_request')
    expect(declared.body.error.message).toContain('10 MB')
    // Streamed without a length: read up to the limit and no further.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big))
        c.close()
      },
    })
    const res = await h.app.fetch(
      new Request('http://localhost/v1/bank-statements', {
        method: 'POST',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/xml' },
        body: stream,
      }),
    )
    expect(res.status).toBe(413)
    const wrongType = await post(s, camtFile({ version: 2, iban: IBAN, entries: [] }), {
      'content-type': 'application/json',
    })
    expect(wrongType.status).toBe(415)
    await nothingRecorded(s)
  }, 30_000)
})

describe('reading statements and matching by hand', () => {
  test('an unmatched entry matched by hand records its Payment once; again is bank_entry_not_unmatched', async () => {
    const s = await setup()
    const inv = await invoice(s, '45.00')
    const imported = await post(
      s,
      camtFile({ version: 8, iban: IBAN, entries: [{ amount: '45.00', text: ['for the March work'] }] }),
    )
    const entry = imported.body.entries[0]
    expect(entry.status).toBe('unmatched')
    const m = await h.request('POST', `/v1/bank-statement-entries/${entry.id}/match`, {
      key: s.key,
      body: { document_id: inv.id },
    })
    expect(m.status).toBe(200)
    expect(m.body).toMatchObject({ id: entry.id, status: 'matched', document_id: inv.id })
    const p = await h.request('GET', `/v1/payments/${m.body.payment_id}`, { key: s.key })
    expect(p.body).toMatchObject({ amount: '45.00', payment_method: 'bank_transfer', bank_account_id: s.accountId })
    const again = await h.request('POST', `/v1/bank-statement-entries/${entry.id}/match`, {
      key: s.key,
      body: { document_id: inv.id },
    })
    expect(again.status).toBe(422)
    expect(again.body.error.code).toBe('bank_entry_not_unmatched')
    expect((await paymentsOf(s)).length).toBe(1)
    const got = await h.request('GET', `/v1/bank-statements/${imported.body.id}`, { key: s.key })
    expect(got.body).toMatchObject({ matched: 1, unmatched: 0 })
    expect(got.body.entries[0].payment_id).toBe(m.body.payment_id)
  })

  test("by hand: another currency is payment_currency_mismatch, more than due payment_exceeds_amount_due, another Business's entry 404", async () => {
    const s = await setup()
    const usd = await invoice(s, '45.00', 'USD')
    const small = await invoice(s, '10.00')
    const imported = await post(s, camtFile({ version: 2, iban: IBAN, entries: [{ amount: '45.00', text: ['?'] }] }))
    const id = imported.body.entries[0].id
    const cur = await h.request('POST', `/v1/bank-statement-entries/${id}/match`, {
      key: s.key,
      body: { document_id: usd.id },
    })
    expect(cur.body.error.code).toBe('payment_currency_mismatch')
    const over = await h.request('POST', `/v1/bank-statement-entries/${id}/match`, {
      key: s.key,
      body: { document_id: small.id },
    })
    expect(over.body.error.code).toBe('payment_exceeds_amount_due')
    const other = await setup('GB33BUKB20201555555555')
    const theirs = await h.request('POST', `/v1/bank-statement-entries/${id}/match`, {
      key: other.key,
      body: { document_id: small.id },
    })
    expect(theirs.status).toBe(404)
    expect((await h.request('GET', `/v1/bank-statements/${imported.body.id}`, { key: other.key })).status).toBe(404)
    expect(await count('payments', s.bizId)).toBe(0)
  })

  test('a Viewer key lists statements but may neither import nor match (403)', async () => {
    const s = await setup()
    const viewer = await h.key(s.bizId, 'viewer')
    const xml = camtFile({ version: 2, iban: IBAN, entries: [{ amount: '1.00' }] })
    const r = await h.request('POST', '/v1/bank-statements', {
      key: viewer,
      raw: xml,
      headers: { 'content-type': 'application/xml' },
    })
    expect(r.status).toBe(403)
    await post(s, xml)
    const list = await h.request('GET', '/v1/bank-statements', { key: viewer })
    expect(list.status).toBe(200)
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0]).toMatchObject({ account_id: s.accountId, unmatched: 1 })
    const m = await h.request('POST', '/v1/bank-statement-entries/1/match', { key: viewer, body: { document_id: 1 } })
    expect(m.status).toBe(403)
  })
})
