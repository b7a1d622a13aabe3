// Profile → Apps over plain HTTP (a browser-like client that keeps cookies and reads CSRF tokens): a person registers
// an OAuth app, sees its client secret once and rolls it, edits its redirect URIs, sets its webhook, sees deliveries
// and resends one (and the contract's refusals of Resend), and deletes the app with everything it made.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makeHarness, type Harness } from '../../../test/harness'
import { AppClient, csrfOf, person } from '../../../test/app-client'
import { connectApp } from '../../../test/oauth'
import { appWebhookDeliveries, oauthApps } from '../../db/schema'
import { appDeliveryContext } from '../../jobs/webhooks'
import { updateBusiness } from '../../modules/business'
import { deliverDueAppWebhooks, disconnectConnectedApp, dispatchAppWebhooks } from '../../modules/oauth'
import { issueInvoice } from '../../modules/webhooks/webhooks.testkit'

const ISSUER = 'https://invoices.example'
let h: Harness
let hooks: ReturnType<typeof Bun.serve>
let hookUrl: string
let status = 200
const received: string[] = []
let owner: { id: number; email: string; password: string }
let browser: AppClient

beforeAll(async () => {
  hooks = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      received.push(await req.text())
      return new Response('thanks', { status })
    },
  })
  hookUrl = `http://127.0.0.1:${hooks.port}/hook`
  // The webhook test switch (INVOICING_WEBHOOK_ALLOW_PRIVATE) lets the local receiver stand in for the app's site.
  h = await makeHarness({ config: { publicUrl: ISSUER, webhookAllowPrivate: true } })
  owner = await person(h, { email: 'dev@apps.example', name: 'Dana Developer' })
  browser = new AppClient(h)
  expect((await browser.signIn(owner.email, owner.password)).status).toBe(303)
})
afterAll(async () => {
  hooks.stop(true)
  await h.close()
})

