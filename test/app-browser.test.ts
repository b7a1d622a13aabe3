// The application in a real browser (Debian's chromium driven by playwright-core): a person added with the CLI opens
// the link, chooses a password, creates an API key that works on the API, adds a webhook and sees its delivery after
// an event, revokes the key, signs out and in again. Every request the browser makes stays inside the service.
// Screenshots of the main pages, wide (1280) and narrow (390), go to test-output/screenshots/ (not committed).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type Page } from 'playwright-core'
import { launchChromium } from './browser'
import { makeHarness, type Harness } from './harness'
import { deliveryContext } from '../src/jobs/webhooks'
import { deliverDue, dispatchOutbox } from '../src/modules/webhooks'

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
  // The port is known only once bound: the public URL (for links) follows it, so the harness is built after a probe.
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

const bun = './node_modules/.bin/bun'
function cli(args: string[]): any {
  const p = Bun.spawnSync([bun, 'src/main.ts', ...args, '--db', h.deps.config.dbPath, '--json'], {
    cwd: `${import.meta.dir}/..`,
    env: { ...process.env, INVOICING_DB: '', INVOICING_PUBLIC_URL: origin },
  })
  if (p.exitCode !== 0) throw new Error(`cli ${args.join(' ')}: ${p.stderr}`)
  return JSON.parse(p.stdout.toString())
}

