// The authorization server's endpoints held to the RFCs by oauth4webapi, a strict certified client: discovery, code +
// PKCE (S256 only), refresh rotation with reuse detection, revocation, registration, RFC 6749 §5.2 errors.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { makeHarness, type Harness } from '../../../test/harness'
import { createApp, issueCode, s256, sha256 } from '../../modules/oauth'
import { desc, eq } from 'drizzle-orm'
import { connectedApps, oauthApps, oauthTokens } from '../../db/schema'

const ISSUER = 'https://invoices.example'
const REDIRECT = 'https://app.example/callback'
let h: Harness
let as: oauth.AuthorizationServer
let businessId: number
const opts = (): any => ({
  [oauth.customFetch]: (url: string, init: RequestInit) => h.app.fetch(new Request(url, init)),
})

beforeAll(async () => {
  h = await makeHarness({ config: { publicUrl: ISSUER } })
  businessId = (await h.business()).id
  const issuer = new URL(ISSUER)
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...opts() }),
  )
})
afterAll(() => h.close())

async function app(pub = true) {
  return createApp(h.deps.db, h.clock, {
    ownerPersonId: 1,
    name: 'Books Sync',
    redirectUris: [REDIRECT, 'http://127.0.0.1:8123/cb'],
    public: pub,
  })
}

/** What a person's consent produces (the consent page arrives with sign-in); the code as a redirect would carry it. */
async function consent(
  appId: string,
  challenge: string,
  o: { role?: 'admin' | 'member' | 'viewer'; redirectUri?: string; resources?: string[] } = {},
) {
  const row = await h.deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, appId)).get()
  const code = await issueCode(h.deps.db, h.clock, {
    appId: row!.id,
    businessId,
    personId: 1,
    role: o.role ?? 'member',
    redirectUri: o.redirectUri ?? REDIRECT,
    codeChallenge: challenge,
    resources: o.resources ?? [`${ISSUER}/v1`, `${ISSUER}/mcp`],
  })
  return new URL(`${o.redirectUri ?? REDIRECT}?code=${code}&state=st&iss=${encodeURIComponent(ISSUER)}`)
}

async function pkce() {
  const verifier = oauth.generateRandomCodeVerifier()
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) }
}

async function exchange(
  client: oauth.Client,
  auth: oauth.ClientAuth,
  callback: URL,
  verifier: string,
  redirect = REDIRECT,
) {
  const params = oauth.validateAuthResponse(as, client, callback, 'st')
  const res = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirect, verifier, opts())
  return oauth.processAuthorizationCodeResponse(as, client, res)
}

async function rawToken(body: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await h.app.fetch(
    new Request(`${ISSUER}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body),
    }),
  )
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> }
}

/** A fresh PKCE pair and the code a consent issues for it to the app. */
async function codeFor(clientId: string) {
  const { verifier, challenge } = await pkce()
  return { verifier, code: (await consent(clientId, challenge)).searchParams.get('code')! }
}

/** The tokens a public client gets through the whole flow: consent, then its code exchanged with the verifier. */
async function publicTokens(clientId: string) {
  const { verifier, challenge } = await pkce()
  return exchange({ client_id: clientId }, oauth.None(), await consent(clientId, challenge), verifier)
}

/** The token endpoint asked, form-encoded as a public client would, to redeem a code. */
function redeemCode(code: string, verifier: string, clientId: string, redirectUri = REDIRECT) {
  return rawToken({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
    client_id: clientId,
  })
}

/** The token endpoint asked, form-encoded as a public client would, for new tokens against a refresh token. */
function refreshGrant(refreshToken: string, clientId: string, extra: Record<string, string> = {}) {
  return rawToken({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...extra })
}

/** The stored row of an access or refresh token, found by its hash. */
function tokenRow(token: string) {
  return h.deps.db.read
    .select()
    .from(oauthTokens)
    .where(eq(oauthTokens.tokenHash, sha256(token)))
    .get()
}

/** A dynamic registration (RFC 7591) asking for one redirect URI. */
function register(uri: string) {
  return h.app.fetch(
    new Request(`${ISSUER}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [uri] }),
    }),
  )
}