/** Client authentication at /oauth/revoke: 200 when the secret is the app's, 401 when not. */
async function authenticates(clientId: string, secret: string): Promise<number> {
  const res = await h.app.fetch(
    new Request(`${ISSUER}/oauth/revoke`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${btoa(`${clientId}:${secret}`)}`,
      },
      body: new URLSearchParams({ token: 'inv_at_nothing' }),
    }),
  )
  return res.status
}

const secretsOn = (html: string, prefix: string) =>
  [...html.matchAll(new RegExp(`<code class="secret">(${prefix}[^<]+)</code>`, 'g'))].map((m) => m[1]!)

async function register(form: Record<string, string>) {
  return browser.submit('/app/profile/apps', {
    name: 'Ledger Sync',
    redirect_uris: 'https://ledger.example/cb',
    webhook_url: '',
    ...form,
  })
}

async function runJobs() {
  const ctx = { ...appDeliveryContext(h.deps), jitter: () => 0 }
  await dispatchAppWebhooks(ctx)
  while ((await deliverDueAppWebhooks(ctx)) > 0) {}
}

/** The client_id a page shows in its <code>. */
const clientIdOn = (html: string) => /<code>(app_[^<]+)<\/code>/.exec(html)![1]!

/** The app webhook deliveries made for the Business. */
const deliveriesOf = (businessId: number) =>
  h.deps.db.read.select().from(appWebhookDeliveries).where(eq(appWebhookDeliveries.businessId, businessId))

describe('registering an app in the profile', () => {
  test('redirect URIs are judged as dynamic registration judges them, each line named; a refused webhook address too; nothing is created', async () => {
    const before = (await h.deps.db.read.select().from(oauthApps)).length
    const bad = await register({
      redirect_uris: 'https://ok.example/cb\nhttp://plain.example/cb\n\nhttps://frag.example/cb#x',
      webhook_url: 'https://user:pw@hooks.example/x',
    })
    expect(bad.status).toBe(422)
    expect(bad.text).toContain('line 2: must be https://, or http:// on a loopback address')
    expect(bad.text).toContain('line 3: must not have a fragment')
    expect(bad.text).toContain('must not carry a user name or password')
    // What was typed stays in the form.
    expect(bad.text).toContain('http://plain.example/cb')
    expect((await h.deps.db.read.select().from(oauthApps)).length).toBe(before)
    const none = await register({ redirect_uris: '  \n ' })
    expect(none.status).toBe(422)
    expect(none.text).toContain('at least one redirect URI is required')
    const tooMany = await register({
      redirect_uris: Array.from({ length: 11 }, (_, i) => `https://many.example/cb${i}`).join('\n'),
    })
    expect(tooMany.status).toBe(422)
    expect(tooMany.text).toContain('at most 10 redirect URIs')
  })

  test('the client secret is shown once; rolling it shows a new one and the old one stops working at once', async () => {
    const made = await register({
      name: 'Secret Keeper',
      redirect_uris: 'https://keeper.example/cb\nhttp://127.0.0.1/cb',
    })
    expect(made.status).toBe(200)
    const [secret] = secretsOn(made.text, 'inv_cs_')
    expect(secret).toBeString()
    const clientId = clientIdOn(made.text)
    expect(await authenticates(clientId, secret!)).toBe(200)
    const page = await browser.get(`/app/profile/apps/${clientId}`)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain(secret!)
    expect(page.text).toContain('https://keeper.example/cb')

    const rolled = await browser.submit(`/app/profile/apps/${clientId}`, {}, `/app/profile/apps/${clientId}/roll`)
    expect(rolled.status).toBe(200)
    const [fresh] = secretsOn(rolled.text, 'inv_cs_')
    expect(fresh).not.toBe(secret)
    expect(await authenticates(clientId, secret!)).toBe(401)
    expect(await authenticates(clientId, fresh!)).toBe(200)
  })

  test('a public app has no secret to show or roll', async () => {
    const made = await register({ name: 'Native Tool', redirect_uris: 'http://127.0.0.1/callback', public: '1' })
    expect(made.status).toBe(200)
    expect(secretsOn(made.text, 'inv_cs_')).toEqual([])
    const clientId = clientIdOn(made.text)
    const page = await browser.get(`/app/profile/apps/${clientId}`)
    expect(page.text).not.toContain('Roll the client secret')
    const roll = await browser.request('POST', `/app/profile/apps/${clientId}/roll`, { _csrf: csrfOf(page.text) })
    expect(roll.status).toBe(422)
    const row = await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()
    expect(row!.clientSecretHash).toBeNull()
  })

  test('redirect URIs are edited under the same rules; the authorization endpoint then follows the new list', async () => {
    const made = await register({ name: 'Moving App', redirect_uris: 'https://old.example/cb' })
    const clientId = clientIdOn(made.text)
    const bad = await browser.submit(`/app/profile/apps/${clientId}`, {
      name: 'Moving App',
      redirect_uris: 'ftp://new.example/cb',
    })
    expect(bad.status).toBe(422)
    expect(bad.text).toContain('line 1:')
    const ok = await browser.submit(`/app/profile/apps/${clientId}`, {
      name: 'Moved App',
      redirect_uris: 'https://new.example/cb',
    })
    expect(ok.status).toBe(303)
    expect(ok.location).toBe(`/app/profile/apps/${clientId}?done=saved`)
    const authorize = (uri: string) =>
      h.app.fetch(
        new Request(
          `${ISSUER}/oauth/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: uri, response_type: 'code', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`,
        ),
      )
    expect((await authorize('https://old.example/cb')).status).toBe(400)
    expect((await authorize('https://new.example/cb')).status).toBe(303)
    expect((await browser.get(`/app/profile/apps/${clientId}`)).text).toContain('Moved App')
  })

  test('a change without its CSRF token is 403 and changes nothing; another person’s app is 404', async () => {
    const made = await register({ name: 'Guarded App', redirect_uris: 'https://guarded.example/cb' })
    const clientId = clientIdOn(made.text)
    for (const path of [
      `/app/profile/apps/${clientId}/delete`,
      `/app/profile/apps/${clientId}/roll`,
      '/app/profile/apps',
    ]) {
      const forged = await browser.request('POST', path, { name: 'x', redirect_uris: 'https://x.example/cb' })
      expect(forged.status).toBe(403)
    }
    expect(await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()).toBeDefined()
    const other = await person(h, { email: 'other@apps.example' })
    const stranger = new AppClient(h)
    await stranger.signIn(other.email, other.password)
    expect((await stranger.get(`/app/profile/apps/${clientId}`)).status).toBe(404)
    expect((await stranger.get('/app/profile/apps/%E0%A4%A')).status).toBe(404)
    const mine = await stranger.get('/app/profile/apps')
    const refused = await stranger.request('POST', `/app/profile/apps/${clientId}/delete`, { _csrf: csrfOf(mine.text) })
    expect(refused.status).toBe(404)
    expect(await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()).toBeDefined()
  })
})

