// A reminder by hand (extensions §14) through the API and the MCP server, sent to a real SMTP server: the document
// answers last_reminded and reminders_sent, document.reminded is raised, `actions.remind` predicts it, and each
// refusal (§9's codes, 502 not_delivered) writes nothing and sends nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { makeHarness, serveHarness, type Harness } from '../../../test/harness'
import { connectMcp } from '../../../test/mcp-client'
import { documents, outbox } from '../../db/schema'
import { startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'

let smtp: TestSmtpServer
let h: Harness
let served: ReturnType<typeof serveHarness>

beforeAll(async () => {
  smtp = await startTestSmtpServer()
  h = await makeHarness({ config: { mailRelay: smtp.url, rateLimit: 1_000_000 } })
  served = serveHarness(h)
})
afterAll(async () => {
  served.stop()
  await h.close()
  await smtp.close()
})
beforeEach(() => {
  smtp.received.length = 0
  smtp.refuse.clear()
  smtp.behaviour = 'accept'
})

const CLIENT_EMAIL = 'billing@acme.example'
const line = { description: 'Consulting', quantity: '2', unit_price: '50.00', vat_rate: '19.00' }

async function setup(business: Record<string, unknown> = {}, doc: Record<string, unknown> = {}, issue = true) {
  const b = await h.business({ email: 'office@shop.example', name: 'Shop Ltd', ...business })
  const client = await h.client(b.key, { name: 'Acme GmbH', email: CLIENT_EMAIL })
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: { type: 'invoice', client_id: client, lines: [line], ...doc },
  })
  expect(d.status).toBe(201)
  if (issue) expect((await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })).status).toBe(200)
  return { bizId: b.id, key: b.key, docId: d.body.id as number }
}

const remind = (s: { key: string; docId: number }, body?: unknown, key = s.key) =>
  h.request('POST', `/v1/documents/${s.docId}/remind`, body === undefined ? { key } : { key, body })

async function reminded(bizId: number, docId: number): Promise<number> {
  const rows = await h.deps.db.read
    .select()
    .from(outbox)
    .where(and(eq(outbox.businessId, bizId), eq(outbox.type, 'document.reminded')))
  return rows.filter((r) => r.subjectId === docId).length
}

const rowOf = async (id: number) => (await h.deps.db.read.select().from(documents).where(eq(documents.id, id)))[0]!

