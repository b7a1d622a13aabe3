// A Test business's outbox (issue 32): with no relay at all, its Send, reminders (by hand and by the background task)
// and Receipt emails are kept in its outbox as the MIME message the SMTP path builds, the document recorded exactly
// as a real send records it; with a relay, nothing of a Test business reaches the SMTP server while a live Business's
// mail does, and its invitations still go out by SMTP; the outbox is read by any Role of its Business only, and bounded.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../../test/harness'
import { AppClient, person } from '../../../test/app-client'
import { outbox as events } from '../../db/schema'
import { startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'
import { outboxTransport, recipientsSent, setMailbox } from '../mailbox'
import { remindDue } from '../reminders'
import { runRecurringInvoices } from '../recurring'
import { keptMessages } from './outbox.testkit'
import { OUTBOX_KEEP } from './outbox.service'

// Real PDFs, real SMTP conversations and a loaded machine.
setDefaultTimeout(60_000)

const CLIENT_EMAIL = 'billing@acme.example'
const line = { description: 'Consulting', quantity: '2', unit_price: '50.00', vat_rate: '19.00' }

let h: Harness
let smtp: TestSmtpServer
let relayed: Harness

beforeAll(async () => {
  // No INVOICING_MAIL_RELAY: this service runs no mail server at all.
  h = await makeHarness({ config: { rateLimit: 1_000_000 } })
  smtp = await startTestSmtpServer()
  relayed = await makeHarness({
    config: {
      mailRelay: smtp.url,
      rateLimit: 1_000_000,
      publicUrl: 'http://localhost:8080',
      smtpAllowPrivate: true,
      smtpAllowPlainLogin: true,
    },
  })
})
afterAll(async () => {
  await h.close()
  await relayed.close()
  await smtp.close()
})

let n = 0
/** A Business (a Test business unless told) with its address, a Client with an email, and an issued Invoice. */
async function setup(on: Harness = h, business: Record<string, unknown> = {}, issue = true) {
  n++
  const b = await on.business({
    name: `Sandbox Shop ${n}`,
    email: `office${n}@sandbox.example`,
    isTest: true,
    ...business,
  })
  const client = await on.client(b.key, { name: 'Acme GmbH', email: CLIENT_EMAIL, payment_terms: 14 })
  const d = await on.request('POST', '/v1/documents', {
    key: b.key,
    body: { type: 'invoice', client_id: client, lines: [line] },
  })
  expect(d.status).toBe(201)
  let doc = d.body
  if (issue) doc = (await on.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })).body
  return { ...b, n, clientId: client, doc, from: `office${n}@sandbox.example` }
}

async function eventsOf(on: Harness, bizId: number, type: string): Promise<number> {
  return (
    await on.deps.db.read
      .select()
      .from(events)
      .where(and(eq(events.businessId, bizId), eq(events.type, type)))
  ).length
}

/** A small email straight to a Business's outbox (no PDF): what the list and the bound are tested with. */
function plain(from: string, i: number) {
  return {
    from: { name: 'Shop', address: from },
    to: [`n${i}@acme.example`],
    cc: [],
    bcc: [],
    subject: `Message ${i}`,
    text: 'Hello',
    attachments: [],
  }
}

async function signedIn(on: Harness, bizId: number, role: 'owner' | 'admin' | 'member' | 'viewer' = 'owner') {
  n++
  const who = await person(on, { email: `${role}${n}@people.example`, businessId: bizId, role })
  const browser = new AppClient(on)
  expect((await browser.signIn(who.email, who.password)).status).toBe(303)
  return browser
}

