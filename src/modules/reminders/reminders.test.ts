// Payment reminders (extensions §14) through the API and MCP, and the background task with an injected clock over a
// real SMTP server: each step once per document, only the latest after a stop, placeholders filled, the PDF attached,
// refusals kept visible while the schedule goes on, a dead process's claim taken over once, and an idle run that
// writes nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { receiver, verify } from '../webhooks/webhooks.testkit'
import { makeHarness, serveHarness, type Harness } from '../../../test/harness'
import { connectMcp } from '../../../test/mcp-client'
import { losingTheRecord } from '../../../test/lost-record'
import { AppClient, person } from '../../../test/app-client'
import { businesses, reminderSettings, reminderSteps } from '../../db/schema'
import { closedPort, startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'
import { clearMailbox, countRecipients, recipientsSent, setMailbox } from '../mailbox'
import { deliverDue, dispatchOutbox } from '../webhooks'
import { deliveryContext } from '../../jobs/webhooks'
import { runOperation } from '../../platform/operation'
import { applicationTable } from '../../operations'
import { remindDue } from './remind-due'

let smtp: TestSmtpServer
let h: Harness
let served: ReturnType<typeof serveHarness>

const PUBLIC = 'https://invoices.shop.example'

beforeAll(async () => {
  smtp = await startTestSmtpServer()
  h = await makeHarness({
    config: {
      mailRelay: smtp.url,
      rateLimit: 1_000_000,
      publicUrl: PUBLIC,
      webhookAllowPrivate: true,
      smtpAllowPrivate: true,
    },
  })
  served = serveHarness(h)
})
afterAll(async () => {
  served.stop()
  await h.close()
  await smtp.close()
})
beforeEach(async () => {
  // One database for the file: each test's run sees only its own Businesses' schedules.
  await h.deps.db.write((tx) => tx.update(reminderSettings).set({ enabled: false }))
  smtp.received.length = 0
  smtp.refuse.clear()
  smtp.defer.clear()
  smtp.behaviour = 'accept'
  h.clock.set('2026-03-10T09:00:00.000Z')
})

const CLIENT_EMAIL = 'billing@acme.example'
const line = { description: 'Consulting', quantity: '2', unit_price: '50.00', vat_rate: '19.00' }

/** A Business with an Invoice issued on 2026-03-10, due 2026-03-24 (14 days), and its reminder settings. */
async function setup(settings: unknown = { enabled: true, steps: [{ days: 7 }, { days: 14 }, { days: 30 }] }) {
  h.clock.set('2026-03-10T09:00:00.000Z')
  const b = await h.business({ email: 'office@shop.example', name: 'Shop Ltd' })
  const client = await h.client(b.key, { name: 'Acme GmbH', email: CLIENT_EMAIL, payment_terms: 14 })
  const d = await h.request('POST', '/v1/documents', {
    key: b.key,
    body: { type: 'invoice', client_id: client, lines: [line] },
  })
  expect(d.status).toBe(201)
  const issued = await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
  expect(issued.body.due_date).toBe('2026-03-24')
  if (settings) expect((await putSettings(b.key, settings)).status).toBe(200)
  return {
    bizId: b.id,
    publicId: b.publicId,
    key: b.key,
    docId: d.body.id as number,
    clientId: client,
    number: issued.body.document_number,
  }
}

const putSettings = (key: string, body: unknown) => h.request('PUT', '/v1/reminder-settings', { key, body })
const at = (day: string, time = '08:00:00') => h.clock.set(`${day}T${time}.000Z`)
const stepsOf = async (docId: number) =>
  (await h.deps.db.read.select().from(reminderSteps).where(eq(reminderSteps.documentId, docId))).sort(
    (a, b) => a.stepDays - b.stepDays,
  )
/** The document's only step waits, stopped by the day's recipient limit, for its next try at `next`. */
async function expectLeftForTheNextDay(docId: number, next: string) {
  const [row] = await stepsOf(docId)
  expect({ state: row!.state, next: row!.nextTryAt, code: JSON.parse(row!.error!).code }).toEqual({
    state: 'waiting',
    next,
    code: 'sending_limit_reached',
  })
}
const setPlan = (id: number, plan: 'free' | 'pro' | 'paused') =>
  h.deps.db.write((tx) => tx.update(businesses).set({ plan }).where(eq(businesses.id, id)))
const doc = async (s: { key: string; docId: number }) =>
  (await h.request('GET', `/v1/documents/${s.docId}`, { key: s.key })).body

describe('GET and PUT /v1/reminder-settings', () => {
  test('a Business that never saved answers the defaults: disabled, steps 7, 14 and 30 with the default words', async () => {
    const b = await h.business()
    const r = await h.request('GET', '/v1/reminder-settings', { key: b.key })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      enabled: false,
      steps: [7, 14, 30].map((days) => ({ days, subject: null, message: null })),
    })
  })

  test('PUT replaces the settings and answers the steps sorted by days; blank words are null; a Viewer reads them', async () => {
    const b = await h.business()
    const r = await putSettings(b.key, {
      enabled: true,
      steps: [
        { days: 30, subject: 'Last call {{number}}', message: '  ' },
        { days: -3, subject: null, message: 'Due soon: {{amount_due}}' },
        { days: 0 },
      ],
    })
    expect(r.status).toBe(200)
    const want = {
      enabled: true,
      steps: [
        { days: -3, subject: null, message: 'Due soon: {{amount_due}}' },
        { days: 0, subject: null, message: null },
        { days: 30, subject: 'Last call {{number}}', message: null },
      ],
    }
    expect(r.body).toEqual(want)
    const viewer = await h.key(b.id, 'viewer')
    expect((await h.request('GET', '/v1/reminder-settings', { key: viewer })).body).toEqual(want)
  })

  test('every bad input is 422 invalid_request naming its field, and nothing is saved', async () => {
    const b = await h.business()
    const cases: Array<[unknown, string]> = [
      [{ enabled: true, steps: [{ days: 366 }] }, 'steps.0.days'],
      [{ enabled: true, steps: [{ days: -31 }] }, 'steps.0.days'],
      [{ enabled: true, steps: [{ days: 1.5 }] }, 'steps.0.days'],
      [{ enabled: true, steps: [{ days: 7 }, { days: 7 }] }, 'steps.1.days'],
      [{ enabled: true, steps: [1, 2, 3, 4, 5, 6].map((days) => ({ days })) }, 'steps'],
      [{ enabled: true, steps: [{ days: 7, subject: 'x'.repeat(201) }] }, 'steps.0.subject'],
      [{ enabled: true, steps: [{ days: 7, message: 'x'.repeat(5001) }] }, 'steps.0.message'],
      [{ enabled: true, steps: [{ days: 7, subject: 'two\nlines' }] }, 'steps.0.subject'],
      [{ enabled: true, steps: [{ days: 7, message: 'Pay {{amount}}' }] }, 'steps.0.message'],
      [{ enabled: true, steps: [{ days: 7, colour: 'red' }] }, 'steps.0.colour'],
      [{ enabled: 'yes', steps: [] }, 'enabled'],
      [{ steps: [] }, 'enabled'],
      [{ enabled: true }, 'steps'],
    ]
    for (const [body, field] of cases) {
      const r = await putSettings(b.key, body)
      expect({ field, status: r.status, type: r.body.error.type }).toEqual({
        field,
        status: 422,
        type: 'invalid_request',
      })
      expect(Object.keys(r.body.error.errors)).toContain(field)
    }
    expect((await h.request('GET', '/v1/reminder-settings', { key: b.key })).body.enabled).toBe(false)
  })

  test('a Member or Viewer key is 403 on PUT; another Business never sees or changes these settings', async () => {
    const a = await h.business()
    const other = await h.business()
    for (const role of ['member', 'viewer'] as const) {
      const r = await putSettings(await h.key(a.id, role), { enabled: true, steps: [] })
      expect({ status: r.status, type: r.body.error.type }).toEqual({ status: 403, type: 'permission' })
    }
    expect((await putSettings(a.key, { enabled: true, steps: [{ days: 3 }] })).status).toBe(200)
    expect((await h.request('GET', '/v1/reminder-settings', { key: other.key })).body.enabled).toBe(false)
    expect((await h.request('GET', '/v1/reminder-settings', { key: a.key })).body.steps).toEqual([
      { days: 3, subject: null, message: null },
    ])
  })

  test('the OpenAPI document lists both operations with their access and the PUT body', async () => {
    const d = (await h.request('GET', '/openapi.json')).body
    const path = d.paths['/v1/reminder-settings']
    expect(path.get.operationId).toBe('reminder_settings_get')
    expect(path.put.operationId).toBe('reminder_settings_update')
    expect(path.put['x-access']).toBe('admin')
    expect(Object.keys(path.put.responses)).toEqual(expect.arrayContaining(['200', '422']))
  })
})

