// Sending documents by email over HTTP, through a real SMTP conversation with a local server: what arrives, the
// refusals the contract names (nothing issued), provider failures (502 not_delivered, the Draft's number kept),
// the daily recipient limit of the service's own mail server, and `actions.send` predicting each refusal.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq } from 'drizzle-orm'
import { makeHarness, type Harness, type TestResponse } from '../../../test/harness'
import { clients, documents, outbox } from '../../db/schema'
import { closedPort, startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'
import { smtpMailer } from '../../adapters/smtp'
import { dailyRecipientLimit, recipientsSent, setMailbox } from '../mailbox'
import { GERMAN_BUYER } from '../einvoice/einvoice.testkit'
import { keptMessages } from '../outbox/outbox.testkit'

let smtp: TestSmtpServer
let h: Harness
const tmp = mkdtempSync(join(tmpdir(), 'invoicing-mail-test-'))

beforeAll(async () => {
  smtp = await startTestSmtpServer()
  // The test server is on loopback and offers no STARTTLS: a Business's mailbox reaches it only as the operator allows.
  // Short timeouts: a server not reached is answered at the connection timeout (src/adapters/smtp.ts).
  h = await makeHarness({
    config: { mailRelay: smtp.url, smtpAllowPrivate: true, smtpAllowPlainLogin: true },
    overrides: { mailer: smtpMailer({ connectionMs: 1000, greetingMs: 1000, socketMs: 5000 }) },
  })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
  rmSync(tmp, { recursive: true, force: true })
})
beforeEach(() => {
  // The clock is fixed, so each test opens a fresh rate-limit minute for its keys.
  h.clock.advance(61_000)
  smtp.received.length = 0
  smtp.refuse.clear()
  smtp.behaviour = 'accept'
  smtp.credentials = null
})

interface Setup {
  bizId: number
  key: string
  clientId: number
  docId: number
}

const CLIENT_EMAIL = 'billing@acme.example'
const line = { description: 'Consulting', quantity: '2', unit_price: '50.00', vat_rate: '19.00' }

/** A Business with an address of its own, one Client and one Draft Invoice. */
async function setup(business: Record<string, unknown> = {}, doc: Record<string, unknown> = {}): Promise<Setup> {
  const b = await h.business({ email: 'office@shop.example', name: 'Shop Ltd', ...business })
  const c = await h.request('POST', '/v1/clients', {
    key: b.key,
    body: { name: 'Acme GmbH', email: CLIENT_EMAIL, country: 'DE' },
  })
  expect(c.status).toBe(201)
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: { type: 'invoice', client_id: c.body.id, lines: [line], ...doc },
  })
  expect(d.status).toBe(201)
  return { bizId: b.id, key: b.key, clientId: c.body.id, docId: d.body.id }
}

function send(s: Setup, body?: unknown, id = s.docId): Promise<TestResponse> {
  return h.request('POST', `/v1/documents/${id}/send`, body === undefined ? { key: s.key } : { key: s.key, body })
}

function get(s: Setup, id = s.docId): Promise<TestResponse> {
  return h.request('GET', `/v1/documents/${id}`, { key: s.key })
}

async function events(bizId: number, type: string, docId?: number): Promise<number> {
  const rows = await h.deps.db.read
    .select()
    .from(outbox)
    .where(and(eq(outbox.businessId, bizId), eq(outbox.type, type)))
  return rows.filter((r) => docId === undefined || r.subjectId === docId).length
}

function pdfText(bytes: Uint8Array): string {
  const file = join(tmp, `${crypto.randomUUID()}.pdf`)
  writeFileSync(file, bytes)
  const r = Bun.spawnSync(['/usr/bin/pdftotext', '-layout', file, '-'])
  expect(r.exitCode).toBe(0)
  return r.stdout.toString()
}

function today(): string {
  return h.clock.now().toISOString().slice(0, 10)
}

/** A 422 refusal with its code, nothing issued: the Draft keeps no number (and `actions` predicted it, unless told). */
async function expectRefusedDraft(s: Setup, r: TestResponse, code: string, predicted = true): Promise<any> {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('refusal')
  expect(r.body.error.code).toBe(code)
  expect(r.body.error.document_number).toBeUndefined()
  const doc = (await get(s)).body
  expect(doc.status).toBe('draft')
  expect(doc.document_number).toBeNull()
  expect(doc.last_sent).toBeNull()
  if (predicted) expect(doc.actions.send).toMatchObject({ open: false, code })
  expect(await events(s.bizId, 'document.issued', s.docId)).toBe(0)
  expect(smtp.received).toHaveLength(0)
  return r.body.error
}

