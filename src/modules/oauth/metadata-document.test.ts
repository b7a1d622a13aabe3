// Client ID Metadata Documents (extensions §10): a client_id that is the address of a JSON document naming the client.
// The document is fetched under the webhook address rules: here a local server stands in for the app's site, which
// only INVOICING_WEBHOOK_ALLOW_PRIVATE (the switch the webhook tests use) lets the service reach; without it the same
// kind of address is refused before any connection is made.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, randomBytes } from 'node:crypto'
import { makeHarness, type Harness } from '../../../test/harness'
import { AppClient, csrfOf, person } from '../../../test/app-client'
import type { DocumentFetcher } from '../../adapters/document-fetch'
import { eq, like } from 'drizzle-orm'
import { oauthApps } from '../../db/schema'

const ISSUER = 'https://invoices.example'
const REDIRECT = 'https://cimd.example/cb'
let h: Harness
let site: ReturnType<typeof Bun.serve>
let siteBase: string
/** What the app's site answers per path, and how often each was asked. */
const documents = new Map<string, () => Response>()
const asked = new Map<string, number>()
let biz: { id: number; publicId: string; key: string }
let owner: { email: string; password: string }

const docAt = (path: string, body: Record<string, unknown> | ((id: string) => Record<string, unknown>)) => {
  const id = `${siteBase}${path}`
  documents.set(path, () => Response.json(typeof body === 'function' ? body(id) : body))
  return id
}

beforeAll(async () => {
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname
      asked.set(path, (asked.get(path) ?? 0) + 1)
      return documents.get(path)?.() ?? new Response('no', { status: 404 })
    },
  })
  siteBase = `http://127.0.0.1:${site.port}`
  h = await makeHarness({ config: { publicUrl: ISSUER, webhookAllowPrivate: true } })
  biz = await h.business({ name: 'Dokument AG' })
  owner = await person(h, { email: 'owner@dokument.example', businessId: biz.id, role: 'owner' })
})
afterAll(async () => {
  site.stop(true)
  await h.close()
})

function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

function authorizePath(clientId: string, challenge: string) {
  const q = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    scope: 'member',
  })
  return `/oauth/authorize?${q}`
}

async function signedIn() {
  const browser = new AppClient(h)
  expect((await browser.signIn(owner.email, owner.password)).status).toBe(303)
  return browser
}

describe('Client ID Metadata Documents', () => {
  test('an app known only by its document address is named on the consent page, connected, and its token acts', async () => {
    const clientId = docAt('/apps/assistant.json', (id) => ({
      client_id: id,
      client_name: 'Doc Assistant',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }))
    const { verifier, challenge } = pkce()
    const browser = await signedIn()
    const toConsent = await browser.get(authorizePath(clientId, challenge))
    expect(toConsent.status).toBe(303)
    expect(toConsent.location).toStartWith('/app/connect?')
    const page = await browser.get(toConsent.location!)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Doc Assistant')
    const fields: Record<string, string> = {}
    for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields[m[1]!] = m[2]!.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    const answer = await browser.request('POST', '/app/connect', {
      ...fields,
      _csrf: csrfOf(page.text),
      business: biz.publicId,
      role: 'member',
      decision: 'approve',
    })
    expect(answer.status).toBe(303)
    const code = new URL(answer.location!).searchParams.get('code')!
    const res = await h.app.fetch(
      new Request(`${ISSUER}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: REDIRECT,
          client_id: clientId,
        }),
      }),
    )
    const t: any = await res.json()
    expect(res.status).toBe(200)
    expect((await h.request('GET', '/v1/business', { key: t.access_token })).status).toBe(200)
    const row = await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, clientId)).get()
    expect(row).toMatchObject({
      kind: 'metadata_document',
      name: 'Doc Assistant',
      clientSecretHash: null,
      ownerPersonId: null,
    })
    const listed = await h.request('GET', '/v1/connected-apps', { key: biz.key })
    expect(listed.body.data.map((c: any) => c.app)).toContainEqual({ client_id: clientId, name: 'Doc Assistant' })
  })

  test('a document is kept a day: within it the app is not fetched again; after it, a new name is taken', async () => {
    let name = 'Kept Assistant'
    const clientId = docAt('/apps/kept.json', (id) => ({ client_id: id, client_name: name, redirect_uris: [REDIRECT] }))
    let browser = await signedIn()
    const open = async () => {
      const to = await browser.get(authorizePath(clientId, pkce().challenge))
      return browser.get(to.location!)
    }
    expect((await open()).text).toContain('Kept Assistant')
    name = 'Renamed Assistant'
    expect((await open()).text).toContain('Kept Assistant')
    expect(asked.get('/apps/kept.json')).toBe(1)
    h.clock.advance(24 * 3600_000 + 1000)
    try {
      // A day later the session has ended (12 hours idle): the person signs in again.
      browser = await signedIn()
      expect((await open()).text).toContain('Renamed Assistant')
      expect(asked.get('/apps/kept.json')).toBe(2)
    } finally {
      h.clock.advance(-(24 * 3600_000 + 1000))
    }
  })

  test('a document that names another client, carries a secret, lists a bad redirect URI, redirects, is not JSON or is missing: an unknown app, shown on the page and never redirected', async () => {
    const bad = [
      docAt('/bad/other-id.json', {
        client_id: 'https://elsewhere.example/app.json',
        client_name: 'Impostor',
        redirect_uris: [REDIRECT],
      }),
      docAt('/bad/secret.json', (id) => ({
        client_id: id,
        client_name: 'Secretive',
        client_secret: 's3cret',
        redirect_uris: [REDIRECT],
      })),
      docAt('/bad/auth.json', (id) => ({
        client_id: id,
        client_name: 'Basic',
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: [REDIRECT],
      })),
      docAt('/bad/uri.json', (id) => ({
        client_id: id,
        client_name: 'Plain',
        redirect_uris: ['http://cimd.example/cb'],
      })),
    ]
    documents.set(
      '/bad/redirect.json',
      () => new Response(null, { status: 302, headers: { location: `${siteBase}/apps/assistant.json` } }),
    )
    documents.set('/bad/text.json', () => new Response('client_id=x', { headers: { 'content-type': 'text/plain' } }))
    bad.push(`${siteBase}/bad/redirect.json`, `${siteBase}/bad/text.json`, `${siteBase}/bad/missing.json`)
    const browser = await signedIn()
    for (const clientId of bad) {
      const r = await browser.get(authorizePath(clientId, pkce().challenge))
      expect(r.status, clientId).toBe(400)
      expect(r.location, clientId).toBeNull()
      expect(r.text).toContain('not known')
    }
    expect(
      await h.deps.db.read
        .select()
        .from(oauthApps)
        .where(like(oauthApps.clientId, `${siteBase}/bad/%`))
        .get(),
    ).toBeUndefined()
  })
})

describe('documents fetched per address', () => {
  test('20 new documents an hour from one address; the 21st is an unknown app, not fetched; kept ones and other addresses go on', async () => {
    const from = (clientId: string, address: string) =>
      h.app.fetch(new Request(`${ISSUER}${authorizePath(clientId, pkce().challenge)}`), {
        requestIP: () => ({ address }),
      })
    const ids = Array.from({ length: 21 }, (_, i) =>
      docAt(`/many/${i}.json`, (id) => ({ client_id: id, client_name: `Many ${i}`, redirect_uris: [REDIRECT] })),
    )
    for (const id of ids.slice(0, 20)) expect((await from(id, '203.0.113.50')).status).toBe(303)
    const refused = await from(ids[20]!, '203.0.113.50')
    expect(refused.status).toBe(400)
    expect(refused.headers.get('location')).toBeNull()
    expect(asked.get('/many/20.json')).toBeUndefined()
    // A document kept already is not fetched, so it is not counted.
    expect((await from(ids[0]!, '203.0.113.50')).status).toBe(303)
    // The token endpoint counts too: an unknown document named there is not fetched either.
    const token = await h.app.fetch(
      new Request(`${ISSUER}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'inv_rt_x', client_id: ids[20]! }),
      }),
      { requestIP: () => ({ address: '203.0.113.50' }) },
    )
    expect(token.status).toBe(400)
    expect(asked.get('/many/20.json')).toBeUndefined()
    expect((await from(ids[20]!, '198.51.100.60')).status).toBe(303)
    expect(asked.get('/many/20.json')).toBe(1)
  })
})

