// Connecting an app over plain HTTP, as a third-party app driven by oauth4webapi would: discovery, PKCE, sign-in,
// the consent page, the answer with code, state and iss, the token, and every refusal of the authorization request.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { makeHarness, type Harness } from '../../../test/harness'
import { AppClient, csrfOf, person } from '../../../test/app-client'
import { createApp } from '../../modules/oauth'
import { eq } from 'drizzle-orm'
import { oauthCodes } from '../../db/schema'

const ISSUER = 'https://invoices.example'
const REDIRECT = 'https://app.example/callback'
let h: Harness
let as: oauth.AuthorizationServer
let biz: { id: number; publicId: string; key: string }
let owner: { email: string; password: string }
let clientId: string
const opts = (): any => ({
  [oauth.customFetch]: (url: string, init: RequestInit) => h.app.fetch(new Request(url, init)),
})

beforeAll(async () => {
  h = await makeHarness({ config: { publicUrl: ISSUER } })
  biz = await h.business({ name: 'Acme GmbH' })
  owner = await person(h, { email: 'owner@acme.example', businessId: biz.id, role: 'owner' })
  clientId = (
    await createApp(h.deps.db, h.clock, {
      ownerPersonId: 1,
      name: 'Books Sync',
      redirectUris: [REDIRECT],
      public: true,
    })
  ).client_id
  as = await oauth.processDiscoveryResponse(
    new URL(ISSUER),
    await oauth.discoveryRequest(new URL(ISSUER), { algorithm: 'oauth2', ...opts() }),
  )
})
afterAll(() => h.close())

async function authorizationUrl(extra: Record<string, string | null> = {}) {
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const u = new URL(as.authorization_endpoint!)
  const params: Record<string, string | null> = {
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    scope: 'member',
    ...extra,
  }
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v)
  return { path: u.pathname + u.search, verifier, state }
}

/** Opens the authorization URL signed in and answers the consent page's form. */
async function consent(browser: AppClient, path: string, form: Record<string, string>) {
  const toConsent = await browser.get(path)
  expect(toConsent.status).toBe(303)
  const page = await browser.get(toConsent.location!)
  expect(page.status).toBe(200)
  return {
    page,
    answer: await browser.request('POST', '/app/connect', {
      ...hiddenFields(page.text),
      _csrf: csrfOf(page.text),
      ...form,
    }),
  }
}

/** The authorization request's parameters the consent form carries (hidden fields; the CSRF token is taken apart). */
function hiddenFields(html: string): Record<string, string[]> {
  const fields: Record<string, string[]> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    if (m[1] === '_csrf') continue
    ;(fields[m[1]!] ??= []).push(
      m[2]!.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
    )
  }
  return fields
}

async function signedIn(who = owner) {
  const browser = new AppClient(h)
  const s = await browser.signIn(who.email, who.password)
  expect(s.status).toBe(303)
  return browser
}

