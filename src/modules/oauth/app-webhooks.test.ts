// An OAuth app's webhook across two Businesses: each message names its Business and verifies with the
// `standardwebhooks` library; actions for the app's lowest Role; a 2xx is a use; leaving a Business stops its messages,
// fails its waiting retries unsent and erases their bodies; the plan rule; the owner's failure email at most daily.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../../test/harness'
import { connectApp } from '../../../test/oauth'
import { startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'
import { appWebhookDeliveries, appWebhooks, connectedApps, oauthApps } from '../../db/schema'
import type { PostResult, WebhookSender } from '../../adapters/http'
import { appDeliveryContext } from '../../jobs/webhooks'
import { updateBusiness } from '../business'
import { issueInvoice, receiver, verify, type Received } from '../webhooks/webhooks.testkit'
import { addMember, addPerson, deletePerson, findPerson } from '../people'
import {
  createApp,
  deleteApp,
  deliverDueAppWebhooks,
  disconnectConnectedApp,
  dispatchAppWebhooks,
  lowestRole,
  resendOwnedAppDelivery,
  setAppWebhook,
  type AppDeliveryContext,
} from '.'

let h: Harness
let smtp: TestSmtpServer
let ctx: AppDeliveryContext
let got: Received[]
let answer: (body: any) => number = () => 200
let rx: ReturnType<typeof receiver>

beforeAll(async () => {
  smtp = await startTestSmtpServer()
  h = await makeHarness({
    config: { publicUrl: 'https://invoices.example', webhookAllowPrivate: true, mailRelay: smtp.url },
  })
  ctx = { ...appDeliveryContext(h.deps, async () => 'owner@apps.example'), jitter: () => 0 }
  rx = receiver(h.clock, (_req, body) => new Response('ok', { status: answer(JSON.parse(body)) }))
  got = rx.got
})
afterAll(async () => {
  rx.stop()
  await h.close()
  await smtp.close()
})

/** An Invoice of 100.00 issued for a new Client of the Business; answers its id. */
async function issueInvoiceOf(key: string): Promise<number> {
  const line = { description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '0' }
  return (await issueInvoice(h, key, await h.client(key), line)).id
}

/** A public OAuth app '<name> Sync' of the person, redirecting to https://<name>.example/cb. */
function publicApp(ownerPersonId: number, name: string) {
  return createApp(h.deps.db, h.clock, {
    ownerPersonId,
    name: `${name} Sync`,
    redirectUris: [`https://${name.toLowerCase()}.example/cb`],
    public: true,
  })
}

/** Runs the jobs until nothing is due now. */
async function run() {
  await dispatchAppWebhooks(ctx)
  while ((await deliverDueAppWebhooks(ctx)) > 0) {}
}

async function deliveriesOf(businessId: number) {
  return h.deps.db.read.select().from(appWebhookDeliveries).where(eq(appWebhookDeliveries.businessId, businessId))
}

async function setup() {
  const a = await h.business()
  const b = await h.business()
  const app = await publicApp(1, 'Ledger')
  const ca = await connectApp(h, { businessId: a.id, clientId: app.client_id, role: 'member' })
  const cb = await connectApp(h, { businessId: b.id, clientId: app.client_id, role: 'viewer' })
  const hook = await setAppWebhook({ ...h.deps, allowPrivate: true }, app.client_id, {
    url: rx.url,
  })
  got.length = 0
  answer = () => 200
  return { a, b, app, ca, cb, hook }
}

describe("an OAuth app's webhook", () => {
  test('hears every Business it is connected to: business_id names each, signatures verify, actions are the Role there', async () => {
    const s = await setup()
    const docA = await issueInvoiceOf(s.a.key)
    const docB = await issueInvoiceOf(s.b.key)
    await run()
    expect(got).toHaveLength(2)
    const bodies = got.map((m) => verify(s.hook.secret, m))
    // The secret that signs them is stored sealed, never as shown (secrets at rest).
    const stored = await h.deps.db.read.select().from(appWebhooks).all()
    expect(stored.length).toBeGreaterThan(0)
    expect(
      stored.every((w) => w.secret.startsWith('enc:v1:') && !w.secret.includes(s.hook.secret.slice('whsec_'.length))),
    ).toBe(true)
    const ofA = bodies.find((m) => m.business_id === s.a.publicId)
    const ofB = bodies.find((m) => m.business_id === s.b.publicId)
    expect(ofA.type).toBe('document.issued')
    expect(ofA.data.document.id).toBe(docA)
    expect(ofB.data.document.id).toBe(docB)
    // The same document as a token of that Role reads it.
    const asMember = await h.request('GET', `/v1/documents/${docA}`, { key: s.ca.access })
    expect(ofA.data.document.actions).toEqual(asMember.body.actions)
    const asViewer = await h.request('GET', `/v1/documents/${docB}`, { key: s.cb.access })
    expect(ofB.data.document.actions).toEqual(asViewer.body.actions)
  })

  test('with several connections in one Business, one message with the lowest of their Roles', async () => {
    expect(lowestRole(['admin', 'viewer', 'member'])).toBe('viewer')
    const s = await setup()
    await connectApp(h, {
      businessId: s.a.id,
      clientId: s.app.client_id,
      role: 'admin',
      email: 'second@people.example',
      memberRole: 'viewer',
    })
    const doc = await issueInvoiceOf(s.a.key)
    await run()
    const ofA = got.map((m) => verify(s.hook.secret, m)).filter((m) => m.business_id === s.a.publicId)
    expect(ofA).toHaveLength(1)
    expect(ofA[0].data.document.actions).toEqual(
      (await h.request('GET', `/v1/documents/${doc}`, { key: await h.key(s.a.id, 'viewer') })).body.actions,
    )
  })

  test('a 2xx counts as a use of the connections to that Business', async () => {
    const s = await setup()
    h.clock.advance(10 * 24 * 3600_000)
    await issueInvoiceOf(s.a.key)
    await run()
    const c = await h.deps.db.read.select().from(connectedApps).where(eq(connectedApps.id, s.ca.connectedAppId)).get()
    expect(c!.lastUsedAt).toBe(h.clock.now().toISOString())
  })

  test('after the app leaves a Business: nothing more about it, waiting retries fail unsent, bodies erased', async () => {
    const s = await setup()
    answer = (m) => (m.business_id === s.b.publicId ? 500 : 200)
    await issueInvoiceOf(s.b.key)
    await run()
    const [waiting] = await deliveriesOf(s.b.id)
    expect(waiting!.status).toBe('pending')
    expect(waiting!.body).not.toBeNull()
    await disconnectConnectedApp(h.deps.db, h.clock, s.b.id, s.cb.connectedAppId)
    const [after] = await deliveriesOf(s.b.id)
    expect(after).toMatchObject({ status: 'failed_unsent', reason: 'app_not_connected', body: null, attempts: 1 })
    got.length = 0
    await issueInvoiceOf(s.b.key)
    await issueInvoiceOf(s.a.key)
    h.clock.advance(10_000)
    await run()
    expect(got.map((m) => JSON.parse(m.body).business_id)).toEqual([s.a.publicId])
  })

  test('a retry and a resend carry the body as first built; only its actions are answered anew for the Role at that attempt', async () => {
    const s = await setup()
    answer = () => 500
    const doc = await issueInvoiceOf(s.a.key)
    await run()
    expect(got).toHaveLength(1)
    const first = verify(s.hook.secret, got[0]!)
    // Meanwhile the document is paid, and the connecting person's Role in A falls to Viewer.
    const paid = await h.request('POST', `/v1/documents/${doc}/payments`, {
      key: s.a.key,
      body: { amount: '100.00', payment_date: '2026-03-10', payment_method: 'cash' },
    })
    expect(paid.status).toBe(201)
    await addMember(h.deps, s.a.id, { email: 'connector@people.example', role: 'viewer' })
    answer = () => 200
    h.clock.advance(6_000)
    await run()
    // The payment raised messages of its own; this one is the issued document's, by its webhook-id.
    const same = () => got.filter((m) => m.headers['webhook-id'] === got[0]!.headers['webhook-id'])
    expect(same()).toHaveLength(2)
    const retried = verify(s.hook.secret, same()[1]!)
    const now = await h.request('GET', `/v1/documents/${doc}`, { key: await h.key(s.a.id, 'viewer') })
    expect(now.body.amount_paid).not.toBe(first.data.document.amount_paid)
    expect({ ...retried.data.document, actions: null }).toEqual({ ...first.data.document, actions: null })
    expect(retried.data.document.actions).toEqual(now.body.actions)
    expect(retried.data.document.actions).not.toEqual(first.data.document.actions)

    const delivered = (await deliveriesOf(s.a.id)).find(
      (d) => d.status === 'delivered' && d.messageId === got[0]!.headers['webhook-id'],
    )
    await resendOwnedAppDelivery(h.deps.db, 1, s.app.client_id, delivered!.id, h.clock.now())
    await run()
    expect(same()).toHaveLength(3)
    expect({ ...verify(s.hook.secret, same()[2]!).data.document, actions: null }).toEqual({
      ...first.data.document,
      actions: null,
    })
    await addMember(h.deps, s.a.id, { email: 'connector@people.example', role: 'admin' })
  })

  test('nothing about a Free or Paused Business is sent', async () => {
    const s = await setup()
    await updateBusiness(h.deps.db, h.clock, s.a.id, { plan: 'pro' })
    await issueInvoiceOf(s.a.key)
    await updateBusiness(h.deps.db, h.clock, s.a.id, { plan: 'free' })
    await run()
    expect(got).toHaveLength(0)
    const [d] = await deliveriesOf(s.a.id)
    expect(d!.status).toBe('failed_unsent')
  })

  test('its signing secret is stored sealed, never as shown', async () => {
    const s = await setup()
    const rows = await h.deps.db.read.select().from(appWebhooks).all()
    expect(rows.length).toBeGreaterThan(0)
    for (const r of rows) expect(r.secret).not.toContain(s.hook.secret.slice('whsec_'.length))
  })

  test('deleting the app deletes its webhook and deliveries', async () => {
    const s = await setup()
    await issueInvoiceOf(s.a.key)
    await run()
    expect(await deliveriesOf(s.a.id)).toHaveLength(1)
    await deleteApp(h.deps.db, s.app.client_id)
    expect(await deliveriesOf(s.a.id)).toHaveLength(0)
  })

  test("deleting the app's owner (the person) deletes their apps: webhook and deliveries go, their Connected apps answer 401", async () => {
    const a = await h.business()
    const { person: owner } = await addPerson(h.deps, { email: 'app-owner@apps.example', name: 'App Owner' })
    const app = await publicApp(owner.id, 'Owned')
    const other = await publicApp(1, 'Kept')
    const c = await connectApp(h, { businessId: a.id, clientId: app.client_id, role: 'member' })
    const kept = await connectApp(h, { businessId: a.id, clientId: other.client_id, role: 'member' })
    await setAppWebhook({ ...h.deps, allowPrivate: true }, app.client_id, {
      url: rx.url,
    })
    await issueInvoiceOf(a.key)
    await run()
    expect(await deliveriesOf(a.id)).toHaveLength(1)
    expect((await h.request('GET', '/v1/business', { key: c.access })).status).toBe(200)

    expect(await deletePerson(h.deps, 'APP-OWNER@apps.example')).toMatchObject({ id: owner.id, apps_deleted: 1 })
    expect((await h.request('GET', '/v1/business', { key: c.access })).status).toBe(401)
    expect(
      await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, app.client_id)).get(),
    ).toBeUndefined()
    expect(
      await h.deps.db.read.select().from(connectedApps).where(eq(connectedApps.id, c.connectedAppId)).get(),
    ).toBeUndefined()
    expect(await h.deps.db.read.select().from(appWebhooks).where(eq(appWebhooks.appId, c.appId))).toHaveLength(0)
    expect(await deliveriesOf(a.id)).toHaveLength(0)
    expect(await findPerson(h.deps, 'app-owner@apps.example')).toBeUndefined()
    // Another person's app is untouched.
    expect((await h.request('GET', '/v1/business', { key: kept.access })).status).toBe(200)
  })

  test('a person who is the last Owner of a Business is not deleted, and nothing of theirs changes', async () => {
    const a = await h.business()
    const { person } = await addPerson(h.deps, { email: 'sole-owner@apps.example', name: 'Sole Owner' })
    await addMember(h.deps, a.id, { email: 'sole-owner@apps.example', role: 'owner' })
    const app = await publicApp(person.id, 'Sole')
    await expect(deletePerson(h.deps, 'sole-owner@apps.example')).rejects.toMatchObject({ code: 'last_owner' })
    expect(await findPerson(h.deps, 'sole-owner@apps.example')).toBeDefined()
    expect(
      await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, app.client_id)).get(),
    ).toBeDefined()
  })

  test('the owner is emailed through the mail relay when a message fails for good, at most once a day', async () => {
    const s = await setup()
    answer = () => 410
    smtp.received.length = 0
    await issueInvoiceOf(s.a.key)
    await run()
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.envelope.to).toEqual(['owner@apps.example'])
    expect(smtp.received[0]!.mail.subject).toContain('Ledger Sync')
    // Turned on again, another failure the same day sends no second email.
    await setAppWebhook({ ...h.deps, allowPrivate: true }, s.app.client_id, {
      url: rx.url,
    })
    await issueInvoiceOf(s.b.key)
    await run()
    expect(smtp.received).toHaveLength(1)
    h.clock.advance(24 * 3600_000 + 1000)
    await setAppWebhook({ ...h.deps, allowPrivate: true }, s.app.client_id, {
      url: rx.url,
    })
    await issueInvoiceOf(s.b.key)
    await run()
    expect(smtp.received).toHaveLength(2)
  })
})