describe('Client reminders', () => {
  test('a Client answers reminders true by default; create and update take false and true', async () => {
    const b = await h.business()
    const a = await h.client(b.key)
    expect((await h.request('GET', `/v1/clients/${a}`, { key: b.key })).body.reminders).toBe(true)
    const off = await h.client(b.key, { reminders: false })
    expect((await h.request('GET', `/v1/clients/${off}`, { key: b.key })).body.reminders).toBe(false)
    const r = await h.request('PATCH', `/v1/clients/${off}`, { key: b.key, body: { reminders: true } })
    expect(r.body.reminders).toBe(true)
    const bad = await h.request('PATCH', `/v1/clients/${off}`, { key: b.key, body: { reminders: 'no' } })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.error.errors)).toContain('reminders')
  })
})

describe('the background task', () => {
  test('each step goes out once on its day, with the PDF, the public link and its placeholders filled', async () => {
    const s = await setup({
      enabled: true,
      steps: [
        {
          days: 7,
          subject: 'Invoice {{number}}: {{amount_due}} open',
          message:
            'Dear {{client}}, {{number}} was due on {{due_date}}, {{days_overdue}} days ago. See {{link}}. {{business}}',
        },
        { days: 14 },
      ],
    })
    at('2026-03-30')
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    at('2026-03-31')
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect((await remindDue(h.deps)).sent).toBe(0)
    expect(smtp.received.length).toBe(1)
    const m = smtp.received[0]!
    expect(m.envelope.to).toEqual([CLIENT_EMAIL])
    expect(m.mail.subject).toBe(`Invoice ${s.number}: 119.00 EUR open`)
    const view = await doc(s)
    // The link is the document's public page on the service's public address.
    expect(view.public_url).toStartWith(`${PUBLIC}/p/`)
    expect(m.mail.text?.trim()).toBe(
      `Dear Acme GmbH, ${s.number} was due on 2026-03-24, 7 days ago. See ${view.public_url}. Shop Ltd`,
    )
    expect(m.mail.attachments.map((a) => [a.contentType, a.filename])).toEqual([
      ['application/pdf', `${s.number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`],
    ])
    expect(m.mail.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-')
    expect(view.last_reminded).toEqual({ at: h.clock.now().toISOString(), step_days: 7, recipients: [CLIENT_EMAIL] })
    expect(view.reminders_sent).toBe(1)

    // The second step, in the service's default words.
    at('2026-04-07', '00:00:30')
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect(smtp.received.length).toBe(2)
    const d = smtp.received[1]!.mail
    expect(d.subject).toBe(`Reminder: Invoice ${s.number} from Shop Ltd`)
    // The default words are a reminder's, in the document's language (English here), as a reminder by hand says them.
    expect(d.text).toContain(`a friendly reminder: Invoice ${s.number} of`)
    expect(d.text).toContain(' was due on ')
    expect(d.text).toContain('is still open.')
    expect(d.text).toContain(`You can also view it online: ${view.public_url}`)
    expect((await doc(s)).last_reminded.step_days).toBe(14)
    expect((await doc(s)).reminders_sent).toBe(2)
    expect((await stepsOf(s.docId)).map((r) => [r.stepDays, r.state])).toEqual([
      [7, 'sent'],
      [14, 'sent'],
    ])
    // The application's document page says the last reminder was a step of the schedule, and how many went out.
    const owner = await person(h, { email: `owner-${s.bizId}@shop.example`, businessId: s.bizId, role: 'owner' })
    const browser = new AppClient(h)
    expect((await browser.signIn(owner.email, owner.password)).status).toBe(303)
    const page = await browser.get(`/app/b/${s.publicId}/documents/${s.docId}`)
    expect(page.status).toBe(200)
    expect(page.text).toMatch(/id="last-reminded">[^]*?on schedule, step of 14 days; 2 in all/)
    // The first PDF starts the PDF engine's realm.
  }, 30_000)

  test('after a stop over several steps only the latest that came is sent; the earlier ones count as passed', async () => {
    const s = await setup()
    at('2026-05-01')
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect(smtp.received.length).toBe(1)
    expect((await doc(s)).last_reminded.step_days).toBe(30)
    expect((await stepsOf(s.docId)).map((r) => [r.stepDays, r.state])).toEqual([
      [7, 'passed'],
      [14, 'passed'],
      [30, 'sent'],
    ])
    at('2026-06-01')
    expect((await remindDue(h.deps)).sent).toBe(0)
  })

  test('a step before the due date (negative days) comes before it', async () => {
    const s = await setup({ enabled: true, steps: [{ days: -3 }] })
    at('2026-03-20')
    expect((await remindDue(h.deps)).sent).toBe(0)
    at('2026-03-21')
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect(smtp.received[0]!.mail.text).toContain(' is due on ')
    expect((await doc(s)).last_reminded.step_days).toBe(-3)
  })

  test('a document paid or cancelled before a step, a Client with reminders false, or settings disabled get none', async () => {
    const paid = await setup()
    expect(
      (
        await h.request('POST', `/v1/documents/${paid.docId}/payments`, {
          key: paid.key,
          body: { amount: '119.00', payment_date: '2026-03-12', payment_method: 'cash' },
        })
      ).status,
    ).toBe(201)
    const optedOut = await setup()
    expect(
      (await h.request('PATCH', `/v1/clients/${optedOut.clientId}`, { key: optedOut.key, body: { reminders: false } }))
        .status,
    ).toBe(200)
    const disabled = await setup({ enabled: false, steps: [{ days: 7 }] })
    const neverSaved = await setup(null)
    const cancelled = await setup()
    expect((await h.request('POST', `/v1/documents/${cancelled.docId}/cancel`, { key: cancelled.key })).status).toBe(
      200,
    )
    at('2026-04-30')
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    expect(smtp.received.length).toBe(0)
    for (const s of [paid, optedOut, disabled, neverSaved, cancelled]) expect(await stepsOf(s.docId)).toEqual([])
  })

  test('a Paused Business sends no reminders and keeps no refused step; chosen a plan again, it does', async () => {
    const s = await setup()
    await setPlan(s.bizId, 'paused')
    at('2026-03-31')
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    expect(await stepsOf(s.docId)).toEqual([])
    await setPlan(s.bizId, 'pro')
    expect((await remindDue(h.deps)).sent).toBe(1)
  })

  test('a run with nothing due opens no write transaction', async () => {
    await setup()
    at('2026-03-25')
    let writes = 0
    const db = { ...h.deps.db, write: (fn: any) => (writes++, h.deps.db.write(fn)) }
    expect(await remindDue({ ...h.deps, db } as typeof h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    expect(writes).toBe(0)
  })

  test('two runs at once send each step once', async () => {
    await setup()
    await setup()
    at('2026-03-31')
    const runs = await Promise.all([remindDue(h.deps), remindDue(h.deps), remindDue(h.deps)])
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(2)
    expect(smtp.received.length).toBe(2)
  })

  test('a refused email is kept with its error and shown to the application; the next step still goes out', async () => {
    const s = await setup()
    smtp.refuse.add(CLIENT_EMAIL)
    at('2026-03-31')
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 1, waiting: 0 })
    const [row] = await stepsOf(s.docId)
    expect(row!.state).toBe('refused')
    expect(JSON.parse(row!.error!)).toMatchObject({ type: 'not_delivered', code: null })
    expect((await doc(s)).reminders_sent).toBe(0)
    const notices = await runOperation(
      applicationTable.get('reminder_steps_notices')!,
      { businessId: s.bizId, role: 'viewer' } as any,
      { path: {}, query: {}, body: undefined },
      { deps: h.deps } as any,
    )
    expect((notices as any).value).toEqual([
      expect.objectContaining({ document_id: s.docId, step_days: 7, state: 'refused' }),
    ])
    // Refused is final for that step: the next run does not try it again.
    expect((await remindDue(h.deps)).refused).toBe(0)
    smtp.refuse.clear()
    at('2026-04-07')
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect((await doc(s)).last_reminded.step_days).toBe(14)
  })

  test('a Business with no way to send keeps the step refused no_mail_provider_to_remind and sends nothing', async () => {
    h.clock.set('2026-03-10T09:00:00.000Z')
    const b = await h.business({ email: null })
    const client = await h.client(b.key, { email: CLIENT_EMAIL, payment_terms: 14 })
    const d = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: { type: 'invoice', client_id: client, lines: [line] },
    })
    await h.request('POST', `/v1/documents/${d.body.id}/issue`, { key: b.key })
    await putSettings(b.key, { enabled: true, steps: [{ days: 7 }] })
    at('2026-03-31')
    expect((await remindDue(h.deps)).refused).toBe(1)
    const [row] = await stepsOf(d.body.id)
    expect(JSON.parse(row!.error!)).toMatchObject({ type: 'refusal', code: 'no_mail_provider_to_remind' })
    expect(smtp.received.length).toBe(0)
  })

  test("the day's recipient limit leaves the step waiting for the next UTC day, which sends it", async () => {
    const s = await setup()
    at('2026-03-31')
    // The Pro plan's 100 recipients a day, all taken.
    await h.deps.db.write((tx) => countRecipients(tx, s.bizId, '2026-03-31', 100))
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 1 })
    await expectLeftForTheNextDay(s.docId, '2026-04-01T00:00:00.000Z')
    at('2026-03-31', '23:59:00')
    expect((await remindDue(h.deps)).waiting).toBe(0)
    at('2026-04-01', '00:00:10')
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect(smtp.received.length).toBe(1)
    expect((await stepsOf(s.docId))[0]).toMatchObject({ state: 'sent', error: null })
  })

  test('a mail server that cannot be reached leaves the step waiting; it is tried again 15 minutes later and goes out', async () => {
    const s = await setup()
    await setMailbox(
      h.deps.db,
      h.clock,
      s.bizId,
      { kind: 'smtp', smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, from: 'office@shop.example' },
      { allowPrivate: true },
    )
    at('2026-03-31')
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 1 })
    const [row] = await stepsOf(s.docId)
    expect({ state: row!.state, attempts: row!.attempts, type: JSON.parse(row!.error!).type }).toEqual({
      state: 'waiting',
      attempts: 0,
      type: 'not_delivered',
    })
    expect(row!.nextTryAt).toBe('2026-03-31T08:15:00.000Z')
    // The Business's own mailbox removed: the service's mail server sends for it, at the next try.
    await clearMailbox(h.deps.db, s.bizId)
    h.clock.advance(14 * 60_000)
    expect((await remindDue(h.deps)).sent).toBe(0)
    h.clock.advance(60_000)
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect((await stepsOf(s.docId))[0]).toMatchObject({ state: 'sent', error: null, attempts: 1 })
    expect(smtp.received.length).toBe(1)
  }, 30_000)

  test('a mail server answering "try again later" (SMTP 451) leaves the step waiting, not counted; 15 minutes later it goes out', async () => {
    const s = await setup()
    smtp.defer.add(CLIENT_EMAIL)
    at('2026-03-31')
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 1 })
    expect((await stepsOf(s.docId))[0]).toMatchObject({
      state: 'waiting',
      attempts: 0,
      nextTryAt: '2026-03-31T08:15:00.000Z',
    })
    smtp.defer.clear()
    h.clock.advance(15 * 60_000)
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect((await stepsOf(s.docId))[0]).toMatchObject({ state: 'sent', attempts: 1, error: null })
    expect(smtp.received.length).toBe(1)
  }, 30_000)

  test('a claim left by a process that is gone is taken over once; a second time it is not sent again', async () => {
    const s = await setup()
    at('2026-03-31')
    // A process that claimed the step and died before recording it (pid 0 never runs a process of ours).
    const dead = `claim:x:${Date.now()}:nowhere:999999:0`
    const write = (attempts: number, claim: string) =>
      h.deps.db.write((tx) =>
        tx
          .insert(reminderSteps)
          .values({
            documentId: s.docId,
            stepDays: 7,
            businessId: s.bizId,
            state: 'sending',
            claim,
            attempts,
            createdAt: h.clock.now().toISOString(),
            updatedAt: h.clock.now().toISOString(),
          })
          .onConflictDoUpdate({
            target: [reminderSteps.documentId, reminderSteps.stepDays],
            set: { state: 'sending', claim, attempts },
          }),
      )
    // Another machine's claim is taken over only after the lease.
    await write(1, dead)
    expect((await remindDue(h.deps)).sent).toBe(0)
    const old = `claim:x:${Date.now() - 11 * 60_000}:nowhere:999999:0`
    await write(1, old)
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect((await stepsOf(s.docId))[0]).toMatchObject({ state: 'sent', attempts: 2 })
    await write(2, old)
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    const row = (await stepsOf(s.docId))[0]!
    expect(row.state).toBe('refused')
    expect(smtp.received.length).toBe(1)
  })

  test("a Paused Business's waiting step costs no write transaction a minute; chosen a plan again, it goes out", async () => {
    const s = await setup()
    at('2026-03-31')
    await h.deps.db.write((tx) => countRecipients(tx, s.bizId, '2026-03-31', 100))
    expect((await remindDue(h.deps)).waiting).toBe(1)
    await setPlan(s.bizId, 'paused')
    at('2026-04-01', '00:00:30')
    let writes = 0
    const db = { ...h.deps.db, write: (fn: any) => (writes++, h.deps.db.write(fn)) }
    for (let i = 0; i < 60; i++) {
      h.clock.advance(60_000)
      expect(await remindDue({ ...h.deps, db } as typeof h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    }
    expect(writes).toBe(0)
    expect(smtp.received.length).toBe(0)
    await setPlan(s.bizId, 'pro')
    expect((await remindDue(h.deps)).sent).toBe(1)
  })

  test("on the Free plan a reminder counts against the relay's 20 recipients a day; once they are taken the step waits for the next UTC day", async () => {
    const s = await setup()
    const second = await h.request('POST', '/v1/documents', {
      key: s.key,
      body: { type: 'invoice', client_id: s.clientId, lines: [line] },
    })
    expect((await h.request('POST', `/v1/documents/${second.body.id}/issue`, { key: s.key })).status).toBe(200)
    await setPlan(s.bizId, 'free')
    at('2026-03-31')
    await h.deps.db.write((tx) => countRecipients(tx, s.bizId, '2026-03-31', 19))
    // The 20th recipient of the day goes out; the 21st would pass the Free plan's limit (Pro's 100 would not).
    expect(await remindDue(h.deps)).toEqual({ sent: 1, refused: 0, waiting: 1 })
    expect(await recipientsSent(h.deps.db.read, s.bizId, '2026-03-31')).toBe(20)
    await expectLeftForTheNextDay(second.body.id, '2026-04-01T00:00:00.000Z')
    at('2026-04-01', '00:00:10')
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect(smtp.received.length).toBe(2)
    expect(await recipientsSent(h.deps.db.read, s.bizId, '2026-04-01')).toBe(1)
  })

  test('a hand-over interrupted with the email on its way is counted and tried again 15 minutes later; the second goes out, recorded once', async () => {
    const s = await setup()
    smtp.behaviour = 'cut_after_data'
    at('2026-03-31')
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 1 })
    expect((await stepsOf(s.docId))[0]).toMatchObject({
      state: 'waiting',
      attempts: 1,
      nextTryAt: '2026-03-31T08:15:00.000Z',
    })
    smtp.behaviour = 'accept'
    h.clock.advance(15 * 60_000)
    expect((await remindDue(h.deps)).sent).toBe(1)
    expect((await stepsOf(s.docId))[0]).toMatchObject({ state: 'sent', attempts: 2, error: null })
    expect((await doc(s)).reminders_sent).toBe(1)
    h.clock.advance(15 * 60_000)
    expect((await remindDue(h.deps)).sent).toBe(0)
    expect(smtp.received.length).toBe(1)
  }, 30_000)

  test('an email out whose record could not be written is counted as handed over: sent at most once more, never a third time', async () => {
    const s = await setup()
    at('2026-03-31')
    const losingRecords = () => losingTheRecord(h.deps, () => smtp.received.length)
    expect(await remindDue(losingRecords())).toEqual({ sent: 0, refused: 0, waiting: 1 })
    expect(smtp.received.length).toBe(1)
    expect((await stepsOf(s.docId))[0]).toMatchObject({ state: 'waiting', attempts: 1 })
    h.clock.advance(15 * 60_000)
    expect(await remindDue(losingRecords())).toEqual({ sent: 0, refused: 1, waiting: 0 })
    expect(smtp.received.length).toBe(2)
    h.clock.advance(15 * 60_000)
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    h.clock.advance(24 * 3_600_000)
    expect(await remindDue(h.deps)).toEqual({ sent: 0, refused: 0, waiting: 0 })
    expect(smtp.received.length).toBe(2)
    expect((await stepsOf(s.docId))[0]).toMatchObject({ state: 'refused', attempts: 2 })
  }, 30_000)

  test('document.reminded reaches a webhook, signed as standardwebhooks verifies, with the document', async () => {
    const s = await setup()
    const rx = receiver(h.clock)
    const got = rx.got
    try {
      const w = await h.request('POST', '/v1/webhooks', {
        key: s.key,
        body: { url: rx.url, events: ['document.reminded'] },
      })
      expect(w.status).toBe(201)
      at('2026-03-31')
      expect((await remindDue(h.deps)).sent).toBe(1)
      const ctx = deliveryContext(h.deps)
      await dispatchOutbox(ctx)
      await deliverDue(ctx)
      expect(got.length).toBe(1)
      const message = verify(w.body.secret, got[0]!)
      expect(message.type).toBe('document.reminded')
      expect(message.data.document.id).toBe(s.docId)
      expect(message.data.document.last_reminded.step_days).toBe(7)
    } finally {
      rx.stop()
    }
  })
})

