// Sign-in, one-time links, sessions and CSRF of the application (extensions §9), over HTTP against a real database.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { AppClient, csrfOf, person } from '../../../test/app-client'
import { addPerson, newSignInLink, signInLinkPath } from '../../modules/people'
import { createDeps } from '../../deps'
import { buildApp } from '../../app'
import { FixedClock } from '../../shared/clock'
import { silentLogger } from '../../shared/logger'
import { SIGN_IN_LOCKED, SIGN_IN_REFUSED } from './pages/sign-in'

// Every person here hashes a password with argon2id; a loaded machine must not turn that into a timeout.
setDefaultTimeout(30_000)

let h: Harness
beforeAll(async () => {
  h = await makeHarness()
})
afterAll(() => h.close())

const MIN = 60 * 1000
const HOUR = 60 * MIN

async function business(name = 'Acme') {
  return h.business({ name })
}

describe('one-time links to choose a password', () => {
  test('a person added with a link chooses a password, is signed in with a hashed session cookie, and the link is spent', async () => {
    const b = await business()
    const { token } = await addPerson(h.deps, { email: 'Link.Person@Example.com', name: 'Link Person' })
    await (await import('../../modules/people')).addMember(h.deps, b.id, {
      email: 'link.person@example.com',
      role: 'owner',
    })
    const browser = new AppClient(h)
    const path = signInLinkPath(token)
    const form = await browser.get(path)
    expect(form.status).toBe(200)
    expect(form.text).toContain('Link.Person@Example.com')

    const short = await browser.request('POST', path, { _csrf: csrfOf(form.text), password: 'too short' })
    expect(short.status).toBe(422)
    expect(short.text).toContain('at least 10 characters')
    expect(browser.cookies.has('inv_session')).toBe(false)

    const done = await browser.request('POST', path, { _csrf: csrfOf(form.text), password: 'a long enough password' })
    expect(done.status).toBe(303)
    expect(done.location).toBe('/app')
    const set = done.headers.getSetCookie().find((c) => c.startsWith('inv_session='))!
    expect(set).toContain('HttpOnly')
    expect(set).toContain('SameSite=Lax')
    expect(set).toContain('Path=/')
    expect(set).not.toContain('Secure')
    // The database holds only the token's hash.
    const token2 = browser.cookies.get('inv_session')!
    const rows = await h.deps.db.read.all<{ token_hash: string }>(
      (await import('drizzle-orm')).sql`SELECT token_hash FROM sessions`,
    )
    expect(rows.some((r) => r.token_hash === token2)).toBe(false)
    expect((await browser.get('/app')).location).toBe(`/app/b/${b.publicId}`)
    expect((await browser.get(`/app/b/${b.publicId}`)).status).toBe(200)

    // Used: it says so and changes nothing.
    const again = new AppClient(h)
    const used = await again.get(path)
    expect(used.status).toBe(410)
    expect(used.text).toContain('used already')
  })

  test('an expired link says so and changes nothing; a new link from "person link" works', async () => {
    const { token } = await addPerson(h.deps, { email: 'late@example.com', name: 'Late' })
    h.clock.advance(31 * MIN)
    const browser = new AppClient(h)
    const expired = await browser.get(signInLinkPath(token))
    expect(expired.status).toBe(410)
    expect(expired.text).toContain('expired')
    const fresh = await newSignInLink(h.deps, 'LATE@example.com')
    expect(
      (await browser.choosePassword(`http://x${signInLinkPath(fresh.token)}`, 'another long password')).status,
    ).toBe(303)
  })

  test('a posted password without the form token is refused 403 and the link stays unused', async () => {
    const { token } = await addPerson(h.deps, { email: 'forged@example.com', name: 'F' })
    const browser = new AppClient(h)
    await browser.get(signInLinkPath(token))
    const forged = await browser.request('POST', signInLinkPath(token), { password: 'attacker chosen password' })
    expect(forged.status).toBe(403)
    expect((await browser.choosePassword(`http://x${signInLinkPath(token)}`, 'my own long password')).status).toBe(303)
  })
})

