// The application-only actions as services, against a real database and a real SMTP server: every refusal code of
// mark sent / take the mark back, remind / remind again, email a Receipt and duplicate, each writing nothing; what
// each writes and raises when it goes through; and the closed buttons (app_actions) predicting each refusal.
import { describe, expect, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import type { Harness } from '../../../test/harness'
import { mailHarnessForFile } from '../../../test/mail-harness'
import { documents, mailDailyCounts, outbox, payments, receipts } from '../../db/schema'
import type { TestSmtpServer } from '../../adapters/smtp-test-server'
import { ApiError } from '../../shared/errors'
import { setMailbox } from '../mailbox'
import { emailReceipt, remindDocument } from '../mail/app-mail.service'
import { duplicateDocument, markSent, unmarkSent, viewDocumentForApp } from './app-actions.service'

let smtp: TestSmtpServer
let h: Harness

mailHarnessForFile((made, server) => ((h = made), (smtp = server)), { config: { rateLimit: 1_000_000 } })

const CLIENT_EMAIL = 'billing@acme.example'
const line = (unit_price = '100.00', vat_rate = '19.00') => ({
  description: 'Work',
  quantity: '1',
  unit_price,
  vat_rate,
})

interface Biz {
  id: number
  key: string
  client: number
  who: { businessId: number; role: 'admin' }
}

async function biz(input: Record<string, unknown> = { email: 'office@shop.example' }): Promise<Biz> {
  const b = await h.business({ name: 'Shop Ltd', ...input })
  const client = await h.client(b.key, { name: 'Acme GmbH', email: CLIENT_EMAIL })
  return { id: b.id, key: b.key, client, who: { businessId: b.id, role: 'admin' } }
}

async function api(b: Biz, method: string, path: string, body?: unknown) {
  const r = await h.request(method, path, { key: b.key, body })
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`)
  return r.body
}

async function draft(b: Biz, extra: Record<string, unknown> = {}) {
  return api(b, 'POST', '/v1/documents', { type: 'invoice', client_id: b.client, lines: [line()], ...extra })
}
async function issued(b: Biz, extra: Record<string, unknown> = {}) {
  return api(b, 'POST', `/v1/documents/${(await draft(b, extra)).id}/issue`)
}
async function pay(b: Biz, docId: number, amount: string) {
  return api(b, 'POST', `/v1/documents/${docId}/payments`, {
    amount,
    payment_date: '2026-03-10',
    payment_method: 'cash',
  })
}

/** Everything of the Business an action could write: documents, events, Payments, Receipts, the day's mail count. */
async function everything(bizId: number) {
  const q = h.deps.db.read
  return {
    documents: await q.select().from(documents).where(eq(documents.businessId, bizId)).orderBy(documents.id),
    events: await q.select().from(outbox).where(eq(outbox.businessId, bizId)).orderBy(outbox.id),
    payments: await q
      .select({ id: payments.id, status: payments.status, amount: payments.amount })
      .from(payments)
      .where(eq(payments.businessId, bizId)),
    receipts: await q.select().from(receipts).where(eq(receipts.businessId, bizId)),
    mail: await q.select().from(mailDailyCounts).where(eq(mailDailyCounts.businessId, bizId)),
  }
}

/** Expects the action refused with exactly this code (422 refusal) and nothing written, no email sent. */
async function refused(b: Biz, code: string, action: () => Promise<unknown>) {
  const before = await everything(b.id)
  const sent = smtp.received.length
  let err: unknown
  try {
    await action()
  } catch (e) {
    err = e
  }
  expect(err).toBeInstanceOf(ApiError)
  const e = err as ApiError
  expect({ status: e.status, type: e.type, code: e.extra.code }).toEqual({ status: 422, type: 'refusal', code })
  expect(e.message.length).toBeGreaterThan(10)
  expect(await everything(b.id)).toEqual(before)
  expect(smtp.received.length).toBe(sent)
}

async function eventsOf(bizId: number, type: string, docId: number) {
  const rows = await h.deps.db.read
    .select()
    .from(outbox)
    .where(and(eq(outbox.businessId, bizId), eq(outbox.type, type)))
  return rows.filter((r) => r.subjectId === docId).length
}

async function appActions(b: Biz, id: number, role: 'admin' | 'viewer' = 'admin') {
  return (await viewDocumentForApp(h.deps, { businessId: b.id, role }, id)).app_actions
}

describe('mark sent and take the mark back', () => {
  test('marking an issued document raises document.sent with last_sent {via: marked, recipients: []}', async () => {
    const b = await biz()
    const doc = await issued(b)
    expect((await appActions(b, doc.id)).mark_sent).toEqual({ open: true })
    expect((await appActions(b, doc.id)).unmark_sent).toEqual({ open: false, code: 'not_marked_sent' })
    const marked = await markSent(h.deps, b.who, doc.id)
    expect(marked.last_sent).toEqual({ at: h.clock.now().toISOString(), recipients: [], via: 'marked' })
    expect(await eventsOf(b.id, 'document.sent', doc.id)).toBe(1)
    expect((await api(b, 'GET', `/v1/documents/${doc.id}`)).last_sent.via).toBe('marked')
  })

  test('taking the mark back raises nothing; last_sent becomes null when never emailed', async () => {
    const b = await biz()
    const doc = await issued(b)
    await markSent(h.deps, b.who, doc.id)
    expect((await appActions(b, doc.id)).unmark_sent).toEqual({ open: true })
    const events = (await everything(b.id)).events.length
    const back = await unmarkSent(h.deps, b.who, doc.id)
    expect(back.last_sent).toBeNull()
    expect((await everything(b.id)).events.length).toBe(events)
  })

  test('taking the mark back returns last_sent to the newest send by email', async () => {
    const b = await biz()
    const doc = await issued(b)
    const sent = await api(b, 'POST', `/v1/documents/${doc.id}/send`)
    expect(sent.last_sent.via).toBe('service')
    h.clock.advance(60_000)
    await markSent(h.deps, b.who, doc.id)
    const back = await unmarkSent(h.deps, b.who, doc.id)
    expect(back.last_sent).toEqual(sent.last_sent)
    // A later real send replaces a mark: there is then no mark to take back.
    await markSent(h.deps, b.who, doc.id)
    const again = await api(b, 'POST', `/v1/documents/${doc.id}/send`)
    expect(again.last_sent.via).toBe('service')
    await refused(b, 'not_marked_sent', () => unmarkSent(h.deps, b.who, doc.id))
  })

  test('a Draft is refused draft_not_delivered, a cancelled document cancelled_not_marked; nothing written', async () => {
    const b = await biz()
    const d = await draft(b)
    expect((await appActions(b, d.id)).mark_sent).toEqual({ open: false, code: 'draft_not_delivered' })
    await refused(b, 'draft_not_delivered', () => markSent(h.deps, b.who, d.id))
    const c = await issued(b)
    await api(b, 'POST', `/v1/documents/${c.id}/cancel`)
    expect((await appActions(b, c.id)).mark_sent).toEqual({ open: false, code: 'cancelled_not_marked' })
    await refused(b, 'cancelled_not_marked', () => markSent(h.deps, b.who, c.id))
  })

  test('a cancelled document keeps its mark (cancelled_keeps_mark); a document never marked is not_marked_sent', async () => {
    const b = await biz()
    const doc = await issued(b)
    await refused(b, 'not_marked_sent', () => unmarkSent(h.deps, b.who, doc.id))
    await markSent(h.deps, b.who, doc.id)
    await api(b, 'POST', `/v1/documents/${doc.id}/cancel`)
    expect((await appActions(b, doc.id)).unmark_sent).toEqual({ open: false, code: 'cancelled_keeps_mark' })
    await refused(b, 'cancelled_keeps_mark', () => unmarkSent(h.deps, b.who, doc.id))
    expect((await api(b, 'GET', `/v1/documents/${doc.id}`)).last_sent.via).toBe('marked')
  })
})

describe('remind and remind again', () => {
  test('a reminder emails the Client the PDF, counts one recipient, and the document shows when it was reminded', async () => {
    const b = await biz()
    const doc = await issued(b)
    expect((await appActions(b, doc.id)).remind).toEqual({ open: true })
    expect((await appActions(b, doc.id)).remind_again).toEqual({ open: false, code: 'never_reminded' })
    await refused(b, 'never_reminded', () => remindDocument(h.deps, b.who, doc.id, true))
    const events = (await everything(b.id)).events.length
    await remindDocument(h.deps, b.who, doc.id, false)
    expect(smtp.received.length).toBe(1)
    const m = smtp.received[0]!
    expect(m.envelope.to).toEqual([CLIENT_EMAIL])
    expect(m.mail.subject).toBe(`Reminder: Invoice ${doc.document_number} from Shop Ltd`)
    expect(m.mail.text).toContain(`${doc.amount_due} EUR is still open`)
    expect(m.mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf'])
    // Extensions §14 (added within v1): a reminder raises document.reminded, once.
    expect((await everything(b.id)).events.map((e) => e.type).slice(events)).toEqual(['document.reminded'])
    const view = await viewDocumentForApp(h.deps, b.who, doc.id)
    expect(view.last_reminded_at).toBe(h.clock.now().toISOString())
    expect(view.app_actions.remind_again).toEqual({ open: true })
    h.clock.advance(86_400_000)
    await remindDocument(h.deps, b.who, doc.id, true)
    expect((await viewDocumentForApp(h.deps, b.who, doc.id)).last_reminded_at).toBe(h.clock.now().toISOString())
    expect(smtp.received.length).toBe(2)
  })

  test('not_remindable: a Draft, a cancelled or paid document, a Quote, a Credit Note; nothing written', async () => {
    const b = await biz()
    const cases: [string, number][] = []
    cases.push(['draft', (await draft(b)).id])
    const c = await issued(b)
    await api(b, 'POST', `/v1/documents/${c.id}/cancel`)
    cases.push(['cancelled', c.id])
    const p = await issued(b)
    await pay(b, p.id, p.total)
    cases.push(['paid', p.id])
    cases.push(['quote', (await issued(b, { type: 'quote' })).id])
    const inv = await issued(b)
    cases.push(['credit note', (await issued(b, { type: 'credit_note', credited_document_id: inv.id })).id])
    for (const [, id] of cases) {
      expect((await appActions(b, id)).remind).toEqual({ open: false, code: 'not_remindable' })
      await refused(b, 'not_remindable', () => remindDocument(h.deps, b.who, id, false))
      await refused(b, 'not_remindable', () => remindDocument(h.deps, b.who, id, true))
    }
  })

  test('converted_proforma: a converted Proforma is reminded on its Invoice', async () => {
    const b = await biz()
    const pf = await issued(b, { type: 'proforma' })
    const inv = await api(b, 'POST', `/v1/documents/${pf.id}/convert`)
    expect((await appActions(b, pf.id)).remind).toEqual({ open: false, code: 'converted_proforma' })
    await refused(b, 'converted_proforma', () => remindDocument(h.deps, b.who, pf.id, false))
    await remindDocument(h.deps, b.who, inv.id, false)
    expect(smtp.received.length).toBe(1)
  })

  test('no_mail_provider_to_remind: a Business with no address of its own and no mailbox; nothing written', async () => {
    const b = await biz({ email: null })
    const doc = await issued(b)
    expect((await appActions(b, doc.id)).remind).toMatchObject({
      open: false,
      code: 'no_mail_provider_to_remind',
      remedy: 'connect_mail_provider',
    })
    await refused(b, 'no_mail_provider_to_remind', () => remindDocument(h.deps, b.who, doc.id, false))
  })

  test('a lost mailbox and the daily limit refuse a reminder as they refuse a Send', async () => {
    const b = await biz()
    const doc = await issued(b)
    await setMailbox(h.deps.db, h.clock, b.id, { kind: 'google', from: 'shop@gmail.example' })
    expect((await appActions(b, doc.id)).remind).toMatchObject({ open: false, code: 'mail_account_lost' })
    await refused(b, 'mail_account_lost', () => remindDocument(h.deps, b.who, doc.id, false))
    const b2 = await biz()
    const doc2 = await issued(b2)
    await h.deps.db.write((tx) =>
      tx.run(
        sql`INSERT INTO mail_daily_counts (business_id, day, recipients) VALUES (${b2.id}, ${h.clock.now().toISOString().slice(0, 10)}, 100)`,
      ),
    )
    await refused(b2, 'sending_limit_reached', () => remindDocument(h.deps, b2.who, doc2.id, false))
  })
})

describe('email a Receipt', () => {
  test("emails the Receipt's PDF to the Client and writes nothing but the day's count", async () => {
    const b = await biz()
    const doc = await issued(b)
    const p = await pay(b, doc.id, '50.00')
    const before = await everything(b.id)
    const r = await emailReceipt(h.deps, b.who, p.id)
    expect(r).toEqual({ receipt_number: p.receipt.receipt_number, to: CLIENT_EMAIL })
    const m = smtp.received[0]!
    expect(m.envelope.to).toEqual([CLIENT_EMAIL])
    expect(m.mail.subject).toBe(`Receipt ${p.receipt.receipt_number} from Shop Ltd`)
    expect(m.mail.attachments[0]!.contentType).toBe('application/pdf')
    expect(m.mail.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-')
    const after = await everything(b.id)
    expect({ ...after, mail: [] }).toEqual({ ...before, mail: [] })
    expect(after.mail[0]!.recipients).toBe((before.mail[0]?.recipients ?? 0) + 1)
  })

  test('receipt_voided once the Payment is reversed; no_receipt for a Payment recorded before Receipts; nothing written', async () => {
    const b = await biz()
    const doc = await issued(b)
    const p = await pay(b, doc.id, '50.00')
    await api(b, 'POST', `/v1/payments/${p.id}/reverse`)
    await refused(b, 'receipt_voided', () => emailReceipt(h.deps, b.who, p.id))
    const old = await pay(b, doc.id, '10.00')
    // A Payment from before Receipts existed: its Receipt row is not there.
    await h.deps.db.write((tx) => tx.run(sql`DELETE FROM receipts WHERE payment_id = ${old.id}`))
    await refused(b, 'no_receipt', () => emailReceipt(h.deps, b.who, old.id))
  })

  test('no_mail_provider_for_receipt: no address of its own and no mailbox; nothing written', async () => {
    const b = await biz({ email: null })
    const doc = await issued(b)
    const p = await pay(b, doc.id, '50.00')
    await refused(b, 'no_mail_provider_for_receipt', () => emailReceipt(h.deps, b.who, p.id))
  })

  test("another Business's Payment is not found", async () => {
    const a = await biz()
    const b = await biz()
    const p = await pay(a, (await issued(a)).id, '5.00')
    await expect(emailReceipt(h.deps, b.who, p.id)).rejects.toMatchObject({ type: 'not_found' })
  })
})

describe('duplicate', () => {
  test('makes a new Draft with the same Client, currency, Lines and notes, no number or dates; an inactive Client duplicates', async () => {
    const b = await biz()
    const doc = await issued(b, {
      notes: 'Thanks',
      issue_date: '2026-03-01',
      lines: [line('100.00'), line('20.00', '7.00')],
    })
    await api(b, 'PATCH', `/v1/clients/${b.client}`, { is_active: false })
    const events = (await everything(b.id)).events.length
    const copy = await duplicateDocument(h.deps, b.who, doc.id)
    expect(copy.id).not.toBe(doc.id)
    expect(copy).toMatchObject({
      type: 'invoice',
      status: 'draft',
      document_number: null,
      issue_date: null,
      due_date: null,
      client_id: b.client,
      currency: 'EUR',
      notes: 'Thanks',
      total: doc.total,
    })
    expect(copy.lines.map((l: any) => [l.description, l.unit_price, l.vat_rate])).toEqual(
      doc.lines.map((l: any) => [l.description, l.unit_price, l.vat_rate]),
    )
    expect((await everything(b.id)).events.length).toBe(events)
    expect((await api(b, 'GET', `/v1/documents/${copy.id}`)).status).toBe('draft')
  })

  test('client_deleted when the Client is gone; nothing written', async () => {
    const b = await biz()
    const doc = await issued(b)
    // No door deletes a Client; one gone (erased outside the service) is the case the refusal names.
    await h.deps.db.writerClient.execute('PRAGMA foreign_keys = OFF')
    await h.deps.db.write((tx) => tx.run(sql`DELETE FROM clients WHERE id = ${b.client}`))
    await h.deps.db.writerClient.execute('PRAGMA foreign_keys = ON')
    expect((await appActions(b, doc.id)).duplicate).toEqual({ open: false, code: 'client_deleted' })
    await refused(b, 'client_deleted', () => duplicateDocument(h.deps, b.who, doc.id))
  })

  test('a Viewer sees every application action closed as role_forbidden', async () => {
    const b = await biz()
    const doc = await issued(b)
    const actions = await appActions(b, doc.id, 'viewer')
    for (const a of Object.values(actions)) expect(a).toEqual({ open: false, code: 'role_forbidden' })
  })
})