describe('discovery (RFC 8414)', () => {
  test('the metadata names every endpoint of extensions §10, S256 only, iss in answers, metadata documents', async () => {
    expect(as.issuer).toBe(ISSUER)
    expect(as.authorization_endpoint).toBe(`${ISSUER}/oauth/authorize`)
    expect(as.token_endpoint).toBe(`${ISSUER}/oauth/token`)
    expect(as.revocation_endpoint).toBe(`${ISSUER}/oauth/revoke`)
    expect(as.registration_endpoint).toBe(`${ISSUER}/oauth/register`)
    expect(as.code_challenge_methods_supported).toEqual(['S256'])
    expect(as.grant_types_supported).toEqual(['authorization_code', 'refresh_token'])
    expect(as.response_types_supported).toEqual(['code'])
    expect(as.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none'])
    expect(as.scopes_supported).toEqual(['admin', 'member', 'viewer'])
    expect(as.authorization_response_iss_parameter_supported).toBe(true)
    expect((as as Record<string, unknown>).client_id_metadata_document_supported).toBe(true)
  })

  test('the protected resource documents (RFC 9728) name this server as the authorization server', async () => {
    for (const r of ['mcp', 'v1']) {
      const res = await h.app.fetch(new Request(`${ISSUER}/.well-known/oauth-protected-resource/${r}`))
      expect(res.status).toBe(200)
      const doc: any = await res.json()
      expect(doc.resource).toBe(`${ISSUER}/${r}`)
      expect(doc.authorization_servers).toEqual([ISSUER])
    }
  })
})

describe('authorization code with PKCE', () => {
  test('RFC 7636 Appendix B: the S256 challenge of the example verifier', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })

  test('a public client exchanges its code with the verifier for an inv_at_ access token of one hour and an inv_rt_ refresh token', async () => {
    const a = await app()
    const { verifier, challenge } = await pkce()
    const t = await exchange(
      { client_id: a.client_id, token_endpoint_auth_method: 'none' },
      oauth.None(),
      await consent(a.client_id, challenge),
      verifier,
    )
    expect(t.token_type).toBe('bearer')
    expect(t.access_token).toStartWith('inv_at_')
    expect(t.refresh_token).toStartWith('inv_rt_')
    expect(t.expires_in).toBe(3600)
    expect(t.scope).toBe('member')
  })

  test('a confidential client authenticates with client_secret_basic and with client_secret_post', async () => {
    const a = await app(false)
    for (const auth of [oauth.ClientSecretBasic(a.client_secret!), oauth.ClientSecretPost(a.client_secret!)]) {
      const { verifier, challenge } = await pkce()
      const t = await exchange({ client_id: a.client_id }, auth, await consent(a.client_id, challenge), verifier)
      expect(t.access_token).toStartWith('inv_at_')
    }
  })

  test('a confidential client without its secret, or with a wrong one, is invalid_client (401 with WWW-Authenticate over Basic)', async () => {
    const a = await app(false)
    const { verifier, code } = await codeFor(a.client_id)
    const none = await redeemCode(code, verifier, a.client_id)
    expect(none.status).toBe(400)
    expect(none.body.error).toBe('invalid_client')
    const wrong = await rawToken(
      { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT },
      { authorization: 'Basic ' + Buffer.from(`${a.client_id}:inv_cs_wrong`).toString('base64') },
    )
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toBe('invalid_client')
    expect(wrong.headers.get('www-authenticate')).toStartWith('Basic')
  })

  test('a wrong verifier is invalid_grant, and the code is spent', async () => {
    const a = await app()
    const { verifier, code } = await codeFor(a.client_id)
    const bad = await redeemCode(code, oauth.generateRandomCodeVerifier(), a.client_id)
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('invalid_grant')
    const again = await redeemCode(code, verifier, a.client_id)
    expect(again.body.error).toBe('invalid_grant')
  })

  test('a missing verifier is invalid_grant', async () => {
    const a = await app()
    const { code } = await codeFor(a.client_id)
    const r = await rawToken({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: a.client_id })
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('invalid_grant')
  })

  test('a code used twice is invalid_grant and ends every token issued from it', async () => {
    const a = await app()
    const { verifier, challenge } = await pkce()
    const callback = await consent(a.client_id, challenge)
    const first = await exchange({ client_id: a.client_id }, oauth.None(), callback, verifier)
    const code = callback.searchParams.get('code')!
    const second = await redeemCode(code, verifier, a.client_id)
    expect(second.status).toBe(400)
    expect(second.body.error).toBe('invalid_grant')
    const refresh = await refreshGrant(first.refresh_token!, a.client_id)
    expect(refresh.body.error).toBe('invalid_grant')
    const access = await tokenRow(first.access_token)
    expect(access!.endedAt).not.toBeNull()
  })

  test('a code lives 60 seconds', async () => {
    const a = await app()
    const { verifier, code } = await codeFor(a.client_id)
    h.clock.advance(61_000)
    const r = await redeemCode(code, verifier, a.client_id)
    expect(r.body.error).toBe('invalid_grant')
  })

  test('another redirect_uri than the code was issued to is invalid_grant', async () => {
    const a = await app()
    const { verifier, code } = await codeFor(a.client_id)
    const r = await redeemCode(code, verifier, a.client_id, 'https://app.example/other')
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('invalid_grant')
  })

  test("another app's code is invalid_grant", async () => {
    const a = await app()
    const b = await app()
    const { verifier, code } = await codeFor(a.client_id)
    const r = await redeemCode(code, verifier, b.client_id)
    expect(r.body.error).toBe('invalid_grant')
  })

  test('resource (RFC 8707) narrows the access token to the resources asked; one the grant lacks is invalid_target', async () => {
    const a = await app()
    const { verifier, code } = await codeFor(a.client_id)
    const res = await h.app.fetch(
      new Request(`${ISSUER}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=authorization_code&code=${code}&code_verifier=${verifier}&redirect_uri=${encodeURIComponent(REDIRECT)}&client_id=${a.client_id}&resource=${encodeURIComponent(ISSUER + '/mcp')}`,
      }),
    )
    const t: any = await res.json()
    expect(res.status).toBe(200)
    const row = await tokenRow(t.access_token)
    expect(JSON.parse(row!.resources)).toEqual([`${ISSUER}/mcp`])
    const other = await refreshGrant(t.refresh_token, a.client_id, { resource: 'https://elsewhere.example/api' })
    expect(other.status).toBe(400)
    expect(other.body.error).toBe('invalid_target')
  })
})