describe('signing in', () => {
  test('an unknown email and a wrong password get the same status and the same words', async () => {
    await person(h, { email: 'known@example.com', password: 'the right password' })
    const a = await new AppClient(h).signIn('nobody@example.com', 'the right password')
    const b = await new AppClient(h).signIn('known@example.com', 'a wrong password')
    expect(a.status).toBe(b.status)
    expect(a.status).toBe(422)
    expect(a.text).toContain(SIGN_IN_REFUSED)
    expect(b.text).toContain(SIGN_IN_REFUSED)
    // Nothing else differs than the email typed back and the form token.
    const strip = (t: string) => t.replace(/value="[^"]*"/g, '')
    expect(strip(a.text)).toBe(strip(b.text))
  })

  test('the email is compared case-blind', async () => {
    await person(h, { email: 'Mixed.Case@Example.com', password: 'mixed case password' })
    expect((await new AppClient(h).signIn('mixed.case@EXAMPLE.com', 'mixed case password')).status).toBe(303)
  })

  test('five failures within 15 minutes lock the email for 15 minutes, in every process on the file', async () => {
    const p = await person(h, { email: 'locked@example.com', password: 'the right password' })
    const browser = new AppClient(h)
    for (let i = 0; i < 5; i++) {
      h.clock.advance(MIN)
      expect((await browser.signIn(p.email, `wrong ${i}`)).status).toBe(422)
    }
    const locked = await browser.signIn(p.email, p.password)
    expect(locked.status).toBe(429)
    expect(locked.text).toContain(SIGN_IN_LOCKED)
    // An unknown email is locked the same way, so the lock tells nothing either.
    for (let i = 0; i < 5; i++) await browser.signIn('ghost@example.com', `wrong ${i}`)
    expect((await browser.signIn('ghost@example.com', 'x')).text).toContain(SIGN_IN_LOCKED)

    // A second process on the same file sees the lock.
    const clock2 = new FixedClock(h.clock.now())
    const deps2 = await createDeps(h.deps.config, { clock: clock2, logger: silentLogger })
    try {
      const other = new AppClient({ app: await buildApp(deps2) })
      expect((await other.signIn(p.email, p.password)).status).toBe(429)
      clock2.advance(15 * MIN + 1000)
      expect((await other.signIn(p.email, p.password)).status).toBe(303)
    } finally {
      deps2.db.close()
    }
  })

  test('after signing in the visitor goes back to the page they asked for, and never to another site', async () => {
    const b = await business('Back')
    const p = await person(h, { email: 'back@example.com', businessId: b.id })
    const browser = new AppClient(h)
    const asked = `/app/b/${b.publicId}/settings`
    const first = await browser.get(asked)
    expect(first.status).toBe(303)
    expect(first.location).toBe(`/app/sign-in?next=${encodeURIComponent(asked)}`)
    expect((await browser.signIn(p.email, p.password, asked)).location).toBe(asked)
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const other = new AppClient(h)
      expect((await other.signIn(p.email, p.password, evil)).location).toBe('/app')
    }
  })

  test('the session cookie is Secure when the public URL is https', async () => {
    const hs = await makeHarness({ config: { publicUrl: 'https://invoices.example.com' } })
    try {
      const p = await person(hs, { email: 'secure@example.com' })
      const res = await new AppClient(hs).signIn(p.email, p.password)
      expect(res.headers.getSetCookie().find((c) => c.startsWith('inv_session='))).toContain('Secure')
    } finally {
      await hs.close()
    }
  })
})

describe('sessions', () => {
  test('a session ends after 12 hours idle and lives on while used', async () => {
    const b = await business('Idle')
    const p = await person(h, { email: 'idle@example.com', businessId: b.id })
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    const home = `/app/b/${b.publicId}`
    h.clock.advance(11 * HOUR)
    expect((await browser.get(home)).status).toBe(200)
    h.clock.advance(11 * HOUR)
    expect((await browser.get(home)).status).toBe(200)
    h.clock.advance(12 * HOUR)
    const gone = await browser.get(home)
    expect(gone.status).toBe(303)
    expect(gone.location).toStartWith('/app/sign-in?next=')
  })

  test('signing out ends the session: its cookie no longer opens anything', async () => {
    const b = await business('Out')
    const p = await person(h, { email: 'out@example.com', businessId: b.id })
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    const cookie = browser.cookies.get('inv_session')!
    const home = await browser.get(`/app/b/${b.publicId}`)
    const out = await browser.request('POST', '/app/sign-out', { _csrf: csrfOf(home.text) })
    expect(out.status).toBe(303)
    expect(out.location).toBe('/app/sign-in?signed_out=1')
    const replay = new AppClient(h)
    replay.cookies.set('inv_session', cookie)
    expect((await replay.get(`/app/b/${b.publicId}`)).status).toBe(303)
  })

  test('changing the password ends every other session and keeps this browser signed in', async () => {
    const b = await business('Pw')
    const p = await person(h, { email: 'pw@example.com', businessId: b.id })
    const laptop = new AppClient(h)
    const phone = new AppClient(h)
    await laptop.signIn(p.email, p.password)
    await phone.signIn(p.email, p.password)
    const wrong = await laptop.submit(
      '/app/profile',
      { current_password: 'not it at all', new_password: 'a brand new password' },
      '/app/profile/password',
    )
    expect(wrong.status).toBe(422)
    expect(wrong.text).toContain('is not your current password')
    const changed = await laptop.submit(
      '/app/profile',
      { current_password: p.password, new_password: 'a brand new password' },
      '/app/profile/password',
    )
    expect(changed.status).toBe(303)
    expect((await laptop.get('/app/profile?done=password_changed')).text).toContain('every other session has ended')
    expect((await phone.get(`/app/b/${b.publicId}`)).status).toBe(303)
    expect((await new AppClient(h).signIn(p.email, 'a brand new password')).status).toBe(303)
    expect((await new AppClient(h).signIn(p.email, p.password)).status).toBe(422)
  })
})