describe("an OAuth app's webhook goes through the one delivery engine", () => {
  test('a sender that never settles is given up as a Business\'s is: "no answer within …", retried after the schedule\'s first wait', async () => {
    const s = await setup()
    const hung: WebhookSender = { post: () => new Promise<PostResult>(() => {}) }
    const slow: AppDeliveryContext = { ...ctx, sender: hung, answerTimeoutMs: 200 }
    await issueInvoiceOf(s.a.key)
    await dispatchAppWebhooks(slow)
    while ((await deliverDueAppWebhooks(slow)) > 0) {}
    const [d] = await deliveriesOf(s.a.id)
    expect(d).toMatchObject({ status: 'pending', attempts: 1, reason: 'no answer within 200 ms' })
    expect(Date.parse(d!.nextAttemptAt!) - h.clock.now().getTime()).toBe(5_000)
    h.clock.advance(5_000)
    await run()
    expect((await deliveriesOf(s.a.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 })
  })

  test('two runs at once never take the same delivery: each message is sent once', async () => {
    const s = await setup()
    await issueInvoiceOf(s.a.key)
    await issueInvoiceOf(s.b.key)
    await dispatchAppWebhooks(ctx)
    const [x, y] = await Promise.all([deliverDueAppWebhooks(ctx), deliverDueAppWebhooks(ctx)])
    const ids = got.map((m) => m.headers['webhook-id'])
    expect(x + y).toBe(ids.length)
    expect(new Set(ids).size).toBe(ids.length)
    expect(got.map((m) => JSON.parse(m.body).business_id).sort()).toEqual([s.a.publicId, s.b.publicId].sort())
  })
})