describe('the whole flow over HTTP', () => {
  test('sign-in, consent, code with state and iss, token: the app then acts for the chosen Business with the chosen Role', async () => {
    const { path, verifier, state } = await authorizationUrl()
    const browser = new AppClient(h)
    const first = await browser.get(path)
    expect(first.status).toBe(303)
    const toSignIn = await browser.get(first.location!)
    expect(toSignIn.status).toBe(303)
    expect(toSignIn.location).toStartWith('/app/sign-in?next=')
    const signed = await browser.signIn(
      owner.email,
      owner.password,
      decodeURIComponent(toSignIn.location!.split('next=')[1]!),
    )
    expect(signed.status).toBe(303)
    const page = await browser.get(signed.location!)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Books Sync')
    expect(page.text).toContain('Acme GmbH')
    const fields: Record<string, string[]> = {}
    for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      (fields[m[1]!] ??= []).push(m[2]!)
    const answer = await browser.request('POST', '/app/connect', {
      ...fields,
      _csrf: csrfOf(page.text),
      business: biz.publicId,
      role: 'member',
      decision: 'approve',
    })
    expect(answer.status).toBe(303)
    const callback = new URL(answer.location!)
    expect(callback.origin + callback.pathname).toBe(REDIRECT)
    expect(callback.searchParams.get('iss')).toBe(ISSUER)
    const client = { client_id: clientId }
    const params = oauth.validateAuthResponse(as, client, callback, state)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, opts()),
    )
    expect(tokens.scope).toBe('member')
    const b = await h.request('GET', '/v1/business', { key: tokens.access_token })
    expect(b.status).toBe(200)
    expect(b.body.business_id).toBe(biz.publicId)
    expect((await h.request('GET', '/v1/webhooks', { key: tokens.access_token })).status).toBe(403)
  })

  test('deny answers the app access_denied with its state and iss', async () => {
    const { path, state } = await authorizationUrl()
    const { answer } = await consent(await signedIn(), path, {
      business: biz.publicId,
      role: 'viewer',
      decision: 'deny',
    })
    const u = new URL(answer.location!)
    expect(u.searchParams.get('error')).toBe('access_denied')
    expect(u.searchParams.get('state')).toBe(state)
    expect(u.searchParams.get('iss')).toBe(ISSUER)
    expect(u.searchParams.get('code')).toBeNull()
  })
})