describe('a Send that goes out', () => {
  test('a Draft is issued, then emailed to the Client with its PDF; last_sent and document.sent follow', async () => {
    const s = await setup()
    expect((await get(s)).body.actions.send).toEqual({ open: true })
    const r = await send(s)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('issued')
    expect(r.body.document_number).toBe('INV-2026-0001')
    expect(r.body.last_sent).toEqual({ at: h.clock.now().toISOString(), recipients: [CLIENT_EMAIL], via: 'service' })

    expect(smtp.received).toHaveLength(1)
    const got = smtp.received[0]!
    expect(got.envelope).toEqual({ from: 'office@shop.example', to: [CLIENT_EMAIL] })
    expect(got.mail.from?.value[0]).toEqual({ name: 'Shop Ltd', address: 'office@shop.example' })
    expect(got.mail.subject).toBe('Invoice INV-2026-0001 from Shop Ltd')
    expect(got.mail.text).toContain('INV-2026-0001')
    expect(got.mail.text).toContain('119.00 EUR')
    const pdf = got.mail.attachments.find((a) => a.contentType === 'application/pdf')!
    expect(pdf.filename).toBe('INV-2026-0001.pdf')
    const text = pdfText(pdf.content)
    expect(text).toContain('INV-2026-0001')
    expect(text).toContain('Acme GmbH')
    expect(text).toContain('119.00')

    expect(await events(s.bizId, 'document.issued')).toBe(1)
    expect(await events(s.bizId, 'document.sent')).toBe(1)
    expect((await get(s)).body.last_sent).toEqual(r.body.last_sent)
  })

  test("an Invoice that exports carries its EN16931 XML beside the PDF; a Test business's and a Proforma's do not", async () => {
    const b = await h.business({
      name: 'Seller GmbH',
      vatNumber: 'DE123456789',
      address: 'Hauptstrasse 1',
      city: 'Berlin',
      postalCode: '10115',
      email: 'billing@seller.example',
    })
    const c = await h.request('POST', '/v1/clients', {
      key: b.key,
      body: GERMAN_BUYER,
    })
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: { type: 'invoice', client_id: c.body.id, lines: [line] },
    })
    const r = await h.request('POST', `/v1/documents/${d.body.id}/send`, { key: b.key })
    expect(r.status).toBe(200)
    const number = r.body.document_number
    const got = smtp.received[0]!
    expect(got.mail.attachments.map((a) => a.filename)).toEqual([`${number}.pdf`, `${number}.xml`])
    const xml = got.mail.attachments[1]!
    expect(xml.contentType).toBe('application/xml')
    const text = xml.content.toString('utf8')
    expect(text).toMatch(/^<\?xml/)
    expect(text).toMatch(/<Invoice[\s>]/)
    expect(text).toContain(`<cbc:ID>${number}</cbc:ID>`)
    // Well-formed, as xmllint reads it.
    const file = join(tmp, `${number}.xml`)
    writeFileSync(file, text)
    expect(Bun.spawnSync(['xmllint', '--nonet', '--noout', file]).exitCode).toBe(0)
    // The XML download answers the same document.
    expect((await h.request('GET', `/v1/documents/${d.body.id}/xml`, { key: b.key })).text).toBe(text)

    smtp.received.length = 0
    const t = await setup({ isTest: true })
    expect((await send(t)).status).toBe(200)
    // A Test business's email is kept in its outbox (issue 32), as it would have been sent.
    const [kept] = await keptMessages(h.deps.db, t.bizId)
    expect(kept!.mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf'])
    smtp.received.length = 0
    const p = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: { type: 'proforma', client_id: c.body.id, lines: [line] },
    })
    expect((await h.request('POST', `/v1/documents/${p.body.id}/send`, { key: b.key })).status).toBe(200)
    expect(smtp.received[0]!.mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf'])
  })

  test('to, cc, bcc, subject and message are used as sent; Bcc stays out of the headers', async () => {
    const s = await setup()
    const r = await send(s, {
      to: ['anna@acme.example'],
      cc: ['ben@acme.example', 'carla@acme.example'],
      bcc: ['books@shop.example'],
      subject: 'Your invoice for March',
      message: 'Dear Anna,\n\nthe invoice for March is attached.\n\nShop',
    })
    expect(r.status).toBe(200)
    expect(r.body.last_sent.recipients).toEqual([
      'anna@acme.example',
      'ben@acme.example',
      'carla@acme.example',
      'books@shop.example',
    ])
    const got = smtp.received[0]!
    expect(got.envelope.to).toEqual([
      'anna@acme.example',
      'ben@acme.example',
      'carla@acme.example',
      'books@shop.example',
    ])
    expect((got.mail.to as any).value.map((a: any) => a.address)).toEqual(['anna@acme.example'])
    expect((got.mail.cc as any).value.map((a: any) => a.address)).toEqual(['ben@acme.example', 'carla@acme.example'])
    expect(got.mail.headers.has('bcc')).toBe(false)
    expect(got.raw.toString('latin1')).not.toContain('books@shop.example')
    expect(got.mail.subject).toBe('Your invoice for March')
    expect(got.mail.text?.replace(/\r\n/g, '\n').trim()).toBe(
      'Dear Anna,\n\nthe invoice for March is attached.\n\nShop',
    )
  })

  test('an issued document is sent again without a new number; last_sent moves on and document.sent is raised again', async () => {
    const s = await setup()
    const first = await send(s)
    h.clock.advance(3_600_000)
    const again = await send(s, { to: ['other@acme.example'] })
    expect(again.status).toBe(200)
    expect(again.body.document_number).toBe(first.body.document_number)
    expect(again.body.last_sent).toEqual({
      at: h.clock.now().toISOString(),
      recipients: ['other@acme.example'],
      via: 'service',
    })
    expect(await events(s.bizId, 'document.issued')).toBe(1)
    expect(await events(s.bizId, 'document.sent')).toBe(2)
  })

  test("`to` given: the Client's own address is not needed", async () => {
    const s = await setup()
    await h.deps.db.write((tx) => tx.update(clients).set({ email: null }).where(eq(clients.id, s.clientId)))
    const r = await send(s, { to: ['someone@acme.example'] })
    expect(r.status).toBe(200)
    expect(smtp.received[0]!.envelope.to).toEqual(['someone@acme.example'])
  })

  test("through the Business's own SMTP mailbox: its login and From address, via smtp, no daily limit; GET /v1/business shows no password", async () => {
    // Not a Test business: its email would be kept in its outbox, never reaching the mailbox's server.
    const s = await setup()
    smtp.credentials = { user: 'office@shop.example', pass: 's3cret!pw' }
    await setMailbox(
      h.deps.db,
      h.clock,
      s.bizId,
      { smtpUrl: `smtp://office%40shop.example:s3cret!pw@127.0.0.1:${smtp.port}`, from: 'invoices@shop.example' },
      { allowPrivate: true },
    )
    const biz = await h.request('GET', '/v1/business', { key: s.key })
    expect(biz.body.mail_provider).toEqual({ kind: 'smtp', address: 'invoices@shop.example' })
    expect(biz.text).not.toContain('s3cret')

    const many = Array.from({ length: 25 }, (_, i) => `r${i}@acme.example`)
    const r = await send(s, { to: many })
    expect(r.status).toBe(200)
    expect(r.text).not.toContain('s3cret')
    expect(r.body.last_sent.via).toBe('smtp')
    const got = smtp.received[0]!
    expect(got.login).toEqual({ user: 'office@shop.example', pass: 's3cret!pw' })
    expect(got.envelope.from).toBe('invoices@shop.example')
    expect(got.mail.from?.value[0]?.address).toBe('invoices@shop.example')
    // A Business's own mailbox is not held to the service's daily limit: its 25 recipients are not counted.
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(0)
  })
})