describe("the app's webhook and its deliveries", () => {
  test('set with the app (secret shown once), deliveries listed, Resend makes a new delivery with the same webhook-id; paused, left or Free: refused', async () => {
    const made = await register({
      name: 'Hook App',
      redirect_uris: 'https://hook.example/cb',
      webhook_url: hookUrl,
      public: '1',
    })
    expect(made.status).toBe(200)
    expect(secretsOn(made.text, 'whsec_')).toHaveLength(1)
    const clientId = clientIdOn(made.text)
    const b = await h.business({ name: 'Heard GmbH' })
    const c = await connectApp(h, { businessId: b.id, clientId, role: 'member', email: 'connector@heard.example' })
    const doc = await issueInvoice(h, b.key, await h.client(b.key))
    received.length = 0
    await runJobs()
    expect(received).toHaveLength(1)

    const at = `/app/profile/apps/${clientId}`
    const page = await browser.get(at)
    expect(page.text).toContain('document.issued')
    expect(page.text).toContain('Heard GmbH')
    expect(page.text).toContain('answered 200')
    const [first] = await deliveriesOf(b.id)
    const resend = await browser.request('POST', `${at}/deliveries/${first!.id}/resend`, { _csrf: csrfOf(page.text) })
    expect(resend.status).toBe(303)
    expect(resend.location).toBe(`${at}?done=delivery_resent`)
    const all = await deliveriesOf(b.id)
    expect(all).toHaveLength(2)
    expect(all[1]).toMatchObject({
      messageId: first!.messageId,
      eventType: 'document.issued',
      status: 'pending',
      outboxId: first!.outboxId,
    })
    await runJobs()
    expect(received).toHaveLength(2)
    expect(JSON.parse(received[1]!).data.document.id).toBe(doc.id)

    // Paused: webhook_paused.
    expect((await browser.submit(at, {}, `${at}/webhook/pause`)).status).toBe(303)
    const paused = await browser.submit(at, {}, `${at}/deliveries/${first!.id}/resend`)
    expect(paused.status).toBe(422)
    expect(paused.text).toContain('data-code="webhook_paused"')
    expect((await browser.submit(at, {}, `${at}/webhook/resume`)).status).toBe(303)

    // The Business on the Free plan: webhooks_need_a_paid_plan.
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'free' })
    const free = await browser.submit(at, {}, `${at}/deliveries/${first!.id}/resend`)
    expect(free.status).toBe(422)
    expect(free.text).toContain('data-code="webhooks_need_a_paid_plan"')
    await updateBusiness(h.deps.db, h.clock, b.id, { plan: 'pro' })

    // The app left the Business: app_not_connected, and nothing new is made.
    await disconnectConnectedApp(h.deps.db, h.clock, b.id, c.connectedAppId)
    const left = await browser.submit(at, {}, `${at}/deliveries/${first!.id}/resend`)
    expect(left.status).toBe(422)
    expect(left.text).toContain('data-code="app_not_connected"')
    expect(await deliveriesOf(b.id)).toHaveLength(2)
  })

  test("the webhook's address and events change (the secret is kept); a refused address is 422 under it", async () => {
    const made = await register({ name: 'Changing Hook', redirect_uris: 'https://changing.example/cb' })
    const clientId = clientIdOn(made.text)
    const at = `/app/profile/apps/${clientId}`
    const set = await browser.submit(at, { url: hookUrl }, `${at}/webhook`)
    expect(set.status).toBe(200)
    expect(secretsOn(set.text, 'whsec_')).toHaveLength(1)
    const refused = await browser.submit(at, { url: 'https://user:pw@hooks.example/x' }, `${at}/webhook`)
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('must not carry a user name or password')
    const changed = await browser.submit(at, { url: `${hookUrl}/v2`, events: ['payment.recorded'] }, `${at}/webhook`)
    expect(changed.status).toBe(303)
    const page = await browser.get(at)
    expect(page.text).toContain(`${hookUrl}/v2`)
    expect(page.text).toMatch(/value="payment.recorded" checked/)
    expect(secretsOn(page.text, 'whsec_')).toEqual([])
  })

  test('deleting the app ends its connections (401), deletes its webhook and deliveries', async () => {
    const made = await register({
      name: 'Doomed App',
      redirect_uris: 'https://doomed.example/cb',
      webhook_url: hookUrl,
      public: '1',
    })
    const clientId = clientIdOn(made.text)
    const b = await h.business({ name: 'Doomed Client GmbH' })
    const c = await connectApp(h, { businessId: b.id, clientId, role: 'viewer', email: 'connector@doomed.example' })
    const doc = await issueInvoice(h, b.key, await h.client(b.key))
    await runJobs()
    expect(await deliveriesOf(b.id)).toHaveLength(1)
    expect((await h.request('GET', '/v1/business', { key: c.access })).status).toBe(200)
    const gone = await browser.submit(`/app/profile/apps/${clientId}`, {}, `/app/profile/apps/${clientId}/delete`)
    expect(gone.status).toBe(303)
    expect(gone.location).toBe('/app/profile/apps?done=app_deleted')
    expect((await h.request('GET', '/v1/business', { key: c.access })).status).toBe(401)
    expect(await deliveriesOf(b.id)).toHaveLength(0)
    expect(await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()).toBeUndefined()
    expect((await browser.get(`/app/profile/apps/${clientId}`)).status).toBe(404)
  })
})