describe('a Test business with no relay configured', () => {
  test('Send issues the Draft and keeps the email in the outbox: headers, text, the PDF attached; last_sent, document.sent and the day’s count as a real send', async () => {
    const s = await setup(h, {}, false)
    expect(s.doc.actions.send).toEqual({ open: true })
    const r = await h.request('POST', `/v1/documents/${s.doc.id}/send`, {
      key: s.key,
      body: { cc: ['boss@acme.example'], bcc: ['books@sandbox.example'] },
    })
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('issued')
    const number = r.body.document_number
    expect(number).toStartWith('TEST-INV-')
    const recipients = [CLIENT_EMAIL, 'boss@acme.example', 'books@sandbox.example']
    expect(r.body.last_sent).toEqual({ at: h.clock.now().toISOString(), recipients, via: 'service' })
    expect(await eventsOf(h, s.id, 'document.sent')).toBe(1)
    expect(await eventsOf(h, s.id, 'document.issued')).toBe(1)
    // The outbox stands in for the service's mail server: its 20 a day count (the contract's Limits).
    expect(await recipientsSent(h.deps.db.read, s.id, h.clock.now().toISOString().slice(0, 10))).toBe(3)

    const kept = await keptMessages(h.deps.db, s.id)
    expect(kept).toHaveLength(1)
    const m = kept[0]!
    expect(m.mail.from?.value[0]).toEqual({ name: `Sandbox Shop ${s.n}`, address: s.from })
    expect((m.mail.to as any).value.map((a: any) => a.address)).toEqual([CLIENT_EMAIL])
    expect((m.mail.cc as any).value.map((a: any) => a.address)).toEqual(['boss@acme.example'])
    // Bcc is the envelope's, kept beside the message, never in its headers.
    expect(m.mail.headers.has('bcc')).toBe(false)
    expect(m.raw.toString('latin1')).not.toContain('books@sandbox.example')
    expect(JSON.parse(m.bccAddresses)).toEqual(['books@sandbox.example'])
    expect(m.mail.subject).toBe(`Invoice ${number} from Sandbox Shop ${s.n}`)
    expect(m.mail.date?.toISOString()).toBe(h.clock.now().toISOString())
    expect(m.mail.messageId).toMatch(/^<.+@.+>$/)
    expect(m.mail.text).toContain(number)
    // A Test business exports no e-invoice: the PDF alone, a real one.
    expect(m.mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`${number}.pdf`, 'application/pdf']])
    expect(m.mail.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-')
    expect(m.keptAt).toBe(h.clock.now().toISOString())
  })

  test('a reminder by hand is kept in the outbox with the PDF; last_reminded, reminders_sent and document.reminded as a real one', async () => {
    const s = await setup()
    h.clock.advance(60_000)
    const r = await h.request('POST', `/v1/documents/${s.doc.id}/remind`, { key: s.key })
    expect(r.status).toBe(200)
    expect(r.body.last_reminded).toEqual({
      at: h.clock.now().toISOString(),
      step_days: null,
      recipients: [CLIENT_EMAIL],
    })
    expect(r.body.reminders_sent).toBe(1)
    expect(await eventsOf(h, s.id, 'document.reminded')).toBe(1)
    const [m] = await keptMessages(h.deps.db, s.id)
    expect(m!.mail.subject).toContain(s.doc.document_number)
    expect(m!.mail.attachments.map((a) => a.filename)).toEqual([`${s.doc.document_number}.pdf`])
    expect(JSON.parse(m!.toAddresses)).toEqual([CLIENT_EMAIL])
  })

  test('the background task’s reminder step is kept in the outbox and recorded with its days', async () => {
    h.clock.set('2026-03-10T09:00:00.000Z')
    const s = await setup()
    expect(s.doc.due_date).toBe('2026-03-24')
    const put = await h.request('PUT', '/v1/reminder-settings', {
      key: s.key,
      body: { enabled: true, steps: [{ days: 7 }] },
    })
    expect(put.status).toBe(200)
    h.clock.set('2026-03-31T10:00:00.000Z')
    expect((await remindDue(h.deps)).sent).toBeGreaterThanOrEqual(1)
    const doc = (await h.request('GET', `/v1/documents/${s.doc.id}`, { key: s.key })).body
    expect(doc.last_reminded).toEqual({ at: '2026-03-31T10:00:00.000Z', step_days: 7, recipients: [CLIENT_EMAIL] })
    const kept = await keptMessages(h.deps.db, s.id)
    expect(kept).toHaveLength(1)
    expect(kept[0]!.mail.attachments[0]!.contentType).toBe('application/pdf')
    expect(kept[0]!.mail.text).toContain(s.doc.document_number)
    await h.request('PUT', '/v1/reminder-settings', { key: s.key, body: { enabled: false } })
  })

  test('“Email the Receipt” is open on the document page, says the outbox, and keeps the Receipt’s PDF there', async () => {
    const s = await setup()
    const p = await h.request('POST', `/v1/documents/${s.doc.id}/payments`, {
      key: s.key,
      body: { amount: s.doc.total, payment_date: '2026-01-15', payment_method: 'cash' },
    })
    expect(p.status).toBe(201)
    const browser = await signedIn(h, s.id, 'member')
    const base = `/app/b/${s.publicId}`
    const page = await browser.get(`${base}/documents/${s.doc.id}`)
    expect(page.text).not.toMatch(/disabled[^>]*>\s*Email the Receipt/)
    expect(page.text).toContain('is kept in its')
    expect(page.text).toContain(`href="${base}/outbox"`)
    const done = await browser.submit(
      `${base}/documents/${s.doc.id}`,
      {},
      `${base}/payments/${p.body.id}/email-receipt`,
    )
    expect(done.status).toBe(303)
    expect(done.location).toContain('done=receipt_emailed')
    const [m] = await keptMessages(h.deps.db, s.id)
    expect(m!.mail.subject).toContain(p.body.receipt.receipt_number)
    expect(m!.mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`${p.body.receipt.receipt_number}.pdf`, 'application/pdf'],
    ])
  })

  test('a recurring invoice with action send issues its Invoice and keeps its email in the outbox', async () => {
    h.clock.set('2026-03-10T09:00:00.000Z')
    const s = await setup(h, {}, false)
    const r = await h.request('POST', '/v1/recurring-invoices', {
      key: s.key,
      body: { client_id: s.clientId, lines: [line], frequency: 'month', start_date: '2026-03-10', action: 'send' },
    })
    expect(r.status).toBe(201)
    await runRecurringInvoices(h.deps)
    const after = (await h.request('GET', `/v1/recurring-invoices/${r.body.id}`, { key: s.key })).body
    expect(after.last_run.error).toBeNull()
    const made = (await h.request('GET', `/v1/documents/${after.last_run.document_id}`, { key: s.key })).body
    expect(made.status).toBe('issued')
    expect(made.last_sent).toMatchObject({ recipients: [CLIENT_EMAIL], via: 'service' })
    const kept = await keptMessages(h.deps.db, s.id)
    expect(kept.map((m) => m.mail.attachments[0]?.filename)).toEqual([`${made.document_number}.pdf`])
  })

  test('the pages that email a Client say a Test business’s mail goes to the Outbox and link it; a live Business’s pages do not', async () => {
    const t = await setup()
    const live = await setup(h, { isTest: false })
    for (const [b, shown] of [
      [t, true],
      [live, false],
    ] as const) {
      const browser = await signedIn(h, b.id, 'owner')
      const base = `/app/b/${b.publicId}`
      for (const path of [
        `/documents/${b.doc.id}`,
        `/documents/${b.doc.id}/send`,
        '/receipts',
        '/settings/reminders',
        '/settings/mailbox',
      ]) {
        const page = await browser.get(base + path)
        expect(page.status).toBe(200)
        expect(page.text.includes(`class="notice warn outbox-note"`)).toBe(shown)
        expect(page.text.includes(`href="${base}/outbox"`)).toBe(shown)
      }
    }
  })

  test('a Business that is not a Test business still has no way to send, and has no outbox', async () => {
    const s = await setup(h, { isTest: false })
    const r = await h.request('POST', `/v1/documents/${s.doc.id}/send`, { key: s.key })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('no_mail_provider')
    expect(await keptMessages(h.deps.db, s.id)).toHaveLength(0)
    const browser = await signedIn(h, s.id)
    expect((await browser.get(`/app/b/${s.publicId}/outbox`)).status).toBe(404)
    expect((await browser.get(`/app/b/${s.publicId}`)).text).not.toContain('>Outbox<')
  })

  test('a Test business without an address of its own is still no_mail_provider: an email needs a From', async () => {
    const s = await setup(h, { email: null })
    const r = await h.request('POST', `/v1/documents/${s.doc.id}/send`, { key: s.key })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('no_mail_provider')
    expect(r.body.error.message).not.toContain('INVOICING_MAIL_RELAY')
  })
})

