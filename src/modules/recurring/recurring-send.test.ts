// Recurring invoices with `action: send` over a real SMTP server (extensions §13): each date's Invoice is issued and
// emailed to the Client once, PDF attached, with the events of the steps; a refused email is kept in last_run.error
// and the schedule goes on; a step left after the issue is finished by sending, never by a second Draft or email.
import { beforeEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import type { TestSmtpServer } from '../../adapters/smtp-test-server'
import { businesses, documents, outbox, recurringInvoices } from '../../db/schema'
import { countRecipients } from '../mailbox'
import type { Harness } from '../../../test/harness'
import { mailHarnessForFile } from '../../../test/mail-harness'
import { losingTheRecord } from '../../../test/lost-record'
import { runRecurringInvoices } from '.'

let smtp: TestSmtpServer
let h: Harness
mailHarnessForFile((made, server) => ((h = made), (smtp = server)), { config: { rateLimit: 1_000_000 } })
beforeEach(() => {
  smtp.refuse.clear()
})

const DAY = 86_400_000
let made = 0

/** A schedule of its own Business and Client: each test's emails are told apart by the Client's address. */
async function schedule(): Promise<{ bizId: number; key: string; id: number; email: string }> {
  const email = `ap-${++made}@retainer.example`
  const b = await h.business({ email: 'office@studio.example', name: 'Studio Ltd' })
  const client = await h.client(b.key, { name: 'Retainer Ltd', email })
  const r = await h.request('POST', '/v1/recurring-invoices', {
    key: b.key,
    body: {
      client_id: client,
      frequency: 'month',
      start_date: h.clock.now().toISOString().slice(0, 10),
      action: 'send',
      lines: [{ description: 'Retainer {{month}}', quantity: '1', unit_price: '500.00', vat_rate: '19' }],
    },
  })
  expect(r.status).toBe(201)
  return { bizId: b.id, key: b.key, id: r.body.id, email }
}

const today = () => h.clock.now().toISOString().slice(0, 10)
const docsOf = (id: number) =>
  h.deps.db.read.select().from(documents).where(eq(documents.recurringInvoiceId, id)).orderBy(documents.id).all()

describe('action send', () => {
  test('the date makes one Invoice, issued and emailed once to the Client with its PDF; document.issued and document.sent are raised', async () => {
    const s = await schedule()
    await runRecurringInvoices(h.deps)
    await runRecurringInvoices(h.deps)
    const [doc, ...more] = await docsOf(s.id)
    expect(more).toEqual([])
    expect(doc!.status).toBe('issued')
    expect(smtp.received.length).toBe(1)
    const mail = smtp.received[0]!
    expect(mail.envelope.to).toEqual([s.email])
    expect(mail.mail.attachments.some((a) => a.contentType === 'application/pdf')).toBe(true)
    const view = (await h.request('GET', `/v1/documents/${doc!.id}`, { key: s.key })).body
    expect(view.last_sent.recipients).toEqual([s.email])
    const events = await h.deps.db.read
      .select({ type: outbox.type })
      .from(outbox)
      .where(and(eq(outbox.businessId, s.bizId), eq(outbox.subjectId, doc!.id)))
      .all()
    expect(events.map((e) => e.type).sort()).toEqual(['document.issued', 'document.sent'])
    expect((await h.request('GET', `/v1/recurring-invoices/${s.id}`, { key: s.key })).body.last_run.error).toBeNull()
  }, 30_000)

  test('a refused email keeps the issued Invoice, says not_delivered in last_run.error, and the next date is made and sent', async () => {
    const s = await schedule()
    smtp.refuse.add(s.email)
    await runRecurringInvoices(h.deps)
    const after = (await h.request('GET', `/v1/recurring-invoices/${s.id}`, { key: s.key })).body
    expect(after.last_run.error).toMatchObject({ type: 'not_delivered', code: 'not_delivered' })
    expect(after.status).toBe('active')
    expect((await docsOf(s.id)).map((d) => d.status)).toEqual(['issued'])
    smtp.refuse.clear()
    h.clock.advance(31 * DAY)
    await runRecurringInvoices(h.deps)
    const docs = await docsOf(s.id)
    expect(docs.length).toBe(2)
    // Other tests' schedules send on this date too: this schedule's emails are those to its Client.
    const mine = smtp.received.filter((m) => m.envelope.to.includes(s.email))
    expect(mine.map((m) => m.mail.subject?.includes(docs[1]!.documentNumber!))).toEqual([true])
    expect(docs[0]!.lastSent).toBeNull()
    expect(docs[1]!.lastSent).not.toBeNull()
  }, 30_000)

  test("on the Free plan the relay's 20 recipients a day bind: past them the Invoice stays issued and unsent, last_run.error is sending_limit_reached, and the next date is made and sent", async () => {
    const s = await schedule()
    await h.deps.db.write((tx) => tx.update(businesses).set({ plan: 'free' }).where(eq(businesses.id, s.bizId)))
    await h.deps.db.write((tx) => countRecipients(tx, s.bizId, today(), 20))
    await runRecurringInvoices(h.deps)
    const after = (await h.deps.db.read.select().from(recurringInvoices).where(eq(recurringInvoices.id, s.id)).get())!
    expect({ status: after.status, pending: after.pendingDocumentId }).toEqual({ status: 'active', pending: null })
    expect(JSON.parse(after.lastRun!).error).toMatchObject({ type: 'refusal', code: 'sending_limit_reached' })
    expect((await docsOf(s.id)).map((d) => [d.status, d.lastSent])).toEqual([['issued', null]])
    expect(smtp.received.filter((m) => m.envelope.to.includes(s.email))).toEqual([])
    h.clock.advance(31 * DAY)
    await runRecurringInvoices(h.deps)
    const docs = await docsOf(s.id)
    expect(docs.map((d) => d.lastSent !== null)).toEqual([false, true])
    expect(smtp.received.filter((m) => m.envelope.to.includes(s.email)).length).toBe(1)
  }, 30_000)

  test('an email out whose record was lost is counted: the step is given back, sent once more and recorded, and lost twice it is never handed over a third time', async () => {
    const losingRecords = () => losingTheRecord(h.deps, () => smtp.received.length)
    const mine = (email: string) => smtp.received.filter((m) => m.envelope.to.includes(email)).length
    const rowOf = async (id: number) =>
      (await h.deps.db.read.select().from(recurringInvoices).where(eq(recurringInvoices.id, id)).get())!

    // Other tests' schedules whose dates have come are made first: the record lost is this test's.
    await runRecurringInvoices(h.deps)
    const once = await schedule()
    await runRecurringInvoices(losingRecords())
    expect({ emails: mine(once.email), pending: (await rowOf(once.id)).pendingStep }).toEqual({
      emails: 1,
      pending: 'send',
    })
    await runRecurringInvoices(h.deps)
    expect(mine(once.email)).toBe(2)
    expect((await docsOf(once.id)).map((d) => d.lastSent !== null)).toEqual([true])
    expect(await rowOf(once.id)).toMatchObject({ pendingDocumentId: null, pendingClaim: null })
    expect(JSON.parse((await rowOf(once.id)).lastRun!).error).toBeNull()

    const twice = await schedule()
    await runRecurringInvoices(losingRecords())
    await runRecurringInvoices(losingRecords())
    await runRecurringInvoices(h.deps)
    await runRecurringInvoices(h.deps)
    expect(mine(twice.email)).toBe(2)
    const row = await rowOf(twice.id)
    expect({ pending: row.pendingDocumentId, status: row.status }).toEqual({ pending: null, status: 'active' })
    expect(JSON.parse(row.lastRun!).error).toMatchObject({ type: 'not_delivered', code: 'not_delivered' })
    expect((await docsOf(twice.id)).map((d) => [d.status, d.lastSent])).toEqual([['issued', null]])
  }, 30_000)

  test('a send left by a process that died after the issue is finished by sending the same Invoice, once', async () => {
    const s = await schedule()
    smtp.refuse.add(s.email)
    await runRecurringInvoices(h.deps)
    smtp.refuse.clear()
    const [doc] = await docsOf(s.id)
    // As a kill -9 after the issue committed and before the email left: the send step claimed by a dead process.
    await h.deps.db.write((tx) =>
      tx
        .update(recurringInvoices)
        .set({
          pendingDocumentId: doc!.id,
          pendingStep: 'send',
          pendingClaim: JSON.stringify({ token: 'x', at: 0, holder: { machine: 'gone', pid: 1, start: '' } }),
        })
        .where(eq(recurringInvoices.id, s.id)),
    )
    await runRecurringInvoices(h.deps)
    await runRecurringInvoices(h.deps)
    expect((await docsOf(s.id)).length).toBe(1)
    expect(smtp.received.filter((m) => m.envelope.to.includes(s.email)).length).toBe(1)
  }, 30_000)
})
