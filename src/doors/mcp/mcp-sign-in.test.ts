// The MCP SDK's own client, with its own OAuth machinery (auth.js), signs a person in knowing nothing but the URL of
// /mcp: the 401's WWW-Authenticate names the protected resource metadata (RFC 9728), which names this server as
// the authorization server (RFC 8414), where the client registers itself (RFC 7591), sends the person to consent
// with PKCE S256 and a resource indicator (RFC 8707), exchanges the code and calls a tool with the token.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { makeHarness, type Harness } from '../../../test/harness'
import { MemoryProvider as SharedProvider, REDIRECT } from '../../../test/mcp-oauth'
import { AppClient, csrfOf, person } from '../../../test/app-client'
import { disconnectConnectedApp } from '../../modules/oauth'
import { desc } from 'drizzle-orm'
import { connectedApps } from '../../db/schema'

const ISSUER = 'https://invoices.example'
const MCP_URL = `${ISSUER}/mcp`
let h: Harness
let biz: { id: number; publicId: string; key: string }
let owner: { email: string; password: string }
/** Every request the SDK made, in order (method and path), to show what it discovered and from where. */
const seen: string[] = []
/** The SDK's fetch reaches the service in-process: the issuer's https origin needs no certificate in a test. */
const fetchFn = (url: string | URL, init?: RequestInit) => {
  const u = new URL(String(url))
  seen.push(`${init?.method ?? 'GET'} ${u.pathname}`)
  return h.app.fetch(new Request(u, init))
}

beforeAll(async () => {
  h = await makeHarness({ config: { publicUrl: ISSUER } })
  biz = await h.business({ name: 'Assistant GmbH' })
  owner = await person(h, { email: 'owner@assistant.example', businessId: biz.id, role: 'owner' })
  await h.client(biz.key, { name: 'Kunde Eins' })
})
afterAll(() => h.close())

/** The person in the browser: signed in, opens the authorization URL, approves on the consent page. */
async function consentOverHttp(authorizationUrl: URL, role: string): Promise<URL> {
  const browser = new AppClient(h)
  expect((await browser.signIn(owner.email, owner.password)).status).toBe(303)
  const toConsent = await browser.get(authorizationUrl.pathname + authorizationUrl.search)
  expect(toConsent.status).toBe(303)
  const page = await browser.get(toConsent.location!)
  expect(page.status).toBe(200)
  const fields: Record<string, string[]> = {}
  for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    ;(fields[m[1]!] ??= []).push(
      m[2]!.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
    )
  }
  const answer = await browser.request('POST', '/app/connect', {
    ...fields,
    _csrf: csrfOf(page.text),
    business: biz.publicId,
    role,
    decision: 'approve',
  })
  expect(answer.status).toBe(303)
  return new URL(answer.location!)
}

/** The shared in-memory provider (test/mcp-oauth.ts), whose person consents over HTTP with `role`. */
class MemoryProvider extends SharedProvider {
  constructor(role: string) {
    super((url) => consentOverHttp(url, role))
  }
}

describe('the MCP SDK client signs a person in with nothing but the address of /mcp', () => {
  test('401 → resource metadata → server metadata → registration → consent → token → a tool call that acts for the Business', async () => {
    const provider = new MemoryProvider('member')
    const first = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: fetchFn })
    const client = new Client({ name: 'desk-assistant', version: '1.0.0' })
    // Without a token the SDK meets the 401, discovers everything, registers and sends the person to consent.
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError)

    // Everything was found from the 401 alone: the resource metadata it named, the server's metadata, registration.
    expect(seen).toContain('GET /.well-known/oauth-protected-resource/mcp')
    expect(seen).toContain('GET /.well-known/oauth-authorization-server')
    expect(seen).toContain('POST /oauth/register')
    expect(provider.info?.client_id).toBeString()
    expect((provider.info as any).client_secret).toBeUndefined()

    // The authorization request the SDK built: PKCE S256, our state, the /mcp resource.
    const asked = provider.authorizationUrl!
    expect(asked.origin + asked.pathname).toBe(`${ISSUER}/oauth/authorize`)
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256')
    expect(asked.searchParams.get('resource')).toBe(MCP_URL)
    expect(asked.searchParams.get('redirect_uri')).toBe(REDIRECT)

    // The answer came back to the registered address with code, the same state and iss (RFC 9207).
    const back = provider.arrived!
    expect(back.origin + back.pathname).toBe(REDIRECT)
    expect(back.searchParams.get('state')).toBe(provider.sentState)
    expect(back.searchParams.get('iss')).toBe(ISSUER)
    const code = back.searchParams.get('code')!
    expect(code).toBeString()

    await first.finishAuth(code)
    expect(provider.saved?.access_token).toStartWith('inv_at_')
    expect(provider.saved?.refresh_token).toStartWith('inv_rt_')
    expect(provider.saved?.token_type.toLowerCase()).toBe('bearer')

    // The same provider now connects and calls tools as the Connected app (Member, as granted).
    const signedIn = new Client({ name: 'desk-assistant', version: '1.0.0' })
    await signedIn.connect(
      new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: fetchFn }),
    )
    const { tools } = await signedIn.listTools()
    expect(tools.map((t) => t.name)).toContain('clients_create')
    expect(tools.map((t) => t.name)).not.toContain('business_update')
    const listed: any = await signedIn.callTool({ name: 'clients_list', arguments: {} })
    expect(listed.isError).toBeFalsy()
    expect(listed.structuredContent.data.map((c: any) => c.name)).toEqual(['Kunde Eins'])
    const made: any = await signedIn.callTool({
      name: 'clients_create',
      arguments: { name: 'Kunde Zwei', email: 'zwei@kunde.example', country: 'DE' },
    })
    expect(made.isError).toBeFalsy()
    expect(made.structuredContent.name).toBe('Kunde Zwei')
    await signedIn.close()

    // The token was issued for /mcp only (RFC 8707): the API does not take it.
    const onApi = await h.request('GET', '/v1/clients', { key: provider.saved!.access_token })
    expect(onApi.status).toBe(401)
  }, 30_000)

  test('when the access token has expired the SDK refreshes it (rotating the refresh token) and goes on', async () => {
    const provider = new MemoryProvider('viewer')
    const client = new Client({ name: 'desk-assistant', version: '1.0.0' })
    const first = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: fetchFn })
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError)
    await first.finishAuth(provider.arrived!.searchParams.get('code')!)
    const before = provider.saved!
    h.clock.advance(3601_000)
    try {
      const again = new Client({ name: 'desk-assistant', version: '1.0.0' })
      await again.connect(
        new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: fetchFn }),
      )
      const listed: any = await again.callTool({ name: 'clients_list', arguments: {} })
      expect(listed.isError).toBeFalsy()
      expect(provider.saved!.access_token).not.toBe(before.access_token)
      expect(provider.saved!.refresh_token).not.toBe(before.refresh_token)
      await again.close()
    } finally {
      h.clock.advance(-3601_000)
    }
  }, 30_000)
})

