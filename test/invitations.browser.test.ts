// Issue 33's account takeover, end to end in a real browser (Debian's chromium driven by playwright-core) against the
// service on loopback and a real SMTP server: Alpha's Admin invites an email with no account, sees no link, and the
// link arrives by email; the Admin removes the person; Beta's Admin invites the same email; the membership in Beta is
// pending (403 on Beta's pages) until the person, signed in, accepts it; Alpha's Admin cannot sign in as them. The form
// answers known and unknown emails with the same page; with no way to send mail it adds nobody. Screenshots of the
// members page and the acceptance page, wide (1280) and narrow (390), go to test-output/screenshots/ (not committed).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, type Page } from 'playwright-core'
import { launchChromium, shootBothWidths } from './browser'
import { makeHarness, type Harness } from './harness'
import { person } from './app-client'
import { startTestSmtpServer, type TestSmtpServer } from '../src/adapters/smtp-test-server'
import { addMember, listMembers } from '../src/modules/people'

setDefaultTimeout(120_000)

const SHOTS = join(import.meta.dir, '..', 'test-output', 'screenshots')

let h: Harness
let smtp: TestSmtpServer
let server: ReturnType<typeof Bun.serve>
let browser: Browser
let origin: string

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  // The port is known only once bound: the public URL (for links) follows it, so the harness is built after a probe.
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
  const port = probe.port
  probe.stop(true)
  origin = `http://127.0.0.1:${port}`
  smtp = await startTestSmtpServer()
  h = await makeHarness({ config: { publicUrl: origin, port, mailRelay: smtp.url } })
  server = Bun.serve({ port, hostname: '127.0.0.1', fetch: (req, srv) => h.app.fetch(req, srv) })
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  server?.stop(true)
  await h?.close()
  await smtp?.close()
})