describe('refusals of the authorization request', () => {
  test('an unknown client and an unregistered redirect URI are shown on the page and never redirected', async () => {
    const browser = await signedIn()
    for (const extra of [
      { client_id: 'app_unknown' },
      { redirect_uri: 'https://evil.example/callback' },
      { redirect_uri: 'https://app.example/callback/other' },
    ] as Record<string, string>[]) {
      const { path } = await authorizationUrl(extra)
      const r = await browser.get(path)
      expect(r.status).toBe(400)
      expect(r.location).toBeNull()
      expect(r.text).toContain('cannot be connected')
    }
  })

  test('a missing PKCE challenge, and plain, go back to the app as invalid_request', async () => {
    const browser = await signedIn()
    for (const extra of [
      { code_challenge: null, code_challenge_method: null },
      { code_challenge_method: 'plain' },
      { code_challenge_method: null },
    ] as Record<string, string | null>[]) {
      const { path, state } = await authorizationUrl(extra)
      const r = await browser.get(path)
      expect(r.status).toBe(303)
      const u = new URL(r.location!)
      expect(u.origin + u.pathname).toBe(REDIRECT)
      expect(u.searchParams.get('error')).toBe('invalid_request')
      expect(u.searchParams.get('state')).toBe(state)
      expect(u.searchParams.get('iss')).toBe(ISSUER)
    }
  })

  test('an app that registered itself (RFC 7591) has its errors shown on the page, never redirected, signed in or not (RFC 9700 §4.11.2)', async () => {
    const reg = await h.app.fetch(
      new Request(`${ISSUER}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://evil.example/landing'], client_name: 'Anyone' }),
      }),
    )
    expect(reg.status).toBe(201)
    const dynamicId = ((await reg.json()) as any).client_id
    for (const browser of [new AppClient(h), await signedIn()]) {
      for (const extra of [
        { response_type: 'token' },
        { code_challenge: null },
        { code_challenge_method: 'plain' },
        { scope: 'root' },
        { resource: 'https://evil.example/' },
      ] as Record<string, string | null>[]) {
        const { path } = await authorizationUrl({
          client_id: dynamicId,
          redirect_uri: 'https://evil.example/landing',
          ...extra,
        })
        const r = await browser.get(path)
        expect(r.status).toBe(400)
        expect(r.location).toBeNull()
        expect(r.text).toContain('cannot serve')
      }
    }
    // A good request from it still reaches the consent page.
    const { path } = await authorizationUrl({ client_id: dynamicId, redirect_uri: 'https://evil.example/landing' })
    expect((await (await signedIn()).get(path)).location).toStartWith('/app/connect?')
  })

  test('a Member cannot grant admin; a scope is a ceiling', async () => {
    const member = await person(h, { email: 'member@acme.example', businessId: biz.id, role: 'member' })
    const { path } = await authorizationUrl({ scope: 'admin' })
    const browser = await signedIn(member)
    const { answer } = await consent(browser, path, { business: biz.publicId, role: 'admin', decision: 'approve' })
    // §9: a change the person may not make is 403 with the words on the page; no code is issued.
    expect(answer.status).toBe(403)
    expect(answer.location).toBeNull()
    expect(answer.text).toContain('above your own')
    expect(
      await h.deps.db.read
        .select()
        .from(oauthCodes)
        .where(eq(oauthCodes.personId, (member as any).id))
        .get(),
    ).toBeUndefined()
    // The form is shown again to choose anew, and its CSP still lets it answer the app's address.
    expect(answer.text).toContain('name="role"')
    expect(answer.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example;")
    const again = await browser.request('POST', '/app/connect', {
      ...hiddenFields(answer.text),
      _csrf: csrfOf(answer.text),
      business: biz.publicId,
      role: 'member',
      decision: 'approve',
    })
    expect(again.status).toBe(303)
    expect(new URL(again.location!).searchParams.get('code')).toBeString()
    const viewerScope = await authorizationUrl({ scope: 'viewer' })
    const { answer: over } = await consent(await signedIn(), viewerScope.path, {
      business: biz.publicId,
      role: 'member',
      decision: 'approve',
    })
    expect(over.location).toBeNull()
  })

  test("the consent page offers no Role above the person's own: asked for admin, a Viewer is offered Viewer alone with a sentence saying it was lowered", async () => {
    const viewer = await person(h, { email: 'viewer@acme.example', businessId: biz.id, role: 'viewer' })
    const { path } = await authorizationUrl({ scope: 'admin' })
    const browser = await signedIn(viewer)
    const page = await browser.get((await browser.get(path)).location!)
    expect(page.status).toBe(200)
    const options = [...page.text.matchAll(/<select id="f-role" name="role">(.*?)<\/select>/gs)].map((m) =>
      [...m[1]!.matchAll(/<option value="(\w+)"/g)].map((o) => o[1]),
    )
    expect(options).toEqual([['viewer']])
    expect(page.text).toContain(
      'asked for the Admin Role; you are viewer in Acme GmbH, so it is offered Viewer at most',
    )
  })

  test('the consent page offers first the highest Role the app asked for that the person holds, and Deny is not the primary button', async () => {
    const { path } = await authorizationUrl({ scope: 'member' })
    const browser = await signedIn()
    const page = await browser.get((await browser.get(path)).location!)
    expect(page.text).toContain('<option value="member" selected>')
    // An Owner asked for member: nothing was lowered, so nothing says so.
    expect(page.text).not.toContain('at most.')
    // Connect is the primary button; Deny is a quiet one (the stylesheet draws button.quiet white, not in the accent).
    expect(page.text).toMatch(/<button type="submit" name="decision" value="approve">/)
    expect(page.text).toMatch(/<button type="submit" name="decision" value="deny" class="quiet">/)
    const css = await browser.get('/app/assets/app.css')
    expect(css.text).toContain('button.quiet')
  })

  test("the consent page's CSP form-action names the app's origin also when redirect_uri is left out (its only address stands in)", async () => {
    const { path } = await authorizationUrl({ redirect_uri: null })
    const browser = await signedIn()
    const toConsent = await browser.get(path)
    expect(toConsent.status).toBe(303)
    const page = await browser.get(toConsent.location!)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example;")
    // A page that shows no consent form (an unknown app) widens nothing.
    const unknown = await browser.get('/app/connect?client_id=app_nobody&response_type=code')
    expect(unknown.headers.get('content-security-policy')).toContain("form-action 'self';")
  })

  test('a consent form without its CSRF token changes nothing', async () => {
    const { path } = await authorizationUrl()
    const browser = await signedIn()
    await browser.get(path)
    const r = await browser.request('POST', '/app/connect', {
      client_id: clientId,
      redirect_uri: REDIRECT,
      business: biz.publicId,
      role: 'viewer',
      decision: 'approve',
    })
    expect(r.status).toBe(403)
    expect(r.location).toBeNull()
  })
})
