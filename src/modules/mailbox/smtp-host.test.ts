// A Business's own SMTP host obeys the webhooks' address rules (issue 33): loopback and private hosts are refused at
// save (422 naming the field) and at send (the name resolved, every address checked, the connection made to the
// address checked), unless the operator allows them; a login never crosses without TLS unless the operator allows it;
// a closed port and a silent one answer alike. The service's own relay is the operator's and is not judged so.
// Against a real SMTP server on loopback.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { draftFor, makeHarness, type Harness } from '../../../test/harness'
import { AppClient, person } from '../../../test/app-client'
import { cli } from '../../../test/processes'
import { closedPort, startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'
import { smtpMailer } from '../../adapters/smtp'
import type { Config } from '../../config'
import type { Resolver } from '../webhooks'
import { setMailbox } from '.'

setDefaultTimeout(30_000)

let smtp: TestSmtpServer
const open: Harness[] = []
beforeAll(async () => {
  smtp = await startTestSmtpServer()
})
afterAll(async () => {
  for (const h of open) await h.close()
  await smtp.close()
})

// Names no DNS server knows, answered by this resolver alone (the mailer must connect where it says).
const NAMES: Record<string, string[]> = {
  'mail.local-relay.example': ['127.0.0.1'],
  'mail.mixed.example': ['93.184.215.14', '10.1.2.3'],
}
const resolve: Resolver = async (host) => {
  const found = NAMES[host]
  if (!found) throw new Error(`no such name ${host}`)
  return found
}
const FAST = { connectionMs: 800, greetingMs: 800, socketMs: 5000 }

async function harness(config: Partial<Config> = {}): Promise<Harness> {
  const h = await makeHarness({
    config: { rateLimit: 1_000_000, ...config },
    overrides: { resolve, mailer: smtpMailer(FAST) },
  })
  open.push(h)
  return h
}

/** A Draft of one line of 100.00 at 19 % for a new Client, Acme, of the Business. */
async function acmeDraft(h: Harness, b: { id: number; key: string }): Promise<any> {
  const clientId = await h.client(b.key, { name: 'Acme', email: 'ap@acme.example' })
  const line = { description: 'Work', quantity: '1', unit_price: '100.00', vat_rate: '19' }
  return draftFor(h, { bizId: b.id, key: b.key, clientId }, { lines: [line] })
}

/** A Business with an address of its own, a Client and a Draft; its mailbox stored as given, past the save rules (as one stored before them). */
async function withMailbox(h: Harness, smtpUrl: string) {
  const b = await h.business({ email: 'office@shop.example' })
  await setMailbox(h.deps.db, h.clock, b.id, { smtpUrl, from: 'office@shop.example' }, { allowPrivate: true })
  const doc = await acmeDraft(h, b)
  const send = async () => {
    const started = performance.now()
    const r = await h.request('POST', `/v1/documents/${doc.id}/send`, { key: b.key })
    return { ...r, ms: performance.now() - started }
  }
  return { ...b, send }
}

const LOCAL_HOSTS = [
  '127.0.0.1',
  'localhost',
  '10.0.0.5',
  '192.168.1.10',
  '172.16.0.1',
  '169.254.169.254',
  '[::1]',
  '[::ffff:127.0.0.1]',
  '2130706433',
  '0.0.0.0',
  '100.64.0.1',
]

describe('saving a mailbox', () => {
  test('a loopback, private or reserved host is refused under the smtp field; a public one is taken; the operator setting allows the others', async () => {
    const h = await harness()
    const b = await h.business()
    for (const host of LOCAL_HOSTS) {
      await expect(
        setMailbox(h.deps.db, h.clock, b.id, { smtpUrl: `smtp://office@${host}:587`, from: 'office@shop.example' }),
      ).rejects.toMatchObject({
        errors: { smtp: [expect.stringContaining('public internet')] },
      })
    }
    expect((await h.request('GET', '/v1/business', { key: b.key })).body.mail_provider).toBeNull()
    await setMailbox(h.deps.db, h.clock, b.id, {
      smtpUrl: 'smtp://office@smtp.example.com:587',
      from: 'office@shop.example',
    })
    await setMailbox(h.deps.db, h.clock, b.id, { smtpUrl: 'smtps://office@93.184.215.14', from: 'office@shop.example' })
    const allowed = await harness({ smtpAllowPrivate: true })
    const a = await allowed.business()
    for (const host of LOCAL_HOSTS)
      await setMailbox(
        allowed.deps.db,
        allowed.clock,
        a.id,
        { smtpUrl: `smtp://office@${host}:587`, from: 'office@shop.example' },
        { allowPrivate: true },
      )
  })

  test('the settings page answers 422 under host for a loopback or private host and stores nothing', async () => {
    const h = await harness()
    const b = await h.business({ name: 'Page Ltd' })
    const p = await person(h, { email: 'owner@page.example', businessId: b.id, role: 'owner' })
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    for (const host of ['127.0.0.1', '10.0.0.5', 'localhost', '::1']) {
      const r = await browser.submit(`/app/b/${b.publicId}/settings/mailbox`, {
        host,
        port: '25',
        security: 'starttls',
        username: 'office',
        password: 'pw-123456',
        from: 'office@page.example',
      })
      expect(r.status).toBe(422)
      expect(/<p class="err" id="f-host-err">([^<]*)<\/p>/.exec(r.text)?.[1]).toContain('public internet')
    }
    expect((await h.request('GET', '/v1/business', { key: b.key })).body.mail_provider).toBeNull()
  })

  test('invoicing mail set refuses a loopback host in one line naming smtp, and takes it with INVOICING_SMTP_ALLOW_PRIVATE=1', async () => {
    const h = await harness()
    const b = await h.business()
    const args = [
      'mail',
      'set',
      String(b.id),
      '--smtp',
      'smtp://127.0.0.1:2525',
      '--from',
      'office@shop.example',
      '--db',
      h.deps.config.dbPath,
    ]
    const refused = cli(args)
    expect(refused.code).toBe(1)
    expect(refused.err.trim().split('\n')).toHaveLength(1)
    expect(refused.err).toContain('smtp: names a host that must be a mail server on the public internet')
    const taken = cli(args, { env: { INVOICING_SMTP_ALLOW_PRIVATE: '1' } })
    expect(taken.code, taken.err).toBe(0)
  })

  test('serve --help names both operator settings', () => {
    const help = cli(['serve', '--help'])
    expect(help.out).toContain('INVOICING_SMTP_ALLOW_PRIVATE=1')
    expect(help.out).toContain('INVOICING_SMTP_ALLOW_PLAIN_LOGIN=1')
  })
})

describe('sending through a mailbox', () => {
  test('a loopback host stored before the rule, or a name that resolves to a private address, is never connected to', async () => {
    const h = await harness()
    const before = smtp.connections
    for (const url of [
      `smtp://127.0.0.1:${smtp.port}`,
      `smtp://mail.local-relay.example:${smtp.port}`,
      `smtp://mail.mixed.example:${smtp.port}`,
    ]) {
      const r = await (await withMailbox(h, url)).send()
      expect(r.status).toBe(502)
      expect(r.body.error.type).toBe('not_delivered')
      expect(r.body.error.message).toContain('only to addresses on the public internet')
    }
    expect(smtp.connections).toBe(before)
    expect(smtp.received).toHaveLength(0)
  })

  test('with the operator setting, a name is resolved once and the connection goes to the address checked', async () => {
    const h = await harness({ smtpAllowPrivate: true, smtpAllowPlainLogin: true })
    smtp.received.length = 0
    // No DNS server knows this name: only the resolver the rules asked can have sent the mailer to 127.0.0.1.
    const r = await (await withMailbox(h, `smtp://mail.local-relay.example:${smtp.port}`)).send()
    expect(r.status, r.text).toBe(200)
    expect(smtp.received).toHaveLength(1)
  })

  test('no login crosses in clear: a server without STARTTLS is refused before AUTH unless the operator allows plain logins', async () => {
    const strict = await harness({ smtpAllowPrivate: true })
    smtp.received.length = 0
    const logins = smtp.logins
    smtp.credentials = { user: 'office', pass: 'pw-in-clear' }
    try {
      const refused = await (await withMailbox(strict, `smtp://office:pw-in-clear@127.0.0.1:${smtp.port}`)).send()
      expect(refused.status).toBe(502)
      expect(refused.text).not.toContain('pw-in-clear')
      expect(smtp.logins).toBe(logins)
      expect(smtp.received).toHaveLength(0)

      const plain = await harness({ smtpAllowPrivate: true, smtpAllowPlainLogin: true })
      const sent = await (await withMailbox(plain, `smtp://office:pw-in-clear@127.0.0.1:${smtp.port}`)).send()
      expect(sent.status, sent.text).toBe(200)
      expect(smtp.received[0]!.login).toEqual({ user: 'office', pass: 'pw-in-clear' })
    } finally {
      smtp.credentials = null
    }
  })

  test('a closed port and a port that never answers get the same answer, at the same time', async () => {
    const h = await harness({ smtpAllowPrivate: true, smtpAllowPlainLogin: true })
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    try {
      const closed = await (await withMailbox(h, `smtp://127.0.0.1:${await closedPort()}`)).send()
      const mute = await (await withMailbox(h, `smtp://127.0.0.1:${silent.port}`)).send()
      for (const r of [closed, mute]) {
        expect(r.status).toBe(502)
        expect(r.body.error.type).toBe('not_delivered')
        // Both at the connection timeout (800 ms here), neither at once.
        expect(r.ms).toBeGreaterThanOrEqual(780)
        expect(r.ms).toBeLessThan(2500)
      }
      expect(closed.body.error.message).toBe(mute.body.error.message)
      expect(Math.abs(closed.ms - mute.ms)).toBeLessThan(600)
    } finally {
      silent.stop(true)
    }
  })

  test("the service's own relay on loopback is the operator's: it sends with the tenant rules at their strictest", async () => {
    const h = await harness({ mailRelay: smtp.url })
    smtp.received.length = 0
    const b = await h.business({ email: 'office@relay.example' })
    const doc = await acmeDraft(h, b)
    const r = await h.request('POST', `/v1/documents/${doc.id}/send`, { key: b.key })
    expect(r.status, r.text).toBe(200)
    expect(smtp.received).toHaveLength(1)
  })
})
