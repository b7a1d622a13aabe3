// Invitations in the application (extensions §8), over HTTP against a real database and a real SMTP server on
// loopback: the invitation goes to the email, never to the inviter's page; the page answers alike for known and new
// emails; a membership added for anyone is pending, and gives no access on any door, until its person accepts it
// signed in; with no way to send mail (or a mail server that refuses) nobody is added.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { startTestSmtpServer, type TestSmtpServer } from '../../adapters/smtp-test-server'
import { makeHarness, type Harness } from '../../../test/harness'
import { AppClient, csrfOf, person } from '../../../test/app-client'
import { connectApp } from '../../../test/oauth'
import { setMailbox } from '../../modules/mailbox'
import { addMember, listMembers } from '../../modules/people'

// Every person here hashes a password with argon2id; a loaded machine must not turn that into a timeout.
setDefaultTimeout(30_000)

let h: Harness
let smtp: TestSmtpServer
beforeAll(async () => {
  smtp = await startTestSmtpServer()
  // The test server is on loopback and offers no STARTTLS: a Business's mailbox reaches it only as the operator allows.
  h = await makeHarness({
    config: {
      mailRelay: smtp.url,
      publicUrl: 'http://localhost:8080',
      smtpAllowPrivate: true,
      smtpAllowPlainLogin: true,
    },
  })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})

let n = 0
/** A Business that can send mail (its address through the service's relay), with an Admin signed in. */
async function business(name = 'Alpha') {
  n++
  const b = await h.business({ name: `${name} ${n}`, email: `office${n}@${name.toLowerCase()}.example` })
  const admin = await person(h, {
    email: `admin${n}@${name.toLowerCase()}.example`,
    name: `${name} Admin`,
    businessId: b.id,
    role: 'admin',
  })
  const browser = new AppClient(h)
  await browser.signIn(admin.email, admin.password)
  return { ...b, base: `/app/b/${b.publicId}`, admin: browser, adminEmail: admin.email }
}

function invite(t: { base: string; admin: AppClient }, email: string, role = 'member', name = '') {
  return t.admin.submit(`${t.base}/settings/members`, { email, name, role })
}

/** The mail that went to `to` since `from` (an index into smtp.received). */
function mailTo(to: string, from = 0) {
  return smtp.received.slice(from).filter((m) => m.envelope.to.includes(to))
}

const LINK = /http:\/\/localhost:8080\/app\/sign-in\/link\/[A-Za-z0-9_-]+/

/** A page without what differs by session or by the email typed: the CSRF token and the address itself. */
const normal = (html: string, email: string) =>
  html.replace(/name="_csrf" value="[^"]+"/g, '_csrf').replaceAll(email, 'EMAIL')