async function signedIn(email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  page.setDefaultTimeout(60_000)
  await page.goto(`${origin}/app/sign-in`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((u) => !u.pathname.startsWith('/app/sign-in'))
  return { context, page }
}

/** Fills and sends the invitation form of the members page now open; answers the page it leads to. */
async function invite(page: Page, email: string, role: string): Promise<string> {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Role', { exact: true }).selectOption(role)
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await page.waitForLoadState('load')
  return page.content()
}

/** The page's HTML without what differs by session or by the address typed. */
const normal = (html: string, email: string) =>
  html.replace(/name="_csrf" value="[^"]+"/g, 'CSRF').replaceAll(email, 'EMAIL')

const LINK = /http:\/\/127\.0\.0\.1:\d+\/app\/sign-in\/link\/[A-Za-z0-9_-]+/

describe('issue 33: an Admin cannot take over a person’s account in another Business', () => {
  test('the invitation goes to the email; Beta’s membership is pending until the person accepts it signed in', async () => {
    const alpha = await h.business({ name: 'Alpha Trading', email: 'office@alpha.example' })
    const beta = await h.business({ name: 'Beta Supplies', email: 'office@beta.example' })
    const gamma = await h.business({ name: 'Gamma Without Mail' })
    const alphaAdmin = await person(h, {
      email: 'admin@alpha.example',
      name: 'Alpha Admin',
      businessId: alpha.id,
      role: 'admin',
    })
    await addMember(h.deps, gamma.id, { email: alphaAdmin.email, role: 'admin' })
    const betaAdmin = await person(h, {
      email: 'admin@beta.example',
      name: 'Beta Admin',
      businessId: beta.id,
      role: 'admin',
    })
    const target = 'target@people.example'
    const members = (b: { publicId: string }) => `${origin}/app/b/${b.publicId}/settings/members`

    const a = await signedIn(alphaAdmin.email, alphaAdmin.password)
    const pagesOfAlphaAdmin: string[] = []
    a.page.on('response', async (r) => {
      if ((r.headers()['content-type'] ?? '').startsWith('text/html'))
        pagesOfAlphaAdmin.push(await r.text().catch(() => ''))
    })
    try {
      // A known email (Beta's Admin has an account) and an unknown one get the same page, but for the address.
      await a.page.goto(members(alpha))
      const known = normal(await invite(a.page, betaAdmin.email, 'member'), betaAdmin.email)
      await a.page.getByRole('button', { name: `Remove ${betaAdmin.email}` }).click()
      await a.page.getByText('The member is removed').waitFor()
      const before = smtp.received.length
      const unknown = normal(await invite(a.page, target, 'member'), target)
      expect(unknown).toEqual(known)
      await a.page.getByText('Invitation sent').waitFor()
      expect(await a.page.content()).not.toMatch(/sign-in\/link\//)
      await shootBothWidths(a.page, SHOTS, 'invite-01-members-invited')

      // The link arrived at the real SMTP server, addressed to the person, from Alpha.
      const mail = smtp.received.slice(before).find((m) => m.envelope.to.includes(target))!
      expect(mail.mail.subject).toBe('Alpha Trading invites you to invoicing')
      expect(mail.mail.text).toContain('Alpha Admin invites you to Alpha Trading as Member')
      expect(mail.mail.text).toMatch(LINK)

      // The Admin removes the person; nothing the Admin's browser ever received held a link.
      await a.page.getByRole('button', { name: `Remove ${target}` }).click()
      await a.page.getByText('The member is removed').waitFor()
      expect(pagesOfAlphaAdmin.length).toBeGreaterThan(3)
      for (const html of pagesOfAlphaAdmin) expect(html).not.toMatch(/sign-in\/link\//)

      // Without a way to send mail (Gamma has neither mailbox nor address), the page says so and adds nobody.
      await a.page.goto(members(gamma))
      await invite(a.page, target, 'admin')
      await a.page.getByText('has no way to send email').waitFor()
      expect((await listMembers(h.deps, gamma.id)).map((m) => m.email)).toEqual([alphaAdmin.email])
      await shootBothWidths(a.page, SHOTS, 'invite-02-members-no-mail')
    } finally {
      await a.context.close()
    }

    // Later, Beta's Admin invites the same email: pending.
    const b = await signedIn(betaAdmin.email, betaAdmin.password)
    const before = smtp.received.length
    await b.page.goto(members(beta))
    await invite(b.page, target, 'admin')
    await b.page.getByText('Invited, pending').waitFor()
    await b.context.close()
    expect((await listMembers(h.deps, beta.id)).find((m) => m.email === target)?.state).toBe('pending')
    const link = LINK.exec(smtp.received.slice(before).find((m) => m.envelope.to.includes(target))!.mail.text!)![0]

    // Alpha's Admin tries to sign in as the person: there is no password they know (nor any link they hold).
    const intruder = await browser.newContext()
    const ip = await intruder.newPage()
    await ip.goto(`${origin}/app/sign-in`)
    await ip.getByLabel('Email').fill(target)
    await ip.getByLabel('Password').fill(alphaAdmin.password)
    await ip.getByRole('button', { name: 'Sign in' }).click()
    await ip.getByText('do not match an account').waitFor()
    await intruder.close()

    // The person opens their own link, chooses a password and lands on the invitation; Beta stays closed till they accept.
    const t = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await t.newPage()
    page.setDefaultTimeout(60_000)
    await page.goto(link)
    await page.getByLabel('New password').fill('the target chooses this')
    await page.getByRole('button', { name: 'Save and sign in' }).click()
    await page.waitForURL(`${origin}/app/invitations`)
    await page.getByRole('heading', { name: 'Beta Supplies' }).waitFor()
    await shootBothWidths(page, SHOTS, 'invite-03-accept')
    const closed = await page.goto(`${origin}/app/b/${beta.publicId}`)
    expect(closed!.status()).toBe(403)
    await page.goto(`${origin}/app/invitations`)
    await page.getByRole('button', { name: 'Accept the invitation of Beta Supplies' }).click()
    await page.waitForURL(`${origin}/app/b/${beta.publicId}?done=invitation_accepted`)
    expect((await page.goto(`${origin}/app/b/${beta.publicId}/settings/members`))!.status()).toBe(200)
    expect((await listMembers(h.deps, beta.id)).find((m) => m.email === target)?.state).toBe('active')
    await t.close()
  })
})