describe('the consent page counts its fetches with the authorization endpoint', () => {
  test('/app/connect fetches new documents under the same limit per address: after 20 from one address (some via /oauth/authorize), the 21st is not fetched', async () => {
    const browser = await signedIn()
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const connect = (clientId: string, address: string) => {
      const q = new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        state: 'st',
        scope: 'member',
      })
      return h.app.fetch(new Request(`${ISSUER}/app/connect?${q}`, { headers: { cookie } }), {
        requestIP: () => ({ address }),
      })
    }
    const authorize = (clientId: string, address: string) =>
      h.app.fetch(new Request(`${ISSUER}${authorizePath(clientId, pkce().challenge)}`), {
        requestIP: () => ({ address }),
      })
    const ids = Array.from({ length: 21 }, (_, i) =>
      docAt(`/consent/${i}.json`, (id) => ({ client_id: id, client_name: `Consent ${i}`, redirect_uris: [REDIRECT] })),
    )
    for (const id of ids.slice(0, 10)) expect((await authorize(id, '203.0.113.77')).status).toBe(303)
    for (const id of ids.slice(10, 20)) expect((await connect(id, '203.0.113.77')).status).toBe(200)
    const refused = await connect(ids[20]!, '203.0.113.77')
    expect(await refused.text()).toContain('not known to this service')
    expect(asked.get('/consent/20.json')).toBeUndefined()
    // Another address goes on.
    expect(await (await connect(ids[20]!, '198.51.100.77')).text()).toContain('Consent 20')
    expect(asked.get('/consent/20.json')).toBe(1)
  })
})

describe('without INVOICING_WEBHOOK_ALLOW_PRIVATE (production)', () => {
  test('a document on a private address, or over http, is never fetched: the app is unknown', async () => {
    const fetched: string[] = []
    const fetcher: DocumentFetcher = {
      async get(r) {
        fetched.push(r.url.toString())
        return { kind: 'error', error: 'not in this test' }
      },
    }
    // docs.example resolves to the loopback address, as an attacker's name pointed inward would.
    const prod = await makeHarness({
      config: { publicUrl: ISSUER },
      overrides: { fetcher, resolve: async () => ['127.0.0.1'] },
    })
    try {
      for (const clientId of [
        'https://docs.example/app.json',
        `${siteBase}/apps/assistant.json`,
        'https://10.0.0.7/app.json',
      ]) {
        const r = await prod.app.fetch(new Request(`${ISSUER}${authorizePath(clientId, pkce().challenge)}`))
        expect(r.status, clientId).toBe(400)
        expect(r.headers.get('location')).toBeNull()
      }
      expect(fetched).toEqual([])
    } finally {
      await prod.close()
    }
  })
})
