// Settings pages, Roles and plans in the application (extensions §9), over HTTP against a real database: who opens
// and changes what, the plan codes, refusals shown on the page with nothing changed, and every page valid HTML.
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { harnessForFile, makeHarness, type Harness } from '../../../test/harness'
import { AppClient, person } from '../../../test/app-client'
import { updateBusiness } from '../../modules/business'
import { listMembers } from '../../modules/people'
import { SETTINGS_PAGES } from './pages/settings'

// Every person here hashes a password with argon2id; a loaded machine must not turn that into a timeout.
setDefaultTimeout(30_000)

let h: Harness
harnessForFile((made) => (h = made))

let n = 0
/** A Business with one person of each Role, each signed in in their own browser. */
async function team(plan: 'pro' | 'free' | 'paused' = 'pro') {
  n++
  const b = await h.business({ name: `Team ${n}`, plan })
  const out: Record<'owner' | 'admin' | 'member' | 'viewer', AppClient> = {} as never
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const p = await person(h, { email: `${role}${n}@example.com`, businessId: b.id, role })
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    out[role] = browser
  }
  return { ...b, base: `/app/b/${b.publicId}`, ...out }
}

async function count(table: string, businessId: number): Promise<number> {
  const rows = await h.deps.db.read.all<{ n: number }>(
    sql.raw(`SELECT count(*) AS n FROM ${table} WHERE business_id = ${businessId}`),
  )
  return rows[0]!.n
}

describe('Roles', () => {
  test('Owner and Admin open every settings page; a Member and a Viewer open none (403), and every page is valid HTML', async () => {
    const t = await team()
    for (const p of SETTINGS_PAGES) {
      for (const who of [t.owner, t.admin]) expect((await who.get(`${t.base}/settings${p.path}`)).status).toBe(200)
      for (const who of [t.member, t.viewer]) expect((await who.get(`${t.base}/settings${p.path}`)).status).toBe(403)
    }
    const keys = await t.member.get(`${t.base}/settings/keys`)
    expect(keys.text).toContain('Only an Owner or an Admin')
    expect(keys.text).not.toContain('Create key')
    // The navigation does not offer what the Role cannot open.
    expect((await t.member.get(t.base)).text).not.toContain('/settings"')
    expect((await t.owner.get(t.base)).text).toContain(`${t.base}/settings"`)
  })

  test('a Viewer (and a Member) posting a settings change is refused 403 and nothing changes', async () => {
    const t = await team()
    const refused = await t.viewer.submit(t.base, { name: 'sneaky', role: 'admin' }, `${t.base}/settings/keys`)
    expect(refused.status).toBe(403)
    expect(
      (await t.member.submit(t.base, { name: 'x', iban: 'DE89370400440532013000' }, `${t.base}/settings/bank-accounts`))
        .status,
    ).toBe(403)
    expect(
      (
        await t.viewer.submit(
          t.base,
          { email: 'viewer' + n + '@example.com', role: 'owner' },
          `${t.base}/settings/members`,
        )
      ).status,
    ).toBe(403)
    expect(await count('api_keys', t.id)).toBe(1)
    expect(await count('bank_accounts', t.id)).toBe(0)
  })

  test('an Admin cannot make or unmake an Owner; removing the last Owner is refused on the page and nothing changes', async () => {
    const t = await team()
    const made = await t.admin.submit(
      `${t.base}/settings/members`,
      { email: `member${n}@example.com`, role: 'owner' },
      `${t.base}/settings/members/role`,
    )
    expect(made.status).toBe(403)
    const last = await t.owner.submit(
      `${t.base}/settings/members`,
      { email: `owner${n}@example.com` },
      `${t.base}/settings/members/remove`,
    )
    expect(last.status).toBe(422)
    expect(last.text).toContain('at least one Owner')
    expect((await listMembers(h.deps, t.id)).map((m) => m.role).sort()).toEqual(['admin', 'member', 'owner', 'viewer'])
    // Removing someone else works, and they lose the Business at once.
    const removed = await t.owner.submit(
      `${t.base}/settings/members`,
      { email: `viewer${n}@example.com` },
      `${t.base}/settings/members/remove`,
    )
    expect(removed.status).toBe(303)
    expect((await t.viewer.get(t.base)).status).toBe(403)
  })

  test('adding someone in the application never shows a link; with no way to send the invitation nobody is added', async () => {
    const t = await team()
    const bad = await t.owner.submit(`${t.base}/settings/members`, {
      email: 'new.person@example.com',
      name: 'New',
      role: 'boss',
    })
    expect(bad.status).toBe(422)
    expect(bad.text).toContain('value="new.person@example.com"')
    expect((await listMembers(h.deps, t.id)).length).toBe(4)
    // This service has no mail server and the Business no mailbox: the page says so and adds nobody (invitations.test.ts
    // has the invitation that goes out by email).
    const refused = await t.owner.submit(`${t.base}/settings/members`, {
      email: 'new.person@example.com',
      name: 'New',
      role: 'member',
    })
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('has no way to send email')
    expect(refused.text).not.toContain('/app/sign-in/link/')
    expect((await listMembers(h.deps, t.id)).length).toBe(4)
  })
})