describe('CSRF', () => {
  test('a change without the form token, with a wrong one, or from another site is 403 and changes nothing', async () => {
    const p = await person(h, { email: 'csrf@example.com', name: 'Before' })
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    const page = await browser.get('/app/profile')
    const token = csrfOf(page.text)
    expect((await browser.request('POST', '/app/profile/name', { name: 'Hacked' })).status).toBe(403)
    expect((await browser.request('POST', '/app/profile/name', { name: 'Hacked', _csrf: token + 'x' })).status).toBe(
      403,
    )
    expect(
      (
        await browser.request(
          'POST',
          '/app/profile/name',
          { name: 'Hacked', _csrf: token },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403)
    // Another session's token is no good either.
    const other = new AppClient(h)
    await other.signIn(p.email, p.password)
    expect((await other.request('POST', '/app/profile/name', { name: 'Hacked', _csrf: token })).status).toBe(403)
    expect((await browser.get('/app/profile')).text).toContain('value="Before"')
    const ok = await browser.request('POST', '/app/profile/name', { name: 'After', _csrf: token })
    expect(ok.status).toBe(303)
    expect((await browser.get('/app/profile')).text).toContain('value="After"')
  })
})

describe('Businesses of a person', () => {
  test('a person in several Businesses switches between them; another Business is refused', async () => {
    const a = await business('Alpha Co')
    const b = await business('Beta Co')
    const c = await business('Gamma Co')
    const p = await person(h, { email: 'multi@example.com', businessId: a.id, role: 'admin' })
    await (await import('../../modules/people')).addMember(h.deps, b.id, { email: p.email, role: 'viewer' })
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    const home = await browser.get(`/app/b/${a.publicId}`)
    expect(home.text).toContain('Alpha Co (Admin)')
    expect(home.text).toContain('Beta Co (Viewer)')
    expect(home.text).not.toContain('Gamma Co')
    expect((await browser.get(`/app/switch?business=${b.publicId}`)).location).toBe(`/app/b/${b.publicId}`)
    expect((await browser.get(`/app/b/${c.publicId}`)).status).toBe(403)
    expect((await browser.get(`/app/b/not-a-business`)).status).toBe(403)
  })

  test('a deleted Business opens for nobody and its keys stop at once', async () => {
    const b = await business('Deleted Co')
    const p = await person(h, { email: 'deleted@example.com', businessId: b.id })
    const browser = new AppClient(h)
    await browser.signIn(p.email, p.password)
    expect((await browser.get(`/app/b/${b.publicId}`)).status).toBe(200)
    const { deleteBusiness } = await import('../../modules/business')
    await deleteBusiness(h.deps.db, h.clock, b.id)
    expect((await browser.get(`/app/b/${b.publicId}`)).status).toBe(403)
    expect((await h.request('GET', '/v1/business', { key: b.key })).status).toBe(401)
  })
})

describe('every page', () => {
  test('signed-out pages carry the security headers, parse as HTML and load nothing from outside', async () => {
    const browser = new AppClient(h)
    for (const path of ['/app/sign-in', '/app/sign-in/link/nope', '/app/nowhere', '/app/assets/app.css'])
      await browser.get(path)
    const css = await browser.get('/app/assets/app.css')
    expect(css.headers.get('content-type')).toStartWith('text/css')
    expect(css.text).not.toMatch(/url\(|@import/)
  })
})
