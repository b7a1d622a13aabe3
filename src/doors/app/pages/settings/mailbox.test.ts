// The mailbox page over HTTP against a real database and a real SMTP server: host, port, security, username, password
// and From asked one by one; stored sealed as the CLI stores it (the file never holds the password in clear); the
// password never shown back and kept when left blank; each bad part 422 under its field with nothing changed; a
// document sent afterwards logs in to the server with exactly that username and password.
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { draftFor, makeHarness, type Harness } from '../../../../../test/harness'
import { AppClient, csrfOf, person } from '../../../../../test/app-client'
import { startTestSmtpServer, type TestSmtpServer } from '../../../../adapters/smtp-test-server'
import { parseSmtpUrl } from '../../../../adapters/smtp'

setDefaultTimeout(60_000)

let h: Harness
let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startTestSmtpServer()
  // The test server is on loopback and offers no STARTTLS: a Business's mailbox reaches it only as the operator allows.
  h = await makeHarness({ config: { rateLimit: 1_000_000, smtpAllowPrivate: true, smtpAllowPlainLogin: true } })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})
beforeEach(() => {
  smtp.received.length = 0
  smtp.credentials = null
})

// Characters a URL would break on: the page must encode them, not the person.
const PASSWORD = 'p@ss:w/rd%?#&ü 1'

let n = 0
async function owner(role: 'owner' | 'admin' | 'member' | 'viewer' = 'owner') {
  n++
  const b = await h.business({ name: `Mail ${n}` })
  const p = await person(h, { email: `${role}${n}@mail.example`, businessId: b.id, role })
  const browser = new AppClient(h)
  await browser.signIn(p.email, p.password)
  return { ...b, browser, base: `/app/b/${b.publicId}` }
}

async function storedUrl(businessId: number): Promise<string | null> {
  const rows = await h.deps.db.read.all<{ smtp_url: string }>(
    sql`SELECT smtp_url FROM mailboxes WHERE business_id = ${businessId}`,
  )
  return rows[0]?.smtp_url ?? null
}

function errorUnder(html: string, field: string): string | null {
  const m = new RegExp(`<p class="err" id="f-${field}-err">([^<]*)</p>`).exec(html)
  return m ? m[1]! : null
}