/** Both widths of the page now open: a wide laptop and a narrow phone. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [width, label] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 })
    // A link clicked just before may still be loading its page: measure the page it brings, once it stands.
    await page.waitForLoadState('load')
    // Polled on a timer, not on animation frames: a page mid-navigation or resized may not paint for a while.
    await page.waitForFunction(
      () => document.readyState === 'complete' && document.documentElement !== null,
      undefined,
      { polling: 100 },
    )
    // Nothing runs wider than the window: tables scroll inside their own box.
    expect({ name, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ name, width })
    await page.screenshot({ path: join(SHOTS, `${name}-${label}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

describe('the application in a browser', () => {
  // A generous limit: a dozen pages and screenshots in chromium take 10 s on a quiet machine, over 30 s on a loaded one.
  test('from the CLI link to a working API key, a webhook delivery, revocation and sign-out', async () => {
    const added = cli(['person', 'add', '--email', 'olivia@example.com', '--name', 'Olivia Owner'])
    const b = cli([
      'business',
      'create',
      '--name',
      'Olivia Trading GmbH',
      '--country',
      'DE',
      '--currency',
      'EUR',
      '--email',
      'office@olivia.example',
      '--owner',
      'olivia@example.com',
    ])
    expect(added.sign_in_link).toStartWith(`${origin}/app/sign-in/link/`)

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    // Each step may wait 60 s, not Playwright's 30: one CI run failed a step at 30 s that takes well under one here
    // (the failure report below now says which). A page that never comes still fails, within the test's 120 s.
    page.setDefaultTimeout(60_000)
    const outside: string[] = []
    const failures: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) outside.push(r.url())
    })
    page.on('console', (m) => {
      // A refused form answers 4xx on purpose (the wrong password below); anything else logged as an error is a fault.
      if (m.type() === 'error' && !/status of 4\d\d/.test(m.text())) failures.push(m.text())
    })
    page.on('pageerror', (e) => failures.push(String(e)))
    // Where the page went and when: a failure reports this trail, and the page as it stood, to tell a slow machine
    // from a page that never came.
    const started = Date.now()
    const trail: string[] = []
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) trail.push(`${((Date.now() - started) / 1000).toFixed(1)}s ${f.url()}`)
    })
    try {
      // The link opens the form to choose a password; once chosen, the person is signed in.
      await page.goto(added.sign_in_link)
      await shoot(page, '01-choose-password')
      await page.getByLabel('New password').fill('olivia picks a long one')
      await page.getByRole('button', { name: 'Save and sign in' }).click()
      await page.waitForURL(`${origin}/app/b/${b.business_id}`)
      await shoot(page, '02-home')

      // Settings → API keys: create one; it is shown once and works on GET /v1/business.
      await page.getByRole('link', { name: 'Settings' }).click()
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click()
      await page.getByLabel('Name').fill('bookkeeping export')
      await page.getByLabel('Role').selectOption('admin')
      await page.getByRole('button', { name: 'Create key' }).click()
      const key = (await page.locator('code.secret').textContent())!.trim()
      expect(key).toStartWith('inv_')
      await shoot(page, '03-key-created')
      const auth = { authorization: `Bearer ${key}` }
      const business = await fetch(`${origin}/v1/business`, { headers: auth })
      expect(business.status).toBe(200)
      expect((await business.json()).business_id).toBe(b.business_id)

      // Settings → Webhooks: add one for every event; its secret is shown once.
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click()
      await page.getByLabel('Address').fill(`http://localhost:${receiver.port}/hook`)
      await page.getByRole('button', { name: 'Add webhook' }).click()
      await expect(page.locator('code.secret').textContent()).resolves.toMatch(/^whsec_/)
      await shoot(page, '04-webhooks')

      // An event: an Invoice issued through the API with the new key; the jobs the scheduler runs deliver it.
      const client = await (
        await fetch(`${origin}/v1/clients`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Acme GmbH', email: 'billing@acme.example', country: 'DE' }),
        })
      ).json()
      const draft = await (
        await fetch(`${origin}/v1/documents`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            type: 'invoice',
            client_id: client.id,
            lines: [{ description: 'Consulting', quantity: '1', unit_price: '100.00', vat_rate: '19.00' }],
          }),
        })
      ).json()
      expect((await fetch(`${origin}/v1/documents/${draft.id}/issue`, { method: 'POST', headers: auth })).status).toBe(
        200,
      )
      const jobs = deliveryContext(h.deps)
      await dispatchOutbox(jobs)
      await deliverDue(jobs)
      expect(received.some((body) => JSON.parse(body).type === 'document.issued')).toBe(true)

      await page.getByRole('link', { name: `http://localhost:${receiver.port}/hook` }).click()
      await page.getByText('document.issued').first().waitFor()
      await page.getByText('delivered').first().waitFor()
      await page
        .getByText(/1 attempt/)
        .first()
        .click()
      await page.getByText('answered 200').first().waitFor()
      await shoot(page, '05-webhook-deliveries')

      // Revoke the key: the API refuses it at once.
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click()
      await page.getByRole('button', { name: 'Revoke bookkeeping export' }).click()
      await page.getByText('The API key is revoked').waitFor()
      expect((await fetch(`${origin}/v1/business`, { headers: auth })).status).toBe(401)
      await shoot(page, '06-key-revoked')

      // The other settings pages and the profile, for the record of how they look.
      for (const [label, shot] of [
        ['Business setup', '07-business-setup'],
        ['Members', '08-members'],
        ['Mailbox', '09-mailbox'],
        ['Bank accounts', '10-bank-accounts'],
        ['Numbering', '11-numbering'],
        ['Billing', '12-billing'],
        ['Connected apps', '13-connected-apps'],
      ] as const) {
        await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: label }).click()
        await shoot(page, shot)
      }
      await page.getByRole('link', { name: 'Olivia Owner' }).click()
      await shoot(page, '14-profile')

      // Sign out, then back in through the form.
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(`${origin}/app/sign-in?signed_out=1`)
      await shoot(page, '15-signed-out')
      await page.goto(`${origin}/app/b/${b.business_id}/settings/keys`)
      await page.waitForURL(/\/app\/sign-in\?next=/)
      await page.getByLabel('Email').fill('OLIVIA@example.com')
      await page.getByLabel('Password').fill('a wrong password')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByText('do not match an account').waitFor()
      await expect(page.getByLabel('Email').inputValue()).resolves.toBe('OLIVIA@example.com')
      await shoot(page, '16-sign-in-refused')
      await page.getByLabel('Password').fill('olivia picks a long one')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL(`${origin}/app/b/${b.business_id}/settings/keys`)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL(/signed_out=1/)
    } catch (e) {
      await page.screenshot({ path: join(SHOTS, 'failure.png'), fullPage: true }).catch(() => {})
      const at = `${((Date.now() - started) / 1000).toFixed(1)}s`
      throw new Error(
        `${(e as Error).message}\n(failed at ${at} on ${page.url()}; pages opened:\n  ${trail.join('\n  ')})`,
        { cause: e },
      )
    }

    expect(outside).toEqual([])
    expect(failures).toEqual([])
    await context.close()
  }, 120_000)
})