describe('when the Connected app has ended', () => {
  test('the SDK meets 401, its refresh is invalid_grant, and it asks the person again (a new consent), then goes on', async () => {
    const provider = new MemoryProvider('viewer')
    const first = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: fetchFn })
    await expect(new Client({ name: 'desk-assistant', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    )
    await first.finishAuth(provider.arrived!.searchParams.get('code')!)
    const ended = await h.deps.db.read.select().from(connectedApps).orderBy(desc(connectedApps.id)).limit(1).get()
    await disconnectConnectedApp(h.deps.db, h.clock, biz.id, ended!.id)
    const consentBefore = provider.authorizationUrl
    const registered = provider.info!.client_id
    const again = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: fetchFn })
    // The stored token answers 401, the refresh is refused invalid_grant (RFC 6749 §5.2): the SDK drops its tokens and
    // sends the person to consent again with the client it registered.
    await expect(new Client({ name: 'desk-assistant', version: '1.0.0' }).connect(again)).rejects.toBeInstanceOf(
      UnauthorizedError,
    )
    expect(provider.authorizationUrl).not.toBe(consentBefore)
    expect(provider.info!.client_id).toBe(registered)
    await again.finishAuth(provider.arrived!.searchParams.get('code')!)
    const client = new Client({ name: 'desk-assistant', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: fetchFn }),
    )
    expect(((await client.callTool({ name: 'clients_list', arguments: {} })) as any).isError).toBeFalsy()
    await client.close()
  }, 30_000)
})

describe('over a real socket, with the SDK’s own fetch', () => {
  test('the same sign-in against a listening server whose public URL is its own address', async () => {
    // The port is known once bound; the public URL (the issuer, and the resource) follows it.
    const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const port = probe.port
    probe.stop(true)
    const origin = `http://127.0.0.1:${port}`
    const real = await makeHarness({ config: { publicUrl: origin, port } })
    const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: (req, srv) => real.app.fetch(req, srv) })
    try {
      const b = await real.business({ name: 'Socket GmbH' })
      const who = await person(real, { email: 'owner@socket.example', businessId: b.id, role: 'owner' })
      await real.client(b.key, { name: 'Socket Kunde' })
      let code = ''
      const provider = new (class extends MemoryProvider {
        override async redirectToAuthorization(url: URL) {
          this.authorizationUrl = url
          const browser = new AppClient(real)
          expect((await browser.signIn(who.email, who.password)).status).toBe(303)
          const toConsent = await browser.get(url.pathname + url.search)
          const page = await browser.get(toConsent.location!)
          const fields: Record<string, string[]> = {}
          for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
            ;(fields[m[1]!] ??= []).push(
              m[2]!.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
            )
          }
          const answer = await browser.request('POST', '/app/connect', {
            ...fields,
            _csrf: csrfOf(page.text),
            business: b.publicId,
            role: 'viewer',
            decision: 'approve',
          })
          code = new URL(answer.location!).searchParams.get('code')!
        }
      })('viewer')
      const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider })
      await expect(new Client({ name: 'desk-assistant', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      )
      expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${origin}/mcp`)
      await transport.finishAuth(code)
      const client = new Client({ name: 'desk-assistant', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { authProvider: provider }))
      const listed: any = await client.callTool({ name: 'clients_list', arguments: {} })
      expect(listed.structuredContent.data.map((c: any) => c.name)).toEqual(['Socket Kunde'])
      await client.close()
    } finally {
      server.stop(true)
      await real.close()
    }
  }, 30_000)
})