describe('POST /v1/documents/{id}/remind', () => {
  test('an issued, unpaid Invoice is reminded: the Client gets the PDF, the document answers last_reminded and reminders_sent, document.reminded is raised', async () => {
    const s = await setup()
    const before = await h.request('GET', `/v1/documents/${s.docId}`, { key: s.key })
    expect(before.body.actions.remind).toEqual({ open: true })
    expect(before.body.last_reminded).toBeNull()
    expect(before.body.reminders_sent).toBe(0)
    const r = await remind(s)
    expect(r.status).toBe(200)
    expect(r.body.last_reminded).toEqual({
      at: h.clock.now().toISOString(),
      step_days: null,
      recipients: [CLIENT_EMAIL],
    })
    expect(r.body.reminders_sent).toBe(1)
    expect(smtp.received.length).toBe(1)
    expect(smtp.received[0]!.envelope.to).toEqual([CLIENT_EMAIL])
    expect(smtp.received[0]!.mail.subject).toContain('Reminder: Invoice')
    expect(smtp.received[0]!.mail.attachments.map((a) => a.contentType)).toEqual(['application/pdf'])
    expect(await reminded(s.bizId, s.docId)).toBe(1)
    expect((await remind(s)).body.reminders_sent).toBe(2)
    expect(await reminded(s.bizId, s.docId)).toBe(2)
  })

  test('to, cc, bcc, subject and message are the ones given; last_reminded names the To and Cc recipients', async () => {
    const s = await setup()
    const r = await remind(s, {
      to: ['ap@acme.example'],
      cc: ['boss@acme.example'],
      bcc: ['file@shop.example'],
      subject: 'Please pay',
      message: 'Gentle nudge.',
    })
    expect(r.status).toBe(200)
    const m = smtp.received[0]!
    expect([...m.envelope.to].sort()).toEqual(['ap@acme.example', 'boss@acme.example', 'file@shop.example'])
    expect(m.mail.subject).toBe('Please pay')
    expect(m.mail.text).toContain('Gentle nudge.')
    expect(r.body.last_reminded.recipients).toEqual(['ap@acme.example', 'boss@acme.example'])
  })

  test('a Draft, a paid document and a Quote are refused not_remindable; nothing is sent or written', async () => {
    const draft = await setup({}, {}, false)
    const paid = await setup()
    expect(
      (
        await h.request('POST', `/v1/documents/${paid.docId}/payments`, {
          key: paid.key,
          body: { amount: '119.00', payment_date: '2026-03-10', payment_method: 'cash' },
        })
      ).status,
    ).toBe(201)
    const quote = await setup({}, { type: 'quote' })
    for (const s of [draft, paid, quote]) {
      const row = await rowOf(s.docId)
      const r = await remind(s)
      expect({ status: r.status, code: r.body.error.code }).toEqual({ status: 422, code: 'not_remindable' })
      expect((await h.request('GET', `/v1/documents/${s.docId}`, { key: s.key })).body.actions.remind).toMatchObject({
        open: false,
        code: 'not_remindable',
      })
      expect(await rowOf(s.docId)).toEqual(row)
      expect(await reminded(s.bizId, s.docId)).toBe(0)
    }
    expect(smtp.received.length).toBe(0)
  })

  test('a converted Proforma is refused converted_proforma; a Business with no way to send no_mail_provider_to_remind', async () => {
    const proforma = await setup({}, { type: 'proforma' })
    expect((await h.request('POST', `/v1/documents/${proforma.docId}/convert`, { key: proforma.key })).status).toBe(201)
    expect((await remind(proforma)).body.error.code).toBe('converted_proforma')
    const silent = await setup({ email: null })
    const r = await remind(silent)
    expect({ status: r.status, code: r.body.error.code, remedy: r.body.error.remedy }).toEqual({
      status: 422,
      code: 'no_mail_provider_to_remind',
      remedy: 'connect_mail_provider',
    })
    expect(smtp.received.length).toBe(0)
  })

  test('a mail server that refuses the recipient answers 502 not_delivered and the document is not counted reminded', async () => {
    const s = await setup()
    smtp.refuse.add(CLIENT_EMAIL)
    const r = await remind(s)
    expect({ status: r.status, type: r.body.error.type }).toEqual({ status: 502, type: 'not_delivered' })
    const doc = await h.request('GET', `/v1/documents/${s.docId}`, { key: s.key })
    expect({ last: doc.body.last_reminded, count: doc.body.reminders_sent }).toEqual({ last: null, count: 0 })
    expect(await reminded(s.bizId, s.docId)).toBe(0)
  })

  test('a Viewer key is refused 403 and its actions say role_forbidden; a Member key reminds', async () => {
    const s = await setup()
    const viewer = await h.key(s.bizId, 'viewer')
    expect((await remind(s, undefined, viewer)).status).toBe(403)
    expect((await h.request('GET', `/v1/documents/${s.docId}`, { key: viewer })).body.actions.remind).toEqual({
      open: false,
      code: 'role_forbidden',
    })
    expect((await remind(s, undefined, await h.key(s.bizId, 'member'))).status).toBe(200)
  })

  test('the OpenAPI document lists the operation with its refusal codes and 502', async () => {
    const doc = (await h.request('GET', '/openapi.json')).body
    const op = doc.paths['/v1/documents/{id}/remind'].post
    expect(op.operationId).toBe('documents_remind')
    for (const code of ['no_mail_provider_to_remind', 'not_remindable', 'converted_proforma'])
      expect(op['x-refusal-codes']).toContain(code)
    expect(Object.keys(op.responses)).toContain('502')
  })
})

describe('documents_remind over MCP', () => {
  test('the tool reminds the Client through the real mail server and answers the document; a refusal is isError with its code', async () => {
    const s = await setup()
    const client = await connectMcp(served.base, s.key)
    try {
      const r = (await client.callTool({ name: 'documents_remind', arguments: { id: s.docId } })) as any
      expect(r.isError ?? false).toBe(false)
      expect(r.structuredContent.reminders_sent).toBe(1)
      expect(r.structuredContent.last_reminded.recipients).toEqual([CLIENT_EMAIL])
      expect(smtp.received.length).toBe(1)
      const clientId = (await h.request('GET', `/v1/documents/${s.docId}`, { key: s.key })).body.client_id
      const draft = await h.request('POST', '/v1/documents', {
        key: s.key,
        body: { type: 'invoice', client_id: clientId, lines: [line] },
      })
      const refused = (await client.callTool({ name: 'documents_remind', arguments: { id: draft.body.id } })) as any
      expect(refused.isError).toBe(true)
      expect(JSON.stringify(refused.content)).toContain('not_remindable')
    } finally {
      await client.close()
    }
  })
})