describe('refusals: nothing issued, nothing sent', () => {
  test('a cancelled document: cancelled_not_sent', async () => {
    const s = await setup()
    await h.request('POST', `/v1/documents/${s.docId}/issue`, { key: s.key })
    expect((await h.request('POST', `/v1/documents/${s.docId}/cancel`, { key: s.key })).status).toBe(200)
    const r = await send(s)
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('cancelled_not_sent')
    expect((await get(s)).body.actions.send).toEqual({ open: false, code: 'cancelled_not_sent' })
    expect(smtp.received).toHaveLength(0)
  })

  test('a Client with no email and no `to`: no_client_address', async () => {
    const s = await setup()
    await h.deps.db.write((tx) => tx.update(clients).set({ email: null }).where(eq(clients.id, s.clientId)))
    await expectRefusedDraft(s, await send(s), 'no_client_address')
  })

  test('a Business with no address of its own and no mailbox: no_mail_provider, remedy connect_mail_provider', async () => {
    const s = await setup({ email: null })
    const e = await expectRefusedDraft(s, await send(s), 'no_mail_provider')
    expect(e.remedy).toBe('connect_mail_provider')
    expect(e.remedy_url).toBeString()
    expect((await get(s)).body.actions.send).toEqual({
      open: false,
      code: 'no_mail_provider',
      remedy: 'connect_mail_provider',
      remedy_url: e.remedy_url,
    })
  })

  test('no service mail server set up: no_mail_provider even with an address of its own', async () => {
    const bare = await makeHarness()
    try {
      const b = await bare.business({ email: 'office@shop.example' })
      const c = await bare.request('POST', '/v1/clients', {
        key: b.key,
        body: { name: 'Acme', email: CLIENT_EMAIL, country: 'DE' },
      })
      const d = await bare.request('POST', '/v1/documents', {
        key: b.key,
        body: { type: 'invoice', client_id: c.body.id, lines: [line] },
      })
      const r = await bare.request('POST', `/v1/documents/${d.body.id}/send`, { key: b.key })
      expect(r.status).toBe(422)
      expect(r.body.error.code).toBe('no_mail_provider')
      expect((await bare.request('GET', '/v1/business', { key: b.key })).body.mail_provider).toBeNull()
    } finally {
      await bare.close()
    }
  })

  test('a hosted mailbox this edition cannot reach: mail_account_lost, remedy connect_mail_provider', async () => {
    const s = await setup()
    await setMailbox(h.deps.db, h.clock, s.bizId, { kind: 'google', from: 'shop@gmail.example' })
    expect((await h.request('GET', '/v1/business', { key: s.key })).body.mail_provider).toEqual({
      kind: 'google',
      address: 'shop@gmail.example',
    })
    const e = await expectRefusedDraft(s, await send(s), 'mail_account_lost')
    expect(e.remedy).toBe('connect_mail_provider')
    expect(e.remedy_url).toBeString()
  })

  test("a Draft's own issue refusal (a malformed requested number) refuses the Send", async () => {
    const s = await setup({}, { document_number: 'nonsense' })
    await expectRefusedDraft(s, await send(s), 'number_malformed')
  })
})

