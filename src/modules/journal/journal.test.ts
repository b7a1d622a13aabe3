// The journal over HTTP against a real temp-file database (extensions §17): an entry for every kind of change however
// it was made, every hash recomputed by this test's own code from the API's answer, verify, the triggers, access.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { allPages, makeHarness, serveHarness, type Harness } from '../../../test/harness'
import { startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'
import { smtpMailer } from '../../adapters/smtp'
import { connectMcp } from '../../../test/mcp-client'
import { updateBusiness } from '../business'
import { checkChain } from './journal.testkit'

let smtp: TestSmtpServer
let h: Harness
let biz: { id: number; key: string }
let clientId: number

beforeAll(async () => {
  smtp = await startTestSmtpServer()
  h = await makeHarness({
    config: { mailRelay: smtp.url, smtpAllowPrivate: true, smtpAllowPlainLogin: true },
    overrides: { mailer: smtpMailer({ connectionMs: 1000, greetingMs: 1000, socketMs: 5000 }) },
  })
  biz = await h.business({ currency: 'EUR', email: 'office@shop.example', name: 'Shop Ltd' })
  clientId = await h.client(biz.key, { name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})
// The clock is fixed: each test opens a fresh rate-limit minute for its keys, and entries get distinct times.
beforeEach(() => h.clock.advance(61_000))

// ------------------------------------------------------------------------------------------------------------

const line = { description: 'Consulting', quantity: '2', unit_price: '50.00', vat_rate: '19.00' }

async function post(path: string, body?: unknown, key = biz.key) {
  return h.request('POST', path, { key, body })
}

async function draft(body: Record<string, unknown> = {}, key = biz.key, client = clientId): Promise<any> {
  const r = await post('/v1/documents', { type: 'invoice', client_id: client, lines: [line], ...body }, key)
  expect(r.status).toBe(201)
  return r.body
}

async function issued(body: Record<string, unknown> = {}): Promise<any> {
  const d = await draft(body)
  const r = await post(`/v1/documents/${d.id}/issue`)
  expect(r.status).toBe(200)
  return r.body
}

async function journal(key = biz.key): Promise<any[]> {
  return allPages(h, '/v1/journal', key)
}

async function verify(key = biz.key): Promise<any> {
  const r = await h.request('GET', '/v1/journal/verify', { key })
  expect(r.status).toBe(200)
  return r.body
}

/** The entries appended by `act`, read through the API. */
async function entriesOf(act: () => Promise<unknown>): Promise<any[]> {
  const before = (await journal()).length
  await act()
  return (await journal()).slice(before)
}

describe('an entry for every kind of change, in the same transaction', () => {
  test('Issue appends document.issued with the type, number, Client, totals, VAT breakdown and the JSON hash', async () => {
    let doc: any
    const [e, ...more] = await entriesOf(async () => (doc = await issued()))
    expect(more).toEqual([])
    expect(e).toMatchObject({
      kind: 'document.issued',
      record: { type: 'document', id: doc.id, number: doc.document_number },
      data: {
        type: 'invoice',
        number: doc.document_number,
        issue_date: doc.issue_date,
        client: { name: 'Acme GmbH', vat_number: null },
        currency: 'EUR',
        net_total: '100.00',
        vat_total: '19.00',
        total: '119.00',
        vat_breakdown: [{ category: 'S', rate: '19.00', net: '100.00', vat: '19.00' }],
      },
    })
    expect(e.data.document_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
  })

  test('Send of a Draft issues it: one document.issued, none for the mail itself', async () => {
    const d = await draft()
    const entries = await entriesOf(async () => expect((await post(`/v1/documents/${d.id}/send`)).status).toBe(200))
    expect(entries.map((e) => [e.kind, e.record.id])).toEqual([['document.issued', d.id]])
  })

  test('a conversion issues its Invoice; a Credit Note is issued; a cancellation is entered', async () => {
    const proforma = await issued({ type: 'proforma' })
    let invoiceId = 0
    const converted = await entriesOf(async () => {
      const r = await post(`/v1/documents/${proforma.id}/convert`)
      expect(r.status).toBe(201)
      invoiceId = r.body.id
    })
    expect(converted.map((e) => [e.kind, e.record.id, e.data.type])).toEqual([
      ['document.issued', invoiceId, 'invoice'],
    ])
    const credited = await entriesOf(() => issued({ type: 'credit_note', credited_document_id: invoiceId }))
    expect(credited.map((e) => [e.kind, e.data.type])).toEqual([['document.issued', 'credit_note']])
    const cancelled = await entriesOf(async () =>
      expect((await post(`/v1/documents/${proforma.id}/cancel`)).status).toBe(200),
    )
    expect(cancelled.map((e) => [e.kind, e.record.id, e.data.document_sha256])).toEqual([
      ['document.cancelled', proforma.id, expect.stringMatching(/^[0-9a-f]{64}$/)],
    ])
  })

  test('a Payment recorded, amended and reversed: each an entry with its amount, date, method, document and Receipt', async () => {
    const inv = await issued()
    let p: any
    const recorded = await entriesOf(async () => {
      const r = await post(`/v1/documents/${inv.id}/payments`, {
        amount: '50.00',
        payment_date: '2026-03-10',
        payment_method: 'cash',
      })
      expect(r.status).toBe(201)
      p = r.body
    })
    expect(recorded).toEqual([
      expect.objectContaining({
        kind: 'payment.recorded',
        record: { type: 'payment', id: p.id, number: p.receipt.receipt_number },
        data: {
          amount: '50.00',
          currency: 'EUR',
          payment_date: '2026-03-10',
          method: 'cash',
          status: 'completed',
          document: { id: inv.id, number: inv.document_number },
          receipt_number: p.receipt.receipt_number,
        },
      }),
    ])
    const amended = await entriesOf(async () =>
      expect(
        (await h.request('PATCH', `/v1/payments/${p.id}`, { key: biz.key, body: { amount: '60.00' } })).status,
      ).toBe(200),
    )
    expect(amended.map((e) => [e.kind, e.data.amount, e.data.status])).toEqual([
      ['payment.amended', '60.00', 'completed'],
    ])
    const reversed = await entriesOf(async () => expect((await post(`/v1/payments/${p.id}/reverse`)).status).toBe(200))
    expect(reversed.map((e) => [e.kind, e.data.amount, e.data.status])).toEqual([
      ['payment.reversed', '60.00', 'voided'],
    ])
  })

  test("a change of the seller's details is business.changed; a change of anything else is no entry", async () => {
    const changed = await entriesOf(() =>
      updateBusiness(h.deps.db, h.deps.clock, biz.id, { name: 'Shop Two Ltd', vatNumber: 'DE123456789' }),
    )
    expect(changed).toEqual([
      expect.objectContaining({
        kind: 'business.changed',
        record: { type: 'business', id: biz.id, number: null },
        data: expect.objectContaining({ name: 'Shop Two Ltd', vat_number: 'DE123456789' }),
      }),
    ])
    expect(await entriesOf(() => updateBusiness(h.deps.db, h.deps.clock, biz.id, { brandColor: '#112233' }))).toEqual(
      [],
    )
  })

  test('a refused change appends nothing (the entry commits with the change or not at all)', async () => {
    const inv = await issued()
    const none = await entriesOf(async () => {
      const r = await post(`/v1/documents/${inv.id}/payments`, {
        amount: '999.00',
        payment_date: '2026-03-10',
        payment_method: 'cash',
      })
      expect(r.body.error.code).toBe('payment_exceeds_amount_due')
    })
    expect(none).toEqual([])
  })
})

describe('the chain', () => {
  test("every hash recomputes from the API's answer with a reader's own code, seq without gaps from 1", async () => {
    const all = await journal()
    expect(all.length).toBeGreaterThanOrEqual(10)
    checkChain(all)
    expect(new Set(all.map((e) => e.kind))).toEqual(
      new Set([
        'document.issued',
        'document.cancelled',
        'payment.recorded',
        'payment.amended',
        'payment.reversed',
        'business.changed',
      ]),
    )
  })

  test('verify answers ok with the number of entries and the head', async () => {
    const all = await journal()
    const last = all[all.length - 1]
    expect(await verify()).toEqual({
      ok: true,
      entries: all.length,
      head: { seq: last.seq, hash: last.hash },
      first_bad_seq: null,
      reason: null,
    })
  })

  test('from_seq starts the page at that entry; a from_seq that is no whole number from 1 is 422 naming it', async () => {
    const r = await h.request('GET', '/v1/journal?from_seq=3&limit=2', { key: biz.key })
    expect(r.status).toBe(200)
    expect(r.body.data.map((e: any) => e.seq)).toEqual([3, 4])
    const next = await h.request('GET', `/v1/journal?limit=2&cursor=${r.body.next_cursor}`, { key: biz.key })
    expect(next.body.data.map((e: any) => e.seq)).toEqual([5, 6])
    for (const bad of ['0', '-1', 'x', '1.5']) {
      const b = await h.request('GET', `/v1/journal?from_seq=${bad}`, { key: biz.key })
      expect(b.status).toBe(422)
      expect(Object.keys(b.body.error.errors)).toEqual(['from_seq'])
    }
  })

  test('a changed total found by verify at the entry of that document, reason record_changed', async () => {
    const other = await h.business({ currency: 'EUR' })
    const c = await h.client(other.key, { name: 'Beta', email: 'b@beta.example', country: 'DE' })
    const d = await draft({}, other.key, c)
    expect((await post(`/v1/documents/${d.id}/issue`, undefined, other.key)).status).toBe(200)
    await draft({}, other.key, c)
    const before = await verify(other.key)
    expect(before.ok).toBe(true)
    await h.deps.db.writerClient.execute({ sql: "UPDATE documents SET total = '1.00' WHERE id = ?", args: [d.id] })
    expect(await verify(other.key)).toMatchObject({ ok: false, first_bad_seq: 1, reason: 'record_changed' })
    // Another Business's chain is its own: untouched, it still holds.
    expect((await verify()).ok).toBe(true)
  })
})

describe('verify compares a record with its newest entry', () => {
  test('a Payment amended, then changed behind the service: found at the amend entry; its older entry is no fault', async () => {
    const other = await h.business({ currency: 'EUR' })
    const c = await h.client(other.key, { name: 'Gamma', email: 'g@gamma.example', country: 'DE' })
    const d = await draft({}, other.key, c)
    expect((await post(`/v1/documents/${d.id}/issue`, undefined, other.key)).status).toBe(200)
    const cash = { payment_date: '2026-03-10', payment_method: 'cash' }
    const p = (await post(`/v1/documents/${d.id}/payments`, { amount: '10.00', ...cash }, other.key)).body
    const amend = await h.request('PATCH', `/v1/payments/${p.id}`, { key: other.key, body: { amount: '20.00' } })
    expect(amend.status).toBe(200)
    await post(`/v1/documents/${d.id}/payments`, { amount: '1.00', ...cash }, other.key)
    // seq 1 issue, 2 recorded (10.00), 3 amended (20.00), 4 the second Payment: the amend is newest for the Payment.
    expect(await verify(other.key)).toMatchObject({ ok: true, entries: 4 })
    await h.deps.db.writerClient.execute({ sql: "UPDATE payments SET amount = '30.00' WHERE id = ?", args: [p.id] })
    expect(await verify(other.key)).toMatchObject({ ok: false, first_bad_seq: 3, reason: 'record_changed' })
  })
})

describe('the database refuses changes to entries', () => {
  test('UPDATE and DELETE of a journal row are refused by triggers; the row stays as it was', async () => {
    const [first] = await journal()
    const db = h.deps.db.writerClient
    await expect(
      db.execute({ sql: "UPDATE journal_entries SET data = '{}' WHERE business_id = ? AND seq = 1", args: [biz.id] }),
    ).rejects.toThrow(/never changed/)
    await expect(
      db.execute({ sql: 'DELETE FROM journal_entries WHERE business_id = ? AND seq = 1', args: [biz.id] }),
    ).rejects.toThrow(/never deleted/)
    expect((await journal())[0]).toEqual(first)
  })

  test('a second entry at a seq (a fork) is refused by the key', async () => {
    await expect(
      h.deps.db.writerClient.execute({
        sql: `INSERT INTO journal_entries (business_id, seq, at, kind, record_type, record_id, record_number, data, prev_hash, hash)
              SELECT business_id, seq, at, kind, record_type, record_id, record_number, data, prev_hash, hash
              FROM journal_entries WHERE business_id = ? AND seq = 1`,
        args: [biz.id],
      }),
    ).rejects.toThrow(/UNIQUE|PRIMARY/)
  })
})

describe('who reads the journal', () => {
  test('Member and Viewer keys are refused 403; nothing is answered', async () => {
    for (const role of ['member', 'viewer'] as const) {
      const key = await h.key(biz.id, role)
      for (const path of ['/v1/journal', '/v1/journal/verify']) {
        const r = await h.request('GET', path, { key })
        expect(r.status).toBe(403)
        expect(r.body.data).toBeUndefined()
      }
    }
  })

  test("another Business's key reads only its own chain", async () => {
    const other = await h.business({ currency: 'EUR' })
    expect(await journal(other.key)).toEqual([])
    expect(await verify(other.key)).toEqual({
      ok: true,
      entries: 0,
      head: { seq: 0, hash: '0'.repeat(64) },
      first_bad_seq: null,
      reason: null,
    })
  })
})

describe('through MCP', () => {
  test("an Admin key's journal_verify and journal_list tools answer what the API answers; a Viewer's list has neither", async () => {
    const served = serveHarness(h)
    const connect = (key: string) => connectMcp(served.base, key)
    try {
      const admin = await connect(biz.key)
      const verdict = (await admin.callTool({ name: 'journal_verify', arguments: {} })) as any
      expect(verdict.structuredContent).toEqual(await verify())
      const page = (await admin.callTool({ name: 'journal_list', arguments: { from_seq: '2', limit: '1' } })) as any
      expect(page.structuredContent.data.map((e: any) => e.seq)).toEqual([2])
      const viewer = await connect(await h.key(biz.id, 'viewer'))
      const names = (await viewer.listTools()).tools.map((t) => t.name)
      expect(names.filter((n) => n.startsWith('journal_'))).toEqual([])
      await admin.close()
      await viewer.close()
    } finally {
      served.stop()
    }
  })
})