describe('an invitation goes to the email, never to the inviter', () => {
  test('someone new: the page shows no link; the email, from the Business, holds the link that lets them choose a password', async () => {
    const t = await business()
    const before = smtp.received.length
    const r = await invite(t, 'newcomer@people.example', 'member', 'Nina New')
    expect(r.status).toBe(303)
    expect(r.location).toBe(`${t.base}/settings/members?done=invitation_sent`)
    const page = await t.admin.get(r.location!)
    expect(page.text).toContain('Invitation sent')
    expect(page.text).toContain('Invited, pending')
    // Nothing the inviter ever received holds a sign-in link.
    for (const seen of t.admin.seen) expect(seen.page.text).not.toMatch(/sign-in\/link\//)

    const [mail] = mailTo('newcomer@people.example', before)
    expect(mail).toBeDefined()
    expect(mail!.envelope.from).toBe(`office${n}@alpha.example`)
    expect(mail!.mail.subject).toBe(`Alpha ${n} invites you to invoicing`)
    const text = mail!.mail.text!
    expect(text).toContain(`Alpha Admin invites you to Alpha ${n} as Member`)
    const link = LINK.exec(text)![0]

    // The link is the person's: they choose a password, land on their invitations, accept, and open the Business.
    const nina = new AppClient(h)
    expect((await nina.choosePassword(link, 'nina chooses well')).status).toBe(303)
    expect((await nina.get('/app')).location).toBe('/app/invitations')
    expect((await nina.get(t.base)).status).toBe(403)
    const accepted = await nina.submit('/app/invitations', { business: t.publicId }, '/app/invitations/accept')
    expect(accepted.status).toBe(303)
    expect(accepted.location).toBe(`${t.base}?done=invitation_accepted`)
    expect((await nina.get(t.base)).status).toBe(200)
    expect((await listMembers(h.deps, t.id)).find((m) => m.email === 'newcomer@people.example')).toMatchObject({
      role: 'member',
      state: 'active',
    })
  })

  test('an Admin who removes someone who never chose a password and invites them again gets no link either', async () => {
    const t = await business()
    const before = smtp.received.length
    await invite(t, 'never.chose@people.example')
    const removed = await t.admin.submit(
      `${t.base}/settings/members`,
      { email: 'never.chose@people.example' },
      `${t.base}/settings/members/remove`,
    )
    expect(removed.status).toBe(303)
    const again = await invite(t, 'never.chose@people.example', 'admin')
    expect(again.status).toBe(303)
    await t.admin.get(again.location!)
    for (const seen of t.admin.seen) expect(seen.page.text).not.toMatch(/sign-in\/link\//)
    // Each invitation's link went to the person, and only there.
    const mails = mailTo('never.chose@people.example', before)
    expect(mails).toHaveLength(2)
    for (const m of smtp.received.slice(before))
      if (LINK.test(m.mail.text ?? '')) expect(m.envelope.to).toEqual(['never.chose@people.example'])
  })
})

describe('where an invitation goes', () => {
  test("a Test business's invitation goes out to the person like any other (nothing keeps it where the inviter could read it)", async () => {
    n++
    const b = await h.business({ name: `Sandbox ${n}`, email: `office${n}@sandbox.example`, isTest: true })
    const admin = await person(h, { email: `admin${n}@sandbox.example`, businessId: b.id, role: 'admin' })
    const browser = new AppClient(h)
    await browser.signIn(admin.email, admin.password)
    const before = smtp.received.length
    expect((await invite({ base: `/app/b/${b.publicId}`, admin: browser }, `tester${n}@people.example`)).status).toBe(
      303,
    )
    const [mail] = mailTo(`tester${n}@people.example`, before)
    expect(mail!.mail.text).toMatch(LINK)
    for (const seen of browser.seen) expect(seen.page.text).not.toMatch(/sign-in\/link\//)
  })

  test("through the Business's own mailbox when it has one: its login and From address", async () => {
    const t = await business()
    smtp.credentials = { user: 'office@mailbox.example', pass: 'mailbox-pw' }
    try {
      await setMailbox(
        h.deps.db,
        h.clock,
        t.id,
        { smtpUrl: `smtp://office%40mailbox.example:mailbox-pw@127.0.0.1:${smtp.port}`, from: 'team@mailbox.example' },
        { allowPrivate: true },
      )
      const before = smtp.received.length
      expect((await invite(t, `boxed${n}@people.example`)).status).toBe(303)
      const [mail] = mailTo(`boxed${n}@people.example`, before)
      expect(mail!.login).toEqual({ user: 'office@mailbox.example', pass: 'mailbox-pw' })
      expect(mail!.envelope.from).toBe('team@mailbox.example')
    } finally {
      smtp.credentials = null
    }
  })
})

describe('the page answers alike whether or not the email has an account', () => {
  test('the answer to the form and the members page after it are the same, byte for byte but for the address', async () => {
    const t = await business()
    const known = await person(h, { email: 'known@people.example', name: 'Karl Known' })
    const unknown = 'unknown@people.example'
    const a = await invite(t, known.email)
    const b = await invite(t, unknown)
    expect([a.status, a.location, a.text]).toEqual([b.status, b.location, b.text])
    expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort())
    // The list shows both alike: the email, "pending", the same Role, never the known person's name.
    const page = (await t.admin.get(`${t.base}/settings/members`)).text
    expect(page).not.toContain('Karl Known')
    const rows = [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!)
    const rowOf = (email: string) => normal(rows.find((r) => r.includes(email))!, email).replace(/role-\d+/g, 'role-N')
    expect(rowOf(known.email)).toEqual(rowOf(unknown))

    // Refused alike too: with no way to send mail, known and unknown emails get the same page, and nobody is added.
    const quiet = await h.business({ name: `Quiet ${n}` })
    const admin = await person(h, { email: `quiet-admin${n}@people.example`, businessId: quiet.id, role: 'admin' })
    const q = new AppClient(h)
    await q.signIn(admin.email, admin.password)
    const base = `/app/b/${quiet.publicId}`
    const qa = await q.submit(`${base}/settings/members`, { email: known.email, name: '', role: 'member' })
    const qb = await q.submit(`${base}/settings/members`, { email: unknown, name: '', role: 'member' })
    expect(qa.status).toBe(422)
    expect(qa.text).toContain('has no way to send email')
    expect(normal(qa.text, known.email)).toEqual(normal(qb.text, unknown))
    expect((await listMembers(h.deps, quiet.id)).map((m) => m.email)).toEqual([admin.email])
  })

  test('the Role form changes only someone already in the Business: it adds nobody, known or not, and says the same', async () => {
    const t = await business()
    const known = await person(h, { email: `role-known${n}@people.example` })
    const a = await t.admin.submit(
      `${t.base}/settings/members`,
      { email: known.email, role: 'admin' },
      `${t.base}/settings/members/role`,
    )
    const b = await t.admin.submit(
      `${t.base}/settings/members`,
      { email: `role-unknown${n}@people.example`, role: 'admin' },
      `${t.base}/settings/members/role`,
    )
    expect(a.status).toBe(404)
    expect(normal(a.text, known.email)).toEqual(normal(b.text, `role-unknown${n}@people.example`))
    expect((await listMembers(h.deps, t.id)).map((m) => m.email)).toEqual([t.adminEmail])
  })
})

describe('a pending membership gives no access until its person accepts it, signed in', () => {
  test('the takeover of issue 33 is closed: removed from Alpha, invited by Beta, the person alone decides', async () => {
    const alpha = await business('Alpha')
    const beta = await business('Beta')
    // Alpha's Admin invites an email with no account; the link goes to the email only.
    const mark = smtp.received.length
    await invite(alpha, 'target@people.example')
    const alphaLink = LINK.exec(mailTo('target@people.example', mark)[0]!.mail.text!)![0]
    await alpha.admin.submit(
      `${alpha.base}/settings/members`,
      { email: 'target@people.example' },
      `${alpha.base}/settings/members/remove`,
    )
    // The person later chooses a password with their own link.
    const target = new AppClient(h)
    await target.choosePassword(alphaLink, 'target owns this account')

    // Beta invites the same email: pending, and it opens nothing on any door.
    const mark2 = smtp.received.length
    expect((await invite(beta, 'target@people.example', 'admin')).status).toBe(303)
    const invitation = mailTo('target@people.example', mark2)[0]!.mail.text!
    expect(invitation).not.toMatch(/sign-in\/link\//)
    expect(invitation).toContain('http://localhost:8080/app/invitations')
    expect((await listMembers(h.deps, beta.id)).find((m) => m.email === 'target@people.example')!.state).toBe('pending')
    expect((await target.get(beta.base)).status).toBe(403)
    expect((await target.get(`${beta.base}/settings`)).status).toBe(403)
    expect((await target.get('/app')).location).toBe('/app/invitations')
    const home = await target.get('/app/invitations')
    expect(home.text).toContain(`Beta ${n}`)
    expect(home.text).not.toContain('id="switch-business"')

    // Alpha's Admin never had the password and has no link: signing in as the person fails.
    const intruder = new AppClient(h)
    expect((await intruder.signIn('target@people.example', 'target owns this account!')).status).toBe(422)
    for (const seen of alpha.admin.seen) expect(seen.page.text).not.toMatch(/sign-in\/link\//)

    // A change posted into Beta by the pending person is refused and changes nothing.
    const token = csrfOf(home.text)
    expect(
      (await target.request('POST', `${beta.base}/settings/keys`, { _csrf: token, name: 'sneaky', role: 'admin' }))
        .status,
    ).toBe(403)

    // Accepting is the person's own act, signed in, with the page's token: a forged post does nothing.
    expect(
      (await target.request('POST', '/app/invitations/accept', { _csrf: 'forged', business: beta.publicId })).status,
    ).toBe(403)
    expect(
      (await new AppClient(h).request('POST', '/app/invitations/accept', { business: beta.publicId })).status,
    ).toBe(303)
    expect((await listMembers(h.deps, beta.id)).find((m) => m.email === 'target@people.example')!.state).toBe('pending')
    expect(
      (await target.submit('/app/invitations', { business: beta.publicId }, '/app/invitations/accept')).status,
    ).toBe(303)
    expect((await target.get(`${beta.base}/settings`)).status).toBe(200)
  })

  test('on OAuth consent a pending Business is neither offered nor granted; a connection of a pending member acts nowhere', async () => {
    const t = await business()
    const p = await person(h, { email: `consent${n}@people.example` })
    await invite(t, p.email, 'admin')
    // A connection made while active, the membership then pending (as after a removal and a new invitation).
    const c = await connectApp(h, {
      businessId: t.id,
      email: p.email,
      memberRole: 'admin',
      role: 'admin',
      resources: ['http://localhost:8080/v1', 'http://localhost:8080/mcp'],
    })
    expect((await h.request('GET', '/v1/business', { key: c.access })).status).toBe(200)
    await h.deps.db.write((tx) =>
      tx.run(sql`UPDATE memberships SET state = 'pending' WHERE person_id = ${p.id} AND business_id = ${t.id}`),
    )
    expect((await h.request('GET', '/v1/business', { key: c.access })).status).toBe(401)
    const mcp = await h.app.fetch(
      new Request('http://localhost:8080/mcp', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${c.access}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    )
    expect(mcp.status).toBe(401)
    // Admins list no Connected app of a pending member.
    expect((await h.request('GET', '/v1/connected-apps', { key: t.key })).body.data).toEqual([])
    // The consent page offers no pending Business, and a post naming it is refused.
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: c.clientId,
      redirect_uri: 'https://app.example/callback',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      state: 's',
    })
    const consent = await browser.get(`/app/connect?${q}`)
    expect(consent.text).not.toContain(t.publicId)
    const posted = await browser.request('POST', '/app/connect', {
      _csrf: csrfOf(consent.text),
      ...Object.fromEntries(q),
      decision: 'approve',
      business: t.publicId,
      role: 'viewer',
    })
    expect(posted.status).not.toBe(303)
    expect(posted.text).not.toContain('code=')
  })

  test('a declined invitation is gone; accepting or declining one that is not waiting answers 404 and changes nothing', async () => {
    const t = await business()
    const p = await person(h, { email: `decliner${n}@people.example` })
    await invite(t, p.email)
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    const declined = await browser.submit('/app/invitations', { business: t.publicId }, '/app/invitations/decline')
    expect(declined.location).toBe('/app/invitations?done=invitation_declined')
    expect((await listMembers(h.deps, t.id)).map((m) => m.email)).toEqual([t.adminEmail])
    expect((await browser.submit('/app/invitations', { business: t.publicId }, '/app/invitations/accept')).status).toBe(
      404,
    )
    // An active member's "decline" does not remove them.
    const other = await business()
    await addMember(h.deps, other.id, { email: p.email, role: 'viewer' })
    expect(
      (await browser.submit('/app/invitations', { business: other.publicId }, '/app/invitations/decline')).status,
    ).toBe(404)
    expect((await listMembers(h.deps, other.id)).find((m) => m.email === p.email)!.state).toBe('active')
  })

  test('a pending Owner is no Owner yet: the last active Owner still cannot leave; the operator’s member add acts at once', async () => {
    const b = await h.business({ name: `Owned ${n}`, email: `owned${n}@owned.example` })
    const owner = await person(h, { email: `owner${n}@owned.example`, businessId: b.id, role: 'owner' })
    const o = new AppClient(h)
    await o.signIn(owner.email, owner.password)
    const base = `/app/b/${b.publicId}`
    expect(
      (await o.submit(`${base}/settings/members`, { email: `heir${n}@owned.example`, name: '', role: 'owner' })).status,
    ).toBe(303)
    const demote = await o.submit(
      `${base}/settings/members`,
      { email: owner.email, role: 'admin' },
      `${base}/settings/members/role`,
    )
    expect(demote.status).toBe(422)
    expect(demote.text).toContain('at least one Owner')
    // The operator's CLI path (member add) makes the pending membership active at once.
    await addMember(h.deps, b.id, { email: `heir${n}@owned.example`, role: 'owner' })
    expect((await listMembers(h.deps, b.id)).find((m) => m.email === `heir${n}@owned.example`)!.state).toBe('active')
  })
})

describe('an invitation that does not go out adds nobody', () => {
  test('a mail server that refuses the address: 502 on the page, no member, no person, no link', async () => {
    const t = await business()
    smtp.refuse.add('bounced@people.example')
    try {
      const r = await invite(t, 'bounced@people.example')
      expect(r.status).toBe(422)
      expect(r.text).toContain('The invitation was not sent')
      expect(r.text).toContain('Nobody was added')
    } finally {
      smtp.refuse.delete('bounced@people.example')
    }
    expect((await listMembers(h.deps, t.id)).map((m) => m.email)).toEqual([t.adminEmail])
    const rows = await h.deps.db.read.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM persons WHERE email_key = 'bounced@people.example'`,
    )
    expect(rows[0]!.n).toBe(0)
  })
})