describe('plans', () => {
  test('on the Free plan a Member’s change is refused plan_role_viewing and nothing changes; the Owner still changes', async () => {
    const t = await team('free')
    expect((await t.member.get(t.base)).status).toBe(200)
    const refused = await t.admin.submit(`${t.base}/settings/bank-accounts`, {
      name: 'Main',
      iban: 'DE89370400440532013000',
    })
    expect(refused.status).toBe(403)
    expect(refused.text).toContain('On the Free plan only the Owner makes changes')
    const member = await t.member.submit(t.base, { name: 'x', role: 'viewer' }, `${t.base}/settings/keys`)
    expect(member.status).toBe(403)
    expect(member.text).toContain('On the Free plan only the Owner makes changes')
    expect(await count('bank_accounts', t.id)).toBe(0)
    const owner = await t.owner.submit(`${t.base}/settings/bank-accounts`, {
      name: 'Main',
      iban: 'DE89370400440532013000',
    })
    expect(owner.status).toBe(303)
    expect(await count('bank_accounts', t.id)).toBe(1)
  })

  test('a Paused Business opens for nobody but its Owner’s billing page (business_paused)', async () => {
    const t = await team('paused')
    for (const who of [t.owner, t.admin, t.member, t.viewer]) {
      const home = await who.get(t.base)
      expect(home.status).toBe(403)
      expect(home.text).toContain('This Business is paused')
    }
    expect((await t.owner.get(`${t.base}/settings/billing`)).status).toBe(200)
    expect((await t.admin.get(`${t.base}/settings/billing`)).status).toBe(403)
    expect((await t.owner.get(`${t.base}/settings/keys`)).status).toBe(403)
    await updateBusiness(h.deps.db, h.clock, t.id, { plan: 'pro' })
    expect((await t.viewer.get(t.base)).status).toBe(200)
  })
})