describe('refresh tokens', () => {
  test('every use rotates the refresh token; presenting a rotated one ends the Connected app', async () => {
    const a = await app()
    const client = { client_id: a.client_id }
    const { verifier, challenge } = await pkce()
    const first = await exchange(client, oauth.None(), await consent(a.client_id, challenge), verifier)
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, opts()),
    )
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(second.access_token).not.toBe(first.access_token)
    const reuse = await refreshGrant(first.refresh_token!, a.client_id)
    expect(reuse.status).toBe(400)
    expect(reuse.body.error).toBe('invalid_grant')
    // The connection ended: the newest refresh token no longer works either.
    const after = await refreshGrant(second.refresh_token!, a.client_id)
    expect(after.body.error).toBe('invalid_grant')
    const c = await h.deps.db.read.select().from(connectedApps).orderBy(desc(connectedApps.id)).limit(1).get()
    expect(c!.endReason).toBe('refresh_token_reused')
  })
})

describe('revocation (RFC 7009)', () => {
  test('revoking the refresh token ends the Connected app; revoking an access token ends that token only', async () => {
    const a = await app()
    const client = { client_id: a.client_id }
    const t = await publicTokens(a.client_id)
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), t.access_token, opts()),
    )
    const access = await tokenRow(t.access_token)
    expect(access!.endReason).toBe('revoked')
    const stillRefreshes = await refreshGrant(t.refresh_token!, a.client_id)
    expect(stillRefreshes.status).toBe(200)
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), stillRefreshes.body.refresh_token!, opts()),
    )
    const ended = await refreshGrant(stillRefreshes.body.refresh_token!, a.client_id)
    expect(ended.body.error).toBe('invalid_grant')
  })

  test("a public client presenting an unknown token, or another client's, is answered 200 and nothing is revoked", async () => {
    const a = await app()
    const b = await app()
    const t = await publicTokens(a.client_id)
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, { client_id: b.client_id }, oauth.None(), t.refresh_token!, opts()),
    )
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, { client_id: b.client_id }, oauth.None(), 'inv_rt_nothing', opts()),
    )
    const r = await refreshGrant(t.refresh_token!, a.client_id)
    expect(r.status).toBe(200)
  })
  test("a confidential client presenting another client's token is refused invalid_request and the token goes on working (RFC 7009 §2.1)", async () => {
    const a = await app()
    const confidential = await app(false)
    const t = await publicTokens(a.client_id)
    const revoke = (token: string) =>
      h.app.fetch(
        new Request(`${ISSUER}/oauth/revoke`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${btoa(`${confidential.client_id}:${confidential.client_secret}`)}`,
          },
          body: new URLSearchParams({ token }),
        }),
      )
    for (const token of [t.refresh_token!, t.access_token]) {
      const res = await revoke(token)
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error).toBe('invalid_request')
    }
    const access = await tokenRow(t.access_token)
    expect(access!.endedAt).toBeNull()
    expect((await refreshGrant(t.refresh_token!, a.client_id)).status).toBe(200)
    // An unknown token is still 200 for it (§2.2): there is nothing to tell.
    expect((await revoke('inv_rt_nothing')).status).toBe(200)
  })
})

describe('dynamic registration (RFC 7591)', () => {
  test('registers a public client that then completes the flow', async () => {
    const meta = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: [REDIRECT], client_name: 'Assistant', token_endpoint_auth_method: 'none' },
        opts(),
      ),
    )
    expect(meta.client_id).toStartWith('app_')
    expect(meta.token_endpoint_auth_method).toBe('none')
    expect(meta.client_secret).toBeUndefined()
    const t = await publicTokens(meta.client_id)
    expect(t.access_token).toStartWith('inv_at_')
  })

  test('a redirect URI that is neither https nor loopback http is invalid_redirect_uri', async () => {
    for (const uri of ['http://app.example/cb', 'https://app.example/cb#frag', 'javascript:alert(1)', 'not a uri']) {
      const res = await register(uri)
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error).toBe('invalid_redirect_uri')
    }
  })
})

describe('loopback redirect URIs (extensions §10)', () => {
  test('http:// is taken on 127.0.0.1 and [::1] only: http://localhost is invalid_redirect_uri (a name any resolver may point elsewhere)', async () => {
    for (const uri of ['http://localhost:8123/cb', 'http://localhost/cb', 'http://LOCALHOST:9/cb']) {
      const res = await register(uri)
      expect(res.status).toBe(400)
      expect(((await res.json()) as any).error).toBe('invalid_redirect_uri')
    }
    for (const uri of ['http://127.0.0.1:8123/cb', 'http://[::1]:8123/cb'])
      expect((await register(uri)).status).toBe(201)
  })
})

describe('registration is limited per address', () => {
  test('20 registrations an hour from one IP address; the 21st is 429 too_many_requests with Retry-After; other addresses go on', async () => {
    const from = (address: string) =>
      h.app.fetch(
        new Request(`${ISSUER}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Flood' }),
        }),
        { requestIP: () => ({ address }) },
      )
    for (let i = 0; i < 20; i++) expect((await from('203.0.113.9')).status).toBe(201)
    const refused = await from('203.0.113.9')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(((await refused.json()) as any).error).toBe('too_many_requests')
    expect((await from('198.51.100.4')).status).toBe(201)
    h.clock.advance(3600_000)
    try {
      expect((await from('203.0.113.9')).status).toBe(201)
    } finally {
      h.clock.advance(-3600_000)
    }
  })
})