describe('with a relay: nothing of a Test business reaches the SMTP server', () => {
  test('a Test business’s Send, reminder and Receipt are kept, a live Business’s Send reaches the relay', async () => {
    const t = await setup(relayed)
    const live = await setup(relayed, { isTest: false })
    const before = { received: smtp.received.length, connections: smtp.connections }
    expect((await relayed.request('POST', `/v1/documents/${t.doc.id}/send`, { key: t.key })).status).toBe(200)
    expect((await relayed.request('POST', `/v1/documents/${t.doc.id}/remind`, { key: t.key })).status).toBe(200)
    const p = await relayed.request('POST', `/v1/documents/${t.doc.id}/payments`, {
      key: t.key,
      body: { amount: '1.00', payment_date: '2026-01-15', payment_method: 'cash' },
    })
    const browser = await signedIn(relayed, t.id, 'member')
    const base = `/app/b/${t.publicId}`
    const receipt = await browser.submit(`${base}/receipts`, {}, `${base}/payments/${p.body.id}/email-receipt`)
    expect(receipt.status).toBe(303)
    expect(smtp.received.length).toBe(before.received)
    expect(smtp.connections).toBe(before.connections)
    expect(await keptMessages(relayed.deps.db, t.id)).toHaveLength(3)

    expect((await relayed.request('POST', `/v1/documents/${live.doc.id}/send`, { key: live.key })).status).toBe(200)
    expect(smtp.received.length).toBe(before.received + 1)
    expect(smtp.received.at(-1)!.envelope).toEqual({ from: live.from, to: [CLIENT_EMAIL] })
    expect(await keptMessages(relayed.deps.db, live.id)).toHaveLength(0)
  })

  test('a Test business with its own SMTP mailbox: kept with the mailbox’s From, via smtp, not counted, its server never reached', async () => {
    const t = await setup(relayed)
    smtp.credentials = { user: 'office@sandbox.example', pass: 'mailbox-pw' }
    try {
      await setMailbox(
        relayed.deps.db,
        relayed.clock,
        t.id,
        {
          smtpUrl: `smtp://office%40sandbox.example:mailbox-pw@127.0.0.1:${smtp.port}`,
          from: 'invoices@sandbox.example',
        },
        { allowPrivate: true },
      )
      const connections = smtp.connections
      const r = await relayed.request('POST', `/v1/documents/${t.doc.id}/send`, { key: t.key })
      expect(r.status).toBe(200)
      expect(r.body.last_sent.via).toBe('smtp')
      expect(smtp.connections).toBe(connections)
      const [m] = await keptMessages(relayed.deps.db, t.id)
      expect(m!.mail.from?.value[0]?.address).toBe('invoices@sandbox.example')
      expect(m!.raw.toString('latin1')).not.toContain('mailbox-pw')
      expect(await recipientsSent(relayed.deps.db.read, t.id, relayed.clock.now().toISOString().slice(0, 10))).toBe(0)
    } finally {
      smtp.credentials = null
    }
  })

  test('an invitation of a Test business goes out through SMTP with its sign-in link, and is never kept in the outbox', async () => {
    const t = await setup(relayed)
    const admin = await signedIn(relayed, t.id, 'admin')
    const before = smtp.received.length
    const email = `tester${t.n}@people.example`
    const r = await admin.submit(`/app/b/${t.publicId}/settings/members`, { email, name: '', role: 'member' })
    expect(r.status).toBe(303)
    const sent = smtp.received.slice(before).filter((m) => m.envelope.to.includes(email))
    expect(sent).toHaveLength(1)
    expect(sent[0]!.mail.text).toMatch(/\/app\/sign-in\/link\/[A-Za-z0-9_-]+/)
    expect(await keptMessages(relayed.deps.db, t.id)).toHaveLength(0)
  })
})

