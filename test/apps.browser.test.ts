// Profile → Apps in a real browser (Debian's chromium driven by playwright-core): a person registers an OAuth app with
// a webhook, copies the client secret shown once, rolls it, edits the redirect URIs, sees the webhook's deliveries after
// an event in a Business the app is connected to, resends one, and deletes the app. Every request stays inside the
// service. Screenshots, wide (1280) and narrow (390), go to test-output/screenshots/ (not committed).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type Page } from 'playwright-core'
import { launchChromium } from './browser'
import { makeHarness, type Harness } from './harness'
import { person } from './app-client'
import { connectApp } from './oauth'
import { appDeliveryContext } from '../src/jobs/webhooks'
import { deliverDueAppWebhooks, dispatchAppWebhooks } from '../src/modules/oauth'
import { eq } from 'drizzle-orm'
import { oauthApps } from '../src/db/schema'

setDefaultTimeout(120_000)

const SHOTS = join(import.meta.dir, '..', 'test-output', 'screenshots')

let h: Harness
let server: ReturnType<typeof Bun.serve>
let receiver: ReturnType<typeof Bun.serve>
let browser: Browser
let origin: string
const received: string[] = []

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  const probe = Bun.serve({ port: 0, fetch: () => new Response('') })
  const port = probe.port
  probe.stop(true)
  origin = `http://127.0.0.1:${port}`
  h = await makeHarness({ config: { webhookAllowPrivate: true, publicUrl: origin, port } })
  server = Bun.serve({ port, hostname: '127.0.0.1', fetch: (req, srv) => h.app.fetch(req, srv) })
  receiver = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (req) => {
      received.push(await req.text())
      return new Response('thanks')
    },
  })
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  server?.stop(true)
  receiver?.stop(true)
  await h?.close()
})

/** Both widths of the page now open; nothing may run wider than the window. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [width, label] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 })
    expect({ name, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ name, width })
    await page.screenshot({ path: join(SHOTS, `${name}-${label}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** Client authentication at /oauth/revoke: 200 with the app's secret, 401 with any other. */
async function authenticates(clientId: string, secret: string): Promise<number> {
  const res = await fetch(`${origin}/oauth/revoke`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${btoa(`${clientId}:${secret}`)}`,
    },
    body: new URLSearchParams({ token: 'inv_at_nothing' }),
  })
  return res.status
}

describe('Profile → Apps in a browser', () => {
  test('register with a webhook, secret once, roll it, edit redirect URIs, deliveries and Resend, delete', async () => {
    const dev = await person(h, { email: 'dev@ledger.example', name: 'Dana Developer' })
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const outside: string[] = []
    const failures: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) outside.push(r.url())
    })
    page.on('console', (m) => {
      // A refused form answers 4xx on purpose below; anything else logged as an error is a fault.
      if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) failures.push(m.text())
    })
    page.on('pageerror', (e) => failures.push(String(e)))

    await page.goto(`${origin}/app/sign-in`)
    await page.getByLabel('Email').fill(dev.email)
    await page.getByLabel('Password').fill(dev.password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(/\/app/)
    await page.goto(`${origin}/app/profile`)
    await page.getByRole('navigation', { name: 'Profile' }).getByRole('link', { name: 'Apps' }).click()
    await page.waitForURL(`${origin}/app/profile/apps`)
    await shoot(page, 'apps-01-empty')

    // A refused registration keeps what was typed and names the line at fault.
    await page.getByLabel('Name').fill('Ledger Sync')
    await page
      .getByLabel('Redirect URIs, one per line')
      .fill('https://ledger.example/callback\nhttp://ledger.example/insecure')
    await page.getByRole('button', { name: 'Register app' }).click()
    await page.getByText('line 2: must be https://').waitFor()
    await shoot(page, 'apps-02-refused')

    await page
      .getByLabel('Redirect URIs, one per line')
      .fill('https://ledger.example/callback\nhttp://127.0.0.1/callback')
    await page.getByLabel('Webhook address (optional)').fill(`http://localhost:${receiver.port}/hook`)
    await page.getByRole('button', { name: 'Register app' }).click()
    const secrets = await page.locator('code.secret').allTextContents()
    expect(secrets).toHaveLength(2)
    const clientSecret = secrets.find((s) => s.startsWith('inv_cs_'))!
    expect(secrets.some((s) => s.startsWith('whsec_'))).toBe(true)
    const clientId = (await page.locator('.notice.ok code').textContent())!.trim()
    expect(clientId).toStartWith('app_')
    expect(await authenticates(clientId, clientSecret)).toBe(200)
    await shoot(page, 'apps-03-registered')

    // The app's page: the secret is not shown again; rolling it shows a new one and the old one stops at once.
    await page.getByRole('link', { name: 'Open the app' }).click()
    await page.waitForURL(`${origin}/app/profile/apps/${clientId}`)
    expect(await page.content()).not.toContain(clientSecret)
    await page.getByRole('button', { name: 'Roll the client secret' }).click()
    const rolled = (await page.locator('code.secret').textContent())!.trim()
    expect(rolled).toStartWith('inv_cs_')
    expect(await authenticates(clientId, clientSecret)).toBe(401)
    expect(await authenticates(clientId, rolled)).toBe(200)

    // Redirect URIs edited: one removed, one added.
    await page
      .getByLabel('Redirect URIs, one per line')
      .fill('https://ledger.example/callback\nhttps://ledger.example/v2/callback')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.getByText('Saved.').waitFor()
    expect(await page.getByLabel('Redirect URIs, one per line').inputValue()).toBe(
      'https://ledger.example/callback\nhttps://ledger.example/v2/callback',
    )

    // Connected to a Business, the app's webhook hears its events; the deliveries list shows them.
    const b = await h.business({ name: 'Werkstatt Süd GmbH' })
    await connectApp(h, {
      businessId: b.id,
      clientId,
      clientSecret: rolled,
      role: 'member',
      email: 'books@werkstatt.example',
    })
    const clientRef = await h.client(b.key)
    const doc = await h.request('POST', '/v1/documents', {
      key: b.key,
      body: {
        type: 'invoice',
        client_id: clientRef,
        lines: [{ description: 'Wartung', quantity: '1', unit_price: '250.00', vat_rate: '19' }],
      },
    })
    expect((await h.request('POST', `/v1/documents/${doc.body.id}/issue`, { key: b.key })).status).toBe(200)
    const ctx = { ...appDeliveryContext(h.deps), jitter: () => 0 }
    await dispatchAppWebhooks(ctx)
    while ((await deliverDueAppWebhooks(ctx)) > 0) {}
    expect(received).toHaveLength(1)
    await page.reload()
    await page.getByRole('cell', { name: /document\.issued/ }).waitFor()
    await page.locator('details summary').first().click()
    await shoot(page, 'apps-04-app-with-deliveries')

    await page.getByRole('button', { name: 'Resend' }).first().click()
    await page.getByText('The message is sent again as a new delivery.').waitFor()
    await dispatchAppWebhooks(ctx)
    while ((await deliverDueAppWebhooks(ctx)) > 0) {}
    expect(received).toHaveLength(2)
    expect(JSON.parse(received[1]!).type).toBe('document.issued')

    // Deleted: its connection ends, its page is gone.
    await page.getByRole('button', { name: 'Delete Ledger Sync' }).click()
    await page.waitForURL(`${origin}/app/profile/apps?done=app_deleted`)
    await page.getByText('The app is deleted').waitFor()
    await shoot(page, 'apps-05-deleted')
    expect(await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()).toBeUndefined()

    expect(outside).toEqual([])
    expect(failures).toEqual([])
    await context.close()
  })
})