describe('settings pages', () => {
  test('an API key is shown once, works on the API, and once revoked is refused 401', async () => {
    const t = await team()
    const created = await t.admin.submit(`${t.base}/settings/keys`, { name: 'export', role: 'viewer' })
    expect(created.status).toBe(200)
    const key = /<code class="secret">(inv_[A-Za-z0-9_-]+)<\/code>/.exec(created.text)![1]!
    expect((await h.request('GET', '/v1/business', { key })).status).toBe(200)
    expect((await t.admin.get(`${t.base}/settings/keys`)).text).not.toContain(key)
    const id = (
      await h.deps.db.read.all<{ id: number }>(
        sql`SELECT id FROM api_keys WHERE name = 'export' AND business_id = ${t.id}`,
      )
    )[0]!.id
    const revoked = await t.admin.submit(`${t.base}/settings/keys`, {}, `${t.base}/settings/keys/${id}/revoke`)
    expect(revoked.status).toBe(303)
    expect((await h.request('GET', '/v1/business', { key })).status).toBe(401)
    // Another Business's key is not this page's to revoke.
    const other = await team()
    const foreign = await other.owner.submit(
      `${other.base}/settings/keys`,
      {},
      `${other.base}/settings/keys/${id}/revoke`,
    )
    expect(foreign.status).toBe(404)
  })

  test('a refused form keeps what was typed and says why, beside the field', async () => {
    const t = await team()
    const r = await t.owner.submit(`${t.base}/settings/bank-accounts`, { name: 'Savings', iban: 'NOT AN IBAN' })
    expect(r.status).toBe(422)
    expect(r.text).toContain('value="Savings"')
    expect(r.text).toMatch(/class="field bad"[\s\S]*IBAN/)
    const pattern = await t.owner.submit(`${t.base}/settings/numbering`, { kind: 'invoice', pattern: 'no counter' })
    expect(pattern.status).toBe(422)
    expect(pattern.text).toContain('value="no counter"')
  })

  test('a webhook added with a paid plan refuses Resend once paused (webhook_paused) and on the Free plan (webhooks_need_a_paid_plan)', async () => {
    const hp = await makeHarness({ config: { webhookAllowPrivate: true } })
    try {
      const b = await hp.business({ name: 'Hooks' })
      const p = await person(hp, { email: 'hooks@example.com', businessId: b.id })
      const browser = new AppClient(hp)
      await browser.signIn(p.email, p.password)
      const base = `/app/b/${b.publicId}`
      const added = await browser.submit(`${base}/settings/webhooks`, {
        url: 'http://127.0.0.1:9/hook',
        events: ['document.issued'],
      })
      expect(added.status).toBe(200)
      expect(added.text).toMatch(/whsec_[A-Za-z0-9+/=]{20,}/)
      const hookId = (
        await hp.deps.db.read.all<{ id: number }>(sql`SELECT id FROM webhooks WHERE business_id = ${b.id}`)
      )[0]!.id
      // A stored delivery to resend.
      // A message's body is stored once (webhook_messages), its deliveries name it.
      await hp.deps.db.write(async (tx) => {
        const at = hp.clock.now().toISOString()
        await tx.run(
          sql`INSERT INTO webhook_messages (message_id, business_id, body, created_at) VALUES ('msg_01234567890123456789012345', ${b.id}, '{}', ${at})`,
        )
        await tx.run(
          sql`INSERT INTO webhook_deliveries (business_id, webhook_id, message_id, event_type, status, attempts, created_at, updated_at) VALUES (${b.id}, ${hookId}, 'msg_01234567890123456789012345', 'document.issued', 'failed', 10, ${at}, ${at})`,
        )
      })
      const deliveryId = (
        await hp.deps.db.read.all<{ id: number }>(sql`SELECT id FROM webhook_deliveries WHERE webhook_id = ${hookId}`)
      )[0]!.id
      const page = `${base}/settings/webhooks/${hookId}`
      expect((await browser.submit(page, {}, `${page}/pause`)).status).toBe(303)
      const paused = await browser.submit(
        page,
        { webhook: String(hookId) },
        `${base}/settings/webhooks/deliveries/${deliveryId}/resend`,
      )
      expect(paused.status).toBe(422)
      expect(paused.text).toContain('paused')
      expect((await browser.submit(page, {}, `${page}/resume`)).status).toBe(303)
      await updateBusiness(hp.deps.db, hp.clock, b.id, { plan: 'free' })
      // The Owner may still act on the Free plan; the resend itself is refused.
      const free = await browser.submit(
        page,
        { webhook: String(hookId) },
        `${base}/settings/webhooks/deliveries/${deliveryId}/resend`,
      )
      expect(free.status).toBe(422)
      expect(free.text).toContain('paid plan')
      expect(
        await hp.deps.db.read.all(sql`SELECT id FROM webhook_deliveries WHERE webhook_id = ${hookId}`),
      ).toHaveLength(1)
      await updateBusiness(hp.deps.db, hp.clock, b.id, { plan: 'pro' })
      expect(
        (
          await browser.submit(
            page,
            { webhook: String(hookId) },
            `${base}/settings/webhooks/deliveries/${deliveryId}/resend`,
          )
        ).status,
      ).toBe(303)
      expect(
        await hp.deps.db.read.all(sql`SELECT id FROM webhook_deliveries WHERE webhook_id = ${hookId}`),
      ).toHaveLength(2)
      const rolled = await browser.submit(page, {}, `${page}/roll`)
      expect(rolled.text).toContain('The new signing secret')
      expect((await browser.submit(page, {}, `${page}/delete`)).location).toBe(
        `${base}/settings/webhooks?done=webhook_deleted`,
      )
    } finally {
      await hp.close()
    }
  })

  test('every settings form saves: Business setup, numbering, mailbox (its password never shown back)', async () => {
    const t = await team()
    expect(
      (
        await t.owner.submit(`${t.base}/settings/business`, {
          name: 'Renamed GmbH',
          country: 'de',
          currency: 'eur',
          email: 'office@renamed.example',
          is_vat_payer: 'on',
        })
      ).status,
    ).toBe(303)
    expect((await t.owner.get(`${t.base}/settings/business`)).text).toContain('value="Renamed GmbH"')
    expect(
      (await t.owner.submit(`${t.base}/settings/numbering`, { kind: 'invoice', pattern: 'R-{YYYY}-{NNN}' })).status,
    ).toBe(303)
    expect((await t.owner.get(`${t.base}/settings/numbering`)).text).toContain('value="R-{YYYY}-{NNN}"')
    expect(
      (
        await t.owner.submit(`${t.base}/settings/mailbox`, {
          host: 'mail.example.com',
          port: '587',
          security: 'starttls',
          username: 'user',
          password: 's3cret',
          from: 'office@renamed.example',
        })
      ).status,
    ).toBe(303)
    const mailbox = await t.owner.get(`${t.base}/settings/mailbox`)
    expect(mailbox.text).toContain('its own SMTP mailbox')
    expect(mailbox.text).not.toContain('s3cret')
    expect((await t.owner.submit(`${t.base}/settings/mailbox`, {}, `${t.base}/settings/mailbox/clear`)).status).toBe(
      303,
    )
  })

  test('remedy_url in the API points at the mailbox and billing pages of INVOICING_PUBLIC_URL, which open the Business', async () => {
    const hp = await makeHarness({ config: { publicUrl: 'https://invoices.example.com' } })
    try {
      const { REMEDY_URLS } = await import('../../modules/documents')
      expect(REMEDY_URLS).toEqual({
        connect_mail_provider: 'https://invoices.example.com/app/settings/mailbox',
        choose_plan: 'https://invoices.example.com/app/settings/billing',
      })
      const b = await hp.business({ name: 'Remedy' })
      const p = await person(hp, { email: 'remedy@example.com', businessId: b.id })
      const browser = new AppClient(hp, 'https://invoices.example.com')
      await browser.signIn(p.email, p.password)
      expect((await browser.get('/app/settings/mailbox')).location).toBe(`/app/b/${b.publicId}/settings/mailbox`)
    } finally {
      await hp.close()
      // The harness of this file serves on the default public URL again.
      const { setRemedyBase } = await import('../../modules/documents')
      setRemedyBase('http://localhost:8080')
    }
  })
})