describe('reading the outbox', () => {
  test('any Role of the Business reads the list (newest first, paged) and a message; another Business’s message is 404', async () => {
    const a = await setup()
    const other = await setup()
    for (let i = 0; i < 3; i++) {
      h.clock.advance(60_000)
      expect((await h.request('POST', `/v1/documents/${a.doc.id}/remind`, { key: a.key })).status).toBe(200)
    }
    expect((await h.request('POST', `/v1/documents/${other.doc.id}/remind`, { key: other.key })).status).toBe(200)
    const mine = await keptMessages(h.deps.db, a.id)
    const theirs = (await keptMessages(h.deps.db, other.id))[0]!
    const viewer = await signedIn(h, a.id, 'viewer')
    const base = `/app/b/${a.publicId}`

    const list = await viewer.get(`${base}/outbox`)
    expect(list.status).toBe(200)
    const ids = [...list.text.matchAll(/data-message="(\d+)"/g)].map((x) => Number(x[1]))
    expect(ids).toEqual(mine.map((m) => m.id).reverse())
    expect(list.text).toContain(`newest ${OUTBOX_KEEP}`)

    const msg = await viewer.get(`${base}/outbox/${mine[0]!.id}`)
    expect(msg.status).toBe(200)
    expect(msg.text).toContain(CLIENT_EMAIL)
    expect(msg.text).toContain(`${a.doc.document_number}.pdf`)
    const pdf = await viewer.get(`${base}/outbox/${mine[0]!.id}/attachments/0`)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.text.slice(0, 5)).toBe('%PDF-')
    const eml = await viewer.get(`${base}/outbox/${mine[0]!.id}/raw`)
    expect(eml.headers.get('content-type')).toBe('message/rfc822')
    expect(eml.text).toBe(mine[0]!.raw.toString('utf8'))

    // Another Business's message, through this Business's pages: 404, the same as one that does not exist.
    for (const path of [`/outbox/${theirs.id}`, `/outbox/${theirs.id}/attachments/0`, `/outbox/${theirs.id}/raw`]) {
      expect((await viewer.get(base + path)).status).toBe(404)
    }
    expect((await viewer.get(`${base}/outbox/999999999`)).status).toBe(404)
    expect((await viewer.get(`${base}/outbox/${mine[0]!.id}/attachments/7`)).status).toBe(404)
    // And the other Business's own pages are not this person's.
    expect((await viewer.get(`/app/b/${other.publicId}/outbox/${theirs.id}`)).status).toBe(403)
  })

  test('the list pages with the platform’s signed cursors, newest first, each message once; an edited cursor shows the first page', async () => {
    const s = await setup()
    for (let i = 0; i < 27; i++) await h.deps.mailer.send(outboxTransport(s.id), plain(s.from, i))
    const browser = await signedIn(h, s.id, 'member')
    const seen: number[] = []
    let path: string | null = `/app/b/${s.publicId}/outbox`
    let pages = 0
    while (path) {
      const page = await browser.get(path)
      expect(page.status).toBe(200)
      pages++
      seen.push(...[...page.text.matchAll(/data-message="(\d+)"/g)].map((x) => Number(x[1])))
      path = /<a href="([^"]+)" rel="next">/.exec(page.text)?.[1]?.replaceAll('&amp;', '&') ?? null
    }
    expect(pages).toBe(2)
    expect(seen).toEqual((await keptMessages(h.deps.db, s.id)).map((m) => m.id).reverse())
    const edited = await browser.get(`/app/b/${s.publicId}/outbox?cursor=not-ours`)
    expect(edited.status).toBe(200)
    expect([...edited.text.matchAll(/data-message="(\d+)"/g)].map((x) => Number(x[1]))[0]).toBe(seen[0])
  })

  test(`only the newest ${OUTBOX_KEEP} messages of a Business are kept; another Business’s are untouched`, async () => {
    const s = await setup()
    const other = await setup()
    expect((await h.request('POST', `/v1/documents/${other.doc.id}/remind`, { key: other.key })).status).toBe(200)
    for (let i = 0; i < OUTBOX_KEEP + 2; i++) await h.deps.mailer.send(outboxTransport(s.id), plain(s.from, i))
    const kept = await keptMessages(h.deps.db, s.id)
    expect(kept).toHaveLength(OUTBOX_KEEP)
    expect(kept[0]!.subject).toBe('Message 2')
    expect(kept.at(-1)!.subject).toBe(`Message ${OUTBOX_KEEP + 1}`)
    expect(await keptMessages(h.deps.db, other.id)).toHaveLength(1)
  })
})