describe('RFC 6749 §5.2 errors', () => {
  test('unknown grant type, JSON body, repeated parameter, unknown client', async () => {
    const a = await app()
    expect((await rawToken({ grant_type: 'password', client_id: a.client_id })).body.error).toBe(
      'unsupported_grant_type',
    )
    expect((await rawToken({ grant_type: 'client_credentials', client_id: a.client_id })).body.error).toBe(
      'unsupported_grant_type',
    )
    const json = await h.app.fetch(
      new Request(`${ISSUER}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"grant_type":"authorization_code"}',
      }),
    )
    expect(json.status).toBe(400)
    expect(((await json.json()) as any).error).toBe('invalid_request')
    const twice = await h.app.fetch(
      new Request(`${ISSUER}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=refresh_token&grant_type=authorization_code',
      }),
    )
    expect(((await twice.json()) as any).error).toBe('invalid_request')
    const unknown = await refreshGrant('inv_rt_x', 'app_nobody')
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toBe('invalid_client')
    const get = await h.app.fetch(new Request(`${ISSUER}/oauth/token`))
    expect(get.status).toBe(405)
  })

  test('token answers are not cached', async () => {
    const a = await app()
    const r = await refreshGrant('inv_rt_x', a.client_id)
    expect(r.headers.get('cache-control')).toBe('no-store')
  })
})

describe('storage', () => {
  test('codes, tokens and client secrets are stored only as hashes', async () => {
    const a = await app(false)
    const { verifier, challenge } = await pkce()
    const callback = await consent(a.client_id, challenge)
    const t = await exchange({ client_id: a.client_id }, oauth.ClientSecretBasic(a.client_secret!), callback, verifier)
    const file = await Bun.file(`${h.dir}/test.db`).arrayBuffer()
    const wal = await Bun.file(`${h.dir}/test.db-wal`)
      .arrayBuffer()
      .catch(() => new ArrayBuffer(0))
    const text = Buffer.concat([Buffer.from(file), Buffer.from(wal)]).toString('latin1')
    for (const secret of [t.access_token, t.refresh_token!, a.client_secret!, callback.searchParams.get('code')!])
      expect(text.includes(secret)).toBe(false)
  })
})