describe('the mail provider failing: 502 not_delivered', () => {
  test('the server refuses the recipient: the Draft stays issued and the error names its number', async () => {
    const s = await setup()
    smtp.refuse.add(CLIENT_EMAIL)
    const r = await send(s)
    expect(r.status).toBe(502)
    expect(r.body.error.type).toBe('not_delivered')
    expect(r.body.error.document_number).toBe('INV-2026-0001')
    expect(r.body.error.message).toContain('INV-2026-0001')
    const doc = (await get(s)).body
    expect(doc.status).toBe('issued')
    expect(doc.document_number).toBe('INV-2026-0001')
    expect(doc.last_sent).toBeNull()
    expect(await events(s.bizId, 'document.issued')).toBe(1)
    expect(await events(s.bizId, 'document.sent')).toBe(0)
    // Nothing went out, so nothing counts against the day.
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(0)
  })

  test('a document issued before: 502 without document_number', async () => {
    const s = await setup()
    await h.request('POST', `/v1/documents/${s.docId}/issue`, { key: s.key })
    smtp.refuse.add(CLIENT_EMAIL)
    const r = await send(s)
    expect(r.status).toBe(502)
    expect(r.body.error.type).toBe('not_delivered')
    expect(r.body.error.document_number).toBeUndefined()
  })

  test('nothing listening: 502, the Draft issued, nothing counted', async () => {
    const s = await setup()
    await setMailbox(
      h.deps.db,
      h.clock,
      s.bizId,
      { smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, from: 'office@shop.example' },
      { allowPrivate: true },
    )
    const r = await send(s)
    expect(r.status).toBe(502)
    expect(r.body.error.type).toBe('not_delivered')
    expect(r.body.error.document_number).toBe('INV-2026-0001')
    expect((await get(s)).body.status).toBe('issued')
  })

  test('the connection cut once the message is in: 502 saying it may have gone out; the recipients stay counted', async () => {
    const s = await setup()
    smtp.behaviour = 'cut_after_data'
    const r = await send(s)
    expect(r.status).toBe(502)
    expect(r.body.error.type).toBe('not_delivered')
    expect(r.body.error.document_number).toBe('INV-2026-0001')
    expect(r.body.error.message).toMatch(/may have gone out/)
    const doc = (await get(s)).body
    expect(doc.status).toBe('issued')
    expect(doc.last_sent).toBeNull()
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(1)
  })
})