describe('reminder settings over MCP', () => {
  const connect = (key: string) => connectMcp(served.base, key)

  test('reminder_settings_update and _get work through the SDK Client; a bad step is invalid_request by field; a Viewer may only read', async () => {
    const b = await h.business()
    const client = await connect(b.key)
    try {
      const tools = (await client.listTools()).tools
      const update = tools.find((t) => t.name === 'reminder_settings_update')!
      expect(update.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true })
      const r = (await client.callTool({
        name: 'reminder_settings_update',
        arguments: { enabled: true, steps: [{ days: 21, subject: 'Pay {{number}}' }, { days: 5 }] },
      })) as any
      expect(r.isError ?? false).toBe(false)
      expect(r.structuredContent.steps.map((s: any) => s.days)).toEqual([5, 21])
      const got = (await client.callTool({ name: 'reminder_settings_get', arguments: {} })) as any
      expect(got.structuredContent).toEqual(r.structuredContent)
      const bad = (await client.callTool({
        name: 'reminder_settings_update',
        arguments: { enabled: true, steps: [{ days: 400 }] },
      })) as any
      expect(bad.isError).toBe(true)
      expect(bad.structuredContent.error.type).toBe('invalid_request')
      expect(Object.keys(bad.structuredContent.error.errors)).toContain('steps.0.days')
    } finally {
      await client.close()
    }
    const viewer = await connect(await h.key(b.id, 'viewer'))
    try {
      const names = (await viewer.listTools()).tools.map((t) => t.name)
      expect(names).toContain('reminder_settings_get')
      const refused = (await viewer.callTool({
        name: 'reminder_settings_update',
        arguments: { enabled: false, steps: [] },
      })) as any
      expect(refused.isError).toBe(true)
      expect(refused.structuredContent.error.type).toBe('permission')
    } finally {
      await viewer.close()
    }
    // The SDK client's connections are slow on a loaded machine.
  }, 30_000)
})