describe('the mailbox page', () => {
  test('host, port, security, username, password and From are stored sealed as one SMTP URL; the page shows every part but the password', async () => {
    const t = await owner()
    const saved = await t.browser.submit(`${t.base}/settings/mailbox`, {
      host: 'smtp.example.com',
      port: '2525',
      security: 'tls',
      username: 'office@example.com',
      password: PASSWORD,
      from: 'office@example.com',
    })
    expect(saved.status).toBe(303)
    const sealed = (await storedUrl(t.id))!
    expect(sealed).toStartWith('enc:v1:')
    expect(sealed).not.toContain('p@ss')
    expect(parseSmtpUrl(h.deps.db.secrets.open(sealed, 'smtp-url'))).toEqual({
      secure: true,
      host: 'smtp.example.com',
      port: 2525,
      user: 'office@example.com',
      pass: PASSWORD,
    })
    expect((await h.request('GET', '/v1/business', { key: t.key })).body.mail_provider).toEqual({
      kind: 'smtp',
      address: 'office@example.com',
    })

    const page = await t.browser.get(`${t.base}/settings/mailbox`)
    expect(page.text).toContain('value="smtp.example.com"')
    expect(page.text).toContain('value="2525"')
    expect(page.text).toContain('<option value="tls" selected>')
    expect(page.text).toContain('value="office@example.com"')
    expect(page.text).toContain('A password is stored')
    expect(page.text).toMatch(/<input id="f-password" name="password" type="password" value=""/)
    for (const part of ['p@ss', 'w/rd', encodeURIComponent(PASSWORD)]) expect(page.text).not.toContain(part)
  })

  test('a blank password keeps the stored one while other parts change; a blank port takes 587 with STARTTLS', async () => {
    const t = await owner()
    await t.browser.submit(`${t.base}/settings/mailbox`, {
      host: 'smtp.example.com',
      port: '465',
      security: 'tls',
      username: 'office',
      password: PASSWORD,
      from: 'office@example.com',
    })
    const changed = await t.browser.submit(`${t.base}/settings/mailbox`, {
      host: 'mail.example.net',
      port: '',
      security: 'starttls',
      username: 'office',
      password: '',
      from: 'billing@example.net',
    })
    expect(changed.status).toBe(303)
    expect(parseSmtpUrl(h.deps.db.secrets.open((await storedUrl(t.id))!, 'smtp-url'))).toEqual({
      secure: false,
      host: 'mail.example.net',
      port: 587,
      user: 'office',
      pass: PASSWORD,
    })
  })

  test('each bad part is 422 with its error under its field, what was typed kept (never the password), and the stored mailbox unchanged', async () => {
    const t = await owner()
    await t.browser.submit(`${t.base}/settings/mailbox`, {
      host: 'smtp.example.com',
      security: 'starttls',
      username: 'office',
      password: PASSWORD,
      from: 'office@example.com',
    })
    const before = await storedUrl(t.id)
    const refused = await t.browser.submit(`${t.base}/settings/mailbox`, {
      host: 'smtp example com',
      port: '70000',
      security: 'plain',
      username: '',
      password: 'new secret',
      from: 'not-an-address',
    })
    expect(refused.status).toBe(422)
    expect(errorUnder(refused.text, 'host')).toContain('host name or IP address')
    expect(errorUnder(refused.text, 'port')).toContain('1 to 65535')
    expect(refused.text).toContain('must be one of starttls, tls')
    expect(errorUnder(refused.text, 'username')).toBe('is required with a password')
    expect(errorUnder(refused.text, 'from')).toBe('must be an email address')
    expect(refused.text).toContain('value="smtp example com"')
    expect(refused.text).not.toContain('new secret')
    expect(await storedUrl(t.id)).toBe(before)
    const blank = await t.browser.submit(`${t.base}/settings/mailbox`, { host: '', from: '' })
    expect(blank.status).toBe(422)
    expect(errorUnder(blank.text, 'host')).toContain('is required')
    expect(errorUnder(blank.text, 'from')).toBe('is required')
    expect(await storedUrl(t.id)).toBe(before)
  })

  test('without the form token, or from a Member or a Viewer, nothing is stored (403)', async () => {
    const t = await owner()
    const form = { host: 'smtp.example.com', username: 'office', password: PASSWORD, from: 'office@example.com' }
    expect((await t.browser.request('POST', `${t.base}/settings/mailbox`, form)).status).toBe(403)
    for (const role of ['member', 'viewer'] as const) {
      const m = await owner(role)
      const token = csrfOf((await m.browser.get(m.base)).text)
      expect((await m.browser.request('POST', `${m.base}/settings/mailbox`, { _csrf: token, ...form })).status).toBe(
        403,
      )
      expect(await storedUrl(m.id)).toBeNull()
    }
    expect(await storedUrl(t.id)).toBeNull()
  })

  test('a document sent after the mailbox is set on the page logs in to the SMTP server with that username and password', async () => {
    const t = await owner()
    smtp.credentials = { user: 'office@example.com', pass: PASSWORD }
    // The page's form for the test SMTP server, logging in as office@example.com.
    const setMailbox = (password: string, from: string) =>
      t.browser.submit(`${t.base}/settings/mailbox`, {
        host: '127.0.0.1',
        port: String(smtp.port),
        security: 'starttls',
        username: 'office@example.com',
        password,
        from,
      })
    expect((await setMailbox(PASSWORD, 'office@example.com')).status).toBe(303)
    // Changing the From address with the password left blank still logs in with the stored one.
    expect((await setMailbox('', 'invoices@example.com')).status).toBe(303)
    const client = await h.client(t.key, { name: 'Acme GmbH', email: 'ap@acme.example' })
    const doc = await draftFor(
      h,
      { bizId: t.id, key: t.key, clientId: client },
      { lines: [{ description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19' }] },
    )
    const sent = await h.request('POST', `/v1/documents/${doc.id}/send`, { key: t.key })
    expect(sent.status).toBe(200)
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.login).toEqual({ user: 'office@example.com', pass: PASSWORD })
    expect(smtp.received[0]!.envelope.from).toBe('invoices@example.com')
  })
})