describe('the daily recipient limit of the service mail server', () => {
  test('20, 100 and 200 a day by plan; a Test business has 20 on any plan', () => {
    expect(dailyRecipientLimit({ plan: 'free', isTest: false })).toBe(20)
    expect(dailyRecipientLimit({ plan: 'paused', isTest: false })).toBe(20)
    expect(dailyRecipientLimit({ plan: 'pro', isTest: false })).toBe(100)
    expect(dailyRecipientLimit({ plan: 'pro_plus', isTest: false })).toBe(200)
    expect(dailyRecipientLimit({ plan: 'pro_plus', isTest: true })).toBe(20)
  })

  test('To, Cc and Bcc each count across Sends; the Send over the limit is refused before its Draft is issued; the next UTC day starts again', async () => {
    const s = await setup({ isTest: true, plan: 'pro' })
    const first = await h.request('POST', '/v1/documents', {
      key: s.key,
      body: { type: 'invoice', client_id: s.clientId, lines: [line] },
    })
    const addresses = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}@acme.example`)
    // 1 + 9 + 9 = 19 recipients.
    expect((await send(s, { cc: addresses(9, 'c'), bcc: addresses(9, 'b') }, first.body.id)).status).toBe(200)
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(19)
    // Two more would make 21: refused, and the Draft keeps no number. The default Send (one, to the Client) stays open.
    smtp.received.length = 0
    const over = await send(s, { to: addresses(2, 't') })
    const e = await expectRefusedDraft(s, over, 'sending_limit_reached', false)
    expect((await get(s)).body.actions.send).toEqual({ open: true })
    expect(e.remedy).toBe('connect_mail_provider')
    expect(e.message).toContain('20')
    // One more makes exactly 20: taken.
    expect((await send(s)).status).toBe(200)
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(20)
    const second = await h.request('POST', '/v1/documents', {
      key: s.key,
      body: { type: 'invoice', client_id: s.clientId, lines: [line] },
    })
    expect(second.body.actions.send).toMatchObject({
      open: false,
      code: 'sending_limit_reached',
      remedy: 'connect_mail_provider',
    })
    expect((await send(s, undefined, second.body.id)).body.error.code).toBe('sending_limit_reached')

    // The next UTC day counts from zero.
    const now = h.clock.now()
    h.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 30)))
    expect((await get(s, second.body.id)).body.actions.send).toEqual({ open: true })
    expect((await send(s, undefined, second.body.id)).status).toBe(200)
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(1)
  })

  test('a Pro business sends to 100 a day', async () => {
    const s = await setup({ plan: 'pro' })
    const fifty = (p: string) => Array.from({ length: 50 }, (_, i) => `${p}${i}@acme.example`)
    expect((await send(s, { to: fifty('a') })).status).toBe(200)
    expect((await send(s, { to: fifty('b') })).status).toBe(200)
    const r = await send(s, { to: ['one.more@acme.example'] })
    expect(r.status).toBe(422)
    expect(r.body.error.code).toBe('sending_limit_reached')
  })

  test('a refused email gives its recipients back to the day; one that reached some recipients keeps them', async () => {
    const s = await setup()
    smtp.refuse.add(CLIENT_EMAIL)
    smtp.refuse.add('x@acme.example')
    expect((await send(s, { cc: ['x@acme.example'] })).status).toBe(502)
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(0)
    smtp.refuse.delete('x@acme.example')
    const partial = await send(s, { cc: ['x@acme.example'] })
    expect(partial.status).toBe(502)
    expect(partial.body.error.message).toContain(CLIENT_EMAIL)
    expect(smtp.received[0]!.envelope.to).toEqual(['x@acme.example'])
    expect(await recipientsSent(h.deps.db.read, s.bizId, today())).toBe(2)
  })
})

describe('the request', () => {
  test('invalid addresses are named by list and position; nothing is issued', async () => {
    const s = await setup()
    const r = await send(s, { to: ['not-an-email'], cc: ['ok@acme.example', 'bad@'] })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(Object.keys(r.body.error.errors)).toEqual(expect.arrayContaining(['to.0', 'cc.1']))
    expect((await get(s)).body.status).toBe('draft')
  })

  test('an address SMTP would read as more than one recipient is refused by the same check as a Client email', async () => {
    const s = await setup()
    const r = await send(s, {
      to: ['x<other@evil.example>'],
      cc: ['a@b.c,d:e;'],
      bcc: ['ok@acme.example', 'a@b.example>'],
    })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body.error.errors).sort()).toEqual(['bcc.1', 'cc.0', 'to.0'])
    expect((await get(s)).body.status).toBe('draft')
  })

  test('an unknown field, a long subject or message, an empty `to`, and too many recipients are refused', async () => {
    const s = await setup()
    const cases: Array<[unknown, string]> = [
      [{ recipients: ['a@acme.example'] }, 'recipients'],
      [{ subject: 'x'.repeat(256) }, 'subject'],
      [{ message: 'x'.repeat(10_001) }, 'message'],
      [{ to: [] }, 'to'],
      [{ to: 'a@acme.example' }, 'to'],
      [{ to: Array.from({ length: 51 }, (_, i) => `a${i}@acme.example`) }, 'to'],
      [
        {
          to: Array.from({ length: 30 }, (_, i) => `a${i}@acme.example`),
          bcc: Array.from({ length: 21 }, (_, i) => `b${i}@acme.example`),
        },
        'bcc',
      ],
    ]
    for (const [body, field] of cases) {
      const r = await send(s, body)
      expect(r.status).toBe(422)
      expect(r.body.error.type).toBe('invalid_request')
      expect(Object.keys(r.body.error.errors)).toContain(field)
    }
    expect((await get(s)).body.status).toBe('draft')
    expect(smtp.received).toHaveLength(0)
  })

  test('a subject and message at their limits are taken', async () => {
    const s = await setup()
    const r = await send(s, { subject: 's'.repeat(255), message: 'm'.repeat(10_000) })
    expect(r.status).toBe(200)
    expect(smtp.received[0]!.mail.subject).toBe('s'.repeat(255))
  })

  test('malformed JSON is 400, another content type 415', async () => {
    const s = await setup()
    expect(
      (
        await h.request('POST', `/v1/documents/${s.docId}/send`, {
          key: s.key,
          raw: '{',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400)
    expect(
      (
        await h.request('POST', `/v1/documents/${s.docId}/send`, {
          key: s.key,
          raw: 'to=a',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415)
  })

  test("a Viewer may not send (403) and another Business's document is not found (404)", async () => {
    const s = await setup()
    const viewer = await h.key(s.bizId, 'viewer')
    const v = await h.request('POST', `/v1/documents/${s.docId}/send`, { key: viewer })
    expect(v.status).toBe(403)
    expect(v.body.error.type).toBe('permission')
    const other = await setup()
    expect((await h.request('POST', `/v1/documents/${s.docId}/send`, { key: other.key })).status).toBe(404)
    expect((await h.request('POST', '/v1/documents/999999/send', { key: s.key })).status).toBe(404)
    expect((await get(s)).body.status).toBe('draft')
  })
})

test('the documents table holds last_sent as JSON text', async () => {
  const s = await setup()
  await send(s)
  const row = await h.deps.db.read
    .select({ lastSent: documents.lastSent })
    .from(documents)
    .where(eq(documents.id, s.docId))
    .get()
  expect(JSON.parse(row!.lastSent!)).toMatchObject({ recipients: [CLIENT_EMAIL], via: 'service' })
})
